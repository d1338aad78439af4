// Rewriting the loop IR (Halide's IRMutator, for the one StmtNode struct): mutate(s) dispatches on the kind
// tag to one virtual method per StmtKind; each default mutates the node's expressions through mutateExpr
// and its child statements, and rebuilds the node only when something changed, so a mutator that changes
// nothing returns the very node it was given and one that changes a leaf rebuilds only that leaf's
// ancestors. A pass overrides the kinds it cares about and calls the base method for the default
// recursion (before its own rewrite for a bottom-up pass, or not at all to stop descending).
//
// Null means "no statement": a loop, allocation or guard whose body mutates to null disappears, a sequence
// drops its null members, and an if whose then-branch disappears keeps its else-branch under !condition.
//
// How to add a statement kind: see stmt_visitor.h.
#pragma once

#include "core/lower/stmt.h"

namespace ts::lower {

class StmtMutator {
public:
    virtual ~StmtMutator() = default;

    // Null stays null.
    Stmt mutate(const Stmt& s);

protected:
    // visitFor, visitStore, visitAllocate, visitIfThenElse, visitSeq, visitBarrier, visitAllReduce: one per StmtKind
    // (TS_STMT_KINDS).
#define TS_DECLARE_STMT_MUTATE(Kind) virtual Stmt visit##Kind(const Stmt& s);
    TS_STMT_KINDS(TS_DECLARE_STMT_MUTATE)
#undef TS_DECLARE_STMT_MUTATE
    // Every expression a statement holds (indices, stored value, condition; not a For's variable). Default:
    // the expression itself.
    virtual ir::Expr mutateExpr(const ir::Expr& e);

    // s with another body (every other field kept); s itself when the body is the same.
    static Stmt withBody(const Stmt& s, Stmt body);
    // A store's or all-reduce's indices and value through mutateExpr; whether any changed.
    bool mutateAccess(const Stmt& s, std::vector<ir::Expr>& indices, ir::Expr& value);
    // The if s with `condition` and its branches mutated, by the null rules above; s itself when nothing
    // changed.
    Stmt mutateIf(const Stmt& s, ir::Expr condition);
};

} // namespace ts::lower
