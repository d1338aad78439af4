#include "core/search/annotation_rules.h"

#include "core/lower/lower.h"

#include <map>
#include <set>

namespace ts::search::detail {

const std::vector<int64_t>& divisors(int64_t n)
{
    // Per thread: population sampling runs on several threads, each with its own Rng and its own memo.
    thread_local std::map<int64_t, std::vector<int64_t>> memo;
    auto [it, inserted] = memo.try_emplace(n);
    if (!inserted)
        return it->second;
    std::vector<int64_t> small;
    std::vector<int64_t> large;
    for (int64_t d = 1; d * d <= n; ++d) {
        if (n % d != 0)
            continue;
        small.push_back(d);
        if (d != n / d)
            large.push_back(n / d);
    }
    small.insert(small.end(), large.rbegin(), large.rend());
    it->second = std::move(small);
    return it->second;
}

int stageIdNow(const sched::State& state, int stepIndex, int stageId)
{
    const auto& steps = state.steps();
    for (size_t j = static_cast<size_t>(stepIndex) + 1; j < steps.size(); ++j) {
        const sched::Step& later = steps[j];
        const int at = sched::stepStageId(later);
        if (std::holds_alternative<sched::CacheReadStep>(later))
            stageId += stageId > at ? 1 : 0;
        else if (std::holds_alternative<sched::CacheWriteStep>(later)
            || std::holds_alternative<sched::RfactorStep>(later))
            stageId += stageId >= at ? 1 : 0;
    }
    return stageId;
}

int stageIdAtStep(const sched::State& state, int stepIndex, int stageNow)
{
    for (int id = 0; id <= stageNow; ++id)
        if (stageIdNow(state, stepIndex, id) == stageNow)
            return id;
    return -1;
}

int singleConsumerRoot(const StateAnalysis& analysis, const sched::State& state, int stage)
{
    const std::set<int> readers = analysis.consumersThroughInlined(state, stage);
    if (readers.empty())
        return -1;
    if (readers.size() == 1)
        return *readers.begin();
    int common = -1;
    for (int reader : readers) {
        const sched::Stage& s = state.stage(reader);
        const int root = s.computeAt == sched::ComputeAtKind::Iter ? s.attachStage : reader;
        if (common >= 0 && common != root)
            return -1;
        common = root;
    }
    return common;
}

std::vector<std::pair<int, int>> computeLocationCandidates(
    const StateAnalysis& analysis, const sched::State& state, int stage)
{
    const int target = singleConsumerRoot(analysis, state, stage);
    if (target < 0)
        return {};
    const sched::Stage& targetStage = state.stage(target);
    const bool targetAttached = targetStage.computeAt == sched::ComputeAtKind::Iter;
    const bool targetTiled = isTiled(targetStage);

    std::vector<std::pair<int, int>> out;
    bool seenReduce = false;
    for (size_t i = 0; i < targetStage.iters.size(); ++i) {
        const sched::Iterator& it = targetStage.iters[i];
        if (it.kind == sched::IteratorKind::Reduce) {
            seenReduce = true;
            if (!targetTiled) // not into an untiled reduction
                break;
        } else if (it.kind == sched::IteratorKind::Spatial && seenReduce) {
            break; // the inner tile
        }
        if (it.annotation == sched::Annotation::Unroll)
            break;
        if (it.extent == 1)
            continue;
        // The outermost tile of a stage computed inside another has extent 1 once bounds are inferred.
        if (targetAttached && it.kind == sched::IteratorKind::Spatial && endsWith(it.name, ".0"))
            continue;
        out.emplace_back(target, static_cast<int>(i));
        if (!state.attachedAt(target, static_cast<int>(i)).empty())
            break;
    }

    // Inside the loops of the stage the consumer is computed at, down to its attach point.
    if (targetAttached) {
        const int outer = targetStage.attachStage;
        const sched::Stage& outerStage = state.stage(outer);
        for (size_t i = 0; i < outerStage.iters.size(); ++i) {
            const sched::Iterator& it = outerStage.iters[i];
            if (it.kind == sched::IteratorKind::Reduce || !state.attachedAt(outer, static_cast<int>(i)).empty())
                break;
            if (it.annotation == sched::Annotation::Unroll)
                break;
            if (it.extent == 1)
                continue;
            out.emplace_back(outer, static_cast<int>(i));
        }
    }
    return out;
}

std::string nestedParallel(const sched::State& state)
{
    // Whether loops 0 .. last of the stage include a parallel one that runs more than once.
    auto parallelAbove = [&](int stage, int last) {
        const auto& iters = state.stage(stage).iters;
        for (int i = 0; i <= last && i < static_cast<int>(iters.size()); ++i)
            if (iters[static_cast<size_t>(i)].annotation == sched::Annotation::Parallel
                && iters[static_cast<size_t>(i)].extent != 1)
                return true;
        return false;
    };
    for (int s = 0; s < state.numStages(); ++s) {
        const auto& iters = state.stage(s).iters;
        for (int i = 0; i < static_cast<int>(iters.size()); ++i) {
            if (iters[static_cast<size_t>(i)].annotation != sched::Annotation::Parallel)
                continue;
            bool nested = parallelAbove(s, i - 1);
            for (int cur = s; !nested && state.stage(cur).computeAt == sched::ComputeAtKind::Iter;
                 cur = state.stage(cur).attachStage)
                nested = parallelAbove(state.stage(cur).attachStage, state.stage(cur).attachIter);
            if (nested)
                return state.stage(s).op->name() + ": " + iters[static_cast<size_t>(i)].name;
        }
    }
    return {};
}

Expected<sched::State> checked(const sched::State& state)
{
    TS_CHECK(state.checkFilled());
    TS_TRY(sched::State inferred, lower::inferBound(state));
    const std::string nested = nestedParallel(inferred);
    if (!nested.empty())
        return makeError(ErrorKind::InvalidArgument, "nested parallel loops: " + nested + " is inside a parallel loop");
    return inferred;
}

Expected<sched::State> replayAndInfer(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps)
{
    TS_TRY(sched::State state, sched::State::replay(dag, steps));
    return checked(state);
}

} // namespace ts::search::detail
