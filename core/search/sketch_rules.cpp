// Ansor's sketch derivation rules for the CPU and the GPU, in its orders (sketch.h), and the worklist that applies
// them.
#include "core/search/annotation_rules.h"
#include "core/search/sketch.h"
#include "core/support/assert.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace ts::search {

using sched::State;

namespace {

    int iterId(const sched::Stage& stage, const std::string& name)
    {
        for (size_t i = 0; i < stage.iters.size(); ++i)
            if (stage.iters[i].name == name)
                return static_cast<int>(i);
        return -1;
    }

    std::vector<std::string> iterNames(const sched::Stage& stage)
    {
        std::vector<std::string> names;
        for (const sched::Iterator& it : stage.iters)
            names.push_back(it.name);
        return names;
    }

    // Reorders a stage's iterators to `order` (names).
    Expected<void> reorder(State& state, int stage, const std::vector<std::string>& order)
    {
        sched::ReorderStep step { stage, {} };
        for (const std::string& name : order)
            step.afterIds.push_back(iterId(state.stage(stage), name));
        return state.apply(step);
    }

    // Splits iterator `name` into `parts` parts with unfilled lengths; the new iterators' names.
    Expected<std::vector<std::string>> splitUnfilled(State& state, int stage, const std::string& name, int parts)
    {
        const int id = iterId(state.stage(stage), name);
        const sched::Iterator& it = state.stage(stage).iters[static_cast<size_t>(id)];
        sched::SplitStep step { stage, id, it.extent >= 0 ? std::optional<int64_t>(it.extent) : std::nullopt,
            std::vector<sched::SplitLength>(static_cast<size_t>(parts - 1), std::nullopt), true };
        TS_CHECK(state.apply(step));
        std::vector<std::string> names;
        for (int i = 0; i < parts; ++i)
            names.push_back(state.stage(stage).iters[static_cast<size_t>(id + i)].name);
        return names;
    }

    // Ansor's DoMultiLevelTiling: every spatial iterator split into one part per 'S' of the structure, every
    // reduce iterator into one per 'R', and the parts ordered level by level as the structure says.
    // `spatialSplits` receives the split steps of the spatial iterators, in iterator order.
    Expected<State> multiLevelTiling(
        const State& state, int stage, const std::string& structure, std::vector<int>& spatialSplits)
    {
        const auto count = [&](char c) {
            return static_cast<int>(std::count_if(structure.begin(), structure.end(),
                [c](char s) { return std::tolower(static_cast<unsigned char>(s)) == c; }));
        };
        const int nSpace = count('s');
        const int nReduce = count('r');
        if (nSpace + nReduce != static_cast<int>(structure.size()) || nSpace == 0)
            return makeError(ErrorKind::InvalidArgument, "tiling structure '" + structure + "' is not made of S and R");
        std::vector<std::vector<std::string>> spaceLevels(static_cast<size_t>(nSpace));
        std::vector<std::vector<std::string>> reduceLevels(static_cast<size_t>(std::max(nReduce, 1)));
        State s = state;
        spatialSplits.clear();
        for (const sched::Iterator& it : state.stage(stage).iters) {
            const bool spatial = it.kind == sched::IteratorKind::Spatial;
            if (it.kind == sched::IteratorKind::Mixed)
                return makeError(ErrorKind::Unsupported, "multi-level tiling of a fused spatial-reduce iterator");
            auto& levels = spatial ? spaceLevels : reduceLevels;
            const int parts = spatial ? nSpace : nReduce;
            if (parts <= 1) {
                levels[0].push_back(it.name);
                continue;
            }
            TS_TRY(std::vector<std::string> names, splitUnfilled(s, stage, it.name, parts));
            for (int i = 0; i < parts; ++i)
                levels[static_cast<size_t>(i)].push_back(names[static_cast<size_t>(i)]);
            if (spatial)
                spatialSplits.push_back(static_cast<int>(s.steps().size()) - 1);
        }
        std::vector<std::string> order;
        int space = 0;
        int reduce = 0;
        for (char c : structure) {
            const auto& level = std::tolower(static_cast<unsigned char>(c)) == 's'
                ? spaceLevels[static_cast<size_t>(space++)]
                : reduceLevels[static_cast<size_t>(reduce++)];
            order.insert(order.end(), level.begin(), level.end());
        }
        TS_CHECK(reorder(s, stage, order));
        return s;
    }

    // Ansor's FollowTiling: the consumer's spatial iterators split like the producer's tiles (its first
    // nSplit levels, the rest in one), annotations kept (parallel outermost, unroll/vectorize innermost), and
    // ordered level by level.
    Expected<State> followTiling(const State& state, int stage, const std::vector<int>& splitSteps, int nSplit)
    {
        State s = state;
        const std::vector<std::string> names = iterNames(state.stage(stage));
        if (names.size() != splitSteps.size())
            return makeError(ErrorKind::Internal,
                "follow tiling: " + std::to_string(names.size()) + " iterators for " + std::to_string(splitSteps.size())
                    + " splits");
        std::vector<std::vector<std::string>> levels(static_cast<size_t>(nSplit + 1));
        for (size_t k = 0; k < names.size(); ++k) {
            const int id = iterId(s.stage(stage), names[k]);
            if (s.stage(stage).iters[static_cast<size_t>(id)].kind != sched::IteratorKind::Spatial)
                return makeError(ErrorKind::Internal, "follow tiling of a reduce iterator");
            const sched::Annotation annotation = s.stage(stage).iters[static_cast<size_t>(id)].annotation;
            TS_CHECK(s.apply(sched::FollowSplitStep { stage, id, splitSteps[k], nSplit }));
            const auto annotate = [&](int part, sched::Annotation a) {
                return s.apply(sched::AnnotationStep { stage, id + part, a });
            };
            if (annotation == sched::Annotation::Unroll || annotation == sched::Annotation::Vectorize)
                TS_CHECK(annotate(nSplit, annotation));
            else if (annotation == sched::Annotation::Parallel)
                TS_CHECK(annotate(0, annotation));
            for (int part = 0; part <= nSplit; ++part)
                levels[static_cast<size_t>(part)].push_back(s.stage(stage).iters[static_cast<size_t>(id + part)].name);
        }
        std::vector<std::string> order;
        for (const auto& level : levels)
            order.insert(order.end(), level.begin(), level.end());
        TS_CHECK(reorder(s, stage, order));
        return s;
    }

    using Derived = std::vector<std::pair<State, int>>;

    // A failure inside a rule that the condition said applies is a bug of ours, not of the task: say so.
    State orDie(Expected<State> state, const char* rule)
    {
        if (!state)
            throw InternalError(std::string("sketch rule ") + rule + ": " + state.error().message);
        return std::move(state).value();
    }

    // The state with `step` applied; a step a rule's condition promised would apply is an InternalError.
    State withStep(State state, const sched::Step& step, const char* rule)
    {
        if (auto applied = state.apply(step); !applied)
            throw InternalError(std::string("sketch rule ") + rule + ": " + applied.error().message);
        return state;
    }

    // Ansor's FuseAllReductionIterators: the stage's reduce iterators fused into one (when there are several);
    // its id.
    int fuseAllReduceIterators(State& state, int stage, const char* rule)
    {
        std::vector<int> reduceIds;
        for (size_t i = 0; i < state.stage(stage).iters.size(); ++i)
            if (state.stage(stage).iters[i].kind == sched::IteratorKind::Reduce)
                reduceIds.push_back(static_cast<int>(i));
        if (reduceIds.empty())
            throw InternalError(std::string("sketch rule ") + rule + ": no reduce iterator to fuse");
        if (reduceIds.size() > 1)
            state = withStep(state, sched::FuseStep { stage, reduceIds }, rule);
        return reduceIds.front();
    }

    // GPU (first): a direct producer of a multi-level-tiled stage, its only consumer, is read through a
    // shared copy computed at that consumer's last reduce loop of the outermost reduce tile (Ansor's
    // RuleAddCacheRead); the derivation stays at the producer, whose consumer is now the copy.
    class AddCacheRead final : public SketchRule {
    public:
        std::string name() const override { return "AddCacheRead"; }
        RuleResult condition(const SearchTask&, const SearchParams&, const State& state, const StateAnalysis& analysis,
            int stage) const override
        {
            const std::set<int> consumers = analysis.consumersThroughInlined(state, stage);
            if (consumers.size() != 1 || !analysis.needsMultiLevelTiling(*consumers.begin())
                || hasCrossThreadReduction(state, *consumers.begin()))
                return RuleResult::Skip;
            // Only a direct producer: the consumer's own body reads it.
            bool direct = false;
            ir::postOrderVisit(state.stage(*consumers.begin()).op->body(), [&](const ir::ExprNode& n) {
                direct = direct || (n.kind == ir::ExprKind::Load && n.tensor == state.stage(stage).op);
            });
            return direct ? RuleResult::ApplyAndSkipRest : RuleResult::Skip;
        }
        Derived apply(const SearchTask&, const SearchParams&, const State& state, const StateAnalysis& analysis,
            int stage) const override
        {
            const int consumer = *analysis.consumersThroughInlined(state, stage).begin();
            State s = withStep(state, sched::CacheReadStep { stage, "shared", { consumer } }, "AddCacheRead");
            const int target = consumer + 1; // the copy went in at stage + 1
            const sched::Stage& t = s.stage(target);
            // Ansor's GetLastReduceIteratorInOutermostReduceTile.
            const size_t reduceAxes = t.op->reduceAxes().size();
            std::set<std::string> seen;
            int at = 0;
            for (size_t i = 0; i < t.iters.size(); ++i) {
                if (t.iters[i].kind != sched::IteratorKind::Reduce)
                    continue;
                seen.insert(t.iters[i].name.substr(0, t.iters[i].name.find('.')));
                if (seen.size() == reduceAxes) {
                    at = static_cast<int>(i);
                    break;
                }
            }
            return { { withStep(s, sched::ComputeAtStep { stage + 1, target, at }, "AddCacheRead"), stage } };
        }
    };

    class AlwaysInline final : public SketchRule {
    public:
        std::string name() const override { return "AlwaysInline"; }
        RuleResult condition(const SearchTask& task, const SearchParams&, const State& state,
            const StateAnalysis& analysis, int stage) const override
        {
            const sched::Stage& s = state.stage(stage);
            // On a GPU every inlinable op is inlined (Ansor's ShouldAlwaysBeInlined).
            const bool inline_ = !s.isPlaceholder() && !analysis.isOutput(stage) && !hasReduceIter(s)
                && (task.target.isGpu() || analysis.isStrictInlinable(stage));
            return inline_ ? RuleResult::ApplyAndSkipRest : RuleResult::Skip;
        }
        Derived apply(
            const SearchTask&, const SearchParams&, const State& state, const StateAnalysis&, int stage) const override
        {
            return { { withStep(state, sched::ComputeInlineStep { stage }, "AlwaysInline"), stage - 1 } };
        }
    };

    // Ansor unrolls the index loops of constant tensors (Winograd's transform matrices), marked by an op
    // attribute. No TuneScope op carries that attribute yet, so the rule never applies; it holds its place
    // in the order so that the first op that needs it only has to fill in apply().
    class SimplifyComputeWithConstTensor final : public SketchRule {
    public:
        std::string name() const override { return "SimplifyComputeWithConstTensor"; }
        RuleResult condition(
            const SearchTask&, const SearchParams&, const State&, const StateAnalysis&, int) const override
        {
            return RuleResult::Skip;
        }
        Derived apply(const SearchTask&, const SearchParams&, const State&, const StateAnalysis&, int) const override
        {
            return {};
        }
    };

    class AddRfactor final : public SketchRule {
    public:
        std::string name() const override { return "AddRfactor"; }
        RuleResult condition(const SearchTask& task, const SearchParams&, const State& state,
            const StateAnalysis& analysis, int stage) const override
        {
            return needsRfactor(analysis, state, stage, task.cores()) && !hasCacheWriteStage(state, stage)
                ? RuleResult::Apply
                : RuleResult::Skip;
        }
        Derived apply(
            const SearchTask&, const SearchParams&, const State& state, const StateAnalysis&, int stage) const override
        {
            const auto& iters = state.stage(stage).iters;
            const int numSpace = static_cast<int>(std::count_if(iters.begin(), iters.end(),
                [](const sched::Iterator& i) { return i.kind == sched::IteratorKind::Spatial; }));
            State base = state;
            const int fused = fuseAllReduceIterators(base, stage, "AddRfactor");
            const sched::Iterator& it = base.stage(stage).iters[static_cast<size_t>(fused)];
            // Length 1 holds the place of the factor the initial population samples (Sketch::openSplits).
            base = withStep(base, sched::SplitStep { stage, fused, it.extent, { 1 }, true }, "AddRfactor");
            Derived out;
            for (int part = 0; part < 2; ++part) {
                State s = withStep(base, sched::RfactorStep { stage, fused + part, numSpace }, "AddRfactor");
                if (part == 1) { // the factored axis innermost, for vectorization
                    std::vector<int> order;
                    const int n = static_cast<int>(s.stage(stage).iters.size());
                    for (int i = 0; i < n; ++i)
                        if (i != numSpace)
                            order.push_back(i);
                    order.push_back(numSpace);
                    s = withStep(s, sched::ReorderStep { stage, order }, "AddRfactor");
                }
                out.emplace_back(std::move(s), stage - 1);
            }
            return out;
        }
    };

    // GPU: a reduction with little spatial work is spread over a warp of threads (Ansor's
    // RuleCrossThreadReduction): its reduce iterators fused and split, the inner part bound to threadIdx.x.
    // When its one consumer is not tiled and shares outer loops with it, the split follows the consumer's
    // (split by the warp and bound to threadIdx.x first, if it had none) and the reduction is computed at
    // the last shared loop, in the same kernel. Other rules apply to the stage too (more sketches).
    class CrossThreadReduction final : public SketchRule {
    public:
        std::string name() const override { return "CrossThreadReduction"; }
        RuleResult condition(const SearchTask& task, const SearchParams&, const State& state,
            const StateAnalysis& analysis, int stage) const override
        {
            return needsCrossThreadReduction(analysis, state, stage, maxThreads(task), warp(task)) ? RuleResult::Apply
                                                                                                   : RuleResult::Skip;
        }
        Derived apply(const SearchTask& task, const SearchParams&, const State& state, const StateAnalysis& analysis,
            int stage) const override
        {
            State s = state;
            const int fused = fuseAllReduceIterators(s, stage, "CrossThreadReduction");

            const int target = detail::singleConsumerRoot(analysis, s, stage);
            int common = 0;
            std::vector<int> splits;
            if (target >= 0 && !analysis.needsMultiLevelTiling(target)) {
                common = analysis.dag().access().numCommonOuterIterators(
                    analysis.opIndex(stage), analysis.opIndex(target));
                splits = splitStepsOf(s, target);
                // One split to follow, or none in a consumer without reduction that gets one (Ansor asserts
                // as much; anything else stays a kernel of its own here).
                if (splits.size() > 1 || (splits.empty() && hasReduceIter(s.stage(target))))
                    common = 0;
            }
            if (common <= 0) {
                const int64_t extent = s.stage(stage).iters[static_cast<size_t>(fused)].extent;
                s = withStep(
                    s, sched::SplitStep { stage, fused, extent, { warp(task) }, true }, "CrossThreadReduction");
                s = withStep(
                    s, sched::AnnotationStep { stage, fused + 1, sched::Annotation::ThreadX }, "CrossThreadReduction");
                return { { s, stage - 1 } };
            }
            if (splits.empty()) { // an element-wise consumer: split its last loop by the warp
                const int last = static_cast<int>(s.stage(target).iters.size()) - 1;
                const int64_t extent = s.stage(target).iters.back().extent;
                s = withStep(
                    s, sched::SplitStep { target, last, extent, { warp(task) }, true }, "CrossThreadReduction");
                splits.push_back(static_cast<int>(s.steps().size()) - 1);
                s = withStep(
                    s, sched::AnnotationStep { target, last + 1, sched::Annotation::ThreadX }, "CrossThreadReduction");
            }
            s = withStep(s, sched::FollowSplitStep { stage, fused, splits.front(), 1 }, "CrossThreadReduction");
            s = withStep(
                s, sched::AnnotationStep { stage, fused + 1, sched::Annotation::ThreadX }, "CrossThreadReduction");
            s = withStep(s, sched::ComputeAtStep { stage, target, common - 1 }, "CrossThreadReduction");
            return { { s, stage - 1 } };
        }

    private:
        static int64_t warp(const SearchTask& task) { return detail::warpSize(task.target); }
        static int64_t maxThreads(const SearchTask& task)
        {
            return task.target.maxThreadsPerBlock > 0 ? task.target.maxThreadsPerBlock : 1024;
        }
        // The split steps of the stage's spatial iterators (Ansor's GetSplitStepIds; those of its reduce
        // iterators come last and are left out).
        static std::vector<int> splitStepsOf(const State& state, int stage)
        {
            std::vector<int> out;
            size_t reduceSplits = state.stage(stage).op->reduceAxes().size();
            const auto& steps = state.steps();
            for (size_t i = steps.size(); i-- > 0;) {
                const auto* split = std::get_if<sched::SplitStep>(&steps[i]);
                if (!split || detail::stageIdNow(state, static_cast<int>(i), split->stageId) != stage)
                    continue;
                if (reduceSplits > 0) {
                    --reduceSplits;
                    continue;
                }
                out.push_back(static_cast<int>(i));
            }
            return out;
        }
    };

    class AddCacheWrite final : public SketchRule {
    public:
        std::string name() const override { return "AddCacheWrite"; }
        RuleResult condition(const SearchTask& task, const SearchParams&, const State& state,
            const StateAnalysis& analysis, int stage) const override
        {
            if (!analysis.needsMultiLevelTiling(stage) || analysis.singleElementwiseMatchedConsumer(state, stage) >= 0)
                return RuleResult::Skip;
            // The CPU keeps both branches, with and without the cache stage; a GPU always accumulates in
            // registers.
            return task.target.isGpu() ? RuleResult::ApplyAndSkipRest : RuleResult::Apply;
        }
        Derived apply(
            const SearchTask&, const SearchParams&, const State& state, const StateAnalysis&, int stage) const override
        {
            // The cache stage, now at `stage`, is tiled next.
            return { { withStep(state, sched::CacheWriteStep { stage, "local" }, "AddCacheWrite"), stage } };
        }
    };

    const std::string& tilingStructure(const SearchTask& task, const SearchParams& params)
    {
        return task.target.isGpu() ? params.gpuTilingStructure : params.cpuTilingStructure;
    }

    class MultiLevelTilingWithFusion final : public SketchRule {
    public:
        std::string name() const override { return "MultiLevelTilingWithFusion"; }
        RuleResult condition(const SearchTask& task, const SearchParams&, const State& state,
            const StateAnalysis& analysis, int stage) const override
        {
            if (!analysis.needsMultiLevelTiling(stage) || analysis.singleElementwiseMatchedConsumer(state, stage) < 0)
                return RuleResult::Skip;
            return hasCacheWriteStage(state, stage) || task.target.isGpu() ? RuleResult::ApplyAndSkipRest
                                                                           : RuleResult::Apply;
        }
        Derived apply(const SearchTask& task, const SearchParams& params, const State& state,
            const StateAnalysis& analysis, int stage) const override
        {
            const int consumer = analysis.singleElementwiseMatchedConsumer(state, stage);
            const std::string& structure = tilingStructure(task, params);
            std::vector<int> splits;
            const State base = orDie(multiLevelTiling(state, stage, structure, splits), "MultiLevelTilingWithFusion");
            Derived out;
            // The CPU fuses at level 1 or 2 (two sketches); a GPU at level 3, under the threads.
            const std::vector<int> levels = task.target.isGpu() ? std::vector<int> { 3 } : std::vector<int> { 1, 2 };
            for (int level : levels) {
                if (level > static_cast<int>(structure.size())
                    || std::tolower(static_cast<unsigned char>(structure[static_cast<size_t>(level - 1)])) != 's')
                    continue;
                const State tiled = orDie(followTiling(base, consumer, splits, level), "MultiLevelTilingWithFusion");
                const int target = level * static_cast<int>(splits.size()) - 1;
                out.emplace_back(
                    withStep(tiled, sched::ComputeAtStep { stage, consumer, target }, "MultiLevelTilingWithFusion"),
                    stage - 1);
            }
            return out;
        }
    };

    class MultiLevelTiling final : public SketchRule {
    public:
        std::string name() const override { return "MultiLevelTiling"; }
        RuleResult condition(const SearchTask&, const SearchParams&, const State&, const StateAnalysis& analysis,
            int stage) const override
        {
            return analysis.needsMultiLevelTiling(stage) ? RuleResult::ApplyAndSkipRest : RuleResult::Skip;
        }
        Derived apply(const SearchTask& task, const SearchParams& params, const State& state, const StateAnalysis&,
            int stage) const override
        {
            std::vector<int> splits;
            return { { orDie(multiLevelTiling(state, stage, tilingStructure(task, params), splits), "MultiLevelTiling"),
                stage - 1 } };
        }
    };

    class SkipStage final : public SketchRule {
    public:
        std::string name() const override { return "SkipStage"; }
        RuleResult condition(
            const SearchTask&, const SearchParams&, const State&, const StateAnalysis&, int) const override
        {
            return RuleResult::Apply;
        }
        Derived apply(
            const SearchTask&, const SearchParams&, const State& state, const StateAnalysis&, int stage) const override
        {
            return { { state, stage - 1 } };
        }
    };

    // The rules that changed a state, for people; SkipStage is left out.
    std::string describe(const std::vector<std::string>& applied)
    {
        std::string out;
        for (const std::string& rule : applied)
            out += (out.empty() ? "" : ", ") + rule;
        return out.empty() ? "no rule (the initial state)" : out;
    }

} // namespace

const std::vector<std::unique_ptr<SketchRule>>& sketchRules(const target::Target& target)
{
    static const std::vector<std::unique_ptr<SketchRule>> cpu = [] {
        std::vector<std::unique_ptr<SketchRule>> r;
        r.push_back(std::make_unique<AlwaysInline>());
        r.push_back(std::make_unique<SimplifyComputeWithConstTensor>());
        r.push_back(std::make_unique<AddRfactor>());
        r.push_back(std::make_unique<AddCacheWrite>());
        r.push_back(std::make_unique<MultiLevelTilingWithFusion>());
        r.push_back(std::make_unique<MultiLevelTiling>());
        r.push_back(std::make_unique<SkipStage>());
        return r;
    }();
    // Ansor's GPU order. Not yet: SpecialComputeLocationGPU (winograd's const tensors; no op here has them),
    // docs/gpu.md.
    static const std::vector<std::unique_ptr<SketchRule>> gpu = [] {
        std::vector<std::unique_ptr<SketchRule>> r;
        r.push_back(std::make_unique<AddCacheRead>());
        r.push_back(std::make_unique<AlwaysInline>());
        r.push_back(std::make_unique<SimplifyComputeWithConstTensor>());
        r.push_back(std::make_unique<CrossThreadReduction>());
        r.push_back(std::make_unique<AddCacheWrite>());
        r.push_back(std::make_unique<MultiLevelTilingWithFusion>());
        r.push_back(std::make_unique<MultiLevelTiling>());
        r.push_back(std::make_unique<SkipStage>());
        return r;
    }();
    return target.isGpu() ? gpu : cpu;
}

Expected<std::vector<Sketch>> generateSketches(const SearchTask& task, const SearchParams& params)
{
    struct Item {
        State state;
        int stage = 0;
        std::vector<std::string> rules;
    };
    const State initial = State::initial(task.dag);
    std::vector<Item> now { { initial, initial.numStages() - 1, {} } };
    std::vector<Sketch> out;
    std::set<uint64_t> seen;
    try {
        while (!now.empty()) {
            std::vector<Item> next;
            for (Item& item : now) {
                if (item.stage < 0) {
                    if (!seen.insert(stateHash(item.state)).second)
                        continue;
                    Sketch sketch { item.state, {}, describe(item.rules) };
                    const auto& steps = item.state.steps();
                    for (size_t i = 1; i < steps.size(); ++i)
                        if (std::holds_alternative<sched::RfactorStep>(steps[i])
                            && std::holds_alternative<sched::SplitStep>(steps[i - 1]))
                            sketch.openSplits.push_back(static_cast<int>(i - 1));
                    out.push_back(std::move(sketch));
                    continue;
                }
                const StateAnalysis analysis(item.state);
                for (const auto& rule : sketchRules(task.target)) {
                    const RuleResult result = rule->condition(task, params, item.state, analysis, item.stage);
                    if (result == RuleResult::Skip)
                        continue;
                    auto derived = rule->apply(task, params, item.state, analysis, item.stage);
                    for (size_t k = 0; k < derived.size(); ++k) {
                        Item d { std::move(derived[k].first), derived[k].second, item.rules };
                        if (rule->name() != "SkipStage")
                            d.rules.push_back(rule->name() + "(" + item.state.stage(item.stage).op->name()
                                + (derived.size() > 1 ? " #" + std::to_string(k + 1) : "") + ")");
                        next.push_back(std::move(d));
                    }
                    if (result == RuleResult::ApplyAndSkipRest)
                        break;
                }
            }
            now = std::move(next);
        }
    } catch (const InternalError& e) {
        return makeError(ErrorKind::Internal, e.what());
    }
    return out;
}

std::string toString(const Sketch& sketch)
{
    std::ostringstream os;
    os << "rules: " << sketch.rules << "\n";
    for (int step : sketch.openSplits)
        os << "open split: step " << step << " (its length 1 is sampled)\n";
    os << sketch.state.toString();
    return os.str();
}

} // namespace ts::search
