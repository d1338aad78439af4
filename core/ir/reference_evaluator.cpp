#include "core/ir/reference_evaluator.h"

#include "core/support/assert.h"
#include "core/support/rng.h"
#include "core/support/strings.h"

#include <cmath>
#include <unordered_map>

namespace ts::ir {

namespace {
    // Raised inside one evaluate() call and turned into an Error at its boundary.
    struct EvalFailure {
        Error error;
    };

    // An expression compiled for interpretation: vars become slots in an environment array, loads carry the
    // producer's buffer and strides.
    struct Node {
        ExprKind kind;
        DType dtype;
        CallOp callOp = CallOp::Exp;
        int64_t intValue = 0;
        double floatValue = 0.0;
        int slot = -1;
        const Buffer* buffer = nullptr;
        const Operation* tensor = nullptr;
        std::vector<int64_t> strides;
        std::vector<Node> children;
    };

    Node compileExpr(const Expr& e, const std::unordered_map<const ExprNode*, int>& slots,
        const std::vector<Buffer>& buffers, const ComputeDAG& dag)
    {
        Node node;
        node.kind = e->kind;
        node.dtype = e->dtype;
        node.callOp = e->callOp;
        node.intValue = e->intValue;
        node.floatValue = e->floatValue;
        if (e->kind == ExprKind::Var) {
            auto it = slots.find(e.get());
            if (it == slots.end())
                throw EvalFailure { makeError(ErrorKind::InvalidArgument, "free variable '" + e->name + "'") };
            node.slot = it->second;
        }
        if (e->kind == ExprKind::Load) {
            const int producer = dag.indexOf(e->tensor.get());
            if (producer < 0)
                throw EvalFailure { makeError(
                    ErrorKind::InvalidArgument, "load from " + e->tensor->name() + ", which is not in the DAG") };
            node.buffer = &buffers[static_cast<size_t>(producer)];
            node.tensor = e->tensor.get();
            const auto& shape = e->tensor->shape();
            node.strides.assign(shape.size(), 1);
            for (size_t d = shape.size(); d-- > 1;)
                node.strides[d - 1] = node.strides[d] * shape[d];
        }
        for (const Expr& operand : e->operands)
            node.children.push_back(compileExpr(operand, slots, buffers, dag));
        return node;
    }

    int64_t evalInt(const Node& n, const int64_t* env);
    double evalFloat(const Node& n, const int64_t* env);

    bool evalBool(const Node& n, const int64_t* env) { return evalInt(n, env) != 0; }

    int64_t floorDivInt(int64_t a, int64_t b)
    {
        const int64_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }

    template <typename T> bool compare(ExprKind kind, T a, T b)
    {
        switch (kind) {
        case ExprKind::EQ:
            return a == b;
        case ExprKind::NE:
            return a != b;
        case ExprKind::LT:
            return a < b;
        case ExprKind::LE:
            return a <= b;
        case ExprKind::GT:
            return a > b;
        case ExprKind::GE:
            return a >= b;
        default:
            return false;
        }
    }

    double loadValue(const Node& n, const int64_t* env)
    {
        const auto& shape = n.tensor->shape();
        int64_t offset = 0;
        for (size_t d = 0; d < n.children.size(); ++d) {
            const int64_t index = evalInt(n.children[d], env);
            if (index < 0 || index >= shape[d])
                throw EvalFailure { makeError(ErrorKind::InvalidArgument,
                    "out-of-bounds read " + n.tensor->name() + " dimension " + std::to_string(d) + " index "
                        + std::to_string(index) + " (extent " + std::to_string(shape[d]) + ")") };
            offset += index * n.strides[d];
        }
        return (*n.buffer)[offset];
    }

    int64_t evalInt(const Node& n, const int64_t* env)
    {
        switch (n.kind) {
        case ExprKind::IntImm:
            return n.intValue;
        case ExprKind::Var:
            return env[n.slot];
        case ExprKind::Cast:
            return isFloat(n.children[0].dtype) ? static_cast<int64_t>(evalFloat(n.children[0], env))
                                                : evalInt(n.children[0], env);
        case ExprKind::Select:
            return evalBool(n.children[0], env) ? evalInt(n.children[1], env) : evalInt(n.children[2], env);
        case ExprKind::Not:
            return !evalBool(n.children[0], env);
        case ExprKind::And:
            return evalBool(n.children[0], env) && evalBool(n.children[1], env);
        case ExprKind::Or:
            return evalBool(n.children[0], env) || evalBool(n.children[1], env);
        case ExprKind::Load:
            return static_cast<int64_t>(loadValue(n, env));
        default:
            break;
        }
        if (isComparison(n.kind)) {
            if (isFloat(n.children[0].dtype))
                return compare(n.kind, evalFloat(n.children[0], env), evalFloat(n.children[1], env));
            return compare(n.kind, evalInt(n.children[0], env), evalInt(n.children[1], env));
        }
        const int64_t a = evalInt(n.children[0], env);
        const int64_t b = evalInt(n.children[1], env);
        const bool divides = n.kind == ExprKind::Div || n.kind == ExprKind::Mod || n.kind == ExprKind::FloorDiv
            || n.kind == ExprKind::FloorMod;
        if (divides && b == 0)
            throw EvalFailure { makeError(ErrorKind::InvalidArgument, "integer division by zero") };
        switch (n.kind) {
        case ExprKind::Add:
            return a + b;
        case ExprKind::Sub:
            return a - b;
        case ExprKind::Mul:
            return a * b;
        case ExprKind::Div:
            return a / b;
        case ExprKind::Mod:
            return a % b;
        case ExprKind::FloorDiv:
            return floorDivInt(a, b);
        case ExprKind::FloorMod:
            return a - floorDivInt(a, b) * b;
        case ExprKind::Min:
            return std::min(a, b);
        case ExprKind::Max:
            return std::max(a, b);
        default:
            TS_ASSERT(false) << "integer evaluation of " << toString(n.kind);
        }
        return 0;
    }

    double callValue(CallOp op, double x, double y)
    {
        switch (op) {
        case CallOp::Exp:
            return std::exp(x);
        case CallOp::Log:
            return std::log(x);
        case CallOp::Sqrt:
            return std::sqrt(x);
        case CallOp::Rsqrt:
            return 1.0 / std::sqrt(x);
        case CallOp::Tanh:
            return std::tanh(x);
        case CallOp::Erf:
            return std::erf(x);
        case CallOp::Sigmoid:
            return 1.0 / (1.0 + std::exp(-x));
        case CallOp::Abs:
            return std::fabs(x);
        case CallOp::Pow:
            return std::pow(x, y);
        }
        return 0.0;
    }

    double evalFloat(const Node& n, const int64_t* env)
    {
        switch (n.kind) {
        case ExprKind::FloatImm:
            return n.floatValue;
        case ExprKind::Load:
            return loadValue(n, env);
        case ExprKind::Cast:
            return isFloat(n.children[0].dtype) ? evalFloat(n.children[0], env)
                                                : static_cast<double>(evalInt(n.children[0], env));
        case ExprKind::Select:
            return evalBool(n.children[0], env) ? evalFloat(n.children[1], env) : evalFloat(n.children[2], env);
        case ExprKind::Call:
            return callValue(
                n.callOp, evalFloat(n.children[0], env), n.children.size() > 1 ? evalFloat(n.children[1], env) : 0.0);
        case ExprKind::Add:
            return evalFloat(n.children[0], env) + evalFloat(n.children[1], env);
        case ExprKind::Sub:
            return evalFloat(n.children[0], env) - evalFloat(n.children[1], env);
        case ExprKind::Mul:
            return evalFloat(n.children[0], env) * evalFloat(n.children[1], env);
        case ExprKind::Div:
            return evalFloat(n.children[0], env) / evalFloat(n.children[1], env);
        case ExprKind::Min:
            return std::min(evalFloat(n.children[0], env), evalFloat(n.children[1], env));
        case ExprKind::Max:
            return std::max(evalFloat(n.children[0], env), evalFloat(n.children[1], env));
        default:
            TS_ASSERT(false) << "float evaluation of " << toString(n.kind);
        }
        return 0.0;
    }

    // Advances a multi-index over `extents` (odometer order); false when it wraps around.
    bool advance(int64_t* index, const std::vector<IterVar>& axes)
    {
        for (size_t d = axes.size(); d-- > 0;) {
            if (++index[d] < axes[d].extent)
                return true;
            index[d] = 0;
        }
        return false;
    }

    void evaluateOp(const Operation& op, const Node& body, Buffer& out)
    {
        const size_t nAxes = op.axes().size();
        std::vector<int64_t> env(nAxes + op.reduceAxes().size(), 0);
        int64_t linear = 0;
        do {
            double value;
            if (op.reducer() == Reducer::None) {
                value = evalFloat(body, env.data());
            } else {
                value = reducerIdentity(op.reducer());
                std::fill(env.begin() + static_cast<std::ptrdiff_t>(nAxes), env.end(), 0);
                do {
                    const double x = evalFloat(body, env.data());
                    value = op.reducer() == Reducer::Sum ? value + x
                        : op.reducer() == Reducer::Max   ? std::max(value, x)
                                                         : std::min(value, x);
                } while (advance(env.data() + nAxes, op.reduceAxes()));
            }
            out[linear++] = static_cast<float>(value);
        } while (advance(env.data(), op.axes()));
    }
} // namespace

Buffer::Buffer(std::vector<int64_t> shape, float fill)
    : m_shape(std::move(shape))
{
    int64_t n = 1;
    for (int64_t extent : m_shape)
        n *= extent;
    m_data.assign(static_cast<size_t>(n), fill);
}

int64_t Buffer::offsetOf(const std::vector<int64_t>& index) const
{
    TS_ASSERT(index.size() == m_shape.size()) << "index rank " << index.size() << " != " << m_shape.size();
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d) {
        TS_ASSERT(index[d] >= 0 && index[d] < m_shape[d]) << "index " << index[d] << " out of " << m_shape[d];
        offset = offset * m_shape[d] + index[d];
    }
    return offset;
}

float& Buffer::at(const std::vector<int64_t>& index) { return m_data[static_cast<size_t>(offsetOf(index))]; }
float Buffer::at(const std::vector<int64_t>& index) const { return m_data[static_cast<size_t>(offsetOf(index))]; }

std::vector<Buffer> randomInputs(const ComputeDAG& dag, uint64_t seed)
{
    std::vector<Buffer> inputs;
    Rng rng(seed);
    for (int i : dag.placeholders()) {
        Rng stream = rng.fork();
        Buffer buffer(dag.op(i).shape());
        for (int64_t k = 0; k < buffer.size(); ++k)
            buffer[k] = static_cast<float>(stream.uniform(-1.0, 1.0));
        inputs.push_back(std::move(buffer));
    }
    return inputs;
}

Expected<std::vector<Buffer>> evaluate(const ComputeDAG& dag, const std::vector<Buffer>& inputs)
{
    const std::vector<int> placeholders = dag.placeholders();
    if (inputs.size() != placeholders.size())
        return makeError(ErrorKind::InvalidArgument,
            "evaluate: " + std::to_string(inputs.size()) + " input buffers for " + std::to_string(placeholders.size())
                + " placeholders");
    std::vector<Buffer> buffers(static_cast<size_t>(dag.numOps()));
    for (size_t k = 0; k < placeholders.size(); ++k) {
        const Operation& op = dag.op(placeholders[k]);
        if (inputs[k].shape() != op.shape())
            return makeError(ErrorKind::InvalidArgument,
                "evaluate: input " + op.name() + " has shape [" + join(inputs[k].shape(), ", ") + "], expected ["
                    + join(op.shape(), ", ") + "]");
        buffers[static_cast<size_t>(placeholders[k])] = inputs[k];
    }
    try {
        for (int i = 0; i < dag.numOps(); ++i) {
            const Operation& op = dag.op(i);
            if (op.isPlaceholder())
                continue;
            if (op.dtype() != DType::Float32)
                return makeError(ErrorKind::Unsupported,
                    "evaluate: op " + op.name() + " has dtype " + std::string(toString(op.dtype())));
            std::unordered_map<const ExprNode*, int> slots;
            int slot = 0;
            for (const IterVar& axis : op.axes())
                slots[axis.var.get()] = slot++;
            for (const IterVar& axis : op.reduceAxes())
                slots[axis.var.get()] = slot++;
            const Node body = compileExpr(op.body(), slots, buffers, dag);
            Buffer out(op.shape());
            evaluateOp(op, body, out);
            buffers[static_cast<size_t>(i)] = std::move(out);
        }
    } catch (const EvalFailure& failure) {
        return failure.error;
    }
    return buffers;
}

double maxRelativeError(const Buffer& a, const Buffer& b, double rtol, double atol)
{
    TS_ASSERT(a.shape() == b.shape()) << "comparing buffers of different shapes";
    double worst = 0.0;
    for (int64_t i = 0; i < a.size(); ++i) {
        const double diff = std::fabs(static_cast<double>(a[i]) - b[i]);
        const double bound = atol + rtol * std::fabs(static_cast<double>(b[i]));
        if (std::isnan(a[i]) != std::isnan(b[i]))
            return INFINITY;
        worst = std::max(worst, diff / bound);
    }
    return worst;
}

} // namespace ts::ir
