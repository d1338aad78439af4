// Convolutions: explicit padding stage, conv2d (NCHW / NHWC, stride, dilation, groups), depthwise conv2d.
//
// Padding is a separate compute op ("pad"), as in TVM's topi, so schedules can inline it or not. It is
// omitted when every pad is zero. Weight layouts: OIHW ([out, in/groups, kh, kw]) for NCHW, HWIO
// ([kh, kw, in/groups, out]) for NHWC; depthwise weights are [C, multiplier, kh, kw] / [kh, kw, C, multiplier].
#pragma once

#include "core/ir/operation.h"
#include "core/support/error.h"

#include <array>

namespace ts::ops {

enum class Layout { NCHW, NHWC };
std::string_view toString(Layout layout);
// "NCHW" or "NHWC" (either case); an error names the text.
Expected<Layout> layoutFromString(std::string_view text);

struct Conv2dParams {
    Layout layout = Layout::NCHW;
    std::array<int64_t, 2> stride { 1, 1 };
    std::array<int64_t, 4> padding { 0, 0, 0, 0 }; // top, left, bottom, right
    std::array<int64_t, 2> dilation { 1, 1 };
    int64_t groups = 1;

    static std::array<int64_t, 4> symmetric(int64_t ph, int64_t pw) { return { ph, pw, ph, pw }; }
};

// Pads each dimension with `before[d]` and `after[d]` elements of value `padValue`.
Expected<ir::Tensor> pad(const ir::Tensor& x, const std::vector<int64_t>& before, const std::vector<int64_t>& after,
    double padValue = 0.0, const std::string& name = "pad_temp");
// Pads H and W of a 4-D tensor in `layout` by {top, left, bottom, right}.
Expected<ir::Tensor> padSpatial(const ir::Tensor& x, Layout layout, const std::array<int64_t, 4>& padding,
    double padValue, const std::string& name);
Expected<ir::Tensor> conv2d(const ir::Tensor& data, const ir::Tensor& weight, const Conv2dParams& params);
Expected<ir::Tensor> depthwiseConv2d(const ir::Tensor& data, const ir::Tensor& weight, const Conv2dParams& params);

// The NCHW[x]c convolutions of TVM's x86 AutoTVM templates (topi nn.conv2d_NCHWc and x86
// depthwise_conv2d_NCHWc), on data and weights already blocked: data [n, C/icBn, h, w, icBn]; weight
// [O/ocBn, C/icBn, kh, kw, icBn, ocBn] (conv2dNchwc) or [C/ocBn, 1, kh, kw, 1, ocBn] (depthwise, multiplier 1);
// output [n, O/ocBn, oh, ow, ocBn]. `params.layout` is not read; the padding is a stage on the 5-D data
// ("data_pad" / "PaddedInput"). TVM's conv reduces over one axis ic of C and indexes ic / icBn and ic % icBn;
// ours reduces over (ic_chunk, ic_block) directly, the two loops TVM's schedule splits ic into.
Expected<ir::Tensor> conv2dNchwc(const ir::Tensor& data, const ir::Tensor& weight, const Conv2dParams& params);
Expected<ir::Tensor> depthwiseConv2dNchwc(const ir::Tensor& data, const ir::Tensor& weight, const Conv2dParams& params);

// Output extent of a sliding window: (in + padTotal - dilation*(kernel-1) - 1) / stride + 1, or an error
// naming `op` when the window does not fit.
Expected<int64_t> windowOutput(const std::string& op, const char* dim, int64_t in, int64_t padTotal, int64_t kernel,
    int64_t stride, int64_t dilation);

} // namespace ts::ops
