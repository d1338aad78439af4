// LibTorch beside the graph executor: the same model as a TorchScript file (torch.jit.trace of it, as the ONNX test
// fixtures save one), run in this process on the same input, for `run --compare libtorch:FILE.pt`. The only file
// of core/runtime that includes LibTorch (its own target, ts_runtime_torch).
#pragma once

#include "core/ir/reference_evaluator.h"
#include "core/support/error.h"

#include <string>
#include <vector>

namespace ts::runtime {

struct TorchRun {
    ir::Buffer output; // the first output
    std::vector<double> seconds; // one per timed run, after warm-up
    int threads = 0; // intra-op threads LibTorch ran with
    std::string backends; // "oneDNN (MKLDNN) built yes, enabled yes; ATen vector code AVX512"
};

// Loads the TorchScript file, runs it `repeat` times (after 3 warm-up runs) on `inputs` with `threads` intra-op
// threads (0: all cores), and returns its output and times. LibTorch's exceptions (a file that
// is not TorchScript, inputs of the wrong shape) become errors naming the file.
Expected<TorchRun> runTorchScript(
    const std::string& path, const std::vector<ir::Buffer>& inputs, int repeat, int threads);

} // namespace ts::runtime
