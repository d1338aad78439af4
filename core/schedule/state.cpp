#include "core/schedule/state.h"

#include "core/schedule/step_applier.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

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

State State::initial(const ir::ComputeDAG& dag)
{
    State state;
    for (const ir::Tensor& op : dag.ops())
        state.m_stages.push_back(StepApplier::freshStage(op));
    state.m_dagTensors = dag.tensors();
    return state;
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
    State copy = *this; // a failed step leaves the state as it was
    StepApplier applier(copy, static_cast<int>(m_steps.size()));
    TS_CHECK(std::visit(applier, step));
    copy.m_steps.push_back(step);
    *this = std::move(copy);
    return {};
}

void applyOrDie(State& state, const Step& step)
{
    auto result = state.apply(step);
    TS_ASSERT(result) << result.error().message;
}

int State::stageIndex(const std::string& name) const
{
    for (int i = 0; i < numStages(); ++i)
        if (m_stages[static_cast<size_t>(i)].op->name() == name)
            return i;
    return -1;
}

ir::ComputeDAG State::currentDag() const { return ir::ComputeDAG::create(m_dagTensors); }

std::vector<int> State::attachedAt(int stage, int iter) const
{
    std::vector<int> out;
    for (int i = 0; i < numStages(); ++i) {
        const Stage& s = m_stages[static_cast<size_t>(i)];
        if (s.computeAt == ComputeAtKind::Iter && s.attachStage == stage && s.attachIter == iter)
            out.push_back(i);
    }
    return out;
}

void State::setIteratorExtents(int stage, const std::vector<int64_t>& extents)
{
    Stage& s = m_stages.at(static_cast<size_t>(stage));
    TS_ASSERT(extents.size() == s.iters.size()) << "extents for " << s.op->name();
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
    for (const Stage& stage : m_stages)
        if (stage.isPlaceholder())
            placeholders.push_back(stage.op->name());
    os << "Placeholder: " << join(placeholders, ", ") << "\n";
    for (int i = 0; i < numStages(); ++i) {
        const Stage& stage = m_stages[static_cast<size_t>(i)];
        if (!stage.isPlaceholder() && stage.computeAt == ComputeAtKind::Root)
            printStage(os, *this, i, 0);
    }
    return os.str();
}

} // namespace ts::sched
