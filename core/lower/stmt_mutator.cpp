#include "core/lower/stmt_mutator.h"

#include "core/ir/node_pool.h"

namespace ts::lower {

Stmt StmtMutator::mutate(const Stmt& s)
{
    if (!s)
        return s;
    switch (s->kind) {
#define TS_DISPATCH_STMT_MUTATE(Kind)                                                                                  \
    case StmtKind::Kind:                                                                                               \
        return visit##Kind(s);
        TS_STMT_KINDS(TS_DISPATCH_STMT_MUTATE)
#undef TS_DISPATCH_STMT_MUTATE
    }
    return s;
}

Stmt StmtMutator::withBody(const Stmt& s, Stmt body)
{
    if (body == s->body)
        return s;
    auto copy = ir::makePooled<StmtNode>(*s);
    copy->body = std::move(body);
    return copy;
}

Stmt StmtMutator::visitFor(const Stmt& s)
{
    Stmt body = mutate(s->body);
    return body ? withBody(s, std::move(body)) : nullptr;
}

bool StmtMutator::mutateAccess(const Stmt& s, std::vector<ir::Expr>& indices, ir::Expr& value)
{
    bool changed = false;
    indices.reserve(s->indices.size());
    for (const ir::Expr& index : s->indices) {
        indices.push_back(mutateExpr(index));
        changed |= !indices.back().sameAs(index);
    }
    value = mutateExpr(s->value);
    return changed || !value.sameAs(s->value);
}

Stmt StmtMutator::visitStore(const Stmt& s)
{
    std::vector<ir::Expr> indices;
    ir::Expr value;
    return mutateAccess(s, indices, value) ? makeStore(s->buffer, std::move(indices), std::move(value)) : s;
}

Stmt StmtMutator::visitAllocate(const Stmt& s)
{
    Stmt body = mutate(s->body);
    return body ? withBody(s, std::move(body)) : nullptr;
}

Stmt StmtMutator::visitIfThenElse(const Stmt& s) { return mutateIf(s, mutateExpr(s->condition)); }

Stmt StmtMutator::mutateIf(const Stmt& s, ir::Expr condition)
{
    Stmt thenBody = mutate(s->body);
    Stmt elseBody = mutate(s->elseBody);
    if (!thenBody && !elseBody)
        return nullptr;
    if (!thenBody)
        return makeIf(ir::notExpr(condition), elseBody);
    if (condition.sameAs(s->condition) && thenBody == s->body && elseBody == s->elseBody)
        return s;
    return makeIf(std::move(condition), std::move(thenBody), std::move(elseBody));
}

Stmt StmtMutator::visitBarrier(const Stmt& s) { return s; }

Stmt StmtMutator::visitAllReduce(const Stmt& s)
{
    std::vector<ir::Expr> indices;
    ir::Expr value;
    if (!mutateAccess(s, indices, value))
        return s;
    return makeAllReduce(s->reducer, s->buffer, std::move(indices), std::move(value), s->reduceThreads);
}

Stmt StmtMutator::visitSeq(const Stmt& s)
{
    bool changed = false;
    std::vector<Stmt> stmts;
    stmts.reserve(s->seq.size());
    for (const Stmt& c : s->seq) {
        Stmt next = mutate(c);
        changed |= next != c;
        if (next)
            stmts.push_back(std::move(next));
    }
    if (!changed)
        return s;
    return stmts.empty() ? nullptr : makeSeq(std::move(stmts));
}

ir::Expr StmtMutator::mutateExpr(const ir::Expr& e) { return e; }

} // namespace ts::lower
