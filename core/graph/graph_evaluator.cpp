#include "core/graph/graph_evaluator.h"

#include "core/ir/compute_dag.h"
#include "core/ops/shape_check.h"

namespace ts::graph {

Expected<std::vector<ir::Buffer>> evaluateGraph(
    const Graph& graph, const std::vector<ir::Buffer>& inputs, uint64_t seed)
{
    if (graph.error())
        return *graph.error();
    std::vector<ir::Buffer> values(graph.nodes().size());
    size_t nextInput = 0;
    for (size_t id = 0; id < graph.nodes().size(); ++id) {
        const Node& node = graph.nodes()[id];
        if (node.kind == NodeKind::Input) {
            if (nextInput >= inputs.size())
                return makeError(ErrorKind::InvalidArgument,
                    graph.name() + ": no value for input " + node.name + " (" + std::to_string(inputs.size())
                        + " given)");
            if (inputs[nextInput].shape() != node.shape)
                return makeError(ErrorKind::InvalidArgument,
                    graph.name() + ": input " + node.name + " has shape " + ops::shapeText(node.shape) + ", its value "
                        + ops::shapeText(inputs[nextInput].shape()));
            values[id] = inputs[nextInput++];
            continue;
        }
        if (node.kind == NodeKind::Constant) {
            values[id] = *node.params.at(0);
            continue;
        }
        std::vector<ir::Tensor> placeholders;
        std::vector<const ir::Buffer*> buffers;
        for (int input : node.inputs) {
            placeholders.push_back(ir::placeholder("x", graph.shape(input)));
            buffers.push_back(&values[static_cast<size_t>(input)]);
        }
        std::vector<ir::Tensor> params;
        TS_TRY(ir::Tensor out, lowerNode(node, placeholders, params));
        std::vector<ir::Buffer> paramValues;
        for (size_t p = 0; p < params.size(); ++p) {
            if (p < node.params.size()) {
                paramValues.push_back(*node.params[p]);
                continue;
            }
            ir::Buffer b(params[p]->shape());
            ir::fillRandomInput(b.data(), b.size(), seed, static_cast<int>(id * 16 + p));
            paramValues.push_back(std::move(b));
        }
        std::vector<ir::Tensor> tensors = placeholders;
        tensors.insert(tensors.end(), params.begin(), params.end());
        tensors.push_back(out);
        const ir::ComputeDAG dag = ir::ComputeDAG::create(tensors);
        std::vector<ir::Buffer> ordered;
        for (int stage : dag.placeholders()) {
            const ir::Tensor& t = dag.ops()[static_cast<size_t>(stage)];
            bool found = false;
            for (size_t i = 0; i < placeholders.size() && !found; ++i)
                if (placeholders[i] == t) {
                    ordered.push_back(*buffers[i]);
                    found = true;
                }
            for (size_t i = 0; i < params.size() && !found; ++i)
                if (params[i] == t) {
                    ordered.push_back(paramValues[i]);
                    found = true;
                }
        }
        auto evaluated = ir::evaluate(dag, ordered);
        if (!evaluated)
            return makeError(
                evaluated.error().kind, graph.name() + ", node " + node.name + ": " + evaluated.error().message);
        values[id] = std::move(evaluated->back());
    }
    return values;
}

} // namespace ts::graph
