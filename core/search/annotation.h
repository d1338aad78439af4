// Random annotation of sketches (Ansor's initial-population rules) and the mutations of evolutionary search
// (sketch_policy_rules.cc), plus the paper's node-based crossover.
//
// Init rules on the CPU, in order: fill tile sizes (each open split: one factorization of its extent drawn
// uniformly among those with innermost <= maxInnermostSplitFactor), change compute location (stages that
// are not tiled, not multi-level tiled, not inlined: inline / root / a legal compute_at, uniformly), parallel
// (fuse outer spatial iterators of root stages up to cores * 16, annotate parallel), unroll (pragma
// auto_unroll_max_step with a value from unrollMaxSteps on stages with reductions), vectorize (fuse inner
// spatial iterators up to maxVectorizeSize lanes, annotate vectorize). Every random choice comes from `rng`.
//
// A result that does not replay, or whose bounds cannot be inferred, or that nests a parallel loop inside a
// parallel loop, is an error value (the caller drops the state), never an exception. Results carry their
// inferred bounds. Deviations from Ansor (docs/search.md): a mutation never returns the state it was given
// (unroll, compute location and parallel redraw among the other choices), a compute_at mutation names the
// loop as it was when the step was applied, and InitParallel leaves serial the outer loops that run once
// when it parallelizes the stages computed inside them.
#pragma once

#include "core/schedule/state.h"
#include "core/search/search_task.h"
#include "core/search/sketch.h"
#include "core/support/error.h"
#include "core/support/rng.h"

#include <cstdint>
#include <vector>

namespace ts::search {

// One random annotation of a sketch; the result is filled (checkFilled passes) and its bounds infer.
Expected<sched::State> randomAnnotation(
    const SearchTask& task, const Sketch& sketch, const SearchParams& params, Rng& rng);

// Ansor's SplitFactorizationMemo: every way to choose the `parts` lengths of a split of `extent` (outermost
// first; the rest of the extent is the outer loop) whose product divides the extent and whose innermost
// length is <= maxInnermost. Memoized per thread; the reference stays valid on the calling thread.
const std::vector<std::vector<int64_t>>& splitFactorizations(int64_t extent, int parts, int64_t maxInnermost);

enum class MutationKind { TileSize, AutoUnroll, ComputeLocation, Parallel };
const char* toString(MutationKind kind);

// One mutation of a filled state (Ansor's MutateTileSize, MutateAutoUnroll, MutateComputeLocation,
// MutateParallel). Errors when the rule finds nothing to change or the result does not replay.
Expected<sched::State> mutate(
    const SearchTask& task, const sched::State& state, MutationKind kind, const SearchParams& params, Rng& rng);
// A mutation kind drawn by params.mutationWeights.
MutationKind drawMutation(const SearchParams& params, Rng& rng);

// Node-based crossover (Ansor paper, 4.2): both parents come from the same sketch; for each stage (a node of
// the DAG) the child takes that stage's tile sizes, unroll pragma and compute location from one parent,
// chosen at random (or by the better per-stage score when the caller has them), and the result is replayed
// and checked. Errors when the parents do not share a sketch or the child is not valid.
Expected<sched::State> crossover(const SearchTask& task, const sched::State& a, const sched::State& b, Rng& rng);
// Equal for two states crossover can combine: their step lists agree but for split lengths, unroll values and
// compute_at targets. Evolution draws a crossover's second parent among states of the first's structure.
uint64_t structureHash(const sched::State& state);

// A state of another task of the same kind (the same stages, other shapes) on this task's DAG: its steps
// replayed here, each split's lengths refit to the extent it meets (innermost first, each kept where it
// divides what is left, else the largest divisor below it), then checked. Errors when a step does not apply.
Expected<sched::State> transplant(const SearchTask& task, const sched::State& from);

} // namespace ts::search
