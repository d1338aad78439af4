// Ansor's access predicates on matmul, conv2d, relu, softmax and pad.
#include "core/ir/compute_dag.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::ir;

namespace {
int stage(const ComputeDAG& dag, const std::string& name)
{
    for (int i = 0; i < dag.numOps(); ++i)
        if (dag.op(i).name() == name)
            return i;
    ADD_FAILURE() << "no stage " << name;
    return -1;
}
} // namespace

TEST(AccessAnalyzer, Matmul)
{
    Tensor a = placeholder("A", { 64, 32 });
    Tensor b = placeholder("B", { 32, 16 });
    ComputeDAG dag = ComputeDAG::create({ a, b, ops::matmul(a, b).value() });
    const AccessAnalyzer& an = dag.access();
    const int mm = stage(dag, "matmul");
    EXPECT_TRUE(an.needsMultiLevelTiling(mm)); // A misses j, B misses i: reuse in both
    EXPECT_FALSE(an.isStrictInlinable(mm)); // reads through the reduce axis
    EXPECT_FALSE(an.isSimpleAccess(mm));
    EXPECT_TRUE(an.isOutput(mm));
    EXPECT_FALSE(an.isOutput(stage(dag, "A")));
    EXPECT_FALSE(an.needsMultiLevelTiling(stage(dag, "A")));
}

TEST(AccessAnalyzer, Conv2dWithBiasAndRelu)
{
    Tensor data = placeholder("data", { 1, 8, 14, 14 });
    Tensor weight = placeholder("weight", { 16, 8, 3, 3 });
    Tensor bias = placeholder("bias", { 16 });
    ops::Conv2dParams p;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    Tensor conv = ops::conv2d(data, weight, p).value();
    Tensor biased = ops::biasAdd(conv, bias, 1).value();
    Tensor out = ops::relu(biased).value();
    ComputeDAG dag = ComputeDAG::create({ data, weight, bias, out });
    const AccessAnalyzer& an = dag.access();
    const int c = stage(dag, "conv2d_nchw");
    const int pad = stage(dag, "pad_temp");
    const int add = stage(dag, "T_add");
    const int relu = stage(dag, "T_relu");
    EXPECT_TRUE(an.needsMultiLevelTiling(c));
    EXPECT_FALSE(an.isStrictInlinable(c));
    EXPECT_FALSE(an.isOutput(c));
    // conv -> bias add -> relu is an element-wise chain: Ansor fuses it into the conv's tile.
    EXPECT_EQ(an.singleElementwiseMatchedConsumer(c), add);
    EXPECT_TRUE(an.elementWiseMatch(c, relu));
    EXPECT_FALSE(an.elementWiseMatch(pad, c));
    EXPECT_TRUE(an.isStrictInlinable(add));
    EXPECT_TRUE(an.isStrictInlinable(relu));
    EXPECT_FALSE(an.needsMultiLevelTiling(relu));
    EXPECT_TRUE(an.isOutput(relu));
    // All four output axes of conv line up with the bias add and relu.
    EXPECT_EQ(an.numCommonOuterIterators(c, relu), 4);
    // The pad stage is read through yy + ry: no common outer axes beyond batch and channel... of which
    // the channel is indexed by rc, so only the batch axis is shared.
    EXPECT_EQ(an.numCommonOuterIterators(pad, c), 1);
}

TEST(AccessAnalyzer, Pad)
{
    Tensor x = placeholder("x", { 1, 3, 8, 8 });
    Tensor padded = ops::pad(x, { 0, 0, 1, 1 }, { 0, 0, 1, 1 }).value();
    ComputeDAG dag = ComputeDAG::create({ x, padded });
    const int p = stage(dag, "pad_temp");
    // Reads are var +- constant (simple), but the boundary select is a branch: not strictly inlinable.
    EXPECT_TRUE(dag.access().isSimpleAccess(p));
    EXPECT_FALSE(dag.access().isStrictInlinable(p));
    EXPECT_FALSE(dag.access().needsMultiLevelTiling(p));
    EXPECT_TRUE(dag.access().isOutput(p));
    EXPECT_DOUBLE_EQ(dag.flopCount(), 0.0);
}

TEST(AccessAnalyzer, Softmax)
{
    Tensor x = placeholder("x", { 4, 32 });
    ComputeDAG dag = ComputeDAG::create({ x, ops::softmax(x).value() });
    const AccessAnalyzer& an = dag.access();
    ASSERT_EQ(dag.numOps(), 5);
    const int maxElem = stage(dag, "T_softmax_maxelem");
    const int exp = stage(dag, "T_softmax_exp");
    const int sum = stage(dag, "T_softmax_expsum");
    const int norm = stage(dag, "T_softmax_norm");
    EXPECT_FALSE(an.needsMultiLevelTiling(maxElem)); // no input misses an output axis
    EXPECT_FALSE(an.isStrictInlinable(exp)); // exp is expensive
    EXPECT_TRUE(an.isSimpleAccess(exp));
    EXPECT_FALSE(an.needsMultiLevelTiling(exp)); // misses j in maxelem, but no reduction
    EXPECT_FALSE(an.isStrictInlinable(sum));
    EXPECT_TRUE(an.isStrictInlinable(norm));
    EXPECT_TRUE(an.isOutput(norm));
    EXPECT_EQ(an.singleElementwiseMatchedConsumer(maxElem), -1); // read by exp with a missing axis
    EXPECT_EQ(an.numCommonOuterIterators(maxElem, exp), 1);
}
