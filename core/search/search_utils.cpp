#include "core/search/search_utils.h"

#include "core/schedule/step_json.h"
#include "core/search/search_task.h"
#include "core/support/strings.h"

#include <algorithm>
#include <set>

namespace ts::search {

const std::vector<int>& unrollChoices(const SearchParams& params, const target::Target& target)
{
    return target.isGpu() ? params.gpuUnrollMaxSteps : params.unrollMaxSteps;
}

SearchParams forTarget(SearchParams params, const target::Target& target)
{
    if (target.isGpu()) {
        params.unrollMaxSteps = params.gpuUnrollMaxSteps;
        params.mutationWeights = params.gpuMutationWeights;
    }
    return params;
}

int SearchTask::cores() const
{
    if (target.cores > 0)
        return static_cast<int>(target.cores);
    const int64_t host = target::Target::host().cores;
    return host > 0 ? static_cast<int>(host) : 1;
}

namespace {
    bool endsWith(const std::string& s, std::string_view suffix)
    {
        return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    }

    // Follows a stage id back through the history's stage-adding steps to the id it had when step `step`
    // was applied, and asks whether that step is of kind T and made it (HasCacheWriteStage / HasRfactorStage).
    template <typename T> bool madeBy(const sched::State& state, int stage)
    {
        const auto& steps = state.steps();
        for (size_t i = steps.size(); i-- > 0;) {
            const sched::Step& step = steps[i];
            if (const auto* s = std::get_if<T>(&step); s && s->stageId == stage)
                return true;
            const bool addsStage = std::holds_alternative<sched::CacheWriteStep>(step)
                || std::holds_alternative<sched::CacheReadStep>(step)
                || std::holds_alternative<sched::RfactorStep>(step);
            if (addsStage && stage > sched::stepStageId(step))
                --stage;
        }
        return false;
    }
    // Products of the extents of the stage's spatial and of its reduce iterators.
    std::pair<int64_t, int64_t> cumulativeSpaceAndReduceLength(const sched::Stage& stage)
    {
        int64_t space = 1;
        int64_t reduce = 1;
        for (const sched::Iterator& it : stage.iters) {
            const int64_t extent = it.extent > 0 ? it.extent : 1;
            if (it.kind == sched::IteratorKind::Spatial)
                space *= extent;
            else if (it.kind == sched::IteratorKind::Reduce)
                reduce *= extent;
        }
        return { space, reduce };
    }
} // namespace

StateAnalysis::StateAnalysis(const sched::State& state)
    : m_dag(state.currentDag())
{
    // Stages and the current DAG's ops are both in TVM's topological order, so op index = stage id; the
    // pointer lookup makes that an invariant rather than a hope.
    for (int stage = 0; stage < state.numStages(); ++stage) {
        const int index = m_dag.indexOf(state.stage(stage).op.get());
        m_opIndex.push_back(index >= 0 ? index : stage);
    }
    m_stageOf.assign(static_cast<size_t>(m_dag.numOps()), -1);
    for (int stage = 0; stage < static_cast<int>(m_opIndex.size()); ++stage)
        if (m_opIndex[static_cast<size_t>(stage)] < m_dag.numOps())
            m_stageOf[static_cast<size_t>(m_opIndex[static_cast<size_t>(stage)])] = stage;
}

std::set<int> StateAnalysis::consumersThroughInlined(const sched::State& state, int stage) const
{
    std::set<int> out;
    std::set<int> seen;
    std::vector<int> work { stage };
    while (!work.empty()) {
        const int s = work.back();
        work.pop_back();
        for (int op : m_dag.consumers(opIndex(s))) {
            const int c = stageOf(op);
            if (c < 0 || !seen.insert(c).second)
                continue;
            if (state.stage(c).computeAt == sched::ComputeAtKind::Inlined)
                work.push_back(c);
            else
                out.insert(c);
        }
    }
    return out;
}

int StateAnalysis::singleElementwiseMatchedConsumer(const sched::State& state, int stage) const
{
    const std::set<int> consumers = consumersThroughInlined(state, stage);
    if (consumers.size() != 1)
        return -1;
    const int target = *consumers.begin();
    if (!m_dag.access().elementWiseMatch(opIndex(stage), opIndex(target)))
        return -1;
    if (hasReduceIter(state.stage(stage)) && hasReduceIter(state.stage(target)))
        return -1;
    if (endsWith(state.stage(target).op->name(), ".shared"))
        return -1;
    return target;
}

bool hasReduceIter(const sched::Stage& stage)
{
    for (const sched::Iterator& it : stage.iters)
        if (it.kind != sched::IteratorKind::Spatial)
            return true;
    return false;
}

bool isTiled(const sched::Stage& stage)
{
    return stage.iters.size() != stage.op->axes().size() + stage.op->reduceAxes().size();
}

bool hasCacheWriteStage(const sched::State& state, int stage) { return madeBy<sched::CacheWriteStep>(state, stage); }

bool needsRfactor(const StateAnalysis& analysis, const sched::State& state, int stage, int cores)
{
    const sched::Stage& s = state.stage(stage);
    if (s.isPlaceholder())
        return false;
    const auto [space, reduce] = cumulativeSpaceAndReduceLength(s);
    if (analysis.needsMultiLevelTiling(stage))
        return space <= reduce && space <= int64_t { cores } * 16;
    return reduce > 1 && reduce > cores;
}

bool needsCrossThreadReduction(
    const StateAnalysis& analysis, const sched::State& state, int stage, int64_t maxThreadsPerBlock, int64_t warp)
{
    const sched::Stage& s = state.stage(stage);
    if (s.isPlaceholder() || hasCacheWriteStage(state, stage))
        return false;
    const auto [space, reduce] = cumulativeSpaceAndReduceLength(s);
    if (analysis.needsMultiLevelTiling(stage))
        return space <= maxThreadsPerBlock && space < reduce; // enough spatial parallelism otherwise
    return reduce > 1 && reduce > warp;
}

bool hasCrossThreadReduction(const sched::State& state, int stage)
{
    auto reducesOverThreads = [](const sched::Stage& s) {
        return std::any_of(s.iters.begin(), s.iters.end(), [](const sched::Iterator& it) {
            return it.kind == sched::IteratorKind::Reduce && it.annotation == sched::Annotation::ThreadX;
        });
    };
    if (reducesOverThreads(state.stage(stage)))
        return true;
    for (size_t i = 0; i < state.stage(stage).iters.size(); ++i)
        for (int attached : state.attachedAt(stage, static_cast<int>(i)))
            if (reducesOverThreads(state.stage(attached)))
                return true;
    return false;
}

uint64_t stepsHash(const std::string& stepsJsonText) { return fnv1a64(stepsJsonText); }

uint64_t stateHash(const sched::State& state) { return stepsHash(sched::stepsToText(state.steps())); }

} // namespace ts::search
