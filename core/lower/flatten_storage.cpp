// Pass: flatten storage. Every buffer becomes one-dimensional: an access [i0, .., in] becomes
// i0 * stride0 + .. + in (strides row-major, padded where storage_align asked for it).
#include "core/lower/lower.h"
#include "core/lower/stmt_mutator.h"

#include <map>

namespace ts::lower {

namespace {
    class Flattener : public StmtMutator {
    public:
        ir::BufferRef flat(const ir::BufferRef& b)
        {
            auto it = m_map.find(b.get());
            if (it != m_map.end())
                return it->second;
            auto f = std::make_shared<ir::BufferVar>(*b);
            f->shape = { b->allocatedElements() };
            f->strides = { 1 };
            m_map[b.get()] = f;
            return f;
        }

        ir::Expr offset(const ir::BufferRef& b, const std::vector<ir::Expr>& indices)
        {
            std::vector<int64_t> strides = b->strides;
            if (strides.size() != indices.size()) { // row-major
                strides.assign(indices.size(), 1);
                for (size_t d = indices.size(); d-- > 1;)
                    strides[d - 1] = strides[d] * b->shape[d];
            }
            ir::Expr out;
            for (size_t d = 0; d < indices.size(); ++d) {
                ir::Expr term = strides[d] == 1 ? indices[d] : indices[d] * ir::intImm(strides[d]);
                out = out.defined() ? out + term : term;
            }
            return out.defined() ? out : ir::intImm(0);
        }

        ir::Expr expr(const ir::Expr& e)
        {
            return ir::rewrite(e, [&](const ir::Expr& x) -> ir::Expr {
                if (x->kind != ir::ExprKind::BufferLoad)
                    return ir::Expr();
                std::vector<ir::Expr> indices;
                for (const ir::Expr& i : x->operands)
                    indices.push_back(expr(i));
                return ir::bufferLoad(flat(x->buffer), { offset(x->buffer, indices) });
            });
        }

    private:
        Stmt visitStore(const Stmt& s) override
        {
            std::vector<ir::Expr> indices;
            for (const ir::Expr& i : s->indices)
                indices.push_back(expr(i));
            return makeStore(flat(s->buffer), { offset(s->buffer, indices) }, expr(s->value));
        }

        Stmt visitAllReduce(const Stmt& s) override
        {
            std::vector<ir::Expr> indices;
            for (const ir::Expr& i : s->indices)
                indices.push_back(expr(i));
            return makeAllReduce(
                s->reducer, flat(s->buffer), { offset(s->buffer, indices) }, expr(s->value), s->reduceThreads);
        }

        Stmt visitAllocate(const Stmt& s) override
        {
            Stmt body = mutate(s->body);
            return body ? makeAllocate(flat(s->buffer), std::move(body)) : nullptr;
        }

        ir::Expr mutateExpr(const ir::Expr& e) override { return expr(e); }

        std::map<const ir::BufferVar*, ir::BufferRef> m_map;
    };
} // namespace

LoweredFunc flattenStorage(const LoweredFunc& func)
{
    Flattener flattener;
    LoweredFunc out = func;
    for (ir::BufferRef& arg : out.args)
        arg = flattener.flat(arg);
    out.body = flattener.mutate(func.body);
    if (func.setup)
        out.setup = flattener.mutate(func.setup);
    return out;
}

} // namespace ts::lower
