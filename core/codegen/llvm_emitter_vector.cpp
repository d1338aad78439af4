// Vectorized loops: a loop whose body is only stores, each to an address that moves by one element per
// lane, becomes explicit vector instructions (contiguous loads and stores, broadcasts of values that do
// not depend on the loop, strided loads as a wide load and a permute, gathers, masked loads under a
// select). Anything else is emitted as a loop.
#include "core/codegen/llvm_emitter_private.h"
#include "core/support/assert.h"

#include <llvm/IR/Constants.h>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;

namespace {
    // The stores of a body made only of stores and guards (ifs without else) in sequence; `ok` false when
    // it holds anything else.
    class StoreCollector : public lower::StmtVisitor {
    public:
        std::vector<GuardedStore> stores;
        bool ok = true;

    private:
        void visitStore(const lower::StmtNode& s) override { stores.push_back({ &s, m_guards }); }
        void visitFor(const lower::StmtNode&) override { ok = false; }
        void visitAllocate(const lower::StmtNode&) override { ok = false; }
        void visitIfThenElse(const lower::StmtNode& s) override
        {
            if (s.elseBody || containsLoad(s.condition)) {
                ok = false;
                return;
            }
            m_guards.push_back(s.condition);
            visit(s.body);
            m_guards.pop_back();
        }
        std::vector<Expr> m_guards;
    };

    // Whether some lane of the loop may be off: a guard or a select's condition that depends on the loop.
    bool hasLaneMasks(const std::vector<GuardedStore>& stores, const ExprNode* v)
    {
        bool masked = false;
        for (const GuardedStore& gs : stores) {
            for (const Expr& g : gs.guards)
                masked = masked || ir::usesVar(g, v);
            ir::postOrderVisit(gs.store->value, [&](const ExprNode& n) {
                masked = masked || (n.kind == ExprKind::Select && ir::usesVar(n.operands[0], v));
            });
        }
        return masked;
    }

    // A vector of this many lanes is whole registers or one part of one: a power of two up to a register, or
    // a multiple of one.
    bool registerShaped(int64_t lanes)
    {
        return lanes % kChunkLanes == 0 || (lanes < kChunkLanes && (lanes & (lanes - 1)) == 0);
    }

} // namespace

// The loop's stores become vector stores of `lanes` lanes starting at lane `first` (the loop variable is
// first + lane). `tail`, when set, masks off the lanes at or past the loop's extent. A guarded store is
// masked by its guard's lanes and skipped when no lane is on; a guard that is the same for all lanes is a
// branch. Loads under a mask are masked too, so a lane that is off never reads memory.
void Emitter::emitVectorStores(const std::vector<GuardedStore>& stores, llvm::Value* first, llvm::Value* tail)
{
    llvm::Function* fn = m_b.GetInsertBlock()->getParent();
    for (const GuardedStore& gs : stores) {
        const lower::StmtNode* st = gs.store;
        std::vector<Expr> uniform, laneWise;
        for (const Expr& g : gs.guards)
            (ir::usesVar(g, m_vecVar) ? laneWise : uniform).push_back(g);
        llvm::BasicBlock* done = nullptr;
        auto branchTo = [&](llvm::Value* condition, const char* name) {
            auto* then = llvm::BasicBlock::Create(m_ctx, name, fn);
            if (!done)
                done = llvm::BasicBlock::Create(m_ctx, "vstore.end", fn);
            m_b.CreateCondBr(condition, then, done);
            m_b.SetInsertPoint(then);
        };
        if (!uniform.empty())
            branchTo(scalar(ir::conjunction(uniform)), "vstore.guard");
        llvm::Value* mask = tail;
        if (!laneWise.empty()) {
            llvm::Value* lanes = widen(vec(ir::conjunction(laneWise), nullptr));
            mask = mask ? m_b.CreateAnd(mask, lanes) : lanes;
        }
        if (mask && mask != tail)
            branchTo(m_b.CreateOrReduce(mask), "vstore.any");
        llvm::Value* value = widen(vec(st->value, mask));
        const IndexParts at = indexParts(laneZero(st->indices[0]));
        if (!first && !mask) {
            storeElements(*st->buffer, at, value, m_lanes);
        } else {
            writeUnknown(*st->buffer);
            llvm::Value* ptr = elementPtr(st->buffer.get(), materialize(at));
            if (first)
                ptr = m_b.CreateInBoundsGEP(typeOf(st->buffer->dtype), ptr, first);
            if (mask)
                m_b.CreateMaskedStore(value, ptr, elementAlign(*st->buffer), mask);
            else
                m_b.CreateAlignedStore(value, ptr, elementAlign(*st->buffer));
        }
        if (done) {
            m_b.CreateBr(done);
            m_b.SetInsertPoint(done);
        }
    }
}

bool Emitter::emitVectorized(const lower::StmtNode& loop)
{
    if (m_vecVar || loop.extent < 2)
        return false;
    // Only stores (in sequence, possibly guarded), each to an address that moves by one element per lane,
    // and loads of a stored buffer only at the very address stored (a lane-wise read-modify-write).
    StoreCollector collector;
    collector.visit(loop.body);
    const std::vector<GuardedStore>& stores = collector.stores;
    bool ok = collector.ok;
    if (!ok || stores.empty())
        return false;
    const ExprNode* v = loop.var.get();
    for (const GuardedStore& gs : stores) {
        const lower::StmtNode* st = gs.store;
        bool pure = false;
        if (st->indices.size() != 1 || m_scope->analyzer.linear(st->indices[0]).coefficientOf(v, &pure) != 1 || !pure)
            return false;
        for (const GuardedStore& other : stores)
            ir::postOrderVisit(other.store->value, [&](const ExprNode& n) {
                if (n.kind == ExprKind::BufferLoad && n.buffer == st->buffer
                    && !ir::structuralEqual(n.operands[0], st->indices[0]))
                    ok = false;
            });
    }
    if (!ok)
        return false;
    m_vecVar = v;
    // A masked vector of an odd width (a padded row of 29 elements) is chunked too: LLVM builds a <29 x i1>
    // mask one bit at a time (60 mask-register instructions per row of a stride-2 convolution's padding
    // copy, which then took 45% of the kernel), where a 16-lane chunk's mask is one compare.
    // So is an odd-width loop that only streams memory to memory (an epilogue's copy-out of a local tile at a
    // dynamic row): LLVM loads a <28 x float> as 16+8+4 and reassembles the pieces with vinsertps and
    // vinsertf64x4 every row, 2-5x slower than three loads. An odd width stays one vector where its values
    // live in registers: accumulators (a read-modify-write, or a stack buffer the loop writes), whose 14-lane
    // FMA is one masked 16-lane instruction where pieces would take three; and their zeroing, whose stores
    // must have the accumulators' shape for LLVM to keep those in registers across the reduction.
    auto streams = [&] {
        for (const GuardedStore& gs : stores) {
            if (llvm::isa<llvm::AllocaInst>(m_scope->buffers.at(gs.store->buffer.get())))
                return false;
            bool loads = false, readsItself = false;
            ir::postOrderVisit(gs.store->value, [&](const ExprNode& n) {
                loads = loads || n.kind == ExprKind::BufferLoad;
                readsItself = readsItself || (n.kind == ExprKind::BufferLoad && n.buffer == gs.store->buffer);
            });
            if (!loads || readsItself)
                return false;
        }
        return true;
    };
    if (loop.extent <= kMaxLanes && (registerShaped(loop.extent) || (!hasLaneMasks(stores, v) && !streams()))) {
        // One vector of `extent` lanes (LLVM splits it into the target's registers).
        m_lanes = static_cast<unsigned>(loop.extent);
        emitVectorStores(stores, nullptr, nullptr);
    } else {
        // Strip-mined: chunks of kChunkLanes lanes, then the rest in power-of-two pieces, largest first (12
        // lanes: 8 and 4; loop partitioning, each piece a copy of the body). No piece is masked by the
        // extent: a masked store or load of a local buffer (the accumulators of an inlined padding) keeps
        // LLVM's SROA from promoting the whole buffer to registers, and every FMA then went through the
        // stack (a depthwise layer ran 4-5x slower than with the padding computed apart). For the same
        // reason the chunks of a loop of at most kMaxLanes lanes are emitted one by one at constant lanes.
        const int64_t full = loop.extent / kChunkLanes;
        const int64_t rest = loop.extent % kChunkLanes;
        auto emitAt = [&](int64_t lane, int64_t lanes) {
            m_lanes = static_cast<unsigned>(lanes);
            m_laneBase = llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(lane));
            emitVectorStores(stores, m_laneBase, nullptr);
        };
        if (full > 0 && loop.extent <= kMaxLanes) {
            for (int64_t chunk = 0; chunk < full; ++chunk)
                emitAt(chunk * kChunkLanes, kChunkLanes);
        } else if (full > 0) {
            m_lanes = static_cast<unsigned>(kChunkLanes);
            emitCountedLoop(loop.var->name + ".chunk", full, [&](llvm::Value* chunk) {
                m_laneBase = m_b.CreateMul(chunk, llvm::ConstantInt::get(m_i64, kChunkLanes), "", true, true);
                emitVectorStores(stores, m_laneBase, nullptr);
            });
        }
        int64_t lane = full * kChunkLanes;
        for (int64_t piece = kChunkLanes / 2; piece >= 1; piece /= 2) {
            if (rest & piece) {
                emitAt(lane, piece);
                lane += piece;
            }
        }
    }
    m_vecVar = nullptr;
    m_lanes = 0;
    m_laneBase = nullptr;
    return true;
}

Expr Emitter::laneZero(const Expr& e) const
{
    return ir::rewrite(e, [&](const Expr& x) { return x.get() == m_vecVar ? ir::intImm(0) : Expr(); });
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
        const IndexParts at = indexParts(laneZero(offset));
        if (!m_laneBase && !mask)
            return loadElements(*n.buffer, at, type, m_lanes);
        readUnknown(*n.buffer);
        llvm::Value* ptr = elementPtr(n.buffer.get(), materialize(at));
        if (m_laneBase)
            ptr = m_b.CreateInBoundsGEP(typeOf(n.buffer->dtype), ptr, m_laneBase);
        if (!mask)
            return m_b.CreateAlignedLoad(type, ptr, align);
        return m_b.CreateMaskedLoad(type, ptr, align, mask, llvm::Constant::getNullValue(type));
    }
    readUnknown(*n.buffer); // a strided load or a gather
    if (pure && coef >= 2 && coef <= kMaxLoadStride && m_lanes * coef <= kMaxStridedLoadElements)
        return stridedLoad(n, static_cast<unsigned>(coef), mask);
    llvm::Value* indices = widen(vec(offset, nullptr));
    auto it = m_scope->buffers.find(n.buffer.get());
    TS_ASSERT(it != m_scope->buffers.end()) << "buffer " << n.buffer->name;
    llvm::Value* ptrs = m_b.CreateInBoundsGEP(typeOf(n.buffer->dtype), it->second, indices);
    llvm::Value* allLanes
        = mask ? mask : llvm::ConstantInt::getTrue(llvm::FixedVectorType::get(llvm::Type::getInt1Ty(m_ctx), m_lanes));
    return m_b.CreateMaskedGather(type, ptrs, align, allLanes, llvm::Constant::getNullValue(type));
}

// A load whose address moves by `stride` elements per lane (a stride-2 convolution's input row, a
// de-interleave) reads the `lanes * stride` elements it spans with one masked contiguous load and picks
// every stride-th: a few vector loads and permutes, where a gather costs a load per lane. The load's mask
// holds only the elements some lane reads, so it never touches memory past the last lane's element.
llvm::Value* Emitter::stridedLoad(const ExprNode& n, unsigned stride, llvm::Value* mask)
{
    llvm::Type* elem = typeOf(n.buffer->dtype);
    const unsigned wide = m_lanes * stride;
    llvm::Value* ptr = elementPtr(n.buffer.get(), index(laneZero(n.operands[0])));
    if (m_laneBase)
        ptr = m_b.CreateInBoundsGEP(
            elem, ptr, m_b.CreateMul(m_laneBase, llvm::ConstantInt::get(m_i64, stride), "", true, true));
    llvm::Value* wideMask = nullptr;
    if (mask) { // element j is read by lane j / stride when j is a multiple of stride
        std::vector<int> pick(wide);
        for (unsigned j = 0; j < wide; ++j)
            pick[j] = j % stride == 0 ? static_cast<int>(j / stride) : static_cast<int>(m_lanes);
        wideMask = m_b.CreateShuffleVector(mask, llvm::Constant::getNullValue(mask->getType()), pick);
    } else {
        std::vector<llvm::Constant*> on;
        for (unsigned j = 0; j < wide; ++j)
            on.push_back(llvm::ConstantInt::getBool(m_ctx, j <= (m_lanes - 1) * stride));
        wideMask = llvm::ConstantVector::get(on);
    }
    auto* wideType = llvm::FixedVectorType::get(elem, wide);
    llvm::Value* all = m_b.CreateMaskedLoad(
        wideType, ptr, elementAlign(*n.buffer), wideMask, llvm::Constant::getNullValue(wideType));
    std::vector<int> every(m_lanes);
    for (unsigned i = 0; i < m_lanes; ++i)
        every[i] = static_cast<int>(i * stride);
    return m_b.CreateShuffleVector(all, every);
}

Lanes Emitter::vec(const Expr& e, llvm::Value* mask)
{
    const ExprNode& n = *e;
    // A load that is the same for all lanes is one scalar load: some lane is on wherever vec() runs, and
    // that lane's guards hold, except under a select, whose condition may be what keeps it in bounds.
    if (!ir::usesVar(e, m_vecVar) && !(mask && m_selectDepth > 0 && containsLoad(e)))
        return { scalar(e), true };
    switch (n.kind) {
    case ExprKind::Var: { // the vector variable: lanes 0, 1, ..
        std::vector<llvm::Constant*> lanes;
        for (unsigned i = 0; i < m_lanes; ++i)
            lanes.push_back(llvm::ConstantInt::get(m_i64, i));
        llvm::Value* steps = llvm::ConstantVector::get(lanes);
        if (m_laneBase)
            steps = m_b.CreateAdd(m_b.CreateVectorSplat(m_lanes, m_laneBase), steps);
        return { steps, false };
    }
    case ExprKind::BufferLoad: {
        auto given = m_laneValues.find(&n); // a transposed block's column
        if (given != m_laneValues.end())
            return { given->second, false };
        return { vecLoad(n, mask), false };
    }
    case ExprKind::Select: {
        llvm::Value* c = widen(vec(n.operands[0], mask));
        llvm::Value* notC = m_b.CreateNot(c);
        llvm::Value* thenMask = mask ? m_b.CreateAnd(mask, c) : c;
        llvm::Value* elseMask = mask ? m_b.CreateAnd(mask, notC) : notC;
        ++m_selectDepth;
        llvm::Value* a = widen(vec(n.operands[1], containsLoad(n.operands[1]) ? thenMask : nullptr));
        llvm::Value* b = widen(vec(n.operands[2], containsLoad(n.operands[2]) ? elseMask : nullptr));
        --m_selectDepth;
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
