// Sketch generation (core/search/sketch.h): the sketch counts and structures Ansor's rules give, pinned for
// the paper's two examples (tuning-systems.md 1.3.10) and the operators TuneScope tunes.
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/ops/pool.h"
#include "core/search/sketch.h"

#include <gtest/gtest.h>

#include <set>

using namespace ts;
using namespace ts::search;

namespace {

template <typename T> T value(Expected<T> e)
{
    EXPECT_TRUE(e) << e.error().message;
    if (!e)
        throw std::runtime_error(e.error().message);
    return std::move(e).value();
}

SearchTask task(std::vector<ir::Tensor> tensors, int cores = 2)
{
    SearchTask t;
    t.dag = ir::ComputeDAG::create(tensors);
    t.target.cores = cores;
    t.flops = t.dag.flopCount();
    return t;
}

std::vector<Sketch> sketches(const SearchTask& t) { return value(generateSketches(t)); }

std::vector<std::string> rules(const std::vector<Sketch>& all)
{
    std::vector<std::string> out;
    for (const Sketch& s : all)
        out.push_back(s.rules);
    return out;
}

// A stage's loops as "name" in order, and where it is computed: "i.0 j.0 ... @root" / "@T_relu.j.0" / "@inline".
std::string loops(const sched::State& state, const std::string& stageName)
{
    const int id = state.stageIndex(stageName);
    EXPECT_GE(id, 0) << stageName;
    if (id < 0)
        return {};
    const sched::Stage& stage = state.stage(id);
    std::string out;
    for (const sched::Iterator& it : stage.iters)
        out += it.name + " ";
    switch (stage.computeAt) {
    case sched::ComputeAtKind::Root:
        return out + "@root";
    case sched::ComputeAtKind::Inlined:
        return out + "@inline";
    case sched::ComputeAtKind::Iter:
        return out + "@" + state.stage(stage.attachStage).op->name() + "."
            + state.stage(stage.attachStage).iters[static_cast<size_t>(stage.attachIter)].name;
    }
    return out;
}

const SketchRule& rule(const std::string& name)
{
    for (const auto& r : sketchRules(target::Target::host()))
        if (r->name() == name)
            return *r;
    throw std::runtime_error("no rule " + name);
}

RuleResult condition(const std::string& ruleName, const SearchTask& t, const std::string& stageName)
{
    const sched::State state = sched::State::initial(t.dag);
    return rule(ruleName).condition(t, {}, state, StateAnalysis(state), state.stageIndex(stageName));
}

// Example 1: C = A x B (512^3), D = relu(C).
SearchTask matmulRelu()
{
    ir::Tensor a = ir::placeholder("A", { 512, 512 });
    ir::Tensor b = ir::placeholder("B", { 512, 512 });
    ir::Tensor c = value(ops::matmul(a, b, "C"));
    ir::Tensor d = value(ops::relu(c));
    return task({ a, b, d });
}

// Example 2: B = relu(A[8, 400]), C = pad(B) to [8, 512], E = C x D[512, 4].
SearchTask reluPadMatmul()
{
    ir::Tensor a = ir::placeholder("A", { 8, 400 });
    ir::Tensor b = value(ops::relu(a));
    ir::Tensor c = value(ops::pad(b, { 0, 0 }, { 0, 112 }, 0.0, "C"));
    ir::Tensor d = ir::placeholder("D", { 512, 4 });
    ir::Tensor e = value(ops::matmul(c, d, "E"));
    return task({ a, d, e });
}

} // namespace

namespace {
SearchTask conv2dBiasRelu(ops::Layout layout)
{
    const bool nhwc = layout == ops::Layout::NHWC;
    ir::Tensor data = ir::placeholder(
        "data", nhwc ? std::vector<int64_t> { 1, 14, 14, 32 } : std::vector<int64_t> { 1, 32, 14, 14 });
    ir::Tensor weight = ir::placeholder(
        "weight", nhwc ? std::vector<int64_t> { 3, 3, 32, 64 } : std::vector<int64_t> { 64, 32, 3, 3 });
    ir::Tensor bias = ir::placeholder("bias", { 64 });
    ops::Conv2dParams p;
    p.layout = layout;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    ir::Tensor conv = value(ops::conv2d(data, weight, p));
    ir::Tensor biased = value(ops::biasAdd(conv, bias, nhwc ? 3 : 1));
    return task({ data, weight, bias, value(ops::relu(biased)) });
}

SearchTask dense()
{
    ir::Tensor x = ir::placeholder("x", { 4, 64 });
    ir::Tensor w = ir::placeholder("w", { 32, 64 });
    return task({ x, w, value(ops::dense(x, w)) });
}

SearchTask batchMatmul()
{
    ir::Tensor a = ir::placeholder("a", { 4, 32, 64 });
    ir::Tensor b = ir::placeholder("b", { 4, 48, 64 });
    return task({ a, b, value(ops::batchMatmul(a, b)) });
}

SearchTask depthwise()
{
    ir::Tensor data = ir::placeholder("data", { 1, 32, 14, 14 });
    ir::Tensor weight = ir::placeholder("weight", { 32, 1, 3, 3 });
    ops::Conv2dParams p;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    p.groups = 32;
    return task({ data, weight, value(ops::depthwiseConv2d(data, weight, p)) });
}

SearchTask softmax()
{
    ir::Tensor x = ir::placeholder("x", { 16, 128 });
    return task({ x, value(ops::softmax(x)) });
}

SearchTask layerNorm()
{
    ir::Tensor x = ir::placeholder("x", { 16, 128 });
    ir::Tensor g = ir::placeholder("g", { 128 });
    ir::Tensor b = ir::placeholder("b", { 128 });
    return task({ x, g, b, value(ops::layerNorm(x, g, b)) });
}
} // namespace

// Ansor's lecture, example 1: tiling with fusion at level 1 and at level 2, and plain tiling; the relu is
// tiled to match C's spatial tiles and C is computed inside them.
TEST(SketchRules, MatmulReluGivesThePapersSketches)
{
    const auto all = sketches(matmulRelu());
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(rules(all),
        (std::vector<std::string> {
            "MultiLevelTilingWithFusion(C #1)", "MultiLevelTilingWithFusion(C #2)", "MultiLevelTiling(C)" }));
    const std::string tiledC = "i.0 j.0 i.1 j.1 rv0.0 i.2 j.2 rv0.1 i.3 j.3 ";
    EXPECT_EQ(loops(all[0].state, "C"), tiledC + "@T_relu.j.0");
    EXPECT_EQ(loops(all[0].state, "T_relu"), "i.0 j.0 i.1 j.1 @root");
    EXPECT_EQ(loops(all[1].state, "C"), tiledC + "@T_relu.j.1");
    EXPECT_EQ(loops(all[1].state, "T_relu"), "i.0 j.0 i.1 j.1 i.2 j.2 @root");
    EXPECT_EQ(loops(all[2].state, "C"), tiledC + "@root");
    EXPECT_EQ(loops(all[2].state, "T_relu"), "i j @root");
    for (const Sketch& s : all) {
        EXPECT_GE(s.state.firstUnfilledSplit(), 0) << "a sketch leaves its tile sizes open";
        EXPECT_TRUE(s.openSplits.empty());
    }
}

// Example 2: the relu is inlined into the pad, the pad (a branch) stays a stage of its own; E gets the
// paper's three kinds of sketch, enumerated as TVM does: rfactor (factor outer or inner), plain tiling,
// and tiling with a cache-write stage fused at level 1 or 2.
TEST(SketchRules, ReluPadMatmulGivesThePapersThreeKindsAsTvmsFive)
{
    const auto all = sketches(reluPadMatmul());
    ASSERT_EQ(all.size(), 5u);
    EXPECT_EQ(rules(all),
        (std::vector<std::string> { "AddRfactor(E #1), AlwaysInline(T_relu)", "AddRfactor(E #2), AlwaysInline(T_relu)",
            "MultiLevelTiling(E), AlwaysInline(T_relu)",
            "AddCacheWrite(E), MultiLevelTilingWithFusion(E.local #1), AlwaysInline(T_relu)",
            "AddCacheWrite(E), MultiLevelTilingWithFusion(E.local #2), AlwaysInline(T_relu)" }));
    for (const Sketch& s : all) {
        EXPECT_EQ(loops(s.state, "T_relu"), "i j @inline");
        EXPECT_EQ(loops(s.state, "C"), "i0 i1 @root");
    }
    // rfactor: the reduction split (its factor open), factored as E.rf's spatial axis.
    for (int k : { 0, 1 }) {
        EXPECT_EQ(all[static_cast<size_t>(k)].openSplits, std::vector<int> { 0 });
        EXPECT_GE(all[static_cast<size_t>(k)].state.stageIndex("E.rf"), 0);
    }
    EXPECT_EQ(loops(all[1].state, "E.rf"), "i j rv0.0 rv0.1.v @root") << "the factored inner part moves innermost";
    EXPECT_EQ(loops(all[2].state, "E"), "i.0 j.0 i.1 j.1 rv0.0 i.2 j.2 rv0.1 i.3 j.3 @root");
    EXPECT_EQ(loops(all[3].state, "E.local"), "i.0 j.0 i.1 j.1 rv0.0 i.2 j.2 rv0.1 i.3 j.3 @E.j.0");
    EXPECT_EQ(loops(all[3].state, "E"), "i.0 j.0 i.1 j.1 @root");
    EXPECT_EQ(loops(all[4].state, "E.local"), "i.0 j.0 i.1 j.1 rv0.0 i.2 j.2 rv0.1 i.3 j.3 @E.j.1");
}

TEST(SketchRules, CountsOfTheOperatorsTuneScopeTunes)
{
    for (auto layout : { ops::Layout::NCHW, ops::Layout::NHWC }) {
        const auto all = sketches(conv2dBiasRelu(layout));
        const std::string conv = layout == ops::Layout::NHWC ? "Conv2dOutput" : "conv2d_nchw";
        EXPECT_EQ(rules(all),
            (std::vector<std::string> { "AlwaysInline(T_add), MultiLevelTilingWithFusion(" + conv + " #1)",
                "AlwaysInline(T_add), MultiLevelTilingWithFusion(" + conv + " #2)",
                "AlwaysInline(T_add), MultiLevelTiling(" + conv + ")" }));
        const std::string pad = loops(all[0].state, layout == ops::Layout::NHWC ? "PaddedInput" : "pad_temp");
        EXPECT_TRUE(pad.ends_with("@root")) << pad << "the pad holds a branch: not strictly inlinable";
    }
    for (const auto& [name, t] :
        { std::pair { "dense", dense() }, { "batch_matmul", batchMatmul() }, { "depthwise", depthwise() } }) {
        const auto all = sketches(t);
        ASSERT_EQ(all.size(), 3u) << name;
        EXPECT_EQ(all[0].rules.rfind("MultiLevelTiling(", 0), 0u) << name << ": " << all[0].rules;
        EXPECT_EQ(all[1].rules.rfind("AddCacheWrite(", 0), 0u) << name << ": " << all[1].rules;
    }
    // Reductions over rows longer than the cores: each of softmax's two reductions with or without rfactor
    // (two variants each): 3 x 3 = 9.
    EXPECT_EQ(sketches(softmax()).size(), 9u);
    // Layer norm: its output reads row statistics and per-column gamma/beta, so Ansor's predicate asks for
    // multi-level tiling (with and without a cache stage, which AlwaysInline then inlines again, as in
    // TVM), times the 3 x 3 rfactor choices of mean and variance.
    EXPECT_EQ(sketches(layerNorm()).size(), 18u);
}

// A reduction over several axes is fused into one before rfactor splits it (Ansor's
// FuseAllReductionIterators): global average pooling over 7x7 reduces 49 > 2 cores.
TEST(SketchRules, RfactorFusesEveryReductionAxisFirst)
{
    ir::Tensor x = ir::placeholder("x", { 1, 7, 7, 64 });
    const auto all = sketches(task({ x, value(ops::globalAvgPool2d(x, ops::Layout::NHWC)) }));
    int rfactored = 0;
    for (const Sketch& s : all) {
        if (s.openSplits.empty())
            continue;
        ++rfactored;
        const auto& steps = s.state.steps();
        ASSERT_GE(steps.size(), 3u);
        const auto* fuse = std::get_if<sched::FuseStep>(&steps[static_cast<size_t>(s.openSplits[0]) - 1]);
        ASSERT_NE(fuse, nullptr) << s.rules << ": the split of an rfactor follows the fuse of the reductions";
        EXPECT_EQ(fuse->fusedIds.size(), 2u);
    }
    EXPECT_EQ(rfactored, 2) << "the two rfactor variants";
}

TEST(SketchRules, ConditionsFollowTheAccessPredicates)
{
    // AlwaysInline: strictly inlinable, not an output, no reduction.
    EXPECT_EQ(condition("AlwaysInline", reluPadMatmul(), "T_relu"), RuleResult::ApplyAndSkipRest);
    EXPECT_EQ(condition("AlwaysInline", reluPadMatmul(), "C"), RuleResult::Skip) << "a pad has a branch";
    EXPECT_EQ(condition("AlwaysInline", matmulRelu(), "T_relu"), RuleResult::Skip) << "an output";
    EXPECT_EQ(condition("AlwaysInline", matmulRelu(), "C"), RuleResult::Skip) << "a reduction";
    EXPECT_EQ(condition("AlwaysInline", matmulRelu(), "A"), RuleResult::Skip) << "a placeholder";
    // AddRfactor: tiled stage with little spatial parallelism, or a long plain reduction.
    EXPECT_EQ(condition("AddRfactor", reluPadMatmul(), "E"), RuleResult::Apply) << "8 x 4 outputs, 512 long";
    EXPECT_EQ(condition("AddRfactor", matmulRelu(), "C"), RuleResult::Skip);
    EXPECT_EQ(condition("AddRfactor", softmax(), "T_softmax_maxelem"), RuleResult::Apply);
    EXPECT_EQ(condition("AddRfactor", task(softmax().dag.tensors(), 256), "T_softmax_maxelem"), RuleResult::Skip)
        << "128 long is not more than 256 cores";
    // AddCacheWrite: needs tiling and no element-wise consumer to fuse.
    EXPECT_EQ(condition("AddCacheWrite", dense(), "T_dense"), RuleResult::Apply);
    EXPECT_EQ(condition("AddCacheWrite", matmulRelu(), "C"), RuleResult::Skip);
    // Tiling with fusion: an element-wise consumer.
    EXPECT_EQ(condition("MultiLevelTilingWithFusion", matmulRelu(), "C"), RuleResult::Apply);
    EXPECT_EQ(condition("MultiLevelTilingWithFusion", dense(), "T_dense"), RuleResult::Skip);
    EXPECT_EQ(condition("MultiLevelTiling", dense(), "T_dense"), RuleResult::ApplyAndSkipRest);
    EXPECT_EQ(condition("MultiLevelTiling", matmulRelu(), "T_relu"), RuleResult::Skip);
    EXPECT_EQ(condition("SimplifyComputeWithConstTensor", matmulRelu(), "C"), RuleResult::Skip);
    EXPECT_EQ(condition("SkipStage", matmulRelu(), "A"), RuleResult::Apply);
}

TEST(SketchRules, SketchesAreUniqueAndPrintWithOpenTiles)
{
    const auto all = sketches(reluPadMatmul());
    std::set<uint64_t> hashes;
    for (const Sketch& s : all)
        EXPECT_TRUE(hashes.insert(stateHash(s.state)).second);
    const std::string text = toString(all[2]);
    EXPECT_NE(text.find("rules: MultiLevelTiling(E)"), std::string::npos) << text;
    EXPECT_NE(text.find("(0,?)"), std::string::npos) << text;
    EXPECT_NE(toString(all[0]).find("open split: step 0"), std::string::npos) << toString(all[0]);
}

// GPU targets take Ansor's GPU rules (tests/core/cuda_codegen_test.cpp pins them): one sketch, local
// accumulation, shared copies of both inputs, where the CPU has two.
TEST(SketchRules, GpuTargetsTakeTheGpuRules)
{
    SearchTask t = dense();
    t.target = target::fromTvm("cuda -arch=sm_80").value();
    auto result = generateSketches(t);
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(result->size(), 1u);
    EXPECT_NE(result->front().rules.find("AddCacheRead"), std::string::npos) << result->front().rules;
    EXPECT_NE(result->front().rules.find("AddCacheWrite"), std::string::npos) << result->front().rules;
}
