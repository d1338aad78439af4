#include "core/search/annotation_summary.h"

#include <numeric>

namespace ts::search {

namespace {
    std::string partText(const std::optional<int64_t>& part) { return part ? std::to_string(*part) : "?"; }

    // The parts of a split, outermost first: by factor, the rest of the extent then the lengths; by nparts,
    // the lengths then the rest.
    std::vector<std::optional<int64_t>> partsOf(const sched::SplitStep& split)
    {
        std::optional<int64_t> product = 1;
        for (const sched::SplitLength& length : split.lengths)
            product = product && length ? std::optional<int64_t>(*product * *length) : std::nullopt;
        std::optional<int64_t> rest;
        if (split.extent && product && *product > 0)
            rest = (*split.extent + *product - 1) / *product;
        std::vector<std::optional<int64_t>> parts;
        if (split.innerToOuter)
            parts.push_back(rest);
        parts.insert(parts.end(), split.lengths.begin(), split.lengths.end());
        if (!split.innerToOuter)
            parts.push_back(rest);
        return parts;
    }
} // namespace

AnnotationSummary summarizeAnnotations(const ir::ComputeDAG& dag, const sched::State& state)
{
    AnnotationSummary out;
    sched::State replayed = sched::State::initial(dag);
    for (const sched::Step& step : state.steps()) {
        if (const auto* split = std::get_if<sched::SplitStep>(&step)) {
            if (split->stageId < 0 || split->stageId >= replayed.numStages())
                break;
            const sched::Stage& stage = replayed.stage(split->stageId);
            if (split->iterId < 0 || split->iterId >= static_cast<int>(stage.iters.size()))
                break;
            out.tiles.push_back(
                TileSplit { stage.op->name(), stage.iters[static_cast<size_t>(split->iterId)].name, partsOf(*split) });
        }
        if (!replayed.apply(step))
            break;
    }
    for (int id = 0; id < state.numStages(); ++id) {
        const sched::Stage& stage = state.stage(id);
        if (stage.isPlaceholder())
            continue;
        const std::string name = stage.op->name();
        if (stage.computeAt == sched::ComputeAtKind::Inlined) {
            out.computeAt.push_back(ComputeLocation { name, true, {}, {} });
            continue;
        }
        if (stage.computeAt == sched::ComputeAtKind::Iter && stage.attachStage >= 0
            && stage.attachStage < state.numStages()) {
            const sched::Stage& target = state.stage(stage.attachStage);
            const bool known = stage.attachIter >= 0 && stage.attachIter < static_cast<int>(target.iters.size());
            out.computeAt.push_back(ComputeLocation { name, false, target.op->name(),
                known ? target.iters[static_cast<size_t>(stage.attachIter)].name : "?" });
        }
        for (const sched::Iterator& it : stage.iters)
            if (it.annotation != sched::Annotation::None)
                out.loops.push_back(AnnotatedLoop { name, it.name, it.extent, it.annotation });
        if (stage.autoUnrollMaxStep > 0)
            out.unroll.push_back(AutoUnroll { name, stage.autoUnrollMaxStep });
    }
    return out;
}

std::string AnnotationSummary::tilesText() const
{
    std::string text;
    std::string stage;
    for (const TileSplit& tile : tiles) {
        if (text.empty() || tile.stage != stage)
            text += (text.empty() ? "" : "; ") + tile.stage + ": ";
        else
            text += ", ";
        stage = tile.stage;
        text += tile.iter + " ";
        for (size_t i = 0; i < tile.parts.size(); ++i)
            text += (i == 0 ? "" : "x") + partText(tile.parts[i]);
    }
    return text;
}

std::string AnnotationSummary::computeAtText() const
{
    std::string text;
    for (const ComputeLocation& location : computeAt) {
        text += (text.empty() ? "" : "; ") + location.stage;
        text += location.inlined ? " inline" : " at " + location.targetStage + "." + location.targetIter;
    }
    return text;
}

std::string AnnotationSummary::annotationsText() const
{
    std::string text;
    for (const AnnotatedLoop& loop : loops) {
        text += (text.empty() ? "" : ", ") + std::string(sched::toString(loop.annotation)) + " " + loop.stage + "."
            + loop.iter;
        if (loop.extent > 0)
            text += " (" + std::to_string(loop.extent) + ")";
    }
    for (const AutoUnroll& unroll : this->unroll)
        text += (text.empty() ? "" : ", ") + std::string("unroll ") + unroll.stage
            + " <= " + std::to_string(unroll.maxStep);
    return text;
}

} // namespace ts::search
