#include "core/graph/graph_evaluator.h"

#include "core/ir/compute_dag.h"
#include "core/ops/shape_check.h"

#include <algorithm>
#include <cmath>

namespace ts::graph {

ir::Buffer seededParameter(const Node& node, int id, int param, const std::vector<int64_t>& shape, uint64_t seed)
{
    ir::Buffer b(shape);
    ir::fillRandomInput(b.data(), b.size(), seed, parameterOrdinal(id, param));
    // The weight's fan-in: what one output element sums over (OIHW / HWIO for a convolution, [C, m, kh, kw] /
    // [kh, kw, C, m] for a depthwise one, [in, out/groups, kh, kw] for a transposed one (whose outputs sum over
    // a stride-dependent share of it), [out, in] for a dense layer).
    int64_t fanIn = 0;
    const bool nchw = node.conv.layout == ops::Layout::NCHW;
    if (param == 0 && shape.size() == 4 && node.kind == NodeKind::Conv2d)
        fanIn = b.size() / (nchw ? shape[0] : shape[3]);
    else if (param == 0 && shape.size() == 4 && node.kind == NodeKind::DepthwiseConv2d)
        fanIn = nchw ? shape[2] * shape[3] : shape[0] * shape[1];
    else if (param == 0 && shape.size() == 4 && node.kind == NodeKind::ConvTranspose2d)
        fanIn = shape[0] / std::max<int64_t>(node.conv.groups, 1) * shape[2] * shape[3];
    else if (param == 0 && shape.size() == 2 && node.kind == NodeKind::Dense)
        fanIn = shape[1];
    if (fanIn > 0) {
        const float bound = static_cast<float>(std::sqrt(6.0 / static_cast<double>(fanIn)));
        for (int64_t i = 0; i < b.size(); ++i)
            b[i] *= bound;
    }
    return b;
}

Expected<ir::Buffer> evaluateNode(
    const Node& node, const std::vector<const ir::Buffer*>& inputs, std::optional<uint64_t> seed, int id)
{
    std::vector<ir::Tensor> placeholders;
    for (const ir::Buffer* b : inputs)
        placeholders.push_back(ir::placeholder("x", b->shape()));
    std::vector<ir::Tensor> params;
    TS_TRY(ir::Tensor out, lowerNode(node, placeholders, params));
    std::vector<ir::Buffer> paramValues;
    for (size_t p = 0; p < params.size(); ++p) {
        if (p < node.params.size()) {
            paramValues.push_back(*node.params[p]);
            continue;
        }
        if (!seed)
            return makeError(ErrorKind::Unsupported, "parameter " + params[p]->name() + " has no value");
        paramValues.push_back(seededParameter(node, id, static_cast<int>(p), params[p]->shape(), *seed));
    }
    std::vector<ir::Tensor> tensors = placeholders;
    tensors.insert(tensors.end(), params.begin(), params.end());
    tensors.push_back(out);
    const ir::ComputeDAG dag = ir::ComputeDAG::create(tensors);
    // The evaluator takes the placeholders in the DAG's stage order.
    std::vector<ir::Buffer> ordered;
    for (int stage : dag.placeholders()) {
        const ir::Tensor& t = dag.ops()[static_cast<size_t>(stage)];
        for (size_t i = 0; i < placeholders.size(); ++i)
            if (placeholders[i] == t)
                ordered.push_back(*inputs[i]);
        for (size_t i = 0; i < params.size(); ++i)
            if (params[i] == t)
                ordered.push_back(paramValues[i]);
    }
    TS_TRY(std::vector<ir::Buffer> values, ir::evaluate(dag, ordered));
    return std::move(values.back());
}

Expected<void> checkInputs(const Graph& graph, const std::vector<ir::Buffer>& inputs)
{
    size_t next = 0;
    for (const Node& node : graph.nodes()) {
        if (node.kind != NodeKind::Input)
            continue;
        if (next >= inputs.size())
            return makeError(ErrorKind::InvalidArgument,
                graph.name() + ": no value for input " + node.name + " (" + std::to_string(inputs.size()) + " given)");
        if (inputs[next].shape() != node.shape)
            return makeError(ErrorKind::InvalidArgument,
                graph.name() + ": input " + node.name + " has shape " + ops::shapeText(node.shape) + ", its value "
                    + ops::shapeText(inputs[next].shape()));
        ++next;
    }
    return {};
}

Expected<std::vector<ir::Buffer>> evaluateGraph(
    const Graph& graph, const std::vector<ir::Buffer>& inputs, uint64_t seed)
{
    if (graph.error())
        return *graph.error();
    TS_CHECK(checkInputs(graph, inputs));
    std::vector<ir::Buffer> values(graph.nodes().size());
    size_t nextInput = 0;
    for (size_t id = 0; id < graph.nodes().size(); ++id) {
        const Node& node = graph.nodes()[id];
        if (node.kind == NodeKind::Input) {
            values[id] = inputs[nextInput++];
            continue;
        }
        if (node.kind == NodeKind::Constant) {
            values[id] = *node.params.at(0);
            continue;
        }
        std::vector<const ir::Buffer*> buffers;
        for (int input : node.inputs)
            buffers.push_back(&values[static_cast<size_t>(input)]);
        auto evaluated = evaluateNode(node, buffers, seed, static_cast<int>(id));
        if (!evaluated)
            return makeError(
                evaluated.error().kind, graph.name() + ", node " + node.name + ": " + evaluated.error().message);
        values[id] = std::move(*evaluated);
    }
    return values;
}

} // namespace ts::graph
