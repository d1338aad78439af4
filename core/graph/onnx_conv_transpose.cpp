// ONNX ConvTranspose (opsets 1 and 11) onto a ConvTranspose2d node and a bias_add: 2-D (NCHW) only, the weight
// [C, M / group, kh, kw] and the bias constants. The padding follows the operator's definition: `pads`, or
// with auto_pad SAME_* or output_shape the total padding
//   stride * (in - 1) + output_padding + dilation * (kernel - 1) + 1 - out
// split between the two ends (the larger half at the end for SAME_UPPER, at the beginning otherwise), with
// out = in * stride for SAME_*. A negative total (an output_shape beyond the full output) widens the output by
// zeros, as ONNX's reference implementation computes it.
#include "core/graph/onnx_ops.h"

#include <array>

namespace ts::graph::onnx_ops {

namespace {
    // Python's floor division by 2, which ONNX's formulas use on totals that can be negative.
    int64_t halfDown(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }
} // namespace

Expected<void> convertConvTranspose(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    if (x.size() != 4)
        return c.unsupported("",
            "a transposed convolution on a " + std::to_string(x.size()) + "-D input " + text(x)
                + "; only 2-D (NCHW) is supported");
    const HostTensor* w = c.constantInput(1);
    if (!w)
        return c.unsupported("W", "the weight must be an initializer (a constant)");
    if (w->shape.size() != 4)
        return c.unsupported("W", "weight " + text(w->shape) + ": only 2-D transposed convolutions are supported");
    const int64_t group = c.intAttribute("group", 1);
    if (group < 1 || w->shape[0] != x[1] || x[1] % group != 0)
        return c.invalid("weight " + text(w->shape) + " ([C, M / group, kh, kw]) does not fit input " + text(x)
            + " with group " + std::to_string(group));
    const std::array<int64_t, 2> kernel { w->shape[2], w->shape[3] };
    const std::vector<int64_t> kernelAttr = c.intsAttribute("kernel_shape");
    if (!kernelAttr.empty() && kernelAttr != std::vector<int64_t> { kernel[0], kernel[1] })
        return c.invalid("kernel_shape " + text(kernelAttr) + " differs from the weight's " + text(w->shape));
    TS_TRY(const auto stride, pairAttribute(c, "strides", { 1, 1 }));
    TS_TRY(const auto dilation, pairAttribute(c, "dilations", { 1, 1 }));
    std::array<int64_t, 2> outputPadding { 0, 0 };
    if (const std::vector<int64_t> v = c.intsAttribute("output_padding"); !v.empty()) {
        if (v.size() != 2)
            return c.unsupported(
                "output_padding", "has " + std::to_string(v.size()) + " values; 2-D transposed convolutions need 2");
        if (v[0] < 0 || v[1] < 0)
            return c.invalid("output_padding must not be negative, got " + text(v));
        outputPadding = { v[0], v[1] };
    }

    const std::string autoPad = c.stringAttribute("auto_pad", "NOTSET");
    if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
        return c.unsupported("auto_pad", "unknown value '" + autoPad + "'");
    std::vector<int64_t> outputShape = c.intsAttribute("output_shape");
    if (!outputShape.empty()) {
        if (outputShape.size() == 4) // N, C, H, W
            outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
        if (outputShape.size() != 2)
            return c.unsupported("output_shape",
                text(c.intsAttribute("output_shape")) + " is not a 2-D output shape (H, W or N, C, H, W)");
        if (outputShape[0] < 1 || outputShape[1] < 1)
            return c.invalid("output_shape must be positive, got " + text(outputShape));
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")
        outputShape = { x[2] * stride[0], x[3] * stride[1] };

    std::array<int64_t, 4> padding {}; // top, left, bottom, right
    if (!outputShape.empty()) {
        for (size_t d = 0; d < 2; ++d) {
            const int64_t total
                = stride[d] * (x[2 + d] - 1) + outputPadding[d] + dilation[d] * (kernel[d] - 1) + 1 - outputShape[d];
            const int64_t small = halfDown(total);
            padding[d] = autoPad == "SAME_UPPER" ? small : total - small;
            padding[d + 2] = total - padding[d];
        }
    } else if (autoPad == "NOTSET") {
        TS_TRY(padding, explicitPads(c));
    }

    const int64_t outChannels = w->shape[1] * group;
    Node node = make(NodeKind::ConvTranspose2d);
    node.conv.layout = ops::Layout::NCHW;
    node.conv.stride = stride;
    node.conv.dilation = dilation;
    node.conv.padding = padding;
    node.conv.groups = group;
    node.outputPadding = outputPadding;
    node.weightShape = w->shape;
    node.params = { sharedBuffer(*w) };
    TS_TRY(Value out, c.emit(std::move(node), { 0 }));
    if (c.hasInput(2)) {
        const HostTensor* b = c.constantInput(2);
        if (!b || b->size() != outChannels)
            return c.unsupported("B", "the bias must be a constant of " + std::to_string(outChannels) + " values");
        Node add = make(NodeKind::BiasAdd);
        add.axis = 1;
        HostTensor bias = *b;
        bias.shape = { outChannels };
        add.params = { sharedBuffer(bias) };
        TS_TRY(out, c.emitOver(std::move(add), { out }));
    }
    c.setOutput(0, std::move(out));
    return {};
}

} // namespace ts::graph::onnx_ops
