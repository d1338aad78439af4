#include "widgets/models/stage_marks.h"

#include "core/schedule/state.h"

namespace ts::models {

namespace {
    // The op a stage was made from: its own name, or the longest op name it extends with ".scope".
    int opOf(const ir::ComputeDAG& dag, const std::string& stage)
    {
        int best = -1;
        size_t bestLength = 0;
        for (int i = 0; i < dag.numOps(); ++i) {
            const std::string& name = dag.op(i).name();
            if (name == stage)
                return i;
            if (stage.size() > name.size() && stage.compare(0, name.size(), name) == 0 && stage[name.size()] == '.'
                && name.size() > bestLength) {
                best = i;
                bestLength = name.size();
            }
        }
        return best;
    }

    StageMarkSet marksOf(const sched::Step& step)
    {
        using namespace sched;
        auto bit = [](StageMark m) { return static_cast<StageMarkSet>(m); };
        if (std::holds_alternative<ComputeInlineStep>(step))
            return bit(StageMark::Inlined);
        if (std::holds_alternative<SplitStep>(step) || std::holds_alternative<FollowSplitStep>(step)
            || std::holds_alternative<FollowFusedSplitStep>(step))
            return bit(StageMark::Tiled);
        if (std::holds_alternative<CacheReadStep>(step) || std::holds_alternative<CacheWriteStep>(step))
            return bit(StageMark::Cached);
        if (std::holds_alternative<ComputeAtStep>(step))
            return bit(StageMark::ComputeAt);
        if (std::holds_alternative<RfactorStep>(step))
            return bit(StageMark::Rfactor);
        if (const auto* pragma = std::get_if<PragmaStep>(&step))
            return pragma->pragma.starts_with("auto_unroll_max_step") ? bit(StageMark::Unrolled) : 0;
        if (const auto* annotation = std::get_if<AnnotationStep>(&step)) {
            switch (annotation->annotation) {
            case Annotation::Parallel:
            case Annotation::VThread:
            case Annotation::BlockX:
            case Annotation::ThreadX:
            case Annotation::BlockY:
            case Annotation::ThreadY:
            case Annotation::BlockZ:
            case Annotation::ThreadZ:
                return bit(StageMark::Parallel);
            case Annotation::Vectorize:
                return bit(StageMark::Vectorized);
            case Annotation::Unroll:
                return bit(StageMark::Unrolled);
            case Annotation::None:
            case Annotation::Tensorize:
                return 0;
            }
        }
        return 0; // reorder, fuse, compute_root, storage_align change no mark
    }
} // namespace

const char* toString(StageMark mark)
{
    switch (mark) {
    case StageMark::Inlined:
        return "inline";
    case StageMark::Tiled:
        return "tile";
    case StageMark::Cached:
        return "cache";
    case StageMark::ComputeAt:
        return "compute_at";
    case StageMark::Parallel:
        return "parallel";
    case StageMark::Vectorized:
        return "vectorize";
    case StageMark::Unrolled:
        return "unroll";
    case StageMark::Rfactor:
        return "rfactor";
    }
    return "?";
}

std::vector<std::string> markNames(StageMarkSet set)
{
    std::vector<std::string> names;
    for (StageMark mark : kStageMarks)
        if (hasMark(set, mark))
            names.emplace_back(toString(mark));
    return names;
}

std::vector<StageMarkSet> stageMarks(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps)
{
    std::vector<StageMarkSet> marks(static_cast<size_t>(dag.numOps()), 0);
    sched::State state = sched::State::initial(dag);
    for (const sched::Step& step : steps) {
        const int stageId = sched::stepStageId(step);
        if (stageId < 0 || stageId >= state.numStages())
            break;
        const int op = opOf(dag, state.stage(stageId).op->name()); // before a cache step renames it
        if (!state.apply(step))
            break;
        if (op >= 0)
            marks[static_cast<size_t>(op)] |= marksOf(step);
    }
    return marks;
}

} // namespace ts::models
