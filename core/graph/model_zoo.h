// The built-in networks. Weights are not needed: a network is its operator graph, and its tasks come from
// extractTasks(). Batch norm is folded into the preceding convolution's bias, as inference compilers do
// (TVM's SimplifyInference + FoldScaleAxis), and dropout is the identity.
//
// How to add a network: write `Graph buildFoo(int64_t batch, ops::Layout layout)` in models/foo.cpp
// (declared in models/models.h), add a row to the table in model_zoo.cpp, and add its task counts to
// tests/core/graph_test.cpp.
#pragma once

#include "core/graph/graph.h"

#include <string>
#include <vector>

namespace ts::graph {

struct NetworkInfo {
    std::string name; // "resnet-18"
    std::string description;
    bool imageLayouts = true; // accepts NCHW and NHWC
    double publishedGMacs = 0.0; // at batch 1 and the default input size, 0 where not published
};

const std::vector<NetworkInfo>& networks();
const NetworkInfo* findNetwork(const std::string& name);

// Checks the name, batch (1..4096) and layout, then builds the graph. A name ending in ".onnx" is a path to an
// ONNX model, imported with its weights (onnx_import.h).
Expected<Graph> buildNetwork(const std::string& name, int64_t batch, ops::Layout layout = ops::Layout::NCHW);

} // namespace ts::graph
