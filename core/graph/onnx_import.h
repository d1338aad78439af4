// ONNX models in: a .onnx file (opsets 6-17, read with Debian's libonnx) becomes a Graph with the model's
// weights, so its tasks are extracted, tuned and run like a built-in network's.
//
// What the importer does, in order:
// - reads the ModelProto (initializers inline or in external data files beside the model) and runs ONNX's
//   checker on it;
// - fixes each graph input's shape: a symbolic first dimension is the batch (`batch`), any other symbolic
//   dimension is an error naming the input and axis; a scalar (rank 0) input has shape [1], as every tensor of
//   TuneScope has rank >= 1; an INT64/INT32 input is accepted only where every reader is a Gather taking it as
//   its indices (token ids): it is held as float32 whole numbers, its Node::indexBound the rows it indexes;
// - walks the nodes in their (topological) order, keeping a value table: a value is either a graph node or a
//   constant known at import time. Shape arithmetic (Shape, Gather, Concat, Unsqueeze, Cast, ... on
//   constants) is folded; a BatchNormalization after a convolution is folded into its weights and bias, as
//   TVM's SimplifyInference + FoldScaleAxis do; Identity and inference Dropout are aliases;
// - maps every other node to graph nodes with ONNX's semantics (Conv -> conv2d + bias_add, Gemm/MatMul with a
//   constant right operand -> dense on the transposed weight, so layers a built-in network also has give the
//   same tasks and share records).
// An operator, attribute or attribute value it does not support is an error naming the node, the op type,
// the attribute and the opset: never an approximation. checkOnnx() lists every such node of a model at once.
//
// How to support another operator: add a case to the dispatch table in onnx_import.cpp (converting to
// existing node kinds, or adding a node kind as graph.h says), a case to tests/core/onnx_import_test.cpp, and
// check ONNX's own node tests for it (OnnxTestData.* prints how many cases ran, passed and were skipped).
#pragma once

#include "core/graph/graph.h"
#include "core/ir/reference_evaluator.h"
#include "core/support/error.h"

#include <map>
#include <string>
#include <vector>

namespace ts::graph {

struct OnnxImportOptions {
    int64_t batch = 1; // the size of a symbolic first input dimension
    // Graph inputs whose values are fixed at import (a shape, axes or indices that the model takes as an input),
    // each from a serialized TensorProto file: they become constants, as initializers are.
    std::map<std::string, std::string> boundInputs;
};

// A graph input as the model declares it (initializers excluded).
struct OnnxInput {
    std::string name;
    std::string type; // "FLOAT", "INT64", ...
    std::vector<int64_t> shape; // -1 where symbolic
};

struct OnnxModel {
    Graph graph { "onnx", ops::Layout::NCHW, 1 };
    int64_t opset = 0;
    std::string producer; // "pytorch 1.13.1"
    std::vector<std::string> inputNames; // graph inputs that are not initializers, in the model's order
    std::vector<int> inputs; // their node ids
    std::vector<std::string> outputNames;
    std::vector<int> outputs;
};

// A node the importer cannot convert, and why.
struct OnnxIssue {
    std::string node; // the node's name, or "#index" where it has none
    std::string opType;
    std::string attribute; // the attribute or input at fault, empty where the op itself is unsupported
    int64_t opset = 0;
    std::string message;

    std::string text() const;
};

struct OnnxCheck {
    int64_t opset = 0;
    int nodes = 0;
    std::vector<OnnxIssue> issues;
    int notChecked = 0; // nodes downstream of an unsupported node only
};

Expected<OnnxModel> importOnnx(const std::string& path, const OnnxImportOptions& options = {});
Expected<std::vector<OnnxInput>> onnxInputs(const std::string& path);
// Every unsupported node of the model; an error only where the file itself cannot be read or checked.
Expected<OnnxCheck> checkOnnx(const std::string& path, const OnnxImportOptions& options = {});

// A serialized TensorProto (ONNX test data's input_0.pb, output_0.pb), as float32.
Expected<ir::Buffer> readOnnxTensor(const std::string& path);

// "resnet18.onnx" and friends: what a network name that is a path to an ONNX model looks like.
bool isOnnxPath(const std::string& name);

} // namespace ts::graph
