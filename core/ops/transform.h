// Reductions and data-movement operators the model importers need beyond the built-in networks' set:
// mean over axes (topi.mean: a sum, then a division by the count), strided slicing (topi.strided_slice) and
// take (topi.take: a gather whose indices are a run-time tensor, as embedding lookups need).
// Shapes and attributes are checked first; errors name the operator and the shapes.
#pragma once

#include "core/ir/operation.h"
#include "core/support/error.h"

#include <string_view>
#include <vector>

namespace ts::ops {

// Reductions over axes, as ONNX's Reduce* operators define them: Sum, Mean (sum / count), Max, Min, SumSquare
// (sum of x*x), L1 (sum of |x|), L2 (sqrt of the sum of squares), LogSum (log of the sum), LogSumExp (log of
// the sum of exp(x)). Each is one reduction (tag "comm_reduce") and, where the operator needs one, an
// element-wise step after it.
enum class ReduceOp { Sum, Mean, Max, Min, SumSquare, L1, L2, LogSum, LogSumExp };
std::string_view toString(ReduceOp op);

// Reduces x over `axes` (negative counts from the end; each at most once). keepDims keeps them as extent 1; a
// reduction over every axis without keepDims gives shape [1].
Expected<ir::Tensor> reduce(const ir::Tensor& x, ReduceOp op, std::vector<int> axes, bool keepDims);
inline Expected<ir::Tensor> mean(const ir::Tensor& x, std::vector<int> axes, bool keepDims)
{
    return reduce(x, ReduceOp::Mean, std::move(axes), keepDims);
}

// x[begin:end:step] on every axis (already normalised: 0 <= begin, end <= extent for step > 0; for step < 0,
// -1 <= end < begin < extent). The result's extent is ceil((end - begin) / step), at least 1.
Expected<ir::Tensor> stridedSlice(const ir::Tensor& x, const std::vector<int64_t>& begin,
    const std::vector<int64_t>& end, const std::vector<int64_t>& step);

// Elements of `data` along `axis` picked by the run-time values of `indices` (ONNX Gather, topi.take): the result's
// shape is data.shape[:axis] + indices.shape + data.shape[axis+1:]. Indices are float32 values that are whole
// numbers (TuneScope computes in float32; integers are exact up to 2^24, the most entries `axis` may have). A
// fraction is truncated toward zero, as a cast to int64 does; an index below 0 counts from the end (ONNX's
// negative indices); what is still outside [0, extent) is clamped to the nearest end (topi's mode "clip"), so no
// index reads outside `data`. The index is data dependent: the compute loads it, converts it to an integer and
// clamps it, so bound inference sees the whole axis of `data` as read.
Expected<ir::Tensor> take(const ir::Tensor& data, const ir::Tensor& indices, int axis);

} // namespace ts::ops
