// Pass: unroll loops. Under a stage's auto_unroll_max_step N (the PR step), a serial loop with only unrolled
// (or vectorized) loops inside is marked unrolled when its extent times the statements of its body is at
// most N, as TVM's UnrollLoop does. Code generation then emits the body once per iteration.
#include "core/lower/lower.h"

namespace ts::lower {

namespace {
    struct Visit {
        Stmt stmt;
        int64_t steps = 0;
        bool normalLoopInside = false;
    };

    Visit run(const Stmt& s, int maxStep)
    {
        if (!s)
            return {};
        switch (s->kind) {
        case StmtKind::Store:
            return { s, 1, false };
        case StmtKind::For: {
            const int m = s->autoUnrollMaxStep > 0 ? s->autoUnrollMaxStep : maxStep;
            Visit body = run(s->body, m);
            ForKind kind = s->forKind;
            Visit out;
            if (kind == ForKind::Vectorized) {
                out.steps = body.steps;
                out.normalLoopInside = body.normalLoopInside;
            } else {
                out.steps = body.steps * s->extent;
                if (kind == ForKind::Serial && !body.normalLoopInside && m > 0 && out.steps <= m)
                    kind = ForKind::Unrolled;
                out.normalLoopInside = body.normalLoopInside || kind != ForKind::Unrolled;
            }
            const bool changed = kind != s->forKind || body.stmt != s->body;
            out.stmt = changed ? makeFor(s->var, s->extent, kind, body.stmt, s->autoUnrollMaxStep) : s;
            return out;
        }
        case StmtKind::Allocate: {
            Visit body = run(s->body, maxStep);
            return { body.stmt == s->body ? s : makeAllocate(s->buffer, body.stmt), body.steps, body.normalLoopInside };
        }
        case StmtKind::IfThenElse: {
            Visit a = run(s->body, maxStep);
            Visit b = run(s->elseBody, maxStep);
            const bool changed = a.stmt != s->body || b.stmt != s->elseBody;
            return { changed ? makeIf(s->condition, a.stmt, b.stmt) : s, a.steps + b.steps,
                a.normalLoopInside || b.normalLoopInside };
        }
        case StmtKind::Seq: {
            Visit out;
            std::vector<Stmt> stmts;
            for (const Stmt& c : s->seq) {
                Visit v = run(c, maxStep);
                stmts.push_back(v.stmt);
                out.steps += v.steps;
                out.normalLoopInside = out.normalLoopInside || v.normalLoopInside;
            }
            out.stmt = makeSeq(std::move(stmts));
            return out;
        }
        }
        return { s, 1, false };
    }
} // namespace

Stmt unrollLoops(const Stmt& s) { return run(s, 0).stmt; }

} // namespace ts::lower
