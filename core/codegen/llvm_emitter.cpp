#include "core/codegen/llvm_emitter.h"

#include "core/lower/analyzer.h"
#include "core/support/assert.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <set>
#include <unordered_map>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;
using lower::ForKind;
using lower::Stmt;
using lower::StmtKind;
using lower::StmtNode;

namespace {
    constexpr int64_t kMaxUnroll = 512;
    constexpr int64_t kMaxStackBytes = 64 * 1024;

    struct CodegenFailure {
        Error error;
    };
    [[noreturn]] void unsupported(const std::string& what)
    {
        throw CodegenFailure { makeError(ErrorKind::Unsupported, what) };
    }

    bool containsLoad(const Expr& e)
    {
        bool found = false;
        ir::postOrderVisit(e, [&](const ExprNode& n) { found |= n.kind == ExprKind::BufferLoad; });
        return found;
    }

    // Vars and buffers a statement uses but does not define (loop vars, allocations), in first-use order.
    struct FreeSymbols {
        std::vector<const ExprNode*> vars;
        std::vector<const ir::BufferVar*> buffers;
    };

    void collectFree(const Stmt& s, std::set<const ExprNode*>& boundVars, std::set<const ir::BufferVar*>& boundBuffers,
        FreeSymbols& out)
    {
        if (!s)
            return;
        auto useBuffer = [&](const ir::BufferVar* b) {
            if (!boundBuffers.count(b) && std::find(out.buffers.begin(), out.buffers.end(), b) == out.buffers.end())
                out.buffers.push_back(b);
        };
        auto useExpr = [&](const Expr& e) {
            ir::postOrderVisit(e, [&](const ExprNode& n) {
                if (n.kind == ExprKind::Var && !boundVars.count(&n)
                    && std::find(out.vars.begin(), out.vars.end(), &n) == out.vars.end())
                    out.vars.push_back(&n);
                if (n.kind == ExprKind::BufferLoad)
                    useBuffer(n.buffer.get());
            });
        };
        switch (s->kind) {
        case StmtKind::For:
            boundVars.insert(s->var.get());
            collectFree(s->body, boundVars, boundBuffers, out);
            return;
        case StmtKind::Store:
            useBuffer(s->buffer.get());
            for (const Expr& i : s->indices)
                useExpr(i);
            useExpr(s->value);
            return;
        case StmtKind::Allocate:
            boundBuffers.insert(s->buffer.get());
            collectFree(s->body, boundVars, boundBuffers, out);
            return;
        case StmtKind::IfThenElse:
            useExpr(s->condition);
            collectFree(s->body, boundVars, boundBuffers, out);
            collectFree(s->elseBody, boundVars, boundBuffers, out);
            return;
        case StmtKind::Seq:
            for (const Stmt& c : s->seq)
                collectFree(c, boundVars, boundBuffers, out);
            return;
        }
    }

    // A value in a vectorized loop: one scalar for all lanes, or a vector.
    struct Lanes {
        llvm::Value* value = nullptr;
        bool uniform = true;
    };

    class Emitter {
    public:
        Emitter(llvm::Module& module, const std::string& symbol)
            : m_module(module)
            , m_ctx(module.getContext())
            , m_b(m_ctx)
            , m_symbol(symbol)
        {
            m_i64 = llvm::Type::getInt64Ty(m_ctx);
            m_f32 = llvm::Type::getFloatTy(m_ctx);
            m_ptr = llvm::PointerType::get(m_ctx, 0);
        }

        void emitKernel(const lower::LoweredFunc& func);

    private:
        struct Scope {
            llvm::Function* function = nullptr;
            std::unordered_map<const ExprNode*, llvm::Value*> vars;
            std::unordered_map<const ir::BufferVar*, llvm::Value*> buffers;
            lower::Analyzer analyzer;
        };

        // --- functions
        llvm::Function* makeImpl(const std::string& name, const FreeSymbols& free, int extraInts);
        void bindImplParams(llvm::Function* impl, const FreeSymbols& free);
        llvm::Function* runtimeFunction(const char* name, llvm::Type* result, std::vector<llvm::Type*> params);

        // --- statements
        void emit(const Stmt& s);
        void emitFor(const StmtNode& s);
        void emitSerialLoop(const StmtNode& s, llvm::Value* begin, llvm::Value* end);
        void emitParallel(const StmtNode& s);
        bool emitVectorized(const StmtNode& s);
        void emitAllocate(const StmtNode& s);
        void emitIf(const StmtNode& s);
        llvm::Value* elementPtr(const ir::BufferVar* buffer, llvm::Value* index);

        // --- expressions
        llvm::Value* scalar(const Expr& e);
        llvm::Value* intBinary(ExprKind kind, const Expr& a, const Expr& b, llvm::Value* x, llvm::Value* y);
        llvm::Value* floatBinary(ExprKind kind, llvm::Value* x, llvm::Value* y);
        llvm::Value* compare(ExprKind kind, bool isFloat, llvm::Value* x, llvm::Value* y);
        llvm::Value* mathCall(ir::CallOp op, const std::vector<llvm::Value*>& args, llvm::Type* type);
        llvm::Value* castValue(llvm::Value* v, ir::DType from, ir::DType to);
        llvm::Type* typeOf(ir::DType t);

        Lanes vec(const Expr& e, llvm::Value* mask);
        llvm::Value* widen(const Lanes& l);
        llvm::Value* vecLoad(const ExprNode& n, llvm::Value* mask);

        llvm::Module& m_module;
        llvm::LLVMContext& m_ctx;
        llvm::IRBuilder<> m_b;
        std::string m_symbol;
        llvm::Type* m_i64;
        llvm::Type* m_f32;
        llvm::PointerType* m_ptr;
        Scope* m_scope = nullptr;
        int m_outlined = 0;
        // Vectorization context.
        const ExprNode* m_vecVar = nullptr;
        unsigned m_lanes = 0;
    };

    llvm::Type* Emitter::typeOf(ir::DType t)
    {
        switch (t) {
        case ir::DType::Bool:
            return llvm::Type::getInt1Ty(m_ctx);
        case ir::DType::Int8:
            return llvm::Type::getInt8Ty(m_ctx);
        case ir::DType::Int32:
            return llvm::Type::getInt32Ty(m_ctx);
        case ir::DType::Int64:
            return m_i64;
        case ir::DType::Float32:
            return m_f32;
        case ir::DType::Float16:
            unsupported("float16 code generation");
        }
        return m_i64;
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
            if (arg->dtype != ir::DType::Float32)
                unsupported("argument " + arg->name + " is not float32");
        // The impl takes the arguments as noalias parameters; the entry unpacks float** args.
        FreeSymbols free;
        for (const ir::BufferRef& arg : func.args)
            free.buffers.push_back(arg.get());
        std::set<const ExprNode*> boundVars;
        std::set<const ir::BufferVar*> boundBuffers(free.buffers.begin(), free.buffers.end());
        FreeSymbols extra;
        collectFree(func.body, boundVars, boundBuffers, extra);
        if (!extra.vars.empty() || !extra.buffers.empty())
            unsupported("the kernel body uses undefined variables or buffers");

        llvm::Function* impl = makeImpl(m_symbol + "_impl", free, 0);
        Scope scope;
        scope.function = impl;
        m_scope = &scope;
        bindImplParams(impl, free);
        m_b.SetInsertPoint(llvm::BasicBlock::Create(m_ctx, "entry", impl));
        emit(func.body);
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

    void Emitter::emit(const Stmt& s)
    {
        if (!s)
            return;
        switch (s->kind) {
        case StmtKind::For:
            emitFor(*s);
            return;
        case StmtKind::Store: {
            if (s->indices.size() != 1)
                unsupported("store to " + s->buffer->name + " before storage flattening");
            llvm::Value* value = scalar(s->value);
            m_b.CreateAlignedStore(value, elementPtr(s->buffer.get(), scalar(s->indices[0])), llvm::Align(4));
            return;
        }
        case StmtKind::Allocate:
            emitAllocate(*s);
            return;
        case StmtKind::IfThenElse:
            emitIf(*s);
            return;
        case StmtKind::Seq:
            for (const Stmt& c : s->seq)
                emit(c);
            return;
        }
    }

    llvm::Value* Emitter::elementPtr(const ir::BufferVar* buffer, llvm::Value* index)
    {
        auto it = m_scope->buffers.find(buffer);
        TS_ASSERT(it != m_scope->buffers.end()) << "buffer " << buffer->name << " not in scope";
        return m_b.CreateInBoundsGEP(m_f32, it->second, index);
    }

    void Emitter::emitFor(const StmtNode& s)
    {
        m_scope->analyzer.bind(s.var, 0, s.extent - 1);
        if (s.forKind == ForKind::Parallel && m_vecVar == nullptr) {
            emitParallel(s);
        } else if (s.forKind == ForKind::Unrolled && s.extent <= kMaxUnroll) {
            for (int64_t i = 0; i < s.extent; ++i) {
                m_scope->vars[s.var.get()] = llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(i));
                emit(s.body);
            }
        } else if (s.forKind != ForKind::Vectorized || !emitVectorized(s)) {
            emitSerialLoop(
                s, llvm::ConstantInt::get(m_i64, 0), llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(s.extent)));
        }
        m_scope->analyzer.unbind(s.var);
    }

    void Emitter::emitSerialLoop(const StmtNode& s, llvm::Value* begin, llvm::Value* end)
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
        emit(s.body);
        llvm::Value* next = m_b.CreateAdd(i, llvm::ConstantInt::get(m_i64, 1), "", true, true);
        i->addIncoming(next, m_b.GetInsertBlock());
        m_b.CreateCondBr(m_b.CreateICmpSLT(next, end), header, exit);
        m_b.SetInsertPoint(exit);
    }

    void Emitter::emitParallel(const StmtNode& s)
    {
        std::set<const ExprNode*> boundVars { s.var.get() };
        std::set<const ir::BufferVar*> boundBuffers;
        FreeSymbols free;
        collectFree(s.body, boundVars, boundBuffers, free);
        const std::string name = m_symbol + "_parallel" + std::to_string(m_outlined++);

        // impl(buffers..., vars..., begin, end) runs the loop over [begin, end) with noalias buffers.
        llvm::Function* impl = makeImpl(name + "_impl", free, 2);
        {
            Scope* outer = m_scope;
            llvm::IRBuilderBase::InsertPoint saved = m_b.saveIP();
            Scope scope;
            scope.function = impl;
            scope.analyzer = outer->analyzer;
            m_scope = &scope;
            bindImplParams(impl, free);
            m_b.SetInsertPoint(llvm::BasicBlock::Create(m_ctx, "entry", impl));
            const unsigned n = static_cast<unsigned>(free.buffers.size() + free.vars.size());
            emitSerialLoop(s, impl->getArg(n), impl->getArg(n + 1));
            m_b.CreateRetVoid();
            m_scope = outer;
            m_b.restoreIP(saved);
        }
        // wrapper(closure, begin, end) unpacks the closure: one 8-byte slot per captured value.
        auto* wrapperType = llvm::FunctionType::get(llvm::Type::getVoidTy(m_ctx), { m_ptr, m_i64, m_i64 }, false);
        auto* wrapper = llvm::Function::Create(wrapperType, llvm::Function::InternalLinkage, name, m_module);
        wrapper->addFnAttr(llvm::Attribute::NoUnwind);
        {
            llvm::IRBuilderBase::InsertPoint saved = m_b.saveIP();
            m_b.SetInsertPoint(llvm::BasicBlock::Create(m_ctx, "entry", wrapper));
            std::vector<llvm::Value*> args;
            size_t slot = 0;
            for (size_t k = 0; k < free.buffers.size(); ++k, ++slot)
                args.push_back(m_b.CreateAlignedLoad(
                    m_ptr, m_b.CreateConstInBoundsGEP1_64(m_i64, wrapper->getArg(0), slot), llvm::Align(8)));
            for (size_t k = 0; k < free.vars.size(); ++k, ++slot)
                args.push_back(m_b.CreateAlignedLoad(
                    m_i64, m_b.CreateConstInBoundsGEP1_64(m_i64, wrapper->getArg(0), slot), llvm::Align(8)));
            args.push_back(wrapper->getArg(1));
            args.push_back(wrapper->getArg(2));
            m_b.CreateCall(impl, args);
            m_b.CreateRetVoid();
            m_b.restoreIP(saved);
        }
        // The caller fills the closure on its stack and hands the loop to the pool.
        const size_t slots = std::max<size_t>(1, free.buffers.size() + free.vars.size());
        llvm::IRBuilder<> entryBuilder(&m_scope->function->getEntryBlock(), m_scope->function->getEntryBlock().begin());
        llvm::AllocaInst* closure
            = entryBuilder.CreateAlloca(llvm::ArrayType::get(m_i64, slots), nullptr, name + ".closure");
        closure->setAlignment(llvm::Align(8));
        size_t slot = 0;
        for (const ir::BufferVar* b : free.buffers)
            m_b.CreateAlignedStore(
                m_scope->buffers.at(b), m_b.CreateConstInBoundsGEP1_64(m_i64, closure, slot++), llvm::Align(8));
        for (const ExprNode* v : free.vars) {
            auto it = m_scope->vars.find(v);
            TS_ASSERT(it != m_scope->vars.end()) << "variable " << v->name << " not in scope";
            m_b.CreateAlignedStore(it->second, m_b.CreateConstInBoundsGEP1_64(m_i64, closure, slot++), llvm::Align(8));
        }
        llvm::Function* parallelFor
            = runtimeFunction("ts_parallel_for", llvm::Type::getVoidTy(m_ctx), { m_ptr, m_ptr, m_i64 });
        m_b.CreateCall(
            parallelFor, { wrapper, closure, llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(s.extent)) });
    }

    void Emitter::emitAllocate(const StmtNode& s)
    {
        const ir::BufferVar* buffer = s.buffer.get();
        if (buffer->dtype != ir::DType::Float32)
            unsupported("buffer " + buffer->name + " is not float32");
        const int64_t elements = buffer->allocatedElements();
        if (elements * 4 <= kMaxStackBytes) {
            llvm::Function* fn = m_scope->function;
            llvm::IRBuilder<> entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
            llvm::AllocaInst* a = entry.CreateAlloca(
                llvm::ArrayType::get(m_f32, static_cast<uint64_t>(elements)), nullptr, buffer->name);
            a->setAlignment(llvm::Align(64));
            m_scope->buffers[buffer] = a;
            emit(s.body);
            return;
        }
        llvm::Function* alloc = runtimeFunction("ts_alloc", m_ptr, { m_i64 });
        llvm::Function* release = runtimeFunction("ts_free", llvm::Type::getVoidTy(m_ctx), { m_ptr });
        llvm::Value* p = m_b.CreateCall(
            alloc, { llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(elements * 4)) }, buffer->name);
        m_scope->buffers[buffer] = p;
        emit(s.body);
        m_b.CreateCall(release, { p });
    }

    void Emitter::emitIf(const StmtNode& s)
    {
        llvm::Function* fn = m_b.GetInsertBlock()->getParent();
        auto* thenBlock = llvm::BasicBlock::Create(m_ctx, "if.then", fn);
        auto* elseBlock = s.elseBody ? llvm::BasicBlock::Create(m_ctx, "if.else", fn) : nullptr;
        auto* done = llvm::BasicBlock::Create(m_ctx, "if.end", fn);
        m_b.CreateCondBr(scalar(s.condition), thenBlock, elseBlock ? elseBlock : done);
        m_b.SetInsertPoint(thenBlock);
        emit(s.body);
        m_b.CreateBr(done);
        if (elseBlock) {
            m_b.SetInsertPoint(elseBlock);
            emit(s.elseBody);
            m_b.CreateBr(done);
        }
        m_b.SetInsertPoint(done);
    }

    // --- vectorization

    bool Emitter::emitVectorized(const StmtNode& loop)
    {
        if (m_vecVar || loop.extent < 2 || loop.extent > 64)
            return false;
        // Only stores (in sequence), each to an address that moves by one element per lane, and loads of a
        // stored buffer only at the very address stored (a lane-wise read-modify-write).
        std::vector<const StmtNode*> stores;
        bool ok = true;
        lower::visitStmts(loop.body, [&](const StmtNode& n) {
            if (n.kind == StmtKind::Store)
                stores.push_back(&n);
            else if (n.kind != StmtKind::Seq)
                ok = false;
        });
        if (!ok || stores.empty())
            return false;
        const ExprNode* v = loop.var.get();
        for (const StmtNode* st : stores) {
            bool pure = false;
            if (st->indices.size() != 1 || m_scope->analyzer.linear(st->indices[0]).coefficientOf(v, &pure) != 1
                || !pure)
                return false;
            for (const StmtNode* other : stores)
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
        for (const StmtNode* st : stores) {
            llvm::Value* value = widen(vec(st->value, nullptr));
            llvm::Value* base = scalar(ir::substitute(st->indices[0], { { loop.var, zero } }));
            m_b.CreateAlignedStore(value, elementPtr(st->buffer.get(), base), llvm::Align(4));
        }
        m_vecVar = nullptr;
        m_lanes = 0;
        return true;
    }

    llvm::Value* Emitter::widen(const Lanes& l)
    {
        return l.uniform ? m_b.CreateVectorSplat(m_lanes, l.value) : l.value;
    }

    llvm::Value* Emitter::vecLoad(const ExprNode& n, llvm::Value* mask)
    {
        auto* type = llvm::FixedVectorType::get(m_f32, m_lanes);
        const Expr& index = n.operands[0];
        bool pure = false;
        const int64_t coef = m_scope->analyzer.linear(index).coefficientOf(m_vecVar, &pure);
        if (pure && coef == 1) {
            llvm::Value* base = scalar(
                ir::rewrite(index, [&](const Expr& x) { return x.get() == m_vecVar ? ir::intImm(0) : Expr(); }));
            llvm::Value* ptr = elementPtr(n.buffer.get(), base);
            if (!mask)
                return m_b.CreateAlignedLoad(type, ptr, llvm::Align(4));
            return m_b.CreateMaskedLoad(type, ptr, llvm::Align(4), mask, llvm::Constant::getNullValue(type));
        }
        llvm::Value* indices = widen(vec(index, nullptr));
        auto it = m_scope->buffers.find(n.buffer.get());
        TS_ASSERT(it != m_scope->buffers.end()) << "buffer " << n.buffer->name;
        llvm::Value* ptrs = m_b.CreateInBoundsGEP(m_f32, it->second, indices);
        llvm::Value* allLanes = mask
            ? mask
            : llvm::ConstantInt::getTrue(llvm::FixedVectorType::get(llvm::Type::getInt1Ty(m_ctx), m_lanes));
        return m_b.CreateMaskedGather(type, ptrs, llvm::Align(4), allLanes, llvm::Constant::getNullValue(type));
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

    // --- scalar expressions

    llvm::Value* Emitter::scalar(const Expr& e)
    {
        const ExprNode& n = *e;
        switch (n.kind) {
        case ExprKind::IntImm:
            return llvm::ConstantInt::get(typeOf(n.dtype), static_cast<uint64_t>(n.intValue), true);
        case ExprKind::FloatImm:
            return llvm::ConstantFP::get(typeOf(n.dtype), n.floatValue);
        case ExprKind::Var: {
            auto it = m_scope->vars.find(e.get());
            TS_ASSERT(it != m_scope->vars.end()) << "variable " << n.name << " not in scope";
            return it->second;
        }
        case ExprKind::BufferLoad: {
            if (n.operands.size() != 1)
                unsupported("load from " + n.buffer->name + " before storage flattening");
            return m_b.CreateAlignedLoad(m_f32, elementPtr(n.buffer.get(), scalar(n.operands[0])), llvm::Align(4));
        }
        case ExprKind::Load:
            unsupported("tensor load " + ir::toString(e) + " in loop IR");
        case ExprKind::Select: {
            llvm::Value* c = scalar(n.operands[0]);
            if (!containsLoad(n.operands[1]) && !containsLoad(n.operands[2]))
                return m_b.CreateSelect(c, scalar(n.operands[1]), scalar(n.operands[2]));
            // A load in a branch may be out of bounds when the branch is not taken (padding): branch.
            llvm::Function* fn = m_b.GetInsertBlock()->getParent();
            auto* thenBlock = llvm::BasicBlock::Create(m_ctx, "sel.then", fn);
            auto* elseBlock = llvm::BasicBlock::Create(m_ctx, "sel.else", fn);
            auto* done = llvm::BasicBlock::Create(m_ctx, "sel.end", fn);
            m_b.CreateCondBr(c, thenBlock, elseBlock);
            m_b.SetInsertPoint(thenBlock);
            llvm::Value* a = scalar(n.operands[1]);
            llvm::BasicBlock* aEnd = m_b.GetInsertBlock();
            m_b.CreateBr(done);
            m_b.SetInsertPoint(elseBlock);
            llvm::Value* b = scalar(n.operands[2]);
            llvm::BasicBlock* bEnd = m_b.GetInsertBlock();
            m_b.CreateBr(done);
            m_b.SetInsertPoint(done);
            llvm::PHINode* phi = m_b.CreatePHI(a->getType(), 2);
            phi->addIncoming(a, aEnd);
            phi->addIncoming(b, bEnd);
            return phi;
        }
        case ExprKind::Cast:
            return castValue(scalar(n.operands[0]), n.operands[0]->dtype, n.dtype);
        case ExprKind::Not:
            return m_b.CreateNot(scalar(n.operands[0]));
        case ExprKind::Call: {
            std::vector<llvm::Value*> args;
            for (const Expr& a : n.operands)
                args.push_back(scalar(a));
            return mathCall(n.callOp, args, m_f32);
        }
        default:
            break;
        }
        llvm::Value* x = scalar(n.operands[0]);
        llvm::Value* y = scalar(n.operands[1]);
        const ir::DType t = n.operands[0]->dtype;
        if (ir::isComparison(n.kind))
            return compare(n.kind, ir::isFloat(t), x, y);
        if (ir::isFloat(t))
            return floatBinary(n.kind, x, y);
        return intBinary(n.kind, n.operands[0], n.operands[1], x, y);
    }

    llvm::Value* Emitter::intBinary(ExprKind kind, const Expr& a, const Expr& b, llvm::Value* x, llvm::Value* y)
    {
        switch (kind) {
        case ExprKind::Add:
            return m_b.CreateAdd(x, y);
        case ExprKind::Sub:
            return m_b.CreateSub(x, y);
        case ExprKind::Mul:
            return m_b.CreateMul(x, y);
        case ExprKind::Div:
            return m_b.CreateSDiv(x, y);
        case ExprKind::Mod:
            return m_b.CreateSRem(x, y);
        case ExprKind::FloorDiv:
        case ExprKind::FloorMod: {
            const lower::Interval ra = m_scope->analyzer.bound(a);
            const lower::Interval rb = m_scope->analyzer.bound(b);
            if (ra.bounded && rb.bounded && ra.lo >= 0 && rb.lo > 0) // both non-negative: unsigned, shifts for 2^k
                return kind == ExprKind::FloorDiv ? m_b.CreateUDiv(x, y) : m_b.CreateURem(x, y);
            llvm::Value* q = m_b.CreateSDiv(x, y);
            llvm::Value* r = m_b.CreateSRem(x, y);
            llvm::Value* zero = llvm::Constant::getNullValue(x->getType());
            llvm::Value* adjust = m_b.CreateAnd(
                m_b.CreateICmpNE(r, zero), m_b.CreateICmpNE(m_b.CreateICmpSLT(r, zero), m_b.CreateICmpSLT(y, zero)));
            if (kind == ExprKind::FloorDiv)
                return m_b.CreateSub(q, m_b.CreateZExt(adjust, x->getType()));
            return m_b.CreateSelect(adjust, m_b.CreateAdd(r, y), r);
        }
        case ExprKind::Min:
            return m_b.CreateSelect(m_b.CreateICmpSLT(x, y), x, y);
        case ExprKind::Max:
            return m_b.CreateSelect(m_b.CreateICmpSGT(x, y), x, y);
        case ExprKind::And:
            return m_b.CreateAnd(x, y);
        case ExprKind::Or:
            return m_b.CreateOr(x, y);
        default:
            unsupported(std::string("integer operator ") + std::string(ir::toString(kind)));
        }
    }

    llvm::Value* Emitter::floatBinary(ExprKind kind, llvm::Value* x, llvm::Value* y)
    {
        switch (kind) {
        case ExprKind::Add:
            return m_b.CreateFAdd(x, y);
        case ExprKind::Sub:
            return m_b.CreateFSub(x, y);
        case ExprKind::Mul:
            return m_b.CreateFMul(x, y);
        case ExprKind::Div:
            return m_b.CreateFDiv(x, y);
        case ExprKind::Min:
            return m_b.CreateSelect(m_b.CreateFCmpOLT(x, y), x, y);
        case ExprKind::Max:
            return m_b.CreateSelect(m_b.CreateFCmpOGT(x, y), x, y);
        default:
            unsupported(std::string("float operator ") + std::string(ir::toString(kind)));
        }
    }

    llvm::Value* Emitter::compare(ExprKind kind, bool isFloat, llvm::Value* x, llvm::Value* y)
    {
        using P = llvm::CmpInst::Predicate;
        P p = P::ICMP_EQ;
        switch (kind) {
        case ExprKind::EQ:
            p = isFloat ? P::FCMP_OEQ : P::ICMP_EQ;
            break;
        case ExprKind::NE:
            p = isFloat ? P::FCMP_UNE : P::ICMP_NE;
            break;
        case ExprKind::LT:
            p = isFloat ? P::FCMP_OLT : P::ICMP_SLT;
            break;
        case ExprKind::LE:
            p = isFloat ? P::FCMP_OLE : P::ICMP_SLE;
            break;
        case ExprKind::GT:
            p = isFloat ? P::FCMP_OGT : P::ICMP_SGT;
            break;
        case ExprKind::GE:
            p = isFloat ? P::FCMP_OGE : P::ICMP_SGE;
            break;
        default:
            break;
        }
        return isFloat ? m_b.CreateFCmp(p, x, y) : m_b.CreateICmp(p, x, y);
    }

    llvm::Value* Emitter::mathCall(ir::CallOp op, const std::vector<llvm::Value*>& args, llvm::Type* type)
    {
        auto intrinsic = [&](llvm::Intrinsic::ID id) {
            return m_b.CreateCall(llvm::Intrinsic::getDeclaration(&m_module, id, { type }), args);
        };
        llvm::Value* one = llvm::ConstantFP::get(type, 1.0);
        switch (op) {
        case ir::CallOp::Exp:
            return intrinsic(llvm::Intrinsic::exp);
        case ir::CallOp::Log:
            return intrinsic(llvm::Intrinsic::log);
        case ir::CallOp::Sqrt:
            return intrinsic(llvm::Intrinsic::sqrt);
        case ir::CallOp::Rsqrt:
            return m_b.CreateFDiv(one, intrinsic(llvm::Intrinsic::sqrt));
        case ir::CallOp::Abs:
            return intrinsic(llvm::Intrinsic::fabs);
        case ir::CallOp::Pow:
            return intrinsic(llvm::Intrinsic::pow);
        case ir::CallOp::Sigmoid: {
            llvm::Value* e = m_b.CreateCall(llvm::Intrinsic::getDeclaration(&m_module, llvm::Intrinsic::exp, { type }),
                { m_b.CreateFNeg(args[0]) });
            return m_b.CreateFDiv(one, m_b.CreateFAdd(one, e));
        }
        case ir::CallOp::Tanh:
        case ir::CallOp::Erf: {
            // No LLVM intrinsic: libm, lane by lane.
            llvm::Function* f = runtimeFunction(op == ir::CallOp::Tanh ? "tanhf" : "erff", m_f32, { m_f32 });
            if (!type->isVectorTy())
                return m_b.CreateCall(f, args);
            llvm::Value* out = llvm::UndefValue::get(type);
            for (unsigned i = 0; i < m_lanes; ++i)
                out = m_b.CreateInsertElement(out, m_b.CreateCall(f, { m_b.CreateExtractElement(args[0], i) }), i);
            return out;
        }
        }
        unsupported("math function");
    }

    llvm::Value* Emitter::castValue(llvm::Value* v, ir::DType from, ir::DType to)
    {
        llvm::Type* target = typeOf(to);
        if (v->getType()->isVectorTy())
            target = llvm::FixedVectorType::get(target, m_lanes);
        if (ir::isFloat(from) && ir::isFloat(to))
            return m_b.CreateFPCast(v, target);
        if (ir::isFloat(from))
            return m_b.CreateFPToSI(v, target);
        if (ir::isFloat(to))
            return from == ir::DType::Bool ? m_b.CreateUIToFP(v, target) : m_b.CreateSIToFP(v, target);
        return from == ir::DType::Bool ? m_b.CreateZExtOrTrunc(v, target) : m_b.CreateSExtOrTrunc(v, target);
    }
} // namespace

Expected<std::unique_ptr<llvm::Module>> emitModule(
    const lower::LoweredFunc& func, const std::string& symbol, llvm::LLVMContext& context)
{
    auto module = std::make_unique<llvm::Module>(symbol, context);
    try {
        Emitter emitter(*module, symbol);
        emitter.emitKernel(func);
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
