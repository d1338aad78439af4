// Private to core/codegen: IR passes of our own, added to LLVM's O3 pipeline (llvm_cpu_generator.cpp). Each
// fixes a shape LLVM 15 handles badly in the kernels we generate; docs/codegen-investigation.md has the
// measurements behind them.
#pragma once

#include <llvm/IR/PassManager.h>

namespace ts::codegen {

// Shortens the live ranges of vectors that are only loaded (a load, or a broadcast of a loaded scalar).
// LLVM's optimizer keeps one copy of each such value for as long as it is used: LICM hoists every invariant
// load out of a loop and GVN merges every reload of the same address, whatever the register pressure. In a
// schedule's unrolled register tile that means dozens of input rows and weight broadcasts held across a body
// that also keeps 16-32 accumulators, and the register allocator, which cannot re-load them, spills
// accumulators instead. This pass re-loads such a value where it is used again after more vector
// instructions than there are vector registers (within a block), and inside the loop for vectors hoisted
// out of one when they hold more than a quarter of the registers. It re-loads only where no instruction in
// between may write the memory read. A re-load is an L1 hit, and x86 folds it into the FMA.
class RematerializeLoads : public llvm::PassInfoMixin<RematerializeLoads> {
public:
    llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

} // namespace ts::codegen
