// ComputeDAG: FLOPs, bytes, TVM's stage order, workload keys, printing.
#include "core/ir/compute_dag.h"
#include "core/ir/dag_export.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::ir;

namespace {
ComputeDAG matmulDag(int64_t m, int64_t k, int64_t n, const std::string& aName = "A")
{
    Tensor a = placeholder(aName, { m, k });
    Tensor b = placeholder("B", { k, n });
    return ComputeDAG::create({ a, b, ops::matmul(a, b).value() });
}

ComputeDAG convDag(int64_t stride, int64_t pad, int64_t dilation = 1, int64_t groups = 1)
{
    Tensor data = placeholder("data", { 1, 4, 8, 8 });
    Tensor weight = placeholder("weight", { 6, 4 / groups, 3, 3 });
    ops::Conv2dParams p;
    p.stride = { stride, stride };
    p.padding = ops::Conv2dParams::symmetric(pad, pad);
    p.dilation = { dilation, dilation };
    p.groups = groups;
    return ComputeDAG::create({ data, weight, ops::conv2d(data, weight, p).value() });
}

// TVM's tutorial workload: out = A x B + C (gallery/how_to/tune_with_autoscheduler/tune_matmul_x86).
ComputeDAG matmulAdd(int64_t n)
{
    Tensor a = placeholder("A", { n, n });
    Tensor b = placeholder("B", { n, n });
    Tensor c = placeholder("C", { n, n });
    Tensor mm = ops::matmul(a, b).value();
    Tensor out = compute("out", { n, n }, [&](const std::vector<Expr>& i) { return load(mm, i) + load(c, i); });
    return ComputeDAG::create({ a, b, c, out });
}
} // namespace

TEST(ComputeDAG, MatmulFlopsAndBytesByHand)
{
    ComputeDAG dag = matmulDag(128, 64, 32);
    // 2 * M * N * K: one multiply and one add per multiply-accumulate.
    EXPECT_DOUBLE_EQ(dag.flopCount(), 2.0 * 128 * 32 * 64);
    EXPECT_DOUBLE_EQ(dag.multiplyAccumulateCount(), 128.0 * 32 * 64);
    EXPECT_EQ(dag.bytesRead(), (128 * 64 + 64 * 32) * 4);
    EXPECT_EQ(dag.bytesWritten(), 128 * 32 * 4);
}

TEST(ComputeDAG, Conv2dFlopsAndBytesByHand)
{
    // [1,4,8,8] * [6,4,3,3], pad 1 stride 1 -> [1,6,8,8]; the pad stage has no float arithmetic.
    ComputeDAG same = convDag(1, 1);
    EXPECT_EQ(same.numOps(), 4); // data, pad_temp, weight, conv2d_nchw
    EXPECT_DOUBLE_EQ(same.flopCount(), 2.0 * (6 * 8 * 8) * (4 * 3 * 3));
    EXPECT_EQ(same.bytesRead(), (4 * 8 * 8 + 6 * 4 * 3 * 3) * 4);
    EXPECT_EQ(same.bytesWritten(), 6 * 8 * 8 * 4);
    // stride 2, no padding: (8 - 3) / 2 + 1 = 3, and no pad stage at all.
    ComputeDAG strided = convDag(2, 0);
    EXPECT_EQ(strided.numOps(), 3);
    EXPECT_EQ(strided.op(strided.numOps() - 1).shape(), (std::vector<int64_t> { 1, 6, 3, 3 }));
    EXPECT_DOUBLE_EQ(strided.flopCount(), 2.0 * (6 * 3 * 3) * (4 * 3 * 3));
    // groups 2: each output channel reduces over 2 input channels.
    ComputeDAG grouped = convDag(1, 1, 1, 2);
    EXPECT_DOUBLE_EQ(grouped.flopCount(), 2.0 * (6 * 8 * 8) * (2 * 3 * 3));
    // dilation 2 with pad 2 keeps 8x8.
    ComputeDAG dilated = convDag(1, 2, 2);
    EXPECT_EQ(dilated.op(dilated.numOps() - 1).shape(), (std::vector<int64_t> { 1, 6, 8, 8 }));
}

TEST(ComputeDAG, ElementwiseFlopsCountOnlyFloatArithmetic)
{
    Tensor x = placeholder("x", { 10, 20 });
    EXPECT_DOUBLE_EQ(ComputeDAG::create({ x, ops::relu(x).value() }).flopCount(), 200.0); // one max
    EXPECT_DOUBLE_EQ(ComputeDAG::create({ x, ops::clip(x, 0, 6).value() }).flopCount(), 400.0); // max + min
}

TEST(ComputeDAG, StageOrderMatchesTvmTopoSort)
{
    // TVM orders matmul_add as A, B, matmul, C, out: the placeholder C comes after matmul.
    ComputeDAG dag = matmulAdd(64);
    std::vector<std::string> names;
    for (const Tensor& op : dag.ops())
        names.push_back(op->name());
    EXPECT_EQ(names, (std::vector<std::string> { "A", "B", "matmul", "C", "out" }));
    EXPECT_EQ(dag.consumers(2), std::vector<int> { 4 });
    EXPECT_EQ(dag.producers(4), (std::vector<int> { 2, 3 }));
    EXPECT_EQ(dag.outputs(), std::vector<int> { 4 });
}

TEST(ComputeDAG, WorkloadKeyEqualForEqualDagsDifferentOtherwise)
{
    EXPECT_EQ(matmulDag(64, 32, 16).workloadKey(), matmulDag(64, 32, 16).workloadKey());
    // Names do not matter, shapes do.
    EXPECT_EQ(matmulDag(64, 32, 16).workloadKey(), matmulDag(64, 32, 16, "lhs").workloadKey());
    EXPECT_NE(matmulDag(64, 32, 16).workloadKey(), matmulDag(64, 32, 17).workloadKey());
    EXPECT_NE(matmulDag(64, 32, 16).workloadKey(), matmulDag(64, 33, 16).workloadKey());
    EXPECT_NE(matmulDag(64, 32, 16).workloadKey(), matmulDag(65, 32, 16).workloadKey());
    EXPECT_NE(convDag(1, 1).workloadKey(), convDag(2, 1).workloadKey());
    EXPECT_NE(convDag(1, 1).workloadKey(), convDag(1, 2, 2).workloadKey());
    EXPECT_NE(convDag(1, 1).workloadKey(), convDag(1, 1, 1, 2).workloadKey());
    EXPECT_EQ(matmulDag(64, 32, 16).workloadKey().size(), 16u);
}

TEST(ComputeDAG, PrintsLikeAnsor)
{
    ComputeDAG dag = matmulAdd(8);
    EXPECT_EQ(dag.toString(),
        "A = placeholder[8, 8]\n"
        "B = placeholder[8, 8]\n"
        "matmul[i, j] += A[i, rv0]*B[rv0, j]\n"
        "C = placeholder[8, 8]\n"
        "out[i, j] = matmul[i, j] + C[i, j]\n");
}

TEST(DagExport, DotAndJsonNameEveryOpAndEdge)
{
    ComputeDAG dag = matmulAdd(8);
    const std::string dot = toDot(dag);
    EXPECT_NE(dot.find("n2 -> n4;"), std::string::npos);
    EXPECT_NE(dot.find("n3 -> n4;"), std::string::npos);
    EXPECT_EQ(dot.find("n4 -> "), std::string::npos);
    const std::string json = toJson(dag, -1);
    EXPECT_NE(json.find("\"workload_key\":\"" + dag.workloadKey() + "\""), std::string::npos);
    EXPECT_NE(json.find("\"needs_multi_level_tiling\":true"), std::string::npos);
}

TEST(Expr, PrinterRespectsPrecedence)
{
    Expr a = var("a"), b = var("b"), c = var("c");
    EXPECT_EQ(toString((a + b) * c), "(a + b)*c");
    EXPECT_EQ(toString(a - (b - c)), "a - (b - c)");
    EXPECT_EQ(toString(a - b - c), "a - b - c");
    EXPECT_EQ(toString(floorDiv(a, 4) + a % 3), "floordiv(a, 4) + a%3");
}
