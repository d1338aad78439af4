// Pooling: max and average pooling over a window, and global average pooling.
#pragma once

#include "core/ops/conv.h"

namespace ts::ops {

struct Pool2dParams {
    Layout layout = Layout::NCHW;
    std::array<int64_t, 2> kernel { 2, 2 };
    std::array<int64_t, 2> stride { 2, 2 };
    std::array<int64_t, 4> padding { 0, 0, 0, 0 }; // top, left, bottom, right
    bool countIncludePad = false; // average pooling only
};

Expected<ir::Tensor> maxPool2d(const ir::Tensor& x, const Pool2dParams& params);
Expected<ir::Tensor> avgPool2d(const ir::Tensor& x, const Pool2dParams& params);
// Mean over H and W, keeping them as extent-1 dimensions ([N, C, 1, 1] or [N, 1, 1, C]).
Expected<ir::Tensor> globalAvgPool2d(const ir::Tensor& x, Layout layout);

} // namespace ts::ops
