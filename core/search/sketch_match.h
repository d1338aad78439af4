// Which sketch a measured state came from.
//
// A state the search measures is one of its task's sketches with the open split lengths filled and the
// initial-population rules' steps appended (annotation.h: compute_inline / compute_root / compute_at, then
// fuse + parallel, the auto_unroll_max_step pragma, fuse + vectorize), possibly mutated or crossed over
// since. Every one of those edits keeps the sketch's steps in place and changes only what sketchStepMatches
// ignores, or edits the appended steps:
// - InitFillTileSize and MutateTileSize: split lengths (and the extents later splits record);
// - MutateAutoUnroll: the pragma's value; MutateParallel: the fuse before a parallel annotation and the
//   loop ids of the annotations and pragmas after it, all among the appended steps;
// - InitChangeComputeLocation and MutateComputeLocation: compute_at / compute_inline / compute_root steps of
//   stages that are neither tiled nor multi-level tiled, appended, or (the mutation) edited in place among
//   the appended ones; a sketch's own compute_at (the fused tile's) is never moved;
// - crossover: per-stage choices of the above between two states of the same sketch.
// - TuneScope's weight-axis rule (SearchParams::weightAxisInnermost, where weights are packed): a reorder of a
//   compute_at tile's innermost loops, appended. (Without RE among the appended kinds, half the measured states of
//   a network's convolutions matched no sketch: the Sketches view listed them under "Other".)
// So a state belongs to the sketch whose steps are, kind for kind and stage for stage, the first steps of
// the state, the rest being only those appended kinds (CI, CR, CA, FU, AN, PR, RE). GPU thread binding's
// cooperative-fetch splits are not among them yet: such states match no sketch. When several sketches
// qualify, the longest wins. States that match none (imported from a TVM log, tuned with other rules or
// another target's sketches) give -1.
#pragma once

#include "core/schedule/state.h"
#include "core/search/sketch.h"

#include <vector>

namespace ts::search {

// Whether a step of a state is the sketch's step `sketchStep` as the search may have filled or edited it:
// the same kind and stage, a split of the same loop into as many parts (lengths and extent free), a
// compute_at of the same stage into the same stage (the loop free), a pragma of the same kind (its value
// free); any other kind equal field for field.
bool sketchStepMatches(const sched::Step& sketchStep, const sched::Step& stateStep);

// The kinds of step the initial-population rules append to a sketch (and mutations then edit).
bool isAnnotationStep(const sched::Step& step);

// The index in `sketches` of the sketch `steps` (a state's history) came from, or -1.
int sketchIndexOf(const std::vector<Sketch>& sketches, const std::vector<sched::Step>& steps);
int sketchIndexOf(const std::vector<Sketch>& sketches, const sched::State& state);

} // namespace ts::search
