// Element-wise operators. Binary ones broadcast numpy-style; each is one compute op tagged "elemwise",
// which is what fusion and Ansor's inlining rules look for.
#pragma once

#include "core/ir/operation.h"
#include "core/support/error.h"

namespace ts::ops {

Expected<ir::Tensor> add(const ir::Tensor& a, const ir::Tensor& b);
Expected<ir::Tensor> multiply(const ir::Tensor& a, const ir::Tensor& b);
// x * value (e.g. attention's 1/sqrt(d)).
Expected<ir::Tensor> scale(const ir::Tensor& x, double value);
// x + bias along `axis` (bias is 1-D with x.shape[axis] elements). Negative axis counts from the end.
Expected<ir::Tensor> biasAdd(const ir::Tensor& x, const ir::Tensor& bias, int axis);
Expected<ir::Tensor> relu(const ir::Tensor& x);
// min(max(x, lo), hi); relu6 is clip(x, 0, 6).
Expected<ir::Tensor> clip(const ir::Tensor& x, double lo, double hi);
// x * 0.5 * (1 + erf(x / sqrt(2))), the exact GELU.
Expected<ir::Tensor> gelu(const ir::Tensor& x);

// The rest of topi's element-wise operators that model importers need (ONNX Sub, Div, Pow, Max, Min,
// Sigmoid, ...), with the same broadcasting and one compute op each.
Expected<ir::Tensor> subtract(const ir::Tensor& a, const ir::Tensor& b);
Expected<ir::Tensor> divide(const ir::Tensor& a, const ir::Tensor& b);
Expected<ir::Tensor> power(const ir::Tensor& a, const ir::Tensor& b);
Expected<ir::Tensor> maximum(const ir::Tensor& a, const ir::Tensor& b);
Expected<ir::Tensor> minimum(const ir::Tensor& a, const ir::Tensor& b);

enum class UnaryOp { Sigmoid, Sqrt, Exp, Log, Tanh, Erf, Abs, Negative, Reciprocal, HardSigmoid, HardSwish, LeakyRelu };
std::string_view toString(UnaryOp op);
// One element-wise function; HardSigmoid is max(0, min(1, alpha*x + beta)), HardSwish x*HardSigmoid(x) with
// alpha 1/6 and beta 0.5, LeakyRelu x < 0 ? alpha*x : x.
Expected<ir::Tensor> unary(const ir::Tensor& x, UnaryOp op, double alpha = 0.0, double beta = 0.0);

} // namespace ts::ops
