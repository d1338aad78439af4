#include "core/graph/task_extraction.h"

#include "core/ops/shape_check.h"
#include "core/support/strings.h"

#include <map>

namespace ts::graph {

namespace {
    // The anchor followed by its fusable element-wise consumers, in order.
    std::vector<int> fuseChain(const Graph& graph, int anchor, std::vector<bool>& claimed)
    {
        std::vector<int> chain { anchor };
        claimed[static_cast<size_t>(anchor)] = true;
        int tail = anchor;
        while (true) {
            const std::vector<int> consumers = graph.consumers(tail);
            if (consumers.size() != 1)
                break;
            const int next = consumers.front();
            const Node& node = graph.node(next);
            if (!isElementwise(node.kind) || claimed[static_cast<size_t>(next)])
                break;
            // The element-wise op must keep the anchor's output shape (no broadcast growth).
            if (node.shape != graph.node(tail).shape)
                break;
            chain.push_back(next);
            claimed[static_cast<size_t>(next)] = true;
            tail = next;
        }
        return chain;
    }

    Expected<Task> buildTask(const Graph& graph, const std::vector<int>& chain)
    {
        std::map<int, ir::Tensor> built; // node id -> tensor inside this task
        std::vector<ir::Tensor> placeholders;
        std::vector<std::string> shapeTexts;
        ir::Tensor out;
        for (int id : chain) {
            const Node& node = graph.node(id);
            std::vector<ir::Tensor> inputs;
            for (int input : node.inputs) {
                auto it = built.find(input);
                if (it == built.end()) {
                    const std::string name = input == graph.node(chain.front()).inputs.front() ? "data" : "residual";
                    ir::Tensor p = ir::placeholder(name, graph.shape(input));
                    placeholders.push_back(p);
                    shapeTexts.push_back(name + " " + ops::shapeText(p->shape()));
                    it = built.emplace(input, p).first;
                }
                inputs.push_back(it->second);
            }
            std::vector<ir::Tensor> params;
            TS_TRY(out, lowerNode(node, inputs, params));
            for (const ir::Tensor& p : params) {
                placeholders.push_back(p);
                if (p->name() == "weight")
                    shapeTexts.push_back("weight " + ops::shapeText(p->shape()));
            }
            built[id] = out;
        }
        Task task;
        task.anchor = graph.node(chain.front()).kind;
        const Node& anchorNode = graph.node(chain.front());
        task.conv = anchorNode.conv;
        task.weightShape = anchorNode.weightShape;
        if (!anchorNode.inputs.empty())
            task.dataShape = graph.node(anchorNode.inputs.front()).shape;
        std::vector<ir::Tensor> tensors = placeholders;
        tensors.push_back(out);
        task.dag = ir::ComputeDAG::create(tensors);
        task.flops = task.dag.flopCount();
        for (int id : chain)
            task.fusedOps.emplace_back(toString(graph.node(id).kind));
        task.name = join(task.fusedOps, "_");
        const Node& anchor = graph.node(chain.front());
        if (anchor.kind == NodeKind::Conv2d || anchor.kind == NodeKind::DepthwiseConv2d) {
            task.name += "_" + toLower(ops::toString(anchor.conv.layout));
            shapeTexts.push_back(
                "stride " + std::to_string(anchor.conv.stride[0]) + " pad " + std::to_string(anchor.conv.padding[0]));
        }
        task.shapes = join(shapeTexts, ", ") + " -> " + ops::shapeText(out->shape());
        return task;
    }
} // namespace

double TaskSet::totalFlops() const
{
    double total = 0.0;
    for (const Task& task : tasks)
        total += task.flops * task.weight;
    return total;
}

double TaskSet::totalMacs() const
{
    double total = 0.0;
    for (const Task& task : tasks)
        total += task.dag.multiplyAccumulateCount() * task.weight;
    return total;
}

int TaskSet::totalWeight() const
{
    int total = 0;
    for (const Task& task : tasks)
        total += task.weight;
    return total;
}

Expected<TaskSet> extractTasks(const Graph& graph)
{
    if (graph.error())
        return *graph.error();
    TaskSet set;
    set.network = graph.name();
    const size_t n = graph.nodes().size();
    std::vector<bool> claimed(n, false);
    std::map<std::string, size_t> byKey;
    for (size_t i = 0; i < n; ++i) {
        if (!isAnchor(graph.nodes()[i].kind))
            continue;
        const std::vector<int> chain = fuseChain(graph, static_cast<int>(i), claimed);
        TS_TRY(Task task, buildTask(graph, chain));
        auto it = byKey.find(task.dag.workloadKey());
        if (it != byKey.end()) {
            ++set.tasks[it->second].weight;
            continue;
        }
        task.id = static_cast<int>(set.tasks.size());
        byKey[task.dag.workloadKey()] = set.tasks.size();
        set.tasks.push_back(std::move(task));
    }
    for (size_t i = 0; i < n; ++i)
        if (!claimed[i] && graph.nodes()[i].kind != NodeKind::Input)
            ++set.leftOutNodes;
    return set;
}

} // namespace ts::graph
