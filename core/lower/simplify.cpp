// Pass: simplify. Folds constants and simplifies indices with the ranges of the loops around them; drops
// loops of extent 1 (their variable becomes 0; thread bindings stay) and guards that always or never hold.
#include "core/ir/node_pool.h"
#include "core/lower/arith_analyzer.h"
#include "core/lower/lower.h"
#include "core/lower/stmt_mutator.h"

namespace ts::lower {

namespace {
    // The stage's auto_unroll_max_step moves to the outermost loops under a dropped loop that carried it.
    class SetUnrollOnLoops : public StmtMutator {
    public:
        explicit SetUnrollOnLoops(int maxStep)
            : m_maxStep(maxStep)
        {
        }

    private:
        Stmt visitFor(const Stmt& s) override
        {
            if (s->autoUnrollMaxStep != 0)
                return s;
            auto copy = ir::makePooled<StmtNode>(*s);
            copy->autoUnrollMaxStep = m_maxStep;
            return copy;
        }
        Stmt visitStore(const Stmt& s) override { return s; }

        int m_maxStep;
    };

    class Simplifier : public StmtMutator {
    private:
        Stmt visitFor(const Stmt& s) override
        {
            // A thread-binding loop stays, extent 1 or not: it says which GPU threads the kernel uses.
            if (s->extent == 1 && s->forKind != ForKind::ThreadBinding) {
                // The body with the variable replaced by 0, simplified: the analyzer substitutes as it simplifies
                // (one walk of the body, not one per dropped loop).
                m_analyzer.bindValue(s->var, ir::intImm(0));
                Stmt body = mutate(s->body);
                m_analyzer.unbind(s->var);
                return s->autoUnrollMaxStep == 0 ? body : SetUnrollOnLoops(s->autoUnrollMaxStep).mutate(body);
            }
            m_analyzer.bind(s->var, 0, s->extent - 1);
            Stmt out = StmtMutator::visitFor(s);
            m_analyzer.unbind(s->var);
            return out;
        }

        Stmt visitIfThenElse(const Stmt& s) override
        {
            const ir::Expr condition = m_analyzer.simplify(s->condition);
            int64_t value;
            if (ir::asConstInt(condition, &value))
                return mutate(value ? s->body : s->elseBody);
            return mutateIf(s, condition);
        }

        ir::Expr mutateExpr(const ir::Expr& e) override { return m_analyzer.simplify(e); }

        arith::Analyzer m_analyzer;
    };
} // namespace

Stmt simplify(const Stmt& s) { return Simplifier().mutate(s); }

} // namespace ts::lower
