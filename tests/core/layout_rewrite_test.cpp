// Layout rewrite (Ansor's layout_rewrite_option 1): a conv2d's, dense's, matmul's or batch_matmul's weight is packed,
// at the start of the kernel, into the layout its loops read. Random annotations of Ansor's sketches of each such
// operator compute their reference with it; a split that does not divide pads the packed weight with zeros; the
// inner loops read it with unit stride; weights of other ops (depthwise) and weights read by two
// stages are left alone.
#include "kernel_check.h"
#include "search_fixtures.h"

#include "core/cost/analytical_model.h"
#include "core/search/annotation.h"
#include "core/search/sketch.h"

#include <gtest/gtest.h>

using namespace ts;

namespace {

lower::LowerOptions rewriting(int option = 1)
{
    lower::LowerOptions options;
    options.layoutRewrite = option;
    return options;
}

// Lowers with the rewrite; the packed buffer's name, or "" when nothing was packed.
std::string packedBuffer(const sched::State& state)
{
    auto func = lower::lower(state, rewriting());
    EXPECT_TRUE(func) << func.error().message;
    if (!func)
        return "";
    const std::string text = lower::toString(*func);
    const size_t at = text.find("_packed[");
    if (at == std::string::npos)
        return "";
    const size_t begin = text.rfind(' ', at) + 1;
    return text.substr(begin, at + 7 - begin);
}

void expectRandomAnnotationsMatch(const search::SearchTask& task, int perSketch, bool expectPacked, int option = 1)
{
    auto reference = measure::computeReference(task.dag, 11, 512, 1e9);
    ASSERT_TRUE(reference) << reference.error().message;
    auto sketches = search::generateSketches(task);
    ASSERT_TRUE(sketches) << sketches.error().message;
    Rng rng(5);
    int packed = 0;
    int checked = 0;
    for (const search::Sketch& sketch : *sketches)
        for (int k = 0; k < perSketch; ++k) {
            auto state = search::randomAnnotation(task, sketch, {}, rng);
            ASSERT_TRUE(state) << state.error().message;
            ts::testing::expectMatches(*reference, *state, task.name + " with layout rewrite " + std::to_string(option),
                task.target, rewriting(option));
            packed += packedBuffer(*state).empty() ? 0 : 1;
            ++checked;
        }
    if (expectPacked)
        EXPECT_GT(packed, checked / 2) << "most tiled schedules read their weight out of its order";
    else
        EXPECT_EQ(packed, 0);
}

// A 3x3 stride-2 NCHW conv2d of 16 channels in, `channelsOut` out, on a 10x10 image.
search::SearchTask strideTwoNchwConv(int64_t channelsOut)
{
    ir::Tensor data = ir::placeholder("data", { 1, 16, 10, 10 });
    ir::Tensor weight = ir::placeholder("weight", { channelsOut, 16, 3, 3 });
    ops::Conv2dParams p;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    p.stride = { 2, 2 };
    return ts::testing::task("conv2d_nchw", { data, weight, ts::testing::value(ops::conv2d(data, weight, p)) });
}

// A 1x1 NCHW conv2d of 96 channels in, 64 out, on a 7x7 image: its weight is most of what it reads.
search::SearchTask pointwiseNchwConv()
{
    ir::Tensor data = ir::placeholder("data", { 1, 96, 7, 7 });
    ir::Tensor weight = ir::placeholder("weight", { 64, 96, 1, 1 });
    return ts::testing::task(
        "conv2d_nchw", { data, weight, ts::testing::value(ops::conv2d(data, weight, ops::Conv2dParams {})) });
}

// Whether a compute_at tile vectorizes the output channels (ff innermost).
bool channelsVectorized(const sched::State& state)
{
    for (int s = 0; s < state.numStages(); ++s) {
        const sched::Stage& stage = state.stage(s);
        if (stage.computeAt == sched::ComputeAtKind::Iter && !stage.iters.empty()
            && stage.iters.back().name.rfind("ff", 0) == 0
            && stage.iters.back().annotation == sched::Annotation::Vectorize)
            return true;
    }
    return false;
}

} // namespace

TEST(LayoutRewrite, RandomConv2dNhwcSchedulesComputeTheirReference)
{
    expectRandomAnnotationsMatch(ts::testing::conv2dNhwcBiasRelu(), 6, true);
}

TEST(LayoutRewrite, RandomConv2dNchwSchedulesComputeTheirReference)
{
    expectRandomAnnotationsMatch(strideTwoNchwConv(24), 6, true);
}

TEST(LayoutRewrite, RandomDenseAndMatmulSchedulesComputeTheirReference)
{
    expectRandomAnnotationsMatch(ts::testing::dense(), 6, true);
    expectRandomAnnotationsMatch(ts::testing::matmul(), 6, true);
}

TEST(LayoutRewrite, PackedBeforeTheRunsTheSchedulesComputeTheirReferenceToo)
{
    // Option 2: the packing is the kernel's setup, run once before the body (kernel_check runs it as the runner
    // does), into a static buffer the body reads.
    expectRandomAnnotationsMatch(ts::testing::conv2dNhwcBiasRelu(), 4, true, 2);
    expectRandomAnnotationsMatch(ts::testing::dense(), 4, true, 2);
}

TEST(LayoutRewrite, OptionTwoPutsThePackingInTheSetupAndKeepsTheBodyFreeOfIt)
{
    const search::SearchTask task = ts::testing::matmul();
    auto func = lower::lower(sched::State::initial(task.dag), rewriting(2));
    ASSERT_TRUE(func) << func.error().message;
    ASSERT_TRUE(func->setup) << "a setup";
    const std::string setup = lower::toString(func->setup);
    const std::string body = lower::toString(func->body);
    EXPECT_NE(setup.find("B_packed["), std::string::npos) << setup;
    EXPECT_NE(setup.find("= B["), std::string::npos) << "the setup reads the weight\n" << setup;
    EXPECT_EQ(body.find("= B["), std::string::npos) << "the body does not pack\n" << body;
    EXPECT_NE(body.find("// static"), std::string::npos) << body;
    EXPECT_NE(lower::toString(*func).find("void default_function_setup("), std::string::npos);
    EXPECT_FALSE(lower::lower(sched::State::initial(task.dag), rewriting(3))) << "options are 0, 1 and 2";
    auto none = lower::lower(sched::State::initial(task.dag), rewriting(0));
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->setup);

    // The loaded kernel names its static buffer, so that a cache flush (measure's flushCache) reaches the packed
    // weight too: B_packed holds all of B's floats.
    auto kernel = codegen::compile(*func);
    ASSERT_TRUE(kernel) << kernel.error().message;
    int64_t weightBytes = 4;
    for (int64_t d : task.dag.op(1).shape())
        weightBytes *= d;
    ASSERT_EQ((*kernel)->statics().size(), 1u);
    EXPECT_NE((*kernel)->statics()[0].data, nullptr);
    EXPECT_GE(static_cast<int64_t>((*kernel)->statics()[0].bytes), weightBytes);
    auto plain = codegen::compile(*none);
    ASSERT_TRUE(plain);
    EXPECT_TRUE((*plain)->statics().empty());
}

TEST(LayoutRewrite, RandomBatchMatmulSchedulesComputeTheirReference)
{
    // TVM's batch_matmul lists its B among the layout-free placeholders too: [b, j, k] read under tiled j loops
    // strides by K per lane; packed, the vectorized loop reads it contiguously.
    expectRandomAnnotationsMatch(ts::testing::batchMatmul(), 6, true);
}

TEST(LayoutRewrite, WeightsOfOtherOpsAreLeftAsTheyAre)
{
    expectRandomAnnotationsMatch(ts::testing::depthwise(), 3, false);
}

TEST(LayoutRewrite, ASplitThatDoesNotDividePadsThePackedWeightWithZeros)
{
    // matmul 64x32x48, j split by 5 (48 = 9*5 + 3), loops i, j.0, k, j.1: B[k, j] is packed as [j.0 = 10, k = 32,
    // j.1 = 5], its last row of j.0 half zeros.
    const search::SearchTask task = ts::testing::matmul();
    auto state = sched::State::replayJson(task.dag, R"([["SP", 2, 1, 48, [5], 1], ["RE", 2, [0, 1, 3, 2]]])");
    ASSERT_TRUE(state) << state.error().message;
    auto func = lower::lower(*state, rewriting());
    ASSERT_TRUE(func) << func.error().message;
    const std::string text = lower::toString(*func);
    EXPECT_NE(text.find("float32 B_packed[1600]"), std::string::npos) << text; // 10 * 5 * 32
    EXPECT_NE(text.find("= 0f"), std::string::npos) << "the padding is zeroed\n" << text;
    EXPECT_NE(text.find("B_packed[j.0*160 + rv0*5 + j.1]"), std::string::npos) << "read in loop order\n" << text;
    ts::testing::expectMatchesReference(task.dag, *state, "matmul j split by 5", task.target);
    auto reference = measure::computeReference(task.dag, 11, 512, 1e9);
    ASSERT_TRUE(reference);
    ts::testing::expectMatches(*reference, *state, "matmul j split by 5, rewritten", task.target, rewriting());
}

TEST(LayoutRewrite, AWeightAlreadyInLoopOrderOrReadTwiceIsNotPacked)
{
    // No split, loops i, j, k: B[k, j] would be packed [j, k] (a transpose), so it is; but loops i, k, j read B
    // in its own order and nothing is packed.
    const search::SearchTask task = ts::testing::matmul();
    auto reordered = sched::State::replayJson(task.dag, R"([["RE", 2, [0, 2, 1]]])");
    ASSERT_TRUE(reordered);
    EXPECT_EQ(packedBuffer(*reordered), "");
    EXPECT_EQ(packedBuffer(sched::State::initial(task.dag)), "B_packed");

    // A weight that two ops read (the matmul and an add) is not layout-free.
    ir::Tensor a = ir::placeholder("A", { 8, 8 });
    ir::Tensor b = ir::placeholder("B", { 8, 8 });
    ir::Tensor product = ts::testing::value(ops::matmul(a, b));
    ir::Tensor sum = ts::testing::value(ops::add(product, b));
    const ir::ComputeDAG twice = ir::ComputeDAG::create({ a, b, sum });
    EXPECT_EQ(packedBuffer(sched::State::initial(twice)), "");
}

// A task whose weights are packed lets the search vectorize a weight's axis: an NCHW conv2d's output channels,
// moved innermost in the tile computed inside the output, read the packed weight contiguously. Such states
// compute their reference; a task that does not pack draws none (Ansor's rules, unchanged).
// The analytical estimate of a task whose kernels pack their weights reads the packed layout, as the measured
// kernel does: a tile vectorized over the output channels reads the weight with unit stride, not one cache line
// per lane (the DAG's layout, which Ansor's features and the learned models see).
TEST(LayoutRewrite, TheAnalyticalEstimateReadsThePackedWeightAsTheKernelDoes)
{
    search::SearchTask task = pointwiseNchwConv();
    task.packsWeights = true;
    auto sketches = search::generateSketches(task);
    ASSERT_TRUE(sketches) << sketches.error().message;
    Rng rng(3);
    int compared = 0;
    for (const search::Sketch& sketch : *sketches)
        for (int k = 0; k < 16 && compared < 4; ++k) {
            auto state = search::randomAnnotation(task, sketch, {}, rng);
            ASSERT_TRUE(state) << state.error().message;
            if (!channelsVectorized(*state))
                continue;
            cost::AnalyticalCostModel model;
            cost::CostTask unpacked { &task.dag, task.dag.workloadKey(), task.flops, task.target, false };
            cost::CostTask packed = unpacked;
            packed.packsWeights = true;
            const double fromDagLayout = model.predict(unpacked, std::span(&*state, 1)).front();
            const double fromPacked = model.predict(packed, std::span(&*state, 1)).front();
            EXPECT_GT(fromPacked, fromDagLayout) << "a score is 1 / estimated time";
            // The memory term alone: the estimate of a compute-bound tile gains less than its traffic does.
            double memory[2] = { 0.0, 0.0 };
            for (bool packs : { false, true })
                for (const auto& row :
                    model.explain(features::perStoreFeatures(*state, task.target, packs).value(), task.target))
                    memory[packs] += row.memory;
            EXPECT_LT(memory[1], 0.8 * memory[0]);
            ++compared;
        }
    EXPECT_GT(compared, 0);
}

TEST(LayoutRewrite, PackedWeightsLetTheSearchVectorizeTheOutputChannels)
{
    search::SearchTask task = strideTwoNchwConv(32);
    auto reference = measure::computeReference(task.dag, 11, 512, 1e9);
    ASSERT_TRUE(reference) << reference.error().message;
    auto sketches = search::generateSketches(task);
    ASSERT_TRUE(sketches) << sketches.error().message;
    for (bool packs : { true, false }) {
        task.packsWeights = packs;
        Rng rng(3);
        int vectorized = 0;
        int drawn = 0;
        for (const search::Sketch& sketch : *sketches)
            for (int k = 0; k < 16; ++k) {
                auto state = search::randomAnnotation(task, sketch, {}, rng);
                ASSERT_TRUE(state) << state.error().message;
                ++drawn;
                if (!channelsVectorized(*state))
                    continue;
                ++vectorized;
                ts::testing::expectMatches(
                    *reference, *state, "conv2d_nchw, channels vectorized", task.target, rewriting(2));
            }
        if (packs)
            EXPECT_GT(vectorized, drawn / 8) << "half the compute_at tiles whose innermost loop is xx move ff there";
        else
            EXPECT_EQ(vectorized, 0);
    }
}
