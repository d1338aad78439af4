// The LLVM CPU code generator: the target machine for a Target, the optimization pipeline (O3's, trimmed), object and
// assembly emission, and the process-wide ORC LLJIT that links objects into this process.
#include "core/codegen/llvm_cpu_generator.h"

#include "core/codegen/llvm_emitter.h"
#include "core/codegen/llvm_passes.h"
#include "core/codegen/runtime.h"
#include "core/support/strings.h"

#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/SubtargetFeature.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>

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

    // The target machine for a target, its CPU name checked against the CPUs LLVM knows for the triple.
    Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder(const target::Target& target)
    {
        initializeLlvm();
        const llvm::Triple triple(target.triple.empty() ? llvm::sys::getProcessTriple() : target.triple);
        std::string lookupError;
        const llvm::Target* llvmTarget = llvm::TargetRegistry::lookupTarget(triple.str(), lookupError);
        if (!llvmTarget)
            return makeError(
                ErrorKind::Unsupported, "no LLVM target for " + triple.str() + " in this build (" + lookupError + ")");
        std::unique_ptr<llvm::MCSubtargetInfo> info(llvmTarget->createMCSubtargetInfo(triple.str(), "", ""));
        if (!target.cpuName.empty() && !info->isCPUStringValid(target.cpuName))
            return makeError(ErrorKind::InvalidArgument,
                "LLVM does not know the CPU \"" + target.cpuName + "\" for " + triple.str());
        // A feature LLVM does not know is ignored, with LLVM's warning on stderr.
        const llvm::SubtargetFeatures features(target.features);
        llvm::orc::JITTargetMachineBuilder builder { triple };
        builder.setCPU(target.cpuName);
        builder.getFeatures() = features;
        builder.setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
        // Position-independent code, so that an object (compileToObject) links into a shared library as well as
        // into a JIT: what export-library builds (core/runtime/library_export.h). Local data stays RIP-relative.
        builder.setRelocationModel(llvm::Reloc::PIC_);
        builder.getOptions().AllowFPOpFusion = llvm::FPOpFusion::Fast; // a*b+c -> fma, as TVM compiles
        return builder;
    }

    // One target machine per compiling thread and target (a TargetMachine is not shared between
    // concurrent compiles).
    Expected<llvm::TargetMachine*> threadTargetMachine(const target::Target& target)
    {
        thread_local std::map<std::string, std::unique_ptr<llvm::TargetMachine>> machines;
        const std::string key = target.triple + "|" + target.cpuName + "|" + target.features;
        auto it = machines.find(key);
        if (it == machines.end()) {
            TS_TRY(llvm::orc::JITTargetMachineBuilder builder, machineBuilder(target));
            auto created = builder.createTargetMachine();
            if (!created)
                return makeError(ErrorKind::Internal, "LLVM target machine: " + errorText(created.takeError()));
            it = machines.emplace(key, std::move(*created)).first;
        }
        return it->second.get();
    }

    // LLVM 15's O3 module pipeline (as `opt -passes='default<O3>' -print-pipeline-passes` prints it) less the
    // passes that do not pay for generated kernels, measured on random schedules (docs/schedules.md,
    // "Compile latency"):
    // - loop-idiom: turns a loop of stores into memset; its store scans were 10-15% of the middle end on
    //   unrolled bodies, and a kernel's zero-fill is a few vector stores;
    // - loop-load-elim: forwards a store to a load one iteration later, which generated kernels do not do
    //   (their accumulators stay in registers through LICM); its dependence analysis is quadratic in a loop
    //   body's memory accesses, 10-25% of the time on unrolled bodies;
    // - indvars: rewrites induction variables into the canonical form the emitter already gives every loop
    //   (an i64 from 0 to its extent); it cost as much as any pass on unrolled bodies (SCEV for every
    //   address), and the hot loops of TVM's own records compile to the same instructions without it;
    // - loop-unroll-full and loop-unroll: unrolling is the schedule's decision, made in the loop IR; LLVM's
    //   full unroller on top of it took 20 s on some random schedules;
    // - dse: the emitter already erases a store overwritten before it is read within a block (Emitter::
    //   storeElements), and EraseOverwrittenStores, in DSE's place, the accumulator zero-fills that LICM makes
    //   dead across blocks; LLVM's DSE found nothing more on the slowest random builds (the same optimized
    //   IR) while its alias walk over an unrolled body's stores took a quarter of the middle end;
    // - coroutine and OpenMP passes: nothing to do here.
    // Our own passes run where the optimizer-last extension point would put them.
    constexpr const char* kPipeline[] = {
        "annotation2metadata",
        "forceattrs",
        "inferattrs",
        "function<eager-inv>(lower-expect,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
        "no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts>,sroa,"
        "early-cse<>,callsite-splitting)",
        "ipsccp",
        "called-value-propagation",
        "globalopt",
        "function(mem2reg)",
        "deadargelim",
        "function<eager-inv>(instcombine,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
        "switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts>)",
        "require<globals-aa>",
        "function(invalidate<aa>)",
        "require<profile-summary>",
        "cgscc(devirt<4>(inline<only-mandatory>,inline,function-attrs,argpromotion,function<eager-inv>(sroa,"
        "early-cse<memssa>,speculative-execution,jump-threading,correlated-propagation,simplifycfg<bonus-inst-"
        "threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-"
        "insts;no-sink-common-insts>,instcombine,aggressive-instcombine,libcalls-shrinkwrap,tailcallelim,"
        "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-"
        "loops;no-hoist-common-insts;no-sink-common-insts>,reassociate,require<opt-remark-emit>,loop-mssa(loop-"
        "instsimplify,loop-simplifycfg,licm<no-allowspeculation>,loop-rotate,licm<allowspeculation>,simple-loop-"
        "unswitch<nontrivial;trivial>),simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-"
        "icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts>,instcombine,loop(loop-"
        "deletion),sroa,mldst-motion<no-split-footer-bb>,gvn<>,sccp,bdce,instcombine,jump-threading,"
        "correlated-propagation,adce,ts-erase-overwritten-stores,memcpyopt,loop-mssa(licm<allowspeculation>),"
        "simplifycfg<bonus-inst-"
        "threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;hoist-common-insts;"
        "sink-common-insts>,instcombine)))",
        "globalopt",
        "globaldce",
        "elim-avail-extern",
        "rpo-function-attrs",
        "recompute-globalsaa",
        "function<eager-inv>(float2int,lower-constant-intrinsics,loop(loop-rotate,loop-deletion),loop-distribute,"
        "inject-tli-mappings,loop-vectorize<no-interleave-forced-only;no-vectorize-forced-only;>,instcombine,"
        "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;switch-to-lookup;no-keep-"
        "loops;hoist-common-insts;sink-common-insts>,slp-vectorizer,vector-combine,instcombine,transform-warning,"
        "instcombine,require<opt-remark-emit>,loop-mssa(licm<allowspeculation>),alignment-from-assumptions,loop-"
        "sink,instsimplify,div-rem-pairs,tailcallelim,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
        "switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts>)",
        "function(ts-rematerialize-loads,ts-widen-odd-vector-phis)",
        "globaldce",
        "constmerge",
        "rel-lookup-table-converter",
    };

    Expected<void> optimize(llvm::Module& module, llvm::TargetMachine* machine)
    {
        llvm::LoopAnalysisManager lam;
        llvm::FunctionAnalysisManager fam;
        llvm::CGSCCAnalysisManager cgam;
        llvm::ModuleAnalysisManager mam;
        llvm::PassBuilder builder(machine); // tuning options shape only the built-in pipelines; kPipeline is text
        builder.registerPipelineParsingCallback([](llvm::StringRef name, llvm::FunctionPassManager& passes,
                                                    llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
            if (name == "ts-rematerialize-loads")
                passes.addPass(RematerializeLoads());
            else if (name == "ts-erase-overwritten-stores")
                passes.addPass(EraseOverwrittenStores());
            else if (name == "ts-widen-odd-vector-phis")
                passes.addPass(WidenOddVectorPhis());
            else
                return false;
            return true;
        });
        builder.registerModuleAnalyses(mam);
        builder.registerCGSCCAnalyses(cgam);
        builder.registerFunctionAnalyses(fam);
        builder.registerLoopAnalyses(lam);
        builder.crossRegisterProxies(lam, fam, cgam, mam);
        static const std::string text = [] {
            std::string t;
            for (const char* part : kPipeline)
                t += (t.empty() ? "" : ",") + std::string(part);
            return t;
        }();
        llvm::ModulePassManager pipeline;
        if (llvm::Error error = builder.parsePassPipeline(pipeline, text))
            return makeError(ErrorKind::Internal, "LLVM pass pipeline: " + errorText(std::move(error)));
        pipeline.run(module, mam);
        // Our own passes rewrite IR; a broken module would compile to a wrong kernel, so it is an error.
        std::string broken;
        llvm::raw_string_ostream os(broken);
        if (llvm::verifyModule(module, &os))
            return makeError(ErrorKind::Internal, "the optimized LLVM module is invalid: " + os.str());
        return {};
    }

    Expected<std::unique_ptr<llvm::Module>> buildModule(const lower::LoweredFunc& func, const std::string& symbol,
        llvm::LLVMContext& context, bool optimized, const target::Target& target)
    {
        TS_TRY(llvm::TargetMachine * machine, threadTargetMachine(target));
        TS_TRY(std::unique_ptr<llvm::Module> module, emitModule(func, symbol, context));
        module->setDataLayout(machine->createDataLayout());
        module->setTargetTriple(machine->getTargetTriple().str());
        for (llvm::Function& f : *module)
            if (!f.isDeclaration()) {
                f.addFnAttr("target-cpu", machine->getTargetCPU());
                f.addFnAttr("target-features", machine->getTargetFeatureString());
                // The vectors the schedule asks for are as wide as the target's vector unit (AVX-512: 512
                // bits); LLVM's tuning for some CPUs (znver3 in LLVM 15, which it reports for Zen 4) would
                // halve them.
                if (target.vectorBytes >= 64 && machine->getTargetFeatureString().contains("+avx512f"))
                    f.addFnAttr("prefer-vector-width", "512");
            }
        if (optimized)
            TS_CHECK(optimize(*module, machine));
        return module;
    }

    std::string nextSymbol()
    {
        static std::atomic<uint64_t> counter { 0 };
        return "ts_kernel_" + std::to_string(counter++);
    }

    // TUNESCOPE_PERF_JITDUMP=1 names each linked kernel's functions to `perf` (a jit-PID.dump file, in
    // $JITDUMPDIR or ~/.debug/jit): `perf record -k 1`, then `perf inject --jit`, and `perf annotate` shows
    // the kernel's hot instructions. Off by default: the dump file grows with every kernel linked.
    bool perfJitDump()
    {
        const char* value = std::getenv("TUNESCOPE_PERF_JITDUMP");
        return value && *value && std::string_view(value) != "0";
    }

    // The linking layer LLJIT makes on this platform (RuntimeDyld) with LLVM's perf listener registered.
    llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> perfListeningLayer(
        llvm::orc::ExecutionSession& session, const llvm::Triple&)
    {
        auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
            session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
        if (llvm::JITEventListener* perf = llvm::JITEventListener::createPerfJITEventListener())
            layer->registerJITEventListener(*perf);
        return std::unique_ptr<llvm::orc::ObjectLayer>(std::move(layer));
    }

    class Jit {
    public:
        static Expected<Jit*> instance()
        {
            static std::once_flag once;
            static std::unique_ptr<Jit> jit;
            static Error failure;
            std::call_once(once, [] {
                // The JIT links into this process, so it is for this machine.
                auto builder = machineBuilder(target::Target::host());
                if (!builder) {
                    failure = builder.error();
                    return;
                }
                llvm::orc::LLJITBuilder jitBuilder;
                jitBuilder.setJITTargetMachineBuilder(std::move(*builder));
                if (perfJitDump())
                    jitBuilder.setObjectLinkingLayerCreator(perfListeningLayer);
                auto created = jitBuilder.create();
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
        JitKernel(
            KernelFn entry, KernelFn setup, std::vector<MemoryRegion> statics, llvm::orc::ResourceTrackerSP tracker)
            : m_tracker(std::move(tracker))
        {
            m_entry = entry;
            m_setup = setup;
            m_statics = std::move(statics);
        }
        ~JitKernel() override
        {
            if (m_tracker)
                llvm::consumeError(m_tracker->remove()); // frees the code
        }

    private:
        llvm::orc::ResourceTrackerSP m_tracker;
    };

    Expected<std::string> llvmSource(const lower::LoweredFunc& func, bool optimized, const target::Target& target)
    {
        llvm::LLVMContext context;
        TS_TRY(std::unique_ptr<llvm::Module> module, buildModule(func, func.name, context, optimized, target));
        std::string text;
        llvm::raw_string_ostream os(text);
        module->print(os, nullptr);
        return os.str();
    }

    using FileBytes = llvm::SmallVector<char, 0>;

    // The module for the function under the symbol, optimized, through the target's code generator into a
    // file of the type: an object file or assembly text.
    Expected<FileBytes> llvmEmit(const lower::LoweredFunc& func, const std::string& symbol,
        const target::Target& target, llvm::CodeGenFileType fileType)
    {
        llvm::LLVMContext context;
        TS_TRY(std::unique_ptr<llvm::Module> module, buildModule(func, symbol, context, true, target));
        TS_TRY(llvm::TargetMachine * machine, threadTargetMachine(target));
        FileBytes buffer;
        llvm::raw_svector_ostream os(buffer);
        llvm::legacy::PassManager codegen;
        if (machine->addPassesToEmitFile(codegen, os, nullptr, fileType))
            return makeError(ErrorKind::Internal,
                std::string("the LLVM target cannot emit ")
                    + (fileType == llvm::CGFT_ObjectFile ? "object files" : "assembly"));
        codegen.run(*module);
        return buffer;
    }

    Expected<ObjectCode> llvmObject(const lower::LoweredFunc& func, const target::Target& target)
    {
        ObjectCode object;
        object.symbol = nextSymbol();
        object.hasSetup = func.setup != nullptr;
        TS_TRY(FileBytes bytes, llvmEmit(func, object.symbol, target, llvm::CGFT_ObjectFile));
        object.bytes.assign(bytes.begin(), bytes.end());
        return object;
    }

    Expected<std::string> llvmAssembly(const lower::LoweredFunc& func, const target::Target& target)
    {
        TS_TRY(FileBytes text, llvmEmit(func, func.name, target, llvm::CGFT_AssemblyFile));
        return std::string(text.begin(), text.end());
    }

    // Instruction set extensions a kernel's code may use (vector, FMA, bit manipulation, crypto). Others
    // that a CPU model implies (mwaitx, pku, rdpru, wbnoinvd, ...) are system instructions generated code
    // never contains, and hypervisors often hide them: a guest whose CPU LLVM calls znver3 lacks four.
    bool isComputeExtension(const std::string& feature)
    {
        static const char* const kPrefixes[] = { "sse", "ssse3", "avx", "amx", "fma", "f16c", "xop", "bmi", "tbm",
            "popcnt", "lzcnt", "aes", "vaes", "pclmul", "vpclmulqdq", "gfni", "sha", "adx", "movbe", "cx16" };
        return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
            [&](const char* prefix) { return feature.rfind(prefix, 0) == 0; });
    }

    // The compute extensions the target's CPU and features enable that the host lacks: the host's list
    // names each extension LLVM knows, + or - (tuning flags are not in it).
    Expected<void> cpuRunsHere(const target::Target& target)
    {
        const target::Target& host = target::Target::host();
        const llvm::Triple wanted(target.triple.empty() ? host.triple : target.triple);
        if (wanted.getArch() != llvm::Triple(host.triple).getArch())
            return makeError(ErrorKind::InvalidArgument,
                "code for " + wanted.str() + " cannot run on this " + host.triple + " machine");
        TS_TRY(llvm::TargetMachine * machine, threadTargetMachine(target));
        const llvm::MCSubtargetInfo* info = machine->getMCSubtargetInfo();
        std::vector<std::string> missing;
        for (const std::string& f : split(host.features, ','))
            if (f.size() > 1 && f[0] == '-' && isComputeExtension(f.substr(1))
                && info->checkFeatures("+" + f.substr(1)))
                missing.push_back(f.substr(1));
        std::sort(missing.begin(), missing.end());
        if (missing.empty())
            return {};
        return makeError(ErrorKind::InvalidArgument,
            "code for " + (target.cpuName.empty() ? std::string("the generic CPU") : target.cpuName) + " needs "
                + join(missing, ", ") + ", which this CPU (" + host.cpuName
                + ") lacks: its kernels would die of an illegal instruction here");
    }

    class LlvmCpuGenerator : public CodeGenerator {
    public:
        explicit LlvmCpuGenerator(target::Target target)
            : m_target(std::move(target))
        {
        }

        const target::Target& target() const override { return m_target; }
        Expected<std::string> source(const lower::LoweredFunc& func, bool optimized) override
        {
            return llvmSource(func, optimized, m_target);
        }
        Expected<std::string> assembly(const lower::LoweredFunc& func) override { return llvmAssembly(func, m_target); }
        Expected<ObjectCode> compileToObject(const lower::LoweredFunc& func) override
        {
            return llvmObject(func, m_target);
        }
        Expected<std::shared_ptr<CompiledKernel>> compile(const lower::LoweredFunc& func) override
        {
            TS_TRY(ObjectCode object, llvmObject(func, m_target));
            return loadObject(object);
        }
        Expected<void> checkRunsHere() override { return cpuRunsHere(m_target); }

    private:
        target::Target m_target;
    };
} // namespace

std::string setupSymbol(const std::string& symbol) { return symbol + "_setup"; }
std::string staticsSymbol(const std::string& symbol) { return symbol + "_statics"; }

std::unique_ptr<CodeGenerator> makeLlvmCpuGenerator(const target::Target& target)
{
    return std::make_unique<LlvmCpuGenerator>(target);
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
    KernelFn setup = nullptr;
    if (object.hasSetup) {
        auto found = jit->lljit().lookup(setupSymbol(object.symbol));
        if (!found) {
            llvm::consumeError(tracker->remove());
            return makeError(
                ErrorKind::Internal, "looking up " + setupSymbol(object.symbol) + ": " + errorText(found.takeError()));
        }
        setup = reinterpret_cast<KernelFn>(static_cast<uintptr_t>(found->getValue()));
    }
    // Only a kernel with a setup can have static buffers, and then it may define their accessor.
    std::vector<MemoryRegion> statics;
    if (object.hasSetup) {
        if (auto found = jit->lljit().lookup(staticsSymbol(object.symbol))) {
            using Accessor = int64_t (*)(void**, int64_t*, int64_t);
            auto accessor = reinterpret_cast<Accessor>(static_cast<uintptr_t>(found->getValue()));
            const int64_t count = accessor(nullptr, nullptr, 0);
            std::vector<void*> pointers(static_cast<size_t>(count));
            std::vector<int64_t> bytes(static_cast<size_t>(count));
            accessor(pointers.data(), bytes.data(), count);
            for (int64_t i = 0; i < count; ++i)
                statics.push_back(MemoryRegion {
                    pointers[static_cast<size_t>(i)], static_cast<size_t>(bytes[static_cast<size_t>(i)]) });
        } else
            llvm::consumeError(found.takeError()); // no static buffers
    }
    return std::shared_ptr<CompiledKernel>(
        std::make_shared<JitKernel>(entry, setup, std::move(statics), std::move(tracker)));
}

} // namespace ts::codegen
