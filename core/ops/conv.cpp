#include "core/ops/conv.h"

#include "core/ops/shape_check.h"

namespace ts::ops {

using ir::Expr;
using ir::Tensor;

namespace {
    // base * stride + offset * dilation, without multiplications by one.
    Expr windowIndex(const Expr& base, int64_t stride, const Expr& offset, int64_t dilation)
    {
        Expr a = stride == 1 ? base : base * Expr(stride);
        Expr b = dilation == 1 ? offset : offset * Expr(dilation);
        return a + b;
    }
} // namespace

std::string_view toString(Layout layout) { return layout == Layout::NCHW ? "NCHW" : "NHWC"; }

Expected<Layout> layoutFromString(std::string_view text)
{
    if (text == "NCHW" || text == "nchw")
        return Layout::NCHW;
    if (text == "NHWC" || text == "nhwc")
        return Layout::NHWC;
    return makeError(ErrorKind::InvalidArgument, "the layout must be NCHW or NHWC, got '" + std::string(text) + "'");
}

Expected<int64_t> windowOutput(const std::string& op, const char* dim, int64_t in, int64_t padTotal, int64_t kernel,
    int64_t stride, int64_t dilation)
{
    if (kernel < 1 || stride < 1 || dilation < 1)
        return shapeError(op, std::string("kernel, stride and dilation along ") + dim + " must be >= 1");
    const int64_t span = dilation * (kernel - 1) + 1;
    if (in + padTotal < span)
        return shapeError(op,
            std::string("window of ") + std::to_string(span) + " along " + dim + " does not fit the padded input of "
                + std::to_string(in + padTotal));
    return (in + padTotal - span) / stride + 1;
}

Expected<Tensor> pad(const Tensor& x, const std::vector<int64_t>& before, const std::vector<int64_t>& after,
    double padValue, const std::string& name)
{
    if (!x)
        return shapeError("pad", "missing operand");
    const size_t rank = x->shape().size();
    if (before.size() != rank || after.size() != rank)
        return shapeError("pad", "padding needs one value per dimension of " + shapeText(x->shape()));
    bool any = false;
    std::vector<int64_t> shape = x->shape();
    for (size_t d = 0; d < rank; ++d) {
        if (before[d] < 0 || after[d] < 0)
            return shapeError("pad", "negative padding");
        any |= before[d] || after[d];
        shape[d] += before[d] + after[d];
    }
    if (!any)
        return x;
    ir::setNextAxisNames({ "i0", "i1", "i2", "i3", "i4", "i5" });
    return ir::compute(
        name, shape,
        [&](const std::vector<Expr>& i) {
            Expr inside;
            std::vector<Expr> source;
            for (size_t d = 0; d < rank; ++d) {
                if (before[d] == 0 && after[d] == 0) {
                    source.push_back(i[d]);
                    continue;
                }
                Expr cond = i[d] >= Expr(before[d]) && i[d] < Expr(before[d] + x->shape()[d]);
                inside = inside.defined() ? (inside && cond) : cond;
                source.push_back(before[d] ? i[d] - Expr(before[d]) : i[d]);
            }
            return ir::select(inside, ir::load(x, source), ir::floatImm(padValue));
        },
        "pad");
}

Expected<Tensor> padSpatial(
    const Tensor& x, Layout layout, const std::array<int64_t, 4>& padding, double padValue, const std::string& name)
{
    const bool nchw = layout == Layout::NCHW;
    const std::vector<int64_t> before = nchw ? std::vector<int64_t> { 0, 0, padding[0], padding[1] }
                                             : std::vector<int64_t> { 0, padding[0], padding[1], 0 };
    const std::vector<int64_t> after = nchw ? std::vector<int64_t> { 0, 0, padding[2], padding[3] }
                                            : std::vector<int64_t> { 0, padding[2], padding[3], 0 };
    return pad(x, before, after, padValue, name);
}

Expected<Tensor> conv2d(const Tensor& data, const Tensor& weight, const Conv2dParams& p)
{
    const std::string op = p.layout == Layout::NCHW ? "conv2d_nchw" : "conv2d_nhwc";
    TS_CHECK(expectRank(op, "data", data, 4));
    TS_CHECK(expectRank(op, "weight", weight, 4));
    const auto& ds = data->shape();
    const auto& ws = weight->shape();
    const bool nchw = p.layout == Layout::NCHW;
    const int64_t n = ds[0], c = nchw ? ds[1] : ds[3], h = nchw ? ds[2] : ds[1], w = nchw ? ds[3] : ds[2];
    const int64_t o = nchw ? ws[0] : ws[3], ci = nchw ? ws[1] : ws[2];
    const int64_t kh = nchw ? ws[2] : ws[0], kw = nchw ? ws[3] : ws[1];
    if (p.groups < 1 || c % p.groups || o % p.groups)
        return shapeError(op,
            "groups " + std::to_string(p.groups) + " must divide input channels " + std::to_string(c)
                + " and output channels " + std::to_string(o));
    if (ci != c / p.groups)
        return shapeError(op,
            "weight " + shapeText(ws) + " expects " + std::to_string(ci * p.groups) + " input channels, data "
                + shapeText(ds) + " has " + std::to_string(c));
    for (int64_t v : p.padding)
        if (v < 0)
            return shapeError(op, "negative padding");
    TS_TRY(int64_t oh, windowOutput(op, "height", h, p.padding[0] + p.padding[2], kh, p.stride[0], p.dilation[0]));
    TS_TRY(int64_t ow, windowOutput(op, "width", w, p.padding[1] + p.padding[3], kw, p.stride[1], p.dilation[1]));

    TS_TRY(Tensor padded, padSpatial(data, p.layout, p.padding, 0.0, nchw ? "pad_temp" : "PaddedInput"));

    const int64_t outPerGroup = o / p.groups;
    auto inputChannel = [&](const Expr& outChannel, const Expr& rc) -> Expr {
        if (p.groups == 1)
            return rc;
        return outChannel / Expr(outPerGroup) * Expr(ci) + rc;
    };
    auto y = [&](const Expr& oy, const Expr& ry) { return windowIndex(oy, p.stride[0], ry, p.dilation[0]); };
    auto x = [&](const Expr& ox, const Expr& rx) { return windowIndex(ox, p.stride[1], rx, p.dilation[1]); };

    if (nchw) {
        ir::setNextAxisNames({ "nn", "ff", "yy", "xx" }, { "rc", "ry", "rx" });
        return ir::computeReduce(
            "conv2d_nchw", { n, o, oh, ow }, { ci, kh, kw }, ir::Reducer::Sum,
            [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
                return ir::load(padded, { i[0], inputChannel(i[1], r[0]), y(i[2], r[1]), x(i[3], r[2]) })
                    * ir::load(weight, { i[1], r[0], r[1], r[2] });
            },
            p.groups == 1 ? "conv2d_nchw" : "group_conv2d_nchw");
    }
    ir::setNextAxisNames({ "nn", "yy", "xx", "ff" }, { "ry", "rx", "rc" });
    return ir::computeReduce(
        "Conv2dOutput", { n, oh, ow, o }, { kh, kw, ci }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(padded, { i[0], y(i[1], r[0]), x(i[2], r[1]), inputChannel(i[3], r[2]) })
                * ir::load(weight, { r[0], r[1], r[2], i[3] });
        },
        p.groups == 1 ? "conv2d_nhwc" : "group_conv2d_nhwc");
}

Expected<Tensor> depthwiseConv2d(const Tensor& data, const Tensor& weight, const Conv2dParams& p)
{
    const bool nchw = p.layout == Layout::NCHW;
    const std::string op = nchw ? "depthwise_conv2d_nchw" : "depthwise_conv2d_nhwc";
    TS_CHECK(expectRank(op, "data", data, 4));
    TS_CHECK(expectRank(op, "weight", weight, 4));
    const auto& ds = data->shape();
    const auto& ws = weight->shape();
    const int64_t n = ds[0], c = nchw ? ds[1] : ds[3], h = nchw ? ds[2] : ds[1], w = nchw ? ds[3] : ds[2];
    const int64_t wc = nchw ? ws[0] : ws[2], m = nchw ? ws[1] : ws[3];
    const int64_t kh = nchw ? ws[2] : ws[0], kw = nchw ? ws[3] : ws[1];
    if (wc != c)
        return shapeError(op,
            "weight " + shapeText(ws) + " has " + std::to_string(wc) + " channels, data " + shapeText(ds) + " has "
                + std::to_string(c));
    TS_TRY(int64_t oh, windowOutput(op, "height", h, p.padding[0] + p.padding[2], kh, p.stride[0], p.dilation[0]));
    TS_TRY(int64_t ow, windowOutput(op, "width", w, p.padding[1] + p.padding[3], kw, p.stride[1], p.dilation[1]));
    TS_TRY(Tensor padded, padSpatial(data, p.layout, p.padding, 0.0, "PaddedInput"));
    auto channel = [&](const Expr& oc) { return m == 1 ? oc : oc / Expr(m); };
    auto multiplier = [&](const Expr& oc) { return m == 1 ? Expr(0) : oc % Expr(m); };
    auto y = [&](const Expr& oy, const Expr& ry) { return windowIndex(oy, p.stride[0], ry, p.dilation[0]); };
    auto x = [&](const Expr& ox, const Expr& rx) { return windowIndex(ox, p.stride[1], rx, p.dilation[1]); };
    if (nchw) {
        ir::setNextAxisNames({ "b", "c", "i", "j" }, { "di", "dj" });
        return ir::computeReduce(
            "DepthwiseConv2d", { n, c * m, oh, ow }, { kh, kw }, ir::Reducer::Sum,
            [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
                return ir::load(padded, { i[0], channel(i[1]), y(i[2], r[0]), x(i[3], r[1]) })
                    * ir::load(weight, { channel(i[1]), multiplier(i[1]), r[0], r[1] });
            },
            "depthwise_conv2d_nchw");
    }
    ir::setNextAxisNames({ "b", "i", "j", "c" }, { "di", "dj" });
    return ir::computeReduce(
        "DepthwiseConv2d", { n, oh, ow, c * m }, { kh, kw }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(padded, { i[0], y(i[1], r[0]), x(i[2], r[1]), channel(i[3]) })
                * ir::load(weight, { r[0], r[1], channel(i[3]), multiplier(i[3]) });
        },
        "depthwise_conv2d_nhwc");
}

} // namespace ts::ops
