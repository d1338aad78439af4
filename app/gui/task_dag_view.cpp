#include "app/gui/task_dag_view.h"

#include "widgets/selection_context.h"

namespace ts::app {

TaskDagView::TaskDagView(widgets::SelectionContext& selection, QWidget* parent)
    : widgets::DagView(parent)
    , m_selection(selection)
{
    connect(&m_selection, &widgets::SelectionContext::taskChanged, this, &TaskDagView::onTaskChanged);
    onTaskChanged();
}

void TaskDagView::onTaskChanged()
{
    const auto& task = m_selection.task();
    if (!task) {
        clearDag(tr("Select a task in the explorer to see its compute DAG."));
        return;
    }
    setDag(task->dag,
        tr("%1 — task %2: %3").arg(m_selection.networkName()).arg(task->id).arg(QString::fromStdString(task->name)));
}

} // namespace ts::app
