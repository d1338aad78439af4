#include "core/schedule/step_printer.h"

#include "core/schedule/state.h"
#include "core/support/strings.h"

#include <sstream>

namespace ts::sched {

namespace {
    class CallPrinter {
    public:
        explicit CallPrinter(const State& before)
            : m_s(before)
        {
        }

        std::string stage(int id) const
        {
            return id >= 0 && id < m_s.numStages() ? "s[" + m_s.stage(id).op->name() + "]" : "s[?]";
        }
        std::string iter(int stageId, int iterId) const
        {
            if (stageId < 0 || stageId >= m_s.numStages())
                return "?";
            const auto& iters = m_s.stage(stageId).iters;
            return iterId >= 0 && iterId < static_cast<int>(iters.size()) ? iters[size_t(iterId)].name : "?";
        }
        std::string iters(int stageId, const std::vector<int>& ids) const
        {
            return join(ids, ", ", [&](int id) { return iter(stageId, id); });
        }

        std::string operator()(const AnnotationStep& s) const
        {
            return stage(s.stageId) + "."
                + (s.annotation == Annotation::None ? "annotate_none" : toString(s.annotation)) + "("
                + iter(s.stageId, s.iterId) + ")";
        }
        std::string operator()(const FuseStep& s) const
        {
            return stage(s.stageId) + ".fuse(" + iters(s.stageId, s.fusedIds) + ")";
        }
        std::string operator()(const PragmaStep& s) const
        {
            return stage(s.stageId) + ".pragma(" + iter(s.stageId, s.iterId) + ", \"" + s.pragma + "\")";
        }
        std::string operator()(const ReorderStep& s) const
        {
            return stage(s.stageId) + ".reorder(" + iters(s.stageId, s.afterIds) + ")";
        }
        std::string operator()(const SplitStep& s) const
        {
            return stage(s.stageId) + ".split(" + iter(s.stageId, s.iterId) + ", [" + toString(s.lengths) + "]"
                + (s.innerToOuter ? "" : ", nparts") + ")";
        }
        std::string operator()(const FollowSplitStep& s) const
        {
            return stage(s.stageId) + ".follow_split(" + iter(s.stageId, s.iterId) + ", step "
                + std::to_string(s.srcStepId) + ", n_split=" + std::to_string(s.nSplit) + ")";
        }
        std::string operator()(const FollowFusedSplitStep& s) const
        {
            return stage(s.stageId) + ".follow_fused_split(" + iter(s.stageId, s.iterId) + ", steps ["
                + join(s.srcStepIds, ", ") + "], level=" + std::to_string(s.level)
                + (s.factorOrNparts ? ", factor" : ", nparts") + ")";
        }
        std::string operator()(const StorageAlignStep& s) const
        {
            return stage(s.stageId) + ".storage_align(" + iter(s.stageId, s.iterId) + ", " + std::to_string(s.factor)
                + ", " + std::to_string(s.offset) + ")";
        }
        std::string operator()(const ComputeAtStep& s) const
        {
            return stage(s.stageId) + ".compute_at(" + stage(s.targetStageId) + ", "
                + iter(s.targetStageId, s.targetIterId) + ")";
        }
        std::string operator()(const ComputeInlineStep& s) const { return stage(s.stageId) + ".compute_inline()"; }
        std::string operator()(const ComputeRootStep& s) const { return stage(s.stageId) + ".compute_root()"; }
        std::string operator()(const CacheReadStep& s) const
        {
            return stage(s.stageId) + ".cache_read(\"" + s.scope + "\", readers=["
                + join(s.readerStageIds, ", ", [&](int id) { return stage(id); }) + "])";
        }
        std::string operator()(const CacheWriteStep& s) const
        {
            return stage(s.stageId) + ".cache_write(\"" + s.scope + "\")";
        }
        std::string operator()(const RfactorStep& s) const
        {
            return stage(s.stageId) + ".rfactor(" + iter(s.stageId, s.iterId)
                + ", factor_axis=" + std::to_string(s.factorIterId) + ")";
        }

    private:
        const State& m_s;
    };

    // The iterators a step created, for "-> i.0, i.1".
    std::string results(const State& after, const Step& step)
    {
        if (!std::holds_alternative<SplitStep>(step) && !std::holds_alternative<FollowSplitStep>(step)
            && !std::holds_alternative<FollowFusedSplitStep>(step) && !std::holds_alternative<FuseStep>(step))
            return {};
        const int stageId = stepStageId(step);
        const int first = std::visit(
            [](const auto& s) {
                if constexpr (requires { s.fusedIds; })
                    return s.fusedIds.empty() ? 0 : s.fusedIds.front();
                else if constexpr (requires { s.iterId; })
                    return s.iterId;
                else
                    return 0;
            },
            step);
        size_t count = 1;
        if (const auto* split = std::get_if<SplitStep>(&step))
            count = split->lengths.size() + 1;
        else if (const auto* follow = std::get_if<FollowSplitStep>(&step))
            count = static_cast<size_t>(follow->nSplit) + 1;
        else if (std::holds_alternative<FollowFusedSplitStep>(step))
            count = 2;
        std::vector<std::string> names;
        const auto& iters = after.stage(stageId).iters;
        for (size_t k = 0; k < count && static_cast<size_t>(first) + k < iters.size(); ++k)
            names.push_back(iters[static_cast<size_t>(first) + k].name);
        return " -> " + join(names, ", ");
    }
} // namespace

std::string printStepsAsCalls(const ir::ComputeDAG& dag, const std::vector<Step>& steps)
{
    std::ostringstream os;
    State state = State::initial(dag);
    for (size_t i = 0; i < steps.size(); ++i) {
        const std::string call = std::visit(CallPrinter(state), steps[i]);
        auto applied = state.apply(steps[i]);
        if (!applied) {
            os << call << "  # error: " << applied.error().message << "\n";
            break;
        }
        os << call << results(state, steps[i]) << "\n";
    }
    return os.str();
}

} // namespace ts::sched
