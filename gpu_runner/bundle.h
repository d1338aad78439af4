// A kernel bundle: everything tunescope-gpu-runner needs to run and check one lowered function on a GPU,
// one JSON object per line of a bundle file (docs/gpu.md has the format). The engine writes them
// (core/measure/gpu_bundle.h); the runner reads them with nothing but this file and mini_json.
#pragma once

#include "gpu_runner/mini_json.h"

#include "core/support/error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ts::gpurunner {

constexpr int kBundleVersion = 1;

struct BundleKernel {
    std::string name;
    std::array<unsigned, 3> grid { 1, 1, 1 };
    std::array<unsigned, 3> block { 1, 1, 1 };
};

struct BundleBuffer {
    std::string name;
    int64_t elements = 0; // float32
    std::string role; // "input" (filled from the seed), "output", "workspace"
};

struct ExpectedValues {
    int buffer = 0; // index into buffers, an output
    std::vector<int64_t> offsets;
    std::vector<float> values;
};

struct Timing {
    int warmup = 1;
    int number = 3;
    int repeat = 1;
    int minRepeatMs = 100;
    bool flushL2 = false; // overwrite a buffer as large as the L2 before each run
    int timeoutMs = 10000; // the whole bundle, compile included
};

struct Bundle {
    std::string id; // echoed into the result
    std::string record; // opaque to the runner, echoed (the engine's record of what was measured)
    std::string ptx; // either PTX ...
    std::string source; // ... or CUDA C, compiled here with NVRTC for this GPU
    // Not in the file: the source compiled ahead for this GPU (a cubin; main.cpp compiles a file's bundles in
    // several processes before any runs), or why it did not compile.
    std::string cubin;
    std::string compileError;
    std::vector<BundleKernel> kernels; // launched in order
    std::vector<BundleBuffer> buffers; // every kernel's parameters, in order
    uint64_t seed = 0;
    std::vector<ExpectedValues> expected;
    double rtol = 1e-4, atol = 1e-4;
    Timing timing;
};

// One bundle from its JSON line; errors (Parse, InvalidArgument) name the field.
Expected<Bundle> parseBundle(std::string_view line);

// TVM's MeasureErrorNo.
enum class RunError { None = 0, CompileDevice = 3, RuntimeDevice = 4, WrongAnswer = 5, RunTimeout = 7, Unknown = 8 };

struct RunResult {
    std::string id;
    std::string record;
    std::vector<double> costs; // seconds per run, one per repeat
    RunError error = RunError::None;
    std::string message;
    double allCost = 0.0; // seconds, the whole bundle
    std::string device; // "NVIDIA H100 80GB HBM3 (sm_90)"
};

// One JSON line: {"id":..., "record":..., "costs":[...], "error_no":N, "error_msg":..., "all_cost":..., "device":...}
std::string toJsonLine(const RunResult& result);

} // namespace ts::gpurunner
