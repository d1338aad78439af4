// Vectorized loops: a loop whose body is only stores, each to an address that moves by one element per
// lane, becomes explicit vector instructions (contiguous loads and stores, broadcasts of values that do
// not depend on the loop, gathers, masked loads under a select). Anything else is emitted as a loop.
#include "core/codegen/llvm_emitter_private.h"
#include "core/support/assert.h"

#include <llvm/IR/Constants.h>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;

namespace {
    // The stores of a body made only of stores in sequence; `ok` false when it holds anything else.
    class StoreCollector : public lower::StmtVisitor {
    public:
        std::vector<const lower::StmtNode*> stores;
        bool ok = true;

    private:
        void visitStore(const lower::StmtNode& s) override { stores.push_back(&s); }
        void visitFor(const lower::StmtNode&) override { ok = false; }
        void visitAllocate(const lower::StmtNode&) override { ok = false; }
        void visitIfThenElse(const lower::StmtNode&) override { ok = false; }
    };
} // namespace

bool Emitter::emitVectorized(const lower::StmtNode& loop)
{
    if (m_vecVar || loop.extent < 2 || loop.extent > 64)
        return false;
    // Only stores (in sequence), each to an address that moves by one element per lane, and loads of a
    // stored buffer only at the very address stored (a lane-wise read-modify-write).
    StoreCollector collector;
    collector.visit(loop.body);
    const std::vector<const lower::StmtNode*>& stores = collector.stores;
    bool ok = collector.ok;
    if (!ok || stores.empty())
        return false;
    const ExprNode* v = loop.var.get();
    for (const lower::StmtNode* st : stores) {
        bool pure = false;
        if (st->indices.size() != 1 || m_scope->analyzer.linear(st->indices[0]).coefficientOf(v, &pure) != 1 || !pure)
            return false;
        for (const lower::StmtNode* other : stores)
            ir::postOrderVisit(other->value, [&](const ExprNode& n) {
                if (n.kind == ExprKind::BufferLoad && n.buffer == st->buffer
                    && !ir::structuralEqual(n.operands[0], st->indices[0]))
                    ok = false;
            });
    }
    if (!ok)
        return false;
    m_vecVar = v;
    m_lanes = static_cast<unsigned>(loop.extent);
    const Expr zero = ir::intImm(0);
    for (const lower::StmtNode* st : stores) {
        llvm::Value* value = widen(vec(st->value, nullptr));
        llvm::Value* base = index(ir::substitute(st->indices[0], { { loop.var, zero } }));
        m_b.CreateAlignedStore(value, elementPtr(st->buffer.get(), base), elementAlign(*st->buffer));
    }
    m_vecVar = nullptr;
    m_lanes = 0;
    return true;
}

llvm::Value* Emitter::widen(const Lanes& l) { return l.uniform ? m_b.CreateVectorSplat(m_lanes, l.value) : l.value; }

llvm::Value* Emitter::vecLoad(const ExprNode& n, llvm::Value* mask)
{
    auto* type = llvm::FixedVectorType::get(typeOf(n.buffer->dtype), m_lanes);
    const llvm::Align align = elementAlign(*n.buffer);
    const Expr& offset = n.operands[0];
    bool pure = false;
    const int64_t coef = m_scope->analyzer.linear(offset).coefficientOf(m_vecVar, &pure);
    if (pure && coef == 1) {
        llvm::Value* base
            = index(ir::rewrite(offset, [&](const Expr& x) { return x.get() == m_vecVar ? ir::intImm(0) : Expr(); }));
        llvm::Value* ptr = elementPtr(n.buffer.get(), base);
        if (!mask)
            return m_b.CreateAlignedLoad(type, ptr, align);
        return m_b.CreateMaskedLoad(type, ptr, align, mask, llvm::Constant::getNullValue(type));
    }
    llvm::Value* indices = widen(vec(offset, nullptr));
    auto it = m_scope->buffers.find(n.buffer.get());
    TS_ASSERT(it != m_scope->buffers.end()) << "buffer " << n.buffer->name;
    llvm::Value* ptrs = m_b.CreateInBoundsGEP(typeOf(n.buffer->dtype), it->second, indices);
    llvm::Value* allLanes
        = mask ? mask : llvm::ConstantInt::getTrue(llvm::FixedVectorType::get(llvm::Type::getInt1Ty(m_ctx), m_lanes));
    return m_b.CreateMaskedGather(type, ptrs, align, allLanes, llvm::Constant::getNullValue(type));
}

Lanes Emitter::vec(const Expr& e, llvm::Value* mask)
{
    const ExprNode& n = *e;
    if (!ir::usesVar(e, m_vecVar) && !(mask && containsLoad(e)))
        return { scalar(e), true };
    switch (n.kind) {
    case ExprKind::Var: { // the vector variable: lanes 0, 1, ..
        std::vector<llvm::Constant*> lanes;
        for (unsigned i = 0; i < m_lanes; ++i)
            lanes.push_back(llvm::ConstantInt::get(m_i64, i));
        return { llvm::ConstantVector::get(lanes), false };
    }
    case ExprKind::BufferLoad:
        return { vecLoad(n, mask), false };
    case ExprKind::Select: {
        llvm::Value* c = widen(vec(n.operands[0], mask));
        llvm::Value* notC = m_b.CreateNot(c);
        llvm::Value* thenMask = mask ? m_b.CreateAnd(mask, c) : c;
        llvm::Value* elseMask = mask ? m_b.CreateAnd(mask, notC) : notC;
        llvm::Value* a = widen(vec(n.operands[1], containsLoad(n.operands[1]) ? thenMask : nullptr));
        llvm::Value* b = widen(vec(n.operands[2], containsLoad(n.operands[2]) ? elseMask : nullptr));
        return { m_b.CreateSelect(c, a, b), false };
    }
    case ExprKind::Cast:
        return { castValue(widen(vec(n.operands[0], mask)), n.operands[0]->dtype, n.dtype), false };
    case ExprKind::Not:
        return { m_b.CreateNot(widen(vec(n.operands[0], mask))), false };
    case ExprKind::Call: {
        std::vector<llvm::Value*> args;
        for (const Expr& a : n.operands)
            args.push_back(widen(vec(a, mask)));
        return { mathCall(n.callOp, args, llvm::FixedVectorType::get(m_f32, m_lanes)), false };
    }
    default:
        break;
    }
    TS_ASSERT(n.operands.size() == 2) << "vectorize " << ir::toString(e);
    llvm::Value* x = widen(vec(n.operands[0], mask));
    llvm::Value* y = widen(vec(n.operands[1], mask));
    const ir::DType t = n.operands[0]->dtype;
    if (ir::isComparison(n.kind))
        return { compare(n.kind, ir::isFloat(t), x, y), false };
    if (ir::isFloat(t))
        return { floatBinary(n.kind, x, y), false };
    return { intBinary(n.kind, n.operands[0], n.operands[1], x, y), false };
}

} // namespace ts::codegen
