// Network graphs: operator-level nodes (a conv2d, a bias add, a reshape) with inferred shapes.
//
// A Graph is what a model-zoo entry or an ONNX import (onnx_import.h) builds. Each node is lowered to tensor
// expressions by lowerNode(), the same function that infers its shape when the node is added, so a node's
// recorded shape can never disagree with the DAG built for it. Errors are sticky: the first invalid node
// (an impossible shape) is recorded with its name, later additions are ignored, and error() reports it.
#pragma once

#include "core/ir/operation.h"
#include "core/ir/reference_evaluator.h"
#include "core/ops/conv.h"
#include "core/ops/elementwise.h"
#include "core/ops/pool.h"
#include "core/ops/transform.h"
#include "core/support/error.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ts::graph {

// How to add a node kind: add it here and to toString(), say in nodeClass() whether it anchors a task, fuses
// element-wise or only moves data, lower it in lowerNode() (an ops:: builder, as TVM's topi defines the
// operator), and map the model-importer op to it (onnx_import.cpp).
enum class NodeKind {
    Input,
    Constant, // a tensor whose values the model gives (ONNX initializers and Constant nodes)
    Conv2d,
    DepthwiseConv2d,
    ConvTranspose2d, // NCHW; weight [in, out / groups, kh, kw]
    Dense,
    MatMul,
    BatchMatMul,
    MaxPool2d,
    AvgPool2d,
    GlobalAvgPool2d,
    Softmax,
    LayerNorm,
    Reduce, // Node::reduce over Node::permutation's axes
    // element-wise
    BiasAdd,
    Relu,
    Clip,
    Add,
    Multiply,
    Scale,
    Gelu,
    Subtract,
    Divide,
    Power,
    Maximum,
    Minimum,
    Unary, // Node::unary says which function
    // data movement only (no arithmetic)
    Reshape,
    Transpose,
    Concat,
    Slice,
    Pad,
    Take, // inputs {data, indices}: data's entries along Node::axis at the indices' run-time values (ops::take)
};

std::string_view toString(NodeKind kind);
// Compute-heavy operators that anchor a fused task (they reduce).
bool isAnchor(NodeKind kind);
bool isElementwise(NodeKind kind);
// Reshape, transpose, concat, slice, pad, take: no arithmetic; TVM's task extraction leaves them out by default.
bool isDataMovement(NodeKind kind);
// An input or a constant: a value the graph is given, not one it computes.
bool isSource(NodeKind kind);

struct Node {
    NodeKind kind = NodeKind::Input;
    std::string name;
    std::vector<int> inputs;
    std::vector<int64_t> shape;

    // Attributes, meaningful per kind.
    ops::Conv2dParams conv; // Conv2d, DepthwiseConv2d, ConvTranspose2d
    std::array<int64_t, 2> outputPadding { 0, 0 }; // ConvTranspose2d: rows and columns added at the bottom and right
    std::vector<int64_t> weightShape; // Conv2d, DepthwiseConv2d, ConvTranspose2d, Dense
    ops::Pool2dParams pool; // MaxPool2d, AvgPool2d
    ops::Layout layout = ops::Layout::NCHW; // GlobalAvgPool2d
    int axis = 0; // BiasAdd, Concat, Take
    double scalar = 1.0; // Scale; Clip lower bound; Pad value; Unary alpha
    double upper = 0.0; // Clip upper bound; Unary beta
    bool transposeB = true; // BatchMatMul
    std::vector<int> permutation; // Transpose; Reduce's axes
    bool keepDims = true; // Reduce
    ops::ReduceOp reduce = ops::ReduceOp::Mean; // Reduce
    double epsilon = 1e-5; // LayerNorm
    ops::UnaryOp unary = ops::UnaryOp::Sigmoid; // Unary
    std::vector<int64_t> begin, end, step; // Slice; Pad's before (begin) and after (end)
    // Input: > 0 when the model gives this input as integers that index something (token ids: every reader is a
    // Take's indices). They are held as float32 whole numbers; valid values are in [0, indexBound).
    int64_t indexBound = 0;

    // The values of the parameters lowerNode() creates (weight; bias; beta, gamma), in its order, or of a
    // Constant. Empty where the graph gives only shapes (the built-in networks: a runner fills them with
    // seeded random values). Shared, so graphs copy cheaply.
    std::vector<std::shared_ptr<const ir::Buffer>> params;
};

class Graph {
public:
    Graph(std::string name, ops::Layout layout, int64_t batch);

    const std::string& name() const { return m_name; }
    void rename(std::string name) { m_name = std::move(name); }
    ops::Layout layout() const { return m_layout; }
    int64_t batch() const { return m_batch; }
    const std::vector<Node>& nodes() const { return m_nodes; }
    const Node& node(int id) const { return m_nodes.at(static_cast<size_t>(id)); }
    const std::vector<int64_t>& shape(int id) const { return node(id).shape; }
    std::vector<int> consumers(int id) const;
    const std::optional<Error>& error() const { return m_error; }

    // Builders return the new node's id (or -1 once an error has been recorded).
    // Any node, its attributes and parameter values set by the caller (a model importer): its shape is inferred
    // by lowering it, and given parameter values must match the parameters' shapes.
    int addNode(Node node);
    int constant(const std::string& name, std::shared_ptr<const ir::Buffer> value);
    int input(const std::string& name, std::vector<int64_t> shape);
    // Channels and spatial positions follow the graph's layout.
    int conv2d(int x, int64_t outChannels, int64_t kernel, int64_t stride, int64_t padding, int64_t groups = 1,
        int64_t dilation = 1, const std::string& name = "conv2d");
    int depthwiseConv2d(int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name = "dwconv2d");
    int dense(int x, int64_t units, const std::string& name = "dense");
    int matmul(int a, int b, const std::string& name = "matmul");
    int batchMatmul(int a, int b, bool transposeB, const std::string& name = "batch_matmul");
    int maxPool2d(int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name = "max_pool2d");
    int avgPool2d(int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name = "avg_pool2d");
    int globalAvgPool2d(int x, const std::string& name = "global_avg_pool2d");
    int softmax(int x, const std::string& name = "softmax");
    int layerNorm(int x, const std::string& name = "layer_norm");
    // Bias along the channel axis of the layout for 4-D tensors, the last axis otherwise.
    int biasAdd(int x, const std::string& name = "bias_add");
    int relu(int x, const std::string& name = "relu");
    int clip(int x, double lo, double hi, const std::string& name = "clip");
    int add(int a, int b, const std::string& name = "add");
    int multiply(int a, int b, const std::string& name = "multiply");
    int scale(int x, double value, const std::string& name = "scale");
    int gelu(int x, const std::string& name = "gelu");
    int reshape(int x, std::vector<int64_t> shape, const std::string& name = "reshape");
    int transpose(int x, std::vector<int> permutation, const std::string& name = "transpose");
    // Concatenation along the channel axis of the layout.
    int concat(std::vector<int> xs, const std::string& name = "concat");
    // data's entries along `axis` at the run-time values of `indices` (an embedding lookup for axis 0).
    int take(int data, int indices, int axis = 0, const std::string& name = "take");

    // Marks input `id` as integers in [0, bound) (Node::indexBound); an importer calls it once it knows what the
    // input indexes. A smaller bound than one set before wins.
    void setIndexBound(int id, int64_t bound);

    int channelAxis() const { return m_layout == ops::Layout::NCHW ? 1 : 3; }

private:
    int convNode(NodeKind kind, int x, int64_t stride, int64_t padding, int64_t dilation, int64_t groups,
        std::vector<int64_t> weightShape, const std::string& name);
    int poolNode(NodeKind kind, int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name);

    std::string m_name;
    ops::Layout m_layout;
    int64_t m_batch;
    std::vector<Node> m_nodes;
    std::optional<Error> m_error;
};

// Lowers one node to tensor expressions over `inputs` (one tensor per node input). Weights and biases the
// node owns are created as placeholders and appended to `params`.
Expected<ir::Tensor> lowerNode(
    const Node& node, const std::vector<ir::Tensor>& inputs, std::vector<ir::Tensor>& params);

} // namespace ts::graph
