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

    struct LazyStage;

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
        LazyStage* lazy = nullptr; // evaluateAt: the producer is computed element by element on demand
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
        if (e->kind == ExprKind::BufferLoad)
            throw EvalFailure { makeError(ErrorKind::InvalidArgument,
                "buffer load " + e->buffer->name + " is loop IR, not a tensor expression") };
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

    double lazyElement(LazyStage& stage, int64_t offset);

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
        if (n.lazy)
            return lazyElement(*n.lazy, offset);
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

    double evaluateElement(const Operation& op, const Node& body, int64_t* env)
    {
        if (op.reducer() == Reducer::None)
            return evalFloat(body, env);
        const size_t nAxes = op.axes().size();
        double value = reducerIdentity(op.reducer());
        std::fill(env + nAxes, env + nAxes + op.reduceAxes().size(), 0);
        do {
            const double x = evalFloat(body, env);
            value = op.reducer() == Reducer::Sum ? value + x
                : op.reducer() == Reducer::Max   ? std::max(value, x)
                                                 : std::min(value, x);
        } while (advance(env + nAxes, op.reduceAxes()));
        return value;
    }

    struct LazyStage {
        const Operation* op = nullptr;
        Node body;
        std::vector<float> values;
        std::vector<bool> done;
    };

    double lazyElement(LazyStage& stage, int64_t offset)
    {
        const auto k = static_cast<size_t>(offset);
        if (!stage.done[k]) {
            const Operation& op = *stage.op;
            std::vector<int64_t> env(op.axes().size() + op.reduceAxes().size(), 0);
            int64_t rest = offset;
            for (size_t d = op.axes().size(); d-- > 0;) {
                env[d] = rest % op.axes()[d].extent;
                rest /= op.axes()[d].extent;
            }
            stage.values[k] = static_cast<float>(evaluateElement(op, stage.body, env.data()));
            stage.done[k] = true;
        }
        return stage.values[k];
    }

    void attachLazy(Node& node, const ComputeDAG& dag, std::vector<LazyStage>& stages)
    {
        if (node.kind == ExprKind::Load && !node.tensor->isPlaceholder())
            node.lazy = &stages[static_cast<size_t>(dag.indexOf(node.tensor))];
        for (Node& child : node.children)
            attachLazy(child, dag, stages);
    }

    std::unordered_map<const ExprNode*, int> axisSlots(const Operation& op)
    {
        std::unordered_map<const ExprNode*, int> slots;
        int slot = 0;
        for (const IterVar& axis : op.axes())
            slots[axis.var.get()] = slot++;
        for (const IterVar& axis : op.reduceAxes())
            slots[axis.var.get()] = slot++;
        return slots;
    }

    Expected<std::vector<Buffer>> placeInputs(const ComputeDAG& dag, const std::vector<Buffer>& inputs)
    {
        const std::vector<int> placeholders = dag.placeholders();
        if (inputs.size() != placeholders.size())
            return makeError(ErrorKind::InvalidArgument,
                "evaluate: " + std::to_string(inputs.size()) + " input buffers for "
                    + std::to_string(placeholders.size()) + " placeholders");
        std::vector<Buffer> buffers(static_cast<size_t>(dag.numOps()));
        for (size_t k = 0; k < placeholders.size(); ++k) {
            const Operation& op = dag.op(placeholders[k]);
            if (inputs[k].shape() != op.shape())
                return makeError(ErrorKind::InvalidArgument,
                    "evaluate: input " + op.name() + " has shape [" + join(inputs[k].shape(), ", ") + "], expected ["
                        + join(op.shape(), ", ") + "]");
            buffers[static_cast<size_t>(placeholders[k])] = inputs[k];
        }
        for (int i = 0; i < dag.numOps(); ++i)
            if (!dag.op(i).isPlaceholder() && dag.op(i).dtype() != DType::Float32)
                return makeError(ErrorKind::Unsupported,
                    "evaluate: op " + dag.op(i).name() + " has dtype " + std::string(toString(dag.op(i).dtype())));
        return buffers;
    }

    void evaluateOp(const Operation& op, const Node& body, Buffer& out)
    {
        std::vector<int64_t> env(op.axes().size() + op.reduceAxes().size(), 0);
        int64_t linear = 0;
        do {
            out[linear++] = static_cast<float>(evaluateElement(op, body, env.data()));
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
    int ordinal = 0;
    for (int i : dag.placeholders()) {
        Buffer buffer(dag.op(i).shape());
        fillRandomInput(buffer.data(), buffer.size(), seed, ordinal++);
        inputs.push_back(std::move(buffer));
    }
    return inputs;
}

Expected<std::vector<Buffer>> evaluate(const ComputeDAG& dag, const std::vector<Buffer>& inputs)
{
    TS_TRY(std::vector<Buffer> buffers, placeInputs(dag, inputs));
    try {
        for (int i = 0; i < dag.numOps(); ++i) {
            const Operation& op = dag.op(i);
            if (op.isPlaceholder())
                continue;
            const Node body = compileExpr(op.body(), axisSlots(op), buffers, dag);
            Buffer out(op.shape());
            evaluateOp(op, body, out);
            buffers[static_cast<size_t>(i)] = std::move(out);
        }
    } catch (const EvalFailure& failure) {
        return failure.error;
    }
    return buffers;
}

Expected<std::vector<float>> evaluateAt(
    const ComputeDAG& dag, const std::vector<Buffer>& inputs, int stage, const std::vector<int64_t>& offsets)
{
    TS_TRY(std::vector<Buffer> buffers, placeInputs(dag, inputs));
    if (stage < 0 || stage >= dag.numOps() || dag.op(stage).isPlaceholder())
        return makeError(
            ErrorKind::InvalidArgument, "evaluateAt: stage " + std::to_string(stage) + " is not a compute op");
    std::vector<LazyStage> stages(static_cast<size_t>(dag.numOps()));
    std::vector<float> values;
    try {
        for (int i = 0; i < dag.numOps(); ++i) {
            const Operation& op = dag.op(i);
            if (op.isPlaceholder())
                continue;
            LazyStage& lazy = stages[static_cast<size_t>(i)];
            lazy.op = &op;
            lazy.body = compileExpr(op.body(), axisSlots(op), buffers, dag);
            attachLazy(lazy.body, dag, stages);
            lazy.values.assign(static_cast<size_t>(op.numElements()), 0.0f);
            lazy.done.assign(static_cast<size_t>(op.numElements()), false);
        }
        LazyStage& target = stages[static_cast<size_t>(stage)];
        for (int64_t offset : offsets) {
            if (offset < 0 || offset >= target.op->numElements())
                return makeError(ErrorKind::InvalidArgument,
                    "evaluateAt: offset " + std::to_string(offset) + " out of " + target.op->name() + "'s "
                        + std::to_string(target.op->numElements()) + " elements");
            values.push_back(static_cast<float>(lazyElement(target, offset)));
        }
    } catch (const EvalFailure& failure) {
        return failure.error;
    }
    return values;
}

void fillRandomInput(float* data, int64_t size, uint64_t seed, int ordinal)
{
    fillRandomInputValues(data, size, seed, ordinal);
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
