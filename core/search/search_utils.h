// Questions the search asks of a state's stage, as Ansor's search_policy/utils.h asks them. The analysis
// predicates (needs multi-level tiling, element-wise match, ...) are the AccessAnalyzer's, taken on the
// state's current DAG (after its cache and rfactor steps): a StateAnalysis computes that DAG once, and every
// state with the same stage-changing steps (all annotations of one sketch) can share it.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/state.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ts::search {

class StateAnalysis {
public:
    explicit StateAnalysis(const sched::State& state);

    const ir::ComputeDAG& dag() const { return m_dag; }
    // The DAG op of a stage (the same id while stages and ops keep TVM's topological order).
    int opIndex(int stage) const { return m_opIndex.at(static_cast<size_t>(stage)); }
    int stageOf(int op) const { return m_stageOf.at(static_cast<size_t>(op)); }
    bool needsMultiLevelTiling(int stage) const { return m_dag.access().needsMultiLevelTiling(opIndex(stage)); }
    bool isStrictInlinable(int stage) const { return m_dag.access().isStrictInlinable(opIndex(stage)); }
    bool isOutput(int stage) const { return m_dag.access().isOutput(opIndex(stage)); }
    // The stages that read `stage`, an inlined reader replaced by its own readers (Ansor's GetConsumers).
    std::set<int> consumersThroughInlined(const sched::State& state, int stage) const;
    // The one consumer this stage element-wise matches, or -1 (Ansor's HasSingleElementwiseMatchedConsumer:
    // not both reducing, the consumer not a ".shared" cache).
    int singleElementwiseMatchedConsumer(const sched::State& state, int stage) const;

private:
    ir::ComputeDAG m_dag;
    std::vector<int> m_opIndex; // by stage id
    std::vector<int> m_stageOf; // by op index
};

bool hasReduceIter(const sched::Stage& stage);
// More iterators than the op has axes: split or fused (Ansor's IsTiled).
bool isTiled(const sched::Stage& stage);
// Whether a cache_write step of the history made the stage now at `stage` (ids followed through the
// stage-adding steps, as Ansor's HasCacheWriteStage does).
bool hasCacheWriteStage(const sched::State& state, int stage);
// Ansor's NeedsRfactor: a multi-level-tiled stage whose spatial product is small (<= the reduction, and
// <= cores * 16), or another reduction longer than `cores`.
bool needsRfactor(const StateAnalysis& analysis, const sched::State& state, int stage, int cores);

// Ansor's condition for RuleCrossThreadReduction (GPU): a multi-level-tiled stage with at most a block of
// spatial work that is shorter than its reduction, or another reduction longer than a warp.
bool needsCrossThreadReduction(
    const StateAnalysis& analysis, const sched::State& state, int stage, int64_t maxThreadsPerBlock, int64_t warp);
// Ansor's HasCrossThreadReduction: the stage, or a stage computed at one of its loops, has a reduce
// iterator bound to threadIdx.x.
bool hasCrossThreadReduction(const sched::State& state, int stage);

// The identity of a state for deduplication and "never measure the same state twice": a 64-bit hash of its
// step history as JSON text, the form the store keeps (so a resumed session rebuilds the set from records).
uint64_t stateHash(const sched::State& state);
uint64_t stepsHash(const std::string& stepsJsonText);

} // namespace ts::search
