#include "app/gui/view_registry.h"

#include "app/gui/explorer_view.h"
#include "app/gui/sketch_view.h"
#include "app/gui/task_dag_view.h"
#include "app/gui/task_details_view.h"

#include <QCoreApplication>

namespace ts::app {

const std::vector<ViewInfo>& viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        { "ExplorerDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Explorer"), ViewArea::Left, 430,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new ExplorerView(context.selection, parent);
            } },
        { "DagView", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Compute DAG"), ViewArea::Central, 0,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new TaskDagView(context.selection, parent);
            } },
        { "DetailsDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Task details"), ViewArea::Bottom, 170,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new TaskDetailsView(context.selection, parent);
            } },
        { "SketchesDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Sketches"), ViewArea::Right, 560,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SketchView(context, parent); } },
    };
    return views;
}

} // namespace ts::app
