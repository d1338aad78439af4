#include "app/gui/task_dag_view.h"

#include "core/schedule/state.h"
#include "widgets/models/stage_marks.h"
#include "widgets/selection_context.h"

namespace ts::app {

TaskDagView::TaskDagView(widgets::SelectionContext& selection, QWidget* parent)
    : widgets::DagView(parent)
    , m_selection(selection)
{
    connect(&m_selection, &widgets::SelectionContext::taskChanged, this, &TaskDagView::onTaskChanged);
    connect(&m_selection, &widgets::SelectionContext::stateChanged, this, &TaskDagView::onStateChanged);
    onTaskChanged();
}

void TaskDagView::onTaskChanged()
{
    const auto& task = m_selection.task();
    if (!task) {
        clearDag(tr("Select a task in the explorer to see its compute DAG."));
        return;
    }
    const QString name = QString::fromStdString(task->name);
    setDag(task->dag,
        m_selection.network() ? tr("%1 — task %2: %3").arg(m_selection.networkName()).arg(task->id).arg(name)
                              : tr("task %1: %2").arg(task->id).arg(name));
    onStateChanged();
}

void TaskDagView::onStateChanged()
{
    // A replay of the steps: microseconds for the schedules a search makes, so on the GUI thread.
    const auto& task = m_selection.task();
    const auto& state = m_selection.state();
    setStageMarks(task && state ? models::stageMarks(task->dag, state->steps()) : std::vector<models::StageMarkSet> {});
}

} // namespace ts::app
