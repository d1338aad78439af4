// Matching states to the sketches they came from (core/search/sketch_match.h) and the annotation summary
// (core/search/annotation_summary.h): every state the search's own rules make from a sketch (random
// annotation, chains of every mutation, crossover) maps back to that sketch and to no other; states of
// another structure map to none; the summary of a hand-built state reads exactly what its steps chose.
#include "search_fixtures.h"

#include "core/lower/lower.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/schedule/step_json.h"
#include "core/search/annotation.h"
#include "core/search/annotation_summary.h"
#include "core/search/sketch.h"
#include "core/search/sketch_match.h"

#include <gtest/gtest.h>

#include <map>

using namespace ts;
using namespace ts::search;
using namespace ts::testing;
using sched::State;

namespace {

std::string text(const State& s) { return sched::stepsToText(s.steps()); }

} // namespace

TEST(SketchMatch, EveryStateTheSearchMakesMapsBackToItsSketch)
{
    const SearchParams params;
    std::vector<SearchTask> tasks { matmul(), conv2dNhwcBiasRelu(), dense(), depthwise(), batchMatmul(), softmax() };
    // With packed weights (a network's tasks): TuneScope's weight-axis rule appends a reorder to some annotations.
    // An NCHW convolution's innermost loop (xx) does not index its weight, so the rule may move ff there.
    ir::Tensor data = ir::placeholder("data", { 1, 16, 8, 8 });
    ir::Tensor weight = ir::placeholder("weight", { 32, 16, 3, 3 });
    ops::Conv2dParams nchw;
    nchw.padding = ops::Conv2dParams::symmetric(1, 1);
    for (SearchTask packed : { task("conv2d_nchw", { data, weight, value(ops::conv2d(data, weight, nchw)) }),
             conv2dNhwcBiasRelu(), dense() }) {
        packed.packsWeights = true;
        packed.name += " (packed weights)";
        tasks.push_back(packed);
    }
    int reordered = 0;
    for (const SearchTask& t : tasks) {
        const std::vector<Sketch> sketches = value(generateSketches(t, params));
        ASSERT_FALSE(sketches.empty()) << t.name;
        Rng rng(11);
        std::map<MutationKind, int> mutated;
        int crossed = 0;
        for (size_t s = 0; s < sketches.size(); ++s) {
            EXPECT_EQ(sketchIndexOf(sketches, sketches[s].state), static_cast<int>(s)) << t.name << " sketch " << s;
            std::vector<State> family;
            for (int i = 0; i < 12; ++i) {
                State state = value(randomAnnotation(t, sketches[s], params, rng));
                for (size_t k = sketches[s].state.steps().size(); k < state.steps().size(); ++k)
                    reordered += std::holds_alternative<sched::ReorderStep>(state.steps()[k]) ? 1 : 0;
                ASSERT_EQ(sketchIndexOf(sketches, state), static_cast<int>(s))
                    << t.name << " " << sketches[s].rules << "\n"
                    << text(state);
                // A chain of mutations of every kind, as evolution applies them generation after generation.
                for (int k = 0; k < 8; ++k) {
                    const auto kind = static_cast<MutationKind>((i + k) % 4);
                    auto child = mutate(t, state, kind, params, rng);
                    if (!child)
                        continue;
                    ++mutated[kind];
                    state = std::move(child).value();
                    ASSERT_EQ(sketchIndexOf(sketches, state), static_cast<int>(s))
                        << t.name << " " << toString(kind) << " of a state of " << sketches[s].rules << "\n"
                        << text(state);
                }
                family.push_back(state);
            }
            for (size_t i = 0; i + 1 < family.size(); ++i)
                if (auto child = crossover(t, family[i], family[i + 1], rng)) {
                    ++crossed;
                    EXPECT_EQ(sketchIndexOf(sketches, *child), static_cast<int>(s)) << t.name << "\n" << text(*child);
                }
        }
        EXPECT_GT(mutated[MutationKind::TileSize], 0) << t.name;
        EXPECT_GT(mutated[MutationKind::AutoUnroll] + mutated[MutationKind::Parallel], 0) << t.name;
        if (t.name == "matmul") {
            EXPECT_GT(crossed, 0);
            EXPECT_EQ(sketches.size(), 3U); // with and without the cache stage, fused at two levels
        }
    }
    EXPECT_GT(reordered, 0) << "no annotation moved a weight axis innermost: the packed cases test nothing";
}

TEST(SketchMatch, StatesOfAnotherStructureMatchNoSketch)
{
    const SearchTask t = matmul();
    const std::vector<Sketch> sketches = value(generateSketches(t));
    Rng rng(2);
    const State state = value(randomAnnotation(t, sketches[0], {}, rng));

    // A step the annotation rules never add (a split after the annotations).
    State split = state;
    const int stage = split.numStages() - 1;
    const int last = static_cast<int>(split.stage(stage).iters.size()) - 1;
    ASSERT_TRUE(split.apply(sched::SplitStep { stage, last, split.stage(stage).iters.back().extent, { 1 }, true }));
    EXPECT_EQ(sketchIndexOf(sketches, split), -1) << text(split);

    // A state of another tiling structure (three levels instead of SSRSRS's four spatial levels).
    SearchParams shallow;
    shallow.cpuTilingStructure = "SRS";
    const std::vector<Sketch> other = value(generateSketches(t, shallow));
    for (const Sketch& sketch : other) {
        const State s = value(randomAnnotation(t, sketch, shallow, rng));
        EXPECT_EQ(sketchIndexOf(sketches, s), -1) << text(s);
    }
    // The untouched initial state is no sketch of a matmul (it is always tiled).
    EXPECT_EQ(sketchIndexOf(sketches, State::initial(t.dag)), -1);
    EXPECT_EQ(sketchIndexOf({}, state), -1);
}

TEST(SketchMatch, StepsMatchButForWhatTheSearchFills)
{
    const sched::Step open = sched::SplitStep { 2, 0, 64, { std::nullopt, std::nullopt }, true };
    EXPECT_TRUE(sketchStepMatches(open, sched::SplitStep { 2, 0, 32, { 4, 2 }, true }));
    EXPECT_FALSE(sketchStepMatches(open, sched::SplitStep { 2, 0, 64, { 4 }, true }));
    EXPECT_FALSE(sketchStepMatches(open, sched::SplitStep { 2, 1, 64, { 4, 2 }, true }));
    EXPECT_FALSE(sketchStepMatches(open, sched::SplitStep { 2, 0, 64, { 4, 2 }, false }));
    EXPECT_FALSE(sketchStepMatches(open, sched::FollowSplitStep { 2, 0, 1, 2 }));
    const sched::Step at = sched::ComputeAtStep { 2, 3, 1 };
    EXPECT_TRUE(sketchStepMatches(at, sched::ComputeAtStep { 2, 3, 4 }));
    EXPECT_FALSE(sketchStepMatches(at, sched::ComputeAtStep { 2, 4, 1 }));
    const sched::Step unroll = sched::PragmaStep { 2, 0, "auto_unroll_max_step$16" };
    EXPECT_TRUE(sketchStepMatches(unroll, sched::PragmaStep { 2, 0, "auto_unroll_max_step$512" }));
    EXPECT_FALSE(sketchStepMatches(unroll, sched::PragmaStep { 2, 0, "debug_skip_region" }));
    const sched::Step reorder = sched::ReorderStep { 2, { 1, 0, 2 } };
    EXPECT_TRUE(sketchStepMatches(reorder, sched::ReorderStep { 2, { 1, 0, 2 } }));
    EXPECT_FALSE(sketchStepMatches(reorder, sched::ReorderStep { 2, { 0, 1, 2 } }));
}

// A hand-built matmul schedule (A 64x32, B 32x48): i split 2x4x8, j 3x16, the reduction rv0 8x4, reordered, the two
// outer loops fused and parallel, the inner j vectorized, unrolled up to 16 steps.
TEST(AnnotationSummary, ReadsWhatAKnownStateChose)
{
    const SearchTask t = matmul();
    State state = State::initial(t.dag);
    const int mm = state.stageIndex("matmul");
    ASSERT_GE(mm, 0);
    for (const sched::Step& step : std::vector<sched::Step> {
             sched::SplitStep { mm, 0, 64, { 4, 8 }, true }, // i.0 i.1 i.2 j k
             sched::SplitStep { mm, 3, 48, { 16 }, true }, // i.0 i.1 i.2 j.0 j.1 k
             sched::SplitStep { mm, 5, 32, { 4 }, true }, // ... k.0 k.1
             sched::ReorderStep { mm, { 0, 3, 1, 5, 2, 6, 4 } }, // i.0 j.0 i.1 k.0 i.2 k.1 j.1
             sched::FuseStep { mm, { 0, 1 } }, // i.0@j.0@ i.1 k.0 i.2 k.1 j.1
             sched::AnnotationStep { mm, 0, sched::Annotation::Parallel },
             sched::AnnotationStep { mm, 5, sched::Annotation::Vectorize },
             sched::PragmaStep { mm, 0, "auto_unroll_max_step$16" },
         })
        ASSERT_TRUE(state.apply(step)) << sched::stepsToText({ step });
    const AnnotationSummary summary = summarizeAnnotations(t.dag, state);
    ASSERT_EQ(summary.tiles.size(), 3U);
    EXPECT_EQ(summary.tiles[1].iter, "j");
    EXPECT_EQ(summary.tiles[1].parts, (std::vector<std::optional<int64_t>> { 3, 16 }));
    EXPECT_EQ(summary.tilesText(), "matmul: i 2x4x8, j 3x16, rv0 8x4");
    EXPECT_EQ(summary.computeAtText(), "");
    EXPECT_EQ(
        summary.annotationsText(), "parallel matmul.i.0@j.0@ (6), vectorize matmul.j.1 (16), unroll matmul <= 16");
    ASSERT_EQ(summary.unroll.size(), 1U);
    EXPECT_EQ(summary.unroll[0].maxStep, 16);
}

// A sketch's open lengths read "?"; compute locations name the stage and loop, inlined stages say so.
TEST(AnnotationSummary, ShowsOpenTilesAndComputeLocations)
{
    const SearchTask t = conv2dNhwcBiasRelu();
    const std::vector<Sketch> sketches = value(generateSketches(t));
    ASSERT_FALSE(sketches.empty());
    const Sketch& sketch = sketches.front();
    const AnnotationSummary open = summarizeAnnotations(t.dag, sketch.state);
    ASSERT_FALSE(open.tiles.empty());
    EXPECT_NE(open.tilesText().find("?x?x?x?"), std::string::npos) << open.tilesText();

    Rng rng(4);
    const State state = value(randomAnnotation(t, sketch, {}, rng));
    const AnnotationSummary filled = summarizeAnnotations(t.dag, state);
    EXPECT_EQ(filled.tilesText().find('?'), std::string::npos) << filled.tilesText();
    ASSERT_EQ(filled.tiles.size(), open.tiles.size());
    for (size_t i = 0; i < filled.tiles.size(); ++i) {
        // Each split's parts multiply to the extent it cut.
        int64_t product = 1;
        for (const auto& part : filled.tiles[i].parts)
            product *= part.value_or(0);
        EXPECT_GT(product, 0) << filled.tilesText();
        EXPECT_EQ(filled.tiles[i].stage, open.tiles[i].stage);
        EXPECT_EQ(filled.tiles[i].iter, open.tiles[i].iter);
    }
    // Every stage not at root is listed, as the state says.
    int notRoot = 0;
    for (int id = 0; id < state.numStages(); ++id)
        notRoot += !state.stage(id).isPlaceholder() && state.stage(id).computeAt != sched::ComputeAtKind::Root;
    EXPECT_EQ(static_cast<int>(filled.computeAt.size()), notRoot);
    EXPECT_GT(notRoot, 0); // the bias add (T_add) is always inlined
    bool biasInline = false;
    for (const ComputeLocation& location : filled.computeAt)
        biasInline |= location.inlined && location.stage == "T_add";
    EXPECT_TRUE(biasInline) << filled.computeAtText();
    EXPECT_NE(filled.annotationsText().find("parallel"), std::string::npos) << filled.annotationsText();
}
