// runGraphInTorch: TuneScope graphs rebuilt op by op in LibTorch, checked against the reference evaluator
// (graph::evaluateGraph / evaluateNode) on the same seeded parameters and inputs: small graphs that together use
// every node kind and the attributes that change their meaning (layouts, groups, dilation, asymmetric padding,
// axes), and the built-in networks.
//
// The reference evaluator interprets in double precision: bert-tiny (1 s) is compared whole; resnet-18 and
// mobilenet-v2 at 224x224 would take 100 s and 16 s, so each node kind of theirs is checked at its cheapest
// node, on LibTorch's own values of the node's inputs.
#include "core/graph/graph_evaluator.h"
#include "core/graph/model_zoo.h"
#include "core/runtime/torch_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <set>

using namespace ts;
using namespace ts::runtime;
using graph::Node;
using graph::NodeKind;

namespace {
std::vector<ir::Buffer> randomInputs(const graph::Graph& g)
{
    std::vector<ir::Buffer> out;
    for (const Node& n : g.nodes())
        if (n.kind == NodeKind::Input) {
            ir::Buffer b(n.shape);
            ir::fillRandomInput(b.data(), b.size(), 3, static_cast<int>(out.size()));
            out.push_back(std::move(b));
        }
    return out;
}

// float32 against double: the absolute tolerance scales with the value's magnitude.
double relativeError(const ir::Buffer& got, const ir::Buffer& expected, double rtol = 1e-4)
{
    if (got.shape() != expected.shape())
        return INFINITY;
    double magnitude = 1.0;
    for (int64_t i = 0; i < expected.size(); ++i)
        magnitude = std::max(magnitude, static_cast<double>(std::fabs(expected[i])));
    return ir::maxRelativeError(got, expected, rtol, rtol * magnitude);
}

ir::Buffer torchValue(const graph::Graph& g, const std::vector<ir::Buffer>& inputs, int node, uint64_t seed = 1)
{
    auto run = runGraphInTorch(g, inputs, 0, 2, seed, node);
    EXPECT_TRUE(run) << run.error().toString();
    return run ? std::move(run->output) : ir::Buffer();
}

struct Worst {
    double error = 0.0;
    std::string node;
};

// Every computed node of `g` in LibTorch (parameter seed `torchSeed`) against the reference evaluator (seed 1).
Worst compareEveryNode(const graph::Graph& g, uint64_t torchSeed = 1)
{
    EXPECT_FALSE(g.error()) << g.error()->toString();
    const std::vector<ir::Buffer> inputs = randomInputs(g);
    auto reference = graph::evaluateGraph(g, inputs, 1);
    EXPECT_TRUE(reference) << reference.error().toString();
    Worst worst;
    if (!reference)
        return worst;
    for (size_t id = 0; id < g.nodes().size(); ++id) {
        if (graph::isSource(g.nodes()[id].kind))
            continue;
        const double e = relativeError(torchValue(g, inputs, static_cast<int>(id), torchSeed), (*reference)[id]);
        if (!(e <= worst.error)) // NaN too
            worst = { e, g.nodes()[id].name };
    }
    return worst;
}

Node nodeOf(NodeKind kind, std::vector<int> inputs)
{
    Node n;
    n.kind = kind;
    n.name = std::string(graph::toString(kind));
    n.inputs = std::move(inputs);
    return n;
}

int unaryNode(graph::Graph& g, int x, ops::UnaryOp op, double alpha = 0.0, double beta = 0.0)
{
    Node n = nodeOf(NodeKind::Unary, { x });
    n.unary = op;
    n.scalar = alpha;
    n.upper = beta;
    return g.addNode(std::move(n));
}

// Multiply-adds the reference evaluator spends on a node, roughly: outputs times weights per output channel.
int64_t referenceCost(const graph::Graph& g, int id)
{
    auto elements = [](const std::vector<int64_t>& s) {
        return std::accumulate(s.begin(), s.end(), int64_t { 1 }, std::multiplies<>());
    };
    const Node& n = g.node(id);
    int64_t perOutput = 1;
    if (!n.weightShape.empty()) {
        const bool nchw = n.kind != NodeKind::Dense && n.conv.layout == ops::Layout::NCHW;
        perOutput = elements(n.weightShape) / n.shape[nchw ? 1 : n.shape.size() - 1];
    }
    int64_t read = 0;
    for (int input : n.inputs)
        read += elements(g.shape(input));
    return std::max(elements(n.shape) * perOutput, read);
}

// For each of `kinds` in the network, its cheapest node (the latest of equals), evaluated by the reference
// evaluator on LibTorch's values of its inputs against LibTorch's value of it: the kind on the network's own
// shapes, layout and parameter ordinals. Returns the worst error, and the number of nodes checked.
std::pair<Worst, int> compareEachKind(const graph::Graph& g, const std::set<NodeKind>& kinds, uint64_t torchSeed = 1)
{
    std::map<NodeKind, int> cheapest;
    for (int id = 0; id < static_cast<int>(g.nodes().size()); ++id) {
        const NodeKind kind = g.node(id).kind;
        if (!kinds.count(kind))
            continue;
        auto it = cheapest.find(kind);
        if (it == cheapest.end() || referenceCost(g, id) <= referenceCost(g, it->second))
            cheapest[kind] = id;
    }
    const std::vector<ir::Buffer> inputs = randomInputs(g);
    Worst worst;
    for (const auto& [kind, id] : cheapest) {
        const Node& node = g.node(id);
        std::vector<ir::Buffer> values;
        for (int input : node.inputs)
            values.push_back(torchValue(g, inputs, input, torchSeed));
        std::vector<const ir::Buffer*> pointers;
        for (const ir::Buffer& v : values)
            pointers.push_back(&v);
        auto expected = graph::evaluateNode(node, pointers, 1, id);
        EXPECT_TRUE(expected) << expected.error().toString();
        const double e = expected ? relativeError(torchValue(g, inputs, id, torchSeed), *expected) : INFINITY;
        if (!(e <= worst.error))
            worst = { e, node.name };
    }
    return { worst, static_cast<int>(cheapest.size()) };
}

graph::Graph network(const std::string& name, ops::Layout layout = ops::Layout::NCHW)
{
    auto g = graph::buildNetwork(name, 1, layout);
    EXPECT_TRUE(g) << g.error().toString();
    return g ? std::move(*g) : graph::Graph(name, layout, 1);
}

// Convolution (grouped, dilated, strided, asymmetric padding), depthwise convolution (with a channel multiplier),
// every pooling padding case, bias, relu, dense: in one layout.
graph::Graph convolutionGraph(ops::Layout layout)
{
    graph::Graph g("convolutions", layout, 2);
    const bool nchw = layout == ops::Layout::NCHW;
    int x = g.input("x", nchw ? std::vector<int64_t> { 2, 4, 11, 10 } : std::vector<int64_t> { 2, 11, 10, 4 });
    x = g.relu(g.biasAdd(g.conv2d(x, 6, 3, 1, 2, 2, 2))); // groups 2, dilation 2
    x = g.conv2d(x, 6, 1, 2, 0); // 1x1, stride 2
    Node asymmetric = nodeOf(NodeKind::Conv2d, { x });
    asymmetric.conv.layout = layout;
    asymmetric.conv.padding = { 1, 0, 2, 1 };
    asymmetric.conv.stride = { 1, 2 };
    asymmetric.weightShape = nchw ? std::vector<int64_t> { 8, 6, 3, 2 } : std::vector<int64_t> { 3, 2, 6, 8 };
    x = g.addNode(asymmetric);
    Node multiplier = nodeOf(NodeKind::DepthwiseConv2d, { x });
    multiplier.conv.layout = layout;
    multiplier.conv.padding = ops::Conv2dParams::symmetric(1, 1);
    multiplier.weightShape = nchw ? std::vector<int64_t> { 8, 2, 3, 3 } : std::vector<int64_t> { 3, 3, 8, 2 };
    x = g.addNode(multiplier);
    x = g.depthwiseConv2d(x, 3, 1, 1);
    const int pooled = g.maxPool2d(x, 3, 2, 1);
    auto pool = [&](NodeKind kind, std::array<int64_t, 4> padding, bool includePad) {
        Node n = nodeOf(kind, { pooled });
        n.pool.layout = layout;
        n.pool.kernel = { 3, 2 };
        n.pool.stride = { 1, 1 };
        n.pool.padding = padding;
        n.pool.countIncludePad = includePad;
        return g.addNode(n);
    };
    pool(NodeKind::MaxPool2d, { 2, 0, 1, 1 }, false); // explicit padding with the lowest float
    const int counted = pool(NodeKind::AvgPool2d, { 1, 1, 1, 1 }, true); // ATen's padding, counted
    const int uncounted = pool(NodeKind::AvgPool2d, { 1, 1, 1, 1 }, false); // ATen's padding, not counted
    pool(NodeKind::AvgPool2d, { 2, 0, 1, 1 }, true); // explicit padding
    pool(NodeKind::AvgPool2d, { 2, 0, 1, 1 }, false); // explicit padding, precomputed counts
    g.globalAvgPool2d(g.concat({ counted, uncounted }));
    return g;
}
} // namespace

TEST(TorchGraph, NchwConvolutionsAndPoolingComputeWhatTheReferenceComputes)
{
    const graph::Graph g = convolutionGraph(ops::Layout::NCHW);
    const Worst worst = compareEveryNode(g);
    EXPECT_LE(worst.error, 1.0) << worst.node;
}

TEST(TorchGraph, NhwcConvolutionsAndPoolingComputeWhatTheReferenceComputes)
{
    const graph::Graph g = convolutionGraph(ops::Layout::NHWC);
    const Worst worst = compareEveryNode(g);
    EXPECT_LE(worst.error, 1.0) << worst.node;
}

// Transposed convolutions as at::conv_transpose2d: stride, padding and output padding that ATen takes itself,
// grouped and dilated; asymmetric padding, a negative pad (a zero border) and an output padding as large as the
// stride, which ATen does not take (its full output cut or widened by constant_pad_nd).
TEST(TorchGraph, TransposedConvolutionsComputeWhatTheReferenceComputes)
{
    graph::Graph g("transposed", ops::Layout::NCHW, 2);
    int x = g.input("x", { 2, 4, 5, 6 });
    auto transposed
        = [&](int in, std::vector<int64_t> weight, std::array<int64_t, 2> stride, std::array<int64_t, 4> padding,
              std::array<int64_t, 2> outputPadding, int64_t groups, std::array<int64_t, 2> dilation) {
              Node n = nodeOf(NodeKind::ConvTranspose2d, { in });
              n.weightShape = std::move(weight);
              n.conv.stride = stride;
              n.conv.padding = padding;
              n.conv.dilation = dilation;
              n.conv.groups = groups;
              n.outputPadding = outputPadding;
              return g.addNode(n);
          };
    x = g.relu(g.biasAdd(transposed(x, { 4, 3, 3, 3 }, { 2, 2 }, { 1, 1, 1, 1 }, { 1, 1 }, 1, { 1, 1 })));
    const int grouped = transposed(x, { 3, 2, 3, 2 }, { 1, 2 }, { 0, 0, 0, 0 }, { 0, 1 }, 3, { 2, 1 });
    transposed(
        grouped, { 6, 2, 2, 3 }, { 2, 1 }, { 1, 0, 2, 1 }, { 2, 0 }, 1, { 1, 1 }); // asymmetric, output >= stride
    transposed(grouped, { 6, 1, 3, 3 }, { 1, 1 }, { -1, 0, 0, -2 }, { 0, 0 }, 2, { 1, 1 }); // a zero border
    ASSERT_FALSE(g.error()) << g.error()->toString();
    EXPECT_EQ(g.shape(grouped), (std::vector<int64_t> { 2, 6, 14, 25 }));
    const Worst worst = compareEveryNode(g);
    EXPECT_LE(worst.error, 1.0) << worst.node;
    // Another seed gives other weights: the check can fail.
    EXPECT_GT(compareEveryNode(g, 2).error, 10.0);
}

TEST(TorchGraph, MatrixProductsAndNormalizationComputeWhatTheReferenceComputes)
{
    graph::Graph g("matrices", ops::Layout::NCHW, 1);
    const int x = g.input("x", { 6, 8 });
    const int d = g.gelu(g.biasAdd(g.dense(x, 12))); // weight [12, 8]
    const int n = g.layerNorm(g.scale(d, 0.25));
    const int m = g.matmul(n, g.input("w", { 12, 5 }));
    const int a = g.reshape(g.transpose(g.reshape(n, { 2, 3, 12 }), { 0, 2, 1 }), { 2, 12, 3 });
    const int scores = g.batchMatmul(a, g.input("b", { 2, 7, 3 }), true); // B [batch, N, K]
    const int probs = g.softmax(scores);
    const int context = g.batchMatmul(probs, g.input("c", { 2, 7, 4 }), false); // B [batch, K, N]
    g.concat({ g.reshape(context, { 6, 16 }), g.reshape(m, { 6, 5 }) }); // axis 1
    const Worst worst = compareEveryNode(g);
    EXPECT_LE(worst.error, 1.0) << worst.node;
}

TEST(TorchGraph, ElementwiseOperatorsBroadcastAndComputeWhatTheReferenceComputes)
{
    graph::Graph g("elementwise", ops::Layout::NCHW, 1);
    const int x = g.input("x", { 3, 1, 5 });
    const int y = g.input("y", { 4, 1 });
    const int half = g.constant("half", std::make_shared<ir::Buffer>(std::vector<int64_t> { 1 }, 0.5f));
    const int positive = g.add(unaryNode(g, x, ops::UnaryOp::Abs), half);
    for (NodeKind kind : { NodeKind::Add, NodeKind::Multiply, NodeKind::Subtract, NodeKind::Divide, NodeKind::Maximum,
             NodeKind::Minimum })
        g.addNode(nodeOf(kind, { x, y })); // [3, 4, 5]
    g.addNode(nodeOf(NodeKind::Power, { positive, y }));
    g.relu(x);
    g.clip(x, -0.25, 0.5);
    for (ops::UnaryOp op : { ops::UnaryOp::Sigmoid, ops::UnaryOp::Exp, ops::UnaryOp::Tanh, ops::UnaryOp::Erf,
             ops::UnaryOp::Negative, ops::UnaryOp::HardSwish })
        unaryNode(g, x, op);
    for (ops::UnaryOp op : { ops::UnaryOp::Sqrt, ops::UnaryOp::Log, ops::UnaryOp::Reciprocal })
        unaryNode(g, positive, op);
    unaryNode(g, x, ops::UnaryOp::HardSigmoid, 0.8, 0.3);
    unaryNode(g, x, ops::UnaryOp::LeakyRelu, 0.1);
    const Worst worst = compareEveryNode(g);
    EXPECT_LE(worst.error, 1.0) << worst.node;
}

TEST(TorchGraph, ReductionsSlicesAndPadsComputeWhatTheReferenceComputes)
{
    graph::Graph g("data", ops::Layout::NCHW, 1);
    const int x = g.input("x", { 3, 4, 5 });
    const int positive = unaryNode(g, x, ops::UnaryOp::Exp);
    auto reduce = [&](int input, ops::ReduceOp op, std::vector<int> axes, bool keepDims) {
        Node n = nodeOf(NodeKind::Reduce, { input });
        n.reduce = op;
        n.permutation = std::move(axes);
        n.keepDims = keepDims;
        return g.addNode(n);
    };
    for (ops::ReduceOp op : { ops::ReduceOp::Sum, ops::ReduceOp::Mean, ops::ReduceOp::Max, ops::ReduceOp::Min,
             ops::ReduceOp::SumSquare, ops::ReduceOp::L1, ops::ReduceOp::L2, ops::ReduceOp::LogSumExp })
        reduce(x, op, { 1 }, true);
    reduce(positive, ops::ReduceOp::LogSum, { 0, 2 }, false);
    reduce(x, ops::ReduceOp::Mean, { -1 }, false);
    reduce(x, ops::ReduceOp::Max, { 0, 1, 2 }, false); // [1]
    Node slice = nodeOf(NodeKind::Slice, { x });
    slice.begin = { 0, 3, 1 };
    slice.end = { 3, -1, 5 };
    slice.step = { 2, -2, 1 };
    g.addNode(slice);
    Node pad = nodeOf(NodeKind::Pad, { x });
    pad.begin = { 0, 2, 1 };
    pad.end = { 1, 0, 3 };
    pad.scalar = -7.0;
    g.addNode(pad);
    const Worst worst = compareEveryNode(g);
    EXPECT_LE(worst.error, 1.0) << worst.node;
}

TEST(TorchGraph, TakeComputesWhatTheReferenceComputes)
{
    // Run-time indices in (-9, 9): fractions truncated, negative ones counted from the end, the rest clamped; as
    // at::embedding (a 2-D table, axis 0) and as index_select (axis 1 of a 3-D tensor, 2-D indices).
    graph::Graph g("take", ops::Layout::NCHW, 1);
    const int table = g.input("table", { 7, 3 });
    const int ids = g.scale(g.input("x", { 2, 5 }), 9.0);
    const int data = g.input("data", { 2, 6, 3 });
    EXPECT_EQ(g.shape(g.take(table, ids, 0)), (std::vector<int64_t> { 2, 5, 3 }));
    EXPECT_EQ(g.shape(g.take(data, ids, 1)), (std::vector<int64_t> { 2, 2, 5, 3 }));
    EXPECT_EQ(g.shape(g.take(data, ids, -1)), (std::vector<int64_t> { 2, 6, 2, 5 }));
    const Worst worst = compareEveryNode(g);
    EXPECT_LE(worst.error, 1.0) << worst.node;
}

TEST(TorchGraph, GivenParameterValuesAreUsedAndSeededOnesFillTheRest)
{
    graph::Graph g("given", ops::Layout::NCHW, 1);
    Node conv = nodeOf(NodeKind::Conv2d, { g.input("x", { 1, 2, 5, 5 }) });
    conv.weightShape = { 3, 2, 3, 3 };
    auto weight = std::make_shared<ir::Buffer>(conv.weightShape);
    for (int64_t i = 0; i < weight->size(); ++i)
        (*weight)[i] = static_cast<float>(i % 7) - 3.0f;
    conv.params = { weight };
    g.layerNorm(g.biasAdd(g.addNode(conv))); // the bias, gamma and beta seeded
    const Worst same = compareEveryNode(g);
    EXPECT_LE(same.error, 1.0) << same.node;
    // Another seed changes the seeded parameters only: the convolution still agrees, its bias does not.
    const std::vector<ir::Buffer> inputs = randomInputs(g);
    auto reference = graph::evaluateGraph(g, inputs, 1);
    ASSERT_TRUE(reference);
    EXPECT_LE(relativeError(torchValue(g, inputs, 1, 2), (*reference)[1]), 1.0);
    EXPECT_GT(relativeError(torchValue(g, inputs, 2, 2), (*reference)[2]), 10.0);
}

TEST(TorchGraph, BertTinyComputesWhatTheReferenceEvaluatorComputes)
{
    const graph::Graph g = network("bert-tiny");
    const std::vector<ir::Buffer> inputs = randomInputs(g);
    auto reference = graph::evaluateGraph(g, inputs, 1);
    ASSERT_TRUE(reference) << reference.error().toString();
    const ir::Buffer& expected = reference->back();
    auto run = runGraphInTorch(g, inputs, 2, 2);
    ASSERT_TRUE(run) << run.error().toString();
    EXPECT_EQ(run->output.shape(), (std::vector<int64_t> { 128, 128 }));
    EXPECT_LE(relativeError(run->output, expected, 1e-3), 1.0);
    // A run reports its times and threads; other parameters give another output.
    EXPECT_EQ(run->seconds.size(), 2u);
    EXPECT_EQ(run->threads, 2);
    EXPECT_NE(run->backends.find("oneDNN"), std::string::npos) << run->backends;
    auto other = runGraphInTorch(g, inputs, 1, 2, 2);
    ASSERT_TRUE(other);
    EXPECT_GT(relativeError(other->output, expected, 1e-3), 100.0);
}

// The kinds that carry parameters or read the layout (the element-wise rest is layout-blind: the small graphs
// above check it); 4 x 5 nodes and their inputs, 6 s.
TEST(TorchGraph, ResNet18AndMobileNetV2InBothLayoutsComputeWhatTheReferenceComputes)
{
    const std::set<NodeKind> kinds { NodeKind::Conv2d, NodeKind::DepthwiseConv2d, NodeKind::BiasAdd,
        NodeKind::MaxPool2d, NodeKind::GlobalAvgPool2d, NodeKind::Dense };
    for (ops::Layout layout : { ops::Layout::NCHW, ops::Layout::NHWC })
        for (const char* name : { "resnet-18", "mobilenet-v2" }) {
            const graph::Graph g = network(name, layout);
            const auto [worst, checked] = compareEachKind(g, kinds);
            EXPECT_LE(worst.error, 1.0) << name << " " << ops::toString(layout) << ": " << worst.node;
            EXPECT_EQ(checked, 5) << name; // resnet-18 has no depthwise convolution, mobilenet-v2 no max pool
        }
    // Another seed gives another classifier weight: the check can fail.
    const auto [wrong, checked] = compareEachKind(network("resnet-18"), { NodeKind::Dense }, 2);
    EXPECT_EQ(checked, 1);
    EXPECT_GT(wrong.error, 100.0);
}

TEST(TorchGraph, TheDefaultOutputIsTheLastComputedNodeNobodyReads)
{
    graph::Graph g("outputs", ops::Layout::NCHW, 1);
    const int x = g.input("x", { 2, 3 });
    const int relu = g.relu(x);
    g.scale(relu, 2.0);
    const int last = g.clip(x, 0.0, 0.1);
    g.constant("unused", std::make_shared<ir::Buffer>(std::vector<int64_t> { 1 }));
    const std::vector<ir::Buffer> inputs = randomInputs(g);
    auto reference = graph::evaluateGraph(g, inputs, 1);
    ASSERT_TRUE(reference);
    auto run = runGraphInTorch(g, inputs, 1, 1);
    ASSERT_TRUE(run) << run.error().toString();
    EXPECT_LE(relativeError(run->output, (*reference)[static_cast<size_t>(last)]), 1.0);
    EXPECT_LE(relativeError(torchValue(g, inputs, relu), (*reference)[static_cast<size_t>(relu)]), 1.0);
}

TEST(TorchGraph, BadInputsOutputsAndUnmappedNodesAreErrors)
{
    graph::Graph g("errors", ops::Layout::NCHW, 1);
    const int x = g.input("x", { 2, 3 });
    g.relu(x);
    const std::vector<ir::Buffer> inputs = randomInputs(g);

    auto wrongShape = runGraphInTorch(g, { ir::Buffer({ 3, 2 }) }, 1, 1);
    ASSERT_FALSE(wrongShape);
    EXPECT_EQ(wrongShape.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(wrongShape.error().message.find("input x_0 has shape [2, 3], its value [3, 2]"), std::string::npos)
        << wrongShape.error().message;
    auto missing = runGraphInTorch(g, {}, 1, 1);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("no value for input x_0"), std::string::npos) << missing.error().message;

    auto noSuchOutput = runGraphInTorch(g, inputs, 1, 1, 1, 7);
    ASSERT_FALSE(noSuchOutput);
    EXPECT_NE(noSuchOutput.error().message.find("output node 7 does not exist"), std::string::npos)
        << noSuchOutput.error().message;

    // A unary function the op library does not know (lowering leaves it alone) has no ATen equivalent.
    unaryNode(g, x, static_cast<ops::UnaryOp>(99));
    auto unmapped = runGraphInTorch(g, inputs, 1, 1);
    ASSERT_FALSE(unmapped);
    EXPECT_EQ(unmapped.error().kind, ErrorKind::Unsupported);
    EXPECT_NE(unmapped.error().message.find("node 2 (unary, unary_2)"), std::string::npos) << unmapped.error().message;
    Node reduce = nodeOf(NodeKind::Reduce, { x });
    reduce.reduce = static_cast<ops::ReduceOp>(99);
    reduce.permutation = { 1 };
    g.addNode(reduce);
    auto unmappedReduction = runGraphInTorch(g, inputs, 1, 1);
    ASSERT_FALSE(unmappedReduction);
    EXPECT_EQ(unmappedReduction.error().kind, ErrorKind::Unsupported);
    EXPECT_NE(
        unmappedReduction.error().message.find("node 3 (reduce, reduce_3): no LibTorch equivalent for reduction 99"),
        std::string::npos)
        << unmappedReduction.error().message;
}
