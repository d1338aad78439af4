// Ansor's mutation rules (MutateTileSize, MutateAutoUnroll, MutateComputeLocation, MutateParallel) and the
// paper's node-based crossover. Each edits the step history and replays it from the task's DAG; a result
// that does not replay or whose bounds do not infer is an error, and the caller drops it.
#include "core/lower/lower.h"
#include "core/schedule/step_json.h"
#include "core/search/annotation.h"
#include "core/search/annotation_rules.h"
#include "core/support/strings.h"

#include <limits>
#include <map>
#include <numeric>
#include <type_traits>

namespace ts::search {

using sched::State;
using sched::Step;

const char* toString(MutationKind kind)
{
    switch (kind) {
    case MutationKind::TileSize:
        return "MutateTileSize";
    case MutationKind::AutoUnroll:
        return "MutateAutoUnroll";
    case MutationKind::ComputeLocation:
        return "MutateComputeLocation";
    case MutationKind::Parallel:
        return "MutateParallel";
    }
    return "?";
}

MutationKind drawMutation(const SearchParams& params, Rng& rng)
{
    const MutationWeights& w = params.mutationWeights;
    switch (rng.weightedChoice({ w.tileSize, w.autoUnroll, w.computeLocation, w.parallel })) {
    case 0:
        return MutationKind::TileSize;
    case 1:
        return MutationKind::AutoUnroll;
    case 2:
        return MutationKind::ComputeLocation;
    default:
        return MutationKind::Parallel;
    }
}

namespace {
    Error nothingToMutate(MutationKind kind, const std::string& why)
    {
        return makeError(ErrorKind::InvalidArgument, std::string(toString(kind)) + ": " + why);
    }

    template <typename T> T pick(const std::vector<T>& values, Rng& rng)
    {
        return values[static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(values.size()) - 1))];
    }

    // Moves one divisor factor of a tile length to another level of the same split.
    Expected<State> mutateTileSize(const State& state, const SearchParams& params, Rng& rng)
    {
        const int64_t maxInner = params.maxInnermostSplitFactor;
        const auto& steps = state.steps();
        std::vector<int> splits;
        for (size_t i = 0; i < steps.size(); ++i) {
            const auto* split = std::get_if<sched::SplitStep>(&steps[i]);
            if (split && split->extent && split->filled() && !split->lengths.empty()
                && *split->lengths.back() <= maxInner)
                splits.push_back(static_cast<int>(i));
        }
        if (splits.empty())
            return nothingToMutate(MutationKind::TileSize, "no split to mutate");
        // A split of extent 1 has nothing to move; Ansor retries 4 times per split before giving up.
        int stepIndex = -1;
        int64_t extent = 0;
        for (size_t retry = 0; retry < splits.size() * 4 && extent <= 1; ++retry) {
            stepIndex = pick(splits, rng);
            extent = *std::get<sched::SplitStep>(steps[static_cast<size_t>(stepIndex)]).extent;
        }
        if (extent <= 1)
            return nothingToMutate(MutationKind::TileSize, "every split has extent 1");

        const auto& split = std::get<sched::SplitStep>(steps[static_cast<size_t>(stepIndex)]);
        // levels[0] is the outer rest, levels[1..] the split's lengths (innermost last).
        std::vector<int64_t> levels(split.lengths.size() + 1, 1);
        int64_t product = 1;
        for (size_t i = 0; i < split.lengths.size(); ++i) {
            levels[i + 1] = *split.lengths[i];
            product *= levels[i + 1];
        }
        levels[0] = extent / product;
        std::vector<size_t> order(levels.size());
        std::iota(order.begin(), order.end(), size_t { 0 });
        rng.shuffle(order);
        for (size_t i = 0; i < order.size(); ++i) {
            const size_t src = order[i];
            if (levels[src] <= 1)
                continue;
            const size_t dst = order[(i + 1) % order.size()];
            const std::vector<int64_t>& factors = detail::divisors(levels[src]);
            size_t maxIndex = factors.size() - 1;
            if (dst == levels.size() - 1) {
                while (maxIndex >= 1 && factors[maxIndex] * levels[dst] > maxInner)
                    --maxIndex;
                if (maxIndex == 0)
                    continue; // the innermost level cannot grow; try the next pair
            }
            const int64_t factor = factors[static_cast<size_t>(rng.uniformInt(1, static_cast<int64_t>(maxIndex)))];
            levels[src] /= factor;
            levels[dst] *= factor;
            TS_TRY(State mutated,
                state.withSplitLengths(stepIndex, std::vector<int64_t>(levels.begin() + 1, levels.end())));
            return detail::checked(mutated);
        }
        return nothingToMutate(MutationKind::TileSize, "no factor can move between the levels of the chosen split");
    }

    // Redraws one auto_unroll_max_step value. Unlike Ansor, the new value differs from the old one, so the
    // mutation never returns the state it was given.
    Expected<State> mutateAutoUnroll(const SearchTask& task, const State& state, const SearchParams& params, Rng& rng)
    {
        std::vector<Step> steps = state.steps();
        std::vector<int> pragmas;
        for (size_t i = 0; i < steps.size(); ++i)
            if (const auto* p = std::get_if<sched::PragmaStep>(&steps[i]);
                p && detail::startsWith(p->pragma, detail::kAutoUnrollPragma))
                pragmas.push_back(static_cast<int>(i));
        if (pragmas.empty())
            return nothingToMutate(MutationKind::AutoUnroll, "no auto_unroll_max_step pragma");
        auto& pragma = std::get<sched::PragmaStep>(steps[static_cast<size_t>(pick(pragmas, rng))]);
        std::vector<std::string> others;
        for (int value : unrollChoices(params, task.target)) {
            std::string text = std::string(detail::kAutoUnrollPragma) + "$" + std::to_string(value);
            if (text != pragma.pragma)
                others.push_back(std::move(text));
        }
        if (others.empty())
            return nothingToMutate(MutationKind::AutoUnroll, "no other unroll value to try");
        pragma.pragma = pick(others, rng);
        return detail::replayAndInfer(task.dag, steps);
    }

    // The iterator of stage `target` as it was before step `stepIndex`, named as `name` is now: a fused
    // loop stands for its innermost part, where the stages computed at it were attached before the fuse.
    int iterBeforeStep(const SearchTask& task, const State& state, int stepIndex, int target, const std::string& name)
    {
        std::string part = name;
        if (detail::endsWith(part, "@")) {
            part.pop_back();
            part = part.substr(part.rfind('@') == std::string::npos ? 0 : part.rfind('@') + 1);
        }
        const std::vector<Step> prefix(state.steps().begin(), state.steps().begin() + stepIndex);
        auto before = State::replay(task.dag, prefix);
        if (!before || target >= before->numStages())
            return -1;
        const auto& iters = before->stage(target).iters;
        for (size_t i = 0; i < iters.size(); ++i)
            if (iters[i].name == part)
                return static_cast<int>(i);
        return -1;
    }

    // Moves one stage that is computed at a loop (and neither tiled nor multi-level tiled) to another of its
    // candidate loops. Unlike Ansor, the current location is not a candidate, and the chosen loop is named
    // as it was when the compute_at step was applied (Ansor reuses the loop's position now, which a later
    // fuse has shifted).
    Expected<State> mutateComputeLocation(
        const SearchTask& task, const State& state, const SearchParams& params, Rng& rng)
    {
        if (params.disableChangeComputeLocation)
            return nothingToMutate(MutationKind::ComputeLocation, "changing compute locations is disabled");
        const StateAnalysis analysis(state);
        std::vector<int> computeAts;
        for (size_t i = 0; i < state.steps().size(); ++i) {
            const auto* ca = std::get_if<sched::ComputeAtStep>(&state.steps()[i]);
            if (!ca)
                continue;
            const int now = detail::stageIdNow(state, static_cast<int>(i), ca->stageId);
            if (isTiled(state.stage(now)) || analysis.needsMultiLevelTiling(now))
                continue;
            computeAts.push_back(static_cast<int>(i));
        }
        if (computeAts.empty())
            return nothingToMutate(MutationKind::ComputeLocation, "no stage computed at a loop to move");
        const int stepIndex = pick(computeAts, rng);
        const auto& ca = std::get<sched::ComputeAtStep>(state.steps()[static_cast<size_t>(stepIndex)]);
        const int now = detail::stageIdNow(state, stepIndex, ca.stageId);
        const sched::Stage& stage = state.stage(now);
        std::vector<std::pair<int, int>> candidates;
        for (const auto& candidate : detail::computeLocationCandidates(analysis, state, now))
            if (candidate != std::pair { stage.attachStage, stage.attachIter })
                candidates.push_back(candidate);
        if (candidates.empty())
            return nothingToMutate(MutationKind::ComputeLocation, "no other location for " + stage.op->name());
        const auto [target, iter] = pick(candidates, rng);
        const int targetThen = detail::stageIdAtStep(state, stepIndex, target);
        const int iterThen = targetThen < 0 ? -1
                                            : iterBeforeStep(task, state, stepIndex, targetThen,
                                                state.stage(target).iters[static_cast<size_t>(iter)].name);
        if (iterThen < 0)
            return nothingToMutate(
                MutationKind::ComputeLocation, "the chosen loop did not exist at the compute_at step");
        std::vector<Step> steps = state.steps();
        steps[static_cast<size_t>(stepIndex)] = sched::ComputeAtStep { ca.stageId, targetThen, iterThen };
        return detail::replayAndInfer(task.dag, steps);
    }

    bool addsStage(const Step& step)
    {
        return std::holds_alternative<sched::CacheReadStep>(step) || std::holds_alternative<sched::CacheWriteStep>(step)
            || std::holds_alternative<sched::RfactorStep>(step);
    }

    // Changes how many outer loops are fused into a parallel loop (a parallel annotation on loop 0 right after
    // a fuse starting at loop 0). Later annotations and pragmas of that stage follow the shift of its loops; any
    // other later step on it, or a step that adds stages, gives up (as Ansor). Unlike Ansor, the current
    // number of fused loops is not redrawn.
    Expected<State> mutateParallel(const SearchTask& task, const State& state, Rng& rng)
    {
        const auto& steps = state.steps();
        std::vector<int> parallels;
        for (size_t i = 1; i < steps.size(); ++i) {
            const auto* an = std::get_if<sched::AnnotationStep>(&steps[i]);
            const auto* fuse = std::get_if<sched::FuseStep>(&steps[i - 1]);
            if (an && an->annotation == sched::Annotation::Parallel && an->iterId == 0 && fuse
                && fuse->stageId == an->stageId && fuse->fusedIds.front() == 0)
                parallels.push_back(static_cast<int>(i));
        }
        if (parallels.empty())
            return nothingToMutate(MutationKind::Parallel, "no parallel loop made by a fuse");
        const auto annotationIndex = static_cast<size_t>(pick(parallels, rng));
        const auto& fuse = std::get<sched::FuseStep>(steps[annotationIndex - 1]);
        const int stageId = fuse.stageId;

        std::vector<Step> out(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(annotationIndex - 1));
        TS_TRY(const State before, State::replay(task.dag, out));
        const sched::Stage& stage = before.stage(stageId);
        int fusible = 0;
        for (; fusible < static_cast<int>(stage.iters.size()); ++fusible) {
            const sched::Iterator& it = stage.iters[static_cast<size_t>(fusible)];
            if (it.kind != sched::IteratorKind::Spatial || it.annotation != sched::Annotation::None
                || !before.attachedAt(stageId, fusible).empty())
                break;
        }
        // Fusing more loops shifts the later annotations of the stage outwards; one must not land on the
        // parallel loop (Ansor draws such counts and fails the replay).
        const int current = static_cast<int>(fuse.fusedIds.size());
        int firstLaterIter = std::numeric_limits<int>::max();
        for (size_t i = annotationIndex + 1; i < steps.size(); ++i) {
            const int id = std::visit(
                [](const auto& s) {
                    using T = std::decay_t<decltype(s)>;
                    if constexpr (std::is_same_v<T, sched::AnnotationStep> || std::is_same_v<T, sched::PragmaStep>)
                        return s.iterId;
                    return 0;
                },
                steps[i]);
            if (sched::stepStageId(steps[i]) == stageId && id > 0)
                firstLaterIter = std::min(firstLaterIter, id);
        }
        std::vector<int> choices;
        for (int n = 1; n <= fusible; ++n)
            if (n != current
                && (firstLaterIter == std::numeric_limits<int>::max() || n <= current + firstLaterIter - 1))
                choices.push_back(n);
        if (choices.empty())
            return nothingToMutate(MutationKind::Parallel, "no other number of loops to fuse");
        const int count = pick(choices, rng);
        std::vector<int> ids(static_cast<size_t>(count));
        std::iota(ids.begin(), ids.end(), 0);
        const int shift = fuse.fusedIds.back() - ids.back();
        out.push_back(sched::FuseStep { stageId, ids });
        out.push_back(steps[annotationIndex]);
        for (size_t i = annotationIndex + 1; i < steps.size(); ++i) {
            Step step = steps[i];
            if (addsStage(step))
                return nothingToMutate(MutationKind::Parallel, "a step after the parallel loop adds stages");
            if (const auto* ca = std::get_if<sched::ComputeAtStep>(&step); ca && ca->targetStageId == stageId)
                return nothingToMutate(MutationKind::Parallel, "a stage is computed at the loops after the fuse");
            if (sched::stepStageId(step) == stageId) {
                if (auto* an = std::get_if<sched::AnnotationStep>(&step))
                    an->iterId += an->iterId == 0 ? 0 : shift;
                else if (auto* pr = std::get_if<sched::PragmaStep>(&step))
                    pr->iterId += pr->iterId == 0 ? 0 : shift;
                else
                    return nothingToMutate(MutationKind::Parallel, "another step changes the loops after the fuse");
            }
            out.push_back(std::move(step));
        }
        return detail::replayAndInfer(task.dag, out);
    }

    // The stage a step belongs to, as the state's stages are numbered now (a crossover's "node").
    int nodeOf(const State& state, size_t stepIndex)
    {
        return detail::stageIdNow(state, static_cast<int>(stepIndex), sched::stepStageId(state.steps()[stepIndex]));
    }

    // Whether two steps are the same but for what crossover may take from either parent: split lengths,
    // pragma values and the loop a stage is computed at.
    bool sameStructure(const Step& a, const Step& b)
    {
        if (a.index() != b.index())
            return false;
        if (const auto* sa = std::get_if<sched::SplitStep>(&a)) {
            const auto& sb = std::get<sched::SplitStep>(b);
            return sa->stageId == sb.stageId && sa->iterId == sb.iterId && sa->lengths.size() == sb.lengths.size()
                && sa->innerToOuter == sb.innerToOuter;
        }
        if (const auto* pa = std::get_if<sched::PragmaStep>(&a)) {
            const auto& pb = std::get<sched::PragmaStep>(b);
            return pa->stageId == pb.stageId && pa->iterId == pb.iterId
                && detail::startsWith(pa->pragma, detail::kAutoUnrollPragma)
                == detail::startsWith(pb.pragma, detail::kAutoUnrollPragma);
        }
        if (const auto* ca = std::get_if<sched::ComputeAtStep>(&a))
            return ca->stageId == std::get<sched::ComputeAtStep>(b).stageId;
        return a == b;
    }
} // namespace

uint64_t structureHash(const State& state)
{
    // The fields sameStructure compares, and nothing else.
    std::string text;
    for (const Step& step : state.steps()) {
        if (const auto* split = std::get_if<sched::SplitStep>(&step))
            text += "SP" + std::to_string(split->stageId) + "," + std::to_string(split->iterId) + ","
                + std::to_string(split->lengths.size()) + (split->innerToOuter ? "i" : "o");
        else if (const auto* pragma = std::get_if<sched::PragmaStep>(&step))
            text += "PR" + std::to_string(pragma->stageId) + "," + std::to_string(pragma->iterId)
                + (detail::startsWith(pragma->pragma, detail::kAutoUnrollPragma) ? "u" : pragma->pragma);
        else if (const auto* at = std::get_if<sched::ComputeAtStep>(&step))
            text += "CA" + std::to_string(at->stageId);
        else
            text += sched::stepToJson(step).dump();
        text += ';';
    }
    return fnv1a64(text);
}

Expected<State> transplant(const SearchTask& task, const State& from)
{
    State state = State::initial(task.dag);
    for (const Step& step : from.steps()) {
        const auto* split = std::get_if<sched::SplitStep>(&step);
        if (split == nullptr || !split->innerToOuter || !split->filled()) {
            TS_CHECK(state.apply(step));
            continue;
        }
        // A stage or loop this task does not have: apply names it below.
        const bool known = split->stageId >= 0 && split->stageId < state.numStages() && split->iterId >= 0
            && split->iterId < static_cast<int>(state.stage(split->stageId).iters.size());
        const int64_t extent
            = known ? state.stage(split->stageId).iters[static_cast<size_t>(split->iterId)].extent : -1;
        sched::SplitStep refit = *split;
        if (extent > 0) {
            refit.extent = extent;
            int64_t rest = extent;
            for (size_t i = refit.lengths.size(); i-- > 0;) {
                const int64_t wanted = *refit.lengths[i];
                int64_t length = 1;
                for (int64_t d : detail::divisors(rest))
                    if (d <= wanted)
                        length = d;
                refit.lengths[i] = length;
                rest /= length;
            }
        }
        TS_CHECK(state.apply(Step { refit }));
    }
    return detail::checked(state);
}

Expected<State> mutate(
    const SearchTask& task, const State& state, MutationKind kind, const SearchParams& params, Rng& rng)
{
    TS_CHECK(state.checkFilled());
    Expected<State> out = nothingToMutate(kind, "unknown mutation");
    switch (kind) {
    case MutationKind::TileSize:
        out = mutateTileSize(state, params, rng);
        break;
    case MutationKind::AutoUnroll:
        out = mutateAutoUnroll(task, state, params, rng);
        break;
    case MutationKind::ComputeLocation:
        out = mutateComputeLocation(task, state, params, rng);
        break;
    case MutationKind::Parallel:
        out = mutateParallel(task, state, rng);
        break;
    }
    // Replay and bound errors name the step; say which mutation made them.
    const std::string prefix = std::string(toString(kind)) + ": ";
    if (!out && !detail::startsWith(out.error().message, prefix))
        return makeError(out.error().kind, prefix + out.error().message);
    return out;
}

Expected<State> crossover(const SearchTask& task, const State& a, const State& b, Rng& rng)
{
    const auto& stepsA = a.steps();
    const auto& stepsB = b.steps();
    bool same = stepsA.size() == stepsB.size();
    for (size_t i = 0; same && i < stepsA.size(); ++i)
        same = sameStructure(stepsA[i], stepsB[i]);
    if (!same)
        return makeError(ErrorKind::InvalidArgument,
            "crossover: parents differ in structure (only split lengths, unroll values and compute_at loops may "
            "differ)");
    // One coin per stage: the child takes all of that stage's lengths, pragmas and compute location from
    // the parent it draws.
    std::map<int, bool> fromB;
    std::vector<Step> child = stepsA;
    for (size_t i = 0; i < child.size(); ++i) {
        if (stepsA[i] == stepsB[i])
            continue;
        const int node = nodeOf(a, i);
        auto [it, inserted] = fromB.try_emplace(node, false);
        if (inserted)
            it->second = rng.bernoulli(0.5);
        if (it->second)
            child[i] = stepsB[i];
    }
    return detail::replayAndInfer(task.dag, child);
}

} // namespace ts::search
