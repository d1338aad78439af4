#include "core/ops/transform.h"

#include "core/ops/shape_check.h"

#include <algorithm>
#include <functional>

namespace ts::ops {

using ir::Expr;
using ir::Tensor;

std::string_view toString(ReduceOp op)
{
    switch (op) {
    case ReduceOp::Sum:
        return "sum";
    case ReduceOp::Mean:
        return "mean";
    case ReduceOp::Max:
        return "max";
    case ReduceOp::Min:
        return "min";
    case ReduceOp::SumSquare:
        return "sum_square";
    case ReduceOp::L1:
        return "l1";
    case ReduceOp::L2:
        return "l2";
    case ReduceOp::LogSum:
        return "log_sum";
    case ReduceOp::LogSumExp:
        return "log_sum_exp";
    }
    return "?";
}

Expected<Tensor> reduce(const Tensor& x, ReduceOp op, std::vector<int> axes, bool keepDims)
{
    const std::string name(toString(op));
    if (!x)
        return shapeError(name, "missing operand");
    const int rank = static_cast<int>(x->shape().size());
    std::vector<bool> isReduced(static_cast<size_t>(rank), false);
    for (int& axis : axes) {
        if (axis < 0)
            axis += rank;
        if (axis < 0 || axis >= rank || isReduced[static_cast<size_t>(axis)])
            return shapeError(name, "axis out of range or repeated for shape " + shapeText(x->shape()));
        isReduced[static_cast<size_t>(axis)] = true;
    }
    std::vector<int64_t> shape;
    std::vector<int64_t> reduceExtents;
    int64_t count = 1;
    for (int d = 0; d < rank; ++d) {
        const int64_t extent = x->shape()[static_cast<size_t>(d)];
        if (!isReduced[static_cast<size_t>(d)])
            shape.push_back(extent);
        else {
            reduceExtents.push_back(extent);
            count *= extent;
            if (keepDims)
                shape.push_back(1);
        }
    }
    if (shape.empty())
        shape.push_back(1);
    const ir::Reducer reducer = op == ReduceOp::Max ? ir::Reducer::Max
        : op == ReduceOp::Min                       ? ir::Reducer::Min
                                                    : ir::Reducer::Sum;
    const std::string stage = op == ReduceOp::Mean ? "T_mean_sum" : "T_" + name;
    Tensor reduced = ir::computeReduce(
        stage, shape, reduceExtents, reducer,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            std::vector<Expr> index;
            size_t out = 0;
            size_t red = 0;
            for (int d = 0; d < rank; ++d) {
                if (isReduced[static_cast<size_t>(d)]) {
                    index.push_back(r[red++]);
                    if (keepDims)
                        ++out;
                } else
                    index.push_back(i[out++]);
            }
            Expr v = ir::load(x, index);
            switch (op) {
            case ReduceOp::SumSquare:
            case ReduceOp::L2:
                return v * v;
            case ReduceOp::L1:
                return ir::call(ir::CallOp::Abs, { v });
            case ReduceOp::LogSumExp:
                return ir::exp(v);
            default:
                return v;
            }
        },
        "comm_reduce");
    switch (op) {
    case ReduceOp::Mean:
        return ir::compute("T_divide", shape, [&](const std::vector<Expr>& i) {
            return ir::load(reduced, i) / ir::floatImm(static_cast<double>(count));
        });
    case ReduceOp::L2:
        return ir::compute("T_sqrt", shape, [&](const std::vector<Expr>& i) { return ir::sqrt(ir::load(reduced, i)); });
    case ReduceOp::LogSum:
    case ReduceOp::LogSumExp:
        return ir::compute("T_log", shape, [&](const std::vector<Expr>& i) { return ir::log(ir::load(reduced, i)); });
    default:
        return reduced;
    }
}

Expected<Tensor> stridedSlice(const Tensor& x, const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
    const std::vector<int64_t>& step)
{
    if (!x)
        return shapeError("strided_slice", "missing operand");
    const size_t rank = x->shape().size();
    if (begin.size() != rank || end.size() != rank || step.size() != rank)
        return shapeError("strided_slice", "begin, end and step need one value per axis of " + shapeText(x->shape()));
    std::vector<int64_t> shape;
    for (size_t d = 0; d < rank; ++d) {
        const int64_t extent = x->shape()[d];
        const int64_t s = step[d];
        const bool valid = s > 0 ? (begin[d] >= 0 && begin[d] < end[d] && end[d] <= extent)
                                 : (s < 0 && end[d] >= -1 && end[d] < begin[d] && begin[d] < extent);
        if (!valid)
            return shapeError("strided_slice",
                "axis " + std::to_string(d) + ": [" + std::to_string(begin[d]) + ":" + std::to_string(end[d]) + ":"
                    + std::to_string(s) + "] selects nothing of " + shapeText(x->shape()));
        const int64_t span = s > 0 ? end[d] - begin[d] : begin[d] - end[d];
        const int64_t stride = s > 0 ? s : -s;
        shape.push_back((span + stride - 1) / stride);
    }
    return ir::compute(
        "T_strided_slice", shape,
        [&](const std::vector<Expr>& i) {
            std::vector<Expr> index;
            for (size_t d = 0; d < rank; ++d) {
                Expr e = step[d] == 1 ? i[d] : i[d] * Expr(step[d]);
                index.push_back(begin[d] == 0 ? e : e + Expr(begin[d]));
            }
            return ir::load(x, index);
        },
        "injective");
}

Expected<Tensor> take(const Tensor& data, const Tensor& indices, int axis)
{
    if (!data || !indices)
        return shapeError("take", "missing operand");
    const int rank = static_cast<int>(data->shape().size());
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        return shapeError("take", "axis out of range for data " + shapeText(data->shape()));
    const auto a = static_cast<size_t>(axis);
    const int64_t extent = data->shape()[a];
    if (extent > (int64_t(1) << 24))
        return shapeError("take",
            "axis " + std::to_string(axis) + " of data " + shapeText(data->shape()) + " has " + std::to_string(extent)
                + " entries; float32 indices are exact only up to 2^24 (16777216)");
    const size_t indexRank = indices->shape().size();
    std::vector<int64_t> shape(data->shape().begin(), data->shape().begin() + axis);
    shape.insert(shape.end(), indices->shape().begin(), indices->shape().end());
    shape.insert(shape.end(), data->shape().begin() + axis + 1, data->shape().end());
    return ir::compute(
        "T_take", shape,
        [&](const std::vector<Expr>& i) {
            std::vector<Expr> at(i.begin() + axis, i.begin() + axis + static_cast<std::ptrdiff_t>(indexRank));
            // Bounded as a float first (a huge or infinite value then converts to an integer safely), converted
            // (truncating, as a cast to int64 does), a negative index counted from the end, and clamped: the
            // integer clamp is what bound inference reads.
            const auto n = static_cast<double>(extent);
            Expr value = ir::min(ir::max(ir::load(indices, at), Expr(-n)), Expr(n));
            Expr row = ir::cast(ir::DType::Int64, value);
            row = ir::select(row < Expr(int64_t(0)), row + Expr(extent), row);
            row = ir::min(ir::max(row, Expr(int64_t(0))), Expr(extent - 1));
            std::vector<Expr> source(i.begin(), i.begin() + axis);
            source.push_back(row);
            source.insert(source.end(), i.begin() + axis + static_cast<std::ptrdiff_t>(indexRank), i.end());
            return ir::load(data, source);
        },
        "injective");
}

} // namespace ts::ops
