#include "core/search/sketch_match.h"

#include "core/search/annotation_rules.h"

namespace ts::search {

bool sketchStepMatches(const sched::Step& sketchStep, const sched::Step& stateStep)
{
    if (sketchStep.index() != stateStep.index())
        return false;
    if (const auto* a = std::get_if<sched::SplitStep>(&sketchStep)) {
        const auto& b = std::get<sched::SplitStep>(stateStep);
        return a->stageId == b.stageId && a->iterId == b.iterId && a->lengths.size() == b.lengths.size()
            && a->innerToOuter == b.innerToOuter;
    }
    if (const auto* a = std::get_if<sched::ComputeAtStep>(&sketchStep)) {
        const auto& b = std::get<sched::ComputeAtStep>(stateStep);
        return a->stageId == b.stageId && a->targetStageId == b.targetStageId;
    }
    if (const auto* a = std::get_if<sched::PragmaStep>(&sketchStep)) {
        const auto& b = std::get<sched::PragmaStep>(stateStep);
        const bool unrollA = detail::startsWith(a->pragma, detail::kAutoUnrollPragma);
        const bool unrollB = detail::startsWith(b.pragma, detail::kAutoUnrollPragma);
        return a->stageId == b.stageId && a->iterId == b.iterId && unrollA == unrollB
            && (unrollA || a->pragma == b.pragma);
    }
    return sketchStep == stateStep;
}

bool isAnnotationStep(const sched::Step& step)
{
    return std::holds_alternative<sched::ComputeInlineStep>(step)
        || std::holds_alternative<sched::ComputeRootStep>(step) || std::holds_alternative<sched::ComputeAtStep>(step)
        || std::holds_alternative<sched::FuseStep>(step) || std::holds_alternative<sched::AnnotationStep>(step)
        || std::holds_alternative<sched::PragmaStep>(step) || std::holds_alternative<sched::ReorderStep>(step);
}

int sketchIndexOf(const std::vector<Sketch>& sketches, const std::vector<sched::Step>& steps)
{
    int best = -1;
    size_t bestLength = 0;
    for (size_t s = 0; s < sketches.size(); ++s) {
        const auto& prefix = sketches[s].state.steps();
        if (prefix.size() > steps.size() || (best >= 0 && prefix.size() <= bestLength))
            continue;
        bool match = true;
        for (size_t i = 0; match && i < prefix.size(); ++i)
            match = sketchStepMatches(prefix[i], steps[i]);
        for (size_t i = prefix.size(); match && i < steps.size(); ++i)
            match = isAnnotationStep(steps[i]);
        if (match) {
            best = static_cast<int>(s);
            bestLength = prefix.size();
        }
    }
    return best;
}

int sketchIndexOf(const std::vector<Sketch>& sketches, const sched::State& state)
{
    return sketchIndexOf(sketches, state.steps());
}

} // namespace ts::search
