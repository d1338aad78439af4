#include "app/gui/task_details_view.h"

#include "core/graph/task_report.h"
#include "core/schedule/state.h"
#include "widgets/selection_context.h"

namespace ts::app {

TaskDetailsView::TaskDetailsView(widgets::SelectionContext& selection, QWidget* parent)
    : QPlainTextEdit(parent)
    , m_selection(selection)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
    using widgets::SelectionContext;
    connect(&m_selection, &SelectionContext::networkChanged, this, &TaskDetailsView::refresh);
    connect(&m_selection, &SelectionContext::taskChanged, this, &TaskDetailsView::refresh);
    connect(&m_selection, &SelectionContext::stateChanged, this, &TaskDetailsView::refresh);
    refresh();
}

void TaskDetailsView::refresh()
{
    if (const auto& task = m_selection.task()) {
        QString text = QString::fromStdString(graph::formatTaskDag(*task));
        if (const auto& state = m_selection.state())
            text += QLatin1Char('\n') + tr("Schedule:") + QLatin1Char('\n') + QString::fromStdString(state->toString());
        setPlainText(text);
    } else if (const auto& network = m_selection.network()) {
        setPlainText(network->tasks ? QString::fromStdString(
                         graph::formatTaskTable(*network->tasks, network->name + ": " + network->description))
                                    : QString::fromStdString(network->error));
    } else {
        clear();
    }
}

} // namespace ts::app
