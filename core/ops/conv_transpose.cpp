#include "core/ops/conv_transpose.h"

#include "core/ops/shape_check.h"

#include <algorithm>

namespace ts::ops {

using ir::Expr;
using ir::Tensor;

Expected<int64_t> transposedWindowOutput(const std::string& op, const char* dim, int64_t in, int64_t padTotal,
    int64_t kernel, int64_t stride, int64_t dilation, int64_t outputPadding)
{
    if (kernel < 1 || stride < 1 || dilation < 1)
        return shapeError(op, std::string("kernel, stride and dilation along ") + dim + " must be >= 1");
    if (outputPadding < 0)
        return shapeError(op, std::string("negative output padding along ") + dim);
    const int64_t out = (in - 1) * stride + dilation * (kernel - 1) + 1 - padTotal + outputPadding;
    if (out < 1)
        return shapeError(op,
            std::string("padding of ") + std::to_string(padTotal) + " along " + dim + " leaves no output (input "
                + std::to_string(in) + ", kernel " + std::to_string(kernel) + ", stride " + std::to_string(stride)
                + ")");
    return out;
}

namespace {
    // Zeros between the spatial elements of NCHW data: element (y, x) moves to (y * sh, x * sw).
    Tensor dilateSpatial(const Tensor& data, const std::array<int64_t, 2>& stride)
    {
        const auto& s = data->shape();
        ir::setNextAxisNames({ "i0", "i1", "i2", "i3" });
        return ir::compute(
            "data_dilate", { s[0], s[1], (s[2] - 1) * stride[0] + 1, (s[3] - 1) * stride[1] + 1 },
            [&](const std::vector<Expr>& i) {
                Expr onGrid;
                std::vector<Expr> source { i[0], i[1], i[2], i[3] };
                for (size_t d = 0; d < 2; ++d) {
                    if (stride[d] == 1)
                        continue;
                    Expr cond = ir::eq(i[2 + d] % Expr(stride[d]), Expr(0));
                    onGrid = onGrid.defined() ? (onGrid && cond) : cond;
                    source[2 + d] = i[2 + d] / Expr(stride[d]);
                }
                return ir::select(onGrid, ir::load(data, source), ir::floatImm(0.0));
            },
            "injective,dilate");
    }
} // namespace

Expected<Tensor> conv2dTransposeNchw(
    const Tensor& data, const Tensor& weight, const Conv2dParams& p, const std::array<int64_t, 2>& outputPadding)
{
    const std::string op = p.groups == 1 ? "conv2d_transpose_nchw" : "group_conv2d_transpose_nchw";
    if (p.layout != Layout::NCHW)
        return shapeError(op, "only the NCHW layout is built");
    TS_CHECK(expectRank(op, "data", data, 4));
    TS_CHECK(expectRank(op, "weight", weight, 4));
    const auto& ds = data->shape(); // n, c, h, w
    const auto& ws = weight->shape(); // c, o / groups, kh, kw
    const int64_t n = ds[0], c = ds[1], h = ds[2], w = ds[3];
    const int64_t outPerGroup = ws[1], kh = ws[2], kw = ws[3];
    if (p.groups < 1 || c % p.groups)
        return shapeError(
            op, "groups " + std::to_string(p.groups) + " must divide the input channels " + std::to_string(c));
    if (ws[0] != c)
        return shapeError(op,
            "weight " + shapeText(ws) + " ([in_channels, out_channels / groups, kh, kw]) has " + std::to_string(ws[0])
                + " input channels, data " + shapeText(ds) + " has " + std::to_string(c));
    const int64_t outChannels = outPerGroup * p.groups;
    const int64_t inPerGroup = c / p.groups;
    TS_TRY(const int64_t oh,
        transposedWindowOutput(
            op, "height", h, p.padding[0] + p.padding[2], kh, p.stride[0], p.dilation[0], outputPadding[0]));
    TS_TRY(const int64_t ow,
        transposedWindowOutput(
            op, "width", w, p.padding[1] + p.padding[3], kw, p.stride[1], p.dilation[1], outputPadding[1]));

    // The dilated data padded by span - 1 - pad before and span - 1 - pad + outputPadding after (span - 1 being
    // dilation * (kernel - 1)); a negative amount before becomes an offset of the reads, one after is never read.
    const std::array<int64_t, 2> spanLess { p.dilation[0] * (kh - 1), p.dilation[1] * (kw - 1) };
    const std::array<int64_t, 2> before { spanLess[0] - p.padding[0], spanLess[1] - p.padding[1] };
    const std::array<int64_t, 2> after { spanLess[0] - p.padding[2] + outputPadding[0],
        spanLess[1] - p.padding[3] + outputPadding[1] };
    const std::array<int64_t, 2> offset { std::max<int64_t>(0, -before[0]), std::max<int64_t>(0, -before[1]) };

    Tensor dilated = p.stride[0] == 1 && p.stride[1] == 1 ? data : dilateSpatial(data, p.stride);
    TS_TRY(Tensor padded,
        pad(dilated, { 0, 0, std::max<int64_t>(0, before[0]), std::max<int64_t>(0, before[1]) },
            { 0, 0, std::max<int64_t>(0, after[0]), std::max<int64_t>(0, after[1]) }, 0.0, "data_pad"));

    auto inputChannel = [&](const Expr& o, const Expr& rc) -> Expr {
        return p.groups == 1 ? rc : o / Expr(outPerGroup) * Expr(inPerGroup) + rc;
    };
    auto channelInGroup = [&](const Expr& o) -> Expr { return p.groups == 1 ? o : o % Expr(outPerGroup); };
    auto read = [&](const Expr& out, size_t d, const Expr& r) {
        Expr index = offset[d] ? out + Expr(offset[d]) : out;
        return index + (p.dilation[d] == 1 ? r : r * Expr(p.dilation[d]));
    };
    ir::setNextAxisNames({ "b", "c", "h", "w" }, { "dc", "dh", "dw" });
    return ir::computeReduce(
        op, { n, outChannels, oh, ow }, { inPerGroup, kh, kw }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            const Expr ic = inputChannel(i[1], r[0]);
            return ir::load(padded, { i[0], ic, read(i[2], 0, r[1]), read(i[3], 1, r[2]) })
                * ir::load(weight, { ic, channelInGroup(i[1]), Expr(kh - 1) - r[1], Expr(kw - 1) - r[2] });
        },
        op);
}

} // namespace ts::ops
