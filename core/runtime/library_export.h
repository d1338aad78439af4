// Export a tuned network as a shared library with a plain C API, as TVM's export_library does: what a user links
// into their own program, with no TuneScope library needed at run time.
//
// exportLibrary() plans the network as the graph executor does (network_plan.h: the same schedules, buffer plan
// and layout rewrites), compiles each kernel to an object file for the target (position-independent code, so the
// target may be an older x86 level than this machine), and writes into the output folder:
//   NAME.h           the C API (below)
//   NAME.c           the glue: slot sizes, the kernel sequence, the weights' offsets, and the three functions the
//                    generated code calls (ts_parallel_for on OpenMP, ts_alloc, ts_free)
//   kernels/*.o      one object per kernel
//   NAME.weights     every constant and parameter, float32 little-endian, after an 16-byte header
//                    ("TSWEIGHT", then the number of floats as uint64)
//   libNAME.so       built with the system C compiler: cc -shared -fPIC -O2 -fopenmp NAME.c kernels/*.o -lm
//   example.c        a minimal program: reads the input (raw float32; raw int64 for token ids) or fills it, runs,
//                    writes the output
// The C API, NAME_ prefixed: create(weights path) / num_inputs / input_size / set_input / run / get_output /
// output_size / destroy / last_error; every function returns 0 on success or NULL, and last_error says why. An
// input of token ids (graph::Node::indexBound) is float32 whole numbers like any other (set_input), or int64
// through set_input_ids; input_id_rows says how many rows it indexes (0: a float input).
#pragma once

#include "core/runtime/graph_executor.h"

#include <string>
#include <vector>

namespace ts::runtime {

struct ExportOptions {
    std::string directory; // created if missing
    std::string name = "model"; // [a-z0-9_]+, the C prefix and the library's name
    target::Target target = target::Target::host(); // what the kernels are compiled for
    std::string compiler = "cc";
};

struct ExportedLibrary {
    std::string library, header, source, weights, example;
    int kernels = 0;
    int64_t weightBytes = 0;
    std::vector<std::vector<int64_t>> inputShapes, outputShapes;
};

Expected<ExportedLibrary> exportLibrary(const graph::Graph& graph, const graph::Partition& partition,
    const ScheduleChooser& choose, const ExecutorOptions& executor, const ExportOptions& options);

} // namespace ts::runtime
