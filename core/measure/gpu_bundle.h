// Kernel bundles for tunescope-gpu-runner (gpu_runner/bundle.h reads them; docs/gpu.md has the format): a
// state lowered for a GPU target becomes one JSON line with its CUDA C (and the PTX, where NVRTC is here),
// each kernel's launch shape, the buffers, the input seed and a sample of the expected outputs computed on
// this host by the reference evaluator. The runner's result lines come back as MeasureResults. The same
// bundle runs on this machine's GPU or on a GPU machine elsewhere (build here, measure there).
#pragma once

#include "core/ir/compute_dag.h"
#include "core/measure/reference.h"
#include "core/measure/timing.h"
#include "core/record/measure_result.h"
#include "core/schedule/state.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <string>
#include <string_view>

namespace ts::measure {

struct GpuBundleOptions {
    TimingOptions timing; // number, repeat, min_repeat_ms, warm-up; flushCache flushes the L2
    int timeoutMs = 10000; // the runner kills a bundle past this (compile on the GPU machine included)
    uint64_t seed = 1;
    int samples = 512; // expected values per output
    double rtol = 1e-3, atol = 1e-3;
    // Compile the CUDA C to PTX here (NVRTC, about a second a kernel on one core) so that a compile error is
    // found before the GPU machine sees it. False: CUDA C alone; the runner compiles it for its own GPU, on
    // all of that machine's cores (tunescope-gpu-runner --jobs), and a compile error comes back as status 3.
    bool ptx = true;
};

// A bundle built for a reference computed once per DAG (the measurer's way): `line` when status is Ok, else
// the failure as a measurement records it (a limit or a step that does not apply: InstantiationError;
// NVRTC: CompileDeviceError; other code generation errors: CompileHostError).
struct GpuBuild {
    std::string line;
    record::MeasureStatus status = record::MeasureStatus::Ok;
    std::string message;
};
GpuBuild buildGpuBundle(const sched::State& state, const target::Target& target, const Reference& reference,
    const std::string& id, const std::string& record, const GpuBundleOptions& options);

// The bundle line; `record` (opaque to the runner, echoed in its result) is the TVM log line the result
// completes (see importGpuResults). Errors: the lowering's (a limit the device cannot launch is
// InvalidArgument), code generation's, the reference's.
Expected<std::string> makeGpuBundle(const ir::ComputeDAG& dag, const sched::State& state, const target::Target& target,
    const std::string& id, const std::string& record, const GpuBundleOptions& options = {});

struct GpuResult {
    std::string id;
    std::string record;
    record::MeasureResult result;
    std::string device; // "NVIDIA H100 80GB HBM3 (sm_90)"
};

// One line of the runner's output; Parse errors name the field.
Expected<GpuResult> parseGpuResult(std::string_view line);

// Where tunescope-gpu-runner is: next to the running executable, else the build tree's (as
// defaultRunnerPath for tunescope-runner).
std::string defaultGpuRunnerPath();

} // namespace ts::measure
