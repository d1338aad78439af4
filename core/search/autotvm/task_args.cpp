// AutoTVM task extraction and TVM's task args (template.h): which templates fit a DAG, the args a TVM log
// writes for it, and the DAG a log's args describe.
#include "core/ops/conv.h"
#include "core/ops/linear.h"
#include "core/search/autotvm/python_json.h"
#include "core/search/autotvm/template.h"
#include "core/search/autotvm/template_builder.h"

#include <nlohmann/json.hpp>

namespace ts::autotvm {

namespace {
    using Json = nlohmann::json;

    Json tensorArg(const std::vector<int64_t>& shape) { return Json::array({ "TENSOR", shape, "float32" }); }

    // The one compute op tagged `tag`.
    const ir::Operation* anchorOf(const ir::ComputeDAG& dag, const std::string& tag)
    {
        for (int i = 0; i < dag.numOps(); ++i)
            if (!dag.op(i).isPlaceholder() && dag.op(i).tag() == tag)
                return &dag.op(i);
        return nullptr;
    }

    std::vector<int64_t> shapeOf(const ir::Tensor& t) { return t->shape(); }

    Expected<std::vector<int64_t>> readTensor(const Json& arg, const std::string& what, size_t rank)
    {
        if (!arg.is_array() || arg.size() != 3 || arg[0] != "TENSOR" || !arg[1].is_array())
            return makeError(
                ErrorKind::InvalidArgument, what + ": expected [\"TENSOR\", [shape], dtype], got " + arg.dump());
        if (arg[2] != "float32")
            return makeError(ErrorKind::Unsupported, what + ": dtype " + arg[2].dump() + " (only float32 is built)");
        std::vector<int64_t> shape;
        for (const Json& d : arg[1]) {
            if (!d.is_number_integer() || d.get<int64_t>() < 1)
                return makeError(
                    ErrorKind::InvalidArgument, what + ": shape " + arg[1].dump() + " is not positive integers");
            shape.push_back(d.get<int64_t>());
        }
        if (shape.size() != rank)
            return makeError(ErrorKind::InvalidArgument,
                what + ": shape " + arg[1].dump() + " has rank " + std::to_string(shape.size()) + ", expected "
                    + std::to_string(rank));
        return shape;
    }

    template <size_t N> Expected<std::array<int64_t, N>> readInts(const Json& arg, const std::string& what)
    {
        std::array<int64_t, N> out {};
        if (arg.is_number_integer() && N == 2) { // TVM allows a single int for strides/dilation
            out.fill(arg.get<int64_t>());
            return out;
        }
        if (!arg.is_array() || (arg.size() != N && !(N == 4 && arg.size() == 2)))
            return makeError(
                ErrorKind::InvalidArgument, what + ": expected " + std::to_string(N) + " integers, got " + arg.dump());
        std::vector<int64_t> v;
        for (const Json& x : arg) {
            if (!x.is_number_integer() || x.get<int64_t>() < 0)
                return makeError(
                    ErrorKind::InvalidArgument, what + ": " + arg.dump() + " is not non-negative integers");
            v.push_back(x.get<int64_t>());
        }
        if (N == 4 && v.size() == 2) // (pad_h, pad_w): symmetric
            v = { v[0], v[1], v[0], v[1] };
        for (size_t i = 0; i < N; ++i)
            out[i] = v[i];
        return out;
    }

    Expected<Json> parseArgs(std::string_view argsJson, size_t count, const std::string& name)
    {
        const Json args = Json::parse(argsJson, nullptr, false);
        if (!args.is_array())
            return makeError(
                ErrorKind::Parse, name + ": task args are not a JSON list: " + std::string(argsJson.substr(0, 80)));
        if (args.size() < count)
            return makeError(ErrorKind::InvalidArgument,
                name + ": " + std::to_string(args.size()) + " task args, expected " + std::to_string(count));
        return args;
    }

    ir::ComputeDAG dagOf(const std::vector<ir::Tensor>& tensors) { return ir::ComputeDAG::create(tensors); }

    // A convolution's data and weight shapes, strides and padding (top, left, bottom, right) as TVM's args
    // write them, read from the conv op: its inputs are the padded (or plain) data and the weight, and the data
    // placeholder is the pad's input.
    struct ConvArgs {
        std::vector<int64_t> data;
        std::vector<int64_t> weight;
        Json strides;
        Json padding;
    };

    ConvArgs convArgs(const ir::Operation& op, bool nhwc)
    {
        const ir::Tensor& padded = op.inputs()[0];
        ir::Tensor data = padded;
        if (!padded->isPlaceholder() && !padded->inputs().empty())
            data = padded->inputs()[0];
        ConvArgs c;
        c.data = shapeOf(data);
        c.weight = shapeOf(op.inputs()[1]);
        const auto ps = shapeOf(padded);
        const size_t h = nhwc ? 1 : 2; // H and W in the data, kh and kw in the weight (HWIO / OIHW), oh and ow
        const size_t kh = nhwc ? 0 : 2;
        const int64_t oh = op.axes()[h].extent;
        const int64_t ow = op.axes()[h + 1].extent;
        const int64_t padH = ps[h] - c.data[h];
        const int64_t padW = ps[h + 1] - c.data[h + 1];
        const int64_t strideH = oh > 1 ? (ps[h] - c.weight[kh]) / (oh - 1) : 1;
        const int64_t strideW = ow > 1 ? (ps[h + 1] - c.weight[kh + 1]) / (ow - 1) : 1;
        c.strides = Json::array({ strideH, strideW });
        c.padding = Json::array({ padH / 2, padW / 2, padH - padH / 2, padW - padW / 2 });
        return c;
    }
} // namespace

std::vector<const Template*> templatesFor(const ir::ComputeDAG& dag)
{
    std::vector<const Template*> out;
    for (const Template& t : templates())
        if (!t.ownVariant && t.space(dag))
            out.push_back(&t);
    if (!out.empty())
        return out;
    // No TVM template schedules this anchor: our own that fit it (NHWC convolutions).
    for (const Template& t : templates())
        if (t.ownVariant && t.space(dag))
            out.push_back(&t);
    return out;
}

Expected<std::string> taskArgs(const Template& t, const ir::ComputeDAG& dag)
{
    const ir::Operation* op = anchorOf(dag, t.opTag);
    if (op == nullptr)
        return makeError(ErrorKind::InvalidArgument, t.name + ": the DAG has no " + t.opTag + " op");
    Json args;
    if (t.opTag == "dense") {
        args = Json::array(
            { tensorArg(shapeOf(op->inputs()[0])), tensorArg(shapeOf(op->inputs()[1])), nullptr, "float32" });
    } else if (t.opTag == "batch_matmul") {
        args = Json::array({ tensorArg(shapeOf(op->inputs()[0])), tensorArg(shapeOf(op->inputs()[1])), nullptr,
            "float32", false, true });
    } else if (t.opTag == "conv2d_nchw" || t.opTag == "depthwise_conv2d_nchw") {
        const ConvArgs c = convArgs(*op, false);
        args = Json::array({ tensorArg(c.data), tensorArg(c.weight), c.strides, c.padding, Json::array({ 1, 1 }),
            "NCHW", "NCHW", "float32" });
    } else if (t.opTag == "conv2d_nhwc") {
        const ConvArgs c = convArgs(*op, true);
        args = Json::array(
            { tensorArg(c.data), tensorArg(c.weight), c.strides, c.padding, Json::array({ 1, 1 }), "float32" });
    } else {
        return makeError(ErrorKind::Unsupported, t.name + ": no task args for op tag " + t.opTag);
    }
    return detail::pythonJson(args);
}

Expected<detail::ConvWorkload> detail::convWorkload(const std::string& name, std::string_view argsJson, bool nhwc)
{
    TS_TRY(const Json args, parseArgs(argsJson, nhwc ? 6 : 8, name));
    if (args.size() > (nhwc ? 6u : 8u))
        return makeError(ErrorKind::InvalidArgument,
            name + ": " + std::to_string(args.size()) + " task args, expected " + (nhwc ? "6" : "8"));
    ConvWorkload w;
    TS_TRY(w.data, readTensor(args[0], name + " arg 0 (data)", 4));
    TS_TRY(w.weight, readTensor(args[1], name + " arg 1 (kernel)", 4));
    ops::Conv2dParams& p = w.params;
    p.layout = nhwc ? ops::Layout::NHWC : ops::Layout::NCHW;
    TS_TRY(p.stride, readInts<2>(args[2], name + " arg 2 (strides)"));
    TS_TRY(p.padding, readInts<4>(args[3], name + " arg 3 (padding)"));
    TS_TRY(p.dilation, readInts<2>(args[4], name + " arg 4 (dilation)"));
    if (!nhwc)
        for (size_t i : { size_t(5), size_t(6) })
            if (args[i] != "NCHW")
                return makeError(ErrorKind::Unsupported,
                    name + " arg " + std::to_string(i) + " (layout): " + args[i].dump() + " (NCHW is built)");
    const Json& outDtype = args[nhwc ? 5 : 7];
    if (!outDtype.is_null() && outDtype != "float32")
        return makeError(ErrorKind::Unsupported,
            name + " arg " + (nhwc ? "5" : "7") + " (out_dtype): " + outDtype.dump() + " (only float32 is built)");
    return w;
}

Expected<ir::ComputeDAG> dagFromTaskArgs(std::string_view templateName, std::string_view argsJson)
{
    const Template* t = findTemplate(templateName);
    const std::string name(templateName);
    if (t == nullptr)
        return makeError(ErrorKind::NotFound, "no AutoTVM template '" + name + "'");
    if (t->opTag == "dense") {
        TS_TRY(const Json args, parseArgs(argsJson, 2, name));
        TS_TRY(const auto xs, readTensor(args[0], name + " arg 0 (data)", 2));
        TS_TRY(const auto ws, readTensor(args[1], name + " arg 1 (weight)", 2));
        ir::Tensor x = ir::placeholder("data", xs);
        ir::Tensor w = ir::placeholder("weight", ws);
        auto y = ops::dense(x, w);
        if (!y)
            return makeError(y.error().kind, name + ": " + y.error().message);
        return dagOf({ x, w, *y });
    }
    if (t->opTag == "batch_matmul") {
        TS_TRY(const Json args, parseArgs(argsJson, 2, name));
        TS_TRY(const auto as, readTensor(args[0], name + " arg 0 (tensor_a)", 3));
        TS_TRY(const auto bs, readTensor(args[1], name + " arg 1 (tensor_b)", 3));
        if (args.size() > 4 && args[4] == true)
            return makeError(ErrorKind::Unsupported, name + ": transpose_a is not built");
        const bool transposeB = args.size() > 5 ? args[5] != false : true;
        ir::Tensor a = ir::placeholder("tensor_a", as);
        ir::Tensor b = ir::placeholder("tensor_b", bs);
        auto c = ops::batchMatmul(a, b, transposeB);
        if (!c)
            return makeError(c.error().kind, name + ": " + c.error().message);
        return dagOf({ a, b, *c });
    }
    if (t->opTag == "conv2d_nchw" || t->opTag == "depthwise_conv2d_nchw" || t->opTag == "conv2d_nhwc") {
        TS_TRY(const detail::ConvWorkload w, detail::convWorkload(name, argsJson, t->opTag == "conv2d_nhwc"));
        const auto& ds = w.data;
        const auto& ws = w.weight;
        const ops::Conv2dParams& p = w.params;
        ir::Tensor data = ir::placeholder("data", ds);
        ir::Tensor kernel = ir::placeholder("kernel", ws);
        auto out = t->opTag == "depthwise_conv2d_nchw" ? ops::depthwiseConv2d(data, kernel, p)
                                                       : ops::conv2d(data, kernel, p);
        if (!out)
            return makeError(out.error().kind, name + ": " + out.error().message);
        return dagOf({ data, kernel, *out });
    }
    return makeError(ErrorKind::Unsupported, name + ": task args of op tag " + t->opTag + " are not read");
}

} // namespace ts::autotvm
