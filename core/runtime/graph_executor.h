// The graph executor: a whole network run for real, from its tasks' schedules.
//
// GraphExecutor::build takes a graph and its partition (graph::partitionGraph) and compiles every group to
// machine code for the target:
// - a task group runs the schedule the chooser picks for it (a tuned record, replayed), lowered with Ansor's
//   layout_rewrite_option 2: its weights are packed once, when the network is built, not on every run (option 1,
//   packing inside the kernel, where the operand a batch_matmul or matmul would pack is an activation);
// - a group without one, and every group that is not a task (a lone element-wise op, a transpose, a concat,
//   a slice), runs the default schedule (defaultSchedule(): element-wise stages inlined, the outermost loop
//   of each stage parallel); a reshape is a view of its input and runs nothing.
// Activations live in one planned set of buffers: a buffer is reused by a later group once the last group that
// reads it has run (best fit by size). Weights are the graph's parameter values, or seeded random values where
// the graph gives only shapes (the built-in networks).
//
// Runs are in this process (codegen's JIT); checkSteps() compares each group's output, on the values it
// actually read, with the reference evaluator at sampled positions.
#pragma once

#include "core/codegen/codegen.h"
#include "core/graph/task_extraction.h"
#include "core/ir/reference_evaluator.h"
#include "core/schedule/state.h"
#include "core/target/target.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ts::runtime {

// How a group runs, and where that schedule came from (shown per task).
struct GroupSchedule {
    sched::State state;
    std::string source; // "record 812", "default schedule (no record)"
    double expectedSeconds = 0.0; // the record's measured time, 0 where unknown
};

// Picks a task group's schedule; nullopt falls back to the default schedule. Called once per task.
using ScheduleChooser = std::function<std::optional<GroupSchedule>(const graph::Task& task)>;

// A State for the group's DAG that any graph can run: element-wise and padding stages inlined into their
// consumers, the outermost loop of every remaining stage parallel.
sched::State defaultSchedule(const ir::ComputeDAG& dag);

struct ExecutorOptions {
    target::Target target = target::Target::host();
    uint64_t seed = 1; // values of parameters the graph gives only shapes for (graph_evaluator.h's)
    std::vector<int> outputs; // node ids to keep; default: the nodes nobody reads
};

// One executed group.
struct StepInfo {
    std::string name; // "conv2d_bias_add_relu" or the node's kind
    int task = -1; // index into the partition's tasks, -1 for a non-task group
    std::string schedule; // GroupSchedule::source
    bool view = false; // a reshape: no kernel
    double flops = 0.0;
};

struct StepCheck {
    int step = 0;
    double error = 0.0; // max |got - want| / (atol + rtol |want|) over the samples; <= 1 is right
};

class GraphExecutor {
public:
    static Expected<GraphExecutor> build(const graph::Graph& graph, const graph::Partition& partition,
        const ScheduleChooser& choose, const ExecutorOptions& options = {});

    GraphExecutor(GraphExecutor&&) noexcept;
    GraphExecutor& operator=(GraphExecutor&&) noexcept;
    ~GraphExecutor();

    // One buffer per Input node, in node order, each of its node's shape.
    Expected<void> setInputs(const std::vector<ir::Buffer>& inputs);
    // Runs every group in order.
    void run();
    // The same, adding each step's wall time (seconds) to perStep (resized to steps().size()).
    void runTimed(std::vector<double>& perStep);
    // The same in order, but each step run `repeats` more times right after its first run, and perStep set to the
    // median of those: the step's time hot (its data just touched), as a record is timed. Against runTimed it
    // tells what a step loses to the data the network left in the caches.
    void runHot(std::vector<double>& perStep, int repeats);

    // A kept output's (or an input's) current value.
    Expected<ir::Buffer> value(int node) const;
    const std::vector<int>& outputs() const;
    const std::vector<StepInfo>& steps() const;
    // Bytes of activation buffers after planning, and what they would be with one buffer per value.
    int64_t plannedBytes() const;
    int64_t unplannedBytes() const;

    // After a run: each step's output against the reference evaluator, at `samples` positions, on the values the
    // step read (while planned buffers still hold them: the check reruns the network step by step).
    Expected<std::vector<StepCheck>> checkSteps(int samples, double rtol = 1e-3, double atol = 1e-4);

private:
    struct Impl;
    explicit GraphExecutor(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace ts::runtime
