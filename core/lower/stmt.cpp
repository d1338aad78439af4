#include "core/lower/stmt.h"

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
    }
    return "?";
}

Stmt makeFor(ir::Expr var, int64_t extent, ForKind kind, Stmt body, int autoUnrollMaxStep)
{
    TS_ASSERT(var.defined() && var->kind == ir::ExprKind::Var) << "loop variable";
    TS_ASSERT(extent >= 1) << "loop " << var->name << " extent " << extent;
    auto node = std::make_shared<StmtNode>();
    node->kind = StmtKind::For;
    node->var = std::move(var);
    node->extent = extent;
    node->forKind = kind;
    node->autoUnrollMaxStep = autoUnrollMaxStep;
    node->body = std::move(body);
    return node;
}

Stmt makeStore(ir::BufferRef buffer, std::vector<ir::Expr> indices, ir::Expr value)
{
    auto node = std::make_shared<StmtNode>();
    node->kind = StmtKind::Store;
    node->buffer = std::move(buffer);
    node->indices = std::move(indices);
    node->value = std::move(value);
    return node;
}

Stmt makeAllocate(ir::BufferRef buffer, Stmt body)
{
    auto node = std::make_shared<StmtNode>();
    node->kind = StmtKind::Allocate;
    node->buffer = std::move(buffer);
    node->body = std::move(body);
    return node;
}

Stmt makeIf(ir::Expr condition, Stmt thenBody, Stmt elseBody)
{
    auto node = std::make_shared<StmtNode>();
    node->kind = StmtKind::IfThenElse;
    node->condition = std::move(condition);
    node->body = std::move(thenBody);
    node->elseBody = std::move(elseBody);
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
    auto node = std::make_shared<StmtNode>();
    node->kind = StmtKind::Seq;
    node->seq = std::move(flat);
    return node;
}

Stmt mutateStmt(const Stmt& s, const std::function<Stmt(const Stmt&)>& visit)
{
    if (!s)
        return s;
    auto copy = std::make_shared<StmtNode>(*s);
    bool changed = false;
    auto child = [&](Stmt& c) {
        if (!c)
            return;
        Stmt next = mutateStmt(c, visit);
        changed |= next != c;
        c = std::move(next);
    };
    child(copy->body);
    child(copy->elseBody);
    for (Stmt& c : copy->seq)
        child(c);
    Stmt self = changed ? Stmt(copy) : s;
    if (changed && self->kind == StmtKind::Seq)
        self = makeSeq(self->seq);
    return visit(self);
}

Stmt mutateExprs(const Stmt& s, const std::function<ir::Expr(const ir::Expr&)>& f)
{
    return mutateStmt(s, [&](const Stmt& node) {
        if (node->kind != StmtKind::Store && node->kind != StmtKind::IfThenElse)
            return node;
        auto copy = std::make_shared<StmtNode>(*node);
        for (ir::Expr& index : copy->indices)
            index = f(index);
        if (copy->value.defined())
            copy->value = f(copy->value);
        if (copy->condition.defined())
            copy->condition = f(copy->condition);
        return Stmt(copy);
    });
}

void visitStmts(const Stmt& s, const std::function<void(const StmtNode&)>& visit)
{
    if (!s)
        return;
    visit(*s);
    visitStmts(s->body, visit);
    visitStmts(s->elseBody, visit);
    for (const Stmt& c : s->seq)
        visitStmts(c, visit);
}

namespace {
    void print(std::ostringstream& os, const Stmt& s, int indent, int unroll = 0)
    {
        const std::string pad(static_cast<size_t>(indent) * 2, ' ');
        switch (s->kind) {
        case StmtKind::For:
            if (s->autoUnrollMaxStep > 0 && s->autoUnrollMaxStep != unroll)
                os << pad << "// auto_unroll_max_step = " << s->autoUnrollMaxStep << "\n";
            os << pad << toString(s->forKind) << " (" << s->var->name << ", 0, " << s->extent << ") {\n";
            print(os, s->body, indent + 1, s->autoUnrollMaxStep > 0 ? s->autoUnrollMaxStep : unroll);
            os << pad << "}\n";
            return;
        case StmtKind::Store:
            os << pad << s->buffer->name << "["
               << join(s->indices, ", ", [](const ir::Expr& e) { return ir::toString(e); })
               << "] = " << ir::toString(s->value) << ";\n";
            return;
        case StmtKind::Allocate:
            os << pad << ir::toString(s->buffer->dtype) << " " << s->buffer->name << "["
               << s->buffer->allocatedElements() << "]; // " << s->buffer->scope << ", shape ["
               << join(s->buffer->shape, ", ") << "]\n";
            print(os, s->body, indent, unroll);
            return;
        case StmtKind::IfThenElse:
            os << pad << "if (" << ir::toString(s->condition) << ") {\n";
            print(os, s->body, indent + 1, unroll);
            if (s->elseBody) {
                os << pad << "} else {\n";
                print(os, s->elseBody, indent + 1, unroll);
            }
            os << pad << "}\n";
            return;
        case StmtKind::Seq:
            for (const Stmt& c : s->seq)
                print(os, c, indent, unroll);
            return;
        }
    }
} // namespace

std::string toString(const Stmt& s, int indent)
{
    std::ostringstream os;
    if (s)
        print(os, s, indent);
    return os.str();
}

std::string toString(const LoweredFunc& f)
{
    std::ostringstream os;
    os << "void " << f.name << "(" << join(f.args, ", ", [](const ir::BufferRef& b) {
        return std::string(ir::toString(b->dtype)) + "* " + b->name;
    }) << ") {\n";
    os << toString(f.body, 1);
    os << "}\n";
    return os.str();
}

} // namespace ts::lower
