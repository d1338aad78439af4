#include "core/ir/expr.h"

#include "core/ir/node_pool.h"
#include "core/ir/operation.h"
#include "core/support/assert.h"

#include <algorithm>
#include <cstdio>

namespace ts::ir {

namespace {
    std::shared_ptr<ExprNode> makeNode(ExprKind kind, DType dtype)
    {
        auto node = makePooled<ExprNode>();
        node->kind = kind;
        node->dtype = dtype;
        return node;
    }

    // An immediate on one side of a binary op takes the other side's type, so `x * 2` works for float x.
    Expr coerceImmediate(const Expr& e, DType target)
    {
        if (e->dtype == target)
            return e;
        if (e->kind == ExprKind::IntImm)
            return isFloat(target) ? floatImm(static_cast<double>(e->intValue), target) : intImm(e->intValue, target);
        if (e->kind == ExprKind::FloatImm && isFloat(target))
            return floatImm(e->floatValue, target);
        return e;
    }

    int precedence(ExprKind kind)
    {
        switch (kind) {
        case ExprKind::Or:
            return 1;
        case ExprKind::And:
            return 2;
        case ExprKind::EQ:
        case ExprKind::NE:
            return 3;
        case ExprKind::LT:
        case ExprKind::LE:
        case ExprKind::GT:
        case ExprKind::GE:
            return 4;
        case ExprKind::Add:
        case ExprKind::Sub:
            return 5;
        case ExprKind::Mul:
        case ExprKind::Div:
        case ExprKind::Mod:
            return 6;
        default:
            return 10; // atoms and function-call syntax
        }
    }

    void print(const Expr& e, std::string& out, int parentPrecedence, bool rightOperand);

    // Function-call and subscript syntax: "name(a, b)", "A[i, j]".
    void printApplied(std::string_view name, const ExprNode& n, char open, char close, std::string& out)
    {
        out += name;
        out += open;
        for (size_t i = 0; i < n.operands.size(); ++i) {
            if (i)
                out += ", ";
            print(n.operands[i], out, 0, false);
        }
        out += close;
    }

    void print(const Expr& e, std::string& out, int parentPrecedence, bool rightOperand)
    {
        const ExprNode& n = *e;
        switch (n.kind) {
        case ExprKind::IntImm:
            out += std::to_string(n.intValue);
            return;
        case ExprKind::FloatImm: {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%.9gf", n.floatValue);
            out += buffer;
            return;
        }
        case ExprKind::Var:
            out += n.name;
            return;
        case ExprKind::Min:
        case ExprKind::Max:
        case ExprKind::FloorDiv:
        case ExprKind::FloorMod:
            printApplied(toString(n.kind), n, '(', ')', out);
            return;
        case ExprKind::Not:
            out += '!';
            print(n.operands[0], out, 10, false);
            return;
        case ExprKind::Select:
            printApplied("select", n, '(', ')', out);
            return;
        case ExprKind::Cast:
            printApplied(toString(n.dtype), n, '(', ')', out);
            return;
        case ExprKind::Call:
            printApplied(toString(n.callOp), n, '(', ')', out);
            return;
        case ExprKind::Load:
        case ExprKind::BufferLoad:
            printApplied(n.kind == ExprKind::Load ? n.tensor->name() : n.buffer->name, n, '[', ']', out);
            return;
        default:
            break;
        }
        // Infix binary operators: parenthesize by precedence; the right operand of a non-associative
        // operator (a - (b - c)) needs them at equal precedence too.
        const int p = precedence(n.kind);
        const bool parens = p < parentPrecedence || (rightOperand && p == parentPrecedence);
        if (parens)
            out += '(';
        print(n.operands[0], out, p, false);
        const bool spaced = p <= 5;
        if (spaced)
            out += ' ';
        out += toString(n.kind);
        if (spaced)
            out += ' ';
        print(n.operands[1], out, p, true);
        if (parens)
            out += ')';
    }
} // namespace

std::string_view toString(CallOp op)
{
    switch (op) {
    case CallOp::Exp:
        return "exp";
    case CallOp::Log:
        return "log";
    case CallOp::Sqrt:
        return "sqrt";
    case CallOp::Rsqrt:
        return "rsqrt";
    case CallOp::Tanh:
        return "tanh";
    case CallOp::Erf:
        return "erf";
    case CallOp::Sigmoid:
        return "sigmoid";
    case CallOp::Abs:
        return "abs";
    case CallOp::Pow:
        return "pow";
    }
    return "?";
}

std::string_view toString(ExprKind kind)
{
    switch (kind) {
    case ExprKind::IntImm:
        return "int";
    case ExprKind::FloatImm:
        return "float";
    case ExprKind::Var:
        return "var";
    case ExprKind::Add:
        return "+";
    case ExprKind::Sub:
        return "-";
    case ExprKind::Mul:
        return "*";
    case ExprKind::Div:
        return "/";
    case ExprKind::Mod:
        return "%";
    case ExprKind::FloorDiv:
        return "floordiv";
    case ExprKind::FloorMod:
        return "floormod";
    case ExprKind::Min:
        return "min";
    case ExprKind::Max:
        return "max";
    case ExprKind::EQ:
        return "==";
    case ExprKind::NE:
        return "!=";
    case ExprKind::LT:
        return "<";
    case ExprKind::LE:
        return "<=";
    case ExprKind::GT:
        return ">";
    case ExprKind::GE:
        return ">=";
    case ExprKind::And:
        return "&&";
    case ExprKind::Or:
        return "||";
    case ExprKind::Not:
        return "!";
    case ExprKind::Select:
        return "select";
    case ExprKind::Cast:
        return "cast";
    case ExprKind::Call:
        return "call";
    case ExprKind::Load:
        return "load";
    case ExprKind::BufferLoad:
        return "buffer_load";
    }
    return "?";
}

bool isBinary(ExprKind kind) { return kind >= ExprKind::Add && kind <= ExprKind::Or && kind != ExprKind::Not; }

bool isComparison(ExprKind kind) { return kind >= ExprKind::EQ && kind <= ExprKind::GE; }

Expr::Expr(int value)
    : Expr(intImm(value))
{
}
Expr::Expr(int64_t value)
    : Expr(intImm(value))
{
}
Expr::Expr(double value)
    : Expr(floatImm(value))
{
}

Expr intImm(int64_t value, DType dtype)
{
    TS_ASSERT(isInt(dtype) || dtype == DType::Bool) << "intImm of type " << toString(dtype);
    auto node = makeNode(ExprKind::IntImm, dtype);
    node->intValue = value;
    return Expr(std::move(node));
}

Expr floatImm(double value, DType dtype)
{
    TS_ASSERT(isFloat(dtype)) << "floatImm of type " << toString(dtype);
    auto node = makeNode(ExprKind::FloatImm, dtype);
    node->floatValue = value;
    return Expr(std::move(node));
}

Expr var(std::string name, DType dtype)
{
    auto node = makeNode(ExprKind::Var, dtype);
    node->name = std::move(name);
    return Expr(std::move(node));
}

Expr binary(ExprKind kind, Expr a, Expr b)
{
    TS_ASSERT(isBinary(kind)) << toString(kind) << " is not a binary operator";
    TS_ASSERT(a.defined() && b.defined()) << "undefined operand of " << toString(kind);
    if (a->dtype != b->dtype) { // coerceImmediate keeps an operand of the target type as it is
        a = coerceImmediate(a, b->dtype);
        b = coerceImmediate(b, a->dtype);
    }
    TS_ASSERT(a->dtype == b->dtype) << "operand types differ in " << toString(a) << " " << toString(kind) << " "
                                    << toString(b) << ": " << toString(a->dtype) << " vs " << toString(b->dtype);
    const bool logical = kind == ExprKind::And || kind == ExprKind::Or;
    TS_ASSERT(!logical || a->dtype == DType::Bool) << "logical operator on non-bool operands";
    const bool integerOnly = kind == ExprKind::FloorDiv || kind == ExprKind::FloorMod || kind == ExprKind::Mod;
    TS_ASSERT(!integerOnly || isInt(a->dtype)) << toString(kind) << " needs integer operands";
    auto node = makeNode(kind, isComparison(kind) || logical ? DType::Bool : a->dtype);
    node->operands.push_back(std::move(a));
    node->operands.push_back(std::move(b));
    return Expr(std::move(node));
}

Expr notExpr(Expr a)
{
    TS_ASSERT(a->dtype == DType::Bool) << "! of non-bool " << toString(a);
    auto node = makeNode(ExprKind::Not, DType::Bool);
    node->operands.push_back(std::move(a));
    return Expr(std::move(node));
}

Expr select(Expr condition, Expr trueValue, Expr falseValue)
{
    TS_ASSERT(condition->dtype == DType::Bool) << "select condition is not bool: " << toString(condition);
    trueValue = coerceImmediate(trueValue, falseValue->dtype);
    falseValue = coerceImmediate(falseValue, trueValue->dtype);
    TS_ASSERT(trueValue->dtype == falseValue->dtype) << "select branches differ in type";
    auto node = makeNode(ExprKind::Select, trueValue->dtype);
    node->operands.push_back(std::move(condition));
    node->operands.push_back(std::move(trueValue));
    node->operands.push_back(std::move(falseValue));
    return Expr(std::move(node));
}

Expr cast(DType dtype, Expr value)
{
    if (value->dtype == dtype)
        return value;
    auto node = makeNode(ExprKind::Cast, dtype);
    node->operands.push_back(std::move(value));
    return Expr(std::move(node));
}

Expr call(CallOp op, std::vector<Expr> args)
{
    TS_ASSERT(!args.empty()) << toString(op) << " without arguments";
    const size_t arity = op == CallOp::Pow ? 2 : 1;
    TS_ASSERT(args.size() == arity) << toString(op) << " takes " << arity << " arguments";
    for (Expr& arg : args) {
        arg = coerceImmediate(arg, DType::Float32);
        TS_ASSERT(isFloat(arg->dtype)) << toString(op) << " of non-float " << toString(arg);
    }
    auto node = makeNode(ExprKind::Call, args[0]->dtype);
    node->callOp = op;
    node->operands = std::move(args);
    return Expr(std::move(node));
}

Expr load(const Tensor& tensor, std::vector<Expr> indices)
{
    TS_ASSERT(tensor) << "load from a null tensor";
    TS_ASSERT(indices.size() == tensor->shape().size())
        << "load " << tensor->name() << " with " << indices.size() << " indices, rank is " << tensor->shape().size();
    for (const Expr& index : indices)
        TS_ASSERT(isInt(index->dtype)) << "non-integer index " << toString(index) << " into " << tensor->name();
    auto node = makeNode(ExprKind::Load, tensor->dtype());
    node->tensor = tensor;
    node->operands = std::move(indices);
    return Expr(std::move(node));
}

Expr bufferLoad(const BufferRef& buffer, std::vector<Expr> indices)
{
    TS_ASSERT(buffer) << "load from a null buffer";
    for (const Expr& index : indices)
        TS_ASSERT(isInt(index->dtype)) << "non-integer index " << toString(index) << " into " << buffer->name;
    auto node = makeNode(ExprKind::BufferLoad, buffer->dtype);
    node->buffer = buffer;
    node->operands = std::move(indices);
    return Expr(std::move(node));
}

int64_t BufferVar::numElements() const
{
    int64_t n = 1;
    for (int64_t extent : shape)
        n *= extent;
    return n;
}

int64_t BufferVar::allocatedElements() const
{
    if (shape.empty())
        return 1;
    if (strides.empty())
        return numElements();
    // The dimension laid out outermost spans the storage: the first one in row-major order, or another when
    // the strides are permuted (a local buffer stored with its vectorized axis innermost).
    int64_t span = 0;
    for (size_t d = 0; d < shape.size(); ++d)
        span = std::max(span, strides[d] * shape[d]);
    return span;
}

Expr withOperands(const Expr& e, ExprList operands)
{
    auto node = makePooled<ExprNode>();
    node->kind = e->kind;
    node->dtype = e->dtype;
    node->intValue = e->intValue;
    node->floatValue = e->floatValue;
    node->name = e->name;
    node->callOp = e->callOp;
    node->operands = std::move(operands);
    node->tensor = e->tensor;
    node->buffer = e->buffer;
    return Expr(std::move(node));
}

Expr rewrite(const Expr& e, const std::function<Expr(const Expr&)>& replace)
{
    if (Expr replaced = replace(e); replaced.defined())
        return replaced;
    if (e->operands.empty())
        return e;
    ExprList operands;
    operands.reserve(e->operands.size());
    bool changed = false;
    for (const Expr& operand : e->operands) {
        operands.push_back(rewrite(operand, replace));
        changed |= !operands.back().sameAs(operand);
    }
    return changed ? withOperands(e, std::move(operands)) : e;
}

Expr substitute(const Expr& e, const std::vector<std::pair<Expr, Expr>>& varToValue)
{
    if (varToValue.empty())
        return e;
    return rewrite(e, [&](const Expr& x) {
        if (x->kind == ExprKind::Var)
            for (const auto& [v, value] : varToValue)
                if (v.sameAs(x))
                    return value;
        return Expr();
    });
}

bool structuralEqual(const Expr& a, const Expr& b)
{
    if (a.sameAs(b))
        return true;
    const ExprNode& x = *a;
    const ExprNode& y = *b;
    if (x.kind != y.kind || x.dtype != y.dtype || x.operands.size() != y.operands.size())
        return false;
    switch (x.kind) {
    case ExprKind::IntImm:
        return x.intValue == y.intValue;
    case ExprKind::FloatImm:
        return x.floatValue == y.floatValue;
    case ExprKind::Var:
        return false; // identity only
    case ExprKind::Call:
        if (x.callOp != y.callOp)
            return false;
        break;
    case ExprKind::Load:
        if (x.tensor != y.tensor)
            return false;
        break;
    case ExprKind::BufferLoad:
        if (x.buffer != y.buffer)
            return false;
        break;
    default:
        break;
    }
    for (size_t i = 0; i < x.operands.size(); ++i)
        if (!structuralEqual(x.operands[i], y.operands[i]))
            return false;
    return true;
}

bool usesVar(const Expr& e, const ExprNode* v)
{
    if (e.get() == v)
        return true;
    for (const Expr& operand : e->operands)
        if (usesVar(operand, v))
            return true;
    return false;
}

namespace {
    void collectConjuncts(const Expr& e, std::vector<Expr>& out)
    {
        if (e->kind == ExprKind::And) {
            collectConjuncts(e->operands[0], out);
            collectConjuncts(e->operands[1], out);
        } else {
            out.push_back(e);
        }
    }
} // namespace

std::vector<Expr> conjuncts(const Expr& e)
{
    std::vector<Expr> out;
    collectConjuncts(e, out);
    return out;
}

Expr conjunction(const std::vector<Expr>& terms)
{
    Expr out;
    for (const Expr& t : terms)
        out = out.defined() ? (out && t) : t;
    return out;
}

bool asConstInt(const Expr& e, int64_t* value)
{
    if (e->kind != ExprKind::IntImm)
        return false;
    *value = e->intValue;
    return true;
}

std::string toString(const Expr& e)
{
    std::string out;
    print(e, out, 0, false);
    return out;
}

} // namespace ts::ir
