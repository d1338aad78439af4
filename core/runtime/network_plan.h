// A network's execution plan, the part the graph executor (graph_executor.h) and the library export
// (library_export.h) share: every group lowered with its schedule, every value given a storage slot (inputs,
// constants, parameters, and activations reused by lifetime), each kernel argument bound to a slot. Nothing is
// compiled or allocated here.
#pragma once

#include "core/graph/task_extraction.h"
#include "core/ir/reference_evaluator.h"
#include "core/lower/stmt.h"
#include "core/runtime/graph_executor.h"

#include <memory>
#include <optional>
#include <vector>

namespace ts::runtime {

enum class SlotKind { Input, Constant, Parameter, Activation };

struct Slot {
    SlotKind kind = SlotKind::Activation;
    int64_t elements = 0;
    std::shared_ptr<const ir::Buffer> value; // Constant and Parameter slots: the values they start with
    int node = -1; // Input slots: the input node
};

struct PlannedStep {
    StepInfo info;
    std::optional<lower::LoweredFunc> func; // absent for a view
    std::vector<int> argSlots; // one per func->args
    ir::ComputeDAG dag; // the group's DAG (what the reference evaluator checks the kernel against)
    std::vector<int> placeholderSlots; // one per dag.placeholders()
    int outputSlot = -1;
};

struct NetworkPlan {
    std::vector<Slot> slots;
    std::vector<PlannedStep> steps;
    std::vector<int> nodeSlot; // per graph node, -1 where it has none
    std::vector<int> inputs; // the Input nodes, in order
    std::vector<int> outputs; // the kept nodes
    int64_t plannedBytes = 0;
    int64_t unplannedBytes = 0;
};

Expected<NetworkPlan> planNetwork(const graph::Graph& graph, const graph::Partition& partition,
    const ScheduleChooser& choose, const ExecutorOptions& options);

} // namespace ts::runtime
