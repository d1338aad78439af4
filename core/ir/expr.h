// Tensor expressions: the scalar language that compute-op bodies are written in.
//
// An Expr is an immutable, shared node. Every node kind shares one small struct (ExprNode): the kind tag
// decides which fields mean something (operands for arithmetic, name for a Var, tensor + operands as
// indices for a Load). Vars are compared by identity, as in TVM: two Vars named "i" are different axes.
// Builders check dtypes, so an ill-typed expression cannot be made.
//
// How to add a node kind: add it to ExprKind, give it a make function here, then handle it in
// printExpr (expr.cpp), the FLOP counter (compute_dag.cpp) and the reference evaluator; the compiler
// warns about each switch that misses it.
#pragma once

#include "core/ir/dtype.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace ts::ir {

class Operation;
struct ExprNode;

enum class ExprKind {
    IntImm,
    FloatImm,
    Var,
    // binary arithmetic, operands {a, b}
    Add,
    Sub,
    Mul,
    Div, // C semantics: truncating for integers
    Mod, // C semantics
    FloorDiv,
    FloorMod,
    Min,
    Max,
    // comparisons and logic, dtype Bool
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    And,
    Or,
    Not,
    Select, // operands {condition, true value, false value}; both branches are pure, evaluation picks one
    Cast, // operands {value}
    Call, // math function, operands = arguments
    Load, // tensor element, operands = indices
    BufferLoad, // loop-IR buffer element (core/lower), operands = indices (one, once flattened)
};

enum class CallOp { Exp, Log, Sqrt, Rsqrt, Tanh, Erf, Sigmoid, Abs, Pow };

std::string_view toString(CallOp op);

// A handle to an immutable node; copying shares the node.
class Expr {
public:
    Expr() = default;
    explicit Expr(std::shared_ptr<const ExprNode> node)
        : m_node(std::move(node))
    {
    }
    // Immediates convert implicitly so bodies read like math: x * 2 + 1.
    Expr(int value);
    Expr(int64_t value);
    Expr(double value);

    const ExprNode* get() const { return m_node.get(); }
    const ExprNode* operator->() const { return m_node.get(); }
    const ExprNode& operator*() const { return *m_node; }
    bool defined() const { return m_node != nullptr; }
    bool sameAs(const Expr& other) const { return m_node == other.m_node; }

private:
    std::shared_ptr<const ExprNode> m_node;
};

// The operands of a node: a vector of Exprs that keeps up to four in place (every binary, select and
// call, and the indices of tensors up to rank four), so building a node is one allocation, not two.
// Converts to and from std::vector<Expr>.
class ExprList {
public:
    using value_type = Expr;
    using iterator = Expr*;
    using const_iterator = const Expr*;
    static constexpr size_t kInline = 4;

    ExprList() = default;
    ExprList(std::initializer_list<Expr> values);
    ExprList(const std::vector<Expr>& values);
    ExprList(std::vector<Expr>&& values);
    ExprList(const ExprList& other);
    ExprList(ExprList&& other) noexcept;
    ExprList& operator=(const ExprList& other);
    ExprList& operator=(ExprList&& other) noexcept;
    ~ExprList() { release(); }

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    Expr* data() { return m_heap ? m_heap : reinterpret_cast<Expr*>(m_inline); }
    const Expr* data() const { return m_heap ? m_heap : reinterpret_cast<const Expr*>(m_inline); }
    Expr& operator[](size_t i) { return data()[i]; }
    const Expr& operator[](size_t i) const { return data()[i]; }
    Expr* begin() { return data(); }
    Expr* end() { return data() + m_size; }
    const Expr* begin() const { return data(); }
    const Expr* end() const { return data() + m_size; }
    Expr& front() { return data()[0]; }
    const Expr& front() const { return data()[0]; }
    Expr& back() { return data()[m_size - 1]; }
    const Expr& back() const { return data()[m_size - 1]; }
    void reserve(size_t capacity);
    void push_back(Expr value);
    void clear();

    operator std::vector<Expr>() const { return std::vector<Expr>(begin(), end()); }

private:
    void release();
    void takeFrom(ExprList& other) noexcept;
    template <typename It> void assignMoved(It first, size_t count);

    uint32_t m_size = 0;
    uint32_t m_capacity = kInline;
    Expr* m_heap = nullptr; // past kInline
    alignas(Expr) unsigned char m_inline[kInline * sizeof(Expr)];
};

using Tensor = std::shared_ptr<const Operation>;

// A buffer of the loop IR (core/lower): a kernel argument, a stage's full output, or a stage's region
// computed inside a consumer's loop. Compared by identity.
struct BufferVar {
    std::string name;
    DType dtype = DType::Float32;
    std::vector<int64_t> shape; // extents; after storage flattening one dimension
    std::vector<int64_t> strides; // elements, row-major unless storage_align pads a dimension
    std::string scope = "global"; // "global", "local", "shared"
    int64_t numElements() const;
    int64_t allocatedElements() const; // the outermost-laid dimension's stride * extent when padded or permuted
};
using BufferRef = std::shared_ptr<const BufferVar>;

// A new field must be copied in withOperands (expr.cpp), which copies every field but the operands.
struct ExprNode {
    ExprKind kind = ExprKind::IntImm;
    DType dtype = DType::Int64;
    int64_t intValue = 0; // IntImm
    double floatValue = 0.0; // FloatImm
    std::string name; // Var
    CallOp callOp = CallOp::Exp; // Call
    ExprList operands;
    Tensor tensor; // Load
    BufferRef buffer; // BufferLoad
};

// --- builders
Expr intImm(int64_t value, DType dtype = DType::Int64);
Expr floatImm(double value, DType dtype = DType::Float32);
Expr var(std::string name, DType dtype = DType::Int64);
Expr binary(ExprKind kind, Expr a, Expr b);
Expr notExpr(Expr a);
Expr select(Expr condition, Expr trueValue, Expr falseValue);
Expr cast(DType dtype, Expr value);
Expr call(CallOp op, std::vector<Expr> args);
Expr load(const Tensor& tensor, std::vector<Expr> indices);
Expr bufferLoad(const BufferRef& buffer, std::vector<Expr> indices);
// The same node with other operands (same kind, dtype and payload).
Expr withOperands(const Expr& e, ExprList operands);
// Rewrites top-down: where replace(e) returns a defined Expr it takes e's place, otherwise the operands are
// rewritten and the node is rebuilt only if one of them changed.
Expr rewrite(const Expr& e, const std::function<Expr(const Expr&)>& replace);
// Replaces Vars by identity.
Expr substitute(const Expr& e, const std::vector<std::pair<Expr, Expr>>& varToValue);
// Same shape, same immediates, same vars (by identity), same tensors/buffers.
bool structuralEqual(const Expr& a, const Expr& b);
bool usesVar(const Expr& e, const ExprNode* var);
// The terms of a conjunction a && b && ..., nested Ands flattened (a non-And is one term), and back (null
// for no terms).
std::vector<Expr> conjuncts(const Expr& e);
Expr conjunction(const std::vector<Expr>& terms);

inline Expr operator+(Expr a, Expr b) { return binary(ExprKind::Add, std::move(a), std::move(b)); }
inline Expr operator-(Expr a, Expr b) { return binary(ExprKind::Sub, std::move(a), std::move(b)); }
inline Expr operator*(Expr a, Expr b) { return binary(ExprKind::Mul, std::move(a), std::move(b)); }
inline Expr operator/(Expr a, Expr b) { return binary(ExprKind::Div, std::move(a), std::move(b)); }
inline Expr operator%(Expr a, Expr b) { return binary(ExprKind::Mod, std::move(a), std::move(b)); }
inline Expr operator<(Expr a, Expr b) { return binary(ExprKind::LT, std::move(a), std::move(b)); }
inline Expr operator<=(Expr a, Expr b) { return binary(ExprKind::LE, std::move(a), std::move(b)); }
inline Expr operator>(Expr a, Expr b) { return binary(ExprKind::GT, std::move(a), std::move(b)); }
inline Expr operator>=(Expr a, Expr b) { return binary(ExprKind::GE, std::move(a), std::move(b)); }
inline Expr operator&&(Expr a, Expr b) { return binary(ExprKind::And, std::move(a), std::move(b)); }
inline Expr operator||(Expr a, Expr b) { return binary(ExprKind::Or, std::move(a), std::move(b)); }
inline Expr eq(Expr a, Expr b) { return binary(ExprKind::EQ, std::move(a), std::move(b)); }
inline Expr ne(Expr a, Expr b) { return binary(ExprKind::NE, std::move(a), std::move(b)); }
inline Expr min(Expr a, Expr b) { return binary(ExprKind::Min, std::move(a), std::move(b)); }
inline Expr max(Expr a, Expr b) { return binary(ExprKind::Max, std::move(a), std::move(b)); }
inline Expr floorDiv(Expr a, Expr b) { return binary(ExprKind::FloorDiv, std::move(a), std::move(b)); }
inline Expr floorMod(Expr a, Expr b) { return binary(ExprKind::FloorMod, std::move(a), std::move(b)); }
inline Expr exp(Expr a) { return call(CallOp::Exp, { std::move(a) }); }
inline Expr log(Expr a) { return call(CallOp::Log, { std::move(a) }); }
inline Expr sqrt(Expr a) { return call(CallOp::Sqrt, { std::move(a) }); }
inline Expr rsqrt(Expr a) { return call(CallOp::Rsqrt, { std::move(a) }); }
inline Expr tanh(Expr a) { return call(CallOp::Tanh, { std::move(a) }); }
inline Expr erf(Expr a) { return call(CallOp::Erf, { std::move(a) }); }
inline Expr sigmoid(Expr a) { return call(CallOp::Sigmoid, { std::move(a) }); }

bool isBinary(ExprKind kind);
bool isComparison(ExprKind kind);
// The operator symbol or function name of a kind: "+", "<=", "floordiv", ...
std::string_view toString(ExprKind kind);

// Constant value of an IntImm, or false.
bool asConstInt(const Expr& e, int64_t* value);

// Calls visit(node) for e and every sub-expression, children first (TVM's PostOrderVisit). Load indices are
// visited before the load itself.
template <typename Fn> void postOrderVisit(const Expr& e, Fn&& visit)
{
    for (const Expr& operand : e->operands)
        postOrderVisit(operand, visit);
    visit(*e);
}

// Readable text: A[i, k]*B[k, j]. Vars print by name, tensors by their op name.
std::string toString(const Expr& e);

} // namespace ts::ir
