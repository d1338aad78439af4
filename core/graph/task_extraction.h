// Partition of a network graph into tuning tasks.
//
// Each compute-heavy anchor (conv2d, dense, batch_matmul, pooling, softmax, layer norm) is fused with the
// chain of element-wise ops that follow it (bias add, relu, residual add, gelu, ...), as long as each link's
// output has a single consumer; a residual add joins the first anchor chain that reaches it. Each fused
// group is built into a ComputeDAG (inputs, weights and side inputs become placeholders) and tasks with the
// same workload key are merged, counting how often they occur (the task's weight).
//
// Like TVM's auto_scheduler.extract_tasks (include_simple_tasks=False), groups without a reduction (a lone
// element-wise op, reshape, transpose, concat) are not tuning tasks; extraction reports how many nodes it
// left out.
#pragma once

#include "core/graph/graph.h"
#include "core/ir/compute_dag.h"

#include <string>
#include <vector>

namespace ts::graph {

struct Task {
    int id = 0;
    std::string name; // "conv2d_nchw_bias_add_relu"
    NodeKind anchor = NodeKind::Conv2d;
    // For a network's conv2d or depthwise anchor, what a library call for the same layer needs: its parameters,
    // weight shape and data input's shape (empty for operator tasks).
    ops::Conv2dParams conv;
    std::vector<int64_t> weightShape;
    std::vector<int64_t> dataShape;
    std::vector<std::string> fusedOps; // {"conv2d", "bias_add", "relu"}
    std::string shapes; // "data [1, 64, 56, 56], weight [64, 64, 3, 3] -> [1, 64, 56, 56]"
    ir::ComputeDAG dag;
    int weight = 1; // occurrences in the network
    double flops = 0.0; // per occurrence
};

struct TaskSet {
    std::string network;
    std::vector<Task> tasks;
    int leftOutNodes = 0; // element-wise or data-movement nodes not fused into any task

    double totalFlops() const;
    // Multiply-accumulates of the convolutions and matrix products, weighted: the "MACs" papers publish.
    double totalMacs() const;
    int totalWeight() const;
};

Expected<TaskSet> extractTasks(const Graph& graph);

// Where one placeholder of a group's DAG gets its value: the output of a node outside the group (param < 0), or
// parameter `param` of a node in the group (its weight, bias, ...).
struct ArgumentSource {
    int node = -1;
    int param = -1;
};

// One unit of execution: a task's fused chain, or a node that is not part of any task (data movement, a lone
// element-wise op). Every node that is not an input or a constant is in exactly one group.
struct Group {
    std::vector<int> nodes; // in order; the last one's value is the group's output
    int task = -1; // index into Partition::tasks.tasks, -1 where the group is not a tuning task
    ir::ComputeDAG dag;
    std::vector<ArgumentSource> sources; // one per dag.placeholders() stage, in that order
};

// The tasks (as extractTasks) and every group, in an order that runs the graph: each group after the groups whose
// outputs it reads.
struct Partition {
    TaskSet tasks;
    std::vector<Group> groups;
};

Expected<Partition> partitionGraph(const Graph& graph);

} // namespace ts::graph
