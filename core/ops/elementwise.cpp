#include "core/ops/elementwise.h"

#include "core/ops/shape_check.h"

#include <cmath>

namespace ts::ops {

using ir::Expr;
using ir::Tensor;

namespace {
    Expected<Tensor> broadcastBinary(
        const std::string& name, const Tensor& a, const Tensor& b, Expr (*combine)(Expr, Expr))
    {
        if (!a || !b)
            return shapeError(name, "missing operand");
        TS_TRY(std::vector<int64_t> shape, broadcastShapes(name, a->shape(), b->shape()));
        return ir::compute("T_" + name, shape, [&](const std::vector<Expr>& i) {
            return combine(ir::load(a, broadcastIndex(a, shape, i)), ir::load(b, broadcastIndex(b, shape, i)));
        });
    }

    Expected<Tensor> unary(const std::string& name, const Tensor& x, const std::function<Expr(Expr)>& f)
    {
        if (!x)
            return shapeError(name, "missing operand");
        return ir::compute("T_" + name, x->shape(), [&](const std::vector<Expr>& i) { return f(ir::load(x, i)); });
    }
} // namespace

Expected<Tensor> add(const Tensor& a, const Tensor& b)
{
    return broadcastBinary("add", a, b, [](Expr x, Expr y) { return x + y; });
}

Expected<Tensor> multiply(const Tensor& a, const Tensor& b)
{
    return broadcastBinary("multiply", a, b, [](Expr x, Expr y) { return x * y; });
}

Expected<Tensor> scale(const Tensor& x, double value)
{
    return unary("multiply", x, [value](Expr v) { return v * ir::floatImm(value); });
}

Expected<Tensor> biasAdd(const Tensor& x, const Tensor& bias, int axis)
{
    if (!x || !bias)
        return shapeError("bias_add", "missing operand");
    const int rank = static_cast<int>(x->shape().size());
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        return shapeError("bias_add", "axis out of range for shape " + shapeText(x->shape()));
    if (bias->shape() != std::vector<int64_t> { x->shape()[static_cast<size_t>(axis)] })
        return shapeError("bias_add",
            "bias shape " + shapeText(bias->shape()) + " does not match axis " + std::to_string(axis) + " of "
                + shapeText(x->shape()));
    return ir::compute("T_add", x->shape(),
        [&](const std::vector<Expr>& i) { return ir::load(x, i) + ir::load(bias, { i[static_cast<size_t>(axis)] }); });
}

Expected<Tensor> relu(const Tensor& x)
{
    return unary("relu", x, [](Expr v) { return ir::max(v, ir::floatImm(0.0)); });
}

Expected<Tensor> clip(const Tensor& x, double lo, double hi)
{
    if (!(lo <= hi))
        return shapeError("clip", "lower bound exceeds upper bound");
    return unary("clip", x, [lo, hi](Expr v) { return ir::min(ir::max(v, ir::floatImm(lo)), ir::floatImm(hi)); });
}

Expected<Tensor> gelu(const Tensor& x)
{
    return unary("gelu", x, [](Expr v) {
        return v * ir::floatImm(0.5) * (ir::floatImm(1.0) + ir::erf(v * ir::floatImm(1.0 / std::sqrt(2.0))));
    });
}

} // namespace ts::ops
