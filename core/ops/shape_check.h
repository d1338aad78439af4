// Shared validation for operator builders: each builder checks its shapes and attributes first and
// returns an InvalidArgument error that names the operator, the argument and both shapes.
#pragma once

#include "core/ir/operation.h"
#include "core/support/error.h"

#include <string>
#include <vector>

namespace ts::ops {

std::string shapeText(const std::vector<int64_t>& shape);
Error shapeError(const std::string& op, const std::string& message);
// Checks rank; returns an error naming op and argument on mismatch.
Expected<void> expectRank(const std::string& op, const std::string& argument, const ir::Tensor& t, size_t rank);
// Numpy-style broadcast of two shapes (right-aligned, equal or 1).
Expected<std::vector<int64_t>> broadcastShapes(
    const std::string& op, const std::vector<int64_t>& a, const std::vector<int64_t>& b);
// Index into `t` (possibly of lower rank, broadcast) for output indices `outIndex` of an output of shape
// `outShape`: dimensions where t has extent 1 and the output does not read element 0.
std::vector<ir::Expr> broadcastIndex(
    const ir::Tensor& t, const std::vector<int64_t>& outShape, const std::vector<ir::Expr>& outIndex);

} // namespace ts::ops
