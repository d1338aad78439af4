// Pass: unroll loops. Under a stage's auto_unroll_max_step N (the PR step), a serial loop with only unrolled
// (or vectorized) loops inside is marked unrolled when its extent times the statements of its body is at
// most N and at most kAutoMaxDepth unrolled loops nest inside it, as TVM's UnrollLoop does (its
// auto_max_depth, 8). Code generation then emits the body once per iteration.
#include "core/ir/node_pool.h"
#include "core/lower/lower.h"
#include "core/lower/stmt_mutator.h"

#include <algorithm>

namespace ts::lower {

namespace {
    constexpr int kAutoMaxDepth = 8;

    class UnrollLoops : public StmtMutator {
    private:
        // What the statement just mutated amounts to: statements run per execution of it, and whether a
        // loop that stays a loop is inside.
        struct Summary {
            int64_t steps = 0;
            bool normalLoopInside = false;
            int unrolledDepth = 0; // unrolled loops nested inside
        };

        Stmt visitStore(const Stmt& s) override
        {
            m_last = { 1, false };
            return s;
        }

        // Code with loops and barriers of its own: the loops around it stay loops.
        Stmt visitAllReduce(const Stmt& s) override
        {
            m_last = { 1, true };
            return s;
        }

        Stmt visitFor(const Stmt& s) override
        {
            const int outerMaxStep = m_maxStep;
            const int m = s->autoUnrollMaxStep > 0 ? s->autoUnrollMaxStep : m_maxStep;
            m_maxStep = m;
            m_last = {};
            Stmt body = mutate(s->body);
            m_maxStep = outerMaxStep;
            const Summary inner = m_last;
            ForKind kind = s->forKind;
            if (kind == ForKind::Vectorized) {
                m_last = inner;
            } else {
                m_last.steps = inner.steps * s->extent;
                if (kind == ForKind::Serial && !inner.normalLoopInside && m > 0 && m_last.steps <= m
                    && inner.unrolledDepth <= kAutoMaxDepth)
                    kind = ForKind::Unrolled;
                m_last.normalLoopInside = inner.normalLoopInside || kind != ForKind::Unrolled;
                m_last.unrolledDepth = inner.unrolledDepth + (kind == ForKind::Unrolled ? 1 : 0);
            }
            if (kind == s->forKind)
                return withBody(s, std::move(body));
            auto copy = ir::makePooled<StmtNode>(*s);
            copy->forKind = kind;
            copy->body = std::move(body);
            return copy;
        }

        Stmt visitIfThenElse(const Stmt& s) override
        {
            m_last = {};
            Stmt thenBody = mutate(s->body);
            const Summary a = m_last;
            m_last = {};
            Stmt elseBody = mutate(s->elseBody);
            const Summary b = m_last;
            m_last = { a.steps + b.steps, a.normalLoopInside || b.normalLoopInside,
                std::max(a.unrolledDepth, b.unrolledDepth) };
            if (thenBody == s->body && elseBody == s->elseBody)
                return s;
            return makeIf(s->condition, std::move(thenBody), std::move(elseBody));
        }

        Stmt visitSeq(const Stmt& s) override
        {
            Summary total;
            bool changed = false;
            std::vector<Stmt> stmts;
            for (const Stmt& c : s->seq) {
                m_last = {};
                stmts.push_back(mutate(c));
                changed |= stmts.back() != c;
                total.steps += m_last.steps;
                total.normalLoopInside = total.normalLoopInside || m_last.normalLoopInside;
                total.unrolledDepth = std::max(total.unrolledDepth, m_last.unrolledDepth);
            }
            m_last = total;
            return changed ? makeSeq(std::move(stmts)) : s;
        }

        // Allocate: the default recursion; the summary is its body's.

        int m_maxStep = 0;
        Summary m_last;
    };
} // namespace

Stmt unrollLoops(const Stmt& s) { return UnrollLoops().mutate(s); }

} // namespace ts::lower
