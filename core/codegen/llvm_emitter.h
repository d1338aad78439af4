// Private to core/codegen: loop IR -> an LLVM module (no optimization). With llvm_emitter_private.h (the
// emitter itself, split over four files) the only headers of the module that name LLVM types.
#pragma once

#include "core/lower/stmt.h"
#include "core/support/error.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>

namespace ts::codegen {

// Emits `void symbol(void** args)` and its helpers into a new module.
Expected<std::unique_ptr<llvm::Module>> emitModule(
    const lower::LoweredFunc& func, const std::string& symbol, llvm::LLVMContext& context);

} // namespace ts::codegen
