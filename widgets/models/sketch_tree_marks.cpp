// SketchTreeModel's constraint marks (sketch_tree_model.h): what each task's constraints remove from the tree,
// computed in a job (markConstraints, constraint_marks.h) and shown in ConstraintColumn, RemovedRole and the
// tooltips.
#include "widgets/models/sketch_tree_model.h"

#include <algorithm>

namespace ts::models {

namespace {
    bool anyConstraint(const std::vector<search::Constraints>& constraints)
    {
        return std::any_of(
            constraints.begin(), constraints.end(), [](const search::Constraints& c) { return !c.empty(); });
    }
} // namespace

void SketchTreeModel::setConstraints(std::vector<search::Constraints> constraints)
{
    if (constraints == m_constraints)
        return;
    m_constraints = std::move(constraints);
    startMarks();
}

void SketchTreeModel::startMarks()
{
    if (!anyConstraint(m_constraints) || !m_built) {
        // Nothing to judge: the marks go now (no job for an empty answer).
        m_marksJob.cancel();
        if (!m_marks.empty() || !m_marks.tasks.empty())
            applyMarks({});
        return;
    }
    m_marksJob.start([tree = m_built, constraints = m_constraints](
                         session::JobContext& context) { return markConstraints(*tree, constraints, &context); },
        [this](Expected<ConstraintMarks> marks) {
            if (marks)
                applyMarks(std::move(marks).value());
            else // only a stopped job fails, and a stopped job's result is never delivered
                Q_EMIT errorOccurred(QString::fromStdString(marks.error().message));
        });
}

void SketchTreeModel::applyMarks(ConstraintMarks marks)
{
    m_marks = std::move(marks);
    emitAllDataChanged();
    Q_EMIT marksUpdated();
}

void SketchTreeModel::emitAllDataChanged()
{
    const int last = ColumnCount - 1;
    for (int t = 0; t < rowCount(); ++t) {
        const QModelIndex task = index(t, 0);
        Q_EMIT dataChanged(task, index(t, last));
        const int groups = rowCount(task);
        if (groups == 0)
            continue;
        Q_EMIT dataChanged(index(0, 0, task), index(groups - 1, last, task));
        for (int g = 0; g < groups; ++g) {
            const QModelIndex group = index(g, 0, task);
            if (const int states = rowCount(group); states > 0)
                Q_EMIT dataChanged(index(0, 0, group), index(states - 1, last, group));
        }
    }
}

QVariant SketchTreeModel::markData(const QModelIndex& index, Kind kind, int role) const
{
    if (role != Qt::DisplayRole && role != RemovedRole)
        return {};
    const int task = taskIndexAt(index);
    switch (kind) {
    case TaskRow: {
        if (role == RemovedRole)
            return false;
        if (task >= static_cast<int>(m_marks.tasks.size()) || !m_marks.tasks[static_cast<size_t>(task)].constrained)
            return QString();
        const TaskMarks& marks = m_marks.tasks[static_cast<size_t>(task)];
        const int broken = marks.brokenStates;
        const QString sketches = tr("%1 of %2 sketches allowed").arg(marks.allowed()).arg(marks.total());
        return broken > 0 ? tr("%1; %n measured state(s) break the constraints", nullptr, broken).arg(sketches)
                          : sketches;
    }
    case SketchRow: {
        const SketchGroup* group = groupAt(index);
        const std::string* removed = group ? m_marks.sketchRemoved(task, group->index) : nullptr;
        if (role == RemovedRole)
            return removed != nullptr;
        if (removed)
            return tr("removed: %1").arg(QString::fromStdString(*removed));
        const bool constrained
            = task < static_cast<int>(m_marks.tasks.size()) && m_marks.tasks[static_cast<size_t>(task)].constrained;
        return constrained && group && group->index >= 0 ? tr("allowed") : QString();
    }
    case StateRow: {
        const auto state = measuredAt(index);
        const std::string* broken = state ? m_marks.stateViolation(state->recordId) : nullptr;
        if (role == RemovedRole)
            return broken != nullptr;
        return broken ? QString::fromStdString(*broken) : QString();
    }
    }
    return {};
}

QString SketchTreeModel::markedToolTip(const QModelIndex& index, Kind kind, QString tip) const
{
    QString mark;
    if (kind == SketchRow) {
        if (const SketchGroup* group = groupAt(index))
            if (const std::string* removed = m_marks.sketchRemoved(taskIndexAt(index), group->index))
                mark = tr("Removed by the task's constraints: it %1. The search samples no state of this sketch.")
                           .arg(QString::fromStdString(*removed));
    } else if (kind == StateRow) {
        if (const auto state = measuredAt(index))
            if (const std::string* broken = m_marks.stateViolation(state->recordId))
                mark = tr("Breaks the task's constraints: %1. The search would not propose it now.")
                           .arg(QString::fromStdString(*broken));
    }
    if (mark.isEmpty())
        return tip;
    return tip.isEmpty() ? mark : mark + QStringLiteral("\n\n") + tip;
}

} // namespace ts::models
