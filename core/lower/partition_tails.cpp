// Pass: partition tails. A split that does not divide leaves guards such as `j.0*48 + j.1 < 1024` on every
// tile, although only the last tile can fail them; a vectorized loop under such a guard runs masked, and a
// register tile under it cannot stay in registers. For a loop x whose body holds a guard conjunct
// `a*x + (terms of loops inside x) + c < 0` with a > 0, every iteration below a threshold T passes it for
// all inner values. The loop's body becomes `if (x < T) {body without those conjuncts} else {body}`: the
// full tiles run unguarded, the tail keeps its guards (TVM's LoopPartition reaches the same by splitting
// the loop; an if in the body keeps a parallel loop one loop). Only for guards in vector code (see GuardScan).
#include "core/lower/arith_analyzer.h"
#include "core/lower/lower.h"
#include "core/lower/stmt_mutator.h"
#include "core/lower/stmt_visitor.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace ts::lower {

namespace {
    using InnerExtents = std::unordered_map<const ir::ExprNode*, int64_t>;

    int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

    // The exclusive threshold below which `condition` holds for every value of the inner loops, when it is a
    // comparison linear in x (positive coefficient) and in inner loop variables only.
    std::optional<int64_t> thresholdOf(const ir::Expr& condition, const ir::ExprNode* x, const InnerExtents& inner)
    {
        ir::Expr difference; // holds when difference < 0
        if (condition->kind == ir::ExprKind::LT)
            difference = condition->operands[0] - condition->operands[1];
        else if (condition->kind == ir::ExprKind::LE)
            difference = condition->operands[0] - condition->operands[1] - ir::intImm(1);
        else
            return std::nullopt;
        if (!ir::isInt(difference->dtype))
            return std::nullopt;
        const arith::Analyzer analyzer;
        const arith::Linear form = analyzer.linear(difference);
        int64_t a = 0;
        int64_t innerMax = 0;
        for (const arith::LinearTerm& t : form.terms) {
            if (t.atom->kind != ir::ExprKind::Var)
                return std::nullopt;
            if (t.atom.get() == x) {
                a = t.coef;
                continue;
            }
            auto it = inner.find(t.atom.get());
            if (it == inner.end())
                return std::nullopt; // an outer variable: the threshold would not be a constant
            innerMax += t.coef > 0 ? t.coef * (it->second - 1) : 0;
        }
        if (a <= 0)
            return std::nullopt;
        // a*x + innerMax + constant < 0  <=>  a*x < r  <=>  x < ceil(r / a)
        const int64_t r = -(innerMax + form.constant);
        return floorDiv(r - 1, a) + 1;
    }

    // Loop variables and extents of the loops inside a statement.
    class InnerLoops : public StmtVisitor {
    public:
        InnerExtents extents;

    private:
        void visitFor(const StmtNode& s) override
        {
            extents[s.var.get()] = s.extent;
            StmtVisitor::visitFor(s);
        }
    };

    class HasVectorLoop : public StmtVisitor {
    public:
        bool found = false;

    private:
        void visitFor(const StmtNode& s) override
        {
            found = found || s.forKind == ForKind::Vectorized;
            if (!found)
                StmtVisitor::visitFor(s);
        }
    };

    // The guards' conjuncts about x, and the smallest threshold among them. Only guards around or inside a
    // vectorized loop count: there a guard costs masks and registers; in scalar code it is one predictable
    // branch, and a second copy of the body would cost compile time for nothing.
    class GuardScan : public StmtVisitor {
    public:
        GuardScan(const ir::ExprNode* x, const InnerExtents& inner)
            : m_x(x)
            , m_inner(inner)
        {
        }
        std::optional<int64_t> threshold;

    private:
        void visitFor(const StmtNode& s) override
        {
            m_vectorDepth += s.forKind == ForKind::Vectorized ? 1 : 0;
            StmtVisitor::visitFor(s);
            m_vectorDepth -= s.forKind == ForKind::Vectorized ? 1 : 0;
        }

        void visitIfThenElse(const StmtNode& s) override
        {
            bool vectorCode = m_vectorDepth > 0;
            if (!vectorCode) {
                HasVectorLoop inside;
                inside.visit(s.body);
                vectorCode = inside.found;
            }
            if (!s.elseBody && vectorCode) {
                const std::vector<ir::Expr> terms = ir::conjuncts(s.condition);
                for (const ir::Expr& t : terms)
                    if (auto limit = thresholdOf(t, m_x, m_inner))
                        threshold = threshold ? std::min(*threshold, *limit) : *limit;
            }
            StmtVisitor::visitIfThenElse(s);
        }
        const ir::ExprNode* m_x;
        const InnerExtents& m_inner;
        int m_vectorDepth = 0;
    };

    // The body for x < threshold: conjuncts that hold there are dropped, a guard left with none is its body.
    class DropProven : public StmtMutator {
    public:
        DropProven(const ir::ExprNode* x, const InnerExtents& inner, int64_t threshold)
            : m_x(x)
            , m_inner(inner)
            , m_threshold(threshold)
        {
        }

    private:
        Stmt visitIfThenElse(const Stmt& s) override
        {
            const Stmt node = StmtMutator::visitIfThenElse(s);
            if (!node || node->kind != StmtKind::IfThenElse || node->elseBody)
                return node;
            const std::vector<ir::Expr> terms = ir::conjuncts(node->condition);
            std::vector<ir::Expr> kept;
            for (const ir::Expr& t : terms) {
                auto limit = thresholdOf(t, m_x, m_inner);
                if (!limit || *limit < m_threshold)
                    kept.push_back(t);
            }
            if (kept.size() == terms.size())
                return node;
            return kept.empty() ? node->body : makeIf(ir::conjunction(kept), node->body);
        }
        const ir::ExprNode* m_x;
        const InnerExtents& m_inner;
        int64_t m_threshold;
    };

    class PartitionTails : public StmtMutator {
    private:
        Stmt visitFor(const Stmt& s) override
        {
            const Stmt node = StmtMutator::visitFor(s); // inner loops first
            if (!node || node->kind != StmtKind::For || node->forKind == ForKind::ThreadBinding
                || node->forKind == ForKind::Vectorized || node->extent < 2)
                return node;
            InnerLoops inner;
            inner.visit(node->body);
            GuardScan scan(node->var.get(), inner.extents);
            scan.visit(node->body);
            if (!scan.threshold || *scan.threshold <= 0 || *scan.threshold >= node->extent)
                return node;
            const Stmt full = DropProven(node->var.get(), inner.extents, *scan.threshold).mutate(node->body);
            return withBody(node, makeIf(node->var < ir::intImm(*scan.threshold), full, node->body));
        }
    };
} // namespace

Stmt partitionTails(const Stmt& s) { return PartitionTails().mutate(s); }

} // namespace ts::lower
