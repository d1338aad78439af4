#include "core/graph/graph.h"

#include "core/ops/conv_transpose.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/ops/normalization.h"
#include "core/ops/shape_check.h"
#include "core/ops/transform.h"
#include "core/support/assert.h"

#include <algorithm>

namespace ts::graph {

using ir::Expr;
using ir::Tensor;

std::string_view toString(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Input:
        return "input";
    case NodeKind::Constant:
        return "constant";
    case NodeKind::Conv2d:
        return "conv2d";
    case NodeKind::DepthwiseConv2d:
        return "depthwise_conv2d";
    case NodeKind::ConvTranspose2d:
        return "conv2d_transpose";
    case NodeKind::Dense:
        return "dense";
    case NodeKind::MatMul:
        return "matmul";
    case NodeKind::BatchMatMul:
        return "batch_matmul";
    case NodeKind::MaxPool2d:
        return "max_pool2d";
    case NodeKind::AvgPool2d:
        return "avg_pool2d";
    case NodeKind::GlobalAvgPool2d:
        return "global_avg_pool2d";
    case NodeKind::Softmax:
        return "softmax";
    case NodeKind::LayerNorm:
        return "layer_norm";
    case NodeKind::Reduce:
        return "reduce";
    case NodeKind::BiasAdd:
        return "bias_add";
    case NodeKind::Relu:
        return "relu";
    case NodeKind::Clip:
        return "clip";
    case NodeKind::Add:
        return "add";
    case NodeKind::Multiply:
        return "multiply";
    case NodeKind::Scale:
        return "scale";
    case NodeKind::Gelu:
        return "gelu";
    case NodeKind::Subtract:
        return "subtract";
    case NodeKind::Divide:
        return "divide";
    case NodeKind::Power:
        return "power";
    case NodeKind::Maximum:
        return "maximum";
    case NodeKind::Minimum:
        return "minimum";
    case NodeKind::Unary:
        return "unary";
    case NodeKind::Reshape:
        return "reshape";
    case NodeKind::Transpose:
        return "transpose";
    case NodeKind::Concat:
        return "concat";
    case NodeKind::Slice:
        return "strided_slice";
    case NodeKind::Pad:
        return "pad";
    case NodeKind::Take:
        return "take";
    }
    return "?";
}

bool isAnchor(NodeKind kind) { return kind >= NodeKind::Conv2d && kind <= NodeKind::Reduce; }
bool isElementwise(NodeKind kind) { return kind >= NodeKind::BiasAdd && kind <= NodeKind::Unary; }
bool isDataMovement(NodeKind kind) { return kind >= NodeKind::Reshape; }
bool isSource(NodeKind kind) { return kind == NodeKind::Input || kind == NodeKind::Constant; }

namespace {
    Expected<Tensor> lowerReshape(const Tensor& x, const std::vector<int64_t>& shape)
    {
        int64_t n = 1;
        for (int64_t extent : shape)
            n *= extent;
        if (n != x->numElements())
            return ops::shapeError(
                "reshape", "cannot reshape " + ops::shapeText(x->shape()) + " to " + ops::shapeText(shape));
        return ir::compute(
            "T_reshape", shape,
            [&](const std::vector<Expr>& i) {
                Expr flat = i[0];
                for (size_t d = 1; d < shape.size(); ++d)
                    flat = flat * Expr(shape[d]) + i[d];
                std::vector<Expr> source(x->shape().size());
                for (size_t d = x->shape().size(); d-- > 0;) {
                    source[d] = d == 0 ? flat : ir::floorMod(flat, Expr(x->shape()[d]));
                    if (d > 0)
                        flat = ir::floorDiv(flat, Expr(x->shape()[d]));
                }
                return ir::load(x, source);
            },
            "injective");
    }

    Expected<Tensor> lowerTranspose(const Tensor& x, const std::vector<int>& perm)
    {
        const size_t rank = x->shape().size();
        std::vector<bool> seen(rank, false);
        if (perm.size() != rank)
            return ops::shapeError("transpose", "permutation has the wrong length");
        std::vector<int64_t> shape;
        for (int p : perm) {
            if (p < 0 || static_cast<size_t>(p) >= rank || seen[static_cast<size_t>(p)])
                return ops::shapeError("transpose", "invalid permutation");
            seen[static_cast<size_t>(p)] = true;
            shape.push_back(x->shape()[static_cast<size_t>(p)]);
        }
        return ir::compute(
            "T_transpose", shape,
            [&](const std::vector<Expr>& i) {
                std::vector<Expr> source(rank);
                for (size_t d = 0; d < rank; ++d)
                    source[static_cast<size_t>(perm[d])] = i[d];
                return ir::load(x, source);
            },
            "injective");
    }

    Expected<Tensor> lowerConcat(const std::vector<Tensor>& xs, int axis)
    {
        if (xs.empty())
            return ops::shapeError("concat", "no inputs");
        std::vector<int64_t> shape = xs[0]->shape();
        const size_t a = static_cast<size_t>(axis);
        if (a >= shape.size())
            return ops::shapeError("concat", "axis out of range");
        shape[a] = 0;
        for (const Tensor& x : xs) {
            std::vector<int64_t> s = x->shape();
            if (s.size() != shape.size())
                return ops::shapeError("concat", "inputs differ in rank");
            for (size_t d = 0; d < s.size(); ++d)
                if (d != a && s[d] != xs[0]->shape()[d])
                    return ops::shapeError("concat",
                        "inputs " + ops::shapeText(xs[0]->shape()) + " and " + ops::shapeText(s)
                            + " differ outside the concatenation axis");
            shape[a] += s[a];
        }
        return ir::compute(
            "T_concat", shape,
            [&](const std::vector<Expr>& i) {
                // Nested selects from the last input backwards: i[a] < offset_k picks input k.
                std::vector<int64_t> offsets;
                int64_t offset = 0;
                for (const Tensor& x : xs) {
                    offsets.push_back(offset);
                    offset += x->shape()[a];
                }
                auto read = [&](size_t k) {
                    std::vector<Expr> index = i;
                    index[a] = offsets[k] ? i[a] - Expr(offsets[k]) : i[a];
                    return ir::load(xs[k], index);
                };
                Expr value = read(xs.size() - 1);
                for (size_t k = xs.size() - 1; k-- > 0;)
                    value = ir::select(i[a] < Expr(offsets[k + 1]), read(k), value);
                return value;
            },
            "injective");
    }
} // namespace

Expected<Tensor> lowerNode(const Node& node, const std::vector<Tensor>& in, std::vector<Tensor>& params)
{
    auto param = [&](const std::string& suffix, std::vector<int64_t> shape) {
        Tensor t = ir::placeholder(suffix, std::move(shape));
        params.push_back(t);
        return t;
    };
    switch (node.kind) {
    case NodeKind::Input:
    case NodeKind::Constant:
        return ops::shapeError(std::string(toString(node.kind)), "inputs and constants are placeholders, not lowered");
    case NodeKind::Conv2d:
        return ops::conv2d(in[0], param("weight", node.weightShape), node.conv);
    case NodeKind::DepthwiseConv2d:
        return ops::depthwiseConv2d(in[0], param("weight", node.weightShape), node.conv);
    case NodeKind::ConvTranspose2d:
        return ops::conv2dTransposeNchw(in[0], param("weight", node.weightShape), node.conv, node.outputPadding);
    case NodeKind::Dense:
        return ops::dense(in[0], param("weight", node.weightShape));
    case NodeKind::MatMul:
        return ops::matmul(in[0], in[1]);
    case NodeKind::BatchMatMul:
        return ops::batchMatmul(in[0], in[1], node.transposeB);
    case NodeKind::MaxPool2d:
        return ops::maxPool2d(in[0], node.pool);
    case NodeKind::AvgPool2d:
        return ops::avgPool2d(in[0], node.pool);
    case NodeKind::GlobalAvgPool2d:
        return ops::globalAvgPool2d(in[0], node.layout);
    case NodeKind::Softmax:
        return ops::softmax(in[0]);
    case NodeKind::LayerNorm: {
        // beta is the node's first parameter, gamma its second: the order GCC gave when both were made inside the
        // call's argument list, which the built-in networks' task keys and seeded values have kept since.
        const int64_t n = in[0]->shape().back();
        Tensor beta = param("beta", { n });
        Tensor gamma = param("gamma", { n });
        return ops::layerNorm(in[0], gamma, beta, node.epsilon);
    }
    case NodeKind::BiasAdd:
        return ops::biasAdd(in[0], param("bias", { in[0]->shape()[static_cast<size_t>(node.axis)] }), node.axis);
    case NodeKind::Relu:
        return ops::relu(in[0]);
    case NodeKind::Clip:
        return ops::clip(in[0], node.scalar, node.upper);
    case NodeKind::Add:
        return ops::add(in[0], in[1]);
    case NodeKind::Multiply:
        return ops::multiply(in[0], in[1]);
    case NodeKind::Scale:
        return ops::scale(in[0], node.scalar);
    case NodeKind::Gelu:
        return ops::gelu(in[0]);
    case NodeKind::Reduce:
        return ops::reduce(in[0], node.reduce, node.permutation, node.keepDims);
    case NodeKind::Subtract:
        return ops::subtract(in[0], in[1]);
    case NodeKind::Divide:
        return ops::divide(in[0], in[1]);
    case NodeKind::Power:
        return ops::power(in[0], in[1]);
    case NodeKind::Maximum:
        return ops::maximum(in[0], in[1]);
    case NodeKind::Minimum:
        return ops::minimum(in[0], in[1]);
    case NodeKind::Unary:
        return ops::unary(in[0], node.unary, node.scalar, node.upper);
    case NodeKind::Reshape:
        return lowerReshape(in[0], node.shape);
    case NodeKind::Transpose:
        return lowerTranspose(in[0], node.permutation);
    case NodeKind::Concat:
        return lowerConcat(in, node.axis);
    case NodeKind::Slice:
        return ops::stridedSlice(in[0], node.begin, node.end, node.step);
    case NodeKind::Pad:
        return ops::pad(in[0], node.begin, node.end, node.scalar, "T_pad");
    case NodeKind::Take:
        if (in.size() != 2)
            return ops::shapeError("take", "needs two inputs, data and indices");
        return ops::take(in[0], in[1], node.axis);
    }
    return ops::shapeError("lower", "unknown node kind");
}

namespace {
    Node simpleNode(NodeKind kind, const std::string& name, std::vector<int> inputs)
    {
        Node node;
        node.kind = kind;
        node.name = name;
        node.inputs = std::move(inputs);
        return node;
    }
} // namespace

Graph::Graph(std::string name, ops::Layout layout, int64_t batch)
    : m_name(std::move(name))
    , m_layout(layout)
    , m_batch(batch)
{
}

std::vector<int> Graph::consumers(int id) const
{
    std::vector<int> result;
    for (size_t i = 0; i < m_nodes.size(); ++i)
        for (int input : m_nodes[i].inputs)
            if (input == id) {
                result.push_back(static_cast<int>(i));
                break;
            }
    return result;
}

int Graph::addNode(Node node)
{
    if (m_error)
        return -1;
    node.name = node.name + "_" + std::to_string(m_nodes.size());
    if (node.kind == NodeKind::Constant) {
        if (node.params.size() != 1 || !node.params[0]) {
            m_error = makeError(ErrorKind::InvalidArgument, node.name + ": a constant needs its value");
            return -1;
        }
        node.shape = node.params[0]->shape();
    } else if (node.kind != NodeKind::Input) {
        std::vector<Tensor> inputs;
        for (int input : node.inputs) {
            if (input < 0 || static_cast<size_t>(input) >= m_nodes.size()) {
                m_error = makeError(ErrorKind::InvalidArgument,
                    node.name + ": input node " + std::to_string(input) + " does not exist");
                return -1;
            }
            inputs.push_back(ir::placeholder("x", m_nodes[static_cast<size_t>(input)].shape));
        }
        std::vector<Tensor> params;
        Expected<Tensor> out = lowerNode(node, inputs, params);
        if (!out) {
            m_error = makeError(out.error().kind, m_name + ", node " + node.name + ": " + out.error().message);
            return -1;
        }
        node.shape = (*out)->shape();
        if (!node.params.empty() && node.params.size() != params.size()) {
            m_error = makeError(ErrorKind::InvalidArgument,
                m_name + ", node " + node.name + ": " + std::to_string(node.params.size()) + " parameter values for "
                    + std::to_string(params.size()) + " parameters");
            return -1;
        }
        for (size_t p = 0; p < node.params.size(); ++p)
            if (!node.params[p] || node.params[p]->shape() != params[p]->shape()) {
                m_error = makeError(ErrorKind::InvalidArgument,
                    m_name + ", node " + node.name + ": parameter " + params[p]->name() + " has shape "
                        + ops::shapeText(params[p]->shape()) + ", its value "
                        + (node.params[p] ? ops::shapeText(node.params[p]->shape()) : std::string("is missing")));
                return -1;
            }
    }
    m_nodes.push_back(std::move(node));
    return static_cast<int>(m_nodes.size() - 1);
}

int Graph::constant(const std::string& name, std::shared_ptr<const ir::Buffer> value)
{
    Node node;
    node.kind = NodeKind::Constant;
    node.name = name;
    node.params.push_back(std::move(value));
    return addNode(std::move(node));
}

int Graph::input(const std::string& name, std::vector<int64_t> shape)
{
    for (int64_t extent : shape)
        if (extent < 1 && !m_error)
            m_error = makeError(ErrorKind::InvalidArgument, "input " + name + " has a non-positive extent");
    Node node;
    node.kind = NodeKind::Input;
    node.name = name;
    node.shape = std::move(shape);
    return addNode(std::move(node));
}

int Graph::convNode(NodeKind kind, int x, int64_t stride, int64_t padding, int64_t dilation, int64_t groups,
    std::vector<int64_t> weightShape, const std::string& name)
{
    Node node = simpleNode(kind, name, { x });
    node.conv.layout = m_layout;
    node.conv.stride = { stride, stride };
    node.conv.padding = ops::Conv2dParams::symmetric(padding, padding);
    node.conv.dilation = { dilation, dilation };
    node.conv.groups = groups;
    node.weightShape = std::move(weightShape);
    return addNode(std::move(node));
}

int Graph::conv2d(int x, int64_t outChannels, int64_t kernel, int64_t stride, int64_t padding, int64_t groups,
    int64_t dilation, const std::string& name)
{
    if (m_error)
        return -1;
    const int64_t inChannels = shape(x).at(static_cast<size_t>(channelAxis()));
    const int64_t perGroup = groups > 0 ? inChannels / groups : inChannels;
    return convNode(NodeKind::Conv2d, x, stride, padding, dilation, groups,
        m_layout == ops::Layout::NCHW ? std::vector<int64_t> { outChannels, perGroup, kernel, kernel }
                                      : std::vector<int64_t> { kernel, kernel, perGroup, outChannels },
        name);
}

int Graph::depthwiseConv2d(int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name)
{
    if (m_error)
        return -1;
    const int64_t channels = shape(x).at(static_cast<size_t>(channelAxis()));
    return convNode(NodeKind::DepthwiseConv2d, x, stride, padding, 1, channels,
        m_layout == ops::Layout::NCHW ? std::vector<int64_t> { channels, 1, kernel, kernel }
                                      : std::vector<int64_t> { kernel, kernel, channels, 1 },
        name);
}

int Graph::dense(int x, int64_t units, const std::string& name)
{
    if (m_error)
        return -1;
    Node node;
    node.kind = NodeKind::Dense;
    node.name = name;
    node.inputs = { x };
    node.weightShape = { units, shape(x).back() };
    return addNode(std::move(node));
}

int Graph::matmul(int a, int b, const std::string& name)
{
    return addNode(simpleNode(NodeKind::MatMul, name, { a, b }));
}

int Graph::batchMatmul(int a, int b, bool transposeB, const std::string& name)
{
    Node node = simpleNode(NodeKind::BatchMatMul, name, { a, b });
    node.transposeB = transposeB;
    return addNode(std::move(node));
}

int Graph::poolNode(NodeKind kind, int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name)
{
    Node node = simpleNode(kind, name, { x });
    node.pool.layout = m_layout;
    node.pool.kernel = { kernel, kernel };
    node.pool.stride = { stride, stride };
    node.pool.padding = { padding, padding, padding, padding };
    return addNode(std::move(node));
}

int Graph::maxPool2d(int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name)
{
    return poolNode(NodeKind::MaxPool2d, x, kernel, stride, padding, name);
}

int Graph::avgPool2d(int x, int64_t kernel, int64_t stride, int64_t padding, const std::string& name)
{
    return poolNode(NodeKind::AvgPool2d, x, kernel, stride, padding, name);
}

int Graph::globalAvgPool2d(int x, const std::string& name)
{
    Node node = simpleNode(NodeKind::GlobalAvgPool2d, name, { x });
    node.layout = m_layout;
    return addNode(std::move(node));
}

int Graph::softmax(int x, const std::string& name) { return addNode(simpleNode(NodeKind::Softmax, name, { x })); }
int Graph::layerNorm(int x, const std::string& name) { return addNode(simpleNode(NodeKind::LayerNorm, name, { x })); }

int Graph::biasAdd(int x, const std::string& name)
{
    if (m_error)
        return -1;
    Node node = simpleNode(NodeKind::BiasAdd, name, { x });
    node.axis = shape(x).size() == 4 ? channelAxis() : static_cast<int>(shape(x).size()) - 1;
    return addNode(std::move(node));
}

int Graph::relu(int x, const std::string& name) { return addNode(simpleNode(NodeKind::Relu, name, { x })); }

int Graph::clip(int x, double lo, double hi, const std::string& name)
{
    Node node = simpleNode(NodeKind::Clip, name, { x });
    node.scalar = lo;
    node.upper = hi;
    return addNode(std::move(node));
}

int Graph::add(int a, int b, const std::string& name) { return addNode(simpleNode(NodeKind::Add, name, { a, b })); }
int Graph::multiply(int a, int b, const std::string& name)
{
    return addNode(simpleNode(NodeKind::Multiply, name, { a, b }));
}

int Graph::scale(int x, double value, const std::string& name)
{
    Node node = simpleNode(NodeKind::Scale, name, { x });
    node.scalar = value;
    return addNode(std::move(node));
}

int Graph::gelu(int x, const std::string& name) { return addNode(simpleNode(NodeKind::Gelu, name, { x })); }

int Graph::reshape(int x, std::vector<int64_t> shape, const std::string& name)
{
    Node node = simpleNode(NodeKind::Reshape, name, { x });
    node.shape = std::move(shape);
    return addNode(std::move(node));
}

int Graph::transpose(int x, std::vector<int> permutation, const std::string& name)
{
    Node node = simpleNode(NodeKind::Transpose, name, { x });
    node.permutation = std::move(permutation);
    return addNode(std::move(node));
}

int Graph::concat(std::vector<int> xs, const std::string& name)
{
    Node node = simpleNode(NodeKind::Concat, name, std::move(xs));
    node.axis = channelAxis();
    return addNode(std::move(node));
}

void Graph::setIndexBound(int id, int64_t bound)
{
    Node& node = m_nodes.at(static_cast<size_t>(id));
    TS_ASSERT(node.kind == NodeKind::Input && bound > 0) << node.name << ": only an input gets an index bound";
    node.indexBound = node.indexBound > 0 ? std::min(node.indexBound, bound) : bound;
}

int Graph::take(int data, int indices, int axis, const std::string& name)
{
    Node node = simpleNode(NodeKind::Take, name, { data, indices });
    node.axis = axis;
    return addNode(std::move(node));
}

} // namespace ts::graph
