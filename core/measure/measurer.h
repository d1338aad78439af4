// Builder + runner with Ansor's parameters (LocalBuilder / LocalRunner): candidates are lowered and compiled
// in parallel threads, then run one at a time in the tunescope-runner child process, and every result is
// checked against the reference evaluator. Nothing a candidate does can take the engine down: a schedule
// that does not apply, LLVM failing, a build or a run that takes too long, a kernel that crashes or
// computes the wrong thing each yield one MeasureResult with TVM's error number.
#pragma once

#include "core/lower/stmt.h"
#include "core/measure/measure_result.h"
#include "core/measure/reference.h"
#include "core/measure/timing.h"
#include "core/schedule/state.h"
#include "core/target/target.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ts::measure {

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
    target::Target target = target::Target::host(); // what candidates are lowered and compiled for
};

class Measurer {
public:
    explicit Measurer(MeasureOptions options = {});
    ~Measurer();

    // One result per state, in order. `task` is the DAG the states were replayed on.
    std::vector<MeasureResult> measure(const ir::ComputeDAG& task, const std::vector<sched::State>& states);
    // A loop program made by hand (tests: a kernel that crashes or hangs on purpose).
    MeasureResult measureFunc(const ir::ComputeDAG& task, const lower::LoweredFunc& func);

    const MeasureOptions& options() const { return m_options; }
    int runnerStarts() const;

    struct Built;

private:
    MeasureResult run(const ir::ComputeDAG& task, Built& built);
    const Reference* reference(const ir::ComputeDAG& task, std::string* error);

    MeasureOptions m_options;
    std::unique_ptr<RunnerProcess> m_runner;
    std::map<std::string, Reference> m_references; // by workload key
};

} // namespace ts::measure
