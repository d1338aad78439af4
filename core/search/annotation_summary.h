// What the random annotation (and mutation) chose for a state, for people: the tile sizes of each split,
// where each stage is computed, and the loops annotated parallel, vectorized or unrolled with the
// auto_unroll_max_step of each stage. The sketches view and the CLI show one line of each per state.
//
// Read from the state's step history (replayed on the DAG once, to name the loop each split cut as it was
// named then) and from its stages now. Loop extents are the state's: run bound inference first to have
// those of stages computed inside others.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/state.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::search {

// One split step: the loop it cut and the extents of the parts, outermost first (the rest of the extent
// included); nullopt where not known (an open length of a sketch, an extent unknown when it was split).
struct TileSplit {
    std::string stage; // the stage's name when the split was applied
    std::string iter; // the loop's name when the split was applied
    std::vector<std::optional<int64_t>> parts;
};

// A stage not computed at root.
struct ComputeLocation {
    std::string stage;
    bool inlined = false;
    std::string targetStage; // computed at a loop of this stage (empty when inlined)
    std::string targetIter;
};

// A loop with an annotation (parallel, vectorize, unroll, or a GPU binding).
struct AnnotatedLoop {
    std::string stage;
    std::string iter;
    int64_t extent = -1; // -1: not known
    sched::Annotation annotation = sched::Annotation::None;
};

struct AutoUnroll {
    std::string stage;
    int maxStep = 0;
};

struct AnnotationSummary {
    std::vector<TileSplit> tiles; // in step order
    std::vector<ComputeLocation> computeAt; // in stage order
    std::vector<AnnotatedLoop> loops; // in stage, then loop order
    std::vector<AutoUnroll> unroll; // stages with auto_unroll_max_step > 0, in stage order

    // "matmul.local: i 2x4x1x8, j 1x8x2x4, k 16x4" (stages separated by "; "; "?" for an unknown part).
    std::string tilesText() const;
    // "matmul.local at matmul.j.0; T_pad inline"; "" when every stage is at root.
    std::string computeAtText() const;
    // "parallel matmul.i.0@j.0@ (64), vectorize matmul.local.j.3 (8), unroll matmul.local <= 64".
    std::string annotationsText() const;
};

// The summary of `state`, a state of `dag` (its history must replay on it; the splits are named from that
// replay, everything else is read from `state`). A history that does not replay gives the splits up to
// the failing step.
AnnotationSummary summarizeAnnotations(const ir::ComputeDAG& dag, const sched::State& state);

} // namespace ts::search
