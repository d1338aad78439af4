// State -> loop IR, then the lowering passes, in one ordered list:
//   scheduleOps      loop nests from the state: bound inference (bound_inference.cpp), compute_at
//                    placement, inlining, cache and rfactor stages, guards for splits that do not divide
//                    (schedule_ops.cpp)
//   simplify         constant folding and index simplification with loop ranges (simplify.cpp)
//   rewriteLayout    (LowerOptions::layoutRewrite, CPU) a conv2d's, dense's or matmul's weight packed into the
//                    layout its loops read, at the start or in the untimed setup (rewrite_layout.cpp)
//   hoistGuards      guards move out of the loops they do not depend on (hoist_guards.cpp)
//   partitionTails   a loop whose tiles only the last fails a guard for: if (x < T) {unguarded} else {guarded}
//                    (partition_tails.cpp)
//   unrollLoops      auto_unroll_max_step: small constant nests become unrolled loops (unroll_loops.cpp)
//   flattenStorage   multi-dimensional buffer indices -> one offset, storage_align strides (flatten_storage.cpp)
//   injectVirtualThreads  (GPU targets) vthread loops pushed down to the statements that depend on them,
//                    buffers they write copied per virtual thread (inject_virtual_threads.cpp)
//   simplify         again, on the flat indices
// On a GPU target the result is then checked against the device's limits (gpu_kernels.h).
// Each pass is one free function in its own file, written on StmtMutator (stmt_mutator.h). LowerOptions::onPass sees
// the IR after each pass (the CLI's
// --log-passes and the GUI's code view use it).
#pragma once

#include "core/lower/stmt.h"
#include "core/schedule/state.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <functional>
#include <string>
#include <vector>

namespace ts::lower {

struct LowerOptions {
    std::string functionName = "default_function";
    // What the function is lowered for: GPU annotations become thread-binding loops on a GPU target.
    target::Target target = target::Target::host();
    std::function<void(const std::string& pass, const LoweredFunc& func)> onPass;
    // Ansor's layout_rewrite_option: 0 none; 1 (INSERT_TRANSFORM_STAGE, TVM's default for a CPU task) packs
    // each weight into the layout its tiled loops read at the start of the function; 2
    // (REWRITE_FOR_PRE_TRANSFORMED, what Relay's constant folding gives a network) packs it in the function's
    // setup, run once before the body and outside its timing. CPU targets only; ignored on a GPU.
    int layoutRewrite = 0;
};

// Errors (InvalidArgument / Unsupported) name the stage and why: a GPU annotation on a CPU target, a
// stage computed at one stage but read by another, a sketch whose split lengths are not filled yet.
Expected<LoweredFunc> lower(const sched::State& state, const LowerOptions& options = {});

// The state with every iterator's extent as bound inference finds it (what Ansor's InferBound returns).
Expected<sched::State> inferBound(const sched::State& state);

// The passes (each in its own file).
Expected<LoweredFunc> scheduleOps(const sched::State& state, const target::Target& target);
Stmt simplify(const Stmt& s);
// The weights a conv2d, dense, matmul or batch_matmul stage reads, packed into its loop order (see rewrite_layout.cpp);
// the packing at the start of the body (`inSetup` false, option 1) or in func.setup (option 2).
LoweredFunc rewriteLayout(const LoweredFunc& func, const sched::State& state, bool inSetup = false);
// Whether an op of this tag reads a constant weight as its second input (TVM's layout_free_placeholders), which
// rewriteLayout may pack.
bool hasLayoutFreeWeight(const std::string& tag);
// For each index of the op's first load of `tensor`: the op axis that index is, numbered as a stage's root
// iterators (spatial axes, then reduce axes), or -1 where it is not a plain axis variable. Empty when the op
// does not read the tensor.
std::vector<int> loadAxes(const ir::Operation& op, const ir::Tensor& tensor);
Stmt hoistGuards(const Stmt& s);
Stmt partitionTails(const Stmt& s);
Stmt unrollLoops(const Stmt& s);
LoweredFunc flattenStorage(const LoweredFunc& func);
Stmt injectVirtualThreads(const Stmt& s);

} // namespace ts::lower
