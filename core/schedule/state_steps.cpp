// The iterator steps: split, follow splits, fuse, reorder, annotation, pragma, storage_align.
#include "core/schedule/step_applier.h"
#include "core/support/strings.h"

#include <algorithm>

namespace ts::sched {

Error StepApplier::fail(const char* code, int stage, const std::string& why) const
{
    std::string where = "step " + std::to_string(m_stepIndex) + " (" + code + "): stage " + std::to_string(stage);
    if (stage >= 0 && stage < m_state.numStages())
        where += " (" + m_state.stage(stage).op->name() + ")";
    return makeError(ErrorKind::InvalidArgument, where + ": " + why);
}

Expected<void> StepApplier::checkStage(const char* code, int stage) const
{
    if (stage < 0 || stage >= m_state.numStages())
        return fail(code, stage, "no such stage (" + std::to_string(m_state.numStages()) + " stages)");
    if (m_state.stage(stage).isPlaceholder())
        return fail(code, stage, "is a placeholder");
    return {};
}

Expected<void> StepApplier::checkIter(const char* code, int stage, int iter) const
{
    TS_CHECK(checkStage(code, stage));
    const size_t n = m_state.stage(stage).iters.size();
    if (iter < 0 || static_cast<size_t>(iter) >= n)
        return fail(
            code, stage, "iterator " + std::to_string(iter) + " out of range (" + std::to_string(n) + " iterators)");
    return {};
}

Expected<void> StepApplier::operator()(const AnnotationStep& step)
{
    TS_CHECK(checkIter(step.kCode, step.stageId, step.iterId));
    const int code = static_cast<int>(step.annotation);
    if (code < 0 || code >= kNumAnnotations)
        return fail(step.kCode, step.stageId, "unknown annotation " + std::to_string(code));
    const Iterator& it = m_state.stage(step.stageId).iters[static_cast<size_t>(step.iterId)];
    if (step.annotation == Annotation::Parallel && it.kind != IteratorKind::Spatial)
        return fail(step.kCode, step.stageId, "cannot parallelize " + it.name + ": it is a reduction iterator");
    if (it.annotation != Annotation::None && step.annotation != Annotation::None)
        return fail(step.kCode, step.stageId,
            it.name + " is already annotated " + toString(it.annotation) + ", cannot also "
                + toString(step.annotation));
    m_state.mutableStage(step.stageId).iters[static_cast<size_t>(step.iterId)].annotation = step.annotation;
    return {};
}

Expected<void> StepApplier::operator()(const FuseStep& step)
{
    TS_CHECK(checkStage(step.kCode, step.stageId));
    if (step.fusedIds.empty())
        return fail(step.kCode, step.stageId, "no iterators to fuse");
    for (size_t i = 0; i < step.fusedIds.size(); ++i) {
        TS_CHECK(checkIter(step.kCode, step.stageId, step.fusedIds[i]));
        if (i > 0 && step.fusedIds[i] != step.fusedIds[i - 1] + 1)
            return fail(step.kCode, step.stageId, "fused iterators must be consecutive: " + join(step.fusedIds, ", "));
        if (i + 1 < step.fusedIds.size() && !m_state.attachedAt(step.stageId, step.fusedIds[i]).empty())
            return fail(step.kCode, step.stageId,
                "cannot fuse " + m_state.stage(step.stageId).iters[static_cast<size_t>(step.fusedIds[i])].name
                    + ": a stage is computed at it");
    }
    Stage& stage = m_state.mutableStage(step.stageId);
    const int first = step.fusedIds.front();
    const int last = step.fusedIds.back();
    Iterator fused;
    fused.extent = 1;
    IterRelation relation;
    relation.kind = IterRelation::Kind::Fuse;
    int64_t nodeExtent = 1;
    for (int id : step.fusedIds) {
        const Iterator& it = stage.iters[static_cast<size_t>(id)];
        fused.name += it.name + "@";
        fused.extent = fused.extent >= 0 && it.extent >= 0 ? fused.extent * it.extent : -1;
        fused.kind = id == first || fused.kind == it.kind ? it.kind : IteratorKind::Mixed;
        relation.fused.push_back(it.node);
        const int64_t extent = stage.nodes[static_cast<size_t>(it.node)].extent;
        nodeExtent = nodeExtent >= 0 && extent >= 0 ? nodeExtent * extent : -1;
    }
    relation.result = static_cast<int>(stage.nodes.size());
    stage.nodes.push_back(IterNode { fused.name, fused.kind, nodeExtent });
    fused.node = relation.result;
    stage.relations.push_back(relation);
    stage.iters.erase(stage.iters.begin() + first, stage.iters.begin() + last + 1);
    stage.iters.insert(stage.iters.begin() + first, fused);
    remapAttachIters(step.stageId, [&](int iter) {
        return iter < first ? iter : iter > last ? iter - (last - first) : first;
    });
    return {};
}

Expected<void> StepApplier::operator()(const PragmaStep& step)
{
    TS_CHECK(checkIter(step.kCode, step.stageId, step.iterId));
    const std::string prefix = "auto_unroll_max_step";
    if (step.pragma.rfind(prefix, 0) == 0) {
        const size_t dollar = step.pragma.find('$');
        auto parsed = dollar == std::string::npos ? Expected<int64_t>(makeError(ErrorKind::Parse, "no $"))
                                                  : parseInt(step.pragma.substr(dollar + 1), "auto_unroll_max_step");
        const int64_t value = parsed ? *parsed : -1;
        if (value < 0 || value > 1'000'000)
            return fail(step.kCode, step.stageId, "bad pragma '" + step.pragma + "' (want auto_unroll_max_step$N)");
        m_state.mutableStage(step.stageId).autoUnrollMaxStep = static_cast<int>(value);
        return {};
    }
    if (step.pragma == "debug_skip_region")
        return {};
    return fail(step.kCode, step.stageId, "unsupported pragma '" + step.pragma + "'");
}

Expected<void> StepApplier::operator()(const ReorderStep& step)
{
    TS_CHECK(checkStage(step.kCode, step.stageId));
    const Stage& before = m_state.stage(step.stageId);
    std::vector<int> sorted = step.afterIds;
    std::sort(sorted.begin(), sorted.end());
    bool permutation = sorted.size() == before.iters.size();
    for (size_t i = 0; permutation && i < sorted.size(); ++i)
        permutation = sorted[i] == static_cast<int>(i);
    if (!permutation)
        return fail(step.kCode, step.stageId,
            "[" + join(step.afterIds, ", ") + "] is not a permutation of the " + std::to_string(before.iters.size())
                + " iterators");
    std::vector<Iterator> iters;
    for (int id : step.afterIds)
        iters.push_back(before.iters[static_cast<size_t>(id)]);
    m_state.mutableStage(step.stageId).iters = std::move(iters);
    // Attached stages follow their iterator, as they do when TVM lowers the schedule.
    remapAttachIters(step.stageId, [&](int iter) {
        return static_cast<int>(std::find(step.afterIds.begin(), step.afterIds.end(), iter) - step.afterIds.begin());
    });
    return {};
}

Expected<void> StepApplier::splitIterator(
    const char* code, int stageId, int iterId, const std::vector<SplitLength>& lengths, bool innerToOuter)
{
    TS_CHECK(checkIter(code, stageId, iterId));
    if (lengths.empty())
        return fail(code, stageId, "split without lengths");
    for (const SplitLength& length : lengths)
        if (length && *length < 1)
            return fail(code, stageId, "split length " + std::to_string(*length) + " must be >= 1");
    const Iterator it = m_state.stage(stageId).iters[static_cast<size_t>(iterId)];
    const size_t n = lengths.size();
    auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };

    // Iterators x.0 .. x.n, with TVM's state extents: a length is taken as is, the rest is a ceiling; from an
    // unfilled length on (in the order the split takes them), extents are unknown.
    std::vector<Iterator> outs(n + 1);
    int64_t rest = it.extent;
    for (size_t k = 0; k < n; ++k) {
        const size_t pos = innerToOuter ? n - k : k; // x.n first when splitting inner to outer
        const SplitLength& length = lengths[innerToOuter ? n - 1 - k : k];
        const bool known = rest >= 0 && length;
        outs[pos]
            = Iterator { it.name + "." + std::to_string(pos), known ? *length : -1, it.kind, Annotation::None, -1 };
        rest = known ? ceilDiv(rest, *length) : -1;
    }
    const size_t restPos = innerToOuter ? 0 : n;
    outs[restPos] = Iterator { it.name + "." + std::to_string(restPos), rest, it.kind, Annotation::None, -1 };

    // The graph: a chain of binary splits; intermediate nodes are not iterators. Node extents are -1 below an
    // unfilled length.
    Stage& stage = m_state.mutableStage(stageId);
    auto addNode = [&](const std::string& name, int64_t extent) {
        stage.nodes.push_back(IterNode { name, it.kind, extent });
        return static_cast<int>(stage.nodes.size()) - 1;
    };
    int current = it.node;
    for (size_t k = 0; k < n; ++k) {
        const int64_t parentExtent = stage.nodes[static_cast<size_t>(current)].extent;
        const SplitLength& length = lengths[innerToOuter ? n - 1 - k : k];
        IterRelation split;
        split.parent = current;
        split.factor = length;
        split.byFactor = innerToOuter;
        const bool known = parentExtent >= 0 && length;
        const int64_t fixed = known ? std::min(parentExtent, *length) : -1;
        const int64_t ceiling = known ? ceilDiv(parentExtent, *length) : -1;
        const size_t piece = innerToOuter ? n - k : k;
        const bool last = k + 1 == n;
        if (innerToOuter) {
            split.inner = addNode(outs[piece].name, fixed);
            split.outer = addNode(last ? outs[0].name : it.name + ".o" + std::to_string(k), ceiling);
            outs[piece].node = split.inner;
            current = split.outer;
        } else {
            split.outer = addNode(outs[piece].name, fixed);
            split.inner = addNode(last ? outs[n].name : it.name + ".i" + std::to_string(k), ceiling);
            outs[piece].node = split.outer;
            current = split.inner;
        }
        stage.relations.push_back(split);
    }
    outs[restPos].node = current;

    stage.iters.erase(stage.iters.begin() + iterId);
    stage.iters.insert(stage.iters.begin() + iterId, outs.begin(), outs.end());
    remapAttachIters(stageId, [&](int iter) { return iter >= iterId ? iter + static_cast<int>(n) : iter; });
    return {};
}

Expected<void> StepApplier::operator()(const SplitStep& step)
{
    TS_CHECK(checkIter(step.kCode, step.stageId, step.iterId));
    const Iterator& it = m_state.stage(step.stageId).iters[static_cast<size_t>(step.iterId)];
    if (step.extent && it.extent >= 0 && *step.extent != it.extent)
        return fail(step.kCode, step.stageId,
            "iterator " + it.name + " has extent " + std::to_string(it.extent) + ", the step says "
                + std::to_string(*step.extent));
    return splitIterator(step.kCode, step.stageId, step.iterId, step.lengths, step.innerToOuter);
}

Expected<const SplitStep*> StepApplier::sourceSplit(const char* code, int stage, int srcStepId) const
{
    if (srcStepId < 0 || srcStepId >= m_stepIndex)
        return fail(code, stage, "source step " + std::to_string(srcStepId) + " is not an earlier step");
    const auto* split = std::get_if<SplitStep>(&m_state.steps()[static_cast<size_t>(srcStepId)]);
    if (!split)
        return fail(code, stage, "source step " + std::to_string(srcStepId) + " is not a split (SP) step");
    return split;
}

Expected<void> StepApplier::operator()(const FollowSplitStep& step)
{
    TS_TRY(const SplitStep* src, sourceSplit(step.kCode, step.stageId, step.srcStepId));
    if (step.nSplit < 1 || static_cast<size_t>(step.nSplit) > src->lengths.size() + 1)
        return fail(step.kCode, step.stageId,
            "n_split " + std::to_string(step.nSplit) + " out of range for a split of "
                + std::to_string(src->lengths.size()) + " lengths");
    // As TVM's ExtractSplitLengths: unfilled lengths stay unfilled, and so does a product with one of them.
    std::vector<SplitLength> lengths(src->lengths.begin(), src->lengths.begin() + (step.nSplit - 1));
    SplitLength last = 1;
    for (size_t j = static_cast<size_t>(step.nSplit - 1); j < src->lengths.size(); ++j)
        last = last && src->lengths[j] ? SplitLength(*last * *src->lengths[j]) : std::nullopt;
    lengths.push_back(last);
    return splitIterator(step.kCode, step.stageId, step.iterId, lengths, true);
}

Expected<void> StepApplier::operator()(const FollowFusedSplitStep& step)
{
    if (step.srcStepIds.empty())
        return fail(step.kCode, step.stageId, "no source steps");
    SplitLength length = 1; // unfilled if any source's length is
    for (int id : step.srcStepIds) {
        TS_TRY(const SplitStep* src, sourceSplit(step.kCode, step.stageId, id));
        if (step.level < 0 || static_cast<size_t>(step.level) >= src->lengths.size())
            return fail(step.kCode, step.stageId,
                "level " + std::to_string(step.level) + " out of range for step " + std::to_string(id));
        const SplitLength& factor = src->lengths[static_cast<size_t>(step.level)];
        length = length && factor ? SplitLength(*length * *factor) : std::nullopt;
    }
    return splitIterator(step.kCode, step.stageId, step.iterId, { length }, step.factorOrNparts);
}

Expected<void> StepApplier::operator()(const StorageAlignStep& step)
{
    TS_CHECK(checkIter(step.kCode, step.stageId, step.iterId));
    const Stage& stage = m_state.stage(step.stageId);
    const Iterator& it = stage.iters[static_cast<size_t>(step.iterId)];
    if (it.node >= static_cast<int>(stage.op->axes().size()))
        return fail(step.kCode, step.stageId, it.name + " is not an axis of the tensor (split, fused or reduction)");
    if (step.factor < 1 || step.offset < 0 || step.offset >= step.factor)
        return fail(step.kCode, step.stageId,
            "need factor >= 1 and 0 <= offset < factor, got " + std::to_string(step.factor) + ", "
                + std::to_string(step.offset));
    const int axis = it.node;
    m_state.mutableStage(step.stageId).storageAligns.push_back(StorageAlign { axis, step.factor, step.offset });
    return {};
}

} // namespace ts::sched
