#include "app/gui/view_registry.h"

#include "app/gui/code_view.h"
#include "app/gui/curves_view.h"
#include "app/gui/explorer_view.h"
#include "app/gui/model_comparison_view.h"
#include "app/gui/network_run_view.h"
#include "app/gui/prediction_view.h"
#include "app/gui/race_view.h"
#include "app/gui/records_view.h"
#include "app/gui/roofline_view.h"
#include "app/gui/scheduler_view.h"
#include "app/gui/sessions_view.h"
#include "app/gui/sketch_view.h"
#include "app/gui/steering_view.h"
#include "app/gui/sweep_view.h"
#include "app/gui/task_dag_view.h"
#include "app/gui/task_details_view.h"

#include <QCoreApplication>

namespace ts::app {

const std::vector<ViewInfo>& viewRegistry()
{
    static const std::vector<ViewInfo> views = {
        { "ExplorerDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Explorer"), ViewArea::Left, 480,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new ExplorerView(context.selection, parent);
            },
            3 },
        { "SketchesDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Sketches"), ViewArea::Left, 480,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SketchView(context, parent); }, 3,
            "ExplorerDock" },
        { "SessionsDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Sessions"), ViewArea::Left, 480,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SessionsView(context, parent); }, 2 },
        { "DagView", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Compute DAG"), ViewArea::Central, 0,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new TaskDagView(context.selection, parent);
            } },
        { "DetailsDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Task details"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* {
                return new TaskDetailsView(context.selection, parent);
            },
            1 },
        { "CurvesDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Tuning curves"), ViewArea::Right, 560,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new CurvesView(context, parent); }, 5 },
        { "PredictionDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Predicted vs measured"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new PredictionView(context, parent); }, 1 },
        { "SchedulerDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Task scheduler"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SchedulerView(context, parent); }, 1 },
        { "NetworkRunDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Network run"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new NetworkRunView(context, parent); }, 1,
            "SchedulerDock" },
        { "RaceDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Race"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new RaceView(context, parent); }, 1,
            "SchedulerDock" },
        { "SweepDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Sweep"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SweepView(context, parent); }, 1,
            "SchedulerDock" },
        { "SteeringDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Steering"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new SteeringView(context, parent); }, 1,
            "SchedulerDock" },
        { "ModelComparisonDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Model comparison"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new ModelComparisonView(context, parent); },
            1, "PredictionDock" },
        { "RooflineDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Roofline"), ViewArea::Bottom, 270,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new RooflineView(context, parent); }, 1,
            "PredictionDock" },
        { "CodeDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Code"), ViewArea::Right, 560,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new CodeView(context, parent); }, 6 },
        { "RecordsDock", QT_TRANSLATE_NOOP("ts::app::MainWindow", "Records"), ViewArea::Bottom, 220,
            [](ViewContext& context, QWidget* parent) -> QWidget* { return new RecordsView(context, parent); }, 1,
            "DetailsDock" },
    };
    return views;
}

} // namespace ts::app
