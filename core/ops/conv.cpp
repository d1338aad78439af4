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

namespace {
    // The 5-D data padded on H and W (axes 2 and 3); the data itself when nothing is padded.
    Expected<Tensor> padBlocked(const Tensor& data, const std::array<int64_t, 4>& padding, const std::string& name)
    {
        return pad(data, { 0, 0, padding[0], padding[1], 0 }, { 0, 0, padding[2], padding[3], 0 }, 0.0, name);
    }
} // namespace

Expected<Tensor> conv2dNchwc(const Tensor& data, const Tensor& weight, const Conv2dParams& p)
{
    const std::string op = "conv2d_NCHWc";
    TS_CHECK(expectRank(op, "data", data, 5));
    TS_CHECK(expectRank(op, "weight", weight, 6));
    const auto& ds = data->shape(); // n, C/icBn, h, w, icBn
    const auto& ws = weight->shape(); // O/ocBn, C/icBn, kh, kw, icBn, ocBn
    const int64_t n = ds[0], icChunk = ds[1], h = ds[2], w = ds[3], icBn = ds[4];
    const int64_t ocChunk = ws[0], kh = ws[2], kw = ws[3], ocBn = ws[5];
    if (ws[1] != icChunk || ws[4] != icBn)
        return shapeError(op,
            "weight " + shapeText(ws) + " blocks the input channels as " + std::to_string(ws[1]) + " x "
                + std::to_string(ws[4]) + ", data " + shapeText(ds) + " as " + std::to_string(icChunk) + " x "
                + std::to_string(icBn));
    if (p.groups != 1)
        return shapeError(op, "groups " + std::to_string(p.groups) + " (only 1 is built)");
    for (int64_t v : p.padding)
        if (v < 0)
            return shapeError(op, "negative padding");
    TS_TRY(int64_t oh, windowOutput(op, "height", h, p.padding[0] + p.padding[2], kh, p.stride[0], p.dilation[0]));
    TS_TRY(int64_t ow, windowOutput(op, "width", w, p.padding[1] + p.padding[3], kw, p.stride[1], p.dilation[1]));
    TS_TRY(Tensor padded, padBlocked(data, p.padding, "data_pad"));
    ir::setNextAxisNames({ "n", "oc_chunk", "oh", "ow", "oc_block" }, { "ic_chunk", "ic_block", "kh", "kw" });
    return ir::computeReduce(
        "conv2d_NCHWc", { n, ocChunk, oh, ow, ocBn }, { icChunk, icBn, kh, kw }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(padded,
                       { i[0], r[0], windowIndex(i[2], p.stride[0], r[2], p.dilation[0]),
                           windowIndex(i[3], p.stride[1], r[3], p.dilation[1]), r[1] })
                * ir::load(weight, { i[1], r[0], r[2], r[3], r[1], i[4] });
        },
        "conv2d_NCHWc");
}

Expected<Tensor> depthwiseConv2dNchwc(const Tensor& data, const Tensor& weight, const Conv2dParams& p)
{
    const std::string op = "depthwise_conv2d_NCHWc";
    TS_CHECK(expectRank(op, "data", data, 5));
    TS_CHECK(expectRank(op, "weight", weight, 6));
    const auto& ds = data->shape(); // n, C/icBn, h, w, icBn
    const auto& ws = weight->shape(); // C/ocBn, 1, kh, kw, 1, ocBn
    const int64_t n = ds[0], h = ds[2], w = ds[3], icBn = ds[4];
    const int64_t ocChunk = ws[0], kh = ws[2], kw = ws[3], ocBn = ws[5];
    if (ws[1] != 1 || ws[4] != 1 || ocChunk * ocBn != ds[1] * icBn)
        return shapeError(op,
            "weight " + shapeText(ws) + " is not [C/ocBn, 1, kh, kw, 1, ocBn] for the " + std::to_string(ds[1] * icBn)
                + " channels of data " + shapeText(ds) + " (a channel multiplier of 1 is built)");
    TS_TRY(int64_t oh, windowOutput(op, "height", h, p.padding[0] + p.padding[2], kh, p.stride[0], p.dilation[0]));
    TS_TRY(int64_t ow, windowOutput(op, "width", w, p.padding[1] + p.padding[3], kw, p.stride[1], p.dilation[1]));
    TS_TRY(Tensor padded, padBlocked(data, p.padding, "PaddedInput"));
    // Output channel c = oco * ocBn + oci reads input channel c, which the data blocks by icBn (TVM's compute
    // with a channel multiplier of 1; when icBn == ocBn the division and remainder fold away).
    auto channel = [&](const Expr& oco, const Expr& oci) {
        return icBn == ocBn
            ? std::pair { oco, oci }
            : std::pair { (oco * Expr(ocBn) + oci) / Expr(icBn), (oco * Expr(ocBn) + oci) % Expr(icBn) };
    };
    ir::setNextAxisNames({ "b", "oco", "oh", "ow", "oci" }, { "kh", "kw" });
    return ir::computeReduce(
        "DepthwiseConv2d", { n, ocChunk, oh, ow, ocBn }, { kh, kw }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            const auto [chunk, block] = channel(i[1], i[4]);
            return ir::load(padded,
                       { i[0], chunk, windowIndex(i[2], p.stride[0], r[0], p.dilation[0]),
                           windowIndex(i[3], p.stride[1], r[1], p.dilation[1]), block })
                * ir::load(weight, { i[1], Expr(0), r[0], r[1], Expr(0), i[4] });
        },
        "depthwise_conv2d_NCHWc");
}

} // namespace ts::ops
