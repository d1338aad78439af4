// Bound inference (TVM's InferBound): for every stage of a state, the region of its tensor it computes, the
// extent of each of its loops, and the value of each of its axes in loop variables.
//
// Stages are visited consumers first (reverse stage order). A root stage covers its whole tensor. A stage
// computed at (T, t) covers the region its consumers read while T's loops 0..t are fixed and every loop
// inside T's loop t runs over its extent: T's loops after t, and for a consumer C nested in T (C's attach
// chain C -> C1 -> ... -> T reaches T at t or inside it) C's loops and those of the stages between. As in
// TVM, T need not read the stage, but loop t must enclose every consumer. For each index of each load, the
// part that depends only on fixed loops is the region's (symbolic) minimum, and the ranging loops give its
// (constant) extent; the regions of the consumers are joined. Splits then pass the
// region's extents down to the stage's own loops (iter_graph.h), and the leaf loop variables pass up to
// the axis values. Inlined stages are substituted into their consumers' bodies first.
//
// On GPUs, a stage's buffer is shared by the threads its storage scope spans (TVM's NeedRelax): a loop
// outside the attach point that is bound to a thread the scope spans also ranges: blockIdx for global
// buffers, threadIdx and vthread for global and shared ones, none for local ones. So a shared copy computed
// inside the threads holds what all the block's threads read.
//
// Used by lowering (schedule_ops.cpp builds the loop nests from it) and by whatever needs a state's loop
// extents without lowering it (inferBound in lower.h; the features). Knows nothing of targets.
#pragma once

#include "core/lower/arith_analyzer.h"
#include "core/schedule/state.h"
#include "core/support/error.h"

#include <map>
#include <utility>
#include <vector>

namespace ts::lower {

struct StageBounds {
    bool active = false; // a compute stage that is not inlined
    bool output = false; // a compute stage no op reads
    std::vector<int64_t> iterExtents; // per iterator of the stage (the state's extents when not active)
    // The rest is set for active stages only.
    ir::Expr body; // the op's body, loads of inlined stages replaced by their bodies
    std::vector<int> consumers; // active stages whose body reads this one
    std::vector<ir::Expr> regionMin; // per spatial axis: the region's first index (0 for a root stage)
    std::vector<int64_t> rootExtents; // region extent per spatial axis, then each reduce axis's extent
    std::vector<int64_t> nodeExtents; // per node of the stage's iteration graph
    std::vector<ir::Expr> leafVars; // per iterator: its loop variable (names unique in the function)
    std::vector<ir::Expr> rootValues; // per axis: its value in the loop variables (global index)
    std::vector<ir::Expr> localValues; // per axis: its value within the region (rootValues - regionMin)
    std::vector<std::pair<ir::Expr, ir::Expr>> axisValues; // each axis var of the op -> its rootValue
};

struct Bounds {
    std::vector<StageBounds> stages; // by stage id
    std::map<const ir::Operation*, int> stageOf;
    arith::Analyzer analyzer; // every leaf loop variable bound to [0, extent - 1]

    const StageBounds& operator[](int stage) const { return stages[static_cast<size_t>(stage)]; }
};

// The GPU memory a stage's buffer lives in: its cache step's scope, else by where it is computed (TVM's
// default): inside a threadIdx loop "local", inside blockIdx only "shared", else "global". Placeholders
// and stages at root are global.
std::string storageScope(const sched::State& state, int stage);

// Errors (Unsupported) name the stage and why: computed at an inlined stage, computed at a loop that does
// not enclose one of its consumers, an output not computed at root.
Expected<Bounds> inferBounds(const sched::State& state);

// "stage 2 (matmul): why": how lowering errors name a stage.
Error stageError(const sched::State& state, int stage, const std::string& why);

} // namespace ts::lower
