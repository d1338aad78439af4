#include "core/ir/access_analyzer.h"

#include "core/ir/compute_dag.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <unordered_set>

namespace ts::ir {

namespace {
    // index == var, var + c, var - c or c + var for an IntImm c.
    bool isConstShiftOf(const ExprNode* var, const Expr& index)
    {
        if (index.get() == var)
            return true;
        if (index->kind != ExprKind::Add && index->kind != ExprKind::Sub)
            return false;
        const Expr& a = index->operands[0];
        const Expr& b = index->operands[1];
        if (a.get() == var && b->kind == ExprKind::IntImm)
            return true;
        return index->kind == ExprKind::Add && b.get() == var && a->kind == ExprKind::IntImm;
    }

    struct AccessShape {
        bool simple = true;
        bool axisMissing = false;
        bool axisDuplicated = false;
        bool sameOrder = true;
    };

    AccessShape analyzeAccess(const Operation& op, const std::vector<Expr>& indices)
    {
        AccessShape shape;
        std::vector<int> varOfIndex;
        std::vector<int> count(op.axes().size(), 0);
        for (const Expr& index : indices) {
            if (index->kind == ExprKind::IntImm)
                continue;
            bool found = false;
            for (size_t i = 0; i < op.axes().size(); ++i) {
                if (isConstShiftOf(op.axes()[i].var.get(), index)) {
                    varOfIndex.push_back(static_cast<int>(i));
                    ++count[i];
                    found = true;
                    break;
                }
            }
            if (!found) {
                shape.simple = false;
                return shape;
            }
        }
        for (int c : count) {
            shape.axisMissing |= c == 0;
            shape.axisDuplicated |= c > 1;
        }
        shape.sameOrder = std::is_sorted(varOfIndex.begin(), varOfIndex.end());
        return shape;
    }

    // Every read of each producer, as index lists, grouped by producer stage id.
    std::vector<std::pair<int, std::vector<std::vector<Expr>>>> readsOf(const ComputeDAG& dag, const Operation& op)
    {
        std::vector<std::pair<int, std::vector<std::vector<Expr>>>> reads;
        postOrderVisit(op.body(), [&](const ExprNode& node) {
            if (node.kind != ExprKind::Load)
                return;
            int producer = dag.indexOf(node.tensor.get());
            auto it = std::find_if(reads.begin(), reads.end(), [&](const auto& r) { return r.first == producer; });
            if (it == reads.end()) {
                reads.push_back({ producer, {} });
                it = reads.end() - 1;
            }
            it->second.push_back(node.operands);
        });
        return reads;
    }
} // namespace

AccessAnalyzer::AccessAnalyzer(const ComputeDAG& dag)
{
    const size_t n = static_cast<size_t>(dag.numOps());
    m_isSimpleAccess.assign(n, true);
    m_isStrictInlinable.assign(n, false);
    m_needsMultiLevelTiling.assign(n, false);
    m_isOutput.assign(n, false);
    m_commonOuter.assign(n, std::vector<int>(n, -1));
    m_elementwiseRead.assign(n, std::vector<bool>(n, false));
    m_isCompute.assign(n, false);
    for (size_t i = 0; i < n; ++i) {
        m_consumers.push_back(dag.consumers(static_cast<int>(i)));
        m_shapes.push_back(dag.op(static_cast<int>(i)).shape());
    }

    for (size_t i = 0; i < n; ++i) {
        const Operation& op = dag.op(static_cast<int>(i));
        if (op.isPlaceholder())
            continue;
        m_isCompute[i] = true;
        auto reads = readsOf(dag, op);

        bool simple = true;
        bool strict = true;
        for (const auto& [producer, accesses] : reads) {
            bool elementwise = true;
            for (const auto& indices : accesses) {
                AccessShape shape = analyzeAccess(op, indices);
                if (!shape.simple) {
                    simple = strict = elementwise = false;
                    continue;
                }
                if (!shape.sameOrder || shape.axisDuplicated)
                    strict = false;
                if (shape.axisMissing || shape.axisDuplicated || !shape.sameOrder)
                    elementwise = false;
            }
            m_elementwiseRead[i][static_cast<size_t>(producer)] = elementwise;

            // Leading axes of equal extent that every read indexes by the same axis var (+- const).
            const Operation& prod = dag.op(producer);
            size_t common = 0;
            while (common < std::min(op.shape().size(), prod.shape().size())
                && op.shape()[common] == prod.shape()[common]) {
                const ExprNode* axisVar = op.axes()[common].var.get();
                bool injective = std::all_of(accesses.begin(), accesses.end(),
                    [&](const std::vector<Expr>& indices) { return isConstShiftOf(axisVar, indices[common]); });
                if (!injective)
                    break;
                ++common;
            }
            m_commonOuter[i][static_cast<size_t>(producer)] = static_cast<int>(common);
            m_commonOuter[static_cast<size_t>(producer)][i] = static_cast<int>(common);
        }

        bool expensiveOrBranch = false;
        postOrderVisit(op.body(), [&](const ExprNode& node) {
            expensiveOrBranch |= node.kind == ExprKind::Select;
            expensiveOrBranch |= node.kind == ExprKind::Call && node.callOp == CallOp::Exp;
        });
        m_isSimpleAccess[i] = simple;
        m_isStrictInlinable[i] = strict && !expensiveOrBranch;

        // An input that misses an output axis (of extent > 1) is reused along it: tile for locality.
        int missing = 0;
        for (const auto& [producer, accesses] : reads) {
            std::unordered_set<const ExprNode*> used;
            for (const auto& indices : accesses)
                for (const Expr& index : indices)
                    postOrderVisit(index, [&](const ExprNode& node) {
                        if (node.kind == ExprKind::Var)
                            used.insert(&node);
                    });
            for (const IterVar& axis : op.axes()) {
                if (axis.extent > 1 && !used.count(axis.var.get())) {
                    ++missing;
                    break;
                }
            }
            if (missing >= 2 || (missing >= 1 && !op.reduceAxes().empty())) {
                m_needsMultiLevelTiling[i] = true;
                break;
            }
        }
        m_isOutput[i] = dag.consumers(static_cast<int>(i)).empty();
    }
}

int AccessAnalyzer::numCommonOuterIterators(int op, int target) const
{
    int best = INT_MAX;
    bool reached = false;
    std::function<void(int, int)> walk = [&](int current, int common) {
        if (current == target) {
            best = std::min(best, common);
            reached = true;
            return;
        }
        for (int consumer : m_consumers[static_cast<size_t>(current)])
            walk(
                consumer, std::min(common, m_commonOuter[static_cast<size_t>(current)][static_cast<size_t>(consumer)]));
    };
    walk(op, static_cast<int>(m_shapes[static_cast<size_t>(op)].size()));
    return reached ? best : 0;
}

bool AccessAnalyzer::elementWiseMatch(int op, int target) const
{
    int current = op;
    while (current != target) {
        const auto& consumers = m_consumers[static_cast<size_t>(current)];
        if (consumers.size() != 1)
            return false;
        const int next = consumers.front();
        if (!m_isCompute[static_cast<size_t>(current)] || !m_isCompute[static_cast<size_t>(next)])
            return false;
        if (m_shapes[static_cast<size_t>(current)] != m_shapes[static_cast<size_t>(next)])
            return false;
        if (!m_elementwiseRead[static_cast<size_t>(next)][static_cast<size_t>(current)])
            return false;
        current = next;
    }
    return true;
}

int AccessAnalyzer::singleElementwiseMatchedConsumer(int op) const
{
    const auto& consumers = m_consumers[static_cast<size_t>(op)];
    if (consumers.size() != 1)
        return -1;
    return elementWiseMatch(op, consumers.front()) ? consumers.front() : -1;
}

} // namespace ts::ir
