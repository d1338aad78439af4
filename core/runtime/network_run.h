// A whole network run from a workspace's best records: built, checked step by step against the reference
// evaluator (and its output against a reference output, when there is one), timed, and set beside Ansor's estimate
// (Σ weight x best record time) task by task.
//
// `tunescope-cli run` prints a NetworkRun and writes it as JSON (--json); the workbench's Network run view runs
// that command in a child process, so a kernel that crashes costs the run, never the window, and reads the JSON
// back (networkRunFromJson).
#pragma once

#include "core/runtime/graph_executor.h"
#include "core/store/store.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::runtime {

// Each task's best stored record on one device that runs on the task's own DAG. An AutoTVM program with a layout
// of its own (conv2d_NCHWc's packed data) needs packing steps the executor does not insert, so the next best
// record is taken. Without a store every task runs the default schedule.
class StoreScheduleChooser {
public:
    StoreScheduleChooser() = default;
    StoreScheduleChooser(store::Store& store, store::Device device);

    std::optional<GroupSchedule> operator()(const graph::Task& task);
    bool hasStore() const { return m_store != nullptr; }
    // Task id -> the chosen record's time, for the tasks chosen so far.
    const std::map<int, double>& chosenSeconds() const { return m_seconds; }

private:
    store::Store* m_store = nullptr;
    store::Device m_device;
    std::map<int, double> m_seconds;
};

// The network's output against a reference: the worst element's error as a share of rtol 2e-3, atol 2e-3 x the
// reference's largest magnitude (<= 1 is equal), and that magnitude.
struct OutputMatch {
    double error = 0.0;
    double scale = 0.0;
};
Expected<OutputMatch> matchOutput(const ir::Buffer& got, const ir::Buffer& reference, const std::string& what);

struct TaskRun {
    int task = 0;
    std::string name;
    int weight = 0;
    double estimateSeconds = -1.0; // weight x the record's time; < 0: no record
    double measuredSeconds = 0.0; // all its occurrences in one run
    double hotSeconds = 0.0; // the same, each step timed hot (GraphExecutor::runHot), as its record was
    std::string schedule; // "record 812", "default schedule (no record)"
};

// A library run beside ours (run --compare libtorch), filled by the caller that has the library.
struct LibraryRun {
    std::string what; // "LibTorch (resnet18.pt)"
    int threads = 0;
    std::string backends;
    double medianSeconds = 0.0;
    double p90Seconds = 0.0;
    double outputError = 0.0; // OutputMatch::error against our output
};

struct NetworkRun {
    std::string network; // a zoo name or the ONNX file's name
    int64_t batch = 1;
    std::string cpu;
    int threads = 0; // 0: all cores
    int kernels = 0;
    int views = 0; // reshapes that run nothing
    double buildSeconds = 0.0;
    int64_t plannedBytes = 0;
    int64_t unplannedBytes = 0;

    int checkedSteps = 0;
    double worstCheck = 0.0; // StepCheck::error, <= 1 is right
    int worstStep = -1;
    std::string wrongSteps; // "12 (conv2d_bias_add_relu, 3.1), ..."; not empty: wrong, and nothing was timed

    std::string expectedName; // the reference output's name, empty: none
    OutputMatch expected;

    std::vector<double> runSeconds; // whole runs
    double medianSeconds = 0.0;
    double p90Seconds = 0.0;
    double estimateSeconds = 0.0; // Σ over tasks with a record
    int estimatedTasks = 0;
    std::vector<TaskRun> tasks;
    double otherSeconds = 0.0; // the steps that are no task's (default schedule)
    int otherSteps = 0;
    // Those steps by name (their nodes' kinds), the slowest first: where the time outside tasks goes.
    struct OtherStep {
        std::string name;
        int count = 0;
        double seconds = 0.0; // all of them, one run
    };
    std::vector<OtherStep> others;
    double otherHotSeconds = 0.0;
    double stepSumSeconds = 0.0; // Σ of the steps timed one by one

    std::optional<LibraryRun> library;

    ir::Buffer output; // the first output of the last run (not in the JSON)

    // The measured time of the tasks that have an estimate (all occurrences, timed step by step), to set beside
    // estimateSeconds when not every task is tuned.
    double estimatedTasksMeasuredSeconds() const
    {
        double sum = 0.0;
        for (const TaskRun& t : tasks)
            sum += t.estimateSeconds >= 0 ? t.measuredSeconds : 0.0;
        return sum;
    }
    bool allEstimated() const { return estimatedTasks > 0 && estimatedTasks == static_cast<int>(tasks.size()); }

    bool wrong() const { return !wrongSteps.empty() || (!expectedName.empty() && expected.error > 1.0); }
};

struct NetworkRunOptions {
    int repeat = 20;
    int threads = 0; // kernels' parallel loops; 0: all cores
    // One buffer per Input node, in node order; empty: seeded random values (ir::fillRandomInput(7, i)).
    std::vector<ir::Buffer> inputs;
    std::optional<ir::Buffer> expected; // the reference output, with its name
    std::string expectedName;
    int checkSamples = 32;
};

// The q-quantile (0..1) of the values, by rank; 0 for none.
double percentile(std::vector<double> values, double q);

// The inputs runNetwork uses when none are given: seeded uniform values in [-1, 1), and for an input of ids
// (Node::indexBound > 0) seeded whole numbers in [0, indexBound), so every id is valid.
std::vector<ir::Buffer> seededInputs(const graph::Graph& graph);

// Builds, checks and times the network. A wrong step or a wrong output ends the run after the check (the report
// says which); errors are for what could not run at all.
Expected<NetworkRun> runNetwork(const graph::Graph& graph, const graph::Partition& partition,
    StoreScheduleChooser& chooser, const ExecutorOptions& executor, const NetworkRunOptions& options);

std::string networkRunToJson(const NetworkRun& run);
Expected<NetworkRun> networkRunFromJson(const std::string& text);

} // namespace ts::runtime
