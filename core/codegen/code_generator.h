// One code generator per target kind, made by makeCodeGenerator(target). The registry is the list in
// code_generator.cpp: the LLVM CPU generator (codegen.h) and the CUDA generator (cuda_source.h: CUDA C,
// NVRTC to PTX; its kernels run in tunescope-gpu-runner, not in this process).
//
// How to add a code generator for a target kind:
//   1. the kind in target::TargetKind (core/target/target.h), with its TVM name in fromTvm/toString;
//   2. a class deriving from CodeGenerator in its own files under core/codegen, wrapping its compiler
//      (linked PRIVATE here, like LLVM);
//   3. one line in kGenerators (code_generator.cpp) that makes it;
//   4. a codegen test that compiles and runs (or, without the device, compiles) a lowered function for it.
#pragma once

#include "core/codegen/codegen.h"
#include "core/lower/stmt.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <memory>
#include <string>

namespace ts::codegen {

class CodeGenerator {
public:
    virtual ~CodeGenerator() = default;

    virtual const target::Target& target() const = 0;
    // What the generator compiles, as text for people: LLVM IR for CPUs, before (optimized = false) or
    // after the optimization pipeline.
    virtual Expected<std::string> source(const lower::LoweredFunc& func, bool optimized) = 0;
    // The machine code as assembly text, for people (CPU: AT&T syntax as llc prints it), the kernel under
    // its own name (func.name).
    virtual Expected<std::string> assembly(const lower::LoweredFunc& func) = 0;
    // Code the runner can load: an object file for CPUs.
    virtual Expected<ObjectCode> compileToObject(const lower::LoweredFunc& func) = 0;
    // Code callable in this process.
    virtual Expected<std::shared_ptr<CompiledKernel>> compile(const lower::LoweredFunc& func) = 0;
    // Whether code for the target can run on this machine (CPU: the host has every instruction set
    // extension the target's CPU and features enable); the error names what is missing.
    virtual Expected<void> checkRunsHere() = 0;
};

// The generator for target.kind; Unsupported when there is none (yet) for that kind.
Expected<std::unique_ptr<CodeGenerator>> makeCodeGenerator(const target::Target& target);

} // namespace ts::codegen
