#include "core/graph/op_tasks.h"

#include "core/ops/linear.h"
#include "core/ops/shape_check.h"
#include "core/support/strings.h"

#include <algorithm>

namespace ts::graph {

namespace {

    // What a builder makes: the DAG's tensors (placeholders first, the output last) and its shapes text
    // beyond the inputs' ("stride 1 pad 1" for convolutions).
    struct Built {
        std::vector<ir::Tensor> tensors;
        std::string extra;
    };

    using Builder = Expected<Built> (*)(const std::vector<int64_t>& v, ops::Layout layout);

    struct OperatorRow {
        OperatorInfo info;
        NodeKind anchor;
        size_t values;
        bool convolution; // named by layout ("conv2d_nhwc"); its last value is a padding, which may be 0
        Builder build;
    };

    Expected<Built> buildMatmul(const std::vector<int64_t>& v, ops::Layout)
    {
        ir::Tensor a = ir::placeholder("A", { v[0], v[1] });
        ir::Tensor b = ir::placeholder("B", { v[1], v[2] });
        ir::setNextAxisNames({ "i", "j" }, { "k" });
        TS_TRY(ir::Tensor c, ops::matmul(a, b));
        return Built { { a, b, c }, {} };
    }

    Expected<Built> buildDense(const std::vector<int64_t>& v, ops::Layout)
    {
        ir::Tensor x = ir::placeholder("data", { v[0], v[1] });
        ir::Tensor w = ir::placeholder("weight", { v[2], v[1] });
        TS_TRY(ir::Tensor y, ops::dense(x, w));
        return Built { { x, w, y }, {} };
    }

    Expected<Built> buildBatchMatmul(const std::vector<int64_t>& v, ops::Layout)
    {
        ir::Tensor a = ir::placeholder("A", { v[0], v[1], v[2] });
        ir::Tensor b = ir::placeholder("B", { v[0], v[3], v[2] });
        TS_TRY(ir::Tensor c, ops::batchMatmul(a, b, true));
        return Built { { a, b, c }, {} };
    }

    ops::Conv2dParams convParams(ops::Layout layout, int64_t stride, int64_t pad)
    {
        ops::Conv2dParams params;
        params.layout = layout;
        params.stride = { stride, stride };
        params.padding = ops::Conv2dParams::symmetric(pad, pad);
        return params;
    }

    std::string convExtra(int64_t stride, int64_t pad)
    {
        return "stride " + std::to_string(stride) + " pad " + std::to_string(pad);
    }

    // N,H,W,CI,CO,KH,KW,stride,pad
    Expected<Built> buildConv2d(const std::vector<int64_t>& v, ops::Layout layout)
    {
        const int64_t n = v[0], h = v[1], w = v[2], ci = v[3], co = v[4], kh = v[5], kw = v[6];
        const bool nchw = layout == ops::Layout::NCHW;
        ir::Tensor data
            = ir::placeholder("data", nchw ? std::vector<int64_t> { n, ci, h, w } : std::vector { n, h, w, ci });
        ir::Tensor weight = ir::placeholder(
            "weight", nchw ? std::vector<int64_t> { co, ci, kh, kw } : std::vector { kh, kw, ci, co });
        TS_TRY(ir::Tensor out, ops::conv2d(data, weight, convParams(layout, v[7], v[8])));
        return Built { { data, weight, out }, convExtra(v[7], v[8]) };
    }

    // N,H,W,C,KH,KW,stride,pad
    Expected<Built> buildDepthwise(const std::vector<int64_t>& v, ops::Layout layout)
    {
        const int64_t n = v[0], h = v[1], w = v[2], c = v[3], kh = v[4], kw = v[5];
        const bool nchw = layout == ops::Layout::NCHW;
        ir::Tensor data
            = ir::placeholder("data", nchw ? std::vector<int64_t> { n, c, h, w } : std::vector { n, h, w, c });
        ir::Tensor weight = ir::placeholder(
            "weight", nchw ? std::vector<int64_t> { c, 1, kh, kw } : std::vector<int64_t> { kh, kw, c, 1 });
        TS_TRY(ir::Tensor out, ops::depthwiseConv2d(data, weight, convParams(layout, v[6], v[7])));
        return Built { { data, weight, out }, convExtra(v[6], v[7]) };
    }

    const std::vector<OperatorRow>& rows()
    {
        static const std::vector<OperatorRow> kOperators {
            { { "matmul", "N,L,M", "A[N,L] x B[L,M]" }, NodeKind::MatMul, 3, false, buildMatmul },
            { { "dense", "N,K,M", "data[N,K] x weight[M,K]^T (a fully connected layer)" }, NodeKind::Dense, 3, false,
                buildDense },
            { { "batch_matmul", "B,N,K,M", "A[B,N,K] x B[B,M,K]^T" }, NodeKind::BatchMatMul, 4, false,
                buildBatchMatmul },
            { { "conv2d", "N,H,W,CI,CO,KH,KW,stride,pad", "2-D convolution, NCHW or NHWC by --layout" },
                NodeKind::Conv2d, 9, true, buildConv2d },
            { { "depthwise", "N,H,W,C,KH,KW,stride,pad", "depthwise 2-D convolution, NCHW or NHWC by --layout" },
                NodeKind::DepthwiseConv2d, 8, true, buildDepthwise },
        };
        return kOperators;
    }

} // namespace

const std::vector<OperatorInfo>& operators()
{
    static const std::vector<OperatorInfo> kInfos = [] {
        std::vector<OperatorInfo> infos;
        for (const OperatorRow& row : rows())
            infos.push_back(row.info);
        return infos;
    }();
    return kInfos;
}

Expected<std::vector<int64_t>> parseShapeValues(const std::string& text)
{
    std::vector<int64_t> values;
    for (const std::string& part : split(text, ',')) {
        TS_TRY(int64_t value, parseInt(part, "shape value"));
        values.push_back(value);
    }
    return values;
}

Expected<Task> operatorTask(const std::string& op, const std::vector<int64_t>& shape, ops::Layout layout)
{
    const auto& all = rows();
    auto row = std::find_if(all.begin(), all.end(), [&](const OperatorRow& r) { return r.info.name == op; });
    if (row == all.end())
        return makeError(ErrorKind::InvalidArgument,
            "unknown operator '" + op
                + "' (known: " + join(operators(), ", ", [](const OperatorInfo& i) { return i.name; }) + ")");
    const std::vector<std::string> names = split(row->info.shapeValues, ',');
    if (shape.size() != row->values)
        return makeError(ErrorKind::InvalidArgument,
            op + " takes " + row->info.shapeValues + " (" + std::to_string(row->values) + " values), got "
                + std::to_string(shape.size()));
    for (size_t i = 0; i < shape.size(); ++i) {
        const bool isPad = row->convolution && i + 1 == shape.size();
        if (shape[i] < (isPad ? 0 : 1))
            return makeError(ErrorKind::InvalidArgument,
                op + ": " + names[i] + " must be " + (isPad ? ">= 0" : ">= 1") + ", got " + std::to_string(shape[i]));
    }
    TS_TRY(Built built, row->build(shape, layout));

    Task task;
    task.anchor = row->anchor;
    task.fusedOps = { std::string(toString(row->anchor)) };
    task.name = task.fusedOps.front();
    if (row->convolution)
        task.name += "_" + toLower(ops::toString(layout));
    std::vector<std::string> shapeTexts;
    for (size_t i = 0; i + 1 < built.tensors.size(); ++i)
        shapeTexts.push_back(built.tensors[i]->name() + " " + ops::shapeText(built.tensors[i]->shape()));
    if (!built.extra.empty())
        shapeTexts.push_back(built.extra);
    task.shapes = join(shapeTexts, ", ") + " -> " + ops::shapeText(built.tensors.back()->shape());
    task.dag = ir::ComputeDAG::create(built.tensors);
    task.flops = task.dag.flopCount();
    task.weight = 1;
    return task;
}

namespace {
    constexpr const char* kWorkloadPrefix = "tunescope_";
}

std::string operatorWorkloadName(const std::string& op, ops::Layout layout)
{
    const auto& all = rows();
    auto row = std::find_if(all.begin(), all.end(), [&](const OperatorRow& r) { return r.info.name == op; });
    const bool byLayout = row != all.end() && row->convolution;
    return kWorkloadPrefix + op + (byLayout ? "_" + toLower(ops::toString(layout)) : std::string());
}

std::optional<Expected<Task>> operatorTaskOfWorkload(const std::string& name, const std::vector<int64_t>& shape)
{
    for (const OperatorRow& row : rows())
        for (ops::Layout layout : { ops::Layout::NCHW, ops::Layout::NHWC })
            if (operatorWorkloadName(row.info.name, layout) == name)
                return operatorTask(row.info.name, shape, layout);
    return std::nullopt;
}

} // namespace ts::graph
