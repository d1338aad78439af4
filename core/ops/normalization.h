// Softmax and layer normalization over the last axis, as multi-stage DAGs (the stages TVM's topi builds).
#pragma once

#include "core/ir/operation.h"
#include "core/support/error.h"

namespace ts::ops {

// Four stages: T_softmax_maxelem (max), T_softmax_exp (exp(x - max)), T_softmax_expsum (sum),
// T_softmax_norm (exp / sum).
Expected<ir::Tensor> softmax(const ir::Tensor& x);
// (x - mean) / sqrt(var + eps) * gamma + beta over the last axis; gamma and beta are 1-D. Three stages:
// T_layer_norm_mean, T_layer_norm_var, T_layer_norm.
Expected<ir::Tensor> layerNorm(const ir::Tensor& x, const ir::Tensor& gamma, const ir::Tensor& beta, double eps = 1e-5);

} // namespace ts::ops
