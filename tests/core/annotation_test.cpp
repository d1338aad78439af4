// Random annotation and mutation (core/search/annotation.h): the states drawn from the sketches of the
// operators TuneScope tunes are filled, lower, compile and compute the reference's result; the same seed
// gives the same states; each mutation changes exactly what it names; crossover mixes per stage.
#include "kernel_check.h"
#include "search_fixtures.h"

#include "core/cost/analytical_model.h"
#include "core/cost/cost_model.h"
#include "core/lower/lower.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/schedule/step_json.h"
#include "core/search/annotation.h"
#include "core/search/sketch.h"
#include "core/search/sketch_policy.h"

#include <gtest/gtest.h>

#include <set>

using namespace ts;
using namespace ts::search;
using namespace ts::testing;
using sched::State;
using sched::Step;

namespace {

std::string text(const State& s) { return sched::stepsToText(s.steps()); }

// The oracle for "no nested parallelism", on the lowered loop IR rather than the state (the rules check the
// state): no parallel loop that runs more than once encloses another parallel loop.
bool parallelInsideParallel(const lower::Stmt& s, bool insideParallel)
{
    if (!s)
        return false;
    switch (s->kind) {
    case lower::StmtKind::For: {
        const bool parallel = s->forKind == lower::ForKind::Parallel;
        if (parallel && insideParallel)
            return true;
        return parallelInsideParallel(s->body, insideParallel || (parallel && s->extent > 1));
    }
    case lower::StmtKind::Seq:
        for (const lower::Stmt& c : s->seq)
            if (parallelInsideParallel(c, insideParallel))
                return true;
        return false;
    case lower::StmtKind::IfThenElse:
        return parallelInsideParallel(s->body, insideParallel) || parallelInsideParallel(s->elseBody, insideParallel);
    case lower::StmtKind::Allocate:
        return parallelInsideParallel(s->body, insideParallel);
    case lower::StmtKind::Store:
    case lower::StmtKind::Barrier:
    case lower::StmtKind::AllReduce:
        return false;
    }
    return false;
}

// What every state the rules return must be: filled, bounds inferred, no nested parallelism, lowerable.
void expectValid(const SearchTask& t, const State& state, const std::string& what)
{
    EXPECT_EQ(state.firstUnfilledSplit(), -1) << what << "\n" << text(state);
    auto func = lower::lower(state);
    EXPECT_TRUE(func) << what << ": " << (func ? "" : func.error().message) << "\n" << text(state);
    if (func) {
        EXPECT_FALSE(parallelInsideParallel(func->body, false)) << what << ": nested parallel loops\n" << text(state);
    }
    (void)t;
}

std::vector<size_t> differingSteps(const State& a, const State& b)
{
    std::vector<size_t> out;
    EXPECT_EQ(a.steps().size(), b.steps().size());
    for (size_t i = 0; i < std::min(a.steps().size(), b.steps().size()); ++i)
        if (!(a.steps()[i] == b.steps()[i]))
            out.push_back(i);
    return out;
}

} // namespace

TEST(Annotation, TheNestedParallelOracleSeesNesting)
{
    const SearchTask t = matmul();
    State state = State::initial(t.dag);
    const int stage = state.stageIndex("matmul");
    ASSERT_TRUE(state.apply(sched::AnnotationStep { stage, 0, sched::Annotation::Parallel }));
    ASSERT_TRUE(state.apply(sched::AnnotationStep { stage, 1, sched::Annotation::Parallel }));
    auto func = lower::lower(state);
    ASSERT_TRUE(func) << func.error().message;
    EXPECT_TRUE(parallelInsideParallel(func->body, false));
}

TEST(Annotation, SplitFactorizationsCountsAndOrder)
{
    // 512 = 2^9 into three lengths (a four-level tile): exponents e1 + e2 + e3 <= 9 with e3 <= 6 (64).
    EXPECT_EQ(splitFactorizations(512, 3, 64).size(), 210U);
    // Four lengths: C(13, 4) = 715 less the 15 with an innermost of 128 or more.
    EXPECT_EQ(splitFactorizations(512, 4, 64).size(), 700U);
    EXPECT_EQ(splitFactorizations(8, 2, 2).size(), 7U);
    EXPECT_EQ(splitFactorizations(12, 1, 64),
        (std::vector<std::vector<int64_t>> { { 1 }, { 2 }, { 3 }, { 4 }, { 6 }, { 12 } }));
    EXPECT_EQ(splitFactorizations(4, 2, 64),
        (std::vector<std::vector<int64_t>> { { 1, 1 }, { 1, 2 }, { 1, 4 }, { 2, 1 }, { 2, 2 }, { 4, 1 } }));
    EXPECT_TRUE(splitFactorizations(128, 1, 64).size() == 7U); // 1 .. 64
}

TEST(Annotation, SampledAndMutatedStatesComputeTheReferenceResult)
{
    const SearchParams params;
    for (const SearchTask& t : { matmul(), conv2dNhwcBiasRelu(), dense(), depthwise(), batchMatmul(), softmax() }) {
        const std::vector<Sketch> sketches = value(generateSketches(t, params));
        ASSERT_FALSE(sketches.empty()) << t.name;
        Rng rng(42);
        std::set<std::string> seen;
        std::map<MutationKind, int> mutated;
        int sampled = 0;
        int checked = 0;
        for (int i = 0; i < 160; ++i) {
            const Sketch& sketch = sketches[static_cast<size_t>(i) % sketches.size()];
            auto state = randomAnnotation(t, sketch, params, rng);
            ASSERT_TRUE(state) << t.name << " sketch " << sketch.rules << ": " << state.error().message;
            ++sampled;
            expectValid(t, *state, t.name + " sample " + std::to_string(i));
            const auto kind = static_cast<MutationKind>(i % 4);
            auto child = mutate(t, *state, kind, params, rng);
            if (child) {
                ++mutated[kind];
                expectValid(t, *child, t.name + " " + toString(kind) + " of sample " + std::to_string(i));
            }
            // Compile and run a few distinct states of each operator (compiling is the slow part).
            for (const State* s : { &state.value(), child ? &child.value() : nullptr }) {
                if (s && checked < 12 && seen.insert(text(*s)).second && i % 6 == 0) {
                    ++checked;
                    ts::testing::expectMatchesReference(t.dag, *s, t.name + "\n" + text(*s));
                }
            }
        }
        EXPECT_EQ(sampled, 160);
        EXPECT_GT(mutated[MutationKind::TileSize], 20) << t.name;
        EXPECT_GE(checked, 10) << t.name;
    }
}

// A few hundred distinct states per operator, sampled and mutated, each compiled and run in this process and
// compared with the reference evaluator (one reference per operator).
namespace {
void expectDistinctStatesComputeTheReference(const SearchTask& t)
{
    const SearchParams params;
    {
        const std::vector<Sketch> sketches = value(generateSketches(t, params));
        auto reference = measure::computeReference(t.dag, 11, 512, 1e9);
        ASSERT_TRUE(reference) << reference.error().message;
        Rng rng(1234);
        std::set<uint64_t> seen;
        int checked = 0;
        for (int i = 0; checked < 200 && i < 2000; ++i) {
            auto state = randomAnnotation(t, sketches[static_cast<size_t>(i) % sketches.size()], params, rng);
            ASSERT_TRUE(state) << t.name << ": " << state.error().message;
            auto child = mutate(t, *state, drawMutation(params, rng), params, rng);
            for (const State* s : { &state.value(), child ? &child.value() : nullptr }) {
                if (!s || !seen.insert(stateHash(*s)).second)
                    continue;
                ++checked;
                ts::testing::expectMatches(*reference, *s, t.name + "\n" + text(*s));
                if (::testing::Test::HasFailure())
                    return;
            }
        }
        EXPECT_GE(checked, 200) << t.name << ": too few distinct states";
    }
}
} // namespace

// One test per operator, so that ctest runs them side by side.
TEST(AnnotationKernels, Matmul) { expectDistinctStatesComputeTheReference(matmul()); }
TEST(AnnotationKernels, Conv2dNhwcBiasRelu) { expectDistinctStatesComputeTheReference(conv2dNhwcBiasRelu()); }
TEST(AnnotationKernels, Dense) { expectDistinctStatesComputeTheReference(dense()); }
TEST(AnnotationKernels, Depthwise) { expectDistinctStatesComputeTheReference(depthwise()); }
TEST(AnnotationKernels, BatchMatmul) { expectDistinctStatesComputeTheReference(batchMatmul()); }
TEST(AnnotationKernels, Softmax) { expectDistinctStatesComputeTheReference(softmax()); }

TEST(Annotation, SameSeedSameStates)
{
    const SearchTask t = conv2dNhwcBiasRelu();
    const std::vector<Sketch> sketches = value(generateSketches(t));
    auto run = [&](uint64_t seed) {
        Rng rng(seed);
        std::vector<std::string> out;
        for (int i = 0; i < 20; ++i) {
            const State s = value(randomAnnotation(t, sketches[static_cast<size_t>(i) % sketches.size()], {}, rng));
            out.push_back(text(s));
            auto m = mutate(t, s, drawMutation({}, rng), {}, rng);
            out.push_back(m ? text(*m) : m.error().message);
        }
        return out;
    };
    EXPECT_EQ(run(7), run(7));
    EXPECT_NE(run(7), run(8));
}

TEST(Annotation, EachMutationChangesWhatItNames)
{
    const SearchParams params;
    std::map<MutationKind, int> seen;
    for (const SearchTask& t : { matmul(), conv2dNhwcBiasRelu(), depthwise(), softmax() }) {
        const std::vector<Sketch> sketches = value(generateSketches(t, params));
        Rng rng(3);
        for (int i = 0; i < 120; ++i) {
            const State parent
                = value(randomAnnotation(t, sketches[static_cast<size_t>(i) % sketches.size()], params, rng));
            const auto kind = static_cast<MutationKind>(i % 4);
            auto child = mutate(t, parent, kind, params, rng);
            if (!child) {
                EXPECT_NE(child.error().message.find(toString(kind)), std::string::npos) << child.error().message;
                continue;
            }
            ++seen[kind];
            const std::string what
                = std::string(toString(kind)) + " " + t.name + "\n" + text(parent) + "\n" + text(*child);
            if (kind == MutationKind::Parallel) {
                // The fuse before the parallel annotation fuses another number of loops; later steps of that
                // stage may shift.
                const auto diff = differingSteps(parent, *child);
                ASSERT_FALSE(diff.empty()) << what;
                const auto* before = std::get_if<sched::FuseStep>(&parent.steps()[diff[0]]);
                const auto* after = std::get_if<sched::FuseStep>(&child->steps()[diff[0]]);
                ASSERT_TRUE(before && after) << what;
                EXPECT_NE(before->fusedIds.size(), after->fusedIds.size()) << what;
                EXPECT_EQ(after->fusedIds.front(), 0) << what;
                const auto& an = std::get<sched::AnnotationStep>(child->steps()[diff[0] + 1]);
                EXPECT_EQ(an.annotation, sched::Annotation::Parallel) << what;
                continue;
            }
            const auto diff = differingSteps(parent, *child);
            ASSERT_EQ(diff.size(), 1U) << what;
            const Step& before = parent.steps()[diff[0]];
            const Step& after = child->steps()[diff[0]];
            switch (kind) {
            case MutationKind::TileSize: {
                const auto& a = std::get<sched::SplitStep>(before);
                const auto& b = std::get<sched::SplitStep>(after);
                EXPECT_EQ(a.stageId, b.stageId);
                EXPECT_EQ(a.iterId, b.iterId);
                EXPECT_EQ(a.extent, b.extent);
                EXPECT_NE(a.lengths, b.lengths);
                int64_t product = 1;
                for (const auto& l : b.lengths)
                    product *= *l;
                EXPECT_EQ(*a.extent % product, 0) << what;
                EXPECT_LE(*b.lengths.back(), params.maxInnermostSplitFactor);
                break;
            }
            case MutationKind::AutoUnroll: {
                const auto& a = std::get<sched::PragmaStep>(before);
                const auto& b = std::get<sched::PragmaStep>(after);
                EXPECT_EQ(a.stageId, b.stageId);
                EXPECT_NE(a.pragma, b.pragma);
                EXPECT_EQ(b.pragma.rfind("auto_unroll_max_step$", 0), 0U);
                break;
            }
            case MutationKind::ComputeLocation: {
                const auto& a = std::get<sched::ComputeAtStep>(before);
                const auto& b = std::get<sched::ComputeAtStep>(after);
                EXPECT_EQ(a.stageId, b.stageId);
                EXPECT_TRUE(a.targetStageId != b.targetStageId || a.targetIterId != b.targetIterId) << what;
                break;
            }
            case MutationKind::Parallel:
                break;
            }
        }
    }
    for (auto kind :
        { MutationKind::TileSize, MutationKind::AutoUnroll, MutationKind::ComputeLocation, MutationKind::Parallel })
        EXPECT_GT(seen[kind], 0) << toString(kind);
}

TEST(Annotation, DrawMutationFollowsTheWeights)
{
    SearchParams params;
    params.mutationWeights = { 0.0, 1.0, 0.0, 0.0 };
    Rng rng(1);
    for (int i = 0; i < 20; ++i)
        EXPECT_EQ(drawMutation(params, rng), MutationKind::AutoUnroll);
    params.mutationWeights = {};
    std::map<MutationKind, int> counts;
    for (int i = 0; i < 2000; ++i)
        ++counts[drawMutation(params, rng)];
    EXPECT_GT(counts[MutationKind::TileSize], 1700);
    EXPECT_LT(counts[MutationKind::TileSize], 1900);
    EXPECT_GT(counts[MutationKind::Parallel], 0);
    EXPECT_STREQ(toString(MutationKind::ComputeLocation), "MutateComputeLocation");
}

TEST(Annotation, CrossoverTakesEachStageFromOneParent)
{
    const SearchTask t = matmul();
    const SearchParams params;
    const std::vector<Sketch> sketches = value(generateSketches(t, params));
    Rng rng(5);
    int crossed = 0;
    for (int i = 0; i < 40; ++i) {
        const State a = value(randomAnnotation(t, sketches[0], params, rng));
        State b = a;
        // Same structure: tile sizes and unroll values differ.
        for (int k = 0; k < 4; ++k)
            if (auto m = mutate(t, b, k % 2 ? MutationKind::AutoUnroll : MutationKind::TileSize, params, rng))
                b = *m;
        auto child = crossover(t, a, b, rng);
        ASSERT_TRUE(child) << child.error().message;
        expectValid(t, *child, "crossover");
        ++crossed;
        for (size_t s = 0; s < child->steps().size(); ++s)
            EXPECT_TRUE(child->steps()[s] == a.steps()[s] || child->steps()[s] == b.steps()[s]);
        // The two splits of one stage come from the same parent.
        const auto& steps = child->steps();
        int fromA = 0;
        int fromB = 0;
        for (size_t s = 0; s < steps.size(); ++s)
            if (sched::stepStageId(steps[s]) == 2 && std::holds_alternative<sched::SplitStep>(steps[s])
                && !(a.steps()[s] == b.steps()[s]))
                (steps[s] == a.steps()[s] ? fromA : fromB)++;
        EXPECT_TRUE(fromA == 0 || fromB == 0) << text(a) << "\n" << text(b) << "\n" << text(*child);
    }
    EXPECT_EQ(crossed, 40);

    // Parents from different sketches (or other fuse choices) are refused.
    const State x = value(randomAnnotation(t, sketches[0], params, rng));
    State y = value(randomAnnotation(t, sketches.back(), params, rng));
    for (int i = 0; i < 20 && y.steps().size() == x.steps().size(); ++i)
        y = value(randomAnnotation(t, sketches[static_cast<size_t>(i) % sketches.size()], params, rng));
    auto refused = crossover(t, x, y, rng);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("parents differ in structure"), std::string::npos);
}

// structureHash groups exactly the states crossover can combine: over many random annotations, two states of
// equal structure always cross, two of different structure never do.
TEST(Annotation, StructureHashGroupsTheStatesCrossoverCombines)
{
    const SearchTask t = conv2dNhwcBiasRelu();
    const SearchParams params;
    const std::vector<Sketch> sketches = value(generateSketches(t, params));
    Rng rng(17);
    std::vector<State> states;
    for (int i = 0; i < 300; ++i)
        if (auto s = randomAnnotation(t, sketches[static_cast<size_t>(i) % sketches.size()], params, rng))
            states.push_back(*s);
    int same = 0;
    int different = 0;
    for (size_t i = 0; i + 1 < states.size(); ++i) {
        for (size_t j = i + 1; j < states.size() && j < i + 40; ++j) {
            const bool equal = structureHash(states[i]) == structureHash(states[j]);
            const bool crossed = static_cast<bool>(crossover(t, states[i], states[j], rng));
            EXPECT_EQ(equal, crossed) << text(states[i]) << "\n" << text(states[j]);
            (equal ? same : different)++;
        }
    }
    EXPECT_GT(same, 20) << "too few pairs of equal structure to test";
    EXPECT_GT(different, 20);
}

TEST(Annotation, ChangeComputeLocationVisitsInlineRootAndLoops)
{
    // conv2d NHWC: the padding stage is neither tiled nor multi-level tiled; over many samples it lands at
    // root, at loops of its consumer, and (when it was computed at a loop) inlined.
    const SearchTask t = conv2dNhwcBiasRelu();
    const std::vector<Sketch> sketches = value(generateSketches(t));
    Rng rng(11);
    std::set<sched::ComputeAtKind> kinds;
    for (int i = 0; i < 120; ++i) {
        const State s = value(randomAnnotation(t, sketches[static_cast<size_t>(i) % sketches.size()], {}, rng));
        const int pad = s.stageIndex("PaddedInput");
        ASSERT_GE(pad, 0);
        kinds.insert(s.stage(pad).computeAt);
    }
    EXPECT_TRUE(kinds.count(sched::ComputeAtKind::Root));
    EXPECT_TRUE(kinds.count(sched::ComputeAtKind::Iter));

    SearchParams off;
    off.disableChangeComputeLocation = true;
    for (int i = 0; i < 10; ++i) {
        const State s = value(randomAnnotation(t, sketches[0], off, rng));
        EXPECT_EQ(s.stage(s.stageIndex("PaddedInput")).computeAt,
            sketches[0].state.stage(s.stageIndex("PaddedInput")).computeAt);
    }
}

// A state of one matmul on another shape: the same steps, each split refit to the extent it meets (the
// innermost length kept where it divides). Every transplant is valid and computes the other shape's result;
// a state of another kind of task does not transplant.
TEST(Annotation, TransplantRefitsSplitsToAnotherShape)
{
    const SearchTask from = matmul(64, 32, 48);
    const SearchTask to = matmul(96, 20, 56);
    const SearchParams params;
    const std::vector<Sketch> sketches = value(generateSketches(from, params));
    Rng rng(23);
    int kept = 0;
    for (int i = 0; i < 60; ++i) {
        const State a = value(randomAnnotation(from, sketches[static_cast<size_t>(i) % sketches.size()], params, rng));
        auto b = transplant(to, a);
        ASSERT_TRUE(b) << b.error().message << "\n" << text(a);
        expectValid(to, *b, "transplant");
        ASSERT_EQ(a.steps().size(), b->steps().size());
        for (size_t s = 0; s < a.steps().size(); ++s) {
            const auto* sa = std::get_if<sched::SplitStep>(&a.steps()[s]);
            if (sa == nullptr) {
                EXPECT_TRUE(a.steps()[s] == b->steps()[s]) << s << "\n" << text(a) << "\n" << text(*b);
                continue;
            }
            const auto& sb = std::get<sched::SplitStep>(b->steps()[s]);
            int64_t product = 1;
            for (const auto& length : sb.lengths)
                product *= *length;
            ASSERT_TRUE(sb.extent.has_value());
            EXPECT_EQ(*sb.extent % product, 0) << text(*b);
            if (*sb.extent % *sa->lengths.back() == 0) {
                EXPECT_EQ(*sb.lengths.back(), *sa->lengths.back()) << text(a) << "\n" << text(*b);
                ++kept;
            }
        }
        if (i < 4)
            expectMatchesReference(to.dag, *b, "transplanted matmul");
    }
    EXPECT_GT(kept, 20);
    EXPECT_FALSE(transplant(depthwise(), value(randomAnnotation(from, sketches[0], params, rng))));
}

// The policy keeps the best states a similar task offers, transplanted, at most similarTaskSeeds of them, and
// drops what does not replay on its DAG (another kind of task) or failed (0 GFLOP/s).
TEST(Annotation, APolicyKeepsTransplantedSeedsOfSimilarTasks)
{
    const SearchTask from = matmul(64, 32, 48);
    const SearchParams params;
    const std::vector<Sketch> sketches = value(generateSketches(from, params));
    Rng rng(29);
    std::vector<State> offered;
    for (int i = 0; i < 8; ++i)
        offered.push_back(
            value(randomAnnotation(from, sketches[static_cast<size_t>(i) % sketches.size()], params, rng)));
    const std::vector<double> gflops { 9, 8, 7, 6, 5, 4, 3, 0 };
    auto model = cost::makeCostModel("random", 1).value();
    SketchPolicy policy(matmul(96, 20, 56), PolicyKind::Ansor, params, *model, 3);
    policy.seedFromSimilarTasks(offered, gflops);
    EXPECT_EQ(policy.similarTaskSeeds().size(), 7u); // the failed one is not a seed
    for (const State& seed : policy.similarTaskSeeds())
        expectValid(matmul(96, 20, 56), seed, "seed");
    SearchParams two = params;
    two.similarTaskSeeds = 2;
    SketchPolicy capped(matmul(96, 20, 56), PolicyKind::Ansor, two, *model, 3);
    capped.seedFromSimilarTasks(offered, gflops);
    EXPECT_EQ(capped.similarTaskSeeds().size(), 2u);
    SketchPolicy other(depthwise(), PolicyKind::Ansor, params, *model, 3);
    other.seedFromSimilarTasks(offered, gflops);
    EXPECT_TRUE(other.similarTaskSeeds().empty());
    auto round = policy.searchOneRound(16);
    ASSERT_TRUE(round) << round.error().message;
    EXPECT_EQ(round->size(), 16u);
}

// While a learned model warms up (its scores would be random), the analytical estimate ranks the population:
// the candidates the round proposes carry its scores. Off (Ansor's warm-up), and once the model is warm, the
// model's own scores rank.
TEST(Annotation, ALearnedModelsWarmUpIsRankedByTheAnalyticalEstimate)
{
    const SearchTask task = matmul(64, 32, 48);
    SearchParams params;
    params.population = 256;
    params.machine.ghz = 2.5; // the figures the session would take from a measured profile
    params.machine.measured = true;
    auto xgb = cost::makeCostModel("xgb", 1).value();
    ASSERT_TRUE(xgb->warmingUp());
    SketchPolicy policy(task, PolicyKind::Ansor, params, *xgb, 5);
    auto round = policy.searchOneRound(16);
    ASSERT_TRUE(round) << round.error().message;
    ASSERT_FALSE(round->empty());
    EXPECT_GT(policy.lastRound().warmupRanked, 0);
    cost::AnalyticalCostModel estimate(params.machine);
    int ranked = 0;
    for (const Candidate& c : *round) {
        if (c.random)
            continue;
        const double expected = estimate.predict(policy.costTask(), std::span(&c.state, 1)).front();
        EXPECT_NEAR(c.score, expected, 1e-9 * expected) << "the estimate's score, with the limits given";
        ++ranked;
    }
    EXPECT_EQ(ranked, 8) << "half the warm-up batch is drawn at random (warmupRandomShare)";
    SearchParams ansor = params;
    ansor.analyticalWarmup = false;
    SketchPolicy random(task, PolicyKind::Ansor, ansor, *xgb, 5);
    auto randomRound = random.searchOneRound(16);
    ASSERT_TRUE(randomRound) << randomRound.error().message;
    EXPECT_EQ(random.lastRound().warmupRanked, 0);
    for (const Candidate& c : *randomRound)
        if (!c.random) {
            EXPECT_GE(c.score, 0.0);
            EXPECT_LT(c.score, 1.0) << "a warm-up score is uniform in [0, 1)";
        }
    // By the estimate, the ranked round's picks are better than the random warm-up's.
    auto meanEstimate = [&](const std::vector<Candidate>& candidates) {
        double sum = 0.0;
        int n = 0;
        for (const Candidate& c : candidates)
            if (!c.random) {
                sum += estimate.predict(policy.costTask(), std::span(&c.state, 1)).front();
                ++n;
            }
        return sum / std::max(1, n);
    };
    EXPECT_GT(meanEstimate(*round), 1.5 * meanEstimate(*randomRound));
}
