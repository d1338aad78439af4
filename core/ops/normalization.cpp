#include "core/ops/normalization.h"

#include "core/ops/shape_check.h"

namespace ts::ops {

using ir::Expr;
using ir::Tensor;

namespace {
    std::vector<Expr> withLast(std::vector<Expr> outer, const Expr& last)
    {
        outer.push_back(last);
        return outer;
    }
    std::vector<Expr> allButLast(const std::vector<Expr>& i) { return { i.begin(), i.end() - 1 }; }
} // namespace

Expected<Tensor> softmax(const Tensor& x)
{
    if (!x || x->shape().empty())
        return shapeError("softmax", "needs a tensor of rank >= 1");
    std::vector<int64_t> outer(x->shape().begin(), x->shape().end() - 1);
    const int64_t n = x->shape().back();
    if (outer.empty())
        outer.push_back(1);
    const bool vector = x->shape().size() == 1;
    auto xAt = [&](const std::vector<Expr>& o, const Expr& k) {
        return ir::load(x, vector ? std::vector<Expr> { k } : withLast(o, k));
    };

    Tensor maxElem = ir::computeReduce(
        "T_softmax_maxelem", outer, { n }, ir::Reducer::Max,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) { return xAt(i, r[0]); }, "softmax_maxelem");
    Tensor expValue = ir::compute(
        "T_softmax_exp", x->shape(),
        [&](const std::vector<Expr>& i) {
            std::vector<Expr> o = vector ? std::vector<Expr> { Expr(0) } : allButLast(i);
            return ir::exp(ir::load(x, i) - ir::load(maxElem, o));
        },
        "softmax_exp");
    Tensor expSum = ir::computeReduce(
        "T_softmax_expsum", outer, { n }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(expValue, vector ? std::vector<Expr> { r[0] } : withLast(i, r[0]));
        },
        "softmax_expsum");
    return ir::compute(
        "T_softmax_norm", x->shape(),
        [&](const std::vector<Expr>& i) {
            std::vector<Expr> o = vector ? std::vector<Expr> { Expr(0) } : allButLast(i);
            return ir::load(expValue, i) / ir::load(expSum, o);
        },
        "softmax_norm");
}

Expected<Tensor> layerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps)
{
    if (!x || x->shape().size() < 2)
        return shapeError("layer_norm", "needs a tensor of rank >= 2");
    const int64_t n = x->shape().back();
    TS_CHECK(expectRank("layer_norm", "gamma", gamma, 1));
    TS_CHECK(expectRank("layer_norm", "beta", beta, 1));
    if (gamma->shape()[0] != n || beta->shape()[0] != n)
        return shapeError("layer_norm",
            "gamma " + shapeText(gamma->shape()) + " and beta " + shapeText(beta->shape())
                + " must match the last axis of " + shapeText(x->shape()));
    if (!(eps > 0.0))
        return shapeError("layer_norm", "epsilon must be positive");
    const std::vector<int64_t> outer(x->shape().begin(), x->shape().end() - 1);
    const Expr inv = ir::floatImm(1.0 / static_cast<double>(n));

    Tensor mean = ir::computeReduce(
        "T_layer_norm_mean", outer, { n }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) { return ir::load(x, withLast(i, r[0])) * inv; },
        "layer_norm_mean");
    Tensor var = ir::computeReduce(
        "T_layer_norm_var", outer, { n }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            Expr d = ir::load(x, withLast(i, r[0])) - ir::load(mean, i);
            return d * d * inv;
        },
        "layer_norm_var");
    return ir::compute(
        "T_layer_norm", x->shape(),
        [&](const std::vector<Expr>& i) {
            const std::vector<Expr> o = allButLast(i);
            return (ir::load(x, i) - ir::load(mean, o)) * ir::rsqrt(ir::load(var, o) + ir::floatImm(eps))
                * ir::load(gamma, { i.back() })
                + ir::load(beta, { i.back() });
        },
        "layer_norm");
}

} // namespace ts::ops
