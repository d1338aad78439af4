// LibTorch beside the graph executor, for `run --compare libtorch`: either the same model as a TorchScript file
// (torch.jit.trace of it, as the ONNX test fixtures save one), or any TuneScope graph rebuilt op by op in ATen on
// the same parameter values, run in this process on the same input. The only file of core/runtime that includes
// LibTorch (its own target, ts_runtime_torch).
//
// How to add a node kind to runGraphInTorch: map it in torch_reference.cpp's translateNode() to the ATen op with
// the semantics of its ops:: builder (the reference evaluator is the oracle), and add a small graph with it to
// tests/core/torch_graph_test.cpp. A kind or attribute without an exact ATen equivalent is an Unsupported error.
#pragma once

#include "core/graph/graph.h"
#include "core/ir/reference_evaluator.h"
#include "core/support/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::runtime {

struct TorchRun {
    ir::Buffer output; // the first output
    std::vector<double> seconds; // one per timed run, after warm-up
    int threads = 0; // intra-op threads LibTorch ran with
    std::string backends; // "oneDNN (MKLDNN) built yes, enabled yes"
};

// Loads the TorchScript file, runs it `repeat` times (after 3 warm-up runs) on `inputs` with `threads` intra-op
// threads (0: all cores), and returns its output and times. LibTorch's exceptions (a file that
// is not TorchScript, inputs of the wrong shape) become errors naming the file. Input k is passed as an int64
// (Long) tensor where integerInputs[k] is true (token ids, graph::Node::indexBound), as a float tensor otherwise.
Expected<TorchRun> runTorchScript(const std::string& path, const std::vector<ir::Buffer>& inputs, int repeat,
    int threads, const std::vector<bool>& integerInputs = {});

// The graph built op by op in LibTorch (ATen), on the same parameter values every runner of the graph uses
// (Node::params, else graph::seededParameter(): seeded, weights He-scaled — see
// core/graph/graph_evaluator.h), run `repeat` times after 3 warm-ups with `threads` intra-op threads (0: all
// cores). `inputs`: one buffer per Input node, in node order. The output is the value of node `output` (default:
// the last computed node nobody reads, as the executor picks). Weights become tensors once, before the runs.
Expected<TorchRun> runGraphInTorch(const graph::Graph& graph, const std::vector<ir::Buffer>& inputs, int repeat,
    int threads, uint64_t seed = 1, int output = -1);

} // namespace ts::runtime
