// Private to core/codegen: the code generator for CUDA targets (cuda_generator.cpp), made by the registry in
// code_generator.cpp. source() is the CUDA C (cuda_source.h), assembly() the PTX NVRTC makes of it
// (nvrtc.h), compileToObject() the PTX as bytes with the first kernel as its symbol. Kernels do not run
// in this process: GPU measurement goes through tunescope-gpu-runner, so compile() is Unsupported.
#pragma once

#include "core/codegen/code_generator.h"

namespace ts::codegen {

std::unique_ptr<CodeGenerator> makeCudaGenerator(const target::Target& target);

} // namespace ts::codegen
