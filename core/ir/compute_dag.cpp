#include "core/ir/compute_dag.h"

#include "core/support/assert.h"
#include "core/support/strings.h"

#include <queue>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace ts::ir {

namespace {
    // TVM's TopoSortOps: a depth-first walk from the given tensors (last first) numbers ops by discovery
    // order; Kahn's algorithm then releases ready ops highest number first. Reproducing it keeps stage ids
    // identical to TVM's for the same tensor list.
    std::vector<Tensor> topoSort(const std::vector<Tensor>& tensors)
    {
        std::unordered_map<const Operation*, int> degree;
        std::unordered_map<const Operation*, std::vector<const Operation*>> edges;
        std::unordered_map<const Operation*, int> priority;
        std::unordered_map<const Operation*, Tensor> owner;

        std::vector<Tensor> stack(tensors.begin(), tensors.end());
        int counter = 0;
        while (!stack.empty()) {
            Tensor op = stack.back();
            stack.pop_back();
            if (priority.count(op.get()))
                continue;
            priority[op.get()] = counter++;
            owner[op.get()] = op;
            degree[op.get()] = static_cast<int>(op->inputs().size());
            for (const Tensor& input : op->inputs()) {
                edges[input.get()].push_back(op.get());
                stack.push_back(input);
            }
        }

        using Item = std::pair<int, const Operation*>; // (priority, op): max-heap on priority
        std::priority_queue<Item> ready;
        for (const auto& [op, d] : degree)
            if (d == 0)
                ready.push({ priority[op], op });
        std::vector<Tensor> order;
        while (!ready.empty()) {
            const Operation* op = ready.top().second;
            ready.pop();
            order.push_back(owner[op]);
            for (const Operation* consumer : edges[op])
                if (--degree[consumer] == 0)
                    ready.push({ priority[consumer], consumer });
        }
        return order;
    }

    double flops(const Expr& e, DType opType);

    double binaryFlops(const ExprNode& n, DType opType)
    {
        return (n.dtype == opType ? 1.0 : 0.0) + flops(n.operands[0], opType) + flops(n.operands[1], opType);
    }

    double flops(const Expr& e, DType opType)
    {
        const ExprNode& n = *e;
        switch (n.kind) {
        case ExprKind::IntImm:
        case ExprKind::FloatImm:
        case ExprKind::Var:
        case ExprKind::Load:
        case ExprKind::BufferLoad:
            return 0.0;
        case ExprKind::Cast:
            return flops(n.operands[0], opType);
        case ExprKind::Select:
            return flops(n.operands[0], opType) + std::max(flops(n.operands[1], opType), flops(n.operands[2], opType));
        case ExprKind::Call: {
            double total = 0.0;
            for (const Expr& arg : n.operands)
                total += flops(arg, opType);
            return total;
        }
        case ExprKind::Not:
            return (n.dtype == opType ? 1.0 : 0.0) + flops(n.operands[0], opType);
        default:
            return binaryFlops(n, opType);
        }
    }

    // Canonical printing: vars and tensors by position, not by name.
    struct CanonicalPrinter {
        const ComputeDAG& dag;
        std::unordered_map<const ExprNode*, std::string> varNames;

        void print(const Expr& e, std::string& out)
        {
            const ExprNode& n = *e;
            switch (n.kind) {
            case ExprKind::IntImm:
                out += std::to_string(n.intValue);
                break;
            case ExprKind::FloatImm:
                out += formatFixed(n.floatValue, 9);
                break;
            case ExprKind::Var: {
                auto it = varNames.find(&n);
                out += it == varNames.end() ? "?" + n.name : it->second;
                break;
            }
            case ExprKind::Load:
                out += "T" + std::to_string(dag.indexOf(n.tensor.get()));
                break;
            case ExprKind::BufferLoad:
                out += "buffer:" + n.buffer->name;
                break;
            case ExprKind::Call:
                out += toString(n.callOp);
                break;
            case ExprKind::Cast:
                out += "cast:";
                out += toString(n.dtype);
                break;
            default:
                out += toString(n.kind);
            }
            if (!n.operands.empty()) {
                out += '(';
                for (size_t i = 0; i < n.operands.size(); ++i) {
                    if (i)
                        out += ',';
                    print(n.operands[i], out);
                }
                out += ')';
            }
        }
    };
} // namespace

double flopCount(const Operation& op)
{
    if (op.isPlaceholder())
        return 0.0;
    double perElement = flops(op.body(), op.dtype());
    if (op.reducer() != Reducer::None) {
        double trips = 1.0;
        for (const IterVar& axis : op.reduceAxes())
            trips *= static_cast<double>(axis.extent);
        perElement = trips * (perElement + 1.0); // the combiner (+, max or min) once per trip
    }
    return static_cast<double>(op.numElements()) * perElement;
}

double multiplyAccumulateCount(const Operation& op)
{
    if (op.reducer() != Reducer::Sum || op.body()->kind != ExprKind::Mul)
        return 0.0;
    double trips = 1.0;
    for (const IterVar& axis : op.reduceAxes())
        trips *= static_cast<double>(axis.extent);
    return static_cast<double>(op.numElements()) * trips;
}

double ComputeDAG::multiplyAccumulateCount() const
{
    double total = 0.0;
    for (const Tensor& op : m_ops)
        total += ir::multiplyAccumulateCount(*op);
    return total;
}

ComputeDAG ComputeDAG::create(const std::vector<Tensor>& tensors)
{
    TS_ASSERT(!tensors.empty()) << "a ComputeDAG needs at least one tensor";
    ComputeDAG dag;
    dag.m_tensors = tensors;
    dag.m_ops = topoSort(tensors);
    const size_t n = dag.m_ops.size();
    dag.m_consumers.assign(n, {});
    dag.m_producers.assign(n, {});
    for (size_t i = 0; i < n; ++i)
        dag.m_stageOf[dag.m_ops[i].get()] = static_cast<int>(i);
    for (size_t i = 0; i < n; ++i) {
        for (const Tensor& input : dag.m_ops[i]->inputs()) {
            const int producer = dag.indexOf(input.get());
            dag.m_producers[i].push_back(producer);
            dag.m_consumers[static_cast<size_t>(producer)].push_back(static_cast<int>(i));
        }
        std::sort(dag.m_producers[i].begin(), dag.m_producers[i].end());
        dag.m_flops += ir::flopCount(*dag.m_ops[i]);
    }
    for (auto& list : dag.m_consumers)
        std::sort(list.begin(), list.end());
    dag.m_access = AccessAnalyzer(dag);
    dag.m_workloadKey = toHex(fnv1a64(dag.canonicalText()));
    return dag;
}

int ComputeDAG::indexOf(const Operation* op) const
{
    auto it = m_stageOf.find(op);
    return it == m_stageOf.end() ? -1 : it->second;
}

std::vector<int> ComputeDAG::outputs() const
{
    std::vector<int> result;
    for (int i = 0; i < numOps(); ++i)
        if (!m_ops[static_cast<size_t>(i)]->isPlaceholder() && m_consumers[static_cast<size_t>(i)].empty())
            result.push_back(i);
    return result;
}

std::vector<int> ComputeDAG::placeholders() const
{
    std::vector<int> result;
    for (int i = 0; i < numOps(); ++i)
        if (m_ops[static_cast<size_t>(i)]->isPlaceholder())
            result.push_back(i);
    return result;
}

int64_t ComputeDAG::bytesRead() const
{
    int64_t total = 0;
    for (int i : placeholders())
        total += op(i).bytes();
    return total;
}

int64_t ComputeDAG::bytesWritten() const
{
    int64_t total = 0;
    for (int i : outputs())
        total += op(i).bytes();
    return total;
}

std::string ComputeDAG::canonicalText() const
{
    std::string out;
    CanonicalPrinter printer { *this, {} };
    for (int i = 0; i < numOps(); ++i) {
        const Operation& o = op(i);
        out += "T" + std::to_string(i) + ":" + std::string(ir::toString(o.dtype())) + "[" + join(o.shape(), ",") + "]";
        if (o.isPlaceholder()) {
            out += "=placeholder\n";
            continue;
        }
        printer.varNames.clear();
        for (size_t a = 0; a < o.axes().size(); ++a)
            printer.varNames[o.axes()[a].var.get()] = "i" + std::to_string(a);
        for (size_t a = 0; a < o.reduceAxes().size(); ++a)
            printer.varNames[o.reduceAxes()[a].var.get()]
                = "r" + std::to_string(a) + "<" + std::to_string(o.reduceAxes()[a].extent) + ">";
        out += "=" + std::string(ir::toString(o.reducer())) + ":";
        printer.print(o.body(), out);
        out += "\n";
    }
    return out;
}

std::string ComputeDAG::toString() const
{
    std::string out;
    for (const Tensor& o : m_ops)
        out += o->toString() + "\n";
    return out;
}

} // namespace ts::ir
