// The ONNX importer's conversions of data-movement operators and of values known at import time (onnx_ops.h).
#include "core/graph/onnx_ops.h"
#include "core/ops/shape_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ts::graph::onnx_ops {

namespace {
    // ONNX's slice bounds on one axis, clamped as the operator defines, for an axis of extent `n`.
    void clampSlice(int64_t n, int64_t& start, int64_t& end, int64_t step)
    {
        if (start < 0)
            start += n;
        if (end < 0)
            end += n;
        if (step > 0) {
            start = std::clamp<int64_t>(start, 0, n);
            end = std::clamp<int64_t>(end, 0, n);
        } else {
            start = std::clamp<int64_t>(start, 0, n - 1);
            end = std::clamp<int64_t>(end, -1, n - 1);
        }
    }
} // namespace

// ---- shapes and data movement ----

Expected<void> reshapeTo(OnnxConverter& c, std::vector<int64_t> shape)
{
    return output(c, c.emit(reshapeNode(std::move(shape)), { 0 }));
}

Expected<void> convertReshape(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    TS_TRY(std::vector<int64_t> shape, constantInts(c, 1, "shape"));
    const bool allowZero = c.intAttribute("allowzero", 0) != 0;
    int infer = -1;
    int64_t known = 1;
    for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 0 && !allowZero) {
            if (d >= x.size())
                return c.invalid("shape " + text(shape) + " copies axis " + std::to_string(d) + " that " + text(x)
                    + " does not have");
            shape[d] = x[d];
        }
        if (shape[d] == -1) {
            if (infer >= 0)
                return c.invalid("shape " + text(shape) + " has two -1 entries");
            infer = static_cast<int>(d);
            continue;
        }
        if (shape[d] < 1)
            return c.unsupported("shape", "extent " + std::to_string(shape[d]) + " in " + text(shape));
        known *= shape[d];
    }
    const int64_t total = product(x, 0, x.size());
    if (infer >= 0) {
        if (known == 0 || total % known != 0)
            return c.invalid("cannot reshape " + text(x) + " to " + text(shape));
        shape[static_cast<size_t>(infer)] = total / known;
    }
    return reshapeTo(c, shape);
}

Expected<void> convertFlatten(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    int64_t axis = c.intAttribute("axis", 1);
    if (axis < 0)
        axis += static_cast<int64_t>(x.size());
    if (axis < 0 || axis > static_cast<int64_t>(x.size()))
        return c.invalid("axis " + std::to_string(axis) + " is out of range for " + text(x));
    const size_t a = static_cast<size_t>(axis);
    return reshapeTo(c, { product(x, 0, a), product(x, a, x.size()) });
}

Expected<void> convertSqueeze(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    TS_TRY(const std::vector<int64_t> axes, axesOf(c, 13, 1));
    std::vector<bool> drop(x.size(), false);
    for (int64_t a : axes) {
        TS_TRY(const int axis, normaliseAxis(c, "axes", a, x.size()));
        if (x[static_cast<size_t>(axis)] != 1)
            return c.invalid("axis " + std::to_string(axis) + " of " + text(x) + " is not 1");
        drop[static_cast<size_t>(axis)] = true;
    }
    std::vector<int64_t> shape;
    for (size_t d = 0; d < x.size(); ++d)
        if (!(axes.empty() ? x[d] == 1 : drop[d]))
            shape.push_back(x[d]);
    return reshapeTo(c, shape);
}

Expected<void> convertUnsqueeze(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    TS_TRY(const std::vector<int64_t> axes, axesOf(c, 13, 1));
    const size_t rank = x.size() + axes.size();
    std::vector<bool> added(rank, false);
    for (int64_t a : axes) {
        TS_TRY(const int axis, normaliseAxis(c, "axes", a, rank));
        added[static_cast<size_t>(axis)] = true;
    }
    std::vector<int64_t> shape;
    size_t next = 0;
    for (size_t d = 0; d < rank; ++d)
        shape.push_back(added[d] ? 1 : x[next++]);
    return reshapeTo(c, shape);
}

Expected<void> convertTranspose(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    std::vector<int64_t> perm = c.intsAttribute("perm");
    Node node = make(NodeKind::Transpose);
    if (perm.empty())
        for (size_t d = x.size(); d-- > 0;)
            perm.push_back(static_cast<int64_t>(d));
    for (int64_t p : perm)
        node.permutation.push_back(static_cast<int>(p));
    return output(c, c.emit(std::move(node), { 0 }));
}

Expected<void> convertConcat(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    TS_TRY(const int axis, normaliseAxis(c, "axis", c.intAttribute("axis", 0), std::max<size_t>(x.size(), 1)));
    Node node = make(NodeKind::Concat);
    node.axis = axis;
    std::vector<int> inputs;
    for (int k = 0; k < c.node().input_size(); ++k)
        inputs.push_back(k);
    return output(c, c.emit(std::move(node), inputs));
}

Expected<Value> sliceOf(OnnxConverter& c, Value x, const std::vector<int64_t>& shape,
    const std::vector<int64_t>& starts, const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
    const std::vector<int64_t>& steps)
{
    Node node = make(NodeKind::Slice);
    node.begin.assign(shape.size(), 0);
    node.end = shape;
    node.step.assign(shape.size(), 1);
    for (size_t i = 0; i < starts.size(); ++i) {
        TS_TRY(
            const int axis, normaliseAxis(c, "axes", axes.empty() ? static_cast<int64_t>(i) : axes[i], shape.size()));
        const size_t a = static_cast<size_t>(axis);
        int64_t step = steps.empty() ? 1 : steps[i];
        if (step == 0)
            return c.invalid("a step of 0");
        int64_t start = starts[i];
        int64_t end = ends[i];
        clampSlice(shape[a], start, end, step);
        if (step > 0 ? start >= end : start <= end)
            return c.unsupported("starts", "the slice of axis " + std::to_string(a) + " is empty");
        node.begin[a] = start;
        node.end[a] = end;
        node.step[a] = step;
    }
    return c.emitOver(std::move(node), { std::move(x) });
}

Expected<void> convertSlice(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    std::vector<int64_t> starts, ends, axes, steps;
    if (c.opset() < 10) {
        starts = c.intsAttribute("starts");
        ends = c.intsAttribute("ends");
        axes = c.intsAttribute("axes");
    } else {
        TS_TRY(starts, constantInts(c, 1, "starts"));
        TS_TRY(ends, constantInts(c, 2, "ends"));
        if (c.hasInput(3)) {
            TS_TRY(axes, constantInts(c, 3, "axes"));
        }
        if (c.hasInput(4)) {
            TS_TRY(steps, constantInts(c, 4, "steps"));
        }
    }
    if (starts.size() != ends.size() || (!axes.empty() && axes.size() != starts.size())
        || (!steps.empty() && steps.size() != starts.size()))
        return c.invalid("starts, ends, axes and steps differ in length");
    return output(c, sliceOf(c, c.input(0), x, starts, ends, axes, steps));
}

Expected<void> convertSplit(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    TS_TRY(const int axis, normaliseAxis(c, "axis", c.intAttribute("axis", 0), x.size()));
    const size_t a = static_cast<size_t>(axis);
    std::vector<int64_t> sizes;
    if (c.opset() < 13)
        sizes = c.intsAttribute("split");
    else if (c.hasInput(1)) {
        TS_TRY(sizes, constantInts(c, 1, "split"));
    }
    const int64_t parts = c.node().output_size();
    if (sizes.empty()) {
        if (x[a] % parts != 0)
            return c.unsupported("split",
                "axis " + std::to_string(a) + " of " + text(x) + " does not split evenly into "
                    + std::to_string(parts));
        sizes.assign(static_cast<size_t>(parts), x[a] / parts);
    }
    if (static_cast<int64_t>(sizes.size()) != parts
        || std::accumulate(sizes.begin(), sizes.end(), int64_t { 0 }) != x[a])
        return c.invalid("split " + text(sizes) + " does not cover axis " + std::to_string(a) + " of " + text(x));
    int64_t offset = 0;
    for (int k = 0; k < parts; ++k) {
        const int64_t size = sizes[static_cast<size_t>(k)];
        TS_TRY(Value part, sliceOf(c, c.input(0), x, { offset }, { offset + size }, { axis }, {}));
        c.setOutput(k, std::move(part));
        offset += size;
    }
    return {};
}

Expected<void> convertPad(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    const std::string mode = c.stringAttribute("mode", "constant");
    if (mode != "constant")
        return c.unsupported("mode", "'" + mode + "' padding; only constant padding is supported");
    std::vector<int64_t> pads;
    double value = 0.0;
    if (c.opset() < 11) {
        pads = c.intsAttribute("pads");
        value = c.floatAttribute("value", 0.0);
    } else {
        TS_TRY(pads, constantInts(c, 1, "pads"));
        if (c.hasInput(2)) {
            const HostTensor* v = c.constantInput(2);
            if (!v || v->size() != 1)
                return c.unsupported("constant_value", "must be a constant scalar");
            value = v->values[0];
        }
        if (c.hasInput(3))
            return c.unsupported("axes", "padding selected axes is not supported");
    }
    if (pads.size() != 2 * x.size())
        return c.invalid("pads " + text(pads) + " needs " + std::to_string(2 * x.size()) + " values");
    Node node = make(NodeKind::Pad);
    for (size_t d = 0; d < x.size(); ++d) {
        if (pads[d] < 0 || pads[d + x.size()] < 0)
            return c.unsupported("pads", "negative padding (cropping) " + text(pads));
        node.begin.push_back(pads[d]);
        node.end.push_back(pads[d + x.size()]);
    }
    node.scalar = value;
    return output(c, c.emit(std::move(node), { 0 }));
}

// ---- values known at import time ----

Expected<void> convertConstant(OnnxConverter& c)
{
    HostTensor t;
    if (const onnx::TensorProto* value = c.tensorAttribute("value")) {
        TS_TRY(t, hostTensor(*value, c.directory()));
    } else if (c.hasAttribute("value_float")) {
        t.values = { c.floatAttribute("value_float", 0.0) };
    } else if (c.hasAttribute("value_int")) {
        t.integer = true;
        t.values = { static_cast<double>(c.intAttribute("value_int", 0)) };
    } else if (c.hasAttribute("value_ints")) {
        t.integer = true;
        for (int64_t v : c.intsAttribute("value_ints"))
            t.values.push_back(static_cast<double>(v));
        t.shape = { t.size() };
    } else
        return c.unsupported("value", "only tensor, float and int constants are supported");
    c.setOutput(0, std::move(t));
    return {};
}

Expected<void> convertShape(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    const int64_t rank = static_cast<int64_t>(x.size());
    int64_t start = c.intAttribute("start", 0);
    int64_t end = c.intAttribute("end", rank);
    start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
    HostTensor t;
    t.integer = true;
    for (int64_t d = start; d < end; ++d)
        t.values.push_back(static_cast<double>(x[static_cast<size_t>(d)]));
    t.shape = { t.size() };
    c.setOutput(0, std::move(t));
    return {};
}

// float32 holds every whole number up to 2^24 exactly: the most entries a run-time index can pick from.
constexpr int64_t kMaxTakeRows = int64_t(1) << 24;

Expected<void> convertGather(OnnxConverter& c)
{
    const std::vector<int64_t> x = c.inputShape(0);
    TS_TRY(const int axis, normaliseAxis(c, "axis", c.intAttribute("axis", 0), x.size()));
    const size_t a = static_cast<size_t>(axis);
    const HostTensor* indices = c.constantInput(1);
    if (!indices) {
        // Indices known only at run time (an embedding lookup): a Take node (ops::take) reads them as float32
        // whole numbers, wraps a negative one once and clamps what is still out of range to the nearest row.
        if (x[a] > kMaxTakeRows)
            return c.unsupported("axis",
                "run-time indices into " + std::to_string(x[a]) + " entries along axis " + std::to_string(axis) + " of "
                    + c.node().input(0) + " " + text(x)
                    + ": indices are float32 values, exact only up to 2^24 (16777216) entries");
        const int indexNode = c.input(1).node;
        if (c.graph().node(indexNode).kind == NodeKind::Input)
            c.graph().setIndexBound(indexNode, x[a]);
        Node take = make(NodeKind::Take);
        take.axis = axis;
        return output(c, c.emit(std::move(take), { 0, 1 }));
    }
    std::vector<int64_t> index = indices->ints();
    for (int64_t& i : index) {
        if (i < -x[a] || i >= x[a])
            return c.invalid(
                "index " + std::to_string(i) + " is out of range for axis " + std::to_string(a) + " of " + text(x));
        if (i < 0)
            i += x[a];
    }
    // out shape: x[:axis] + indices.shape + x[axis+1:]
    std::vector<int64_t> shape(x.begin(), x.begin() + axis);
    shape.insert(shape.end(), indices->shape.begin(), indices->shape.end());
    shape.insert(shape.end(), x.begin() + axis + 1, x.end());
    if (const HostTensor* data = c.constantInput(0)) {
        const int64_t outer = product(x, 0, a);
        const int64_t inner = product(x, a + 1, x.size());
        HostTensor t;
        t.integer = data->integer;
        t.shape = shape;
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i : index)
                for (int64_t k = 0; k < inner; ++k)
                    t.values.push_back(data->values[static_cast<size_t>((o * x[a] + i) * inner + k)]);
        c.setOutput(0, std::move(t));
        return {};
    }
    // Known indices into a computed tensor: slices of one, concatenated, reshaped.
    std::vector<Value> pieces;
    for (int64_t i : index) {
        TS_TRY(Value piece, sliceOf(c, c.input(0), x, { i }, { i + 1 }, { axis }, {}));
        pieces.push_back(std::move(piece));
    }
    Value joined = pieces.front();
    if (pieces.size() > 1) {
        Node cat = make(NodeKind::Concat);
        cat.axis = axis;
        TS_TRY(joined, c.emitOver(std::move(cat), pieces));
    }
    return output(c, c.emitOver(reshapeNode(shape.empty() ? std::vector<int64_t> { 1 } : shape), { joined }));
}

Expected<void> convertCast(OnnxConverter& c)
{
    const int64_t to = c.intAttribute("to", 0);
    const bool toFloat = to == onnx::TensorProto::FLOAT || to == onnx::TensorProto::DOUBLE;
    if (const HostTensor* t = c.constantInput(0)) {
        HostTensor out = *t;
        out.integer = !toFloat;
        if (!toFloat)
            for (double& v : out.values)
                v = to == onnx::TensorProto::BOOL ? (v != 0.0) : std::trunc(v);
        c.setOutput(0, std::move(out));
        return {};
    }
    if (!toFloat)
        return c.unsupported("to", "casting a computed tensor to a non-float type is not supported");
    c.setOutput(0, c.input(0));
    return {};
}

Expected<void> convertConstantOfShape(OnnxConverter& c)
{
    TS_TRY(const std::vector<int64_t> shape, constantInts(c, 0, "input"));
    HostTensor t;
    double value = 0.0;
    if (const onnx::TensorProto* v = c.tensorAttribute("value")) {
        TS_TRY(HostTensor k, hostTensor(*v, c.directory()));
        if (k.size() != 1)
            return c.invalid("value must hold one element");
        value = k.values[0];
        t.integer = k.integer;
    }
    t.shape = shape;
    t.values.assign(static_cast<size_t>(product(shape, 0, shape.size())), value);
    c.setOutput(0, std::move(t));
    return {};
}

Expected<void> convertIdentity(OnnxConverter& c)
{
    if (c.node().op_type() == "Dropout") {
        if (c.node().output_size() > 1 && !c.node().output(1).empty())
            return c.unsupported("", "the mask output of Dropout is not supported");
        if (c.hasInput(2)) {
            const HostTensor* training = c.constantInput(2);
            if (!training || training->values[0] != 0.0)
                return c.unsupported("training_mode", "only inference (training_mode false) is supported");
        }
    }
    c.setOutput(0, c.input(0));
    return {};
}

} // namespace ts::graph::onnx_ops
