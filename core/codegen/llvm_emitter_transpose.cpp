// Transposing loop nests: a serial nest that writes along its innermost loop while it reads a buffer along an
// outer one (out[j, .., l] = f(in[.., l, .., j])) runs in square blocks: the block's rows are read as
// contiguous vectors along j, transposed in registers, and each column is stored as one contiguous vector
// along l. LLVM's loop vectorizer makes each such read a gather (a lane at a time) plus a scalar remainder.
//
// Where it comes from: a compute_at tile that vectorizes an outer axis keeps that axis innermost in its
// buffer (NestBuilder::makeBuffer), so the consumer reading it in the output's order reads across it. An
// NCHW convolution that vectorizes its output channels (the weight-axis search rule) is the case that
// matters: its epilogue transposed the whole output at 1.8 cycles an element, a third of the stem's time
// (docs/schedules.md, "Tuned layers against LibTorch").
#include "core/codegen/llvm_emitter_private.h"
#include "core/support/assert.h"

#include <llvm/IR/Constants.h>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;
using lower::ForKind;
using lower::StmtKind;

namespace {
    // Loops inside the nest may be serial or unrolled; a parallel, vectorized or thread loop ends the match.
    bool plainLoop(const lower::StmtNode& s)
    {
        return s.kind == StmtKind::For && (s.forKind == ForKind::Serial || s.forKind == ForKind::Unrolled);
    }

    bool innerVectorized(const lower::StmtNode& s)
    {
        return s.kind == StmtKind::For && s.forKind == ForKind::Vectorized && s.body && s.body->kind == StmtKind::Store;
    }

    // The block is width x width elements of float32: one 512-bit register a row where the target has them
    // (LLVM splits it where it does not).
    constexpr int64_t kBlockLanes = 16;
    // An innermost loop shorter than this is not worth a block: most of its rows would be empty.
    constexpr int64_t kMinInnerExtent = 4;
} // namespace

std::optional<Emitter::TransposePlan> Emitter::planTranspose(const lower::StmtNode& outer)
{
    if (outer.forKind != ForKind::Serial || m_vecVar != nullptr || m_transpose)
        return std::nullopt;
    // A perfect nest down to one store. The innermost loop may also be unrolled or vectorized: a block stores
    // along it in vectors, where its own vectorization would gather.
    const lower::StmtNode* inner = &outer;
    while (inner->body && (plainLoop(*inner->body) || innerVectorized(*inner->body)))
        inner = inner->body.get();
    if (inner == &outer || inner->extent < kMinInnerExtent || !inner->body || inner->body->kind != StmtKind::Store)
        return std::nullopt;
    const lower::StmtNode& store = *inner->body;
    if (store.indices.size() != 1 || store.buffer->dtype != ir::DType::Float32)
        return std::nullopt;
    const ExprNode* j = outer.var.get();
    const ExprNode* l = inner->var.get();
    bool pure = false;
    if (m_scope->analyzer.linear(store.indices[0]).coefficientOf(l, &pure) != 1 || !pure)
        return std::nullopt;
    TransposePlan plan { &outer, inner, 0, {} };
    for (int64_t width = kBlockLanes; width >= 8; width /= 2)
        if (outer.extent % width == 0) {
            plan.width = static_cast<unsigned>(width);
            break;
        }
    if (plan.width == 0)
        return std::nullopt;
    bool ok = true;
    ir::postOrderVisit(store.value, [&](const ExprNode& n) {
        if (n.kind != ExprKind::BufferLoad)
            return;
        if (n.buffer == store.buffer || n.operands.size() != 1) {
            ok = false; // a read of what the nest writes, or an index not flattened
            return;
        }
        const lower::arith::Linear form = m_scope->analyzer.linear(n.operands[0]);
        bool pureL = false, pureJ = false;
        const int64_t alongL = form.coefficientOf(l, &pureL);
        const int64_t alongJ = form.coefficientOf(j, &pureJ);
        if (pureL && pureJ && alongJ == 1 && alongL >= 2 && n.dtype == ir::DType::Float32)
            plan.loads.push_back({ &n, alongL });
    });
    if (!ok || plan.loads.empty())
        return std::nullopt;
    return plan;
}

bool Emitter::emitTransposed(const lower::StmtNode& outer)
{
    std::optional<TransposePlan> plan = planTranspose(outer);
    if (!plan)
        return false;
    // for (j.block, 0, extent / width): the body with j at the block's first row.
    const int64_t blocks = outer.extent / plan->width;
    m_transpose = std::move(plan);
    emitCountedLoop(outer.var->name + ".block", blocks, [&](llvm::Value* block) {
        m_transposeBase = m_b.CreateMul(block, llvm::ConstantInt::get(m_i64, m_transpose->width), "", true, true);
        m_scope->vars[outer.var.get()] = m_transposeBase;
        visit(outer.body);
    });
    m_transpose.reset();
    m_transposeBase = nullptr;
    return true;
}

// The innermost loop of a planned nest: blocks of `width` iterations (the last one masked), each reading
// `width` rows per transposed load and storing `width` columns.
void Emitter::emitTransposedInner(const lower::StmtNode& inner)
{
    const int64_t width = m_transpose->width;
    const int64_t full = inner.extent / width;
    const int64_t rest = inner.extent % width;
    if (full == 1) {
        emitTransposedBlock(inner, llvm::ConstantInt::get(m_i64, 0), width);
    } else if (full > 1) {
        emitCountedLoop(inner.var->name + ".block", full, [&](llvm::Value* block) {
            emitTransposedBlock(inner,
                m_b.CreateMul(block, llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(width)), "", true, true),
                width);
        });
    }
    if (rest > 0)
        emitTransposedBlock(inner, llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(full * width)), rest);
}

void Emitter::emitTransposedBlock(const lower::StmtNode& inner, llvm::Value* first, int64_t rows)
{
    const TransposePlan& plan = *m_transpose;
    const unsigned width = plan.width;
    const ExprNode* j = plan.outer->var.get();
    auto* rowType = llvm::FixedVectorType::get(m_f32, width);
    // Each transposed load's block: row r holds j = base .. base + width - 1 at l = first + r; the rows past
    // the loop's end are never read (their columns' lanes are masked off below).
    std::vector<std::vector<llvm::Value*>> columns;
    for (const TransposedLoad& t : plan.loads) {
        const ExprNode& n = *t.load;
        const Expr atFirstRow = ir::rewrite(
            n.operands[0], [&](const Expr& x) { return x.get() == inner.var.get() ? ir::intImm(0) : Expr(); });
        readUnknown(*n.buffer);
        llvm::Value* origin = elementPtr(n.buffer.get(), index(atFirstRow));
        std::vector<llvm::Value*> block(width, llvm::PoisonValue::get(rowType));
        for (int64_t r = 0; r < rows; ++r) {
            llvm::Value* l
                = m_b.CreateAdd(first, llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(r)), "", true, true);
            llvm::Value* ptr = m_b.CreateInBoundsGEP(m_f32, origin,
                m_b.CreateMul(l, llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(t.stride)), "", true, true));
            block[static_cast<size_t>(r)] = m_b.CreateAlignedLoad(rowType, ptr, elementAlign(*n.buffer));
        }
        // Transposed in log2(width) rounds: round h swaps bit h of the row index with bit h of the lane, pairing
        // row a with row a + h (a without bit h). After every bit has been swapped, row c holds column c.
        for (unsigned h = 1; h < width; h *= 2) {
            std::vector<int> low(width), high(width);
            for (unsigned p = 0; p < width; ++p) {
                low[p] = static_cast<int>((p & h) == 0 ? p : width + p - h);
                high[p] = static_cast<int>((p & h) == 0 ? p + h : width + p);
            }
            for (unsigned a = 0; a < width; ++a) {
                if ((a & h) != 0)
                    continue;
                llvm::Value* x = block[a];
                llvm::Value* y = block[a + h];
                block[a] = m_b.CreateShuffleVector(x, y, low);
                block[a + h] = m_b.CreateShuffleVector(x, y, high);
            }
        }
        columns.push_back(std::move(block));
    }
    llvm::Value* tail = nullptr;
    if (rows < width) {
        std::vector<llvm::Constant*> on;
        for (int64_t i = 0; i < width; ++i)
            on.push_back(llvm::ConstantInt::getBool(m_ctx, i < rows));
        tail = llvm::ConstantVector::get(on);
    }
    // Column c is the store's lanes l = first .. first + width - 1 at j = base + c.
    const GuardedStore store { inner.body.get(), {} };
    m_vecVar = inner.var.get();
    m_lanes = width;
    m_laneBase = first;
    for (unsigned c = 0; c < width; ++c) {
        m_scope->vars[j] = m_b.CreateAdd(m_transposeBase, llvm::ConstantInt::get(m_i64, c), "", true, true);
        for (size_t k = 0; k < plan.loads.size(); ++k)
            m_laneValues[plan.loads[k].load] = columns[k][c];
        emitVectorStores({ store }, first, tail);
    }
    m_laneValues.clear();
    m_scope->vars[j] = m_transposeBase;
    m_vecVar = nullptr;
    m_lanes = 0;
    m_laneBase = nullptr;
}

} // namespace ts::codegen
