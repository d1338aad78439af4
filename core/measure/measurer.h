// Builder + runner with Ansor's parameters (LocalBuilder / LocalRunner): candidates are lowered and compiled
// in parallel on the measurer's build threads, then run one at a time in the tunescope-runner child
// process, and every result is checked against the reference evaluator. Nothing a candidate does can take
// the engine down: a schedule that does not apply, LLVM failing, a build or a run that takes too long, a
// kernel that crashes or computes the wrong thing each yield one MeasureResult with TVM's error number.
//
// Live measurement (measure with callbacks):
// - Results arrive one by one, in completion order, on the thread that called measure: a build failure
//   (or build timeout) as soon as it is known, while the batch builds; then each run as it ends, in index
//   order. Runs start when every build has ended, as TVM's LocalBuilder/LocalRunner do, so that compile
//   threads never share the cores with a kernel being timed.
// - A stop request returns promptly: builds not started are skipped, builds running are abandoned (they
//   end on the build threads, their results discarded), the kernel running is cut by killing the runner
//   child (restarted by the next run). Candidates not finished are not reported: a stop is not a failure
//   of theirs, so it never becomes a record. In-process runs (isolate off) are not interrupted; the stop
//   takes effect after the kernel running.
// - A build past buildTimeoutMs is reported as BuildTimeout and abandoned the same way; the pool lends a
//   thread meanwhile, so the other builds are not held up.
// - The measurer owns its build threads; its destructor joins them (waiting for abandoned builds to end)
//   and kills the runner: nothing is left running. Build jobs own copies of their states.
//
// GPU targets: each candidate becomes a kernel bundle (gpu_bundle.h: lowered within the device's limits,
// CUDA C, PTX with NVRTC) on the calling thread, failures reported at once; then tunescope-gpu-runner runs
// the batch and each of its result lines is delivered as it comes. A stop kills the runner.
#pragma once

#include "core/lower/stmt.h"
#include "core/measure/reference.h"
#include "core/measure/timing.h"
#include "core/record/measure_result.h"
#include "core/schedule/state.h"
#include "core/target/target.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace ts::measure {

// The shared vocabulary (core/record), under the names measure's callers have used.
using record::kFailedCost;
using record::MeasureResult;
using record::MeasureStatus;
using record::toString;

class BuildPool;
class RunnerProcess;

struct MeasureOptions {
    TimingOptions timing; // number 3, repeat 1, min_repeat_ms 100, as TVM's LocalRunner
    int buildTimeoutMs = 15000;
    int runTimeoutMs = 10000;
    int buildParallelism = 0; // 0: one build thread per core
    int kernelThreads = 0; // threads of `parallel` loops; 0: all cores
    uint64_t seed = 1; // input values
    bool checkCorrectness = true;
    double rtol = 1e-3; // float reassociation in long reductions
    double atol = 1e-3;
    bool isolate = true; // run in tunescope-runner; false: in this process (benchmarks of trusted code)
    std::string runnerPath; // empty: defaultRunnerPath()
    std::string gpuRunnerPath; // GPU targets; empty: defaultGpuRunnerPath()
    // GPU targets measured by a shell command instead: each batch's bundles on its standard input, one result
    // line per bundle read from its standard output as it comes. "ssh gpu-host tunescope-gpu-runner -" measures
    // on another machine's GPU. Empty: run the runner here.
    std::string gpuRunnerCommand;
    // GPU targets measured on another machine: each batch's bundles are written to
    // <dir>/batch-<pid>-<k>.jsonl, and its results are read from <dir>/batch-<pid>-<k>.results.jsonl once that
    // file appears (moved there whole: a result missing from it is a failed measurement). Empty: run the
    // runner here.
    std::string gpuExchangeDir;
    target::Target target = target::Target::host(); // what candidates are lowered and compiled for
    // Ansor's layout_rewrite_option on a CPU target (lower::LowerOptions::layoutRewrite): 1 packs each
    // candidate's weights into the layout its loops read inside the timed function, 2 before the timed runs.
    int layoutRewrite = 0;
};

// Where a batch stands: builds ended (successful or not) and results delivered, out of total.
struct MeasureProgress {
    int built = 0;
    int done = 0;
    int total = 0;
};

// Called on the thread that called measure, one call at a time; either may request the stop.
struct MeasureCallbacks {
    // One call per candidate measured; `index` is its position in the batch.
    std::function<void(int index, MeasureResult result)> onResult;
    // After every build that ends and every result delivered.
    std::function<void(const MeasureProgress& progress)> onProgress;
};

struct GpuBundleOptions;
// The bundle options (gpu_bundle.h) a measurement with these options gives: its timing, seed and tolerances;
// the runner's timeout is the build's and the run's together.
GpuBundleOptions gpuBundleOptions(const MeasureOptions& options);

// MeasureOptions::gpuExchangeDir: this process's batches are <dir>/<prefix>K.jsonl, K counting from 1, and
// their results <dir>/<prefix>K.results.jsonl; the prefix is "batch-<pid>-".
std::string gpuExchangeBatchPrefix();

// What a tuning session measures a batch with: this machine's Measurer below, or the work queue of a shared
// workspace, whose workers measure elsewhere (engine/queue_measurer.h).
class BatchMeasurer {
public:
    virtual ~BatchMeasurer() = default;
    // Measures `states` (replayed on `task`), delivering each result as it completes (see the header
    // comment). Returns the number of results delivered: states.size() unless stopped.
    virtual int measure(const ir::ComputeDAG& task, std::vector<sched::State> states, const MeasureCallbacks& callbacks,
        std::stop_token stop = {})
        = 0;
};

class Measurer final : public BatchMeasurer {
public:
    explicit Measurer(MeasureOptions options = {});
    // Joins the build threads (waiting for abandoned builds) and stops the runner.
    ~Measurer() override;
    Measurer(const Measurer&) = delete;
    Measurer& operator=(const Measurer&) = delete;

    int measure(const ir::ComputeDAG& task, std::vector<sched::State> states, const MeasureCallbacks& callbacks,
        std::stop_token stop = {}) override;
    // One result per state, in order: the whole batch, no stop.
    std::vector<MeasureResult> measure(const ir::ComputeDAG& task, const std::vector<sched::State>& states);
    // A loop program made by hand (tests: a kernel that crashes or hangs on purpose), built on this thread.
    MeasureResult measureFunc(const ir::ComputeDAG& task, const lower::LoweredFunc& func);

    const MeasureOptions& options() const { return m_options; }
    int runnerStarts() const;

    struct Built;

private:
    // GPU targets (gpu_measure.cpp): bundles built on this thread, run by tunescope-gpu-runner.
    int measureOnGpu(const ir::ComputeDAG& task, const std::vector<sched::State>& states,
        const MeasureCallbacks& callbacks, std::stop_token stop);
    // std::nullopt when stopped before the run ended.
    std::optional<MeasureResult> run(const ir::ComputeDAG& task, Built& built, std::stop_token stop);
    const Reference* reference(const ir::ComputeDAG& task, std::string* error);

    MeasureOptions m_options;
    std::unique_ptr<RunnerProcess> m_runner;
    std::map<std::string, Reference> m_references; // by workload key
    std::unique_ptr<BuildPool> m_pool; // last: destroyed (joined) first
};

} // namespace ts::measure
