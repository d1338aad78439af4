// Private to core/codegen: the code generator for CPU targets (LLVM, llvm_cpu_generator.cpp), made by the
// registry in code_generator.cpp.
#pragma once

#include "core/codegen/code_generator.h"

namespace ts::codegen {

std::unique_ptr<CodeGenerator> makeLlvmCpuGenerator(const target::Target& target);

} // namespace ts::codegen
