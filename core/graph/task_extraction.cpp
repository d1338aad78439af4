#include "core/graph/task_extraction.h"

#include "core/ops/shape_check.h"
#include "core/support/strings.h"

#include <algorithm>
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

    Expected<Task> buildTask(
        const Graph& graph, const std::vector<int>& chain, std::vector<ArgumentSource>* sources = nullptr)
    {
        std::map<int, ir::Tensor> built; // node id -> tensor inside this task
        std::vector<ir::Tensor> placeholders;
        std::vector<ArgumentSource> placeholderSources; // parallel to placeholders
        std::vector<std::string> shapeTexts;
        ir::Tensor out;
        for (int id : chain) {
            const Node& node = graph.node(id);
            // A commutative op reads the fused chain's value first (conv + residual, as the built-in networks
            // write it), so a model that writes residual + conv gives the same task and shares its records.
            std::vector<int> operands = node.inputs;
            if ((node.kind == NodeKind::Add || node.kind == NodeKind::Multiply) && operands.size() == 2
                && built.count(operands[1]) && !built.count(operands[0]))
                std::swap(operands[0], operands[1]);
            std::vector<ir::Tensor> inputs;
            for (int input : operands) {
                auto it = built.find(input);
                if (it == built.end()) {
                    const std::string name = input == graph.node(chain.front()).inputs.front() ? "data" : "residual";
                    ir::Tensor p = ir::placeholder(name, graph.shape(input));
                    placeholders.push_back(p);
                    placeholderSources.push_back({ input, -1 });
                    shapeTexts.push_back(name + " " + ops::shapeText(p->shape()));
                    it = built.emplace(input, p).first;
                }
                inputs.push_back(it->second);
            }
            std::vector<ir::Tensor> params;
            TS_TRY(out, lowerNode(node, inputs, params));
            for (size_t k = 0; k < params.size(); ++k) {
                const ir::Tensor& p = params[k];
                placeholders.push_back(p);
                placeholderSources.push_back({ id, static_cast<int>(k) });
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
        if (sources) {
            sources->clear();
            for (int stage : task.dag.placeholders())
                for (size_t i = 0; i < placeholders.size(); ++i)
                    if (task.dag.ops()[static_cast<size_t>(stage)] == placeholders[i]) {
                        sources->push_back(placeholderSources[i]);
                        break;
                    }
        }
        task.flops = task.dag.flopCount();
        for (int id : chain)
            task.fusedOps.emplace_back(toString(graph.node(id).kind));
        task.name = join(task.fusedOps, "_");
        const Node& anchor = graph.node(chain.front());
        if (anchor.kind == NodeKind::Conv2d || anchor.kind == NodeKind::DepthwiseConv2d
            || anchor.kind == NodeKind::ConvTranspose2d) {
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

namespace {
    // The nodes no task claimed, in groups that each run as one kernel (TVM fuses injective and element-wise
    // operators the same way): a group grows backwards from its last node (the sink) over producers whose every
    // reader is already in the group, so only the sink's value leaves it and nothing else needs a buffer. A
    // producer read twice inside the group is inlined twice (GELU's x * erf(x / sqrt 2)): cheap for element-wise
    // and data-movement nodes, and kMaxGroup bounds it. Reshapes stay groups of their own: they are views of
    // their input (graph_executor.cpp), no kernel at all.
    std::vector<std::vector<int>> fuseLeftOut(const Graph& graph, std::vector<bool>& claimed)
    {
        constexpr size_t kMaxGroup = 16;
        const size_t n = graph.nodes().size();
        std::vector<std::vector<int>> readers(n); // each node's readers, once each (Graph::consumers, all at once)
        for (size_t i = 0; i < n; ++i)
            for (int input : graph.nodes()[i].inputs)
                if (auto& r = readers[static_cast<size_t>(input)]; r.empty() || r.back() != static_cast<int>(i))
                    r.push_back(static_cast<int>(i));
        std::vector<int> groupOf(n, -1); // the sink of the group a node joined
        auto fusable = [&](int id) {
            const NodeKind kind = graph.node(id).kind;
            return !claimed[static_cast<size_t>(id)] && kind != NodeKind::Reshape
                && (isElementwise(kind) || isDataMovement(kind));
        };
        std::vector<std::vector<int>> groups;
        for (int sink = static_cast<int>(n) - 1; sink >= 0; --sink) {
            if (claimed[static_cast<size_t>(sink)] || isSource(graph.node(sink).kind))
                continue;
            const bool grows = fusable(sink);
            std::vector<int> members { sink };
            claimed[static_cast<size_t>(sink)] = true;
            groupOf[static_cast<size_t>(sink)] = sink;
            // Until nothing joins: a producer refused because one of its readers was not in yet may join later.
            for (bool grew = grows; grew && members.size() < kMaxGroup;) {
                grew = false;
                for (size_t m = 0; m < members.size() && members.size() < kMaxGroup; ++m)
                    for (int producer : graph.node(members[m]).inputs) {
                        const std::vector<int>& read = readers[static_cast<size_t>(producer)];
                        if (!fusable(producer) || read.empty() || !std::all_of(read.begin(), read.end(), [&](int r) {
                                return groupOf[static_cast<size_t>(r)] == sink;
                            }))
                            continue;
                        members.push_back(producer);
                        claimed[static_cast<size_t>(producer)] = true;
                        groupOf[static_cast<size_t>(producer)] = sink;
                        grew = true;
                        if (members.size() == kMaxGroup)
                            break;
                    }
            }
            std::sort(members.begin(), members.end()); // node order is a topological order
            groups.push_back(std::move(members));
        }
        return groups;
    }

    // The tasks, and with `everyGroup` also the groups that are no task (each built into its DAG, which task
    // extraction alone does not need).
    Expected<Partition> partition(const Graph& graph, bool everyGroup)
    {
        if (graph.error())
            return *graph.error();
        Partition result;
        TaskSet& set = result.tasks;
        set.network = graph.name();
        const size_t n = graph.nodes().size();
        std::vector<bool> claimed(n, false);
        std::map<std::string, size_t> byKey;
        for (size_t i = 0; i < n; ++i) {
            if (!isAnchor(graph.nodes()[i].kind))
                continue;
            Group group;
            group.nodes = fuseChain(graph, static_cast<int>(i), claimed);
            TS_TRY(Task task, buildTask(graph, group.nodes, &group.sources));
            group.dag = task.dag;
            auto it = byKey.find(task.dag.workloadKey());
            if (it != byKey.end()) {
                ++set.tasks[it->second].weight;
                group.task = static_cast<int>(it->second);
            } else {
                task.id = static_cast<int>(set.tasks.size());
                group.task = task.id;
                byKey[task.dag.workloadKey()] = set.tasks.size();
                set.tasks.push_back(std::move(task));
            }
            result.groups.push_back(std::move(group));
        }
        for (size_t i = 0; i < n; ++i)
            if (!claimed[i] && !isSource(graph.nodes()[i].kind))
                ++set.leftOutNodes;
        if (everyGroup)
            for (std::vector<int>& nodes : fuseLeftOut(graph, claimed)) {
                Group group;
                group.nodes = std::move(nodes);
                TS_TRY(Task fused, buildTask(graph, group.nodes, &group.sources));
                group.dag = std::move(fused.dag);
                result.groups.push_back(std::move(group));
            }
        // A group reads only the last nodes of other groups (a chain's inner links have one consumer, inside it), and
        // every node reads nodes before it, so ordering by the last node runs producers first.
        std::stable_sort(result.groups.begin(), result.groups.end(),
            [](const Group& a, const Group& b) { return a.nodes.back() < b.nodes.back(); });
        return result;
    }
} // namespace

Expected<TaskSet> extractTasks(const Graph& graph)
{
    TS_TRY(Partition tasksOnly, partition(graph, false));
    return std::move(tasksOnly.tasks);
}

Expected<Partition> partitionGraph(const Graph& graph) { return partition(graph, true); }

} // namespace ts::graph
