// What a schedule does to each op of its DAG, for marks on the DAG view: which ops it inlines, tiles,
// caches, computes inside another's loop, parallelizes, vectorizes, unrolls or rfactors. Read from the
// state's steps (their kinds and the stages they name), replayed on the DAG so that stage ids resolve to the
// ops they were when each step was applied. Plain data, no Qt.
//
// Ops are the DAG's (index = stage of the initial state = DagView node). A step on a stage that a cache or
// rfactor step added ("C.local", "A.shared", "C.rf") counts for the op it was made from: the DAG view shows
// the original ops only. A step that does not replay ends the walk: the marks so far are returned.
//
// How to add a mark: a bit here (and in kStageMarks, in legend order), the step kinds that set it in
// stage_marks.cpp, and a colour in the DAG view's legend (widgets/dag_view.cpp).
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/step.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::models {

enum class StageMark : uint32_t {
    Inlined = 1u << 0, // compute_inline
    Tiled = 1u << 1, // split, follow_split, follow_fused_split
    Cached = 1u << 2, // cache_read / cache_write made a stage from it
    ComputeAt = 1u << 3, // compute_at another stage's loop
    Parallel = 1u << 4, // a parallel loop (or a GPU thread binding)
    Vectorized = 1u << 5,
    Unrolled = 1u << 6, // an unrolled loop or auto_unroll_max_step
    Rfactor = 1u << 7,
};

// Every mark, in the order a legend lists them.
inline constexpr StageMark kStageMarks[] = { StageMark::Inlined, StageMark::Tiled, StageMark::Cached,
    StageMark::ComputeAt, StageMark::Parallel, StageMark::Vectorized, StageMark::Unrolled, StageMark::Rfactor };

// A set of marks.
using StageMarkSet = uint32_t;

inline bool hasMark(StageMarkSet set, StageMark mark) { return (set & static_cast<uint32_t>(mark)) != 0; }

// The schedule primitive's name: "inline", "tile", "cache", "compute_at", "parallel", "vectorize", "unroll",
// "rfactor".
const char* toString(StageMark mark);
// The names of the marks in `set`, in legend order.
std::vector<std::string> markNames(StageMarkSet set);

// One set per op of `dag`.
std::vector<StageMarkSet> stageMarks(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps);

} // namespace ts::models
