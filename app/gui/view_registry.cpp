#include "app/gui/view_registry.h"

#include "app/gui/code_view.h"
#include "app/gui/curves_view.h"
#include "app/gui/explorer_view.h"
#include "app/gui/prediction_view.h"
#include "app/gui/scheduler_view.h"
#include "app/gui/sessions_view.h"
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
        { "SessionsDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Sessions"), ViewArea::Left, 430,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SessionsView(context, parent); } },
        { "DagView", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Compute DAG"), ViewArea::Central, 0,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new TaskDagView(context.selection, parent);
            } },
        { "DetailsDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Task details"), ViewArea::Bottom, 170,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new TaskDetailsView(context.selection, parent);
            } },
        { "CurvesDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Tuning curves"), ViewArea::Right, 480,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new CurvesView(context, parent); } },
        { "PredictionDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Predicted vs measured"), ViewArea::Bottom, 260,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new PredictionView(context, parent); } },
        { "SchedulerDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Task scheduler"), ViewArea::Bottom, 220,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SchedulerView(context, parent); } },
        { "CodeDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Code"), ViewArea::Right, 520,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new CodeView(context, parent); } },
    };
    return views;
}

} // namespace ts::app
