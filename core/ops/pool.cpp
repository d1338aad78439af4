#include "core/ops/pool.h"

#include "core/ops/shape_check.h"

#include <limits>

namespace ts::ops {

using ir::Expr;
using ir::Tensor;

namespace {
    struct Window {
        int64_t oh, ow;
        Tensor padded;
    };

    Expected<Window> poolWindow(const std::string& op, const Tensor& x, const Pool2dParams& p, double padValue)
    {
        TS_CHECK(expectRank(op, "data", x, 4));
        const bool nchw = p.layout == Layout::NCHW;
        const int64_t h = x->shape()[nchw ? 2 : 1], w = x->shape()[nchw ? 3 : 2];
        for (int64_t v : p.padding)
            if (v < 0)
                return shapeError(op, "negative padding");
        TS_TRY(int64_t oh, windowOutput(op, "height", h, p.padding[0] + p.padding[2], p.kernel[0], p.stride[0], 1));
        TS_TRY(int64_t ow, windowOutput(op, "width", w, p.padding[1] + p.padding[3], p.kernel[1], p.stride[1], 1));
        TS_TRY(Tensor padded, padSpatial(x, p.layout, p.padding, padValue, "pad_temp"));
        return Window { oh, ow, padded };
    }

    std::vector<int64_t> outShape(const Tensor& x, const Pool2dParams& p, int64_t oh, int64_t ow)
    {
        const auto& s = x->shape();
        return p.layout == Layout::NCHW ? std::vector<int64_t> { s[0], s[1], oh, ow }
                                        : std::vector<int64_t> { s[0], oh, ow, s[3] };
    }

    // Index of the padded input for output position i and window offsets r.
    std::vector<Expr> windowRead(const std::vector<Expr>& i, const std::vector<Expr>& r, const Pool2dParams& p)
    {
        auto at = [](const Expr& o, int64_t stride, const Expr& k) { return (stride == 1 ? o : o * Expr(stride)) + k; };
        if (p.layout == Layout::NCHW)
            return { i[0], i[1], at(i[2], p.stride[0], r[0]), at(i[3], p.stride[1], r[1]) };
        return { i[0], at(i[1], p.stride[0], r[0]), at(i[2], p.stride[1], r[1]), i[3] };
    }
} // namespace

Expected<Tensor> maxPool2d(const Tensor& x, const Pool2dParams& p)
{
    TS_TRY(Window win, poolWindow("max_pool2d", x, p, std::numeric_limits<float>::lowest()));
    ir::setNextAxisNames({}, { "rv0", "rv1" });
    return ir::computeReduce(
        "pool_max", outShape(x, p, win.oh, win.ow), { p.kernel[0], p.kernel[1] }, ir::Reducer::Max,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(win.padded, windowRead(i, r, p));
        },
        "pool_max");
}

Expected<Tensor> avgPool2d(const Tensor& x, const Pool2dParams& p)
{
    TS_TRY(Window win, poolWindow("avg_pool2d", x, p, 0.0));
    const std::vector<int64_t> shape = outShape(x, p, win.oh, win.ow);
    Tensor sum = ir::computeReduce(
        "pool_sum", shape, { p.kernel[0], p.kernel[1] }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return ir::load(win.padded, windowRead(i, r, p));
        },
        "pool_sum");
    const bool nchw = p.layout == Layout::NCHW;
    const int64_t h = x->shape()[nchw ? 2 : 1], w = x->shape()[nchw ? 3 : 2];
    return ir::compute(
        "pool_avg", shape,
        [&](const std::vector<Expr>& i) {
            if (p.countIncludePad)
                return ir::load(sum, i) / ir::floatImm(static_cast<double>(p.kernel[0] * p.kernel[1]));
            // Count the window elements inside the unpadded input.
            const Expr& oy = i[nchw ? 2 : 1];
            const Expr& ox = i[nchw ? 3 : 2];
            auto count = [](const Expr& o, int64_t stride, int64_t padBefore, int64_t kernel, int64_t extent) {
                Expr start = o * Expr(stride) - Expr(padBefore);
                Expr end = ir::min(start + Expr(kernel), Expr(extent));
                return end - ir::max(start, Expr(0));
            };
            Expr n = count(oy, p.stride[0], p.padding[0], p.kernel[0], h)
                * count(ox, p.stride[1], p.padding[1], p.kernel[1], w);
            return ir::load(sum, i) / ir::cast(ir::DType::Float32, n);
        },
        "elemwise");
}

Expected<Tensor> globalAvgPool2d(const Tensor& x, Layout layout)
{
    TS_CHECK(expectRank("global_avg_pool2d", "data", x, 4));
    const auto& s = x->shape();
    const bool nchw = layout == Layout::NCHW;
    const int64_t h = s[nchw ? 2 : 1], w = s[nchw ? 3 : 2];
    const std::vector<int64_t> shape
        = nchw ? std::vector<int64_t> { s[0], s[1], 1, 1 } : std::vector<int64_t> { s[0], 1, 1, s[3] };
    ir::setNextAxisNames({ "ax0", "ax1", "ax2", "ax3" }, { "rv0", "rv1" });
    Tensor sum = ir::computeReduce(
        "adaptive_pool_sum", shape, { h, w }, ir::Reducer::Sum,
        [&](const std::vector<Expr>& i, const std::vector<Expr>& r) {
            return nchw ? ir::load(x, { i[0], i[1], r[0], r[1] }) : ir::load(x, { i[0], r[0], r[1], i[3] });
        },
        "adaptive_pool_sum");
    ir::setNextAxisNames({ "ax0", "ax1", "ax2", "ax3" });
    return ir::compute(
        "adaptive_pool_avg", shape,
        [&](const std::vector<Expr>& i) { return ir::load(sum, i) * ir::floatImm(1.0 / static_cast<double>(h * w)); },
        "elemwise");
}

} // namespace ts::ops
