// AutoTVM templates (core/search/autotvm/template.h): the spaces they declare for known shapes, their step
// lists, that sampled configs replay, lower, compile and compute the reference result, and the
// instantiation errors.
#include "kernel_check.h"
#include "search_fixtures.h"

#include "core/graph/model_zoo.h"
#include "core/graph/task_extraction.h"
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

// First, last and count - 2 more configs drawn with a fixed seed.
std::vector<int64_t> sampleIndexes(int64_t size, size_t count)
{
    std::vector<int64_t> out { 0, size - 1 };
    std::mt19937_64 rng(14);
    std::uniform_int_distribution<int64_t> pick(0, size - 1);
    while (out.size() < count && static_cast<int64_t>(out.size()) < size) {
        const int64_t i = pick(rng);
        if (std::find(out.begin(), out.end(), i) == out.end())
            out.push_back(i);
    }
    return out;
}

void expectSampledConfigsComputeTheReference(const std::string& name, const ir::ComputeDAG& dag, size_t count = 22)
{
    const Template& t = tmpl(name);
    const ConfigSpace space = tt::value(t.space(dag));
    auto reference = measure::computeReference(dag, 11, 512, 1e9);
    ASSERT_TRUE(reference) << reference.error().message;
    for (int64_t index : sampleIndexes(space.size(), count)) {
        const std::string what = name + " config " + std::to_string(index) + " " + space.entityJson(index);
        auto instance = instantiate(t, dag, space, index);
        ASSERT_TRUE(instance) << what << ": " << instance.error().message;
        auto state = sched::State::replay(instance->dag, instance->steps);
        ASSERT_TRUE(state) << what << ": " << state.error().message;
        if (!t.program) {
            tt::expectMatches(*reference, *state, what);
            continue;
        }
        // A program of its own (TVM's packed layout): checked against its own compute.
        auto own = measure::computeReference(instance->dag, 11, 512, 1e9);
        ASSERT_TRUE(own) << own.error().message;
        tt::expectMatches(*own, *state, what);
    }
}

} // namespace

TEST(AutotvmTemplate, RegistryFindsByTvmTaskName)
{
    std::vector<std::string> names;
    for (const Template& t : templates())
        names.push_back(t.name);
    // TVM's x86 strategy order: dense_pack (plevel 10) before dense_nopack (plevel 5).
    EXPECT_EQ(names,
        (std::vector<std::string> { "dense_nopack.x86", "dense_pack.x86", "batch_matmul.x86", "conv2d_NCHWc.x86",
            "depthwise_conv2d_NCHWc.x86", "conv2d_nhwc_spatial_pack.tunescope", "conv2d_nchw_blocked.tunescope",
            "depthwise_conv2d_nchw_blocked.tunescope" }));
    EXPECT_EQ(tmpl("dense_pack.x86").opTag, "dense");
    EXPECT_EQ(tmpl("dense_nopack.x86").opTag, "dense");
    EXPECT_EQ(tmpl("batch_matmul.x86").opTag, "batch_matmul");
    EXPECT_EQ(tmpl("conv2d_NCHWc.x86").opTag, "conv2d_nchw");
    EXPECT_EQ(tmpl("depthwise_conv2d_NCHWc.x86").opTag, "depthwise_conv2d_nchw");
    EXPECT_EQ(tmpl("conv2d_nhwc_spatial_pack.tunescope").opTag, "conv2d_nhwc");
    EXPECT_EQ(findTemplate("conv2d_nchw.x86"), nullptr);
    // TVM has no AutoTVM template named conv2d_nhwc.x86 (a strategy name without knobs): ours carries a name of our
    // own; records stored under the former name still find it.
    EXPECT_EQ(findTemplate("conv2d_nhwc.x86"), nullptr);
    EXPECT_TRUE(tmpl("conv2d_nhwc_spatial_pack.tunescope").ownVariant);
    EXPECT_EQ(currentTemplateName("conv2d_nhwc.x86"), "conv2d_nhwc_spatial_pack.tunescope");
    EXPECT_EQ(currentTemplateName("dense_nopack.x86"), "dense_nopack.x86");
    for (const Template& t : templates())
        EXPECT_EQ(t.ownVariant, t.name.ends_with(".tunescope")) << t.name;
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
    const Instance instance = tt::value(instantiate(t, dag, space, index));
    // On TVM's program: data, weight, CC (stage 2), C (stage 3).
    EXPECT_EQ(sched::stepsToText(instance.steps),
        R"([["SP",3,0,4,[2],1],["SP",3,2,32,[8],1],["RE",3,[0,2,1,3,4]],["FU",3,[0,1]],["AN",3,0,3],["AN",3,3,1],)"
        R"(["CA",2,3,0],["FU",2,[0,1]],["RE",2,[2,0,1]],["AN",2,1,1],["AN",2,2,2]])");
    // TVM's loop nest: CC at C's fused yo@xo loop: k, unrolled z@y, vectorized x (its vec-wide lane axis); then
    // yi, xi, unrolled kk.
    EXPECT_EQ(tt::value(sched::State::replay(instance.dag, instance.steps)).toString(),
        "Placeholder: data, weight\n"
        "parallel y.0@x.0@ (0,8)\n"
        "  for k (None)\n"
        "    unroll z@y@ (None)\n"
        "      vectorize x (None)\n"
        "        dense_nopack.CC = ...\n"
        "  for y.1 (0,2)\n"
        "    for x.1 (0,8)\n"
        "      unroll kk (0,16)\n"
        "        T_dense = ...\n");
    // The steps are for the program: on the task's plain dense they are refused, naming what to do.
    auto plain = t.apply(dag, space, index);
    ASSERT_FALSE(plain);
    EXPECT_EQ(plain.error().message,
        "instantiation error: dense_nopack.x86: the DAG is not the template's program (dense over a partial sum "
        "CC[M, N, vec]); instantiate the config through Template::program");
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
    auto notDividing = instantiate(t, dag, bad, 0);
    ASSERT_FALSE(notDividing);
    EXPECT_EQ(notDividing.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(notDividing.error().message,
        "instantiation error: dense_nopack.x86: tile_k [-1, 5] does not divide the extent 64");
    auto wrongProduct = instantiate(t, dag, bad, bad.indexOf({ 0, 0, 1 }));
    ASSERT_FALSE(wrongProduct);
    EXPECT_EQ(wrongProduct.error().message,
        "instantiation error: dense_nopack.x86: tile_k [4, 8] has product 32, not the extent 64");

    // A space declared for another shape: tile_x [-1, 64] does not divide N = 32.
    ir::Tensor x = ir::placeholder("x", { 4, 64 });
    ir::Tensor w = ir::placeholder("w", { 64, 64 });
    const ir::ComputeDAG wide = ir::ComputeDAG::create({ x, w, tt::value(ops::dense(x, w)) });
    const ConfigSpace wideSpace = tt::value(t.space(wide));
    auto otherShape = instantiate(t, dag, wideSpace, wideSpace.indexOf({ 0, 6, 0 }));
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
    expectSampledConfigsComputeTheReference("conv2d_nchw_blocked.tunescope", convNchw(8, 16, 10, 3, 2, 1, true));
    expectSampledConfigsComputeTheReference("conv2d_nchw_blocked.tunescope", convNchw(8, 16, 8, 1, 1, 0, true));
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
    EXPECT_EQ(templatesFor(tt::dense().dag).size(), 2u);
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
    EXPECT_FALSE(dagFromTaskArgs("dense_mkl.x86", "[]"));

    // An op that no template schedules, and a second reduction after the anchor, are not AutoTVM tasks.
    EXPECT_TRUE(templatesFor(tt::matmul().dag).empty());
}

namespace {
enum class Epilogue { None, BiasRelu, AddRelu, BiasClip };

// `anchor` followed by the epilogue: bias over `channelAxis` and relu; a residual add (a second input of the
// output's shape) and relu; or bias and clip to [0, 6] (MobileNet's relu6).
ir::ComputeDAG withEpilogue(std::vector<ir::Tensor> inputs, const ir::Tensor& anchor, Epilogue e, int channelAxis)
{
    const int64_t channels = anchor->shape()[static_cast<size_t>(channelAxis)];
    ir::Tensor out = anchor;
    if (e == Epilogue::BiasRelu || e == Epilogue::BiasClip) {
        ir::Tensor bias = ir::placeholder("bias", { channels });
        inputs.push_back(bias);
        out = tt::value(ops::biasAdd(out, bias, channelAxis));
        out = e == Epilogue::BiasRelu ? tt::value(ops::relu(out)) : tt::value(ops::clip(out, 0.0, 6.0));
    } else if (e == Epilogue::AddRelu) {
        ir::Tensor residual = ir::placeholder("residual", anchor->shape());
        inputs.push_back(residual);
        out = tt::value(ops::relu(tt::value(ops::add(out, residual))));
    }
    inputs.push_back(out);
    return ir::ComputeDAG::create(inputs);
}

ir::ComputeDAG denseDag(int64_t m, int64_t k, int64_t n, Epilogue e)
{
    ir::Tensor x = ir::placeholder("x", { m, k });
    ir::Tensor w = ir::placeholder("w", { n, k });
    return withEpilogue({ x, w }, tt::value(ops::dense(x, w)), e, 1);
}

ir::ComputeDAG depthwiseNchw(int64_t c, int64_t hw, int64_t k, int64_t stride, int64_t pad, Epilogue e)
{
    ir::Tensor data = ir::placeholder("data", { 1, c, hw, hw });
    ir::Tensor weight = ir::placeholder("weight", { c, 1, k, k });
    ops::Conv2dParams p;
    p.stride = { stride, stride };
    p.padding = ops::Conv2dParams::symmetric(pad, pad);
    return withEpilogue({ data, weight }, tt::value(ops::depthwiseConv2d(data, weight, p)), e, 1);
}

ir::ComputeDAG convNhwc(int64_t c, int64_t o, int64_t hw, int64_t k, int64_t stride, int64_t pad, Epilogue e)
{
    ir::Tensor data = ir::placeholder("data", { 1, hw, hw, c });
    ir::Tensor weight = ir::placeholder("weight", { k, k, c, o });
    ops::Conv2dParams p;
    p.layout = ops::Layout::NHWC;
    p.stride = { stride, stride };
    p.padding = ops::Conv2dParams::symmetric(pad, pad);
    return withEpilogue({ data, weight }, tt::value(ops::conv2d(data, weight, p)), e, 3);
}

ir::ComputeDAG convNchwResidual(int64_t c, int64_t hw)
{
    ir::Tensor data = ir::placeholder("data", { 1, c, hw, hw });
    ir::Tensor weight = ir::placeholder("weight", { c, c, 3, 3 });
    ops::Conv2dParams p;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    return withEpilogue({ data, weight }, tt::value(ops::conv2d(data, weight, p)), Epilogue::AddRelu, 1);
}

// The index of the config whose entity is `entity` (TVM's text), or a test failure.
int64_t indexOf(const ConfigSpace& space, const std::string& entity)
{
    auto index = space.parseEntity(entity);
    if (!index)
        throw std::runtime_error(index.error().message);
    return *index;
}
} // namespace

// Spaces TVM's rules give (define_split "factors" with 3 outputs: ordered pairs (a, b) with a * b dividing the
// extent): ResNet-18's fc (1x512 by 1000x512): tile_y 1, tile_x 100 (10 per 5^3 and per 2^3), tile_k 10,
// tile_inner 1.
TEST(AutotvmTemplate, DensePackSpaceIsTvms)
{
    const ConfigSpace fc = tt::value(tmpl("dense_pack.x86").space(denseDag(1, 512, 1000, Epilogue::BiasRelu)));
    EXPECT_EQ(knobNames(fc), (std::vector<std::string> { "tile_y", "tile_x", "tile_k", "tile_inner" }));
    EXPECT_EQ(fc.knob(0).size(), 1u);
    EXPECT_EQ(fc.knob(1).size(), 100u);
    EXPECT_EQ(fc.knob(2).size(), 10u);
    EXPECT_EQ(fc.size(), 1000);
    // M = 32: tile_y 21 three-way splits of 2^5; tile_inner keeps inner sizes <= 16 (1, 2, 4, 8, 16).
    const ConfigSpace m32 = tt::value(tmpl("dense_pack.x86").space(denseDag(32, 64, 16, Epilogue::None)));
    EXPECT_EQ(m32.knob(0).size(), 21u);
    EXPECT_EQ(m32.knob(3).size(), 5u);
    EXPECT_EQ(m32.size(), 21 * 15 * 7 * 5);
    EXPECT_EQ(m32.entityJson(1),
        R"([["tile_y", "sp", [-1, 2, 1]], ["tile_x", "sp", [-1, 1, 1]], ["tile_k", "sp", [-1, 1]], ["tile_inner", "sp", [-1, 1]]])");
}

// MobileNet-V2's first depthwise convolution (32 channels, 112x112, 3x3, pad 1): tile_ic 6, tile_oc 6,
// tile_ow 9 (the divisors of 112 up to 64), unroll_kw 2.
TEST(AutotvmTemplate, DepthwiseSpaceIsTvms)
{
    const ConfigSpace space
        = tt::value(tmpl("depthwise_conv2d_NCHWc.x86").space(depthwiseNchw(32, 112, 3, 1, 1, Epilogue::BiasClip)));
    EXPECT_EQ(knobNames(space), (std::vector<std::string> { "tile_ic", "tile_oc", "tile_ow", "unroll_kw" }));
    EXPECT_EQ(space.size(), 6 * 6 * 9 * 2);
    // A channel multiplier above 1 is not TVM's template's workload.
    ir::Tensor data = ir::placeholder("data", { 1, 4, 8, 8 });
    ir::Tensor weight = ir::placeholder("weight", { 4, 2, 3, 3 });
    const ir::ComputeDAG multiplier2
        = ir::ComputeDAG::create({ data, weight, tt::value(ops::depthwiseConv2d(data, weight, {})) });
    auto refused = tmpl("depthwise_conv2d_NCHWc.x86").space(multiplier2);
    ASSERT_FALSE(refused);
    EXPECT_EQ(
        refused.error().message, "depthwise_conv2d_NCHWc.x86: channel multiplier 2; TVM's template takes multiplier 1");
}

// The spatial-pack knobs: 16 channels (5 divisors), 8x8 output (4 and 4), 4 reorder candidates, try_unroll on
// two axes (4), try_unroll_vec on two axes (8: at most one vec), compat 2.
TEST(AutotvmTemplate, Conv2dNhwcSpace)
{
    const ConfigSpace space = tt::value(tmpl("conv2d_nhwc_spatial_pack.tunescope").space(tt::conv2dNhwcBiasRelu().dag));
    EXPECT_EQ(knobNames(space),
        (std::vector<std::string> {
            "tile_co", "tile_oh", "tile_ow", "reorder_conv", "ann_reduce", "ann_spatial", "compat" }));
    EXPECT_EQ(space.knob(3).size(), 4u);
    EXPECT_EQ(space.knob(4).size(), 4u);
    EXPECT_EQ(space.knob(5).size(), 8u);
    EXPECT_EQ(space.size(), 5 * 4 * 4 * 4 * 4 * 8 * 2);
}

TEST(AutotvmTemplate, DensePackSampledConfigsComputeTheReference)
{
    expectSampledConfigsComputeTheReference("dense_pack.x86", denseDag(8, 32, 16, Epilogue::None), 8);
    expectSampledConfigsComputeTheReference("dense_pack.x86", denseDag(6, 24, 12, Epilogue::BiasRelu), 8);
    expectSampledConfigsComputeTheReference("dense_pack.x86", denseDag(4, 16, 8, Epilogue::AddRelu), 6);
}

TEST(AutotvmTemplate, DepthwiseSampledConfigsComputeTheReference)
{
    expectSampledConfigsComputeTheReference(
        "depthwise_conv2d_NCHWc.x86", depthwiseNchw(8, 10, 3, 1, 1, Epilogue::None), 8);
    expectSampledConfigsComputeTheReference(
        "depthwise_conv2d_NCHWc.x86", depthwiseNchw(8, 9, 3, 2, 1, Epilogue::BiasClip), 8);
    expectSampledConfigsComputeTheReference(
        "depthwise_conv2d_nchw_blocked.tunescope", depthwiseNchw(8, 9, 3, 2, 1, Epilogue::BiasClip), 8);
}

TEST(AutotvmTemplate, Conv2dNhwcSampledConfigsComputeTheReference)
{
    expectSampledConfigsComputeTheReference(
        "conv2d_nhwc_spatial_pack.tunescope", convNhwc(4, 8, 6, 3, 1, 1, Epilogue::None), 8);
    expectSampledConfigsComputeTheReference("conv2d_nhwc_spatial_pack.tunescope", tt::conv2dNhwcBiasRelu().dag, 8);
    expectSampledConfigsComputeTheReference(
        "conv2d_nhwc_spatial_pack.tunescope", convNhwc(4, 8, 7, 3, 2, 1, Epilogue::AddRelu), 6);
}

// The older templates with the zoo's other epilogue, a residual add.
TEST(AutotvmTemplate, ResidualEpiloguesComputeTheReference)
{
    expectSampledConfigsComputeTheReference("conv2d_NCHWc.x86", convNchwResidual(8, 6), 6);
    expectSampledConfigsComputeTheReference("dense_nopack.x86", denseDag(4, 16, 8, Epilogue::AddRelu), 6);
    ir::Tensor a = ir::placeholder("a", { 2, 8, 16 });
    ir::Tensor b = ir::placeholder("b", { 2, 12, 16 });
    const ir::ComputeDAG scaled
        = ir::ComputeDAG::create({ a, b, tt::value(ops::scale(tt::value(ops::batchMatmul(a, b)), 0.125)) });
    expectSampledConfigsComputeTheReference("batch_matmul.x86", scaled, 6);
}

TEST(AutotvmTemplate, NewTemplatesInstantiationErrors)
{
    // conv2d_nhwc: unrolling owi of 32 is TVM's "Too large factor for unrolling".
    const ir::ComputeDAG wide = convNhwc(4, 8, 34, 3, 1, 0, Epilogue::None);
    const Template& nhwc = tmpl("conv2d_nhwc_spatial_pack.tunescope");
    const ConfigSpace space = tt::value(nhwc.space(wide));
    const int64_t tooLong = indexOf(space,
        R"([["tile_co", "sp", [-1, 8]], ["tile_oh", "sp", [-1, 1]], ["tile_ow", "sp", [-1, 32]], )"
        R"(["reorder_conv", "re", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]], ["ann_reduce", "an", ["none", "none"]], )"
        R"(["ann_spatial", "an", ["unroll", "vec"]], ["compat", "ot", 0]])");
    auto unrolled = nhwc.apply(wide, space, tooLong);
    ASSERT_FALSE(unrolled);
    EXPECT_EQ(unrolled.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(unrolled.error().message,
        "instantiation error: conv2d_nhwc_spatial_pack.tunescope: too large factor for unrolling: 32 > 16");
    // The same config with owi 8 instantiates.
    const int64_t fits = indexOf(space,
        R"([["tile_co", "sp", [-1, 8]], ["tile_oh", "sp", [-1, 1]], ["tile_ow", "sp", [-1, 8]], )"
        R"(["reorder_conv", "re", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]], ["ann_reduce", "an", ["none", "none"]], )"
        R"(["ann_spatial", "an", ["unroll", "vec"]], ["compat", "ot", 0]])");
    EXPECT_TRUE(nhwc.apply(wide, space, fits));

    // dense_pack: a space declared for N = 24 applied to N = 16; an index out of range.
    const Template& pack = tmpl("dense_pack.x86");
    const ir::ComputeDAG small = denseDag(4, 16, 16, Epilogue::None);
    const ConfigSpace other = tt::value(pack.space(denseDag(4, 16, 24, Epilogue::None)));
    const int64_t x3 = indexOf(other,
        R"([["tile_y", "sp", [-1, 1, 1]], ["tile_x", "sp", [-1, 1, 3]], ["tile_k", "sp", [-1, 1]], ["tile_inner", "sp", [-1, 1]]])");
    auto notDividing = pack.apply(small, other, x3);
    ASSERT_FALSE(notDividing);
    EXPECT_EQ(notDividing.error().message,
        "instantiation error: dense_pack.x86: tile_x [-1, 1, 3] does not divide the extent 16");
    auto outOfRange = pack.apply(small, other, -1);
    ASSERT_FALSE(outOfRange);
    EXPECT_NE(outOfRange.error().message.find("instantiation error: dense_pack.x86: config index -1 out of range"),
        std::string::npos);

    // depthwise: tile_ow from a space of another width.
    const Template& dw = tmpl("depthwise_conv2d_NCHWc.x86");
    const ConfigSpace dw16 = tt::value(dw.space(depthwiseNchw(4, 16, 3, 1, 1, Epilogue::None)));
    const int64_t ow16 = indexOf(dw16,
        R"([["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", [-1, 1]], ["tile_ow", "sp", [-1, 16]], ["unroll_kw", "ot", true]])");
    auto wrongWidth = instantiate(dw, depthwiseNchw(4, 12, 3, 1, 1, Epilogue::None), dw16, ow16);
    ASSERT_FALSE(wrongWidth);
    EXPECT_EQ(wrongWidth.error().message,
        "instantiation error: depthwise_conv2d_NCHWc.x86: tile_ow [-1, 16] does not divide the extent 12");
}

// TVM's task args for every template, both ways.
TEST(AutotvmTemplate, TaskArgsRoundTripForEveryTemplate)
{
    const std::vector<std::pair<std::string, std::string>> cases {
        { "conv2d_NCHWc.x86",
            R"([["TENSOR", [1, 3, 224, 224], "float32"], ["TENSOR", [64, 3, 7, 7], "float32"], [2, 2], [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"])" },
        { "depthwise_conv2d_NCHWc.x86",
            R"([["TENSOR", [1, 32, 112, 112], "float32"], ["TENSOR", [32, 1, 3, 3], "float32"], [1, 1], [1, 1, 1, 1], [1, 1], "NCHW", "NCHW", "float32"])" },
        { "conv2d_nhwc_spatial_pack.tunescope",
            R"([["TENSOR", [1, 56, 56, 64], "float32"], ["TENSOR", [3, 3, 64, 128], "float32"], [2, 2], [1, 1, 1, 1], [1, 1], "float32"])" },
        { "dense_pack.x86",
            R"([["TENSOR", [1, 512], "float32"], ["TENSOR", [1000, 512], "float32"], null, "float32"])" },
        { "dense_nopack.x86",
            R"([["TENSOR", [128, 768], "float32"], ["TENSOR", [3072, 768], "float32"], null, "float32"])" },
        { "batch_matmul.x86",
            R"([["TENSOR", [12, 128, 64], "float32"], ["TENSOR", [12, 128, 64], "float32"], null, "float32", false, true])" },
    };
    // Every TVM template, and our NHWC one (the only own template that task extraction offers).
    ASSERT_EQ(cases.size(),
        std::count_if(templates().begin(), templates().end(), [](const Template& t) { return !t.ownVariant; }) + 1);
    for (const auto& [name, args] : cases) {
        const ir::ComputeDAG dag = tt::value(dagFromTaskArgs(name, args));
        EXPECT_EQ(tt::value(taskArgs(tmpl(name), dag)), args) << name;
        const auto fitting = templatesFor(dag);
        EXPECT_NE(std::find(fitting.begin(), fitting.end(), &tmpl(name)), fitting.end()) << name;
    }

    // Args that cannot be read name the argument.
    auto wrongCount = dagFromTaskArgs("depthwise_conv2d_NCHWc.x86",
        R"([["TENSOR", [1, 8, 8, 8], "float32"], ["TENSOR", [8, 1, 3, 3], "float32"], [1, 1], [1, 1, 1, 1]])");
    ASSERT_FALSE(wrongCount);
    EXPECT_EQ(wrongCount.error().message, "depthwise_conv2d_NCHWc.x86: 4 task args, expected 8");
    auto nhwcLayout = dagFromTaskArgs("conv2d_NCHWc.x86",
        R"([["TENSOR", [1, 3, 8, 8], "float32"], ["TENSOR", [4, 3, 3, 3], "float32"], [1, 1], [1, 1, 1, 1], [1, 1], "NCHW", "NCHW8c", "float32"])");
    ASSERT_FALSE(nhwcLayout);
    EXPECT_EQ(nhwcLayout.error().message, R"(conv2d_NCHWc.x86 arg 6 (layout): "NCHW8c" (NCHW is built))");
    auto badShape = dagFromTaskArgs("conv2d_nhwc_spatial_pack.tunescope",
        R"([["TENSOR", [1, 8, 8, 0], "float32"], ["TENSOR", [3, 3, 4, 4], "float32"], [1, 1], [1, 1, 1, 1], [1, 1], "float32"])");
    ASSERT_FALSE(badShape);
    EXPECT_EQ(badShape.error().message,
        "conv2d_nhwc_spatial_pack.tunescope arg 0 (data): shape [1,8,8,0] is not positive integers");
    auto mismatched = dagFromTaskArgs("conv2d_nhwc_spatial_pack.tunescope",
        R"([["TENSOR", [1, 8, 8, 4], "float32"], ["TENSOR", [3, 3, 5, 4], "float32"], [1, 1], [1, 1, 1, 1], [1, 1], "float32"])");
    ASSERT_FALSE(mismatched);
    EXPECT_NE(mismatched.error().message.find("conv2d_nhwc_spatial_pack.tunescope: "), std::string::npos)
        << mismatched.error().message;
}

// The reference notes' AutoTVM line: its args build the workload, its entity parses to its index in our space
// of it, and that config lowers, compiles and computes the convolution (512 sampled outputs checked).
TEST(AutotvmTemplate, ReferenceLogConfigAppliesToItsWorkload)
{
    const std::string args
        = R"([["TENSOR", [1, 3, 224, 224], "float32"], ["TENSOR", [64, 3, 7, 7], "float32"], [2, 2], [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"])";
    const ir::ComputeDAG dag = tt::value(dagFromTaskArgs("conv2d_NCHWc.x86", args));
    const Template& t = tmpl("conv2d_NCHWc.x86");
    const ConfigSpace space = tt::value(t.space(dag));
    EXPECT_EQ(space.size(), 308);
    const int64_t index = indexOf(space,
        R"([["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", [-1, 4]], ["tile_ow", "sp", [-1, 1]], ["unroll_kw", "ot", false]])");
    EXPECT_EQ(index, 172);
    const Instance instance = tt::value(instantiate(t, dag, space, index));
    const sched::State state = tt::value(sched::State::replay(instance.dag, instance.steps));
    auto reference = measure::computeReference(instance.dag, 11, 512, 1e6);
    ASSERT_TRUE(reference) << reference.error().message;
    tt::expectMatches(*reference, state, "the reference log's config 172");
}

// AutoTVM's task extraction on zoo networks: ResNet-18's convolutions take conv2d_NCHWc (NCHW) or, with no TVM
// template for them, our conv2d_nhwc_spatial_pack (NHWC), its fc dense_pack then dense_nopack; MobileNet-V2's depthwise
// convolutions take depthwise_conv2d_NCHWc. Every fitting template's args rebuild a DAG it fits.
TEST(AutotvmTemplate, TemplatesForZooTasks)
{
    const auto names = [](const std::vector<const Template*>& fitting) {
        std::vector<std::string> out;
        for (const Template* t : fitting)
            out.push_back(t->name);
        return out;
    };
    for (const ops::Layout layout : { ops::Layout::NCHW, ops::Layout::NHWC }) {
        const graph::TaskSet resnet
            = tt::value(graph::extractTasks(tt::value(graph::buildNetwork("resnet-18", 1, layout))));
        int convs = 0, dense = 0;
        for (const graph::Task& task : resnet.tasks) {
            const auto fitting = names(templatesFor(task.dag));
            if (task.anchor == graph::NodeKind::Conv2d) {
                ++convs;
                EXPECT_EQ(fitting,
                    (std::vector<std::string> {
                        layout == ops::Layout::NCHW ? "conv2d_NCHWc.x86" : "conv2d_nhwc_spatial_pack.tunescope" }))
                    << task.name << " " << task.shapes;
            } else if (task.anchor == graph::NodeKind::Dense) {
                ++dense;
                EXPECT_EQ(fitting, (std::vector<std::string> { "dense_nopack.x86", "dense_pack.x86" })) << task.name;
            }
            for (const Template* t : templatesFor(task.dag)) {
                const std::string args = tt::value(taskArgs(*t, task.dag));
                EXPECT_TRUE(t->space(tt::value(dagFromTaskArgs(t->name, args)))) << t->name << " " << args;
            }
        }
        EXPECT_GE(convs, 10);
        EXPECT_EQ(dense, 1);
    }
    const graph::TaskSet mobilenet
        = tt::value(graph::extractTasks(tt::value(graph::buildNetwork("mobilenet-v2", 1, ops::Layout::NCHW))));
    int depthwise = 0;
    for (const graph::Task& task : mobilenet.tasks)
        if (task.anchor == graph::NodeKind::DepthwiseConv2d) {
            ++depthwise;
            EXPECT_EQ(names(templatesFor(task.dag)), (std::vector<std::string> { "depthwise_conv2d_NCHWc.x86" }))
                << task.name << " " << task.shapes;
        }
    EXPECT_GE(depthwise, 5);
}

// The new templates' loop nests for one config each.
TEST(AutotvmTemplate, NewTemplatesLoopNests)
{
    const auto nest = [](const std::string& name, const ir::ComputeDAG& dag, const std::string& entity) {
        const Template& t = tmpl(name);
        const ConfigSpace space = tt::value(t.space(dag));
        const Instance instance = tt::value(instantiate(t, dag, space, indexOf(space, entity)));
        return tt::value(sched::State::replay(instance.dag, instance.steps)).toString();
    };
    // dense_pack, TVM's program (the weight packed by tile_x's inner 4) and loop nest: CC at C's fused (yo, xo)
    // loop: ko, unrolled ki and y, vectorized x; C's yi unrolled, xi vectorized.
    EXPECT_EQ(
        nest("dense_pack.x86", denseDag(8, 32, 16, Epilogue::None),
            R"([["tile_y", "sp", [-1, 2, 2]], ["tile_x", "sp", [-1, 2, 4]], ["tile_k", "sp", [-1, 8]], ["tile_inner", "sp", [-1, 1]]])"),
        "Placeholder: data, packed_weight\n"
        "parallel j.0@i.0@ (0,4)\n"
        "  for i.1@j.1@ (0,4)\n"
        "    for rv0.0 (None)\n"
        "      unroll rv0.1 (None)\n"
        "        unroll i (None)\n"
        "          vectorize j (None)\n"
        "            T_dense.global = ...\n"
        "    unroll i.2 (0,2)\n"
        "      vectorize j.2 (0,4)\n"
        "        T_dense = ...\n");
    // Our plain-layout depthwise variant with bias + clip: the epilogue's output O tiled as C, C computed at O's fused
    // (n, oc.0, oh) loop, CC at C's ow.0; kw unrolled (unroll_kw), oc.1 unrolled and ow.1 vectorized (TVM: the
    // reverse, in NCHWc: below).
    EXPECT_EQ(
        nest("depthwise_conv2d_nchw_blocked.tunescope", depthwiseNchw(8, 10, 3, 1, 1, Epilogue::BiasClip),
            R"([["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", [-1, 4]], ["tile_ow", "sp", [-1, 5]], ["unroll_kw", "ot", true]])"),
        "Placeholder: data, weight, bias\n"
        "parallel i0@i1@i2@ (0,96)\n"
        "  for i3 (0,12)\n"
        "    PaddedInput = ...\n"
        "parallel i@j.0@k@ (0,20)\n"
        "  for b@c.0@i@ (None)\n"
        "    for j.0 (None)\n"
        "      for b (None)\n"
        "        for c.0 (None)\n"
        "          for i (None)\n"
        "            for j.0 (None)\n"
        "              for di (None)\n"
        "                unroll dj (None)\n"
        "                  unroll c.1 (None)\n"
        "                    vectorize j.1 (None)\n"
        "                      DepthwiseConv2d.global = ...\n"
        "      unroll c.1 (None)\n"
        "        vectorize j.1 (None)\n"
        "          DepthwiseConv2d = ...\n"
        "  for l.0 (0,2)\n"
        "    unroll j.1 (0,4)\n"
        "      vectorize l.1 (0,5)\n"
        "        T_clip = ...\n");
    // TVM's depthwise_conv2d_NCHWc for the same config: the conv alone on data blocked by 1 and a kernel blocked by 4;
    // the pad at root, parallel over (n, c_chunk, h), c_block vectorised; C's (b, oc_chunk, oh) fused and parallel,
    // CC at C's ow_chunk in TVM's order (kh, kw, then the unrolled ow and the vectorised oc_block).
    // (The pad's c_block has extent 1 here: tile_ic [-1, 1].)
    EXPECT_EQ(
        nest("depthwise_conv2d_NCHWc.x86", depthwiseNchw(8, 10, 3, 1, 1, Epilogue::BiasClip),
            R"([["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", [-1, 4]], ["tile_ow", "sp", [-1, 5]], ["unroll_kw", "ot", true]])"),
        "Placeholder: data, kernel\n"
        "parallel i0@i1@i2@ (0,96)\n"
        "  for i3 (0,12)\n"
        "    PaddedInput = ...\n"
        "parallel b@oco@oh@ (0,20)\n"
        "  for ow.0 (0,2)\n"
        "    for b (None)\n"
        "      for oco (None)\n"
        "        for oh (None)\n"
        "          for kh (None)\n"
        "            unroll kw (None)\n"
        "              unroll ow (None)\n"
        "                vectorize oci (None)\n"
        "                  DepthwiseConv2d.global = ...\n"
        "    for ow.1 (0,5)\n"
        "      vectorize oci (0,4)\n"
        "        DepthwiseConv2d = ...\n");
    // conv2d_nhwc with no epilogue: a cache_write gives the conv stage, computed at the output's owo loop (compat 0),
    // in reorder_conv's first order, oci vectorized by ann_spatial; the pad at root, parallel over (n, h).
    EXPECT_EQ(
        nest("conv2d_nhwc_spatial_pack.tunescope", convNhwc(4, 8, 6, 3, 1, 1, Epilogue::None),
            R"([["tile_co", "sp", [-1, 8]], ["tile_oh", "sp", [-1, 2]], ["tile_ow", "sp", [-1, 3]], ["reorder_conv", "re", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]], ["ann_reduce", "an", ["none", "none"]], ["ann_spatial", "an", ["none", "vec"]], ["compat", "ot", 0]])"),
        "Placeholder: data, weight\n"
        "parallel i0@i1@ (0,8)\n"
        "  for i2 (0,8)\n"
        "    for i3 (0,4)\n"
        "      PaddedInput = ...\n"
        "parallel nn@yy.0@ (0,3)\n"
        "  for xx.0 (0,2)\n"
        "    for nn (None)\n"
        "      for yy.0 (None)\n"
        "        for xx.0 (None)\n"
        "          for ff.0 (None)\n"
        "            for ry (None)\n"
        "              for rx (None)\n"
        "                for rc (None)\n"
        "                  for yy.1 (None)\n"
        "                    for xx.1 (None)\n"
        "                      vectorize ff.1 (None)\n"
        "                        Conv2dOutput.global = ...\n"
        "    for yy.1 (0,2)\n"
        "      for xx.1 (0,3)\n"
        "        vectorize ff.1 (0,8)\n"
        "          Conv2dOutput = ...\n");
}

// TVM's program for a config: the compute on data and kernel packed by tile_ic / tile_oc (the packing outside
// the task), the output-channel block vectorised and innermost, the output columns of the register tile
// unrolled; not the plain NCHW DAG with its output columns vectorised.
TEST(AutotvmTemplate, Conv2dNchwcBuildsTvmsPackedProgram)
{
    const Template& t = tmpl("conv2d_NCHWc.x86");
    const ir::ComputeDAG task = convNchw(8, 16, 10, 3, 1, 1, false);
    const ConfigSpace space = tt::value(t.space(task));
    const int64_t index = indexOf(space,
        R"([["tile_ic", "sp", [-1, 4]], ["tile_oc", "sp", [-1, 8]], ["tile_ow", "sp", [-1, 5]], ["unroll_kw", "ot", true]])");
    const Instance instance = tt::value(instantiate(t, task, space, index));
    std::vector<std::vector<int64_t>> placeholders;
    for (const ir::Tensor& op : instance.dag.ops())
        if (op->isPlaceholder())
            placeholders.push_back(op->shape());
    EXPECT_EQ(placeholders, (std::vector<std::vector<int64_t>> { { 1, 2, 10, 10, 4 }, { 2, 2, 3, 3, 4, 8 } }));
    const sched::State state = tt::value(sched::State::replay(instance.dag, instance.steps));
    // The register tile: ..., kh, ic_block, kw (unrolled), ow_block (unrolled, 5), oc_block (vectorised, 8).
    const sched::Stage& cc = state.stage(state.stageIndex("conv2d_NCHWc.global"));
    const auto& iters = cc.iters;
    ASSERT_GE(iters.size(), 3u);
    EXPECT_EQ(iters.back().annotation, sched::Annotation::Vectorize);
    EXPECT_EQ(iters.back().name, "oc_block");
    EXPECT_EQ(iters[iters.size() - 2].annotation, sched::Annotation::Unroll);
    EXPECT_EQ(iters[iters.size() - 2].name, "ow.1");
    EXPECT_EQ(iters[iters.size() - 3].annotation, sched::Annotation::Unroll);
    EXPECT_EQ(iters[iters.size() - 3].name, "kw");
    // The plain variant of our own vectorises the output columns instead.
    const Template& own = tmpl("conv2d_nchw_blocked.tunescope");
    const Instance plain = tt::value(instantiate(own, task, space, index));
    EXPECT_EQ(plain.dag.workloadKey(), task.workloadKey());
    // A record's DAG comes back from its extra.
    const std::string extra = R"({"autotvm": {"template": "conv2d_NCHWc.x86", "config": {"index": )"
        + std::to_string(index) + R"(, "entity": )" + space.entityJson(index) + "}}}";
    EXPECT_EQ(tt::value(recordDag(task, extra)).workloadKey(), instance.dag.workloadKey());
    EXPECT_EQ(tt::value(recordDag(task, "{}")).workloadKey(), task.workloadKey());
}

// TVM's dense_nopack program for a config: the dense alone (a fused bias + relu is not part of TVM's task), as a
// partial sum CC[M, N, vec] over K / vec (vec = tile_k's inner size) reduced by C over its vec lanes; CC's lane
// axis vectorised, C's kk unrolled, nothing of C vectorised. It computes the plain dense.
TEST(AutotvmTemplate, DenseNopackBuildsTvmsProgram)
{
    const Template& t = tmpl("dense_nopack.x86");
    const std::string entity = R"([["tile_y", "sp", [-1, 4]], ["tile_x", "sp", [-1, 8]], ["tile_k", "sp", [-1, 16]]])";
    const ir::ComputeDAG fused = denseDag(8, 64, 32, Epilogue::BiasRelu);
    const ConfigSpace space = tt::value(t.space(fused));
    const int64_t index = indexOf(space, entity);
    const Instance instance = tt::value(instantiate(t, fused, space, index));
    std::vector<std::vector<int64_t>> shapes, reductions;
    std::vector<std::string> tags;
    for (const ir::Tensor& op : instance.dag.ops()) {
        shapes.push_back(op->shape());
        std::vector<int64_t> extents;
        for (const ir::IterVar& r : op->reduceAxes())
            extents.push_back(r.extent);
        reductions.push_back(extents);
        tags.push_back(op->isPlaceholder() ? "" : op->tag());
    }
    EXPECT_EQ(shapes, (std::vector<std::vector<int64_t>> { { 8, 64 }, { 32, 64 }, { 8, 32, 16 }, { 8, 32 } }));
    EXPECT_EQ(reductions, (std::vector<std::vector<int64_t>> { {}, {}, { 4 }, { 16 } }));
    EXPECT_EQ(tags, (std::vector<std::string> { "", "", "dense_nopack_partial", "dense" }));
    // Another tile_k is another program: an 8-wide partial sum over 8.
    const Instance k8 = tt::value(instantiate(t, fused, space,
        indexOf(space, R"([["tile_y", "sp", [-1, 4]], ["tile_x", "sp", [-1, 8]], ["tile_k", "sp", [-1, 8]]])")));
    EXPECT_EQ(k8.dag.op(2).axes()[2].extent, 8);
    EXPECT_EQ(k8.dag.op(2).reduceAxes()[0].extent, 8);
    EXPECT_NE(k8.dag.workloadKey(), instance.dag.workloadKey());

    const sched::State state = tt::value(sched::State::replay(instance.dag, instance.steps));
    const sched::Stage& cc = state.stage(state.stageIndex("dense_nopack.CC"));
    ASSERT_EQ(cc.iters.size(), 3u); // k, z@y, x at C's fused loop
    EXPECT_EQ(cc.iters[0].name, "k");
    EXPECT_EQ(cc.iters[1].annotation, sched::Annotation::Unroll);
    EXPECT_EQ(cc.iters[2].name, "x");
    EXPECT_EQ(cc.iters[2].annotation, sched::Annotation::Vectorize);
    const sched::Stage& c = state.stage(state.stageIndex("T_dense"));
    ASSERT_EQ(c.iters.size(), 4u); // y.0@x.0, y.1, x.1, kk
    EXPECT_EQ(c.iters[0].annotation, sched::Annotation::Parallel);
    EXPECT_EQ(c.iters[3].name, "kk");
    EXPECT_EQ(c.iters[3].annotation, sched::Annotation::Unroll);
    for (const sched::Iterator& it : c.iters)
        EXPECT_NE(it.annotation, sched::Annotation::Vectorize) << it.name;

    // The program of the fused task is the dense alone: the same as the plain task's, and it computes the plain
    // dense's result.
    const ir::ComputeDAG plain = denseDag(8, 64, 32, Epilogue::None);
    const Instance plainInstance = tt::value(instantiate(t, plain, tt::value(t.space(plain)), index));
    EXPECT_EQ(plainInstance.dag.workloadKey(), instance.dag.workloadKey());
    auto reference = measure::computeReference(plain, 11, 512, 1e9);
    ASSERT_TRUE(reference) << reference.error().message;
    tt::expectMatches(*reference, state, "dense_nopack " + entity);
    // A record's DAG comes back from its extra.
    const std::string extra = R"({"autotvm": {"template": "dense_nopack.x86", "config": {"index": )"
        + std::to_string(index) + R"(, "entity": )" + entity + "}}}";
    EXPECT_EQ(tt::value(recordDag(fused, extra)).workloadKey(), instance.dag.workloadKey());
}

// Configs as TVM's logs write them (the split's outer size explicit) for dense_nopack.x86 and batch_matmul.x86: the
// task rebuilt from the args, the entity decoded, the config instantiated, replayed, compiled and checked against the
// task's own reference (the plain dense and batch_matmul).
TEST(AutotvmTemplate, TvmLogConfigsOfDenseNopackAndBatchMatmulReplay)
{
    struct Case {
        std::string name, args, config;
    };
    const std::vector<Case> cases {
        { "dense_nopack.x86",
            R"([["TENSOR", [16, 128], "float32"], ["TENSOR", [48, 128], "float32"], null, "float32"])",
            R"({"index": 0, "code_hash": null, "entity": [["tile_y", "sp", [4, 4]], ["tile_x", "sp", [6, 8]], ["tile_k", "sp", [8, 16]]]})" },
        { "dense_nopack.x86", R"([["TENSOR", [1, 96], "float32"], ["TENSOR", [40, 96], "float32"], null, "float32"])",
            R"({"index": 0, "code_hash": null, "entity": [["tile_y", "sp", [1, 1]], ["tile_x", "sp", [40, 1]], ["tile_k", "sp", [3, 32]]]})" },
        { "batch_matmul.x86",
            R"([["TENSOR", [2, 16, 32], "float32"], ["TENSOR", [2, 24, 32], "float32"], null, "float32", false, true])",
            R"({"index": 0, "code_hash": null, "entity": [["tile_y", "sp", [4, 4]], ["tile_x", "sp", [3, 8]], ["tile_k", "sp", [4, 8]]]})" },
        { "batch_matmul.x86",
            R"([["TENSOR", [3, 8, 16], "float32"], ["TENSOR", [3, 16, 12], "float32"], null, "float32", false, false])",
            R"({"index": 0, "code_hash": null, "entity": [["tile_y", "sp", [1, 8]], ["tile_x", "sp", [3, 4]], ["tile_k", "sp", [1, 16]]]})" },
    };
    for (const Case& c : cases) {
        const std::string what = c.name + " " + c.args + " " + c.config;
        const Template& t = tmpl(c.name);
        const ir::ComputeDAG task = tt::value(dagFromTaskArgs(c.name, c.args));
        const ConfigSpace space = tt::value(t.space(task));
        const ParsedConfig config = tt::value(space.parseConfig(c.config));
        const Instance instance = tt::value(instantiate(t, task, space, config.index));
        EXPECT_EQ(instance.dag.workloadKey() != task.workloadKey(), c.name == "dense_nopack.x86") << what;
        const sched::State state = tt::value(sched::State::replay(instance.dag, instance.steps));
        auto reference = measure::computeReference(task, 11, 512, 1e9);
        ASSERT_TRUE(reference) << reference.error().message;
        tt::expectMatches(*reference, state, what);
    }
}

// A record stored before conv2d_nhwc_spatial_pack.tunescope had its name (as conv2d_nhwc.x86) still replays on its
// task's DAG; a template TuneScope never had is an error naming it.
TEST(AutotvmTemplate, RecordsUnderAFormerTemplateNameReplay)
{
    const ir::ComputeDAG task = convNhwc(4, 8, 6, 3, 1, 1, Epilogue::None);
    const auto former = recordDag(task, R"({"autotvm": {"template": "conv2d_nhwc.x86", "config": {"index": 0}}})");
    ASSERT_TRUE(former) << former.error().message;
    EXPECT_EQ(former->workloadKey(), task.workloadKey());
    const auto unknown = recordDag(task, R"({"autotvm": {"template": "conv2d_nhwc.arm", "config": {"index": 0}}})");
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().message, "record of AutoTVM template 'conv2d_nhwc.arm', which TuneScope does not have");
}
