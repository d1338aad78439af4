// Matrix products: matmul, dense (a fully connected layer), batch_matmul.
#pragma once

#include "core/ir/operation.h"
#include "core/support/error.h"

#include <vector>

namespace ts::ops {

// C[i, j] = sum_k A[i, k] * B[k, j]; A is [M, K], B is [K, N].
Expected<ir::Tensor> matmul(const ir::Tensor& a, const ir::Tensor& b, const std::string& name = "matmul");
// Y[i, j] = sum_k X[i, k] * W[j, k]; X is [N, K], W is [O, K] (TVM/TensorFlow weight layout).
Expected<ir::Tensor> dense(const ir::Tensor& x, const ir::Tensor& w);
// dense on a weight packed as TVM's dense_pack.x86 packs it: [N / bn, K, bn] (T_dense[y, x] = sum_k data[y, k] *
// packed[x / bn, k, x % bn]), tagged "dense" as dense is.
Expected<ir::Tensor> densePacked(const ir::Tensor& x, const ir::Tensor& packed);
// C[b, i, j] = sum_k A[b, i, k] * B[b, k, j], or B[b, j, k] with transposeB (TVM's default).
Expected<ir::Tensor> batchMatmul(const ir::Tensor& a, const ir::Tensor& b, bool transposeB = true);
// TVM's auto_scheduler tutorial workload "matmul_add" (N, L, M): A [N, L], B [L, M], C [N, M],
// matmul = A x B (reduce axis k), out = matmul + C. Returns {A, B, C, out}; its DAG's stage order is
// A, B, matmul, C, out, as in TVM, so records of that workload replay here.
Expected<std::vector<ir::Tensor>> matmulAdd(int64_t n, int64_t l, int64_t m);

} // namespace ts::ops
