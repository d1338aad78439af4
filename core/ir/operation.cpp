#include "core/ir/operation.h"

#include "core/support/assert.h"
#include "core/support/strings.h"

#include <algorithm>
#include <limits>

namespace ts::ir {

namespace {
    thread_local std::vector<std::string> t_spatialNames;
    thread_local std::vector<std::string> t_reduceNames;

    std::string defaultSpatialName(size_t i)
    {
        static const char* const kNames[] = { "i", "j", "k", "l" };
        return i < 4 ? kNames[i] : "ax" + std::to_string(i);
    }

    std::vector<IterVar> makeAxes(
        const std::vector<int64_t>& extents, std::vector<std::string>& names, std::string (*fallback)(size_t))
    {
        std::vector<IterVar> axes;
        for (size_t i = 0; i < extents.size(); ++i) {
            TS_ASSERT(extents[i] >= 1) << "axis extent " << extents[i] << " must be >= 1";
            std::string name = i < names.size() ? names[i] : fallback(i);
            axes.push_back(IterVar { var(std::move(name)), extents[i] });
        }
        names.clear();
        return axes;
    }

    std::vector<Tensor> collectInputs(const Expr& body)
    {
        std::vector<Tensor> inputs;
        postOrderVisit(body, [&](const ExprNode& node) {
            if (node.kind != ExprKind::Load)
                return;
            if (std::none_of(inputs.begin(), inputs.end(), [&](const Tensor& t) { return t == node.tensor; }))
                inputs.push_back(node.tensor);
        });
        return inputs;
    }

    std::vector<Expr> varsOf(const std::vector<IterVar>& axes)
    {
        std::vector<Expr> vars;
        for (const IterVar& axis : axes)
            vars.push_back(axis.var);
        return vars;
    }
} // namespace

std::string_view toString(Reducer reducer)
{
    switch (reducer) {
    case Reducer::None:
        return "none";
    case Reducer::Sum:
        return "sum";
    case Reducer::Max:
        return "max";
    case Reducer::Min:
        return "min";
    }
    return "?";
}

Tensor computeFromParts(std::string name, std::string tag, std::vector<IterVar> axes, std::vector<IterVar> reduceAxes,
    Reducer reducer, Expr body)
{
    TS_ASSERT(body.defined()) << "compute " << name << " has no body";
    TS_ASSERT((reducer == Reducer::None) == reduceAxes.empty()) << "compute " << name << ": reducer and reduce axes";
    auto op = std::make_shared<Operation>();
    op->m_kind = OpKind::Compute;
    op->m_name = std::move(name);
    op->m_tag = std::move(tag);
    for (const IterVar& axis : axes)
        op->m_shape.push_back(axis.extent);
    op->m_axes = std::move(axes);
    op->m_reduceAxes = std::move(reduceAxes);
    op->m_reducer = reducer;
    op->m_body = std::move(body);
    op->m_dtype = op->m_body->dtype;
    op->m_inputs = collectInputs(op->m_body);
    return op;
}

Expr combine(Reducer reducer, Expr current, Expr value)
{
    switch (reducer) {
    case Reducer::Max:
        return max(std::move(current), std::move(value));
    case Reducer::Min:
        return min(std::move(current), std::move(value));
    case Reducer::Sum:
    case Reducer::None:
        break;
    }
    return std::move(current) + std::move(value);
}

double reducerIdentity(Reducer reducer)
{
    switch (reducer) {
    case Reducer::Sum:
    case Reducer::None:
        return 0.0;
    case Reducer::Max:
        return std::numeric_limits<float>::lowest();
    case Reducer::Min:
        return std::numeric_limits<float>::max();
    }
    return 0.0;
}

void setNextAxisNames(std::vector<std::string> spatial, std::vector<std::string> reduce)
{
    t_spatialNames = std::move(spatial);
    t_reduceNames = std::move(reduce);
}

int64_t Operation::numElements() const
{
    int64_t n = 1;
    for (int64_t extent : m_shape)
        n *= extent;
    return n;
}

std::string Operation::toString() const
{
    if (isPlaceholder())
        return m_name + " = placeholder[" + join(m_shape, ", ") + "]";
    std::string out = m_name + "[" + join(m_axes, ", ", [](const IterVar& a) { return a.var->name; }) + "]";
    switch (m_reducer) {
    case Reducer::None:
        out += " = ";
        break;
    case Reducer::Sum:
        out += " += ";
        break;
    case Reducer::Max:
        out += " max= ";
        break;
    case Reducer::Min:
        out += " min= ";
        break;
    }
    return out + ir::toString(m_body);
}

Tensor placeholder(std::string name, std::vector<int64_t> shape, DType dtype)
{
    for (int64_t extent : shape)
        TS_ASSERT(extent >= 1) << "placeholder " << name << " has extent " << extent;
    auto op = std::make_shared<Operation>();
    op->m_kind = OpKind::Placeholder;
    op->m_name = std::move(name);
    op->m_tag = "placeholder";
    op->m_dtype = dtype;
    op->m_shape = std::move(shape);
    return op;
}

Tensor compute(std::string name, std::vector<int64_t> shape, const std::function<Expr(const std::vector<Expr>&)>& body,
    std::string tag)
{
    auto op = std::make_shared<Operation>();
    op->m_kind = OpKind::Compute;
    op->m_name = std::move(name);
    op->m_tag = std::move(tag);
    op->m_axes = makeAxes(shape, t_spatialNames, defaultSpatialName);
    t_reduceNames.clear();
    op->m_shape = std::move(shape);
    op->m_body = body(varsOf(op->m_axes));
    TS_ASSERT(op->m_body.defined()) << "compute " << op->m_name << " has no body";
    op->m_dtype = op->m_body->dtype;
    op->m_inputs = collectInputs(op->m_body);
    return op;
}

Tensor computeReduce(std::string name, std::vector<int64_t> shape, std::vector<int64_t> reduceExtents, Reducer reducer,
    const std::function<Expr(const std::vector<Expr>&, const std::vector<Expr>&)>& body, std::string tag)
{
    TS_ASSERT(reducer != Reducer::None) << "computeReduce " << name << " without a reducer";
    TS_ASSERT(!reduceExtents.empty()) << "computeReduce " << name << " without reduce axes";
    auto op = std::make_shared<Operation>();
    op->m_kind = OpKind::Compute;
    op->m_name = std::move(name);
    op->m_tag = std::move(tag);
    op->m_axes = makeAxes(shape, t_spatialNames, defaultSpatialName);
    op->m_reduceAxes = makeAxes(reduceExtents, t_reduceNames, [](size_t i) { return "rv" + std::to_string(i); });
    op->m_shape = std::move(shape);
    op->m_reducer = reducer;
    op->m_body = body(varsOf(op->m_axes), varsOf(op->m_reduceAxes));
    TS_ASSERT(op->m_body.defined()) << "compute " << op->m_name << " has no body";
    TS_ASSERT(isFloat(op->m_body->dtype)) << "reductions are over float values";
    op->m_dtype = op->m_body->dtype;
    op->m_inputs = collectInputs(op->m_body);
    return op;
}

} // namespace ts::ir
