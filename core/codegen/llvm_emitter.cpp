#include "core/codegen/llvm_emitter.h"

#include "core/codegen/codegen.h"
#include "core/codegen/llvm_emitter_private.h"
#include "core/support/assert.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <limits>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;
using lower::ForKind;
using lower::Stmt;
using lower::StmtKind;

namespace {
    // An unrolled loop is emitted unrolled when its copies hold at most this many statements (a store is
    // one, a loop that stays a loop costs kLoopStatements plus its body once, a vectorized loop its body
    // once). auto_unroll_max_step never asks for more (its limit is 512 stores, with no loop inside); an
    // explicit unroll annotation on a long loop around a loop does, and O3 then took seconds on 20,000
    // lines of IR for code no faster than the loop (docs/schedules.md, "Compile latency").
    constexpr int64_t kMaxUnrolledStatements = 512;
    constexpr int64_t kLoopStatements = 4;
    // A loop whose body emits more statements than this is left alone by LLVM's loop vectorizer. Its body is
    // an unrolled tile: widening it again makes hundreds of vector statements of code no faster, and the
    // vectorizer's dependence analysis is quadratic in the body's memory accesses (a third of the compile
    // time of a random 512-step unrolled schedule; docs/schedules.md, "Compile latency").
    constexpr int64_t kMaxLoopVectorizerStatements = 64;
    constexpr int64_t kMaxStackBytes = 64 * 1024;
    // What LLVM's full unroller does to TVM's loops in TVM's own build (its O3 pipeline unrolls a loop of
    // constant trip count whose unrolled body stays under a size threshold; ours leaves LLVM's unrollers out,
    // llvm_cpu_generator.cpp): a serial loop with no loop left inside is emitted unrolled when its unrolled
    // whole is at most this many 16-lane float operations. A schedule with auto_unroll_max_step 0 otherwise
    // keeps its register tile rolled and its accumulators in memory: ResNet-18 NHWC's 3x3 conv with a 4 x
    // 64-lane tile in a 4-step reduction loop ran at 78.5 GFLOP/s, 0.46 of the same schedule with the tile
    // unrolled; with this budget 209.5 (16 operations: 173, 192: 164; docs/codegen-investigation.md, 13).
    constexpr int64_t kFullUnrollOps = 64;
    constexpr int64_t kChunk = 16; // float lanes of one operation (one 512-bit register)
    constexpr int64_t kNoFullUnroll = std::numeric_limits<int64_t>::max() / 4;

    // The 16-lane operations of `s` emitted with every loop inside unrolled, or kNoFullUnroll when a loop
    // inside stays a loop (a parallel loop, an unrolled one past kMaxUnrolledStatements, a serial one past
    // kFullUnrollOps, a vectorized one past 64 lanes).
    int64_t fullUnrollOps(const Stmt& s)
    {
        if (!s)
            return 0;
        switch (s->kind) {
        case StmtKind::Store:
            return 1;
        case StmtKind::Barrier:
            return 0;
        case StmtKind::AllReduce:
            return kNoFullUnroll;
        case StmtKind::Seq: {
            int64_t n = 0;
            for (const Stmt& c : s->seq)
                n = std::min(kNoFullUnroll, n + fullUnrollOps(c));
            return n;
        }
        case StmtKind::IfThenElse:
            return std::min(kNoFullUnroll, 1 + fullUnrollOps(s->body) + fullUnrollOps(s->elseBody));
        case StmtKind::Allocate:
            return fullUnrollOps(s->body);
        case StmtKind::For: {
            const int64_t body = fullUnrollOps(s->body);
            if (body > kMaxUnrolledStatements)
                return kNoFullUnroll;
            if (s->forKind == ForKind::Vectorized)
                return s->extent <= 64 ? body * ((s->extent + kChunk - 1) / kChunk) : kNoFullUnroll;
            if (s->forKind == ForKind::Serial || s->forKind == ForKind::Unrolled) {
                const int64_t all = s->extent * body;
                return all <= (s->forKind == ForKind::Serial ? kFullUnrollOps : kMaxUnrolledStatements) ? all
                                                                                                        : kNoFullUnroll;
            }
            return kNoFullUnroll;
        }
        }
        return kNoFullUnroll;
    }

    // What the stores under a loop do: whether a vectorized loop is among them, whether one accumulates (its value
    // reads the buffer it writes) and whether one streams memory to memory (it loads, but not its own buffer).
    struct TileStores {
        bool vectorized = false;
        bool accumulates = false;
        bool streams = false;
    };

    void tileStores(const Stmt& s, bool inVector, TileStores& out)
    {
        if (!s)
            return;
        switch (s->kind) {
        case StmtKind::Store: {
            if (!inVector)
                return;
            bool loads = false, readsItself = false;
            ir::postOrderVisit(s->value, [&](const ExprNode& n) {
                loads = loads || n.kind == ir::ExprKind::BufferLoad;
                readsItself = readsItself || (n.kind == ir::ExprKind::BufferLoad && n.buffer == s->buffer);
            });
            out.accumulates = out.accumulates || readsItself;
            out.streams = out.streams || (loads && !readsItself);
            return;
        }
        case StmtKind::Seq:
            for (const Stmt& c : s->seq)
                tileStores(c, inVector, out);
            return;
        case StmtKind::IfThenElse:
            tileStores(s->body, inVector, out);
            tileStores(s->elseBody, inVector, out);
            return;
        case StmtKind::Allocate:
            tileStores(s->body, inVector, out);
            return;
        case StmtKind::For:
            out.vectorized = out.vectorized || s->forKind == ForKind::Vectorized;
            tileStores(s->body, inVector || s->forKind == ForKind::Vectorized, out);
            return;
        default:
            return;
        }
    }

    // Whether LLVM's full unroller would unroll the serial loop `s` (kFullUnrollOps), where that pays here: around
    // a register tile, vector accumulators (or their zeroing) that unrolled stay in registers. A loop of scalar
    // statements stays a loop for LLVM's loop vectorizer, and one that streams memory to memory (an epilogue, a
    // padding copy) for the emitter's pieces: unrolled, both ran slower (A/B on random conv schedules, section 13).
    bool fullyUnrolled(const lower::StmtNode& s)
    {
        if (s.forKind != ForKind::Serial || s.extent > kFullUnrollOps)
            return false;
        const int64_t body = fullUnrollOps(s.body);
        if (body > kFullUnrollOps || s.extent * body > kFullUnrollOps)
            return false;
        TileStores stores;
        tileStores(s.body, false, stores);
        return stores.vectorized && !stores.streams;
    }

    // The statements emitting `s` produces, with unrolled loops unrolled where they fit; stops counting
    // past `limit`.
    int64_t emittedStatements(const Stmt& s, int64_t limit)
    {
        if (!s)
            return 0;
        switch (s->kind) {
        case StmtKind::Store:
            return 1;
        case StmtKind::Barrier: // GPU only; emits nothing here
            return 0;
        case StmtKind::AllReduce: // GPU only; refused by the emitter
            return 1;
        case StmtKind::Seq: {
            int64_t n = 0;
            for (const Stmt& c : s->seq) {
                n += emittedStatements(c, limit);
                if (n > limit)
                    break;
            }
            return n;
        }
        case StmtKind::IfThenElse:
            return 1 + emittedStatements(s->body, limit) + emittedStatements(s->elseBody, limit);
        case StmtKind::Allocate:
            return emittedStatements(s->body, limit);
        case StmtKind::For: {
            const int64_t body = emittedStatements(s->body, limit);
            if ((s->forKind == ForKind::Unrolled && s->extent * body <= kMaxUnrolledStatements) || fullyUnrolled(*s))
                return s->extent * body;
            // A vectorized loop of at most 64 lanes is one vector per statement; past that, a loop of chunks.
            return s->forKind == ForKind::Vectorized && s->extent <= 64 ? body : kLoopStatements + body;
        }
        }
        return 1;
    }
} // namespace

void unsupported(const std::string& what) { throw CodegenFailure { makeError(ErrorKind::Unsupported, what) }; }

Emitter::Emitter(llvm::Module& module, const std::string& symbol)
    : m_module(module)
    , m_ctx(module.getContext())
    , m_b(m_ctx)
    , m_symbol(symbol)
{
    m_i64 = llvm::Type::getInt64Ty(m_ctx);
    m_f32 = llvm::Type::getFloatTy(m_ctx);
    m_ptr = llvm::PointerType::get(m_ctx, 0);
}

llvm::Function* Emitter::runtimeFunction(const char* name, llvm::Type* result, std::vector<llvm::Type*> params)
{
    auto* type = llvm::FunctionType::get(result, params, false);
    return llvm::cast<llvm::Function>(m_module.getOrInsertFunction(name, type).getCallee());
}

llvm::Function* Emitter::makeImpl(const std::string& name, const FreeSymbols& free, int extraInts)
{
    std::vector<llvm::Type*> params(free.buffers.size(), m_ptr);
    params.insert(params.end(), free.vars.size() + static_cast<size_t>(extraInts), m_i64);
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(m_ctx), params, false);
    auto* fn = llvm::Function::Create(type, llvm::Function::InternalLinkage, name, m_module);
    for (size_t i = 0; i < free.buffers.size(); ++i) {
        fn->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
        fn->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::getWithAlignment(m_ctx, llvm::Align(64)));
        fn->getArg(static_cast<unsigned>(i))->setName(free.buffers[i]->name);
    }
    for (size_t i = 0; i < free.vars.size(); ++i)
        fn->getArg(static_cast<unsigned>(free.buffers.size() + i))->setName(free.vars[i]->name);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    return fn;
}

void Emitter::bindImplParams(llvm::Function* impl, const FreeSymbols& free)
{
    for (size_t i = 0; i < free.buffers.size(); ++i)
        m_scope->buffers[free.buffers[i]] = impl->getArg(static_cast<unsigned>(i));
    for (size_t i = 0; i < free.vars.size(); ++i)
        m_scope->vars[free.vars[i]] = impl->getArg(static_cast<unsigned>(free.buffers.size() + i));
}

void Emitter::emitKernel(const lower::LoweredFunc& func)
{
    for (const ir::BufferRef& arg : func.args)
        checkGenerated(*arg);
    // The impl takes the arguments as noalias parameters; the entry unpacks void** args (each a pointer to
    // its buffer's elements, of the buffer's dtype).
    FreeSymbols free;
    for (const ir::BufferRef& arg : func.args)
        free.buffers.push_back(arg.get());
    const FreeSymbols extra = freeSymbols(func.body, {}, { free.buffers.begin(), free.buffers.end() });
    if (!extra.vars.empty() || !extra.buffers.empty())
        unsupported("the kernel body uses undefined variables or buffers");

    llvm::Function* impl = makeImpl(m_symbol + "_impl", free, 0);
    Scope scope;
    scope.function = impl;
    m_scope = &scope;
    bindImplParams(impl, free);
    m_b.SetInsertPoint(llvm::BasicBlock::Create(m_ctx, "entry", impl));
    visit(func.body);
    m_b.CreateRetVoid();

    auto* entryType = llvm::FunctionType::get(llvm::Type::getVoidTy(m_ctx), { m_ptr }, false);
    auto* entry = llvm::Function::Create(entryType, llvm::Function::ExternalLinkage, m_symbol, m_module);
    entry->addFnAttr(llvm::Attribute::NoUnwind);
    m_b.SetInsertPoint(llvm::BasicBlock::Create(m_ctx, "entry", entry));
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < func.args.size(); ++i) {
        llvm::Value* slot = m_b.CreateConstInBoundsGEP1_64(m_ptr, entry->getArg(0), i);
        args.push_back(m_b.CreateAlignedLoad(m_ptr, slot, llvm::Align(8), func.args[i]->name));
    }
    m_b.CreateCall(impl, args);
    m_b.CreateRetVoid();
    m_scope = nullptr;
}

void checkGenerated(const ir::BufferVar& buffer)
{
    if (buffer.dtype != ir::DType::Float32)
        unsupported("buffer " + buffer.name + ": " + std::string(ir::toString(buffer.dtype))
            + " buffers are not generated yet (float32 only)");
}

llvm::Align Emitter::elementAlign(const ir::BufferVar& buffer) { return llvm::Align(ir::bytesOf(buffer.dtype)); }

void Emitter::visitStore(const lower::StmtNode& s)
{
    if (s.indices.size() != 1)
        unsupported("store to " + s.buffer->name + " before storage flattening");
    llvm::Value* value = scalar(s.value);
    storeElements(*s.buffer, indexParts(s.indices[0]), value, 1);
}

// --- what a block has loaded and stored (see the header)

std::vector<Emitter::Known>& Emitter::knownOf(const ir::BufferVar& buffer)
{
    if (m_knownBlock != m_b.GetInsertBlock()) {
        m_known.clear();
        m_knownBlock = m_b.GetInsertBlock();
    }
    return m_known[&buffer];
}

void Emitter::forgetMemory() { m_known.clear(); }

void Emitter::readUnknown(const ir::BufferVar& buffer)
{
    for (Known& k : knownOf(buffer))
        k.store = nullptr; // a store some read may see is no longer dead when overwritten
}

void Emitter::writeUnknown(const ir::BufferVar& buffer) { knownOf(buffer).clear(); }

namespace {
    // Whether two accesses to one buffer may touch a common element: their indices share the variable part
    // and their constant ranges are disjoint, or they may.
    bool mayOverlap(const IndexParts& a, int64_t aElements, const IndexParts& b, int64_t bElements)
    {
        if (a.sum != b.sum)
            return true;
        return a.constant < b.constant + bElements && b.constant < a.constant + aElements;
    }

    // Whether a known access is the very one asked for: the same index and the same type of value.
    bool sameAccess(const IndexParts& a, llvm::Type* aType, const IndexParts& b, llvm::Type* bType)
    {
        return a.sum == b.sum && a.constant == b.constant && aType == bType;
    }
} // namespace

llvm::Value* Emitter::loadElements(
    const ir::BufferVar& buffer, const IndexParts& at, llvm::Type* type, int64_t elements)
{
    std::vector<Known>& known = knownOf(buffer);
    for (const Known& k : known)
        if (sameAccess(k.at, k.value->getType(), at, type))
            return k.value;
    for (Known& k : known)
        if (k.store && mayOverlap(k.at, k.elements, at, elements))
            k.store = nullptr;
    llvm::Value* value = m_b.CreateAlignedLoad(type, elementPtr(&buffer, materialize(at)), elementAlign(buffer));
    known.push_back({ at, elements, value, nullptr });
    return value;
}

void Emitter::storeElements(const ir::BufferVar& buffer, const IndexParts& at, llvm::Value* value, int64_t elements)
{
    std::vector<Known>& known = knownOf(buffer);
    for (auto it = known.begin(); it != known.end();) {
        if (!mayOverlap(it->at, it->elements, at, elements)) {
            ++it;
            continue;
        }
        // Overwritten whole before anything read it: the earlier store is dead.
        if (it->store && sameAccess(it->at, it->value->getType(), at, value->getType()))
            it->store->eraseFromParent();
        it = known.erase(it);
    }
    llvm::StoreInst* store = m_b.CreateAlignedStore(value, elementPtr(&buffer, materialize(at)), elementAlign(buffer));
    known.push_back({ at, elements, value, store });
}

llvm::Value* Emitter::elementPtr(const ir::BufferVar* buffer, llvm::Value* index)
{
    auto it = m_scope->buffers.find(buffer);
    TS_ASSERT(it != m_scope->buffers.end()) << "buffer " << buffer->name << " not in scope";
    return m_b.CreateInBoundsGEP(typeOf(buffer->dtype), it->second, index);
}

void Emitter::visitFor(const lower::StmtNode& s)
{
    if (s.forKind == ForKind::ThreadBinding)
        unsupported("loop " + s.var->name + " is bound to " + s.threadTag
            + ": thread bindings need a GPU code generator, this one generates CPU code");
    m_scope->analyzer.bind(s.var, 0, s.extent - 1);
    m_loopDepth[s.var.get()] = m_depth++;
    if (m_transpose && m_transpose->inner == &s) { // whatever its kind: the block stores along it in vectors
        emitTransposedInner(s);
    } else if (s.forKind == ForKind::Parallel && m_vecVar == nullptr) {
        emitParallel(s);
    } else if (s.forKind == ForKind::Serial && emitTransposed(s)) {
        // emitted in transposed blocks
    } else if ((s.forKind == ForKind::Unrolled
                   && s.extent * emittedStatements(s.body, kMaxUnrolledStatements) <= kMaxUnrolledStatements)
        || fullyUnrolled(s)) {
        for (int64_t i = 0; i < s.extent; ++i) {
            m_scope->vars[s.var.get()] = llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(i));
            visit(s.body);
        }
    } else if (s.forKind != ForKind::Vectorized || !emitVectorized(s)) {
        emitSerialLoop(
            s, llvm::ConstantInt::get(m_i64, 0), llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(s.extent)));
    }
    --m_depth;
    m_scope->analyzer.unbind(s.var);
}

void Emitter::emitSerialLoop(const lower::StmtNode& s, llvm::Value* begin, llvm::Value* end)
{
    llvm::Function* fn = m_b.GetInsertBlock()->getParent();
    llvm::BasicBlock* pre = m_b.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(m_ctx, s.var->name, fn);
    auto* exit = llvm::BasicBlock::Create(m_ctx, s.var->name + ".end", fn);
    m_b.CreateCondBr(m_b.CreateICmpSLT(begin, end), header, exit);
    m_b.SetInsertPoint(header);
    llvm::PHINode* i = m_b.CreatePHI(m_i64, 2, s.var->name);
    i->addIncoming(begin, pre);
    m_scope->vars[s.var.get()] = i;
    visit(s.body);
    llvm::Value* next = m_b.CreateAdd(i, llvm::ConstantInt::get(m_i64, 1), "", true, true);
    i->addIncoming(next, m_b.GetInsertBlock());
    llvm::BranchInst* latch = m_b.CreateCondBr(m_b.CreateICmpSLT(next, end), header, exit);
    if (emittedStatements(s.body, kMaxLoopVectorizerStatements) > kMaxLoopVectorizerStatements) {
        llvm::Metadata* off[] = { llvm::MDString::get(m_ctx, "llvm.loop.vectorize.enable"),
            llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(m_ctx)) };
        llvm::MDNode* loop = llvm::MDNode::getDistinct(m_ctx, { nullptr, llvm::MDNode::get(m_ctx, off) });
        loop->replaceOperandWith(0, loop); // a loop's metadata names itself first
        latch->setMetadata(llvm::LLVMContext::MD_loop, loop);
    }
    m_b.SetInsertPoint(exit);
}

void Emitter::emitCountedLoop(const std::string& name, int64_t count, const std::function<void(llvm::Value*)>& body)
{
    llvm::Function* fn = m_b.GetInsertBlock()->getParent();
    llvm::BasicBlock* pre = m_b.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(m_ctx, name, fn);
    auto* exit = llvm::BasicBlock::Create(m_ctx, name + ".end", fn);
    m_b.CreateBr(header);
    m_b.SetInsertPoint(header);
    llvm::PHINode* i = m_b.CreatePHI(m_i64, 2, name);
    i->addIncoming(llvm::ConstantInt::get(m_i64, 0), pre);
    body(i);
    llvm::Value* next = m_b.CreateAdd(i, llvm::ConstantInt::get(m_i64, 1), "", true, true);
    i->addIncoming(next, m_b.GetInsertBlock());
    m_b.CreateCondBr(
        m_b.CreateICmpSLT(next, llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(count))), header, exit);
    m_b.SetInsertPoint(exit);
}

void Emitter::visitAllReduce(const lower::StmtNode& s)
{
    unsupported("a cross-thread reduction into " + s.buffer->name + " needs a GPU target's code generator");
}

void Emitter::visitAllocate(const lower::StmtNode& s)
{
    const ir::BufferVar* buffer = s.buffer.get();
    checkGenerated(*buffer);
    const int64_t elements = buffer->allocatedElements();
    const int64_t bytes = elements * ir::bytesOf(buffer->dtype);
    writeUnknown(*buffer); // new memory under the same name
    if (buffer->scope == "static") {
        // Shared by the kernel's functions (the setup writes it, the body reads it) and kept between calls: one
        // zero-initialized global of the module, found by name.
        auto* type = llvm::ArrayType::get(typeOf(buffer->dtype), static_cast<uint64_t>(elements));
        llvm::GlobalVariable* global = m_module.getGlobalVariable(buffer->name, true);
        if (global == nullptr) {
            global = new llvm::GlobalVariable(m_module, type, false, llvm::GlobalValue::InternalLinkage,
                llvm::ConstantAggregateZero::get(type), buffer->name);
            global->setAlignment(llvm::Align(64));
        }
        m_scope->buffers[buffer] = global;
        visit(s.body);
        return;
    }
    if (bytes <= kMaxStackBytes) {
        llvm::Function* fn = m_scope->function;
        llvm::IRBuilder<> entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
        llvm::AllocaInst* a = entry.CreateAlloca(
            llvm::ArrayType::get(typeOf(buffer->dtype), static_cast<uint64_t>(elements)), nullptr, buffer->name);
        a->setAlignment(llvm::Align(64));
        m_scope->buffers[buffer] = a;
        visit(s.body);
        return;
    }
    // Like malloc: the pointer returned aliases nothing else in the kernel, so accesses to two workspace
    // buffers are independent to LLVM's alias analysis (and a tile in one can stay in registers while the
    // loop reads another).
    llvm::Function* alloc = runtimeFunction("ts_alloc", m_ptr, { m_i64 });
    alloc->addRetAttr(llvm::Attribute::NoAlias);
    alloc->addRetAttr(llvm::Attribute::getWithAlignment(m_ctx, llvm::Align(64)));
    alloc->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::Function* release = runtimeFunction("ts_free", llvm::Type::getVoidTy(m_ctx), { m_ptr });
    llvm::CallInst* p
        = m_b.CreateCall(alloc, { llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(bytes)) }, buffer->name);
    p->addRetAttr(llvm::Attribute::getWithDereferenceableBytes(m_ctx, static_cast<uint64_t>(bytes)));
    m_scope->buffers[buffer] = p;
    visit(s.body);
    m_b.CreateCall(release, { p });
    forgetMemory();
}

void Emitter::visitIfThenElse(const lower::StmtNode& s)
{
    llvm::Function* fn = m_b.GetInsertBlock()->getParent();
    auto* thenBlock = llvm::BasicBlock::Create(m_ctx, "if.then", fn);
    auto* elseBlock = s.elseBody ? llvm::BasicBlock::Create(m_ctx, "if.else", fn) : nullptr;
    auto* done = llvm::BasicBlock::Create(m_ctx, "if.end", fn);
    m_b.CreateCondBr(scalar(s.condition), thenBlock, elseBlock ? elseBlock : done);
    m_b.SetInsertPoint(thenBlock);
    visit(s.body);
    m_b.CreateBr(done);
    if (elseBlock) {
        m_b.SetInsertPoint(elseBlock);
        visit(s.elseBody);
        m_b.CreateBr(done);
    }
    m_b.SetInsertPoint(done);
}

namespace {
    // <symbol>_statics (codegen.h): the module's static buffers, which are its only writable globals (the
    // zero-initialized arrays visitAllocate makes for "static" scope), with their sizes, so that a cache flush can
    // reach the weights a setup packed. Not emitted when there are none.
    void emitStaticsAccessor(llvm::Module& module, const std::string& name)
    {
        std::vector<llvm::GlobalVariable*> statics;
        for (llvm::GlobalVariable& g : module.globals())
            if (!g.isConstant() && g.hasInitializer() && llvm::isa<llvm::ConstantAggregateZero>(g.getInitializer()))
                statics.push_back(&g);
        if (statics.empty())
            return;
        llvm::LLVMContext& context = module.getContext();
        llvm::Type* i64 = llvm::Type::getInt64Ty(context);
        llvm::Type* ptr = llvm::PointerType::getUnqual(context);
        auto* type = llvm::FunctionType::get(i64, { ptr, ptr, i64 }, false);
        auto* fn = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, module);
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
        llvm::Value* pointers = fn->getArg(0);
        llvm::Value* sizes = fn->getArg(1);
        llvm::Value* capacity = fn->getArg(2);
        const llvm::DataLayout& layout = module.getDataLayout();
        for (size_t i = 0; i < statics.size(); ++i) {
            llvm::BasicBlock* store = llvm::BasicBlock::Create(context, "store", fn);
            llvm::BasicBlock* next = llvm::BasicBlock::Create(context, "next", fn);
            b.CreateCondBr(b.CreateICmpSLT(b.getInt64(i), capacity), store, next);
            b.SetInsertPoint(store);
            b.CreateStore(statics[i], b.CreateGEP(ptr, pointers, b.getInt64(i)));
            b.CreateStore(b.getInt64(layout.getTypeAllocSize(statics[i]->getValueType()).getFixedSize()),
                b.CreateGEP(i64, sizes, b.getInt64(i)));
            b.CreateBr(next);
            b.SetInsertPoint(next);
        }
        b.CreateRet(b.getInt64(static_cast<int64_t>(statics.size())));
    }
} // namespace

Expected<std::unique_ptr<llvm::Module>> emitModule(
    const lower::LoweredFunc& func, const std::string& symbol, llvm::LLVMContext& context)
{
    auto module = std::make_unique<llvm::Module>(symbol, context);
    try {
        Emitter emitter(*module, symbol);
        emitter.emitKernel(func);
        if (func.setup) { // <symbol>_setup: the same arguments, run once before the timed runs
            lower::LoweredFunc setup = func;
            setup.body = func.setup;
            setup.setup = nullptr;
            Emitter setupEmitter(*module, setupSymbol(symbol));
            setupEmitter.emitKernel(setup);
            emitStaticsAccessor(*module, staticsSymbol(symbol));
        }
    } catch (const CodegenFailure& failure) {
        return failure.error;
    }
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(*module, &os))
        return makeError(ErrorKind::Internal, "generated LLVM IR does not verify: " + os.str().substr(0, 2000));
    return module;
}

} // namespace ts::codegen
