// Ansor's CPU initial-population rules (InitFillTileSize, InitChangeComputeLocation, InitParallel, InitUnroll,
// InitVectorization), applied in that order to a copy of the sketch. The mutations and crossover are in
// mutation.cpp; the helpers both use in annotation_rules.cpp.
#include "core/search/annotation.h"

#include "core/lower/lower.h"
#include "core/search/annotation_rules.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ts::search {

using sched::Annotation;
using sched::ComputeAtKind;
using sched::IteratorKind;
using sched::State;

const std::vector<std::vector<int64_t>>& splitFactorizations(int64_t extent, int parts, int64_t maxInnermost)
{
    using Key = std::tuple<int64_t, int, int64_t>;
    thread_local std::map<Key, std::vector<std::vector<int64_t>>> memo;
    auto [entry, inserted] = memo.try_emplace(Key { extent, parts, maxInnermost });
    if (!inserted || parts < 1 || extent < 1)
        return entry->second;
    std::vector<std::vector<int64_t>>& out = entry->second;
    std::vector<int64_t> lengths(static_cast<size_t>(parts), 1);
    // Depth-first, each length a divisor of what the outer ones leave (the order of Ansor's DfsEnumerate).
    auto enumerate = [&](auto&& self, size_t level, int64_t remaining) -> void {
        if (level == lengths.size()) {
            if (lengths.back() <= maxInnermost)
                out.push_back(lengths);
            return;
        }
        for (int64_t d : detail::divisors(remaining)) {
            lengths[level] = d;
            self(self, level + 1, remaining / d);
        }
    };
    enumerate(enumerate, 0, extent);
    return out;
}

namespace {
    // InitFillTileSize: every unfilled or open split gets one factorization drawn uniformly.
    Expected<State> initFillTileSize(const Sketch& sketch, const SearchParams& params, Rng& rng)
    {
        const auto& steps = sketch.state.steps();
        std::vector<sched::SplitFill> fills;
        for (size_t i = 0; i < steps.size(); ++i) {
            const auto* split = std::get_if<sched::SplitStep>(&steps[i]);
            const bool open = std::find(sketch.openSplits.begin(), sketch.openSplits.end(), static_cast<int>(i))
                != sketch.openSplits.end();
            if (!split || (split->filled() && !open))
                continue;
            if (!split->extent || *split->extent < 1)
                return makeError(ErrorKind::InvalidArgument,
                    "step " + std::to_string(i) + " (SP): the extent of an open split is unknown");
            const auto& schemes = splitFactorizations(
                *split->extent, static_cast<int>(split->lengths.size()), params.maxInnermostSplitFactor);
            if (schemes.empty())
                return makeError(ErrorKind::InvalidArgument,
                    "step " + std::to_string(i) + " (SP): no factorization of " + std::to_string(*split->extent)
                        + " with innermost <= " + std::to_string(params.maxInnermostSplitFactor));
            const auto pick = static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(schemes.size()) - 1));
            fills.push_back(sched::SplitFill { static_cast<int>(i), schemes[pick] });
        }
        if (fills.empty())
            return sketch.state;
        return sketch.state.withSplitLengths(fills);
    }

    // InitChangeComputeLocation: from the last stage to the first, each stage that is neither tiled nor
    // multi-level tiled nor inlined is inlined (only when it is computed at a loop and does not reduce, as
    // Ansor), computed at root, or computed at one of its candidate loops, uniformly.
    Expected<void> initChangeComputeLocation(const StateAnalysis& analysis, State& state, Rng& rng)
    {
        for (int stage = state.numStages() - 1; stage >= 0; --stage) {
            const sched::Stage& s = state.stage(stage);
            if (s.isPlaceholder() || s.computeAt == ComputeAtKind::Inlined)
                continue;
            if (isTiled(s) || analysis.needsMultiLevelTiling(stage))
                continue;
            const auto candidates = detail::computeLocationCandidates(analysis, state, stage);
            const auto choice = rng.uniformInt(0, static_cast<int64_t>(candidates.size()) + 1);
            if (choice == 0) {
                if (!hasReduceIter(s) && s.computeAt == ComputeAtKind::Iter)
                    TS_CHECK(state.apply(sched::ComputeInlineStep { stage }));
            } else if (choice == 1) {
                TS_CHECK(state.apply(sched::ComputeRootStep { stage }));
            } else {
                const auto& [target, iter] = candidates[static_cast<size_t>(choice - 2)];
                TS_CHECK(state.apply(sched::ComputeAtStep { stage, target, iter }));
            }
        }
        return {};
    }

    // InitParallel for one stage from iterator `offset`: fuse the outer spatial loops until a reduction, an
    // annotated loop, an attach point (included) or enough parallelism; annotate the fused loop parallel.
    // When that loop would run once, the stages computed at its end and the loops after it are tried first.
    Expected<void> annotateParallel(const SearchTask& task, State& state, int stage, int offset)
    {
        const int64_t enough = int64_t { task.cores() } * 16;
        std::vector<int> toFuse;
        int64_t degree = 1;
        int iter = offset;
        const int numIters = static_cast<int>(state.stage(stage).iters.size());
        for (; iter < numIters; ++iter) {
            const sched::Iterator& it = state.stage(stage).iters[static_cast<size_t>(iter)];
            // Ansor stops at reduce iterators only; a fused mixed iterator also carries a reduction.
            if (it.kind != IteratorKind::Spatial || it.annotation != Annotation::None)
                break;
            toFuse.push_back(iter);
            degree *= std::max<int64_t>(it.extent, 1);
            if (degree > enough)
                break;
            if (!state.attachedAt(stage, iter).empty())
                break;
        }
        if (degree == 1 && iter < numIters) {
            const std::vector<int> attached = state.attachedAt(stage, iter);
            if (!attached.empty()) {
                for (int child : attached)
                    TS_CHECK(annotateParallel(task, state, child, 0));
                TS_CHECK(annotateParallel(task, state, stage, iter + 1));
                // Ansor also marks the outer loops (which run once) parallel. A tile-size mutation can make
                // them run more than once around the parallel loops inside, which TVM's codegen then refuses
                // (nested parallel loops); we leave them serial.
                return {};
            }
        }
        if (toFuse.empty())
            return {};
        if (toFuse.size() > 1)
            TS_CHECK(state.apply(sched::FuseStep { stage, toFuse }));
        return state.apply(sched::AnnotationStep { stage, toFuse.front(), Annotation::Parallel });
    }

    Expected<void> initParallel(const SearchTask& task, State& state)
    {
        for (int stage = 0; stage < state.numStages(); ++stage) {
            const sched::Stage& s = state.stage(stage);
            if (s.computeAt != ComputeAtKind::Root || s.isPlaceholder())
                continue;
            TS_CHECK(annotateParallel(task, state, stage, 0));
        }
        return {};
    }

    // Ansor's GetSpatialSplitStepIds: the split steps of the stage's spatial iterators (its reduce splits come
    // last and are left out), latest first.
    std::vector<int> spatialSplitSteps(const State& state, int stage)
    {
        size_t reduceLeft = state.stage(stage).op->reduceAxes().size();
        std::vector<int> out;
        const auto& steps = state.steps();
        for (int i = static_cast<int>(steps.size()) - 1; i >= 0; --i) {
            const auto* split = std::get_if<sched::SplitStep>(&steps[static_cast<size_t>(i)]);
            if (!split || detail::stageIdNow(state, i, split->stageId) != stage)
                continue;
            if (reduceLeft > 0)
                --reduceLeft;
            else
                out.push_back(i);
        }
        return out;
    }

    // The iterators of `stage` whose names end in `suffix`, from `first` on, until one does not.
    std::vector<int> levelIters(const sched::Stage& s, size_t first, size_t count, const std::string& suffix)
    {
        std::vector<int> ids;
        for (size_t i = first; i < first + count && i < s.iters.size(); ++i) {
            if (!detail::endsWith(s.iters[i].name, suffix))
                break;
            ids.push_back(static_cast<int>(i));
        }
        return ids;
    }

    // InitThreadBind (GPU): a multi-level-tiled root fuses its .0 loops into blockIdx.x, its .1 loops into a
    // vthread (invalid past the device's vthread limit) and its .2 loops into threadIdx.x (invalid under a
    // warp, unless the whole space is under two); an untiled root fuses its spatial loops and binds them to
    // threadIdx.x, split by the warp size into blockIdx.x when longer; a shared copy fuses its loops, splits
    // off a vector of 1 and follows its consumer's thread tiles (cooperative fetching); a root with a
    // cross-thread reduction binds its outer spatial loops to blockIdx.x.
    Expected<void> initThreadBind(const SearchTask& task, State& state)
    {
        const int64_t warp = detail::warpSize(task.target);
        const int64_t maxVThread = task.target.maxVThreadExtent > 0 ? task.target.maxVThreadExtent : 8;
        const StateAnalysis analysis(state);
        std::set<int> tiledRoots;
        for (int stage = 0; stage < state.numStages(); ++stage)
            if (analysis.needsMultiLevelTiling(stage) && state.stage(stage).computeAt == ComputeAtKind::Iter)
                tiledRoots.insert(state.stage(stage).attachStage);
        for (int stage = state.numStages() - 1; stage >= 0; --stage) {
            const sched::Stage& s = state.stage(stage);
            if (s.computeAt == ComputeAtKind::Inlined || s.isPlaceholder())
                continue;
            auto fuse = [&](const std::vector<int>& ids) -> Expected<int> {
                if (ids.empty())
                    return makeError(ErrorKind::InvalidArgument, "thread binding: no loop to fuse");
                if (ids.size() > 1)
                    TS_CHECK(state.apply(sched::FuseStep { stage, ids }));
                return ids.front();
            };
            auto bind = [&](int iter, Annotation a) { return state.apply(sched::AnnotationStep { stage, iter, a }); };
            if (hasCrossThreadReduction(state, stage)) {
                // A root with a cross-thread reduction (its own or one computed at it): its outer spatial loops,
                // up to a reduction, an annotation or an attach point, on blockIdx.x.
                if (s.computeAt != ComputeAtKind::Root)
                    continue;
                std::vector<int> outer;
                for (size_t i = 0; i < s.iters.size(); ++i) {
                    if (s.iters[i].kind != IteratorKind::Spatial || s.iters[i].annotation != Annotation::None
                        || (i > 0 && !state.attachedAt(stage, static_cast<int>(i) - 1).empty()))
                        break;
                    outer.push_back(static_cast<int>(i));
                }
                if (!outer.empty()) {
                    TS_TRY(const int fused, fuse(outer));
                    TS_CHECK(bind(fused, Annotation::BlockX));
                }
                continue;
            }
            if (std::any_of(s.iters.begin(), s.iters.end(),
                    [](const sched::Iterator& it) { return it.annotation == Annotation::ThreadX; }))
                continue;
            if (s.computeAt == ComputeAtKind::Root && !tiledRoots.count(stage)) {
                std::vector<int> spatial;
                for (size_t i = 0; i < s.iters.size() && s.iters[i].kind == IteratorKind::Spatial; ++i)
                    spatial.push_back(static_cast<int>(i));
                TS_TRY(const int fused, fuse(spatial)); // a root's extents are known: the fused one is their product
                const int64_t extent = state.stage(stage).iters[static_cast<size_t>(fused)].extent;
                if (extent <= warp) {
                    TS_CHECK(bind(fused, Annotation::ThreadX));
                } else {
                    TS_CHECK(state.apply(sched::SplitStep { stage, fused, extent, { warp }, true }));
                    TS_CHECK(bind(fused, Annotation::BlockX));
                    TS_CHECK(bind(fused + 1, Annotation::ThreadX));
                }
                continue;
            }
            if (s.computeAt == ComputeAtKind::Root) {
                const size_t axes = s.op->axes().size();
                int64_t space = 1;
                for (const ir::IterVar& a : s.op->axes())
                    space *= a.extent;
                const bool checkMinThreads = space > warp * 2;
                TS_TRY(const int block, fuse(levelIters(s, 0, axes, ".0")));
                TS_CHECK(bind(block, Annotation::BlockX));
                TS_TRY(const int vthread, fuse(levelIters(state.stage(stage), 1, axes, ".1")));
                if (state.stage(stage).iters[static_cast<size_t>(vthread)].extent > maxVThread)
                    return makeError(ErrorKind::InvalidArgument, "thread binding: vthread extent over the device's");
                TS_CHECK(bind(vthread, Annotation::VThread));
                TS_TRY(const int thread, fuse(levelIters(state.stage(stage), 2, axes, ".2")));
                if (checkMinThreads && state.stage(stage).iters[static_cast<size_t>(thread)].extent < warp)
                    return makeError(ErrorKind::InvalidArgument, "thread binding: fewer threads than a warp");
                TS_CHECK(bind(thread, Annotation::ThreadX));
                continue;
            }
            if (s.computeAt == ComputeAtKind::Iter && detail::endsWith(s.op->name(), ".shared")) {
                const std::vector<int> splits = spatialSplitSteps(state, s.attachStage);
                std::vector<int> all;
                for (size_t i = 0; i < s.iters.size(); ++i)
                    all.push_back(static_cast<int>(i));
                TS_TRY(const int fused, fuse(all));
                // The copy's region spans the threads its consumer is now bound to: infer it again.
                TS_TRY(state, lower::inferBound(state));
                const int64_t extent = state.stage(stage).iters[static_cast<size_t>(fused)].extent;
                TS_CHECK(state.apply(sched::SplitStep { stage, fused, extent, { 1 }, true }));
                TS_CHECK(bind(fused + 1, Annotation::Vectorize));
                TS_CHECK(state.apply(sched::FollowFusedSplitStep { stage, fused, splits, 1, true }));
                TS_CHECK(bind(fused + 1, Annotation::ThreadX));
            }
        }
        return {};
    }

    // InitUnroll: stages with a reduction get auto_unroll_max_step on their outermost loop, a value drawn from
    // unrollMaxSteps (gpuUnrollMaxSteps on a GPU). (Ansor's always_unroll_inner op attribute has no counterpart
    // in our ops.)
    Expected<void> initUnroll(const std::vector<int>& choices, State& state, Rng& rng)
    {
        if (choices.empty())
            return {};
        for (int stage = 0; stage < state.numStages(); ++stage) {
            const sched::Stage& s = state.stage(stage);
            if (s.computeAt == ComputeAtKind::Inlined || s.isPlaceholder() || !hasReduceIter(s))
                continue;
            const int value = choices[static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(choices.size()) - 1))];
            TS_CHECK(state.apply(
                sched::PragmaStep { stage, 0, std::string(detail::kAutoUnrollPragma) + "$" + std::to_string(value) }));
        }
        return {};
    }

    // The op axis (a root node) an iterator's node was split from; -1 through a fuse.
    int rootAxisOf(const sched::Stage& s, int node)
    {
        while (node >= s.numRootNodes()) {
            const auto split = std::find_if(s.relations.begin(), s.relations.end(), [&](const sched::IterRelation& r) {
                return r.kind == sched::IterRelation::Kind::Split && (r.outer == node || r.inner == node);
            });
            if (split == s.relations.end())
                return -1;
            node = split->parent;
        }
        return node;
    }

    // TuneScope's own, not Ansor's. Where the measurements pack weights (SearchTask::packsWeights), a
    // multi-level-tiled stage computed inside another whose innermost loop does not index its weight (an NCHW
    // conv2d's xx.3, 7 lanes on ResNet-18's stride-2 layers) moves, half the time, a loop of its innermost tile
    // that does (ff.3) innermost, for InitVectorization to vectorize: the packed weight is read contiguously, the
    // data broadcast, and the accumulators (a local buffer stores its vectorized axis innermost) stay vectors.
    // Ansor's rule only vectorizes the loop the tiling left innermost, which on NCHW is the image width.
    Expected<void> initWeightAxisInnermost(const SearchTask& task, const SearchParams& params, State& state, Rng& rng)
    {
        if (!params.weightAxisInnermost || !task.packsWeights || task.target.isGpu())
            return {};
        for (int stage = 0; stage < state.numStages(); ++stage) {
            const sched::Stage& s = state.stage(stage);
            if (s.computeAt != ComputeAtKind::Iter || !isTiled(s) || s.op->inputs().size() < 2
                || !lower::hasLayoutFreeWeight(s.op->tag()))
                continue;
            // The op axes that index its weight (second input); a spatial one is the vector loop's to take.
            const std::vector<int> axes = lower::loadAxes(*s.op, s.op->inputs()[1]);
            auto indexesWeight = [&](int iter) {
                const int root = rootAxisOf(s, s.iters[static_cast<size_t>(iter)].node);
                return root >= 0 && root < static_cast<int>(s.op->axes().size())
                    && std::find(axes.begin(), axes.end(), root) != axes.end();
            };
            // The innermost tile: the trailing run of plain spatial loops with nothing computed at them.
            const int numIters = static_cast<int>(s.iters.size());
            int first = numIters;
            for (; first > 0; --first) {
                const sched::Iterator& it = s.iters[static_cast<size_t>(first - 1)];
                if (it.kind != IteratorKind::Spatial || it.annotation != Annotation::None
                    || !state.attachedAt(stage, first - 1).empty())
                    break;
            }
            if (numIters - first < 2 || indexesWeight(numIters - 1))
                continue;
            std::vector<int> candidates;
            for (int i = first; i < numIters - 1; ++i)
                if (indexesWeight(i))
                    candidates.push_back(i);
            if (candidates.empty() || rng.uniformInt(0, 1) == 0)
                continue;
            const int moved
                = candidates[static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(candidates.size()) - 1))];
            std::vector<int> order;
            for (int i = 0; i < numIters; ++i)
                if (i != moved)
                    order.push_back(i);
            order.push_back(moved);
            TS_CHECK(state.apply(sched::ReorderStep { stage, order }));
        }
        return {};
    }

    // InitVectorization: fuse the innermost spatial loops (stopping at an attach point, a reduction, an
    // annotated loop, more than maxVectorizeSize lanes, and after one loop in a tiled stage, whose inner two
    // loops are not contiguous), keep a random number of them as Ansor does, and vectorize.
    Expected<void> initVectorization(const SearchParams& params, State& state, Rng& rng)
    {
        for (int stage = 0; stage < state.numStages(); ++stage) {
            const sched::Stage& s = state.stage(stage);
            if (s.computeAt == ComputeAtKind::Inlined || s.isPlaceholder())
                continue;
            const int numIters = static_cast<int>(s.iters.size());
            const bool tiled = isTiled(s);
            int64_t lanes = 1;
            int fusible = 0;
            while (fusible < numIters) {
                const int iter = numIters - 1 - fusible;
                if (!state.attachedAt(stage, iter).empty())
                    break;
                const sched::Iterator& it = s.iters[static_cast<size_t>(iter)];
                if (it.kind != IteratorKind::Spatial || it.annotation != Annotation::None)
                    break;
                if (tiled && fusible != 0)
                    break;
                lanes *= std::max<int64_t>(it.extent, 1);
                if (lanes > params.maxVectorizeSize)
                    break;
                ++fusible;
            }
            // As Ansor: 1 + rand % (n - 1), so n loops are never all fused when more than one could be.
            if (fusible > 1)
                fusible = 1 + static_cast<int>(rng.uniformInt(0, fusible - 2));
            if (fusible == 0)
                continue;
            const int first = numIters - fusible;
            if (fusible > 1) {
                std::vector<int> ids;
                for (int i = first; i < numIters; ++i)
                    ids.push_back(i);
                TS_CHECK(state.apply(sched::FuseStep { stage, ids }));
            }
            TS_CHECK(state.apply(sched::AnnotationStep { stage, first, Annotation::Vectorize }));
        }
        return {};
    }
} // namespace

Expected<State> randomAnnotation(const SearchTask& task, const Sketch& sketch, const SearchParams& params, Rng& rng)
{
    if (task.target.isGpu()) { // Ansor's GPU order: tile sizes, thread binding, unroll
        TS_TRY(State state, initFillTileSize(sketch, params, rng));
        TS_TRY(state, lower::inferBound(state));
        TS_CHECK(initThreadBind(task, state));
        TS_CHECK(initUnroll(unrollChoices(params, task.target), state, rng));
        return detail::checked(state);
    }
    TS_TRY(State state, initFillTileSize(sketch, params, rng));
    if (!params.disableChangeComputeLocation) {
        const StateAnalysis analysis(state);
        TS_CHECK(initChangeComputeLocation(analysis, state, rng));
    }
    // The later rules read loop extents, those of stages computed inside others included.
    TS_TRY(state, lower::inferBound(state));
    TS_CHECK(initParallel(task, state));
    TS_CHECK(initUnroll(unrollChoices(params, task.target), state, rng));
    TS_CHECK(initWeightAxisInnermost(task, params, state, rng));
    TS_CHECK(initVectorization(params, state, rng));
    return detail::checked(state);
}

} // namespace ts::search
