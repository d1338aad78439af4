// Private to core/schedule: the implementation of State::apply, one function per step kind, split over
// state_steps.cpp (iterator steps) and state_dag_steps.cpp (compute location, cache and rfactor steps).
// Reads go through m_state.stage(id); writes through m_state.mutableStage(id), which copies the stage first
// when another state shares it (State::apply keeps the old stages to roll a failed step back).
#pragma once

#include "core/schedule/state.h"

#include <map>

namespace ts::sched {

class StepApplier {
public:
    StepApplier(State& state, int stepIndex)
        : m_state(state)
        , m_stepIndex(stepIndex)
    {
    }

    Expected<void> operator()(const AnnotationStep& step);
    Expected<void> operator()(const FuseStep& step);
    Expected<void> operator()(const PragmaStep& step);
    Expected<void> operator()(const ReorderStep& step);
    Expected<void> operator()(const SplitStep& step);
    Expected<void> operator()(const FollowSplitStep& step);
    Expected<void> operator()(const FollowFusedSplitStep& step);
    Expected<void> operator()(const StorageAlignStep& step);
    Expected<void> operator()(const ComputeAtStep& step);
    Expected<void> operator()(const ComputeInlineStep& step);
    Expected<void> operator()(const ComputeRootStep& step);
    Expected<void> operator()(const CacheReadStep& step);
    Expected<void> operator()(const CacheWriteStep& step);
    Expected<void> operator()(const RfactorStep& step);

    // A stage for `op` with no steps applied: iterators = the op's axes, then its reduce axes.
    static Stage freshStage(const ir::Tensor& op);

private:
    // "step 3 (SP): stage 2 (matmul): <why>"
    Error fail(const char* code, int stage, const std::string& why) const;
    Expected<void> checkStage(const char* code, int stage) const;
    Expected<void> checkIter(const char* code, int stage, int iter) const;
    Expected<void> splitIterator(
        const char* code, int stageId, int iterId, const std::vector<SplitLength>& lengths, bool innerToOuter);
    // Lengths of an earlier SplitStep, for the follow splits.
    Expected<const SplitStep*> sourceSplit(const char* code, int stage, int srcStepId) const;

    // DAG-changing steps: the ops downstream of replaced tensors rebuilt to read the
    // new ones, and stage ids >= `from` shifted by `by` in attachments.
    void rebuildReaders(std::map<const ir::Operation*, ir::Tensor> replaced, int fromStage);
    // Stages computed at an iterator of stage `stageId` move to iterator remap(attachIter).
    template <typename Remap> void remapAttachIters(int stageId, Remap remap)
    {
        for (int i = 0; i < m_state.numStages(); ++i) {
            const Stage& other = m_state.stage(i);
            if (other.computeAt != ComputeAtKind::Iter || other.attachStage != stageId)
                continue;
            const int iter = remap(other.attachIter);
            if (iter != other.attachIter)
                m_state.mutableStage(i).attachIter = iter;
        }
    }
    void shiftStageIds(int from, int by);
    // Cache write and rfactor: stage `stageId` becomes two, `producer` at stageId and `consumer` (which
    // replaces the old op) after it; the ops downstream are rebuilt to read `consumer`.
    void splitStage(int stageId, const ir::Tensor& producer, const ir::Tensor& consumer);
    void refreshDagTensors();

    State& m_state;
    int m_stepIndex;
};

} // namespace ts::sched
