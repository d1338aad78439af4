// Pass: simplify. Folds constants and simplifies indices with the ranges of the loops around them; drops
// loops of extent 1 (their variable becomes 0) and guards that always or never hold.
#include "core/lower/analyzer.h"
#include "core/lower/lower.h"

namespace ts::lower {

namespace {
    Stmt setUnrollOnLoops(const Stmt& s, int maxStep)
    {
        if (!s || maxStep == 0)
            return s;
        if (s->kind == StmtKind::For) {
            if (s->autoUnrollMaxStep != 0)
                return s;
            auto copy = std::make_shared<StmtNode>(*s);
            copy->autoUnrollMaxStep = maxStep;
            return copy;
        }
        if (s->kind == StmtKind::Store)
            return s;
        auto copy = std::make_shared<StmtNode>(*s);
        copy->body = setUnrollOnLoops(s->body, maxStep);
        copy->elseBody = setUnrollOnLoops(s->elseBody, maxStep);
        for (Stmt& c : copy->seq)
            c = setUnrollOnLoops(c, maxStep);
        return copy;
    }

    Stmt run(const Stmt& s, Analyzer& analyzer)
    {
        if (!s)
            return s;
        switch (s->kind) {
        case StmtKind::For: {
            if (s->extent == 1) {
                const ir::Expr zero = ir::intImm(0);
                Stmt body = mutateExprs(s->body, [&](const ir::Expr& e) {
                    return ir::substitute(e, { { s->var, zero } });
                });
                return setUnrollOnLoops(run(body, analyzer), s->autoUnrollMaxStep);
            }
            analyzer.bind(s->var, 0, s->extent - 1);
            Stmt body = run(s->body, analyzer);
            analyzer.unbind(s->var);
            if (!body)
                return nullptr;
            return makeFor(s->var, s->extent, s->forKind, body, s->autoUnrollMaxStep);
        }
        case StmtKind::Store: {
            std::vector<ir::Expr> indices;
            for (const ir::Expr& index : s->indices)
                indices.push_back(analyzer.simplify(index));
            return makeStore(s->buffer, std::move(indices), analyzer.simplify(s->value));
        }
        case StmtKind::Allocate: {
            Stmt body = run(s->body, analyzer);
            return body ? makeAllocate(s->buffer, body) : nullptr;
        }
        case StmtKind::IfThenElse: {
            const ir::Expr condition = analyzer.simplify(s->condition);
            int64_t value;
            if (ir::asConstInt(condition, &value))
                return run(value ? s->body : s->elseBody, analyzer);
            Stmt thenBody = run(s->body, analyzer);
            Stmt elseBody = run(s->elseBody, analyzer);
            if (!thenBody && !elseBody)
                return nullptr;
            if (!thenBody)
                return makeIf(ir::notExpr(condition), elseBody);
            return makeIf(condition, thenBody, elseBody);
        }
        case StmtKind::Seq: {
            std::vector<Stmt> out;
            for (const Stmt& c : s->seq)
                if (Stmt r = run(c, analyzer))
                    out.push_back(r);
            return out.empty() ? nullptr : makeSeq(std::move(out));
        }
        }
        return s;
    }
} // namespace

Stmt simplify(const Stmt& s)
{
    Analyzer analyzer;
    return run(s, analyzer);
}

} // namespace ts::lower
