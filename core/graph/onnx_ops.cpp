// The per-operator conversions of the ONNX importer (onnx_import.h): ONNX's semantics, attribute by attribute,
// onto graph nodes. Anything outside what a node kind computes exactly is refused with the attribute named.
// Arithmetic operators are converted here, data movement and constants in onnx_shape_ops.cpp.
#include "core/graph/onnx_ops.h"

#include "core/ops/shape_check.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace ts::graph::onnx_ops {

std::string text(const std::vector<int64_t>& v) { return ops::shapeText(v); }

int64_t product(const std::vector<int64_t>& shape, size_t from, size_t to)
{
    int64_t p = 1;
    for (size_t d = from; d < to && d < shape.size(); ++d)
        p *= shape[d];
    return p;
}

Expected<int> normaliseAxis(const OnnxConverter& c, const std::string& attribute, int64_t axis, size_t rank)
{
    const int64_t r = static_cast<int64_t>(rank);
    if (axis < -r || axis >= r)
        return c.invalid(attribute + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
    return static_cast<int>(axis < 0 ? axis + r : axis);
}

Node make(NodeKind kind)
{
    Node node;
    node.kind = kind;
    return node;
}

Node reshapeNode(std::vector<int64_t> shape)
{
    Node node = make(NodeKind::Reshape);
    node.shape = std::move(shape);
    return node;
}

// The value of input k as integers, when known now.
Expected<std::vector<int64_t>> constantInts(const OnnxConverter& c, int k, const std::string& what)
{
    const HostTensor* t = c.constantInput(k);
    if (!t)
        return c.unsupported(what, "must be known when the model is imported (a constant or shape arithmetic)");
    return t->ints();
}

// Axes from the attribute (before `inputSince`) or from input k (from that opset on).
Expected<std::vector<int64_t>> axesOf(const OnnxConverter& c, int64_t inputSince, int k)
{
    if (c.opset() < inputSince)
        return c.intsAttribute("axes");
    if (!c.hasInput(k))
        return std::vector<int64_t> {};
    return constantInts(c, k, "axes");
}

Expected<std::array<int64_t, 2>> pairAttribute(
    const OnnxConverter& c, const std::string& name, std::array<int64_t, 2> fallback)
{
    const std::vector<int64_t> v = c.intsAttribute(name);
    if (v.empty())
        return fallback;
    if (v.size() != 2)
        return c.unsupported(name, "has " + std::to_string(v.size()) + " values; only 2-D windows are supported");
    if (v[0] < 1 || v[1] < 1)
        return c.invalid(name + " must be positive, got " + text(v));
    return std::array<int64_t, 2> { v[0], v[1] };
}

Expected<std::array<int64_t, 4>> explicitPads(const OnnxConverter& c)
{
    const std::vector<int64_t> pads = c.intsAttribute("pads");
    if (pads.empty())
        return std::array<int64_t, 4> {};
    if (pads.size() != 4)
        return c.unsupported("pads", "has " + std::to_string(pads.size()) + " values; 2-D windows need 4");
    for (int64_t p : pads)
        if (p < 0)
            return c.unsupported("pads", "negative padding " + text(pads));
    return std::array<int64_t, 4> { pads[0], pads[1], pads[2], pads[3] };
}

Expected<void> output(OnnxConverter& c, Expected<Value> value)
{
    if (!value)
        return value.error();
    c.setOutput(0, std::move(*value));
    return {};
}

} // namespace ts::graph::onnx_ops

namespace ts::graph {

using namespace onnx_ops;

namespace {
    using Pair = std::array<int64_t, 2>;

    // ---- windows: convolution and pooling ----

    struct Window {
        std::array<int64_t, 2> kernel {};
        std::array<int64_t, 2> stride { 1, 1 };
        std::array<int64_t, 2> dilation { 1, 1 };
        std::array<int64_t, 4> padding {}; // top, left, bottom, right
    };

    Expected<Window> window(const OnnxConverter& c, const std::vector<int64_t>& input, std::array<int64_t, 2> kernel)
    {
        Window w;
        w.kernel = kernel;
        TS_TRY(w.stride, pairAttribute(c, "strides", { 1, 1 }));
        TS_TRY(w.dilation, pairAttribute(c, "dilations", { 1, 1 }));
        const std::string autoPad = c.stringAttribute("auto_pad", "NOTSET");
        if (autoPad == "NOTSET") {
            TS_TRY(w.padding, explicitPads(c));
        } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            for (size_t d = 0; d < 2; ++d) {
                const int64_t in = input[2 + d];
                const int64_t out = (in + w.stride[d] - 1) / w.stride[d];
                const int64_t span = (w.kernel[d] - 1) * w.dilation[d] + 1;
                const int64_t total = std::max<int64_t>(0, (out - 1) * w.stride[d] + span - in);
                const int64_t small = total / 2;
                w.padding[d] = autoPad == "SAME_UPPER" ? small : total - small;
                w.padding[d + 2] = total - w.padding[d];
            }
        } else if (autoPad != "VALID")
            return c.unsupported("auto_pad", "unknown value '" + autoPad + "'");
        return w;
    }

    Expected<std::vector<int64_t>> rank4Input(const OnnxConverter& c, const std::string& what)
    {
        std::vector<int64_t> shape = c.inputShape(0);
        if (shape.size() != 4)
            return c.unsupported("",
                what + " on a " + std::to_string(shape.size()) + "-D input " + text(shape)
                    + "; only 2-D (NCHW) is supported");
        return shape;
    }

    // ---- convolution, with a following inference BatchNormalization folded in ----

    // scale / sqrt(var + eps) per channel and the shift B - mean * that: a BatchNormalization in inference.
    struct Affine {
        std::vector<double> scale, shift;
    };

    Expected<Affine> batchNormAffine(
        const OnnxConverter& c, const std::vector<const HostTensor*>& p, double epsilon, int64_t channels)
    {
        for (const HostTensor* t : p)
            if (!t || t->size() != channels)
                return c.unsupported("scale, B, mean, var",
                    "batch normalisation needs constant parameters of " + std::to_string(channels) + " values");
        Affine a;
        for (int64_t i = 0; i < channels; ++i) {
            const size_t k = static_cast<size_t>(i);
            const double s = p[0]->values[k] / std::sqrt(p[3]->values[k] + epsilon);
            a.scale.push_back(s);
            a.shift.push_back(p[1]->values[k] - p[2]->values[k] * s);
        }
        return a;
    }

    // The consumer's constant inputs by name (its own node is not the one being converted).
    std::vector<const HostTensor*> constantsOf(OnnxConverter& c, const onnx::NodeProto& node, int from, int to)
    {
        std::vector<const HostTensor*> out;
        for (int k = from; k < to; ++k) {
            const HostTensor* t = nullptr;
            if (k < node.input_size())
                t = c.constantNamed(node.input(k));
            out.push_back(t);
        }
        return out;
    }

    Expected<void> convertConv(OnnxConverter& c)
    {
        TS_TRY(const std::vector<int64_t> x, rank4Input(c, "a convolution"));
        const HostTensor* w = c.constantInput(1);
        if (!w)
            return c.unsupported("W", "the weight must be an initializer (a constant)");
        if (w->shape.size() != 4)
            return c.unsupported("W", "weight " + text(w->shape) + ": only 2-D convolutions are supported");
        const int64_t group = c.intAttribute("group", 1);
        const int64_t inChannels = x[1];
        const int64_t outChannels = w->shape[0];
        if (group < 1 || inChannels % group != 0 || outChannels % group != 0 || w->shape[1] != inChannels / group)
            return c.invalid(
                "weight " + text(w->shape) + " does not fit input " + text(x) + " with group " + std::to_string(group));
        const std::vector<int64_t> kernelAttr = c.intsAttribute("kernel_shape");
        if (!kernelAttr.empty() && kernelAttr != std::vector<int64_t> { w->shape[2], w->shape[3] })
            return c.invalid("kernel_shape " + text(kernelAttr) + " differs from the weight's " + text(w->shape));
        TS_TRY(const Window win, window(c, x, { w->shape[2], w->shape[3] }));

        HostTensor weight = *w;
        std::vector<double> bias(static_cast<size_t>(outChannels), 0.0);
        bool hasBias = false;
        if (c.hasInput(2)) {
            const HostTensor* b = c.constantInput(2);
            if (!b || b->size() != outChannels)
                return c.unsupported("B", "the bias must be a constant of " + std::to_string(outChannels) + " values");
            bias = b->values;
            hasBias = true;
        }
        // Fold a BatchNormalization that is the convolution's only consumer.
        std::string foldedInto;
        const onnx::NodeProto* bn = c.soleConsumer(0);
        if (bn && bn->op_type() == "BatchNormalization" && bn->input_size() == 5 && bn->output_size() >= 1) {
            bool training = false;
            for (int k = 1; k < bn->output_size(); ++k)
                training = training || !bn->output(k).empty();
            for (const onnx::AttributeProto& a : bn->attribute())
                training = training || (a.name() == "training_mode" && a.i() != 0);
            const std::vector<const HostTensor*> p = constantsOf(c, *bn, 1, 5);
            double epsilon = 1e-5;
            for (const onnx::AttributeProto& a : bn->attribute())
                if (a.name() == "epsilon")
                    epsilon = a.f();
            auto affine = batchNormAffine(c, p, epsilon, outChannels);
            if (!training && affine) {
                const int64_t per = weight.size() / outChannels;
                for (int64_t o = 0; o < outChannels; ++o) {
                    const size_t k = static_cast<size_t>(o);
                    for (int64_t i = 0; i < per; ++i)
                        weight.values[static_cast<size_t>(o * per + i)] *= affine->scale[k];
                    bias[k] = bias[k] * affine->scale[k] + affine->shift[k];
                }
                hasBias = true;
                c.skipNode(bn);
                foldedInto = bn->output(0);
            }
        }

        const bool depthwise = group == inChannels && group > 1 && outChannels == inChannels && w->shape[1] == 1;
        Node conv = make(depthwise ? NodeKind::DepthwiseConv2d : NodeKind::Conv2d);
        conv.conv.layout = ops::Layout::NCHW;
        conv.conv.stride = win.stride;
        conv.conv.dilation = win.dilation;
        conv.conv.padding = win.padding;
        conv.conv.groups = group;
        conv.weightShape = weight.shape;
        conv.params = { sharedBuffer(weight) };
        TS_TRY(Value out, c.emit(std::move(conv), { 0 }));
        if (hasBias) {
            Node add = make(NodeKind::BiasAdd);
            add.axis = 1;
            HostTensor b;
            b.shape = { outChannels };
            b.values = bias;
            add.params = { sharedBuffer(b) };
            TS_TRY(out, c.emitOver(std::move(add), { out }));
        }
        if (!foldedInto.empty())
            c.alias(foldedInto, out);
        c.setOutput(0, std::move(out));
        return {};
    }

    Expected<void> convertBatchNorm(OnnxConverter& c)
    {
        const std::vector<int64_t> x = c.inputShape(0);
        if (x.size() < 2)
            return c.invalid("input " + text(x) + " has no channel axis");
        for (int k = 1; k < c.node().output_size(); ++k)
            if (!c.node().output(k).empty())
                return c.unsupported("", "training outputs (running mean and variance) are not supported");
        if (c.intAttribute("training_mode", 0) != 0)
            return c.unsupported("training_mode", "only inference is supported");
        TS_TRY(const Affine a,
            batchNormAffine(c, { c.constantInput(1), c.constantInput(2), c.constantInput(3), c.constantInput(4) },
                c.floatAttribute("epsilon", 1e-5), x[1]));
        HostTensor scale;
        scale.shape = std::vector<int64_t>(x.size() - 1, 1);
        scale.shape[0] = x[1];
        scale.values = a.scale;
        Node mul = make(NodeKind::Multiply);
        TS_TRY(Value out, c.emitOver(std::move(mul), { c.input(0), Value { -1, scale } }));
        Node add = make(NodeKind::BiasAdd);
        add.axis = 1;
        HostTensor shift;
        shift.shape = { x[1] };
        shift.values = a.shift;
        add.params = { sharedBuffer(shift) };
        return output(c, c.emitOver(std::move(add), { out }));
    }

    // ---- matrix products ----

    HostTensor transposed2d(const HostTensor& t, double factor)
    {
        HostTensor out;
        out.shape = { t.shape[1], t.shape[0] };
        out.values.resize(t.values.size());
        for (int64_t i = 0; i < t.shape[0]; ++i)
            for (int64_t j = 0; j < t.shape[1]; ++j)
                out.values[static_cast<size_t>(j * t.shape[0] + i)]
                    = t.values[static_cast<size_t>(i * t.shape[1] + j)] * factor;
        return out;
    }

    // dense(x, weight [N, K]) over a value of any rank >= 2 (leading axes flattened, then restored).
    Expected<Value> denseOver(OnnxConverter& c, Value x, const std::vector<int64_t>& shape, HostTensor weight)
    {
        const int64_t k = shape.back();
        const int64_t n = weight.shape[0];
        if (weight.shape[1] != k)
            return c.invalid(
                "a right operand of " + text(weight.shape) + " after transposition does not fit " + text(shape));
        const bool flatten = shape.size() != 2;
        if (flatten) {
            TS_TRY(x, c.emitOver(reshapeNode({ product(shape, 0, shape.size() - 1), k }), { x }));
        }
        Node dense = make(NodeKind::Dense);
        dense.weightShape = weight.shape;
        dense.params = { sharedBuffer(weight) };
        TS_TRY(Value out, c.emitOver(std::move(dense), { x }));
        if (flatten) {
            std::vector<int64_t> back(shape.begin(), shape.end() - 1);
            back.push_back(n);
            TS_TRY(out, c.emitOver(reshapeNode(back), { out }));
        }
        return out;
    }

    // x + c for a constant c: a bias_add where c runs along one axis of x (as a layer's bias does), else an add.
    Expected<Value> addConstant(OnnxConverter& c, Value x, const std::vector<int64_t>& shape, const HostTensor& k)
    {
        const size_t rank = shape.size();
        int axis = -1;
        const int64_t n = k.size();
        if (k.shape.size() <= rank && rank >= 1) {
            // which axes of the right-aligned constant are not 1
            std::vector<size_t> wide;
            for (size_t d = 0; d < k.shape.size(); ++d)
                if (k.shape[d] != 1)
                    wide.push_back(rank - k.shape.size() + d);
            if (wide.size() == 1 && shape[wide[0]] == n && (wide[0] == rank - 1 || (rank == 4 && wide[0] == 1)))
                axis = static_cast<int>(wide[0]);
        }
        if (axis < 0) {
            Node add = make(NodeKind::Add);
            return c.emitOver(std::move(add), { std::move(x), Value { -1, k } });
        }
        Node add = make(NodeKind::BiasAdd);
        add.axis = axis;
        HostTensor bias;
        bias.shape = { n };
        bias.values = k.values;
        add.params = { sharedBuffer(bias) };
        return c.emitOver(std::move(add), { std::move(x) });
    }

    Expected<void> convertGemm(OnnxConverter& c)
    {
        const std::vector<int64_t> a = c.inputShape(0);
        if (a.size() != 2)
            return c.invalid("A " + text(a) + " is not a matrix");
        const double alpha = c.floatAttribute("alpha", 1.0);
        const double beta = c.floatAttribute("beta", 1.0);
        Value x = c.input(0);
        if (c.intAttribute("transA", 0)) {
            Node t = make(NodeKind::Transpose);
            t.permutation = { 1, 0 };
            TS_TRY(x, c.emitOver(std::move(t), { x }));
        }
        const std::vector<int64_t> xs = x.constant ? x.constant->shape : c.graph().shape(x.node);
        const HostTensor* b = c.constantInput(1);
        if (c.inputShape(1).size() != 2)
            return c.invalid("B " + text(c.inputShape(1)) + " is not a matrix");
        Value out;
        if (b) {
            // A layer: dense on the weight [N, K], alpha folded in.
            HostTensor weight = c.intAttribute("transB", 0) ? *b : transposed2d(*b, 1.0);
            if (alpha != 1.0)
                for (double& v : weight.values)
                    v *= alpha;
            TS_TRY(out, denseOver(c, x, xs, weight));
        } else {
            // Both operands computed: a matmul.
            Value y = c.input(1);
            if (c.intAttribute("transB", 0)) {
                Node t = make(NodeKind::Transpose);
                t.permutation = { 1, 0 };
                TS_TRY(y, c.emitOver(std::move(t), { y }));
            }
            TS_TRY(out, c.emitOver(make(NodeKind::MatMul), { x, y }));
            if (alpha != 1.0) {
                Node s = make(NodeKind::Scale);
                s.scalar = alpha;
                TS_TRY(out, c.emitOver(std::move(s), { out }));
            }
        }
        if (c.hasInput(2) && beta != 0.0) {
            const HostTensor* k = c.constantInput(2);
            const std::vector<int64_t> ys = out.constant ? out.constant->shape : c.graph().shape(out.node);
            if (k) {
                HostTensor scaled = *k;
                for (double& v : scaled.values)
                    v *= beta;
                TS_TRY(out, addConstant(c, out, ys, scaled));
            } else {
                Value y = c.input(2);
                if (beta != 1.0) {
                    Node s = make(NodeKind::Scale);
                    s.scalar = beta;
                    TS_TRY(y, c.emitOver(std::move(s), { y }));
                }
                TS_TRY(out, c.emitOver(make(NodeKind::Add), { out, y }));
            }
        }
        c.setOutput(0, std::move(out));
        return {};
    }

    Expected<void> convertMatMul(OnnxConverter& c)
    {
        const std::vector<int64_t> a = c.inputShape(0);
        const std::vector<int64_t> b = c.inputShape(1);
        if (a.size() < 2 || b.size() < 2)
            return c.unsupported(
                "", "matrix products of vectors (" + text(a) + " x " + text(b) + ") are not supported");
        const HostTensor* w = c.constantInput(1);
        if (w && b.size() == 2 && !c.constantInput(0))
            return output(c, denseOver(c, c.input(0), a, transposed2d(*w, 1.0)));
        if (a.size() == 2 && b.size() == 2)
            return output(c, c.emit(make(NodeKind::MatMul), { 0, 1 }));
        if (a.size() != b.size() || !std::equal(a.begin(), a.end() - 2, b.begin()))
            return c.unsupported("",
                "batched products need equal batch axes (" + text(a) + " x " + text(b)
                    + "); broadcasting them is not supported");
        const int64_t batch = product(a, 0, a.size() - 2);
        Value x = c.input(0);
        Value y = c.input(1);
        if (a.size() != 3) {
            TS_TRY(x, c.emitOver(reshapeNode({ batch, a[a.size() - 2], a.back() }), { x }));
            TS_TRY(y, c.emitOver(reshapeNode({ batch, b[b.size() - 2], b.back() }), { y }));
        }
        Node bmm = make(NodeKind::BatchMatMul);
        bmm.transposeB = false;
        TS_TRY(Value out, c.emitOver(std::move(bmm), { x, y }));
        if (a.size() != 3) {
            std::vector<int64_t> shape(a.begin(), a.end() - 1);
            shape.push_back(b.back());
            TS_TRY(out, c.emitOver(reshapeNode(shape), { out }));
        }
        c.setOutput(0, std::move(out));
        return {};
    }

    // ---- element-wise ----

    Expected<void> convertBinary(OnnxConverter& c, NodeKind kind)
    {
        // Before opset 7, broadcasting is asked for (broadcast 1) and may align B at `axis` instead of at the end.
        if (c.opset() < 7 && c.intAttribute("broadcast", 0) != 0 && c.hasAttribute("axis")) {
            const std::vector<int64_t> a = c.inputShape(0);
            std::vector<int64_t> b = c.inputShape(1);
            TS_TRY(const int axis, normaliseAxis(c, "axis", c.intAttribute("axis", 0), a.size()));
            if (static_cast<size_t>(axis) + b.size() > a.size())
                return c.invalid("B " + text(b) + " does not fit A " + text(a) + " at axis " + std::to_string(axis));
            b.resize(a.size() - static_cast<size_t>(axis), 1);
            TS_TRY(Value y, c.emitOver(reshapeNode(b), { c.input(1) }));
            return output(c, c.emitOver(make(kind), { c.input(0), y }));
        }
        const HostTensor* k0 = c.constantInput(0);
        const HostTensor* k1 = c.constantInput(1);
        if (!k0 != !k1 && (kind == NodeKind::Add || kind == NodeKind::Multiply)) {
            const int xi = k0 ? 1 : 0;
            const HostTensor& k = k0 ? *k0 : *k1;
            const std::vector<int64_t> shape = c.inputShape(xi);
            if (ops::broadcastShapes("", shape, k.shape) && *ops::broadcastShapes("", shape, k.shape) == shape) {
                if (kind == NodeKind::Add)
                    return output(c, addConstant(c, c.input(xi), shape, k));
                if (k.size() == 1) {
                    Node s = make(NodeKind::Scale);
                    s.scalar = k.values[0];
                    return output(c, c.emitOver(std::move(s), { c.input(xi) }));
                }
            }
        }
        // x ^ 2 (decomposed layer norms square the centred input) is x * x: exact, and no pow call per element.
        if (kind == NodeKind::Power && !k0 && k1 && k1->size() == 1 && k1->values[0] == 2.0)
            return output(c, c.emitOver(make(NodeKind::Multiply), { c.input(0), c.input(0) }));
        return output(c, c.emit(make(kind), { 0, 1 }));
    }

    // Max and Min take one or more inputs.
    Expected<void> convertVariadic(OnnxConverter& c, NodeKind kind)
    {
        if (c.node().input_size() < 1)
            return c.invalid("needs at least one input");
        Value acc = c.input(0);
        for (int k = 1; k < c.node().input_size(); ++k) {
            TS_TRY(acc, c.emitOver(make(kind), { acc, c.input(k) }));
        }
        c.setOutput(0, acc);
        return {};
    }

    Expected<void> convertMean(OnnxConverter& c)
    {
        TS_CHECK(convertVariadic(c, NodeKind::Add));
        if (c.node().input_size() == 1)
            return {};
        Node scale = make(NodeKind::Scale);
        scale.scalar = 1.0 / c.node().input_size();
        return output(c, c.emitOver(std::move(scale), { c.outputValue(0) }));
    }

    Expected<void> convertUnary(OnnxConverter& c, ops::UnaryOp op, double alpha = 0.0, double beta = 0.0)
    {
        Node node = make(NodeKind::Unary);
        node.unary = op;
        node.scalar = alpha;
        node.upper = beta;
        return output(c, c.emit(std::move(node), { 0 }));
    }

    Expected<void> convertClip(OnnxConverter& c)
    {
        double lo = std::numeric_limits<float>::lowest();
        double hi = std::numeric_limits<float>::max();
        if (c.opset() < 11) {
            lo = c.floatAttribute("min", lo);
            hi = c.floatAttribute("max", hi);
        } else {
            for (int k : { 1, 2 }) {
                if (!c.hasInput(k))
                    continue;
                const HostTensor* t = c.constantInput(k);
                if (!t || t->size() != 1)
                    return c.unsupported(k == 1 ? "min" : "max", "must be a constant scalar");
                (k == 1 ? lo : hi) = t->values[0];
            }
        }
        if (lo > hi)
            return c.unsupported("min", "min " + std::to_string(lo) + " exceeds max " + std::to_string(hi));
        Node node = make(NodeKind::Clip);
        node.scalar = lo;
        node.upper = hi;
        return output(c, c.emit(std::move(node), { 0 }));
    }

    // ---- normalisation and reductions ----

    // Softmax and LogSoftmax (a log after the softmax).
    Expected<void> convertSoftmax(OnnxConverter& c)
    {
        const bool logarithm = c.node().op_type() == "LogSoftmax";
        const std::vector<int64_t> x = c.inputShape(0);
        TS_TRY(const int axis, normaliseAxis(c, "axis", c.intAttribute("axis", c.opset() >= 13 ? -1 : 1), x.size()));
        Value v = c.input(0);
        const bool last = axis == static_cast<int>(x.size()) - 1;
        if (!last && c.opset() >= 13)
            return c.unsupported("axis",
                "softmax over axis " + std::to_string(axis) + " of " + text(x) + "; only the last axis is supported");
        // Before opset 13: softmax over the flattened [prod(:axis), prod(axis:)].
        const size_t a = static_cast<size_t>(axis);
        if (!last) {
            TS_TRY(v, c.emitOver(reshapeNode({ product(x, 0, a), product(x, a, x.size()) }), { v }));
        }
        TS_TRY(v, c.emitOver(make(NodeKind::Softmax), { v }));
        if (logarithm) {
            Node log = make(NodeKind::Unary);
            log.unary = ops::UnaryOp::Log;
            TS_TRY(v, c.emitOver(std::move(log), { v }));
        }
        if (!last) {
            TS_TRY(v, c.emitOver(reshapeNode(x), { v }));
        }
        c.setOutput(0, std::move(v));
        return {};
    }

    Expected<void> convertLayerNorm(OnnxConverter& c)
    {
        const std::vector<int64_t> x = c.inputShape(0);
        TS_TRY(const int axis, normaliseAxis(c, "axis", c.intAttribute("axis", -1), x.size()));
        if (axis != static_cast<int>(x.size()) - 1 || x.size() < 2)
            return c.unsupported("axis",
                "normalisation over axes from " + std::to_string(axis) + " of " + text(x)
                    + "; only the last axis of a tensor of rank >= 2 is supported");
        for (int k = 1; k < c.node().output_size(); ++k)
            if (!c.node().output(k).empty())
                return c.unsupported("", "the Mean and InvStdDev outputs are not supported");
        const int64_t n = x.back();
        const HostTensor* gamma = c.constantInput(1);
        if (!gamma || gamma->size() != n)
            return c.unsupported("Scale", "must be a constant of " + std::to_string(n) + " values");
        HostTensor beta;
        beta.shape = { n };
        beta.values.assign(static_cast<size_t>(n), 0.0);
        if (c.hasInput(2)) {
            const HostTensor* b = c.constantInput(2);
            if (!b || b->size() != n)
                return c.unsupported("B", "must be a constant of " + std::to_string(n) + " values");
            beta.values = b->values;
        }
        HostTensor g = *gamma;
        g.shape = { n };
        Node node = make(NodeKind::LayerNorm);
        node.epsilon = c.floatAttribute("epsilon", 1e-5);
        node.params = { sharedBuffer(beta), sharedBuffer(g) }; // the LayerNorm node's order (graph.cpp)
        return output(c, c.emit(std::move(node), { 0 }));
    }

    Expected<void> convertReduce(OnnxConverter& c, ops::ReduceOp op)
    {
        const std::vector<int64_t> x = c.inputShape(0);
        // ReduceSum takes its axes as an input from opset 13 (the others from 18, past what is imported).
        TS_TRY(std::vector<int64_t> axes, axesOf(c, op == ops::ReduceOp::Sum ? 13 : 18, 1));
        if (axes.empty() && c.intAttribute("noop_with_empty_axes", 0) != 0)
            return output(c, Expected<Value>(c.input(0)));
        Node node = make(NodeKind::Reduce);
        node.reduce = op;
        if (axes.empty())
            for (size_t d = 0; d < x.size(); ++d)
                axes.push_back(static_cast<int64_t>(d));
        for (int64_t a : axes) {
            TS_TRY(const int axis, normaliseAxis(c, "axes", a, x.size()));
            node.permutation.push_back(axis);
        }
        node.keepDims = c.intAttribute("keepdims", 1) != 0;
        return output(c, c.emit(std::move(node), { 0 }));
    }

    // ---- pooling ----

    Expected<void> convertPool(OnnxConverter& c, NodeKind kind)
    {
        TS_TRY(const std::vector<int64_t> x, rank4Input(c, "pooling"));
        TS_TRY(const Pair kernel, pairAttribute(c, "kernel_shape", { 0, 0 }));
        if (kernel[0] == 0)
            return c.invalid("kernel_shape is required");
        TS_TRY(const Window w, window(c, x, kernel));
        if (w.dilation != std::array<int64_t, 2> { 1, 1 })
            return c.unsupported("dilations", "dilated pooling is not supported");
        if (c.intAttribute("storage_order", 0) != 0)
            return c.unsupported("storage_order", "column-major indices are not supported");
        if (c.node().output_size() > 1 && !c.node().output(1).empty())
            return c.unsupported("", "the Indices output is not supported");
        if (c.intAttribute("ceil_mode", 0) != 0)
            for (size_t d = 0; d < 2; ++d) {
                const int64_t span = x[2 + d] + w.padding[d] + w.padding[d + 2] - w.kernel[d];
                if (span % w.stride[d] != 0)
                    return c.unsupported("ceil_mode", "ceil_mode 1 changes the output size here");
            }
        Node node = make(kind);
        node.pool.layout = ops::Layout::NCHW;
        node.pool.kernel = w.kernel;
        node.pool.stride = w.stride;
        node.pool.padding = w.padding;
        node.pool.countIncludePad = c.intAttribute("count_include_pad", 0) != 0;
        return output(c, c.emit(std::move(node), { 0 }));
    }

    Expected<void> convertGlobalAveragePool(OnnxConverter& c)
    {
        TS_TRY(const std::vector<int64_t> x, rank4Input(c, "global pooling"));
        (void)x;
        Node node = make(NodeKind::GlobalAvgPool2d);
        node.layout = ops::Layout::NCHW;
        return output(c, c.emit(std::move(node), { 0 }));
    }
} // namespace

const std::map<std::string, OnnxOpConverter>& onnxOpConverters()
{
    using U = ops::UnaryOp;
    static const std::map<std::string, OnnxOpConverter> table {
        { "Conv", convertConv },
        { "ConvTranspose", convertConvTranspose },
        { "BatchNormalization", convertBatchNorm },
        { "Gemm", convertGemm },
        { "MatMul", convertMatMul },
        { "Add", [](OnnxConverter& c) { return convertBinary(c, NodeKind::Add); } },
        { "Sub", [](OnnxConverter& c) { return convertBinary(c, NodeKind::Subtract); } },
        { "Mul", [](OnnxConverter& c) { return convertBinary(c, NodeKind::Multiply); } },
        { "Div", [](OnnxConverter& c) { return convertBinary(c, NodeKind::Divide); } },
        { "Pow", [](OnnxConverter& c) { return convertBinary(c, NodeKind::Power); } },
        { "Max", [](OnnxConverter& c) { return convertVariadic(c, NodeKind::Maximum); } },
        { "Min", [](OnnxConverter& c) { return convertVariadic(c, NodeKind::Minimum); } },
        { "Relu", [](OnnxConverter& c) { return output(c, c.emit(make(NodeKind::Relu), { 0 })); } },
        { "Clip", convertClip },
        { "Sigmoid", [](OnnxConverter& c) { return convertUnary(c, U::Sigmoid); } },
        { "Sqrt", [](OnnxConverter& c) { return convertUnary(c, U::Sqrt); } },
        { "Exp", [](OnnxConverter& c) { return convertUnary(c, U::Exp); } },
        { "Log", [](OnnxConverter& c) { return convertUnary(c, U::Log); } },
        { "Tanh", [](OnnxConverter& c) { return convertUnary(c, U::Tanh); } },
        { "Erf", [](OnnxConverter& c) { return convertUnary(c, U::Erf); } },
        { "Abs", [](OnnxConverter& c) { return convertUnary(c, U::Abs); } },
        { "Neg", [](OnnxConverter& c) { return convertUnary(c, U::Negative); } },
        { "Reciprocal", [](OnnxConverter& c) { return convertUnary(c, U::Reciprocal); } },
        { "HardSigmoid",
            [](OnnxConverter& c) {
                return convertUnary(c, U::HardSigmoid, c.floatAttribute("alpha", 0.2), c.floatAttribute("beta", 0.5));
            } },
        { "HardSwish", [](OnnxConverter& c) { return convertUnary(c, U::HardSwish); } },
        { "LeakyRelu",
            [](OnnxConverter& c) { return convertUnary(c, U::LeakyRelu, c.floatAttribute("alpha", 0.01)); } },
        { "Softmax", convertSoftmax },
        { "LayerNormalization", convertLayerNorm },
        { "ReduceMean", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::Mean); } },
        { "ReduceSum", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::Sum); } },
        { "ReduceMax", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::Max); } },
        { "ReduceMin", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::Min); } },
        { "ReduceSumSquare", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::SumSquare); } },
        { "ReduceL1", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::L1); } },
        { "ReduceL2", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::L2); } },
        { "ReduceLogSum", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::LogSum); } },
        { "ReduceLogSumExp", [](OnnxConverter& c) { return convertReduce(c, ops::ReduceOp::LogSumExp); } },
        { "LogSoftmax", convertSoftmax },
        { "Sum", [](OnnxConverter& c) { return convertVariadic(c, NodeKind::Add); } },
        { "Mean", convertMean },
        { "MaxPool", [](OnnxConverter& c) { return convertPool(c, NodeKind::MaxPool2d); } },
        { "AveragePool", [](OnnxConverter& c) { return convertPool(c, NodeKind::AvgPool2d); } },
        { "GlobalAveragePool", convertGlobalAveragePool },
        { "Flatten", convertFlatten },
        { "Reshape", convertReshape },
        { "Squeeze", convertSqueeze },
        { "Unsqueeze", convertUnsqueeze },
        { "Transpose", convertTranspose },
        { "Concat", convertConcat },
        { "Slice", convertSlice },
        { "Split", convertSplit },
        { "Pad", convertPad },
        { "Constant", convertConstant },
        { "Shape", convertShape },
        { "Gather", convertGather },
        { "Cast", convertCast },
        { "ConstantOfShape", convertConstantOfShape },
        { "Identity", convertIdentity },
        { "Dropout", convertIdentity },
    };
    return table;
}

} // namespace ts::graph
