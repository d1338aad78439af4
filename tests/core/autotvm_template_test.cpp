// AutoTVM templates (core/search/autotvm/template.h): the spaces they declare for known shapes, their step
// lists, that sampled configs replay, lower, compile and compute the reference result, and the
// instantiation errors.
#include "kernel_check.h"
#include "search_fixtures.h"

#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/search/autotvm/template.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace ts;
using namespace ts::autotvm;
namespace tt = ts::testing;

namespace {

const Template& tmpl(const std::string& name)
{
    const Template* t = findTemplate(name);
    if (t == nullptr)
        throw std::runtime_error("no template " + name);
    return *t;
}

std::vector<std::string> knobNames(const ConfigSpace& space)
{
    std::vector<std::string> names;
    for (const Knob& k : space.knobs())
        names.push_back(k.name());
    return names;
}

// First, last and 20 more configs drawn with a fixed seed.
std::vector<int64_t> sampleIndexes(int64_t size)
{
    std::vector<int64_t> out { 0, size - 1 };
    std::mt19937_64 rng(14);
    std::uniform_int_distribution<int64_t> pick(0, size - 1);
    while (out.size() < 22 && static_cast<int64_t>(out.size()) < size) {
        const int64_t i = pick(rng);
        if (std::find(out.begin(), out.end(), i) == out.end())
            out.push_back(i);
    }
    return out;
}

void expectSampledConfigsComputeTheReference(const std::string& name, const ir::ComputeDAG& dag)
{
    const Template& t = tmpl(name);
    const ConfigSpace space = tt::value(t.space(dag));
    auto reference = measure::computeReference(dag, 11, 512, 1e9);
    ASSERT_TRUE(reference) << reference.error().message;
    for (int64_t index : sampleIndexes(space.size())) {
        const std::string what = name + " config " + std::to_string(index) + " " + space.entityJson(index);
        auto steps = t.apply(dag, space, index);
        ASSERT_TRUE(steps) << what << ": " << steps.error().message;
        auto state = sched::State::replay(dag, *steps);
        ASSERT_TRUE(state) << what << ": " << state.error().message;
        tt::expectMatches(*reference, *state, what);
    }
}

} // namespace

TEST(AutotvmTemplate, RegistryFindsByTvmTaskName)
{
    ASSERT_EQ(templates().size(), 3u);
    EXPECT_EQ(tmpl("dense_nopack.x86").opTag, "dense");
    EXPECT_EQ(tmpl("batch_matmul.x86").opTag, "batch_matmul");
    EXPECT_EQ(tmpl("conv2d_NCHWc.x86").opTag, "conv2d_nchw");
    EXPECT_EQ(findTemplate("dense_pack.x86"), nullptr);
}

// define_split(policy "factors", num_outputs=2) on each axis: one entity per divisor.
TEST(AutotvmTemplate, SpaceSizesForKnownShapes)
{
    // dense: x 4x64, w 32x64: M = 4 (3 divisors), N = 32 (6), K = 64 (7).
    const ConfigSpace dense = tt::value(tmpl("dense_nopack.x86").space(tt::dense().dag));
    EXPECT_EQ(knobNames(dense), (std::vector<std::string> { "tile_y", "tile_x", "tile_k" }));
    EXPECT_EQ(dense.size(), 3 * 6 * 7);
    // batch_matmul: a 2x16x32, b 2x24x32: M = 16 (5), N = 24 (8), K = 32 (6).
    const ConfigSpace bmm = tt::value(tmpl("batch_matmul.x86").space(tt::batchMatmul().dag));
    EXPECT_EQ(knobNames(bmm), (std::vector<std::string> { "tile_y", "tile_x", "tile_k" }));
    EXPECT_EQ(bmm.size(), 5 * 8 * 6);
    // The first knob varies fastest: index 1 is tile_y's second divisor.
    EXPECT_EQ(
        bmm.entityJson(1), R"([["tile_y", "sp", [-1, 2]], ["tile_x", "sp", [-1, 1]], ["tile_k", "sp", [-1, 1]]])");
}

TEST(AutotvmTemplate, DenseNopackSteps)
{
    const ir::ComputeDAG dag = tt::dense().dag;
    const Template& t = tmpl("dense_nopack.x86");
    const ConfigSpace space = tt::value(t.space(dag));
    // tile_y [-1, 2], tile_x [-1, 8], tile_k [-1, 16]
    const int64_t index = space.indexOf({ 1, 3, 4 });
    ASSERT_EQ(space.entityJson(index),
        R"([["tile_y", "sp", [-1, 2]], ["tile_x", "sp", [-1, 8]], ["tile_k", "sp", [-1, 16]]])");
    const auto steps = tt::value(t.apply(dag, space, index));
    EXPECT_EQ(sched::stepsToText(steps),
        R"([["SP",2,2,64,[16],1],["RF",2,3,2],["SP",3,0,4,[2],1],["SP",3,2,32,[8],1],["RE",3,[0,2,1,3,4]],)"
        R"(["FU",3,[0,1]],["AN",3,0,3],["AN",3,3,1],["CA",2,3,0],["FU",2,[0,1]],["RE",2,[2,0,1]],["AN",2,1,1],)"
        R"(["AN",2,2,2]])");
    // TVM's loop nest: CC (here T_dense.rf) at the fused y.0@x.0 loop: k, unrolled z@y, vectorized x; then yi, xi,
    // unrolled kk.
    EXPECT_EQ(tt::value(sched::State::replay(dag, steps)).toString(),
        "Placeholder: x, w\n"
        "parallel i.0@j.0@ (0,8)\n"
        "  for rv0.0 (None)\n"
        "    unroll i@j@ (None)\n"
        "      vectorize rv0.1.v (None)\n"
        "        T_dense.rf = ...\n"
        "  for i.1 (0,2)\n"
        "    for j.1 (0,8)\n"
        "      unroll rv0.1.v (0,16)\n"
        "        T_dense = ...\n");
}

TEST(AutotvmTemplate, BatchMatmulSteps)
{
    const ir::ComputeDAG dag = tt::batchMatmul().dag;
    const Template& t = tmpl("batch_matmul.x86");
    const ConfigSpace space = tt::value(t.space(dag));
    // tile_y [-1, 4], tile_x [-1, 8], tile_k [-1, 8]
    const int64_t index = space.indexOf({ 2, 5, 3 });
    ASSERT_EQ(space.entityJson(index),
        R"([["tile_y", "sp", [-1, 4]], ["tile_x", "sp", [-1, 8]], ["tile_k", "sp", [-1, 8]]])");
    const auto steps = tt::value(t.apply(dag, space, index));
    EXPECT_EQ(sched::stepsToText(steps),
        R"([["CHW",2,"global"],["SP",2,3,32,[8],1],["RF",2,4,0],["SP",4,1,16,[4],1],["SP",4,3,24,[8],1],)"
        R"(["RE",4,[0,1,3,2,4]],["FU",4,[0,1,2]],["AN",4,0,3],["PR",4,0,"auto_unroll_max_step$16"],["CA",3,4,0],)"
        R"(["CA",2,3,0],["FU",2,[2,3]],["AN",2,0,2]])");
    // TVM's loop nest: CC at the fused b@y.0@x.0 loop, Crf at CC's b loop, vectorized over its axis 0 (ki).
    EXPECT_EQ(tt::value(sched::State::replay(dag, steps)).toString(),
        "Placeholder: a, b\n"
        "T_batch_matmul auto_unroll: 16\n"
        "parallel i@j.0@k.0@ (0,24)\n"
        "  for i (None)\n"
        "    vectorize rv0.1.v (None)\n"
        "      for i (None)\n"
        "        for j@k@ (None)\n"
        "          for rv0.0 (None)\n"
        "            T_batch_matmul.global.rf = ...\n"
        "    for j (None)\n"
        "      for k (None)\n"
        "        for rv0.1.v (None)\n"
        "          T_batch_matmul.global = ...\n"
        "  for j.1 (0,4)\n"
        "    for k.1 (0,8)\n"
        "      T_batch_matmul = ...\n");
}

TEST(AutotvmTemplate, DenseNopackSampledConfigsComputeTheReference)
{
    expectSampledConfigsComputeTheReference("dense_nopack.x86", tt::dense().dag);
}

TEST(AutotvmTemplate, BatchMatmulSampledConfigsComputeTheReference)
{
    expectSampledConfigsComputeTheReference("batch_matmul.x86", tt::batchMatmul().dag);
}

TEST(AutotvmTemplate, InstantiationErrors)
{
    const ir::ComputeDAG dag = tt::dense().dag;
    const Template& t = tmpl("dense_nopack.x86");
    const ConfigSpace space = tt::value(t.space(dag));

    auto outOfRange = t.apply(dag, space, space.size());
    ASSERT_FALSE(outOfRange);
    EXPECT_EQ(outOfRange.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(
        outOfRange.error().message, "instantiation error: dense_nopack.x86: config index 126 out of range [0, 126)");

    // A space whose tile_k candidates do not split K = 64: [-1, 5] does not divide it, [4, 8] multiplies to 32.
    ConfigSpace bad;
    SplitOptions factors;
    factors.numOutputs = 2;
    SplitOptions candidate;
    candidate.policy = SplitPolicy::Candidate;
    candidate.numOutputs = 2;
    candidate.candidate = { { -1, 5 }, { 4, 8 } };
    ASSERT_TRUE(bad.add(tt::value(makeSplitKnob("tile_y", 4, factors))));
    ASSERT_TRUE(bad.add(tt::value(makeSplitKnob("tile_x", 32, factors))));
    ASSERT_TRUE(bad.add(tt::value(makeSplitKnob("tile_k", 64, candidate))));
    auto notDividing = t.apply(dag, bad, 0);
    ASSERT_FALSE(notDividing);
    EXPECT_EQ(notDividing.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(notDividing.error().message,
        "instantiation error: dense_nopack.x86: tile_k [-1, 5] does not divide the extent 64");
    auto wrongProduct = t.apply(dag, bad, bad.indexOf({ 0, 0, 1 }));
    ASSERT_FALSE(wrongProduct);
    EXPECT_EQ(wrongProduct.error().message,
        "instantiation error: dense_nopack.x86: tile_k [4, 8] has product 32, not the extent 64");

    // A space declared for another shape: tile_x [-1, 64] does not divide N = 32.
    ir::Tensor x = ir::placeholder("x", { 4, 64 });
    ir::Tensor w = ir::placeholder("w", { 64, 64 });
    const ir::ComputeDAG wide = ir::ComputeDAG::create({ x, w, tt::value(ops::dense(x, w)) });
    const ConfigSpace wideSpace = tt::value(t.space(wide));
    auto otherShape = t.apply(dag, wideSpace, wideSpace.indexOf({ 0, 6, 0 }));
    ASSERT_FALSE(otherShape);
    EXPECT_EQ(otherShape.error().message,
        "instantiation error: dense_nopack.x86: tile_x [-1, 64] does not divide the extent 32");

    // Not the template's workload.
    auto noDense = t.space(tt::matmul().dag);
    ASSERT_FALSE(noDense);
    EXPECT_EQ(noDense.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(noDense.error().message, "dense_nopack.x86: the DAG has no dense op (tag \"dense\")");
}

namespace {
// conv2d NCHW (with its pad stage), optionally with bias + relu after it.
ir::ComputeDAG convNchw(int64_t c, int64_t o, int64_t hw, int64_t k, int64_t stride, int64_t pad, bool epilogue)
{
    ir::Tensor data = ir::placeholder("data", { 1, c, hw, hw });
    ir::Tensor weight = ir::placeholder("weight", { o, c, k, k });
    ops::Conv2dParams p;
    p.stride = { stride, stride };
    p.padding = ops::Conv2dParams::symmetric(pad, pad);
    ir::Tensor conv = tt::value(ops::conv2d(data, weight, p));
    if (!epilogue)
        return ir::ComputeDAG::create({ data, weight, conv });
    ir::Tensor bias = ir::placeholder("bias", { o });
    return ir::ComputeDAG::create({ data, weight, bias, tt::value(ops::relu(tt::value(ops::biasAdd(conv, bias, 1)))) });
}
} // namespace

// TVM's space for ResNet-18's first convolution: tile_ic 2 x tile_oc 7 x tile_ow 11 x unroll_kw 2 = 308, and the
// reference notes' logged config (index 172) decodes to itself.
TEST(AutotvmTemplate, Conv2dNchwcSpaceIsTvms)
{
    const ConfigSpace space = tt::value(tmpl("conv2d_NCHWc.x86").space(convNchw(3, 64, 224, 7, 2, 3, true)));
    EXPECT_EQ(space.size(), 308);
    ASSERT_EQ(space.numKnobs(), 4u);
    EXPECT_EQ(space.knob(0).name(), "tile_ic");
    EXPECT_EQ(space.knob(3).name(), "unroll_kw");
    auto index = space.parseEntity(
        R"([["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", [-1, 4]], ["tile_ow", "sp", [-1, 1]], ["unroll_kw", "ot", false]])");
    ASSERT_TRUE(index) << index.error().message;
    EXPECT_EQ(*index, 172);
    // A 1x1 kernel has tile_oh instead of unroll_kw.
    const ConfigSpace oneByOne = tt::value(tmpl("conv2d_NCHWc.x86").space(convNchw(16, 32, 14, 1, 2, 0, false)));
    EXPECT_EQ(oneByOne.knob(3).name(), "tile_oh");
}

TEST(AutotvmTemplate, Conv2dSampledConfigsComputeTheReference)
{
    expectSampledConfigsComputeTheReference("conv2d_NCHWc.x86", convNchw(8, 16, 10, 3, 1, 1, false));
    expectSampledConfigsComputeTheReference("conv2d_NCHWc.x86", convNchw(8, 16, 10, 3, 2, 1, true));
    expectSampledConfigsComputeTheReference("conv2d_NCHWc.x86", convNchw(8, 16, 8, 1, 1, 0, true));
}

TEST(AutotvmTemplate, FusedEpiloguesComputeTheReference)
{
    ir::Tensor x = ir::placeholder("x", { 4, 64 });
    ir::Tensor w = ir::placeholder("w", { 32, 64 });
    ir::Tensor bias = ir::placeholder("bias", { 32 });
    const ir::ComputeDAG dag = ir::ComputeDAG::create(
        { x, w, bias, tt::value(ops::relu(tt::value(ops::biasAdd(tt::value(ops::dense(x, w)), bias, 1)))) });
    expectSampledConfigsComputeTheReference("dense_nopack.x86", dag);
}

TEST(AutotvmTemplate, TaskExtractionAndTvmArgs)
{
    // ResNet-18's first task: conv2d + bias + relu; TVM's args as its log writes them, both ways.
    const ir::ComputeDAG first = convNchw(3, 64, 224, 7, 2, 3, true);
    const auto fitting = templatesFor(first);
    ASSERT_EQ(fitting.size(), 1u);
    EXPECT_EQ(fitting[0]->name, "conv2d_NCHWc.x86");
    const std::string args = tt::value(taskArgs(*fitting[0], first));
    EXPECT_EQ(args,
        R"([["TENSOR", [1, 3, 224, 224], "float32"], ["TENSOR", [64, 3, 7, 7], "float32"], [2, 2], [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"])");
    const ir::ComputeDAG rebuilt = tt::value(dagFromTaskArgs("conv2d_NCHWc.x86", args));
    EXPECT_EQ(tt::value(taskArgs(tmpl("conv2d_NCHWc.x86"), rebuilt)), args);
    EXPECT_EQ(tt::value(tmpl("conv2d_NCHWc.x86").space(rebuilt)).size(), 308);

    const std::string denseArgs = tt::value(taskArgs(tmpl("dense_nopack.x86"), tt::dense().dag));
    EXPECT_EQ(denseArgs, R"([["TENSOR", [4, 64], "float32"], ["TENSOR", [32, 64], "float32"], null, "float32"])");
    EXPECT_EQ(tt::value(taskArgs(tmpl("dense_nopack.x86"), tt::value(dagFromTaskArgs("dense_nopack.x86", denseArgs)))),
        denseArgs);

    // Args that do not describe a workload name what is wrong.
    auto badLayout = dagFromTaskArgs("conv2d_NCHWc.x86",
        R"([["TENSOR", [1, 3, 8, 8], "float32"], ["TENSOR", [4, 3, 3, 3], "float32"], [1, 1], [1, 1, 1, 1], [1, 1], "NHWC", "NHWC", "float32"])");
    ASSERT_FALSE(badLayout);
    EXPECT_NE(badLayout.error().message.find("arg 5 (layout)"), std::string::npos) << badLayout.error().message;
    auto badShape
        = dagFromTaskArgs("dense_nopack.x86", R"([["TENSOR", [4], "float32"], ["TENSOR", [32, 64], "float32"]])");
    ASSERT_FALSE(badShape);
    EXPECT_NE(badShape.error().message.find("rank 1, expected 2"), std::string::npos) << badShape.error().message;
    EXPECT_FALSE(dagFromTaskArgs("dense_pack.x86", "[]"));

    // An op that no template schedules, and a second reduction after the anchor, are not AutoTVM tasks.
    EXPECT_TRUE(templatesFor(tt::matmul().dag).empty());
}
