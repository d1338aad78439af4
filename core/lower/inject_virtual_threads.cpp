// Pass (GPU targets): inject virtual threads, as TVM's InjectVirtualThread does. A vthread loop is a set
// of threads in lockstep that one hardware thread plays: what does not depend on the virtual thread is
// done once, what does is done once per virtual thread. The loop goes away, and its variable is pushed
// down through loops, sequences and guards that do not depend on it, to the statements that do, each of
// which becomes an unrolled loop over the virtual threads (kept tagged "vthread": the limits check and
// the code generators see it as before).
//
// A buffer allocated inside the loop and written with a value or index that depends on the virtual thread
// (a register tile, say) gets one copy per virtual thread: its allocation grows by the extent and its
// accesses move by v * elements. A buffer written the same way by every virtual thread (a shared copy,
// whose region spans the virtual threads) stays one buffer, fetched once: that is the point. Runs after
// flattenStorage (one index per access).
#include "core/lower/lower.h"
#include "core/lower/stmt_mutator.h"
#include "core/lower/stmt_visitor.h"

#include <map>
#include <set>

namespace ts::lower {

namespace {
    using BufferSet = std::set<const ir::BufferVar*>;

    // Whether e uses v or loads a buffer in `buffers`.
    bool touches(const ir::Expr& e, const ir::ExprNode* v, const BufferSet& buffers)
    {
        if (!e.defined())
            return false;
        bool found = false;
        ir::postOrderVisit(e, [&](const ir::ExprNode& n) {
            found = found || &n == v || (n.kind == ir::ExprKind::BufferLoad && buffers.count(n.buffer.get()));
        });
        return found;
    }

    // The buffers whose contents depend on the virtual thread: written with an index or value that uses v or
    // reads such a buffer, to a fixed point.
    BufferSet dependentBuffers(const Stmt& body, const ir::ExprNode* v)
    {
        class Writes : public StmtVisitor {
        public:
            Writes(const ir::ExprNode* var, BufferSet& out)
                : m_var(var)
                , m_out(out)
            {
            }
            bool grew = false;

        private:
            void visitStore(const StmtNode& s) override { record(s); }
            void visitAllReduce(const StmtNode& s) override { record(s); }
            void record(const StmtNode& s)
            {
                if (m_out.count(s.buffer.get()))
                    return;
                bool dependent = touches(s.value, m_var, m_out);
                for (const ir::Expr& index : s.indices)
                    dependent = dependent || touches(index, m_var, m_out);
                if (dependent) {
                    m_out.insert(s.buffer.get());
                    grew = true;
                }
            }
            const ir::ExprNode* m_var;
            BufferSet& m_out;
        };
        BufferSet out;
        for (bool grew = true; grew;) {
            Writes writes(v, out);
            writes.visit(body);
            grew = writes.grew;
        }
        return out;
    }

    // Whether a statement depends on the virtual thread: an expression in it does, or it writes a dependent
    // buffer.
    bool dependsOn(const Stmt& s, const ir::ExprNode* v, const BufferSet& buffers)
    {
        class Scan : public StmtVisitor {
        public:
            Scan(const ir::ExprNode* var, const BufferSet& b)
                : m_var(var)
                , m_buffers(b)
            {
            }
            bool found = false;

        private:
            void visitStore(const StmtNode& s) override
            {
                found = found || m_buffers.count(s.buffer.get());
                StmtVisitor::visitStore(s);
            }
            void visitAllReduce(const StmtNode& s) override
            {
                found = found || m_buffers.count(s.buffer.get());
                StmtVisitor::visitAllReduce(s);
            }
            void visitExpr(const ir::Expr& e) override { found = found || touches(e, m_var, m_buffers); }
            const ir::ExprNode* m_var;
            const BufferSet& m_buffers;
        };
        Scan scan(v, buffers);
        scan.visit(s);
        return scan.found;
    }

    // One vthread loop's body with the loop pushed down to the statements that depend on it.
    class Injector {
    public:
        explicit Injector(const StmtNode& loop)
            : m_loop(loop)
            , m_dependent(dependentBuffers(loop.body, loop.var.get()))
        {
        }

        Stmt inject(const Stmt& s)
        {
            if (!s || !dependsOn(s, m_loop.var.get(), m_dependent))
                return s;
            switch (s->kind) {
            case StmtKind::Seq: {
                std::vector<Stmt> parts;
                for (const Stmt& c : s->seq)
                    parts.push_back(inject(c));
                return makeSeq(std::move(parts));
            }
            case StmtKind::Allocate: {
                if (!m_dependent.count(s->buffer.get()))
                    return makeAllocate(s->buffer, inject(s->body));
                auto copies = std::make_shared<ir::BufferVar>(*s->buffer);
                const int64_t elements = s->buffer->allocatedElements();
                copies->shape = { elements * m_loop.extent };
                copies->strides = { 1 };
                m_copies[s->buffer.get()] = { copies, elements };
                return makeAllocate(copies, inject(s->body));
            }
            case StmtKind::For:
                // A vectorized loop is one vector statement: it is repeated whole.
                if (s->forKind == ForKind::Vectorized)
                    return replicate(s);
                return makeFor(s->var, s->extent, s->forKind, inject(s->body), s->autoUnrollMaxStep, s->threadTag);
            case StmtKind::IfThenElse:
                if (touches(s->condition, m_loop.var.get(), m_dependent))
                    return replicate(s);
                return makeIf(s->condition, inject(s->body), inject(s->elseBody));
            case StmtKind::Store:
            case StmtKind::AllReduce:
            case StmtKind::Barrier:
                break;
            }
            return replicate(s);
        }

    private:
        struct Copies {
            ir::BufferRef buffer;
            int64_t elements = 0;
        };

        // s once per virtual thread, each on its own copy of the buffers that have copies.
        Stmt replicate(const Stmt& s)
        {
            class ToCopies : public StmtMutator {
            public:
                ToCopies(const std::map<const ir::BufferVar*, Copies>& copies, const ir::Expr& v)
                    : m_copies(copies)
                    , m_v(v)
                {
                }

            private:
                Stmt visitStore(const Stmt& s) override
                {
                    auto it = m_copies.find(s->buffer.get());
                    if (it == m_copies.end())
                        return StmtMutator::visitStore(s);
                    return makeStore(
                        it->second.buffer, { offset(it->second, mutateExpr(s->indices.at(0))) }, mutateExpr(s->value));
                }
                Stmt visitAllReduce(const Stmt& s) override
                {
                    auto it = m_copies.find(s->buffer.get());
                    if (it == m_copies.end())
                        return StmtMutator::visitAllReduce(s);
                    return makeAllReduce(s->reducer, it->second.buffer,
                        { offset(it->second, mutateExpr(s->indices.at(0))) }, mutateExpr(s->value), s->reduceThreads);
                }
                ir::Expr mutateExpr(const ir::Expr& e) override
                {
                    return ir::rewrite(e, [&](const ir::Expr& x) -> ir::Expr {
                        if (x->kind != ir::ExprKind::BufferLoad)
                            return ir::Expr();
                        auto it = m_copies.find(x->buffer.get());
                        if (it == m_copies.end())
                            return ir::Expr();
                        return ir::bufferLoad(it->second.buffer, { offset(it->second, mutateExpr(x->operands[0])) });
                    });
                }
                ir::Expr offset(const Copies& c, const ir::Expr& index) const
                {
                    return index + m_v * ir::intImm(c.elements);
                }
                const std::map<const ir::BufferVar*, Copies>& m_copies;
                const ir::Expr& m_v;
            };
            Stmt body = ToCopies(m_copies, m_loop.var).mutate(s);
            return makeFor(m_loop.var, m_loop.extent, ForKind::ThreadBinding, std::move(body), 0, "vthread");
        }

        const StmtNode& m_loop;
        const BufferSet m_dependent;
        std::map<const ir::BufferVar*, Copies> m_copies; // dependent buffers allocated on the way down
    };

    class InjectVirtualThreads : public StmtMutator {
    private:
        Stmt visitFor(const Stmt& s) override
        {
            const Stmt node = StmtMutator::visitFor(s); // inner virtual threads first
            if (!node || node->forKind != ForKind::ThreadBinding || node->threadTag != "vthread")
                return node;
            return Injector(*node).inject(node->body);
        }
    };
} // namespace

Stmt injectVirtualThreads(const Stmt& s) { return InjectVirtualThreads().mutate(s); }

} // namespace ts::lower
