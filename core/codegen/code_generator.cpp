#include "core/codegen/code_generator.h"

#include "core/codegen/cuda_generator.h"
#include "core/codegen/llvm_cpu_generator.h"

namespace ts::codegen {

namespace {
    struct Registration {
        target::TargetKind kind;
        std::unique_ptr<CodeGenerator> (*make)(const target::Target&);
    };

    // The registry: one code generator per target kind.
    const Registration kGenerators[] = {
        { target::TargetKind::Cpu, &makeLlvmCpuGenerator },
        { target::TargetKind::Cuda, &makeCudaGenerator },
    };
} // namespace

Expected<std::unique_ptr<CodeGenerator>> makeCodeGenerator(const target::Target& target)
{
    for (const Registration& r : kGenerators)
        if (r.kind == target.kind)
            return r.make(target);
    return makeError(
        ErrorKind::Unsupported, std::string("no code generator for ") + target::toString(target.kind) + " targets");
}

Expected<std::string> emitLlvmIr(const lower::LoweredFunc& func, bool optimized, const target::Target& target)
{
    if (target.kind != target::TargetKind::Cpu)
        return makeError(ErrorKind::Unsupported,
            std::string("LLVM IR is generated for cpu targets, not ") + target::toString(target.kind));
    TS_TRY(std::unique_ptr<CodeGenerator> generator, makeCodeGenerator(target));
    return generator->source(func, optimized);
}

Expected<std::string> emitCudaC(const lower::LoweredFunc& func, const target::Target& target)
{
    if (target.kind != target::TargetKind::Cuda)
        return makeError(ErrorKind::Unsupported,
            std::string("CUDA C is generated for cuda targets, not ") + target::toString(target.kind));
    TS_TRY(std::unique_ptr<CodeGenerator> generator, makeCodeGenerator(target));
    return generator->source(func, false);
}

Expected<std::string> emitAssembly(const lower::LoweredFunc& func, const target::Target& target)
{
    TS_TRY(std::unique_ptr<CodeGenerator> generator, makeCodeGenerator(target));
    return generator->assembly(func);
}

Expected<ObjectCode> compileToObject(const lower::LoweredFunc& func, const target::Target& target)
{
    TS_TRY(std::unique_ptr<CodeGenerator> generator, makeCodeGenerator(target));
    return generator->compileToObject(func);
}

Expected<std::shared_ptr<CompiledKernel>> compile(const lower::LoweredFunc& func, const target::Target& target)
{
    TS_TRY(std::unique_ptr<CodeGenerator> generator, makeCodeGenerator(target));
    TS_CHECK(generator->checkRunsHere());
    return generator->compile(func);
}

Expected<void> checkRunsHere(const target::Target& target)
{
    TS_TRY(std::unique_ptr<CodeGenerator> generator, makeCodeGenerator(target));
    return generator->checkRunsHere();
}

std::string hostCpuName() { return target::Target::host().cpuName; }

} // namespace ts::codegen
