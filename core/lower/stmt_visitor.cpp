#include "core/lower/stmt_visitor.h"

namespace ts::lower {

void StmtVisitor::visit(const Stmt& s)
{
    if (!s)
        return;
    switch (s->kind) {
#define TS_DISPATCH_STMT_VISIT(Kind)                                                                                   \
    case StmtKind::Kind:                                                                                               \
        visit##Kind(*s);                                                                                               \
        return;
        TS_STMT_KINDS(TS_DISPATCH_STMT_VISIT)
#undef TS_DISPATCH_STMT_VISIT
    }
}

void StmtVisitor::visitFor(const StmtNode& s) { visit(s.body); }

void StmtVisitor::visitStore(const StmtNode& s)
{
    for (const ir::Expr& index : s.indices)
        visitExpr(index);
    visitExpr(s.value);
}

void StmtVisitor::visitAllocate(const StmtNode& s) { visit(s.body); }

void StmtVisitor::visitIfThenElse(const StmtNode& s)
{
    visitExpr(s.condition);
    visit(s.body);
    visit(s.elseBody);
}

void StmtVisitor::visitSeq(const StmtNode& s)
{
    for (const Stmt& c : s.seq)
        visit(c);
}

void StmtVisitor::visitBarrier(const StmtNode&) { }

void StmtVisitor::visitAllReduce(const StmtNode& s)
{
    for (const ir::Expr& index : s.indices)
        visitExpr(index);
    visitExpr(s.value);
}

void StmtVisitor::visitExpr(const ir::Expr&) { }

} // namespace ts::lower
