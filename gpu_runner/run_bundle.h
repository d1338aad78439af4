// Runs one bundle on GPU 0 of this process (the runner's worker child): compile (PTX as is through the
// driver's JIT, CUDA C through NVRTC for this GPU), fill the inputs from the seed, launch the kernels once
// and check the expected values, then time them with CUDA events as TVM's time_evaluator does: `warmup`
// untimed runs, then `repeat` measurements of `number` runs each, `number` grown until a measurement lasts
// `min_repeat_ms`; with flush_l2, a buffer the size of the L2 is overwritten before each timed run.
#pragma once

#include "gpu_runner/bundle.h"

namespace ts::gpurunner {

struct Outcome {
    RunResult result;
    bool contextLost = false; // a fault: the CUDA context is unusable, this process must end
};

Outcome runBundle(const Bundle& bundle);

// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 50 MiB L2)" as JSON: {"name":..., "arch":..., ...}, or the error.
Expected<std::string> deviceInfoJson();

// The device's compute architecture, "sm_90".
Expected<std::string> deviceArch();

} // namespace ts::gpurunner
