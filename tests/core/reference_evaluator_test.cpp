// The reference evaluator against independent, hand-written loops on random data.
#include "core/ir/reference_evaluator.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/ops/pool.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ts;
using namespace ts::ir;

namespace {
// Evaluates the DAG made of `inputs` + `out` on random data; returns (inputs, output).
std::pair<std::vector<Buffer>, Buffer> run(std::vector<Tensor> inputs, const Tensor& out, uint64_t seed = 1)
{
    inputs.push_back(out);
    ComputeDAG dag = ComputeDAG::create(inputs);
    std::vector<Buffer> in = randomInputs(dag, seed);
    auto result = evaluate(dag, in);
    EXPECT_TRUE(result) << result.error().toString();
    // Placeholders come out in stage order; map them back to the order they were given.
    std::vector<Buffer> byGivenOrder;
    for (size_t k = 0; k + 1 < inputs.size(); ++k)
        byGivenOrder.push_back((*result)[static_cast<size_t>(dag.indexOf(inputs[k].get()))]);
    return { byGivenOrder, (*result)[static_cast<size_t>(dag.indexOf(out.get()))] };
}

void expectClose(const Buffer& got, const std::vector<double>& want)
{
    ASSERT_EQ(got.size(), static_cast<int64_t>(want.size()));
    for (int64_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[static_cast<size_t>(i)], 1e-4 * (1.0 + std::fabs(want[static_cast<size_t>(i)])))
            << "element " << i;
}

struct ConvCase {
    int64_t n, c, h, w, o, k, stride, pad, dilation, groups;
};

// Direct NCHW convolution, written independently of the IR.
std::vector<double> naiveConv(const Buffer& x, const Buffer& wt, const ConvCase& t, int64_t oh, int64_t ow)
{
    std::vector<double> out;
    const int64_t cpg = t.c / t.groups, opg = t.o / t.groups;
    for (int64_t n = 0; n < t.n; ++n)
        for (int64_t o = 0; o < t.o; ++o)
            for (int64_t y = 0; y < oh; ++y)
                for (int64_t xx = 0; xx < ow; ++xx) {
                    double acc = 0;
                    const int64_t g = o / opg;
                    for (int64_t ci = 0; ci < cpg; ++ci)
                        for (int64_t ky = 0; ky < t.k; ++ky)
                            for (int64_t kx = 0; kx < t.k; ++kx) {
                                const int64_t iy = y * t.stride - t.pad + ky * t.dilation;
                                const int64_t ix = xx * t.stride - t.pad + kx * t.dilation;
                                if (iy < 0 || iy >= t.h || ix < 0 || ix >= t.w)
                                    continue;
                                acc += double(x.at({ n, g * cpg + ci, iy, ix })) * wt.at({ o, ci, ky, kx });
                            }
                    out.push_back(acc);
                }
    return out;
}
} // namespace

TEST(ReferenceEvaluator, Matmul)
{
    Tensor a = placeholder("A", { 7, 5 });
    Tensor b = placeholder("B", { 5, 3 });
    auto [in, out] = run({ a, b }, ops::matmul(a, b).value());
    std::vector<double> want;
    for (int64_t i = 0; i < 7; ++i)
        for (int64_t j = 0; j < 3; ++j) {
            double acc = 0;
            for (int64_t k = 0; k < 5; ++k)
                acc += double(in[0].at({ i, k })) * in[1].at({ k, j });
            want.push_back(acc);
        }
    expectClose(out, want);
}

TEST(ReferenceEvaluator, Conv2dStridePadDilationGroups)
{
    const ConvCase cases[] = {
        { 1, 3, 9, 9, 4, 3, 1, 1, 1, 1 },
        { 2, 4, 10, 11, 6, 3, 2, 1, 1, 1 },
        { 1, 4, 12, 12, 4, 3, 1, 2, 2, 1 },
        { 1, 6, 8, 8, 9, 3, 1, 1, 1, 3 },
        { 1, 4, 7, 7, 8, 1, 2, 0, 1, 2 },
    };
    for (const ConvCase& t : cases) {
        Tensor data = placeholder("data", { t.n, t.c, t.h, t.w });
        Tensor weight = placeholder("weight", { t.o, t.c / t.groups, t.k, t.k });
        ops::Conv2dParams p;
        p.stride = { t.stride, t.stride };
        p.padding = ops::Conv2dParams::symmetric(t.pad, t.pad);
        p.dilation = { t.dilation, t.dilation };
        p.groups = t.groups;
        Tensor conv = ops::conv2d(data, weight, p).value();
        auto [in, out] = run({ data, weight }, conv);
        expectClose(out, naiveConv(in[0], in[1], t, conv->shape()[2], conv->shape()[3]));
    }
}

TEST(ReferenceEvaluator, Conv2dNhwcEqualsNchw)
{
    // The same convolution in both layouts, on the same numbers transposed.
    Tensor dn = placeholder("data", { 1, 3, 6, 6 });
    Tensor wn = placeholder("weight", { 4, 3, 3, 3 });
    ops::Conv2dParams p;
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    p.stride = { 2, 2 };
    auto [inN, outN] = run({ dn, wn }, ops::conv2d(dn, wn, p).value());

    Tensor dh = placeholder("data", { 1, 6, 6, 3 });
    Tensor wh = placeholder("weight", { 3, 3, 3, 4 });
    p.layout = ops::Layout::NHWC;
    Tensor convH = ops::conv2d(dh, wh, p).value();
    ComputeDAG dag = ComputeDAG::create({ dh, wh, convH });
    Buffer bd({ 1, 6, 6, 3 }), bw({ 3, 3, 3, 4 });
    for (int64_t c = 0; c < 3; ++c)
        for (int64_t y = 0; y < 6; ++y)
            for (int64_t x = 0; x < 6; ++x)
                bd.at({ 0, y, x, c }) = inN[0].at({ 0, c, y, x });
    for (int64_t o = 0; o < 4; ++o)
        for (int64_t c = 0; c < 3; ++c)
            for (int64_t y = 0; y < 3; ++y)
                for (int64_t x = 0; x < 3; ++x)
                    bw.at({ y, x, c, o }) = inN[1].at({ o, c, y, x });
    std::vector<Buffer> inputs(2);
    inputs[static_cast<size_t>(dag.placeholders()[0] == dag.indexOf(dh.get()) ? 0 : 1)] = bd;
    inputs[static_cast<size_t>(dag.placeholders()[0] == dag.indexOf(dh.get()) ? 1 : 0)] = bw;
    auto result = evaluate(dag, inputs);
    ASSERT_TRUE(result) << result.error().toString();
    const Buffer& outH = (*result)[static_cast<size_t>(dag.indexOf(convH.get()))];
    for (int64_t o = 0; o < 4; ++o)
        for (int64_t y = 0; y < 3; ++y)
            for (int64_t x = 0; x < 3; ++x)
                ASSERT_NEAR(outH.at({ 0, y, x, o }), outN.at({ 0, o, y, x }), 1e-5);
}

TEST(ReferenceEvaluator, DepthwiseConv2d)
{
    Tensor data = placeholder("data", { 1, 5, 9, 9 });
    Tensor weight = placeholder("weight", { 5, 1, 3, 3 });
    ops::Conv2dParams p;
    p.stride = { 2, 2 };
    p.padding = ops::Conv2dParams::symmetric(1, 1);
    auto [in, out] = run({ data, weight }, ops::depthwiseConv2d(data, weight, p).value());
    std::vector<double> want;
    for (int64_t c = 0; c < 5; ++c)
        for (int64_t y = 0; y < 5; ++y)
            for (int64_t x = 0; x < 5; ++x) {
                double acc = 0;
                for (int64_t ky = 0; ky < 3; ++ky)
                    for (int64_t kx = 0; kx < 3; ++kx) {
                        const int64_t iy = y * 2 - 1 + ky, ix = x * 2 - 1 + kx;
                        if (iy >= 0 && iy < 9 && ix >= 0 && ix < 9)
                            acc += double(in[0].at({ 0, c, iy, ix })) * in[1].at({ c, 0, ky, kx });
                    }
                want.push_back(acc);
            }
    expectClose(out, want);
}

TEST(ReferenceEvaluator, Softmax)
{
    Tensor x = placeholder("x", { 3, 17 });
    auto [in, out] = run({ x }, ops::softmax(x).value());
    std::vector<double> want;
    for (int64_t i = 0; i < 3; ++i) {
        double m = -1e30, s = 0;
        for (int64_t j = 0; j < 17; ++j)
            m = std::max(m, double(in[0].at({ i, j })));
        for (int64_t j = 0; j < 17; ++j)
            s += std::exp(in[0].at({ i, j }) - m);
        for (int64_t j = 0; j < 17; ++j)
            want.push_back(std::exp(in[0].at({ i, j }) - m) / s);
    }
    expectClose(out, want);
}

TEST(ReferenceEvaluator, LayerNorm)
{
    Tensor x = placeholder("x", { 4, 33 });
    Tensor gamma = placeholder("gamma", { 33 });
    Tensor beta = placeholder("beta", { 33 });
    auto [in, out] = run({ x, gamma, beta }, ops::layerNorm(x, gamma, beta, 1e-5).value());
    std::vector<double> want;
    for (int64_t i = 0; i < 4; ++i) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < 33; ++j)
            mean += in[0].at({ i, j }) / 33.0;
        for (int64_t j = 0; j < 33; ++j)
            var += (in[0].at({ i, j }) - mean) * (in[0].at({ i, j }) - mean) / 33.0;
        for (int64_t j = 0; j < 33; ++j)
            want.push_back((in[0].at({ i, j }) - mean) / std::sqrt(var + 1e-5) * in[1][j] + in[2][j]);
    }
    expectClose(out, want);
}

TEST(ReferenceEvaluator, PoolingAndGelu)
{
    Tensor x = placeholder("x", { 1, 2, 5, 5 });
    ops::Pool2dParams p;
    p.kernel = { 3, 3 };
    p.stride = { 2, 2 };
    p.padding = { 1, 1, 1, 1 };
    auto [in, maxOut] = run({ x }, ops::maxPool2d(x, p).value());
    auto [in2, avgOut] = run({ x }, ops::avgPool2d(x, p).value());
    std::vector<double> wantMax, wantAvg;
    for (int64_t c = 0; c < 2; ++c)
        for (int64_t y = 0; y < 3; ++y)
            for (int64_t xx = 0; xx < 3; ++xx) {
                double m = -1e30, s = 0;
                int count = 0;
                for (int64_t ky = 0; ky < 3; ++ky)
                    for (int64_t kx = 0; kx < 3; ++kx) {
                        const int64_t iy = y * 2 - 1 + ky, ix = xx * 2 - 1 + kx;
                        if (iy < 0 || iy >= 5 || ix < 0 || ix >= 5)
                            continue;
                        m = std::max(m, double(in[0].at({ 0, c, iy, ix })));
                        s += in[0].at({ 0, c, iy, ix });
                        ++count;
                    }
                wantMax.push_back(m);
                wantAvg.push_back(s / count);
            }
    expectClose(maxOut, wantMax);
    expectClose(avgOut, wantAvg);

    Tensor g = placeholder("g", { 11 });
    auto [gin, gout] = run({ g }, ops::gelu(g).value());
    std::vector<double> wantGelu;
    for (int64_t i = 0; i < 11; ++i)
        wantGelu.push_back(0.5 * gin[0][i] * (1.0 + std::erf(gin[0][i] / std::sqrt(2.0))));
    expectClose(gout, wantGelu);
}

TEST(ReferenceEvaluator, RejectsWrongInputs)
{
    Tensor a = placeholder("A", { 4, 4 });
    Tensor b = placeholder("B", { 4, 4 });
    ComputeDAG dag = ComputeDAG::create({ a, b, ops::matmul(a, b).value() });
    auto missing = evaluate(dag, { Buffer({ 4, 4 }) });
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, ErrorKind::InvalidArgument);
    auto wrongShape = evaluate(dag, { Buffer({ 4, 4 }), Buffer({ 4, 5 }) });
    ASSERT_FALSE(wrongShape);
    EXPECT_NE(wrongShape.error().message.find("input B has shape [4, 5], expected [4, 4]"), std::string::npos);
}

TEST(ReferenceEvaluator, ReportsOutOfBoundsReads)
{
    Tensor x = placeholder("x", { 4 });
    Tensor shifted = compute("shifted", { 4 }, [&](const std::vector<Expr>& i) { return load(x, { i[0] + 1 }); });
    ComputeDAG dag = ComputeDAG::create({ x, shifted });
    auto result = evaluate(dag, randomInputs(dag, 0));
    ASSERT_FALSE(result);
    EXPECT_NE(result.error().message.find("out-of-bounds read x dimension 0 index 4"), std::string::npos);
}
