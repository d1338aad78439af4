// Operations: placeholders (inputs) and compute ops (one output tensor each).
//
// A compute op defines every element of its output: out[axes] = body, or, with a reducer,
// out[axes] = reduce over reduceAxes of body (sum, max or min, starting from the reducer's identity).
// The op *is* its output tensor (Tensor = shared_ptr<const Operation>); TVM's multi-output ops are not
// needed by any operator TuneScope builds. Operations are immutable once made.
#pragma once

#include "core/ir/expr.h"

#include <functional>
#include <string>
#include <vector>

namespace ts::ir {

enum class OpKind { Placeholder, Compute };
enum class Reducer { None, Sum, Max, Min };

std::string_view toString(Reducer reducer);

struct IterVar {
    Expr var;
    int64_t extent = 1;
};

class Operation {
public:
    OpKind kind() const { return m_kind; }
    bool isPlaceholder() const { return m_kind == OpKind::Placeholder; }
    const std::string& name() const { return m_name; }
    // What the op computes, for people and fusion rules: "conv2d_nchw", "elemwise", "pad", "placeholder"...
    const std::string& tag() const { return m_tag; }
    DType dtype() const { return m_dtype; }
    const std::vector<int64_t>& shape() const { return m_shape; }
    int64_t numElements() const;
    int64_t bytes() const { return numElements() * bytesOf(m_dtype); }

    // Compute ops only.
    const std::vector<IterVar>& axes() const { return m_axes; }
    const std::vector<IterVar>& reduceAxes() const { return m_reduceAxes; }
    Reducer reducer() const { return m_reducer; }
    const Expr& body() const { return m_body; }
    // The tensors the body reads, each once, in order of first appearance (post-order, as TVM's
    // ComputeOpNode::InputTensors). The order decides the stage order of a ComputeDAG.
    const std::vector<Tensor>& inputs() const { return m_inputs; }

    // "matmul[i, j] += A[i, k]*B[k, j]" or "out[i, j] = matmul[i, j] + C[i, j]" or "A = placeholder[1024, 1024]".
    std::string toString() const;

private:
    friend Tensor placeholder(std::string, std::vector<int64_t>, DType);
    friend Tensor compute(
        std::string, std::vector<int64_t>, const std::function<Expr(const std::vector<Expr>&)>&, std::string);
    friend Tensor computeFromParts(std::string, std::string, std::vector<IterVar>, std::vector<IterVar>, Reducer, Expr);
    friend Tensor computeReduce(std::string, std::vector<int64_t>, std::vector<int64_t>, Reducer,
        const std::function<Expr(const std::vector<Expr>&, const std::vector<Expr>&)>&, std::string);

    OpKind m_kind = OpKind::Placeholder;
    std::string m_name;
    std::string m_tag;
    DType m_dtype = DType::Float32;
    std::vector<int64_t> m_shape;
    std::vector<IterVar> m_axes;
    std::vector<IterVar> m_reduceAxes;
    Reducer m_reducer = Reducer::None;
    Expr m_body;
    std::vector<Tensor> m_inputs;
};

// An input tensor.
Tensor placeholder(std::string name, std::vector<int64_t> shape, DType dtype = DType::Float32);

// out[axes] = body(axes). Axis vars are named i, j, k, l, ... (ax4, ax5 past that).
Tensor compute(std::string name, std::vector<int64_t> shape, const std::function<Expr(const std::vector<Expr>&)>& body,
    std::string tag = "elemwise");

// out[axes] = reducer over reduceAxes of body(axes, reduceAxes). Reduce vars are named rv0, rv1, ...
// unless the body's op names them (conv2d's rc, ry, rx) through reduceNames.
Tensor computeReduce(std::string name, std::vector<int64_t> shape, std::vector<int64_t> reduceExtents, Reducer reducer,
    const std::function<Expr(const std::vector<Expr>&, const std::vector<Expr>&)>& body, std::string tag);

// A compute op from given axis vars and body: how schedule steps (cache_read/write, rfactor) rebuild ops
// while keeping the axis vars their iterators refer to.
Tensor computeFromParts(std::string name, std::string tag, std::vector<IterVar> axes, std::vector<IterVar> reduceAxes,
    Reducer reducer, Expr body);
// The value a reduction starts from: 0 for sum, lowest float for max, highest for min.
double reducerIdentity(Reducer reducer);
// The reduction's step: current + value, max(current, value) or min(current, value).
Expr combine(Reducer reducer, Expr current, Expr value);

// Names the axis vars of the next compute/computeReduce call on this thread (conv2d: nn, ff, yy, xx; rc, ry, rx).
// Only cosmetic: vars are identified by pointer, names appear in printouts.
void setNextAxisNames(std::vector<std::string> spatial, std::vector<std::string> reduce = {});

} // namespace ts::ir
