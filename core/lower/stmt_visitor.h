// Read-only traversal of the loop IR (Halide's IRVisitor, for the one StmtNode struct): visit(s) dispatches
// on the kind tag to one virtual method per StmtKind; each default visits the node's expressions through
// visitExpr (indices, value, condition) and then its child statements, parents before children. A pass
// overrides the kinds it cares about and calls the base method where it wants the default recursion.
//
// How to add a statement kind: add it to StmtKind and TS_STMT_KINDS (stmt.h), which declares its visitX
// here and in StmtMutator (stmt_mutator.h) and dispatches to it; define both with the default recursion
// (stmt_visitor.cpp, stmt_mutator.cpp), and handle it in the printer (stmt.cpp) and the LLVM statement
// emitter; the compiler warns about each switch that misses it.
#pragma once

#include "core/lower/stmt.h"

namespace ts::lower {

class StmtVisitor {
public:
    virtual ~StmtVisitor() = default;

    // Null statements are skipped.
    void visit(const Stmt& s);

protected:
    // visitFor, visitStore, visitAllocate, visitIfThenElse, visitSeq, visitBarrier, visitAllReduce: one per StmtKind
    // (TS_STMT_KINDS).
#define TS_DECLARE_STMT_VISIT(Kind) virtual void visit##Kind(const StmtNode& s);
    TS_STMT_KINDS(TS_DECLARE_STMT_VISIT)
#undef TS_DECLARE_STMT_VISIT
    // Every expression a statement holds (not the loop variable of a For). Default: nothing.
    virtual void visitExpr(const ir::Expr& e);
};

} // namespace ts::lower
