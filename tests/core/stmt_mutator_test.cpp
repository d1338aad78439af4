// The loop IR's visitor and mutator base classes: default recursion, nodes rebuilt only where something
// changed, null as "no statement".
#include "core/lower/stmt_mutator.h"
#include "core/lower/stmt_visitor.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::lower;

namespace {
struct Tree {
    ir::BufferRef a, b;
    ir::Expr i, j;
    Stmt storeA, storeB, loopJ, guard, seq, loopI, root;
};

// allocate b { for i { for j { a[i, j] = 1 }; if (i < 3) { b[i] = a[i, 0] } } }
Tree makeTree()
{
    Tree t;
    auto a = std::make_shared<ir::BufferVar>();
    a->name = "a";
    a->shape = { 4, 8 };
    auto b = std::make_shared<ir::BufferVar>();
    b->name = "b";
    b->shape = { 4 };
    t.a = a;
    t.b = b;
    t.i = ir::var("i");
    t.j = ir::var("j");
    t.storeA = makeStore(t.a, { t.i, t.j }, ir::floatImm(1.0));
    t.storeB = makeStore(t.b, { t.i }, ir::bufferLoad(t.a, { t.i, ir::intImm(0) }));
    t.loopJ = makeFor(t.j, 8, ForKind::Vectorized, t.storeA);
    t.guard = makeIf(t.i < ir::intImm(3), t.storeB);
    t.seq = makeSeq({ t.loopJ, t.guard });
    t.loopI = makeFor(t.i, 4, ForKind::Parallel, t.seq, 16);
    t.root = makeAllocate(t.b, t.loopI);
    return t;
}

class Nothing : public StmtMutator { };

// Replaces the value stored to `target` by 2.
class StoreTwo : public StmtMutator {
public:
    explicit StoreTwo(const ir::BufferVar* target)
        : m_target(target)
    {
    }

private:
    Stmt visitStore(const Stmt& s) override
    {
        return s->buffer.get() == m_target ? makeStore(s->buffer, s->indices, ir::floatImm(2.0)) : s;
    }
    const ir::BufferVar* m_target;
};

class DropStoresTo : public StmtMutator {
public:
    explicit DropStoresTo(const ir::BufferVar* target)
        : m_target(target)
    {
    }

private:
    Stmt visitStore(const Stmt& s) override { return s->buffer.get() == m_target ? nullptr : s; }
    const ir::BufferVar* m_target;
};

// Every expression of every statement offset by one (indices and values alike).
class AddOneToIndices : public StmtMutator {
private:
    ir::Expr mutateExpr(const ir::Expr& e) override { return ir::isInt(e->dtype) ? e + ir::intImm(1) : e; }
};

class Recorder : public StmtVisitor {
public:
    std::vector<std::string> events;

private:
    void visitFor(const StmtNode& s) override
    {
        events.push_back("for " + s.var->name);
        StmtVisitor::visitFor(s);
    }
    void visitStore(const StmtNode& s) override
    {
        events.push_back("store " + s.buffer->name);
        StmtVisitor::visitStore(s);
    }
    void visitIfThenElse(const StmtNode& s) override
    {
        events.push_back("if");
        StmtVisitor::visitIfThenElse(s);
    }
    void visitExpr(const ir::Expr& e) override { events.push_back("expr " + ir::toString(e)); }
};
} // namespace

TEST(StmtMutator, ChangingNothingReturnsTheSameNodes)
{
    const Tree t = makeTree();
    Nothing nothing;
    EXPECT_EQ(nothing.mutate(t.root), t.root);
    EXPECT_EQ(nothing.mutate(t.guard), t.guard);
    EXPECT_EQ(nothing.mutate(nullptr), nullptr);
}

TEST(StmtMutator, ChangingALeafRebuildsOnlyItsAncestors)
{
    const Tree t = makeTree();
    const Stmt out = StoreTwo(t.b.get()).mutate(t.root);
    // root -> loopI -> seq -> guard -> storeB are new; loopJ (the untouched sibling) is shared.
    ASSERT_NE(out, t.root);
    EXPECT_EQ(out->kind, StmtKind::Allocate);
    EXPECT_EQ(out->buffer, t.b);
    const Stmt loopI = out->body;
    ASSERT_NE(loopI, t.loopI);
    EXPECT_EQ(loopI->forKind, ForKind::Parallel);
    EXPECT_EQ(loopI->autoUnrollMaxStep, 16);
    EXPECT_TRUE(loopI->var.sameAs(t.i));
    const Stmt seq = loopI->body;
    ASSERT_NE(seq, t.seq);
    ASSERT_EQ(seq->seq.size(), 2u);
    EXPECT_EQ(seq->seq[0], t.loopJ);
    ASSERT_NE(seq->seq[1], t.guard);
    EXPECT_TRUE(seq->seq[1]->condition.sameAs(t.guard->condition));
    EXPECT_EQ(ir::toString(seq->seq[1]->body->value), "2f");
    // The input is untouched.
    EXPECT_EQ(ir::toString(t.storeB->value), "a[i, 0]");
}

TEST(StmtMutator, ExpressionsAreMutatedInEveryStatement)
{
    const Tree t = makeTree();
    const Stmt out = AddOneToIndices().mutate(t.loopI);
    EXPECT_EQ(toString(out), R"(// auto_unroll_max_step = 16
parallel for (i, 0, 4) {
  vectorized for (j, 0, 8) {
    a[i + 1, j + 1] = 1f;
  }
  if (i < 3) {
    b[i + 1] = a[i, 0];
  }
}
)");
}

TEST(StmtMutator, NullRemovesTheStatementAndEmptyParents)
{
    const Tree t = makeTree();
    // The stores to a go: loop j is left empty and disappears, the sequence keeps the guard alone.
    const Stmt out = DropStoresTo(t.a.get()).mutate(t.loopI);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->body, t.guard);
    // Dropping both stores leaves nothing at all.
    EXPECT_EQ(DropStoresTo(t.b.get()).mutate(DropStoresTo(t.a.get()).mutate(t.root)), nullptr);
    // An if whose then-branch disappears keeps its else-branch under the negated condition.
    const Stmt ifElse = makeIf(t.i < ir::intImm(3), t.storeA, t.storeB);
    const Stmt flipped = DropStoresTo(t.a.get()).mutate(ifElse);
    ASSERT_NE(flipped, nullptr);
    EXPECT_EQ(ir::toString(flipped->condition), "!(i < 3)");
    EXPECT_EQ(flipped->body, t.storeB);
    EXPECT_EQ(flipped->elseBody, nullptr);
}

TEST(StmtVisitor, VisitsParentsBeforeChildrenAndEveryExpression)
{
    const Tree t = makeTree();
    Recorder recorder;
    recorder.visit(t.root);
    EXPECT_EQ(recorder.events,
        (std::vector<std::string> { "for i", "for j", "store a", "expr i", "expr j", "expr 1f", "if", "expr i < 3",
            "store b", "expr i", "expr a[i, 0]" }));
}
