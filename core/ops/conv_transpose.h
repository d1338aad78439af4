// Transposed 2-D convolution (the data gradient of conv2d, "deconvolution"), NCHW, as TVM's topi builds
// conv2d_transpose_nchw and group_conv2d_transpose_nchw: the data is dilated by the stride (stride - 1 zeros
// between neighbours, stage "data_dilate", omitted for stride 1), padded by dilation * (kernel - 1) - pad on
// each side and by output_padding more at the bottom and right (stage "data_pad", omitted when zero), and
// convolved with the kernel flipped in H and W and its channel axes swapped (read in place by the reduction,
// where topi writes a separate kernel_transform stage).
//
// Weights are IOHW ([in_channels, out_channels / groups, kh, kw]) as in ONNX and PyTorch. Unlike topi, the
// kernel may be dilated. Output extent per spatial axis:
//   (in - 1) * stride + dilation * (kernel - 1) + 1 - padBefore - padAfter + outputPadding.
// A negative pad widens the output by zero rows or columns (ONNX computes such pads from output_shape); a pad
// larger than dilation * (kernel - 1) crops the output, which the reduction reads at an offset.
#pragma once

#include "core/ir/operation.h"
#include "core/ops/conv.h"
#include "core/support/error.h"

#include <array>

namespace ts::ops {

// Reads params.stride, params.padding {top, left, bottom, right}, params.dilation and params.groups; the
// layout must be NCHW. outputPadding {h, w} adds rows at the bottom and columns at the right.
Expected<ir::Tensor> conv2dTransposeNchw(const ir::Tensor& data, const ir::Tensor& weight, const Conv2dParams& params,
    const std::array<int64_t, 2>& outputPadding);

// Output extent of a transposed window, or an error naming `op` when it is not positive.
Expected<int64_t> transposedWindowOutput(const std::string& op, const char* dim, int64_t in, int64_t padTotal,
    int64_t kernel, int64_t stride, int64_t dilation, int64_t outputPadding);

} // namespace ts::ops
