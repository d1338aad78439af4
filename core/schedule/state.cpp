#include "core/schedule/state.h"

#include "core/schedule/step_applier.h"
#include "core/schedule/step_json.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <algorithm>
#include <atomic>
#include <sstream>

namespace ts::sched {

const char* toString(Annotation annotation)
{
    static const char* const kNames[kNumAnnotations] = { "for", "unroll", "vectorize", "parallel", "vthread",
        "blockIdx.x", "threadIdx.x", "blockIdx.y", "threadIdx.y", "blockIdx.z", "threadIdx.z", "tensorize" };
    const int index = static_cast<int>(annotation);
    return index >= 0 && index < kNumAnnotations ? kNames[index] : "?";
}

const char* stepCode(const Step& step)
{
    return std::visit([](const auto& s) { return std::decay_t<decltype(s)>::kCode; }, step);
}

int stepStageId(const Step& step)
{
    return std::visit([](const auto& s) { return s.stageId; }, step);
}

Stage StepApplier::freshStage(const ir::Tensor& op)
{
    Stage stage;
    stage.op = op;
    if (op->isPlaceholder())
        return stage;
    auto addRoot = [&](const ir::IterVar& axis, IteratorKind kind) {
        const int node = static_cast<int>(stage.nodes.size());
        stage.nodes.push_back(IterNode { axis.var->name, kind, axis.extent });
        stage.iters.push_back(Iterator { axis.var->name, axis.extent, kind, Annotation::None, node });
    };
    for (const ir::IterVar& axis : op->axes())
        addRoot(axis, IteratorKind::Spatial);
    for (const ir::IterVar& axis : op->reduceAxes())
        addRoot(axis, IteratorKind::Reduce);
    return stage;
}

namespace {
    // Copy on write: `part` for writing, copied first if another state holds it too. A count of 1 read after
    // the other holders released theirs (an acq_rel decrement) is ordered before our writes by the fence.
    template <typename T> T& own(std::shared_ptr<T>& part)
    {
        if (part.use_count() != 1)
            part = std::make_shared<T>(*part);
        else
            std::atomic_thread_fence(std::memory_order_acquire);
        return *part;
    }
} // namespace

std::string toString(const std::vector<SplitLength>& lengths)
{
    return join(lengths, ", ", [](const SplitLength& l) { return l ? std::to_string(*l) : std::string("?"); });
}

bool SplitStep::filled() const
{
    return std::all_of(lengths.begin(), lengths.end(), [](const SplitLength& l) { return l.has_value(); });
}

State State::fromOrigin(const std::shared_ptr<const Origin>& origin)
{
    State state;
    state.m_stages = origin->stages;
    state.m_steps = std::make_shared<std::vector<Step>>();
    state.m_dagTensors = origin->dagTensors;
    state.m_origin = origin;
    return state;
}

State State::initial(const ir::ComputeDAG& dag)
{
    auto origin = std::make_shared<Origin>();
    origin->stages = std::make_shared<StageList>();
    for (const ir::Tensor& op : dag.ops())
        origin->stages->push_back(std::make_shared<Stage>(StepApplier::freshStage(op)));
    origin->dagTensors = std::make_shared<std::vector<ir::Tensor>>(dag.tensors());
    return fromOrigin(origin);
}

Expected<State> State::replayJson(const ir::ComputeDAG& dag, std::string_view stepsJson)
{
    TS_TRY(std::vector<Step> steps, parseSteps(stepsJson));
    return replay(dag, steps);
}

Expected<State> State::replay(const ir::ComputeDAG& dag, const std::vector<Step>& steps)
{
    State state = initial(dag);
    for (const Step& step : steps)
        TS_CHECK(state.apply(step));
    return state;
}

Expected<void> State::apply(const Step& step)
{
    // A failed step leaves the state as it was: the applier changes copies (mutableStage), so keeping the
    // pointers it started from is the rollback.
    const std::shared_ptr<StageList> stages = m_stages;
    const std::shared_ptr<std::vector<ir::Tensor>> dagTensors = m_dagTensors;
    StepApplier applier(*this, static_cast<int>(m_steps->size()));
    auto applied = std::visit(applier, step);
    if (!applied) {
        m_stages = stages;
        m_dagTensors = dagTensors;
        return applied.error();
    }
    own(m_steps).push_back(step);
    return {};
}

State::StageList& State::mutableStages() { return own(m_stages); }

Stage& State::mutableStage(int id) { return own(mutableStages().at(static_cast<size_t>(id))); }

void applyOrDie(State& state, const Step& step)
{
    auto result = state.apply(step);
    TS_ASSERT(result) << result.error().message;
}

int State::firstUnfilledSplit() const
{
    for (size_t i = 0; i < m_steps->size(); ++i)
        if (const auto* split = std::get_if<SplitStep>(&(*m_steps)[i]); split && !split->filled())
            return static_cast<int>(i);
    return -1;
}

int State::currentStageId(int stepIndex, int stageId) const
{
    for (size_t j = static_cast<size_t>(stepIndex) + 1; j < m_steps->size(); ++j) {
        const Step& later = (*m_steps)[j];
        const int at = stepStageId(later);
        if (std::holds_alternative<CacheReadStep>(later))
            stageId += stageId > at ? 1 : 0; // the cache is inserted after the stage it reads
        else if (std::holds_alternative<CacheWriteStep>(later) || std::holds_alternative<RfactorStep>(later))
            stageId += stageId >= at ? 1 : 0; // the new stage is inserted before the one it was made from
    }
    return stageId;
}

Expected<void> State::checkFilled() const
{
    const int index = firstUnfilledSplit();
    if (index < 0)
        return {};
    const auto& split = std::get<SplitStep>((*m_steps)[static_cast<size_t>(index)]);
    const int now = currentStageId(index, split.stageId);
    const std::string name = now >= 0 && now < numStages() ? " (" + stage(now).op->name() + ")" : "";
    size_t first = 0;
    while (split.lengths[first])
        ++first;
    return makeError(ErrorKind::InvalidArgument,
        "step " + std::to_string(index) + " (SP): stage " + std::to_string(split.stageId) + name + ": split length "
            + std::to_string(first + 1) + " of " + std::to_string(split.lengths.size()) + " is not filled (["
            + sched::toString(split.lengths) + "]); fill the sketch before lowering");
}

Expected<State> State::withSplitLengths(int stepIndex, std::vector<int64_t> lengths) const
{
    return withSplitLengths(std::vector<SplitFill> { SplitFill { stepIndex, std::move(lengths) } });
}

Expected<State> State::withSplitLengths(const std::vector<SplitFill>& fills) const
{
    std::vector<Step> steps = *m_steps;
    size_t firstEdited = steps.size();
    std::vector<bool> edited(steps.size(), false);
    for (const SplitFill& fill : fills) {
        const std::string where = "cannot fill step " + std::to_string(fill.stepIndex);
        if (fill.stepIndex < 0 || static_cast<size_t>(fill.stepIndex) >= steps.size())
            return makeError(
                ErrorKind::InvalidArgument, where + ": the state has " + std::to_string(steps.size()) + " steps");
        const size_t index = static_cast<size_t>(fill.stepIndex);
        auto* split = std::get_if<SplitStep>(&steps[index]);
        if (!split)
            return makeError(
                ErrorKind::InvalidArgument, where + ": it is a " + stepCode(steps[index]) + " step, not a split (SP)");
        if (edited[index])
            return makeError(ErrorKind::InvalidArgument, where + " (SP): it is filled twice");
        if (fill.lengths.size() != split->lengths.size())
            return makeError(ErrorKind::InvalidArgument,
                where + " (SP): " + std::to_string(fill.lengths.size()) + " lengths for a split of "
                    + std::to_string(split->lengths.size()));
        for (int64_t length : fill.lengths)
            if (length < 1)
                return makeError(ErrorKind::InvalidArgument,
                    where + " (SP): split length " + std::to_string(length) + " must be >= 1");
        split->lengths.assign(fill.lengths.begin(), fill.lengths.end());
        edited[index] = true;
        firstEdited = std::min(firstEdited, index);
    }

    State state = fromOrigin(m_origin);
    for (size_t i = 0; i < steps.size(); ++i) {
        // Later splits record the extent they see now (it changes with the filled lengths).
        if (auto* split = std::get_if<SplitStep>(&steps[i]); split && i > firstEdited && split->stageId >= 0
            && split->stageId < state.numStages() && split->iterId >= 0
            && static_cast<size_t>(split->iterId) < state.stage(split->stageId).iters.size()) {
            const int64_t extent = state.stage(split->stageId).iters[static_cast<size_t>(split->iterId)].extent;
            if (extent >= 0)
                split->extent = extent;
        }
        TS_CHECK(state.apply(steps[i]));
    }
    return state;
}

int State::stageIndex(const std::string& name) const
{
    for (int i = 0; i < numStages(); ++i)
        if (stage(i).op->name() == name)
            return i;
    return -1;
}

ir::ComputeDAG State::currentDag() const { return ir::ComputeDAG::create(*m_dagTensors); }

std::vector<int> State::attachedAt(int stage, int iter) const
{
    std::vector<int> out;
    for (int i = 0; i < numStages(); ++i) {
        const Stage& s = this->stage(i);
        if (s.computeAt == ComputeAtKind::Iter && s.attachStage == stage && s.attachIter == iter)
            out.push_back(i);
    }
    return out;
}

void State::setIteratorExtents(int stage, const std::vector<int64_t>& extents)
{
    TS_ASSERT(extents.size() == this->stage(stage).iters.size()) << "extents for " << this->stage(stage).op->name();
    Stage& s = mutableStage(stage);
    for (size_t i = 0; i < extents.size(); ++i)
        s.iters[i].extent = extents[i];
}

namespace {
    void printStage(std::ostringstream& os, const State& state, int stageId, size_t baseIndent)
    {
        const Stage& stage = state.stage(stageId);
        if (stage.autoUnrollMaxStep != 0)
            os << std::string(baseIndent, ' ') << stage.op->name() << " auto_unroll: " << stage.autoUnrollMaxStep
               << "\n";
        for (const StorageAlign& align : stage.storageAligns)
            os << std::string(baseIndent, ' ') << stage.op->name() << " storage_align: axis " << align.axis
               << " factor " << align.factor << " offset " << align.offset << "\n";
        size_t indent = 0;
        for (size_t i = 0; i < stage.iters.size(); ++i) {
            const Iterator& it = stage.iters[i];
            if (it.extent != 1) { // trivial loops are left out, as TVM prints them
                os << std::string(baseIndent + indent, ' ') << toString(it.annotation) << ' ' << it.name;
                if (it.extent >= 0)
                    os << " (0," << it.extent << ")\n";
                else if (stage.nodes[static_cast<size_t>(it.node)].extent < 0)
                    os << " (0,?)\n"; // below an unfilled split length
                else
                    os << " (None)\n";
                indent += 2;
            }
            for (int attached : state.attachedAt(stageId, static_cast<int>(i)))
                printStage(os, state, attached, baseIndent + indent);
        }
        os << std::string(baseIndent + indent, ' ') << stage.op->name() << " = ...\n";
    }
} // namespace

std::string State::toString() const
{
    std::ostringstream os;
    std::vector<std::string> placeholders;
    for (int i = 0; i < numStages(); ++i)
        if (stage(i).isPlaceholder())
            placeholders.push_back(stage(i).op->name());
    os << "Placeholder: " << join(placeholders, ", ") << "\n";
    for (int i = 0; i < numStages(); ++i) {
        const Stage& stage = this->stage(i);
        if (!stage.isPlaceholder() && stage.computeAt == ComputeAtKind::Root)
            printStage(os, *this, i, 0);
    }
    return os.str();
}

} // namespace ts::sched
