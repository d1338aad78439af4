// The main window opens, the explorer loads off the GUI thread, and selecting a task in the explorer
// reaches every view through the selection context: the DAG scene (laid out asynchronously), the details
// and the status; a fast reselect shows only the last task; batch and layout changes keep the selection.
#include "app/gui/main_window.h"
#include "app/gui/sweep_view.h"
#include "app/gui/view_registry.h"
#include "core/graph/task_report.h"
#include "core/schedule/state.h"
#include "widgets/dag_view.h"
#include "widgets/models/network_task_model.h"
#include "widgets/selection_context.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTest>
#include <QTreeView>

using namespace ts;

class MainWindowTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("TuneScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("main_window_test"));
        QSettings().clear();
    }

    void selectingTaskPopulatesDag()
    {
        app::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.dagView()->nodeItems().isEmpty());
        QTRY_VERIFY(window.isExplorerReady()); // the explorer's networks load off the GUI thread

        QVERIFY(window.selectTask(QStringLiteral("resnet-18"), 3));
        const graph::Task* task = window.taskModel()->taskAt(window.explorer()->currentIndex());
        QVERIFY(task);
        QCOMPARE(task->id, 3);
        // The DAG is laid out off the GUI thread: the scene fills when the layout arrives.
        QTRY_COMPARE(window.dagView()->nodeItems().size(), task->dag.numOps());
        QCOMPARE(window.dagView()->nodeItems().size(), 9); // data, pad, weight, conv, bias, add, residual, add, relu

        // Clicking another task through the explorer's selection replaces the scene.
        const QModelIndex bert = window.taskModel()->networkIndex(QStringLiteral("bert-tiny"));
        window.explorer()->setCurrentIndex(window.taskModel()->index(2, 0, bert)); // softmax
        QTRY_COMPARE(window.dagView()->nodeItems().size(), 5);
        QVERIFY(!window.selectTask(QStringLiteral("bert-tiny"), 99));
        QVERIFY(!window.selectTask(QStringLiteral("no-such-net"), 0));
    }

    void rememberedSelectionAndGeometry()
    {
        {
            app::MainWindow window;
            window.resize(900, 700);
            window.show();
            QTRY_VERIFY(window.isExplorerReady());
            QVERIFY(window.selectTask(QStringLiteral("vgg-11"), 1));
            window.close();
        }
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("explorer/network")).toString(), QStringLiteral("vgg-11"));
        QCOMPARE(settings.value(QStringLiteral("explorer/task")).toInt(), 1);
        QVERIFY(!settings.value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
    }

    void viewsComeFromTheRegistry()
    {
        app::MainWindow window;
        int central = 0;
        for (const app::ViewInfo& info : app::viewRegistry()) {
            QWidget* view = window.view(QString::fromLatin1(info.id));
            QVERIFY2(view, info.id);
            if (info.area == app::ViewArea::Central) {
                ++central;
                QCOMPARE(window.centralWidget(), view);
            } else {
                auto* dock = window.findChild<QDockWidget*>(QString::fromLatin1(info.id));
                QVERIFY2(dock, info.id);
                QCOMPARE(dock->widget(), view);
            }
        }
        QCOMPARE(central, 1);
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("ExplorerDock")));
        QVERIFY(window.findChild<QDockWidget*>(QStringLiteral("DetailsDock")));
    }

    void explorerSaysLoadingUntilTheCatalogArrives()
    {
        app::MainWindow window;
        window.show();
        auto* pages = window.findChild<QStackedWidget*>();
        QVERIFY(pages);
        QVERIFY(!window.isExplorerReady());
        QCOMPARE(pages->currentWidget()->objectName(), QStringLiteral("ExplorerLoading"));
        QSignalSpy ready(&window, &app::MainWindow::explorerReady);
        QVERIFY(ready.wait(10000));
        QCOMPARE(pages->currentWidget(), static_cast<QWidget*>(window.explorer()));
        QCOMPARE(window.taskModel()->rowCount(), 7);
    }

    void selectionReachesEveryView()
    {
        app::MainWindow window;
        window.show();
        QTRY_VERIFY(window.isExplorerReady());
        QVERIFY(window.selectTask(QStringLiteral("resnet-18"), 3));
        const auto task = window.selection()->task();
        QVERIFY(task);
        QCOMPARE(task->id, 3);
        QCOMPARE(window.selection()->networkName(), QStringLiteral("resnet-18"));
        // The details dock shows the task at once, the DAG view once its layout has arrived.
        QCOMPARE(window.detailsView()->toPlainText(), QString::fromStdString(graph::formatTaskDag(*task)));
        QTRY_COMPARE(window.dagView()->title(), QStringLiteral("resnet-18 — task 3: conv2d_bias_add_add_relu_nchw"));
        QCOMPARE(window.dagView()->nodeItems().size(), 9);
        QVERIFY(window.statusBar()->findChild<QLabel*>()->text().startsWith(QLatin1String("resnet-18, task 3: 9 ops")));
        // The Sweep dock asks for a state of the task; the initial state has no split to sweep, and says so.
        auto* sweep = qobject_cast<app::SweepView*>(window.view(QStringLiteral("SweepDock")));
        QVERIFY(sweep);
        QVERIFY2(
            sweep->titleText().startsWith(QLatin1String("Select a schedule state")), qPrintable(sweep->titleText()));
        window.selection()->selectState(std::make_shared<const sched::State>(sched::State::initial(task->dag)));
        QTRY_VERIFY2(sweep->titleText().contains(QLatin1String("nothing to sweep")), qPrintable(sweep->titleText()));
        QVERIFY(!sweep->sweepButton()->isEnabled());

        // Selecting in the context (as a future view would) moves the explorer too.
        const QModelIndex bert = window.taskModel()->networkIndex(QStringLiteral("bert-tiny"));
        window.selection()->selectTask(window.taskModel()->networkAt(bert),
            window.taskModel()->taskHandleAt(window.taskModel()->index(2, 0, bert)));
        QCOMPARE(window.explorer()->currentIndex(), window.taskModel()->index(2, 0, bert));
        QTRY_COMPARE(window.dagView()->nodeItems().size(), 5);
        QVERIFY(window.detailsView()->toPlainText().startsWith(QLatin1String("task 2: softmax")));

        // A network row: the details list its tasks, the DAG view asks for a task.
        window.explorer()->setCurrentIndex(bert);
        QVERIFY(!window.selection()->task());
        QVERIFY(window.detailsView()->toPlainText().contains(QLatin1String("bert-tiny")));
        QCOMPARE(window.detailsView()->toPlainText(),
            QString::fromStdString(graph::formatTaskTable(*window.selection()->network()->tasks,
                window.selection()->network()->name + ": " + window.selection()->network()->description)));
        QVERIFY(window.dagView()->nodeItems().isEmpty());
        QCOMPARE(window.dagView()->title(), QStringLiteral("Select a task in the explorer to see its compute DAG."));
    }

    void fastReselectShowsOnlyTheLastTask()
    {
        app::MainWindow window;
        window.show();
        QTRY_VERIFY(window.isExplorerReady());
        QSignalSpy finished(window.dagView(), &widgets::DagView::layoutFinished);
        QVERIFY(window.selectTask(QStringLiteral("resnet-18"), 3));
        QVERIFY(window.selectTask(QStringLiteral("resnet-50"), 5));
        QVERIFY(window.selectTask(QStringLiteral("bert-tiny"), 2));
        QVERIFY(finished.wait(10000));
        QTest::qWait(150);
        QCOMPARE(finished.count(), 1); // the two superseded layouts never reached the view
        QCOMPARE(window.dagView()->title(), QStringLiteral("bert-tiny — task 2: softmax"));
        QCOMPARE(window.dagView()->nodeItems().size(), 5);
    }

    void layoutChangeKeepsTheSelection()
    {
        app::MainWindow window;
        window.show();
        QTRY_VERIFY(window.isExplorerReady());
        QVERIFY(window.selectTask(QStringLiteral("resnet-18"), 3));
        QTRY_COMPARE(window.dagView()->nodeItems().size(), 9);
        QSignalSpy ready(&window, &app::MainWindow::explorerReady);
        window.findChild<QComboBox*>()->setCurrentIndex(1); // NHWC
        QVERIFY(ready.wait(10000));
        // The same task of the NHWC catalog is selected, and the views show it.
        QVERIFY(window.selection()->task());
        QCOMPARE(window.selection()->task()->id, 3);
        QVERIFY(QString::fromStdString(window.selection()->task()->name).endsWith(QLatin1String("nhwc")));
        QCOMPARE(window.taskModel()->taskHandleAt(window.explorer()->currentIndex()), window.selection()->task());
        QTRY_COMPARE(window.dagView()->title(), QStringLiteral("resnet-18 — task 3: conv2d_bias_add_add_relu_nhwc"));

        // BERT has no NHWC form: back to NCHW, select BERT, then NHWC again clears the selection.
        window.findChild<QComboBox*>()->setCurrentIndex(0);
        QVERIFY(ready.wait(10000));
        QVERIFY(window.selectTask(QStringLiteral("bert-tiny"), 2));
        window.findChild<QComboBox*>()->setCurrentIndex(1);
        QVERIFY(ready.wait(10000));
        QVERIFY(!window.selection()->network());
        QVERIFY(!window.explorer()->currentIndex().isValid());
        QTRY_VERIFY(window.dagView()->nodeItems().isEmpty());
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
