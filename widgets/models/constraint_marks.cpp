#include "widgets/models/constraint_marks.h"

#include "widgets/models/sketch_tree_model.h"

#include <algorithm>

namespace ts::models {

int TaskMarks::allowed() const
{
    return static_cast<int>(
        std::count_if(sketches.begin(), sketches.end(), [](const auto& removed) { return !removed.has_value(); }));
}

bool ConstraintMarks::empty() const
{
    return states.empty()
        && std::none_of(tasks.begin(), tasks.end(), [](const TaskMarks& t) { return t.allowed() < t.total(); });
}

const std::string* ConstraintMarks::sketchRemoved(int task, int sketch) const
{
    if (task < 0 || task >= static_cast<int>(tasks.size()))
        return nullptr;
    const TaskMarks& marks = tasks[static_cast<size_t>(task)];
    if (sketch < 0 || sketch >= marks.total() || !marks.sketches[static_cast<size_t>(sketch)])
        return nullptr;
    return &*marks.sketches[static_cast<size_t>(sketch)];
}

const std::string* ConstraintMarks::stateViolation(int64_t recordId) const
{
    const auto found = states.find(recordId);
    return found == states.end() ? nullptr : &found->second;
}

Expected<ConstraintMarks> markConstraints(
    const SketchTree& tree, const std::vector<search::Constraints>& constraints, const session::JobContext* context)
{
    ConstraintMarks out;
    out.tasks.resize(tree.tasks.size());
    for (size_t t = 0; t < tree.tasks.size() && t < constraints.size(); ++t) {
        const SketchTask& task = tree.tasks[t];
        const search::Constraints& c = constraints[t];
        if (c.empty() || !task.graphTask)
            continue;
        TaskMarks& marks = out.tasks[t];
        marks.constrained = true;
        if (task.sketches)
            for (const search::Sketch& sketch : *task.sketches)
                marks.sketches.push_back(search::sketchRuleViolation(c, sketch.state));
        // One checker per task: its cache resolves the split steps once per loop structure.
        const search::ConstraintChecker checker(task.graphTask->dag, c);
        for (const SketchGroup& group : task.groups)
            for (const auto& measured : group.states) {
                if (context && context->stopRequested())
                    return makeError(ErrorKind::Internal, "stopped");
                if (!measured->state)
                    continue; // not replayed: nothing to judge
                ++out.checkedStates;
                if (auto broken = checker.violation(*measured->state)) {
                    out.states.emplace(measured->recordId, std::move(*broken));
                    ++marks.brokenStates;
                }
            }
    }
    return out;
}

} // namespace ts::models
