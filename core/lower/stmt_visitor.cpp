#include "core/lower/stmt_visitor.h"

namespace ts::lower {

void StmtVisitor::visit(const Stmt& s)
{
    if (!s)
        return;
    switch (s->kind) {
    case StmtKind::For:
        visitFor(*s);
        return;
    case StmtKind::Store:
        visitStore(*s);
        return;
    case StmtKind::Allocate:
        visitAllocate(*s);
        return;
    case StmtKind::IfThenElse:
        visitIfThenElse(*s);
        return;
    case StmtKind::Seq:
        visitSeq(*s);
        return;
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

void StmtVisitor::visitExpr(const ir::Expr&) { }

} // namespace ts::lower
