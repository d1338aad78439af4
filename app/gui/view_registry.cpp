#include "app/gui/view_registry.h"

#include "app/gui/explorer_view.h"
#include "app/gui/task_dag_view.h"
#include "app/gui/task_details_view.h"

#include <QCoreApplication>

namespace ts::app {

const std::vector<ViewInfo>& viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        { "ExplorerDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Explorer"), ViewArea::Left, 430,
            [](widgets::SelectionContext& selection, QWidget* parent) -> QWidget* {
                return new ExplorerView(selection, parent);
            } },
        { "DagView", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Compute DAG"), ViewArea::Central, 0,
            [](widgets::SelectionContext& selection, QWidget* parent) -> QWidget* {
                return new TaskDagView(selection, parent);
            } },
        { "DetailsDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Task details"), ViewArea::Bottom, 170,
            [](widgets::SelectionContext& selection, QWidget* parent) -> QWidget* {
                return new TaskDetailsView(selection, parent);
            } },
    };
    return views;
}

} // namespace ts::app
