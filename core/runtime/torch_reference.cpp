#include "core/runtime/torch_reference.h"

#include "core/graph/graph_evaluator.h"
#include "core/ops/shape_check.h"
#include "core/support/assert.h"

#include <torch/script.h>

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <thread>

namespace ts::runtime {

namespace {
    using graph::Node;
    using graph::NodeKind;
    using Values = std::vector<at::Tensor>;
    // One node's computation on the values of the nodes before it (indexed by node id); its weights are captured.
    using NodeFn = std::function<at::Tensor(const Values&)>;

    at::Tensor toTensor(const ir::Buffer& b)
    {
        at::Tensor t = at::empty(b.shape(), at::kFloat);
        std::memcpy(t.data_ptr<float>(), b.data(), static_cast<size_t>(b.size()) * sizeof(float));
        return t;
    }

    ir::Buffer toBuffer(const at::Tensor& tensor)
    {
        const at::Tensor t = tensor.contiguous().to(at::kFloat);
        ir::Buffer b(std::vector<int64_t>(t.sizes().begin(), t.sizes().end()));
        std::memcpy(b.data(), t.data_ptr<float>(), static_cast<size_t>(b.size()) * sizeof(float));
        return b;
    }

    std::string firstLine(const std::exception& e)
    {
        std::string message = e.what();
        const size_t newline = message.find('\n');
        return newline == std::string::npos ? message : message.substr(0, newline);
    }

    // What both runners share: the intra-op threads, 3 warm-ups, `repeat` timed runs, the last output and the
    // backends. All cores unless told otherwise, as the graph executor's kernels use them (LibTorch's own default
    // can be 1 in a process that has set it before, e.g. for a cost model).
    TorchRun timedRuns(int repeat, int threads, const std::function<at::Tensor()>& forward)
    {
        c10::InferenceMode inference;
        TorchRun run;
        at::set_num_threads(
            threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
        run.threads = at::get_num_threads();
        at::Tensor out;
        for (int i = 0; i < 3; ++i)
            out = forward();
        for (int i = 0; i < repeat; ++i) {
            const auto start = std::chrono::steady_clock::now();
            out = forward();
            run.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        run.output = toBuffer(out);
        run.backends = std::string("oneDNN (MKLDNN) built ") + (at::hasMKLDNN() ? "yes" : "no") + ", enabled "
            + (at::globalContext().userEnabledMkldnn() ? "yes" : "no");
        return run;
    }

    // A node's parameter values by the names lowerNode() gives them ("weight", "bias", "gamma", "beta"): by name,
    // not position, as the order of lowerNode()'s list is the compiler's order of evaluating ops:: arguments.
    class Parameters {
    public:
        void add(std::string name, at::Tensor value)
        {
            m_names.push_back(std::move(name));
            m_values.push_back(std::move(value));
        }
        const at::Tensor& operator[](std::string_view name) const
        {
            const auto it = std::find(m_names.begin(), m_names.end(), name);
            TS_ASSERT(it != m_names.end()) << "lowerNode() made no parameter " << name;
            return m_values[static_cast<size_t>(it - m_names.begin())];
        }

    private:
        std::vector<std::string> m_names;
        std::vector<at::Tensor> m_values;
    };

    // The parameter values the graph evaluator uses for node `id` (graph_evaluator.cpp's evaluateNode): the node's
    // own, else seeded random ones, matched to lowerNode()'s parameters by position, as the evaluator does.
    Expected<Parameters> parameterTensors(const graph::Graph& g, int id, uint64_t seed)
    {
        const Node& node = g.node(id);
        std::vector<ir::Tensor> placeholders, params;
        for (int input : node.inputs)
            placeholders.push_back(ir::placeholder("x", g.shape(input)));
        TS_TRY(ir::Tensor out, graph::lowerNode(node, placeholders, params));
        Parameters tensors;
        for (size_t p = 0; p < params.size(); ++p) {
            if (p < node.params.size()) {
                tensors.add(params[p]->name(), toTensor(*node.params[p]));
                continue;
            }
            tensors.add(params[p]->name(),
                toTensor(graph::seededParameter(node, id, static_cast<int>(p), params[p]->shape(), seed)));
        }
        return tensors;
    }

    Error unsupported(int id, const Node& node, const std::string& what)
    {
        return makeError(ErrorKind::Unsupported,
            "node " + std::to_string(id) + " (" + std::string(graph::toString(node.kind)) + ", " + node.name
                + "): no LibTorch equivalent for " + what);
    }

    bool symmetric(const std::array<int64_t, 4>& padding)
    {
        return padding[0] == padding[2] && padding[1] == padding[3];
    }

    // {top, left, bottom, right} as constant_pad_nd wants it for an NCHW tensor: W's pair, then H's.
    std::vector<int64_t> spatialPads(const std::array<int64_t, 4>& padding)
    {
        return { padding[1], padding[3], padding[0], padding[2] };
    }

    at::Tensor toNchw(const at::Tensor& x, bool nhwc) { return nhwc ? x.permute({ 0, 3, 1, 2 }) : x; }
    at::Tensor fromNchw(const at::Tensor& x, bool nhwc) { return nhwc ? x.permute({ 0, 2, 3, 1 }) : x; }

    // Conv2d and DepthwiseConv2d as one at::conv2d on an OIHW weight (groups = channels for depthwise, whose
    // [C, multiplier, kh, kw] weight is [C * multiplier, 1, kh, kw] row-major). NHWC runs as channels-last NCHW.
    // Asymmetric padding is a zero pad before.
    NodeFn convolution(const Node& node, at::Tensor w)
    {
        const ops::Conv2dParams c = node.conv;
        const bool nhwc = c.layout == ops::Layout::NHWC;
        int64_t groups = c.groups;
        if (node.kind == NodeKind::DepthwiseConv2d) {
            if (nhwc)
                w = w.permute({ 2, 3, 0, 1 });
            groups = w.size(0);
            w = w.reshape({ w.size(0) * w.size(1), 1, w.size(2), w.size(3) });
        } else if (nhwc)
            w = w.permute({ 3, 2, 0, 1 });
        w = w.contiguous(nhwc ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous);
        const bool atenPads = symmetric(c.padding);
        const std::vector<int64_t> padding
            = atenPads ? std::vector<int64_t> { c.padding[0], c.padding[1] } : std::vector<int64_t> { 0, 0 };
        return [x = node.inputs[0], w, c, nhwc, groups, atenPads, padding](const Values& v) {
            at::Tensor in = toNchw(v[static_cast<size_t>(x)], nhwc);
            if (!atenPads)
                in = at::constant_pad_nd(in, spatialPads(c.padding), 0.0);
            return fromNchw(at::conv2d(in, w, {}, c.stride, padding, c.dilation, groups), nhwc);
        };
    }

    // ConvTranspose2d as at::conv_transpose2d on its IOHW weight. ATen pads symmetrically and takes an output
    // padding below the stride or the dilation; any other padding runs with none and cuts the full output to rows
    // [top, full - bottom + outputPadding) with constant_pad_nd (a negative amount widens it by zeros).
    NodeFn transposedConvolution(const Node& node, const at::Tensor& w)
    {
        const ops::Conv2dParams c = node.conv;
        const std::array<int64_t, 2> extra = node.outputPadding;
        bool native = symmetric(c.padding) && c.padding[0] >= 0 && c.padding[1] >= 0;
        for (size_t d = 0; d < 2; ++d)
            native = native && (extra[d] < c.stride[d] || extra[d] < c.dilation[d]);
        return [x = node.inputs[0], w, c, extra, native](const Values& v) {
            const at::Tensor& in = v[static_cast<size_t>(x)];
            if (native)
                return at::conv_transpose2d(
                    in, w, {}, c.stride, { c.padding[0], c.padding[1] }, extra, c.groups, c.dilation);
            const at::Tensor full = at::conv_transpose2d(in, w, {}, c.stride, 0, 0, c.groups, c.dilation);
            return at::constant_pad_nd(
                full, { -c.padding[1], extra[1] - c.padding[3], -c.padding[0], extra[0] - c.padding[2] }, 0.0);
        };
    }

    // Max pooling pads with the lowest float, average pooling with zeros and (without countIncludePad) divides by
    // the window's elements inside the input. ATen pads itself only symmetrically and by at most half the window;
    // other padding is an explicit pad, and the divisor a precomputed count of the window's input elements.
    NodeFn pooling(const Node& node, const graph::Graph& g)
    {
        const ops::Pool2dParams p = node.pool;
        const bool nhwc = p.layout == ops::Layout::NHWC;
        const bool native = symmetric(p.padding) && p.padding[0] <= p.kernel[0] / 2 && p.padding[1] <= p.kernel[1] / 2;
        const std::vector<int64_t> padding
            = native ? std::vector<int64_t> { p.padding[0], p.padding[1] } : std::vector<int64_t> { 0, 0 };
        const int x = node.inputs[0];
        if (node.kind == NodeKind::MaxPool2d)
            return [x, p, nhwc, native, padding](const Values& v) {
                at::Tensor in = toNchw(v[static_cast<size_t>(x)], nhwc);
                if (!native)
                    in = at::constant_pad_nd(in, spatialPads(p.padding), std::numeric_limits<float>::lowest());
                return fromNchw(at::max_pool2d(in, p.kernel, p.stride, padding), nhwc);
            };
        if (native)
            return [x, p, nhwc, padding](const Values& v) {
                return fromNchw(at::avg_pool2d(toNchw(v[static_cast<size_t>(x)], nhwc), p.kernel, p.stride, padding,
                                    false, p.countIncludePad),
                    nhwc);
            };
        const std::vector<int64_t>& s = g.shape(x);
        const at::Tensor ones = at::ones({ 1, 1, s[nhwc ? 1 : 2], s[nhwc ? 2 : 3] }, at::kFloat);
        const at::Tensor coverage = p.countIncludePad // the window's share of input elements
            ? at::Tensor()
            : at::avg_pool2d(at::constant_pad_nd(ones, spatialPads(p.padding), 0.0), p.kernel, p.stride);
        return [x, p, nhwc, coverage](const Values& v) {
            at::Tensor in = at::constant_pad_nd(toNchw(v[static_cast<size_t>(x)], nhwc), spatialPads(p.padding), 0.0);
            at::Tensor out = at::avg_pool2d(in, p.kernel, p.stride);
            return fromNchw(p.countIncludePad ? out : out / coverage, nhwc);
        };
    }

    // ops::reduce over Node::permutation's axes (the op library lowers no reduction without axes).
    NodeFn reduction(const Node& node)
    {
        return [x = node.inputs[0], op = node.reduce,
                   dims = std::vector<int64_t>(node.permutation.begin(), node.permutation.end()), keep = node.keepDims,
                   shape = node.shape](const Values& v) {
            const at::Tensor& in = v[static_cast<size_t>(x)];
            at::Tensor out;
            switch (op) {
            case ops::ReduceOp::Sum:
                out = in.sum(dims, keep);
                break;
            case ops::ReduceOp::Mean:
                out = in.mean(dims, keep);
                break;
            case ops::ReduceOp::Max:
                out = in.amax(dims, keep);
                break;
            case ops::ReduceOp::Min:
                out = in.amin(dims, keep);
                break;
            case ops::ReduceOp::SumSquare:
                out = (in * in).sum(dims, keep);
                break;
            case ops::ReduceOp::L1:
                out = in.abs().sum(dims, keep);
                break;
            case ops::ReduceOp::L2:
                out = (in * in).sum(dims, keep).sqrt();
                break;
            case ops::ReduceOp::LogSum:
                out = in.sum(dims, keep).log();
                break;
            case ops::ReduceOp::LogSumExp:
                out = at::logsumexp(in, dims, keep);
                break;
            }
            return out.reshape(shape); // every axis reduced without keepDims: [1], as ops::reduce gives
        };
    }

    // x[begin:end:step] per axis; a negative step reads the flipped axis forwards.
    NodeFn stridedSlice(const Node& node, const graph::Graph& g)
    {
        const std::vector<int64_t>& s = g.shape(node.inputs[0]);
        return [x = node.inputs[0], s, begin = node.begin, end = node.end, step = node.step](const Values& v) {
            at::Tensor t = v[static_cast<size_t>(x)];
            for (size_t d = 0; d < s.size(); ++d) {
                const auto dim = static_cast<int64_t>(d);
                if (step[d] > 0 && (begin[d] != 0 || end[d] != s[d] || step[d] != 1))
                    t = t.slice(dim, begin[d], end[d], step[d]);
                else if (step[d] < 0)
                    t = t.flip({ dim }).slice(dim, s[d] - 1 - begin[d], s[d] - 1 - end[d], -step[d]);
            }
            return t;
        };
    }

    template <typename F> NodeFn unaryFn(const Node& node, F f)
    {
        return [x = node.inputs[0], f](const Values& v) { return f(v[static_cast<size_t>(x)]); };
    }

    template <typename F> NodeFn binaryFn(const Node& node, F f)
    {
        return [a = node.inputs[0], b = node.inputs[1], f](
                   const Values& v) { return f(v[static_cast<size_t>(a)], v[static_cast<size_t>(b)]); };
    }

    NodeFn unaryOp(const Node& node)
    {
        const double alpha = node.scalar, beta = node.upper;
        switch (node.unary) {
        case ops::UnaryOp::Sigmoid:
            return unaryFn(node, [](const at::Tensor& x) { return x.sigmoid(); });
        case ops::UnaryOp::Sqrt:
            return unaryFn(node, [](const at::Tensor& x) { return x.sqrt(); });
        case ops::UnaryOp::Exp:
            return unaryFn(node, [](const at::Tensor& x) { return x.exp(); });
        case ops::UnaryOp::Log:
            return unaryFn(node, [](const at::Tensor& x) { return x.log(); });
        case ops::UnaryOp::Tanh:
            return unaryFn(node, [](const at::Tensor& x) { return x.tanh(); });
        case ops::UnaryOp::Erf:
            return unaryFn(node, [](const at::Tensor& x) { return x.erf(); });
        case ops::UnaryOp::Abs:
            return unaryFn(node, [](const at::Tensor& x) { return x.abs(); });
        case ops::UnaryOp::Negative:
            return unaryFn(node, [](const at::Tensor& x) { return x.neg(); });
        case ops::UnaryOp::Reciprocal:
            return unaryFn(node, [](const at::Tensor& x) { return x.reciprocal(); });
        case ops::UnaryOp::HardSigmoid: // ATen's hardsigmoid fixes alpha 1/6 and beta 0.5
            return unaryFn(node, [alpha, beta](const at::Tensor& x) { return (x * alpha + beta).clamp(0.0, 1.0); });
        case ops::UnaryOp::HardSwish:
            return unaryFn(node, [](const at::Tensor& x) { return at::hardswish(x); });
        case ops::UnaryOp::LeakyRelu:
            return unaryFn(node, [alpha](const at::Tensor& x) { return at::leaky_relu(x, alpha); });
        }
        return nullptr;
    }

    // Node `id` as ATen calls with the semantics of its ops:: builder, on its parameter values.
    Expected<NodeFn> translateNode(const graph::Graph& g, int id, const Parameters& params)
    {
        const Node& node = g.node(id);
        switch (node.kind) {
        case NodeKind::Input:
        case NodeKind::Constant:
            break; // values, not computations
        case NodeKind::Conv2d:
        case NodeKind::DepthwiseConv2d:
            return convolution(node, params["weight"]);
        case NodeKind::ConvTranspose2d:
            if (node.conv.layout != ops::Layout::NCHW)
                return unsupported(id, node, "the NHWC layout");
            return transposedConvolution(node, params["weight"]);
        case NodeKind::Dense: // weight [out, in]
            return unaryFn(node, [w = params["weight"]](const at::Tensor& x) { return at::linear(x, w); });
        case NodeKind::MatMul:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return at::mm(a, b); });
        case NodeKind::BatchMatMul: // B is [batch, N, K] with transposeB (TVM's default), else [batch, K, N]
            return binaryFn(node, [t = node.transposeB](const at::Tensor& a, const at::Tensor& b) {
                return at::bmm(a, t ? b.transpose(1, 2) : b);
            });
        case NodeKind::MaxPool2d:
        case NodeKind::AvgPool2d:
            return pooling(node, g);
        case NodeKind::GlobalAvgPool2d:
            return unaryFn(node, [nhwc = node.layout == ops::Layout::NHWC](const at::Tensor& x) {
                return x.mean(nhwc ? std::vector<int64_t> { 1, 2 } : std::vector<int64_t> { 2, 3 }, true);
            });
        case NodeKind::Softmax:
            return unaryFn(node, [](const at::Tensor& x) { return x.softmax(-1); });
        case NodeKind::LayerNorm:
            return unaryFn(
                node, [gamma = params["gamma"], beta = params["beta"], eps = node.epsilon](const at::Tensor& x) {
                    return at::layer_norm(x, { x.size(-1) }, gamma, beta, eps);
                });
        case NodeKind::Reduce:
            if (ops::toString(node.reduce) == "?")
                return unsupported(id, node, "reduction " + std::to_string(static_cast<int>(node.reduce)));
            return reduction(node);
        case NodeKind::BiasAdd: {
            const auto rank = static_cast<int64_t>(g.shape(node.inputs[0]).size());
            std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
            shape[static_cast<size_t>(node.axis < 0 ? node.axis + rank : node.axis)] = params["bias"].numel();
            return unaryFn(node, [b = params["bias"].reshape(shape)](const at::Tensor& x) { return x + b; });
        }
        case NodeKind::Relu:
            return unaryFn(node, [](const at::Tensor& x) { return x.relu(); });
        case NodeKind::Clip:
            return unaryFn(node, [lo = node.scalar, hi = node.upper](const at::Tensor& x) { return x.clamp(lo, hi); });
        case NodeKind::Add:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return a + b; });
        case NodeKind::Multiply:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return a * b; });
        case NodeKind::Scale:
            return unaryFn(node, [s = node.scalar](const at::Tensor& x) { return x * s; });
        case NodeKind::Gelu: // the exact (erf) GELU, as ops::gelu
            return unaryFn(node, [](const at::Tensor& x) { return at::gelu(x, "none"); });
        case NodeKind::Subtract:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return a - b; });
        case NodeKind::Divide:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return a / b; });
        case NodeKind::Power:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return a.pow(b); });
        case NodeKind::Maximum:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return at::maximum(a, b); });
        case NodeKind::Minimum:
            return binaryFn(node, [](const at::Tensor& a, const at::Tensor& b) { return at::minimum(a, b); });
        case NodeKind::Unary:
            if (NodeFn f = unaryOp(node))
                return f;
            return unsupported(id, node, "unary function " + std::to_string(static_cast<int>(node.unary)));
        case NodeKind::Reshape:
            return unaryFn(node, [shape = node.shape](const at::Tensor& x) { return x.reshape(shape); });
        case NodeKind::Transpose: // output axis d is input axis permutation[d]
            return unaryFn(node,
                [perm = std::vector<int64_t>(node.permutation.begin(), node.permutation.end())](
                    const at::Tensor& x) { return x.permute(perm); });
        case NodeKind::Concat:
            return NodeFn([xs = node.inputs, axis = node.axis](const Values& v) {
                std::vector<at::Tensor> parts;
                for (int x : xs)
                    parts.push_back(v[static_cast<size_t>(x)]);
                return at::cat(parts, axis);
            });
        case NodeKind::Slice:
            return stridedSlice(node, g);
        case NodeKind::Take: // ids as a long tensor: negative ones wrapped once, then clamped (ops::take)
            return binaryFn(
                node, [axis = node.axis, shape = node.shape](const at::Tensor& data, const at::Tensor& ids) {
                    const int64_t d = axis < 0 ? axis + data.dim() : axis;
                    const int64_t n = data.size(d);
                    at::Tensor rows = ids.to(at::kLong);
                    rows = at::where(rows < 0, rows + n, rows).clamp(0, n - 1);
                    if (d == 0 && data.dim() == 2)
                        return at::embedding(data, rows);
                    return data.index_select(d, rows.flatten()).reshape(shape);
                });
        case NodeKind::Pad: {
            std::vector<int64_t> pads; // the last axis first, as constant_pad_nd wants them
            for (size_t d = node.begin.size(); d-- > 0;) {
                pads.push_back(node.begin[d]);
                pads.push_back(node.end[d]);
            }
            return unaryFn(
                node, [pads, value = node.scalar](const at::Tensor& x) { return at::constant_pad_nd(x, pads, value); });
        }
        }
        return unsupported(id, node, "this node kind");
    }

    // The graph as ATen calls, with its sources as tensors; what one timed run executes.
    struct TorchGraph {
        std::vector<NodeFn> steps; // one per node; empty for sources and nodes the output does not depend on
        std::vector<int> lastUse; // the last node reading each value (-1: none, or kept as the output)
        Values values; // sources set once; computed values live from their node to their last use
        int output = -1;
        int current = -1; // the node running, to name it when LibTorch throws

        // With `check`, each value's shape against the graph's (the first warm-up).
        at::Tensor run(const graph::Graph& g, bool check)
        {
            for (size_t id = 0; id < steps.size(); ++id) {
                if (!steps[id])
                    continue;
                current = static_cast<int>(id);
                values[id] = steps[id](values);
                TS_ASSERT(!check || values[id].sizes() == at::IntArrayRef(g.node(current).shape))
                    << g.node(current).name << ": LibTorch computed shape " << values[id].sizes() << ", the graph "
                    << ops::shapeText(g.node(current).shape);
                for (int input : g.node(current).inputs)
                    if (lastUse[static_cast<size_t>(input)] == current && steps[static_cast<size_t>(input)])
                        values[static_cast<size_t>(input)] = at::Tensor();
            }
            current = -1;
            return values[static_cast<size_t>(output)];
        }
    };

    Expected<TorchGraph> buildTorchGraph(
        const graph::Graph& g, const std::vector<ir::Buffer>& inputs, uint64_t seed, int output)
    {
        const auto numNodes = static_cast<int>(g.nodes().size());
        TorchGraph tg;
        tg.steps.resize(static_cast<size_t>(numNodes));
        tg.values.resize(static_cast<size_t>(numNodes));
        tg.lastUse.assign(static_cast<size_t>(numNodes), -1);
        tg.output = output;
        if (output < 0)
            for (int id = 0; id < numNodes; ++id)
                if (!graph::isSource(g.node(id).kind) && g.consumers(id).empty())
                    tg.output = id;
        if (tg.output < 0 || tg.output >= numNodes)
            return makeError(ErrorKind::InvalidArgument,
                g.name() + ": output node " + std::to_string(tg.output) + " does not exist (" + std::to_string(numNodes)
                    + " nodes)");
        std::vector<bool> needed(static_cast<size_t>(numNodes), false);
        needed[static_cast<size_t>(tg.output)] = true;
        for (int id = tg.output; id >= 0; --id)
            if (needed[static_cast<size_t>(id)])
                for (int input : g.node(id).inputs)
                    needed[static_cast<size_t>(input)] = true;
        TS_CHECK(graph::checkInputs(g, inputs));
        size_t nextInput = 0;
        for (int id = 0; id < numNodes; ++id) {
            const Node& node = g.node(id);
            if (node.kind == NodeKind::Input) {
                tg.values[static_cast<size_t>(id)] = toTensor(inputs[nextInput++]);
                continue;
            }
            if (!needed[static_cast<size_t>(id)])
                continue;
            for (int input : node.inputs)
                tg.lastUse[static_cast<size_t>(input)] = id;
            if (node.kind == NodeKind::Constant)
                tg.values[static_cast<size_t>(id)] = toTensor(*node.params.at(0));
            else {
                TS_TRY(Parameters params, parameterTensors(g, id, seed));
                TS_TRY(tg.steps[static_cast<size_t>(id)], translateNode(g, id, params));
            }
        }
        tg.lastUse[static_cast<size_t>(tg.output)] = -1;
        return tg;
    }
} // namespace

Expected<TorchRun> runTorchScript(const std::string& path, const std::vector<ir::Buffer>& inputs, int repeat,
    int threads, const std::vector<bool>& integerInputs)
{
    try {
        torch::jit::Module module = torch::jit::load(path);
        module.eval();
        std::vector<torch::jit::IValue> args;
        for (size_t k = 0; k < inputs.size(); ++k) {
            at::Tensor t = toTensor(inputs[k]);
            args.emplace_back(k < integerInputs.size() && integerInputs[k] ? t.to(at::kLong) : t);
        }
        return timedRuns(repeat, threads, [&] {
            torch::jit::IValue result = module.forward(args);
            return result.isTuple() ? result.toTuple()->elements()[0].toTensor() : result.toTensor();
        });
    } catch (const std::exception& e) {
        return makeError(ErrorKind::InvalidArgument, path + ": LibTorch cannot run it: " + firstLine(e));
    }
}

Expected<TorchRun> runGraphInTorch(const graph::Graph& graph, const std::vector<ir::Buffer>& inputs, int repeat,
    int threads, uint64_t seed, int output)
{
    if (graph.error())
        return *graph.error();
    c10::InferenceMode inference;
    TorchGraph tg;
    try {
        TS_TRY(tg, buildTorchGraph(graph, inputs, seed, output));
        bool first = true;
        return timedRuns(repeat, threads, [&] {
            at::Tensor out = tg.run(graph, first);
            first = false;
            return out;
        });
    } catch (const InternalError&) {
        throw;
    } catch (const std::exception& e) {
        const std::string where = tg.current < 0 ? std::string()
                                                 : ", node " + std::to_string(tg.current) + " ("
                + std::string(graph::toString(graph.node(tg.current).kind)) + ", " + graph.node(tg.current).name + ")";
        return makeError(ErrorKind::InvalidArgument, graph.name() + where + ": LibTorch failed: " + firstLine(e));
    }
}

} // namespace ts::runtime
