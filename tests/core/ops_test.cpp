// Operator builders reject impossible shapes with a message that names the operator and the shapes.
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/ops/pool.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::ir;

namespace {
void expectError(const Expected<Tensor>& result, const std::string& fragment)
{
    ASSERT_FALSE(result) << "expected an error containing '" << fragment << "'";
    EXPECT_EQ(result.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(result.error().message.find(fragment), std::string::npos) << result.error().message;
}
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
