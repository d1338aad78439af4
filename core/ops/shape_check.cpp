#include "core/ops/shape_check.h"

#include "core/support/strings.h"

namespace ts::ops {

std::string shapeText(const std::vector<int64_t>& shape) { return "[" + join(shape, ", ") + "]"; }

Error shapeError(const std::string& op, const std::string& message)
{
    return makeError(ErrorKind::InvalidArgument, op + ": " + message);
}

Expected<void> expectRank(const std::string& op, const std::string& argument, const ir::Tensor& t, size_t rank)
{
    if (!t)
        return shapeError(op, argument + " is missing");
    if (t->shape().size() != rank)
        return shapeError(
            op, argument + " must have rank " + std::to_string(rank) + ", got shape " + shapeText(t->shape()));
    return {};
}

Expected<std::vector<int64_t>> broadcastShapes(
    const std::string& op, const std::vector<int64_t>& a, const std::vector<int64_t>& b)
{
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> out(rank, 1);
    for (size_t k = 0; k < rank; ++k) {
        const int64_t da = k < rank - a.size() ? 1 : a[k - (rank - a.size())];
        const int64_t db = k < rank - b.size() ? 1 : b[k - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            return shapeError(op, "shapes " + shapeText(a) + " and " + shapeText(b) + " do not broadcast");
        out[k] = std::max(da, db);
    }
    return out;
}

std::vector<ir::Expr> broadcastIndex(
    const ir::Tensor& t, const std::vector<int64_t>& outShape, const std::vector<ir::Expr>& outIndex)
{
    const auto& shape = t->shape();
    const size_t offset = outIndex.size() - shape.size();
    std::vector<ir::Expr> index;
    for (size_t k = 0; k < shape.size(); ++k)
        index.push_back(shape[k] == 1 && outShape[offset + k] != 1 ? ir::Expr(0) : outIndex[offset + k]);
    return index;
}

} // namespace ts::ops
