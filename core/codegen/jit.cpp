// The host target, the O3 pipeline, object emission and the process-wide ORC LLJIT.
#include "core/codegen/codegen.h"
#include "core/codegen/llvm_emitter.h"
#include "core/codegen/runtime.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/SubtargetFeature.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <atomic>
#include <mutex>

namespace ts::codegen {

namespace {
    std::string errorText(llvm::Error error)
    {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << error;
        return os.str();
    }

    void initializeLlvm()
    {
        static std::once_flag once;
        std::call_once(once, [] {
            llvm::InitializeNativeTarget();
            llvm::InitializeNativeTargetAsmPrinter();
            llvm::InitializeNativeTargetAsmParser();
        });
    }

    llvm::SubtargetFeatures hostFeatures()
    {
        llvm::SubtargetFeatures out;
        llvm::StringMap<bool> features;
        if (llvm::sys::getHostCPUFeatures(features))
            for (const auto& f : features)
                out.AddFeature(f.first(), f.second);
        return out;
    }

    llvm::orc::JITTargetMachineBuilder hostBuilder()
    {
        initializeLlvm();
        llvm::orc::JITTargetMachineBuilder builder { llvm::Triple(llvm::sys::getProcessTriple()) };
        builder.setCPU(llvm::sys::getHostCPUName().str());
        builder.getFeatures() = hostFeatures();
        builder.setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
        builder.getOptions().AllowFPOpFusion = llvm::FPOpFusion::Fast; // a*b+c -> fma, as TVM compiles
        return builder;
    }

    // One target machine per compiling thread (a TargetMachine is not shared between concurrent compiles).
    Expected<llvm::TargetMachine*> threadTargetMachine()
    {
        thread_local std::unique_ptr<llvm::TargetMachine> machine;
        if (!machine) {
            auto created = hostBuilder().createTargetMachine();
            if (!created)
                return makeError(ErrorKind::Internal, "LLVM target machine: " + errorText(created.takeError()));
            machine = std::move(*created);
        }
        return machine.get();
    }

    void optimize(llvm::Module& module, llvm::TargetMachine* machine)
    {
        llvm::LoopAnalysisManager lam;
        llvm::FunctionAnalysisManager fam;
        llvm::CGSCCAnalysisManager cgam;
        llvm::ModuleAnalysisManager mam;
        llvm::PipelineTuningOptions tuning;
        tuning.LoopVectorization = true;
        tuning.SLPVectorization = true;
        // Unrolling is the schedule's decision (unroll annotations, auto_unroll_max_step), made explicit in
        // the loop IR. LLVM's own full unroller on top of it took 20 s on some random schedules.
        tuning.LoopUnrolling = false;
        llvm::PassBuilder builder(machine, tuning);
        builder.registerModuleAnalyses(mam);
        builder.registerCGSCCAnalyses(cgam);
        builder.registerFunctionAnalyses(fam);
        builder.registerLoopAnalyses(lam);
        builder.crossRegisterProxies(lam, fam, cgam, mam);
        llvm::ModulePassManager pipeline = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
        pipeline.run(module, mam);
    }

    Expected<std::unique_ptr<llvm::Module>> buildModule(
        const lower::LoweredFunc& func, const std::string& symbol, llvm::LLVMContext& context, bool optimized)
    {
        TS_TRY(llvm::TargetMachine * machine, threadTargetMachine());
        TS_TRY(std::unique_ptr<llvm::Module> module, emitModule(func, symbol, context));
        module->setDataLayout(machine->createDataLayout());
        module->setTargetTriple(machine->getTargetTriple().str());
        for (llvm::Function& f : *module)
            if (!f.isDeclaration()) {
                f.addFnAttr("target-cpu", machine->getTargetCPU());
                f.addFnAttr("target-features", machine->getTargetFeatureString());
                // The vectors the schedule asks for are as wide as the hardware has (AVX-512: 512 bits); LLVM's
                // tuning for some CPUs (znver3 in LLVM 15, which it reports for Zen 4) would halve them.
                if (machine->getTargetFeatureString().contains("+avx512f"))
                    f.addFnAttr("prefer-vector-width", "512");
            }
        if (optimized)
            optimize(*module, machine);
        return module;
    }

    std::string nextSymbol()
    {
        static std::atomic<uint64_t> counter { 0 };
        return "ts_kernel_" + std::to_string(counter++);
    }

    class Jit {
    public:
        static Expected<Jit*> instance()
        {
            static std::once_flag once;
            static std::unique_ptr<Jit> jit;
            static Error failure;
            std::call_once(once, [] {
                auto created = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(hostBuilder()).create();
                if (!created) {
                    failure = makeError(ErrorKind::Internal, "LLVM JIT: " + errorText(created.takeError()));
                    return;
                }
                jit.reset(new Jit(std::move(*created)));
            });
            if (!jit)
                return failure;
            return jit.get();
        }

        llvm::orc::LLJIT& lljit() { return *m_jit; }

    private:
        explicit Jit(std::unique_ptr<llvm::orc::LLJIT> jit)
            : m_jit(std::move(jit))
        {
            auto& dylib = m_jit->getMainJITDylib();
            llvm::orc::MangleAndInterner mangle(m_jit->getExecutionSession(), m_jit->getDataLayout());
            llvm::orc::SymbolMap runtime;
            auto add = [&](const char* name, void* address) {
                runtime[mangle(name)] = llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address),
                    llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
            };
            add("ts_parallel_for", reinterpret_cast<void*>(&ts_parallel_for));
            add("ts_alloc", reinterpret_cast<void*>(&ts_alloc));
            add("ts_free", reinterpret_cast<void*>(&ts_free));
            llvm::cantFail(dylib.define(llvm::orc::absoluteSymbols(std::move(runtime))));
            // libm (expf, tanhf, ...) and anything else the process has.
            dylib.addGenerator(llvm::cantFail(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                m_jit->getDataLayout().getGlobalPrefix())));
        }

        std::unique_ptr<llvm::orc::LLJIT> m_jit;
    };

    class JitKernel : public CompiledKernel {
    public:
        JitKernel(KernelFn entry, llvm::orc::ResourceTrackerSP tracker)
            : m_tracker(std::move(tracker))
        {
            m_entry = entry;
        }
        ~JitKernel() override
        {
            if (m_tracker)
                llvm::consumeError(m_tracker->remove()); // frees the code
        }

    private:
        llvm::orc::ResourceTrackerSP m_tracker;
    };
} // namespace

std::string hostCpuName()
{
    initializeLlvm();
    return llvm::sys::getHostCPUName().str();
}

std::string hostCpuFeatures() { return hostFeatures().getString(); }

Expected<std::string> emitLlvmIr(const lower::LoweredFunc& func, bool optimized)
{
    llvm::LLVMContext context;
    TS_TRY(std::unique_ptr<llvm::Module> module, buildModule(func, func.name, context, optimized));
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os, nullptr);
    return os.str();
}

Expected<ObjectCode> compileToObject(const lower::LoweredFunc& func)
{
    llvm::LLVMContext context;
    ObjectCode object;
    object.symbol = nextSymbol();
    TS_TRY(std::unique_ptr<llvm::Module> module, buildModule(func, object.symbol, context, true));
    TS_TRY(llvm::TargetMachine * machine, threadTargetMachine());
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream os(buffer);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, os, nullptr, llvm::CGFT_ObjectFile))
        return makeError(ErrorKind::Internal, "the LLVM target cannot emit object files");
    codegen.run(*module);
    object.bytes.assign(buffer.begin(), buffer.end());
    return object;
}

Expected<std::shared_ptr<CompiledKernel>> loadObject(const ObjectCode& object)
{
    TS_TRY(Jit * jit, Jit::instance());
    auto& dylib = jit->lljit().getMainJITDylib();
    llvm::orc::ResourceTrackerSP tracker = dylib.createResourceTracker();
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
        llvm::StringRef(object.bytes.data(), object.bytes.size()), object.symbol);
    if (auto error = jit->lljit().addObjectFile(tracker, std::move(buffer)))
        return makeError(ErrorKind::Internal, "linking " + object.symbol + ": " + errorText(std::move(error)));
    auto symbol = jit->lljit().lookup(object.symbol);
    if (!symbol) {
        llvm::consumeError(tracker->remove());
        return makeError(ErrorKind::Internal, "looking up " + object.symbol + ": " + errorText(symbol.takeError()));
    }
    auto entry = reinterpret_cast<KernelFn>(static_cast<uintptr_t>(symbol->getValue()));
    return std::shared_ptr<CompiledKernel>(std::make_shared<JitKernel>(entry, std::move(tracker)));
}

Expected<std::shared_ptr<CompiledKernel>> compile(const lower::LoweredFunc& func)
{
    TS_TRY(ObjectCode object, compileToObject(func));
    return loadObject(object);
}

} // namespace ts::codegen
