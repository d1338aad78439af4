// Loop IR -> machine code for a target (code_generator.h has one generator per target kind). For CPU
// targets: loop IR -> LLVM IR -> machine code for the target's CPU name and features.
//
// The kernel ABI is `void name(void** args)`: args[i] points to the elements of LoweredFunc::args[i], of
// that buffer's dtype (only float32 buffers are generated yet; others are an Unsupported error, named
// "float16 buffers are not generated yet"). Inside, the body is emitted into
// a function whose buffer parameters are noalias and 64-byte aligned. Loops become:
//   serial      a plain loop;
//   unrolled    the body emitted once per iteration (extent <= 512; longer loops stay loops);
//   vectorized  explicit vector instructions, one lane per iteration: contiguous loads/stores, broadcasts,
//               gathers, masked loads under a select; a body that cannot be vectorized lane by lane (a
//               store whose address does not move with the loop, a guard) is emitted as a loop instead;
//   parallel    the body outlined into a function run by ts_parallel_for (runtime.h) on the kernel pool.
// The module goes through LLVM's O3 pipeline for the target's CPU (target::Target: its name and features,
// e.g. AVX-512), with floating-point contraction into FMA as TVM allows.
//
// Compiled code lives in a process-wide ORC LLJIT; a CompiledKernel frees its code when destroyed. Object
// files (compileToObject) carry a kernel to tunescope-runner, which links them into its own JIT.
#pragma once

#include "core/lower/stmt.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <memory>
#include <string>
#include <vector>

namespace ts::codegen {

struct ObjectCode {
    std::vector<char> bytes; // an ELF relocatable object for the host
    std::string symbol; // the kernel's entry point
    bool hasSetup = false; // it also defines setupSymbol(symbol) (LoweredFunc::setup)
};

// The entry point of a kernel's setup (LoweredFunc::setup): "<symbol>_setup".
std::string setupSymbol(const std::string& symbol);
// A kernel with static buffers (weights its setup packed, which live as long as the loaded kernel) also defines
// "<symbol>_statics": int64_t (void** pointers, int64_t* bytes, int64_t capacity), writing up to `capacity` of them
// and returning how many there are.
std::string staticsSymbol(const std::string& symbol);

// Memory a kernel reads besides its arguments: what a cache flush must reach too.
struct MemoryRegion {
    const void* data = nullptr;
    size_t bytes = 0;
};

using KernelFn = void (*)(void** args);

class CompiledKernel {
public:
    virtual ~CompiledKernel() = default;
    KernelFn entry() const { return m_entry; }
    void run(void** args) const { m_entry(args); }
    // The setup to run once, on the same arguments, before the kernel's (timed) runs; null when it has none.
    KernelFn setup() const { return m_setup; }
    void runSetup(void** args) const
    {
        if (m_setup)
            m_setup(args);
    }
    // The kernel's static buffers (packed weights), empty for most kernels.
    const std::vector<MemoryRegion>& statics() const { return m_statics; }

protected:
    KernelFn m_entry = nullptr;
    KernelFn m_setup = nullptr;
    std::vector<MemoryRegion> m_statics;
};

// target::Target::host().cpuName, for callers that print it.
std::string hostCpuName();

// The code generator for the target (makeCodeGenerator), one call each. The host default is for callers
// that have no target to pass yet (the CLI); a session passes the target of the device it tunes for.
// Textual LLVM IR (CPU targets), before (optimized = false) or after the O3 pipeline.
Expected<std::string> emitLlvmIr(
    const lower::LoweredFunc& func, bool optimized, const target::Target& target = target::Target::host());
// CUDA C for a cuda target (cuda_source.h).
Expected<std::string> emitCudaC(const lower::LoweredFunc& func, const target::Target& target);
// The machine code for the target as assembly text (CPU targets: AT&T syntax, as llc prints it, to read a
// kernel's hot loop for another CPU; CUDA targets: the PTX NVRTC compiles the CUDA C to).
Expected<std::string> emitAssembly(
    const lower::LoweredFunc& func, const target::Target& target = target::Target::host());
Expected<ObjectCode> compileToObject(
    const lower::LoweredFunc& func, const target::Target& target = target::Target::host());
// compileToObject + loadObject: the target must be one this machine can run.
Expected<std::shared_ptr<CompiledKernel>> compile(
    const lower::LoweredFunc& func, const target::Target& target = target::Target::host());
// Whether this machine can run code for the target: a kernel for "llvm -mcpu=sapphirerapids" on a CPU without
// AVX-512 would die of SIGILL; this says so first (InvalidArgument, naming the missing extensions).
Expected<void> checkRunsHere(const target::Target& target);
// Links an object into this process's JIT.
Expected<std::shared_ptr<CompiledKernel>> loadObject(const ObjectCode& object);

} // namespace ts::codegen
