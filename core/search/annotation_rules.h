// Private to annotation.cpp, mutation.cpp and sketch_rules.cpp: the helpers Ansor's init and mutation rules share
// (search_policy/utils.h): divisors and split factorizations, the stage a step made now, and the legal
// compute_at locations of a stage.
#pragma once

#include "core/schedule/state.h"
#include "core/search/search_utils.h"
#include "core/target/target.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ts::search::detail {

// The divisors of n in increasing order (1 and n included).
const std::vector<int64_t>& divisors(int64_t n);

// The id now of the stage that was `stageId` when step `stepIndex` was applied (cache and rfactor steps
// after it insert stages), and the inverse: the id at that step of the stage that is `stageNow` now (-1 when
// the stage did not exist then).
int stageIdNow(const sched::State& state, int stepIndex, int stageId);
int stageIdAtStep(const sched::State& state, int stepIndex, int stageNow);

// Ansor's GetSingleConsumerId: the one reader of the stage (inlined readers replaced by theirs), or the common
// root stage of all its readers, or -1.
int singleConsumerRoot(const StateAnalysis& analysis, const sched::State& state, int stage);

// Ansor's GetComputeLocationCandidates: (stage, iterator) pairs the stage may be computed at, in the single
// consumer's loops down to its first reduction (or inner tile), and in the loops of the stage that consumer
// is itself computed at.
std::vector<std::pair<int, int>> computeLocationCandidates(
    const StateAnalysis& analysis, const sched::State& state, int stage);

inline bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
inline bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The target's warp, or TVM's default (32) where the target leaves it unset.
inline int64_t warpSize(const target::Target& target) { return target.warpSize > 0 ? target.warpSize : 32; }

inline constexpr const char* kAutoUnrollPragma = "auto_unroll_max_step";

// Where a parallel loop that runs more than once encloses another parallel loop (of its stage or of a stage
// computed inside it): "stage: loop", or empty. TVM's codegen refuses such nests; our runtime runs the inner
// one serially, so the state is a waste of a measurement.
std::string nestedParallel(const sched::State& state);

// The check every rule's result passes before it is returned: filled, bounds inferred (the returned state
// carries them), no nested parallel loops.
Expected<sched::State> checked(const sched::State& state);
// The steps replayed from the DAG, then checked.
Expected<sched::State> replayAndInfer(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps);

} // namespace ts::search::detail
