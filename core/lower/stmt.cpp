#include "core/lower/stmt.h"

#include "core/ir/node_pool.h"
#include "core/lower/stmt_visitor.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <sstream>

namespace ts::lower {

const char* toString(ForKind kind)
{
    switch (kind) {
    case ForKind::Serial:
        return "for";
    case ForKind::Parallel:
        return "parallel for";
    case ForKind::Vectorized:
        return "vectorized for";
    case ForKind::Unrolled:
        return "unrolled for";
    case ForKind::ThreadBinding:
        return "thread binding for";
    }
    return "?";
}

namespace {
    // A node of `kind` with every other field at its default, for the make functions to fill in.
    std::shared_ptr<StmtNode> newNode(StmtKind kind)
    {
        auto node = ir::makePooled<StmtNode>();
        node->kind = kind;
        return node;
    }
} // namespace

Stmt makeFor(ir::Expr var, int64_t extent, ForKind kind, Stmt body, int autoUnrollMaxStep, std::string threadTag)
{
    TS_ASSERT(var.defined() && var->kind == ir::ExprKind::Var) << "loop variable";
    TS_ASSERT(extent >= 1) << "loop " << var->name << " extent " << extent;
    TS_ASSERT((kind == ForKind::ThreadBinding) == !threadTag.empty())
        << "loop " << var->name << ": a thread tag exactly on thread-binding loops";
    auto node = newNode(StmtKind::For);
    node->var = std::move(var);
    node->extent = extent;
    node->forKind = kind;
    node->autoUnrollMaxStep = autoUnrollMaxStep;
    node->threadTag = std::move(threadTag);
    node->body = std::move(body);
    return node;
}

Stmt makeStore(ir::BufferRef buffer, std::vector<ir::Expr> indices, ir::Expr value)
{
    auto node = newNode(StmtKind::Store);
    node->buffer = std::move(buffer);
    node->indices = std::move(indices);
    node->value = std::move(value);
    return node;
}

Stmt makeAllocate(ir::BufferRef buffer, Stmt body)
{
    auto node = newNode(StmtKind::Allocate);
    node->buffer = std::move(buffer);
    node->body = std::move(body);
    return node;
}

Stmt makeIf(ir::Expr condition, Stmt thenBody, Stmt elseBody)
{
    auto node = newNode(StmtKind::IfThenElse);
    node->condition = std::move(condition);
    node->body = std::move(thenBody);
    node->elseBody = std::move(elseBody);
    return node;
}

Stmt makeBarrier() { return newNode(StmtKind::Barrier); }

Stmt makeAllReduce(ir::Reducer reducer, ir::BufferRef buffer, std::vector<ir::Expr> indices, ir::Expr value,
    std::vector<ir::Expr> reduceThreads)
{
    TS_ASSERT(reducer != ir::Reducer::None && !reduceThreads.empty()) << "an all-reduce needs a reducer and threads";
    auto node = newNode(StmtKind::AllReduce);
    node->reducer = reducer;
    node->buffer = std::move(buffer);
    node->indices = std::move(indices);
    node->value = std::move(value);
    node->reduceThreads = std::move(reduceThreads);
    return node;
}

Stmt makeSeq(std::vector<Stmt> stmts)
{
    std::vector<Stmt> flat;
    for (Stmt& s : stmts) {
        if (!s)
            continue;
        if (s->kind == StmtKind::Seq)
            flat.insert(flat.end(), s->seq.begin(), s->seq.end());
        else
            flat.push_back(std::move(s));
    }
    if (flat.size() == 1)
        return flat.front();
    auto node = newNode(StmtKind::Seq);
    node->seq = std::move(flat);
    return node;
}

namespace {
    class Printer : public StmtVisitor {
    public:
        explicit Printer(int indent)
            : m_indent(indent)
        {
        }
        std::string text() const { return m_os.str(); }

    private:
        std::string pad() const { return std::string(static_cast<size_t>(m_indent) * 2, ' '); }

        void visitFor(const StmtNode& s) override
        {
            if (s.autoUnrollMaxStep > 0 && s.autoUnrollMaxStep != m_unroll)
                m_os << pad() << "// auto_unroll_max_step = " << s.autoUnrollMaxStep << "\n";
            if (s.forKind == ForKind::ThreadBinding)
                m_os << pad() << "for (" << s.var->name << ", 0, " << s.extent << ") { // " << s.threadTag << "\n";
            else
                m_os << pad() << toString(s.forKind) << " (" << s.var->name << ", 0, " << s.extent << ") {\n";
            const int outerUnroll = m_unroll;
            if (s.autoUnrollMaxStep > 0)
                m_unroll = s.autoUnrollMaxStep;
            ++m_indent;
            visit(s.body);
            --m_indent;
            m_unroll = outerUnroll;
            m_os << pad() << "}\n";
        }

        void visitStore(const StmtNode& s) override
        {
            m_os << pad() << s.buffer->name << "["
                 << join(s.indices, ", ", [](const ir::Expr& e) { return ir::toString(e); })
                 << "] = " << ir::toString(s.value) << ";\n";
        }

        void visitAllocate(const StmtNode& s) override
        {
            m_os << pad() << ir::toString(s.buffer->dtype) << " " << s.buffer->name << "["
                 << s.buffer->allocatedElements() << "]; // " << s.buffer->scope << ", shape ["
                 << join(s.buffer->shape, ", ") << "]\n";
            visit(s.body);
        }

        void visitBarrier(const StmtNode&) override { m_os << pad() << "sync_threads();\n"; }

        // out[0] = all_reduce_sum(value) over threads (k.1);
        void visitAllReduce(const StmtNode& s) override
        {
            m_os << pad() << s.buffer->name << "["
                 << join(s.indices, ", ", [](const ir::Expr& e) { return ir::toString(e); }) << "] = all_reduce_"
                 << ir::toString(s.reducer) << "(" << ir::toString(s.value) << ") over threads ("
                 << join(s.reduceThreads, ", ", [](const ir::Expr& e) { return e->name; }) << ");\n";
        }

        void visitIfThenElse(const StmtNode& s) override
        {
            m_os << pad() << "if (" << ir::toString(s.condition) << ") {\n";
            ++m_indent;
            visit(s.body);
            --m_indent;
            if (s.elseBody) {
                m_os << pad() << "} else {\n";
                ++m_indent;
                visit(s.elseBody);
                --m_indent;
            }
            m_os << pad() << "}\n";
        }

        std::ostringstream m_os;
        int m_indent;
        int m_unroll = 0; // the auto_unroll_max_step in force, printed where it changes
    };
} // namespace

std::string toString(const Stmt& s, int indent)
{
    Printer printer(indent);
    printer.visit(s);
    return printer.text();
}

std::string toString(const LoweredFunc& f)
{
    std::ostringstream os;
    const std::string args = join(
        f.args, ", ", [](const ir::BufferRef& b) { return std::string(ir::toString(b->dtype)) + "* " + b->name; });
    if (f.setup) // run once, before the timed runs of the function
        os << "void " << f.name << "_setup(" << args << ") {\n" << toString(f.setup, 1) << "}\n\n";
    os << "void " << f.name << "(" << args << ") {\n";
    os << toString(f.body, 1);
    os << "}\n";
    return os.str();
}

} // namespace ts::lower
