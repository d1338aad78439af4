#include "core/ops/linear.h"

#include "core/ops/shape_check.h"

namespace ts::ops {

using ir::Expr;
using ir::Tensor;

Expected<Tensor> matmul(const Tensor& a, const Tensor& b, const std::string& name)
{
    TS_CHECK(expectRank("matmul", "A", a, 2));
    TS_CHECK(expectRank("matmul", "B", b, 2));
    if (a->shape()[1] != b->shape()[0])
        return shapeError(
            "matmul", "inner dimensions differ: A " + shapeText(a->shape()) + ", B " + shapeText(b->shape()));
    return ir::computeReduce(
        name, { a->shape()[0], b->shape()[1] }, { a->shape()[1] }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(a, { i[0], r[0] }) * ir::load(b, { r[0], i[1] });
        },
        "matmul");
}

Expected<std::vector<Tensor>> matmulAdd(int64_t n, int64_t l, int64_t m)
{
    if (n < 1 || l < 1 || m < 1)
        return shapeError("matmul_add",
            "extents must be >= 1, got N=" + std::to_string(n) + " L=" + std::to_string(l) + " M=" + std::to_string(m));
    Tensor a = ir::placeholder("A", { n, l });
    Tensor b = ir::placeholder("B", { l, m });
    Tensor c = ir::placeholder("C", { n, m });
    ir::setNextAxisNames({ "i", "j" }, { "k" });
    TS_TRY(Tensor product, matmul(a, b, "matmul"));
    Tensor out = ir::compute(
        "out", { n, m }, [&](const std::vector<Expr>& i) { return ir::load(product, i) + ir::load(c, i); });
    return std::vector<Tensor> { a, b, c, out };
}

Expected<Tensor> dense(const Tensor& x, const Tensor& w)
{
    TS_CHECK(expectRank("dense", "data", x, 2));
    TS_CHECK(expectRank("dense", "weight", w, 2));
    if (x->shape()[1] != w->shape()[1])
        return shapeError("dense",
            "data " + shapeText(x->shape()) + " and weight " + shapeText(w->shape())
                + " differ in the reduction dimension");
    return ir::computeReduce(
        "T_dense", { x->shape()[0], w->shape()[0] }, { x->shape()[1] }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(x, { i[0], r[0] }) * ir::load(w, { i[1], r[0] });
        },
        "dense");
}

Expected<Tensor> densePacked(const Tensor& x, const Tensor& packed)
{
    TS_CHECK(expectRank("dense", "data", x, 2));
    TS_CHECK(expectRank("dense", "packed weight", packed, 3));
    const auto& ps = packed->shape();
    if (x->shape()[1] != ps[1])
        return shapeError("dense",
            "data " + shapeText(x->shape()) + " and packed weight " + shapeText(ps)
                + " differ in the reduction dimension");
    const int64_t bn = ps[2];
    return ir::computeReduce(
        "T_dense", { x->shape()[0], ps[0] * bn }, { x->shape()[1] }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(x, { i[0], r[0] })
                * ir::load(packed, { ir::floorDiv(i[1], Expr(bn)), r[0], ir::floorMod(i[1], Expr(bn)) });
        },
        "dense");
}

Expected<Tensor> batchMatmul(const Tensor& a, const Tensor& b, bool transposeB)
{
    TS_CHECK(expectRank("batch_matmul", "A", a, 3));
    TS_CHECK(expectRank("batch_matmul", "B", b, 3));
    const auto& sa = a->shape();
    const auto& sb = b->shape();
    const int64_t k = sa[2];
    const int64_t kb = transposeB ? sb[2] : sb[1];
    const int64_t n = transposeB ? sb[1] : sb[2];
    if (sa[0] != sb[0] || k != kb)
        return shapeError("batch_matmul",
            "A " + shapeText(sa) + " and B " + shapeText(sb) + " do not multiply"
                + (transposeB ? " (B transposed)" : ""));
    return ir::computeReduce(
        "T_batch_matmul", { sa[0], sa[1], n }, { k }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            Expr rhs = transposeB ? ir::load(b, { i[0], i[2], r[0] }) : ir::load(b, { i[0], r[0], i[2] });
            return ir::load(a, { i[0], i[1], r[0] }) * rhs;
        },
        "batch_matmul");
}

} // namespace ts::ops
