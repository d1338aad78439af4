// Pass: hoist guards. A guard (an if without else) that is the whole body of a loop moves out of the loop
// for the parts of its condition that do not depend on the loop variable, so a tail check is made once per
// tile instead of once per element (TVM reaches the same with loop partitioning).
#include "core/lower/lower.h"
#include "core/lower/stmt_mutator.h"

namespace ts::lower {

namespace {
    bool isGuard(const Stmt& s) { return s->kind == StmtKind::IfThenElse && !s->elseBody; }

    // Bottom-up: children first, then the node.
    class HoistGuards : public StmtMutator {
    private:
        // Neighbouring guards with the same condition (a reduction's init and update) become one.
        Stmt visitSeq(const Stmt& s) override
        {
            const Stmt node = StmtMutator::visitSeq(s);
            if (!node || node->kind != StmtKind::Seq)
                return node;
            std::vector<Stmt> merged;
            for (const Stmt& c : node->seq) {
                if (!merged.empty() && isGuard(c) && isGuard(merged.back())
                    && ir::structuralEqual(merged.back()->condition, c->condition))
                    merged.back() = makeIf(c->condition, makeSeq({ merged.back()->body, c->body }));
                else
                    merged.push_back(c);
            }
            return merged.size() == node->seq.size() ? node : makeSeq(std::move(merged));
        }

        Stmt visitFor(const Stmt& s) override
        {
            const Stmt node = StmtMutator::visitFor(s);
            // A guard stays inside a thread-binding loop: outside, it would leave the GPU kernel.
            if (!node || node->kind != StmtKind::For || node->forKind == ForKind::ThreadBinding || !isGuard(node->body))
                return node;
            // A vectorized loop keeps its guard inside: hoisting changes nothing there.
            const std::vector<ir::Expr> terms = ir::conjuncts(node->body->condition);
            std::vector<ir::Expr> outside, inside;
            for (const ir::Expr& t : terms)
                (ir::usesVar(t, node->var.get()) ? inside : outside).push_back(t);
            if (outside.empty())
                return node;
            Stmt body = inside.empty() ? node->body->body : makeIf(ir::conjunction(inside), node->body->body);
            return makeIf(ir::conjunction(outside), withBody(node, std::move(body)));
        }
    };
} // namespace

Stmt hoistGuards(const Stmt& s) { return HoistGuards().mutate(s); }

} // namespace ts::lower
