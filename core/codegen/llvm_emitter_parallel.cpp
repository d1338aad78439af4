// Parallel loops: the loop is outlined into impl(buffers..., vars..., begin, end) with noalias buffer
// parameters, a wrapper(closure, begin, end) unpacks the captured values, and the caller hands the wrapper
// and a closure on its stack to ts_parallel_for (runtime.h), which splits [0, extent) over the kernel pool.
#include "core/codegen/llvm_emitter_private.h"
#include "core/support/assert.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;
using lower::Stmt;

namespace {
    class FreeSymbolCollector : public lower::StmtVisitor {
    public:
        FreeSymbolCollector(std::set<const ExprNode*> boundVars, std::set<const ir::BufferVar*> boundBuffers)
            : m_boundVars(std::move(boundVars))
            , m_boundBuffers(std::move(boundBuffers))
        {
        }

        FreeSymbols result;

    private:
        void useBuffer(const ir::BufferVar* b)
        {
            if (!m_boundBuffers.count(b)
                && std::find(result.buffers.begin(), result.buffers.end(), b) == result.buffers.end())
                result.buffers.push_back(b);
        }

        void visitFor(const lower::StmtNode& s) override
        {
            m_boundVars.insert(s.var.get());
            visit(s.body);
        }

        void visitStore(const lower::StmtNode& s) override
        {
            useBuffer(s.buffer.get());
            StmtVisitor::visitStore(s);
        }

        void visitAllocate(const lower::StmtNode& s) override
        {
            m_boundBuffers.insert(s.buffer.get());
            visit(s.body);
        }

        void visitExpr(const Expr& e) override
        {
            ir::postOrderVisit(e, [&](const ExprNode& n) {
                if (n.kind == ExprKind::Var && !m_boundVars.count(&n)
                    && std::find(result.vars.begin(), result.vars.end(), &n) == result.vars.end())
                    result.vars.push_back(&n);
                if (n.kind == ExprKind::BufferLoad)
                    useBuffer(n.buffer.get());
            });
        }

        std::set<const ExprNode*> m_boundVars;
        std::set<const ir::BufferVar*> m_boundBuffers;
    };
} // namespace

FreeSymbols freeSymbols(const Stmt& s, std::set<const ExprNode*> boundVars, std::set<const ir::BufferVar*> boundBuffers)
{
    FreeSymbolCollector collector(std::move(boundVars), std::move(boundBuffers));
    collector.visit(s);
    return std::move(collector.result);
}

void Emitter::emitParallel(const lower::StmtNode& s)
{
    const FreeSymbols free = freeSymbols(s.body, { s.var.get() }, {});
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
    m_b.CreateCall(parallelFor, { wrapper, closure, llvm::ConstantInt::get(m_i64, static_cast<uint64_t>(s.extent)) });
    forgetMemory(); // the loop wrote the buffers
}

} // namespace ts::codegen
