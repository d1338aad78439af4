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

    Expected<Tensor> elementwise(const std::string& name, const Tensor& x, const std::function<Expr(Expr)>& f)
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
    return elementwise("multiply", x, [value](Expr v) { return v * ir::floatImm(value); });
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
    return elementwise("relu", x, [](Expr v) { return ir::max(v, ir::floatImm(0.0)); });
}

Expected<Tensor> clip(const Tensor& x, double lo, double hi)
{
    if (!(lo <= hi))
        return shapeError("clip", "lower bound exceeds upper bound");
    return elementwise("clip", x, [lo, hi](Expr v) { return ir::min(ir::max(v, ir::floatImm(lo)), ir::floatImm(hi)); });
}

Expected<Tensor> gelu(const Tensor& x)
{
    return elementwise("gelu", x, [](Expr v) {
        return v * ir::floatImm(0.5) * (ir::floatImm(1.0) + ir::erf(v * ir::floatImm(1.0 / std::sqrt(2.0))));
    });
}

Expected<Tensor> subtract(const Tensor& a, const Tensor& b)
{
    return broadcastBinary("subtract", a, b, [](Expr x, Expr y) { return x - y; });
}

Expected<Tensor> divide(const Tensor& a, const Tensor& b)
{
    return broadcastBinary("divide", a, b, [](Expr x, Expr y) { return x / y; });
}

Expected<Tensor> power(const Tensor& a, const Tensor& b)
{
    return broadcastBinary("power", a, b, [](Expr x, Expr y) { return ir::call(ir::CallOp::Pow, { x, y }); });
}

Expected<Tensor> maximum(const Tensor& a, const Tensor& b)
{
    return broadcastBinary("maximum", a, b, [](Expr x, Expr y) { return ir::max(x, y); });
}

Expected<Tensor> minimum(const Tensor& a, const Tensor& b)
{
    return broadcastBinary("minimum", a, b, [](Expr x, Expr y) { return ir::min(x, y); });
}

std::string_view toString(UnaryOp op)
{
    switch (op) {
    case UnaryOp::Sigmoid:
        return "sigmoid";
    case UnaryOp::Sqrt:
        return "sqrt";
    case UnaryOp::Exp:
        return "exp";
    case UnaryOp::Log:
        return "log";
    case UnaryOp::Tanh:
        return "tanh";
    case UnaryOp::Erf:
        return "erf";
    case UnaryOp::Abs:
        return "abs";
    case UnaryOp::Negative:
        return "negative";
    case UnaryOp::Reciprocal:
        return "reciprocal";
    case UnaryOp::HardSigmoid:
        return "hard_sigmoid";
    case UnaryOp::HardSwish:
        return "hard_swish";
    case UnaryOp::LeakyRelu:
        return "leaky_relu";
    }
    return "?";
}

Expected<Tensor> unary(const Tensor& x, UnaryOp op, double alpha, double beta)
{
    auto hardSigmoid = [](Expr v, double a, double b) {
        return ir::max(ir::floatImm(0.0), ir::min(ir::floatImm(1.0), v * ir::floatImm(a) + ir::floatImm(b)));
    };
    auto body = [&](Expr v) -> Expr {
        switch (op) {
        case UnaryOp::Sigmoid:
            return ir::sigmoid(v);
        case UnaryOp::Sqrt:
            return ir::sqrt(v);
        case UnaryOp::Exp:
            return ir::exp(v);
        case UnaryOp::Log:
            return ir::log(v);
        case UnaryOp::Tanh:
            return ir::tanh(v);
        case UnaryOp::Erf:
            return ir::erf(v);
        case UnaryOp::Abs:
            return ir::call(ir::CallOp::Abs, { v });
        case UnaryOp::Negative:
            return ir::floatImm(0.0) - v;
        case UnaryOp::Reciprocal:
            return ir::floatImm(1.0) / v;
        case UnaryOp::HardSigmoid:
            return hardSigmoid(v, alpha, beta);
        case UnaryOp::HardSwish:
            return v * hardSigmoid(v, 1.0 / 6.0, 0.5);
        case UnaryOp::LeakyRelu:
            return ir::select(v < ir::floatImm(0.0), v * ir::floatImm(alpha), v);
        }
        return v;
    };
    return elementwise(std::string(toString(op)), x, body);
}

} // namespace ts::ops
