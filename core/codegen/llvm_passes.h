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

// A loop-carried vector of a width that is not a power of two (a phi <14 x float>: an accumulator of a
// 14-lane vectorized loop kept in registers) becomes a phi of the next power of two. Inside a block LLVM
// widens <14 x float> to <16 x float>; across blocks it passes it in pieces (8 + 4 + 2 lanes on AVX2) and
// converts between the two forms lane by lane: 800 insertps per iteration in conv2d_layer line 4 for AVX2.
class WidenOddVectorPhis : public llvm::PassInfoMixin<WidenOddVectorPhis> {
public:
    llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

// Erases a store that a later store to the same address overwrites before anything can read it, where the
// two are in different blocks: the zero-fill of an accumulator tile whose values LICM keeps in registers
// across the reduction loop and stores after it. (The emitter erases such stores within a block itself.)
// LLVM's DSE finds these too, but its alias walk over an unrolled body's thousands of stores cost a quarter of
// the middle end on big tiles and found nothing else there (docs/schedules.md, "Compile latency"). This pass
// looks only at pairs of stores through the same pointer value: the later one's block must post-dominate the
// earlier one's, and no instruction on a path between them may read the location (a load of another
// identified object, such as another noalias argument, is told apart without an alias query).
class EraseOverwrittenStores : public llvm::PassInfoMixin<EraseOverwrittenStores> {
public:
    llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

} // namespace ts::codegen
