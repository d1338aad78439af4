// Operator builders reject impossible shapes with a message that names the operator and the shapes; the
// transposed convolution is also checked on hand-computed values.
#include "core/ir/reference_evaluator.h"
#include "core/ops/conv.h"
#include "core/ops/conv_transpose.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/ops/pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

using namespace ts;
using namespace ts::ir;

namespace {
void expectError(const Expected<Tensor>& result, const std::string& fragment)
{
    ASSERT_FALSE(result) << "expected an error containing '" << fragment << "'";
    EXPECT_EQ(result.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(result.error().message.find(fragment), std::string::npos) << result.error().message;
}

// conv2d_transpose_nchw of data and weight given as values (row-major), by the reference evaluator.
Buffer transposed(const std::vector<int64_t>& dataShape, const std::vector<float>& data,
    const std::vector<int64_t>& weightShape, const std::vector<float>& weight, const ops::Conv2dParams& p,
    std::array<int64_t, 2> outputPadding = { 0, 0 })
{
    Tensor x = placeholder("data", dataShape);
    Tensor w = placeholder("weight", weightShape);
    auto out = ops::conv2dTransposeNchw(x, w, p, outputPadding);
    EXPECT_TRUE(out) << out.error().toString();
    if (!out)
        return Buffer();
    const ComputeDAG dag = ComputeDAG::create({ x, w, *out });
    std::vector<Buffer> inputs;
    for (int stage : dag.placeholders()) {
        const bool isData = dag.ops()[static_cast<size_t>(stage)] == x;
        Buffer b(isData ? dataShape : weightShape);
        std::copy_n((isData ? data : weight).begin(), b.size(), b.data());
        inputs.push_back(std::move(b));
    }
    auto values = evaluate(dag, inputs);
    EXPECT_TRUE(values) << values.error().toString();
    return values ? values->back() : Buffer();
}

std::vector<float> valuesOf(const Buffer& b) { return std::vector<float>(b.data(), b.data() + b.size()); }
} // namespace

TEST(Ops, MatmulShapes)
{
    Tensor a = placeholder("A", { 4, 8 });
    Tensor b = placeholder("B", { 8, 3 });
    EXPECT_EQ(ops::matmul(a, b).value()->shape(), (std::vector<int64_t> { 4, 3 }));
    expectError(ops::matmul(a, a), "matmul: inner dimensions differ: A [4, 8], B [4, 8]");
    expectError(ops::matmul(placeholder("v", { 4 }), b), "matmul: A must have rank 2, got shape [4]");
    expectError(ops::dense(a, placeholder("W", { 5, 7 })), "dense: data [4, 8] and weight [5, 7]");
    expectError(ops::batchMatmul(placeholder("x", { 2, 3, 4 }), placeholder("y", { 3, 5, 4 })), "batch_matmul");
    EXPECT_EQ(ops::batchMatmul(placeholder("x", { 2, 3, 4 }), placeholder("y", { 2, 5, 4 })).value()->shape(),
        (std::vector<int64_t> { 2, 3, 5 }));
    EXPECT_EQ(ops::batchMatmul(placeholder("x", { 2, 3, 4 }), placeholder("y", { 2, 4, 6 }), false).value()->shape(),
        (std::vector<int64_t> { 2, 3, 6 }));
}

TEST(Ops, Conv2dImpossibleShapes)
{
    Tensor data = placeholder("data", { 1, 4, 5, 5 });
    ops::Conv2dParams p;
    expectError(ops::conv2d(data, placeholder("w", { 8, 4, 7, 7 }), p),
        "window of 7 along height does not fit the padded input of 5");
    expectError(ops::conv2d(data, placeholder("w", { 8, 3, 3, 3 }), p), "expects 3 input channels");
    p.groups = 3;
    expectError(ops::conv2d(data, placeholder("w", { 8, 1, 3, 3 }), p), "groups 3 must divide input channels 4");
    p.groups = 1;
    p.stride = { 0, 1 };
    expectError(ops::conv2d(data, placeholder("w", { 8, 4, 3, 3 }), p), "must be >= 1");
    p.stride = { 1, 1 };
    p.padding = { -1, 0, 0, 0 };
    expectError(ops::conv2d(data, placeholder("w", { 8, 4, 3, 3 }), p), "negative padding");
    expectError(ops::depthwiseConv2d(data, placeholder("w", { 3, 1, 3, 3 }), ops::Conv2dParams {}), "has 3 channels");
}

TEST(Ops, ElementwiseAndNormalizationShapes)
{
    Tensor x = placeholder("x", { 2, 3, 4 });
    EXPECT_EQ(ops::add(x, placeholder("b", { 3, 1 })).value()->shape(), (std::vector<int64_t> { 2, 3, 4 }));
    expectError(ops::add(x, placeholder("b", { 5 })), "shapes [2, 3, 4] and [5] do not broadcast");
    expectError(ops::biasAdd(x, placeholder("b", { 4 }), 1), "bias shape [4] does not match axis 1");
    expectError(ops::clip(x, 6, 0), "lower bound exceeds upper bound");
    expectError(ops::layerNorm(x, placeholder("g", { 3 }), placeholder("b", { 4 })), "must match the last axis");
    ops::Pool2dParams p;
    p.kernel = { 9, 9 };
    expectError(ops::maxPool2d(placeholder("img", { 1, 1, 4, 4 }), p), "max_pool2d: window of 9");
}

TEST(Ops, PadIsSkippedWhenZero)
{
    Tensor x = placeholder("x", { 1, 2, 3, 3 });
    EXPECT_EQ(ops::pad(x, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }).value(), x);
    EXPECT_EQ(ops::pad(x, { 0, 0, 1, 2 }, { 0, 0, 3, 4 }).value()->shape(), (std::vector<int64_t> { 1, 2, 7, 9 }));
}

TEST(Ops, Conv2dTransposeScattersEachInputThroughTheKernel)
{
    // Stride 2, kernel 2: each input element writes x * w into its own 2x2 block of the 4x4 output.
    ops::Conv2dParams p;
    p.stride = { 2, 2 };
    const std::vector<float> x { 1, 2, 3, 4 };
    const std::vector<float> w { 1, 10, 100, 1000 };
    const Buffer out = transposed({ 1, 1, 2, 2 }, x, { 1, 1, 2, 2 }, w, p);
    EXPECT_EQ(out.shape(), (std::vector<int64_t> { 1, 1, 4, 4 }));
    EXPECT_EQ(
        valuesOf(out), (std::vector<float> { 1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30, 4, 40, 300, 3000, 400, 4000 }));

    // Output padding adds a row at the bottom (zeros past the full output); padding 1 crops a row and a column
    // from each side, and output padding then gives back a cropped row.
    const Buffer taller = transposed({ 1, 1, 2, 2 }, x, { 1, 1, 2, 2 }, w, p, { 1, 0 });
    EXPECT_EQ(taller.shape(), (std::vector<int64_t> { 1, 1, 5, 4 }));
    EXPECT_EQ(valuesOf(taller)[13], 3000.0f);
    EXPECT_EQ(std::vector<float>(taller.data() + 16, taller.data() + 20), (std::vector<float> { 0, 0, 0, 0 }));
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    EXPECT_EQ(valuesOf(transposed({ 1, 1, 2, 2 }, x, { 1, 1, 2, 2 }, w, p)), (std::vector<float> { 1000, 200, 30, 4 }));
    EXPECT_EQ(valuesOf(transposed({ 1, 1, 2, 2 }, x, { 1, 1, 2, 2 }, w, p, { 1, 0 })),
        (std::vector<float> { 1000, 200, 30, 4, 3000, 400 }));

    // Stride 1 and dilation 2: the two kernel taps land two columns apart.
    ops::Conv2dParams dilated;
    dilated.dilation = { 1, 2 };
    EXPECT_EQ(valuesOf(transposed({ 1, 1, 1, 2 }, { 1, 2 }, { 1, 1, 1, 2 }, { 1, 10 }, dilated)),
        (std::vector<float> { 1, 2, 10, 20 }));

    // Groups 2: each input channel feeds only its own output channel (weight [in, out / groups, kh, kw]).
    ops::Conv2dParams grouped;
    grouped.groups = 2;
    const Buffer g = transposed({ 1, 2, 1, 1 }, { 2, 3 }, { 2, 1, 1, 2 }, { 5, 6, 7, 8 }, grouped);
    EXPECT_EQ(g.shape(), (std::vector<int64_t> { 1, 2, 1, 2 }));
    EXPECT_EQ(valuesOf(g), (std::vector<float> { 10, 12, 21, 24 }));
    // One group: every input channel feeds every output channel.
    EXPECT_EQ(valuesOf(transposed({ 1, 2, 1, 1 }, { 2, 3 }, { 2, 1, 1, 2 }, { 5, 6, 7, 8 }, ops::Conv2dParams {})),
        (std::vector<float> { 31, 36 }));
}

TEST(Ops, Conv2dTransposeStagesAndImpossibleShapes)
{
    Tensor data = placeholder("data", { 1, 4, 5, 5 });
    ops::Conv2dParams p;
    p.stride = { 2, 2 };
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    auto out = ops::conv2dTransposeNchw(data, placeholder("w", { 4, 3, 3, 3 }), p, { 1, 1 });
    ASSERT_TRUE(out) << out.error().toString();
    EXPECT_EQ((*out)->shape(), (std::vector<int64_t> { 1, 3, 10, 10 })); // (5 - 1) * 2 + 3 - 2 + 1
    std::vector<std::string> stages;
    const ComputeDAG dag = ComputeDAG::create({ *out });
    for (const Tensor& t : dag.ops())
        stages.push_back(t->name());
    EXPECT_EQ(stages, (std::vector<std::string> { "data", "data_dilate", "data_pad", "w", "conv2d_transpose_nchw" }));

    expectError(ops::conv2dTransposeNchw(data, placeholder("w", { 3, 3, 3, 3 }), p, { 0, 0 }),
        "conv2d_transpose_nchw: weight [3, 3, 3, 3] ([in_channels, out_channels / groups, kh, kw]) has 3 input "
        "channels, data [1, 4, 5, 5] has 4");
    p.groups = 3;
    expectError(ops::conv2dTransposeNchw(data, placeholder("w", { 4, 1, 3, 3 }), p, { 0, 0 }),
        "groups 3 must divide the input channels 4");
    p.groups = 1;
    p.padding = ops::Conv2dParams::symmetric(6, 0);
    expectError(ops::conv2dTransposeNchw(data, placeholder("w", { 4, 3, 3, 3 }), p, { 0, 0 }),
        "padding of 12 along height leaves no output");
    p.padding = {};
    expectError(ops::conv2dTransposeNchw(data, placeholder("w", { 4, 3, 3, 3 }), p, { -1, 0 }),
        "negative output padding along height");
    p.layout = ops::Layout::NHWC;
    expectError(ops::conv2dTransposeNchw(data, placeholder("w", { 4, 3, 3, 3 }), p, { 0, 0 }), "only the NCHW layout");
}
