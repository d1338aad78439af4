// Steering a real session by hand through the window (issue 41): a 64^3 matmul, measured for real, paused after
// its first round. Through the Steering dock and the Records dock's context menu: a constraint added with the
// dialog (a wrong one is refused there), a record measured again as manual, a record seeded, a second constraint,
// Undo and Redo from the Edit menu, the constraints saved, cleared and loaded back; then the session runs to its
// end. The store says what the policy did: every record the search stored after the constraints were applied obeys
// them (search::violation on the replayed steps), the manual record carries "pick": "manual" and the session's id,
// and the stored session reads back with the same steering. The GUI thread's event loop is probed throughout: no
// stretch of its own work reaches 50 ms, and the worst blocks are printed.
#include "event_loop_probe.h"
#include "session_fixture.h"
#include "steering_helpers.h"

#include "app/gui/constraint_dialog.h"
#include "app/gui/curves_view.h"
#include "app/gui/main_window.h"
#include "app/gui/prediction_view.h"
#include "app/gui/records_view.h"
#include "app/gui/steering_view.h"
#include "core/search/constraints.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "widgets/models/constraint_edit.h"
#include "widgets/models/prediction_rounds.h"
#include "widgets/models/records_model.h"
#include "widgets/prediction_scatter.h"
#include "widgets/session_hub.h"
#include "widgets/tuning_curve_plot.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace ts;

namespace {
// The window's Edit menu entry for `name` (the Steering dock's action, listed there).
QAction* editAction(app::MainWindow& window, const QString& name)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text() == QStringLiteral("&Edit"))
            for (QAction* action : menu->menu()->actions())
                if (action->objectName() == name)
                    return action;
    return nullptr;
}

// Selects record `id` in the Records dock's table (as a click does); false when it is not loaded.
bool selectRecordRow(app::RecordsView& records, int64_t id)
{
    const auto row = records.model()->rowOfRecord(id);
    if (!row)
        return false;
    const QModelIndex index = records.proxy()->mapFromSource(records.model()->index(*row, 0));
    records.tableView()->setCurrentIndex(index);
    return records.tableView()->currentIndex() == index;
}

} // namespace

class SteeringViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("TuneScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("steering_view_test"));
        QSettings().clear();
    }

    // The constraint list's edits and the dialog's checks, without a session.
    void editsOneConstraintAtATime()
    {
        search::Constraints c;
        c = models::withConstraint(c, search::Constraints { { { "matmul", "j", -1, search::Bound { 8 } } } });
        search::Constraints unroll;
        unroll.unroll.in = { 0, 64 };
        c = models::withConstraint(c, unroll);
        search::Constraints forbid;
        forbid.forbid = { "rfactor" };
        c = models::withConstraint(c, forbid);
        QCOMPARE(c.describe(),
            (std::vector<std::string> { "split matmul.j innermost = 8", "unroll in {0, 64}", "no rfactor" }));
        // The same split again takes the new bound; requiring a forbidden rule lifts the ban.
        c = models::withConstraint(c, search::Constraints { { { "matmul", "j", -1, search::Bound { 16 } } } });
        search::Constraints require;
        require.require = { "rfactor" };
        c = models::withConstraint(c, require);
        QCOMPARE(c.describe(),
            (std::vector<std::string> { "split matmul.j innermost = 16", "unroll in {0, 64}", "always rfactor" }));
        QCOMPARE(models::withoutConstraint(c, 1).describe(),
            (std::vector<std::string> { "split matmul.j innermost = 16", "always rfactor" }));
        QCOMPARE(models::withoutConstraint(c, 2).describe(),
            (std::vector<std::string> { "split matmul.j innermost = 16", "unroll in {0, 64}" }));
        QCOMPARE(models::withoutConstraint(c, 0).splits.size(), size_t { 0 });
        QCOMPARE(models::withoutConstraint(c, 7), c);
        QCOMPARE(models::divisors(12), (std::vector<int64_t> { 1, 2, 3, 4, 6, 12 }));
        QCOMPARE(models::divisors(64).size(), size_t { 7 });

        auto tasks = engine::buildTasks(testing::smallMatmul());
        QVERIFY(tasks);
        const ir::ComputeDAG& dag = tasks->front().dag;
        const std::vector<models::SplitStage> stages = models::splitStages(dag);
        QCOMPARE(stages.size(), size_t { 1 });
        QCOMPARE(stages[0].name, std::string("matmul"));
        QCOMPARE(stages[0].loops.size(), size_t { 3 });
        QCOMPARE(stages[0].loops[1].name, std::string("j"));
        QCOMPARE(stages[0].loops[1].extent, int64_t { 64 });

        app::ConstraintDialog dialog(QStringLiteral("matmul"), dag);
        QVERIFY(!dialog.setSplit(QStringLiteral("conv2d"), QStringLiteral("ff"), -1));
        QVERIFY(dialog.setSplit(QStringLiteral("matmul"), QStringLiteral("j"), -1));
        dialog.setBound(app::ConstraintDialog::BoundKind::Equals, QStringLiteral("7"));
        auto wrong = dialog.constraint();
        QVERIFY(!wrong); // 7 does not divide 64: the engine's own check, before anything is sent
        QVERIFY2(wrong.error().message.find("7") != std::string::npos, wrong.error().message.c_str());
        dialog.setBound(app::ConstraintDialog::BoundKind::In, QStringLiteral("4, x"));
        QVERIFY(!dialog.constraint());
        dialog.setBound(app::ConstraintDialog::BoundKind::Equals, QStringLiteral("8"));
        QCOMPARE(dialog.constraint()->describe(), std::vector<std::string> { "split matmul.j innermost = 8" });
        dialog.setKind(app::ConstraintDialog::Kind::Unroll);
        dialog.setBound(app::ConstraintDialog::BoundKind::In, QStringLiteral("0, 64"));
        QCOMPARE(dialog.constraint()->describe(), std::vector<std::string> { "unroll in {0, 64}" });
        dialog.setKind(app::ConstraintDialog::Kind::Sketch);
        dialog.setSketchRule(true, QStringLiteral("cache_write"));
        QCOMPARE(dialog.constraint()->describe(), std::vector<std::string> { "no cache_write" });
    }

    void steersARunningSessionThroughTheWindow()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("steer.tunescope"));
        app::MainWindow window;
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openWorkspace(path);
        widgets::SessionHub& hub = *window.sessions();
        auto* steering = qobject_cast<app::SteeringView*>(window.view(QStringLiteral("SteeringDock")));
        auto* records = qobject_cast<app::RecordsView*>(window.view(QStringLiteral("RecordsDock")));
        auto* curves = qobject_cast<app::CurvesView*>(window.view(QStringLiteral("CurvesDock")));
        auto* prediction = qobject_cast<app::PredictionView*>(window.view(QStringLiteral("PredictionDock")));
        QVERIFY(steering && records && curves && prediction);
        QAction* undo = editAction(window, QStringLiteral("undoSteering"));
        QAction* redo = editAction(window, QStringLiteral("redoSteering"));
        QVERIFY(undo == steering->undoAction() && redo == steering->redoAction());
        QCOMPARE(undo->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Z));
        QCOMPARE(redo->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
        QVERIFY(!undo->isEnabled());
        QVERIFY(!steering->addConstraintAction()->isEnabled());
        QSignalSpy errors(&hub, &widgets::SessionHub::errorOccurred);
        QVERIFY(!hub.post(engine::UndoSteering {})); // nothing runs
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors.first().at(0).toString().contains(QStringLiteral("no session is running")),
            qPrintable(errors.first().at(0).toString()));

        // Another task's records first (a 32^3 matmul): the running session cannot measure or seed them.
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul("32,32,32"), testing::shortRun(8, 8)));
        const int64_t otherTaskRecord = 1;
        QTRY_VERIFY(selectRecordRow(*records, otherTaskRecord));
        QVERIFY(!records->measureManualAction()->isEnabled());
        QVERIFY2(records->measureManualAction()->toolTip().contains(QStringLiteral("No session is running")),
            qPrintable(records->measureManualAction()->toolTip()));

        // The session, paused (Session > Pause) once its first round is in.
        testing::EventLoopProbe probe;
        probe.start();
        QSignalSpy done(&hub, &widgets::SessionHub::commandDone);
        QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
        bool pauseAsked = false;
        connect(&hub, &widgets::SessionHub::liveUpdated, this, [&] {
            if (!pauseAsked && hub.live() && !hub.live()->rounds.empty()) {
                pauseAsked = true;
                window.sessionAction(QStringLiteral("pauseSession"))->trigger();
            }
        });
        QVERIFY(hub.start(testing::smallMatmul(), testing::shortRun(64, 16)));
        QTRY_VERIFY_WITH_TIMEOUT(pauseAsked && steering->addConstraintAction()->isEnabled(), 120000);
        const int64_t sessionId = hub.live()->sessionId;
        QCOMPARE(testing::listLines(steering->historyList()), QStringList { QStringLiteral("0. session start") });
        QCOMPARE(steering->shownTask(), 0);
        QVERIFY(!undo->isEnabled());

        // Records of another task: disabled, and the tooltip says why.
        QVERIFY(selectRecordRow(*records, otherTaskRecord));
        QVERIFY(!records->seedAction()->isEnabled());
        QVERIFY2(records->seedAction()->toolTip().contains(QStringLiteral("not one of the running session's tasks")),
            qPrintable(records->seedAction()->toolTip()));

        // From the first command on, a probe of its own: what steering costs the GUI thread.
        testing::EventLoopProbe steeringProbe;
        steeringProbe.start();

        // 1. A constraint through the dialog: a wrong one stays in the dialog, a right one reaches the session.
        steering->addConstraintAction()->trigger();
        QPointer<app::ConstraintDialog> dialog = steering->findChild<app::ConstraintDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(dialog->setSplit(QStringLiteral("matmul"), QStringLiteral("j"), -1));
        dialog->setBound(app::ConstraintDialog::BoundKind::Equals, QStringLiteral("7"));
        dialog->accept();
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->errorText().contains(QStringLiteral("7")), qPrintable(dialog->errorText()));
        QVERIFY(done.isEmpty());
        dialog->setBound(app::ConstraintDialog::BoundKind::Equals, QStringLiteral("8"));
        dialog->accept();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(2).toString(), QString());
        QCOMPARE(done.last().at(1).toString(), QStringLiteral("constrain task 0: split matmul.j innermost = 8"));
        // The session is paused: nothing was measured since; what the search stores from now on obeys it.
        int64_t firstConstrainedAfter = hub.live()->trials.back().recordId;
        QCOMPARE(testing::listLines(steering->constraintsList()),
            QStringList { QStringLiteral("split matmul.j innermost = 8") });
        QTRY_VERIFY(undo->isEnabled());
        QVERIFY(steering->statusText().contains(QStringLiteral("Done: constrain task 0")));

        // 2. The session's best record so far, measured again as manual from the Records dock's context menu.
        const int64_t best = hub.live()->tasks[0].curve.back().recordId;
        QTRY_VERIFY(selectRecordRow(*records, best));
        QVERIFY(records->measureManualAction()->isEnabled());
        records->measureManualAction()->trigger();
        QVERIFY(done.wait(120000));
        QCOMPARE(done.last().at(2).toString(), QString());
        QVERIFY(done.last().at(1).toString().startsWith(QStringLiteral("measure a state of task 0")));
        const int64_t manualId = done.last().at(3).toLongLong();
        QVERIFY(manualId > best);
        const models::TrialPoint* manual = hub.live()->findRecord(manualId);
        QVERIFY(manual);
        QVERIFY(manual->manual);
        QCOMPARE(hub.live()->manualTrials(0), 1);
        QCOMPARE(steering->tasksTable()->item(0, 3)->text(), QStringLiteral("1"));
        QCOMPARE(steering->tasksTable()->item(0, 4)->text(), QStringLiteral("1"));

        // 3. The session's first record, seeded: the history says so.
        const int64_t seeded = hub.live()->trials.front().recordId;
        QTRY_VERIFY(selectRecordRow(*records, seeded));
        QVERIFY(records->seedAction()->isEnabled());
        records->seedAction()->trigger();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(2).toString(), QString());
        QCOMPARE(testing::listLines(steering->historyList()).last(), QStringLiteral("3. seed task 0 with 1 state"));
        QCOMPARE(steering->tasksTable()->item(0, 2)->text(), QStringLiteral("1"));

        // 4. A second constraint: unroll in {0, 64}.
        QTRY_VERIFY(!steering->findChild<app::ConstraintDialog*>()); // the first dialog is gone
        steering->addConstraintAction()->trigger();
        dialog = steering->findChild<app::ConstraintDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        dialog->setKind(app::ConstraintDialog::Kind::Unroll);
        dialog->setBound(app::ConstraintDialog::BoundKind::In, QStringLiteral("0, 64"));
        dialog->accept();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(2).toString(), QString());
        const QStringList both
            = { QStringLiteral("split matmul.j innermost = 8"), QStringLiteral("unroll in {0, 64}") };
        QCOMPARE(testing::listLines(steering->constraintsList()), both);
        QCOMPARE(hub.live()->steering.position, 4);

        // 5. Edit > Undo steering: the constraints before it, the position back, the entry greyed "undone".
        undo->trigger();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(1).toString(), QStringLiteral("undo"));
        QCOMPARE(done.last().at(2).toString(), QString());
        QCOMPARE(hub.live()->steering.position, 3);
        QCOMPARE(testing::listLines(steering->constraintsList()), QStringList { both.front() });
        const QStringList history = testing::listLines(steering->historyList());
        QCOMPARE(history.size(), 5);
        QVERIFY2(history[4].endsWith(QStringLiteral("undone")), qPrintable(history[4]));
        QVERIFY(!history[3].endsWith(QStringLiteral("undone")));
        QVERIFY(steering->historyList()->item(3)->font().bold());
        QVERIFY(redo->isEnabled());
        if (const QByteArray shots = qgetenv("TS_SCREENSHOT_DIR"); !shots.isEmpty()) { // the docs' picture
            probe.pause(); // a floating dock's first paint is the test's, not the workbench's
            steeringProbe.pause();
            auto* dock = qobject_cast<QDockWidget*>(steering->parentWidget());
            QVERIFY(dock);
            steering->historyList()->scrollToTop();
            dock->setFloating(true);
            dock->resize(980, 330);
            QTest::qWait(400);
            dock->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/steering-dock.png"));
            dock->setFloating(false);
            QTest::qWait(200);
            probe.resume();
            steeringProbe.resume();
        }

        // 6. Redo: both again.
        redo->trigger();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(2).toString(), QString());
        QCOMPARE(hub.live()->steering.position, 4);
        QCOMPARE(testing::listLines(steering->constraintsList()), both);
        QVERIFY(!redo->isEnabled());

        // Saved, cleared and loaded again: the file `tune --constraints` reads. Loading what is in effect changes
        // nothing.
        const QString file = dir.filePath(QStringLiteral("c.json"));
        QVERIFY(steering->saveConstraints(file));
        const int answered = static_cast<int>(done.size());
        QVERIFY(steering->loadConstraints(file));
        QVERIFY2(steering->statusText().contains(QStringLiteral("changes no task's constraints")),
            qPrintable(steering->statusText()));
        QCOMPARE(static_cast<int>(done.size()), answered);
        QVERIFY(steering->clearConstraintsAction()->isEnabled());
        steering->clearConstraintsAction()->trigger();
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(1).toString(), QStringLiteral("clear the constraints of task 0"));
        QVERIFY(hub.live()->steering.constraints[0].empty());
        QVERIFY(!steering->redoAction()->isEnabled()); // the new entry dropped nothing: there was nothing to redo
        QVERIFY(steering->loadConstraints(file));
        QVERIFY(done.wait(60000));
        QCOMPARE(done.last().at(2).toString(), QString());
        QCOMPARE(testing::listLines(steering->constraintsList()), both);
        QCOMPARE(hub.live()->steering.position, 6);
        const int64_t bothConstrainedAfter = hub.live()->trials.back().recordId;

        // Resumed, to the end of its budget.
        window.sessionAction(QStringLiteral("resumeSession"))->trigger();
        QVERIFY(finished.wait(240000));
        probe.stop();
        steeringProbe.stop();
        // Issue 41's bar: no call on the GUI thread over 50 ms. A late tick on a machine whose cores measure
        // kernels may be the thread waiting for a core, so the bar is on the CPU time the thread spent in one
        // stretch; the lateness is printed beside it and only a real freeze (500 ms, as workbench_test) fails.
        qInfo("event loop, whole session: longest block %.1f ms, p99 %.1f ms over %zu ticks; the longest stretch of "
              "the GUI thread's own work %.1f ms of CPU",
            probe.maxBlockedMs(), probe.quantileMs(0.99), probe.ticks(), probe.maxBusyMs());
        qInfo("event loop, from the first steering command on: longest block %.1f ms, p99 %.1f ms over %zu ticks; the "
              "longest stretch of the GUI thread's own work %.1f ms of CPU",
            steeringProbe.maxBlockedMs(), steeringProbe.quantileMs(0.99), steeringProbe.ticks(),
            steeringProbe.maxBusyMs());
        QVERIFY2(probe.maxBusyMs() < 50.0, qPrintable(QString::number(probe.maxBusyMs())));
        QVERIFY2(probe.maxBlockedMs() < 500.0, qPrintable(QString::number(probe.maxBlockedMs())));
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("finished"));
        const auto last = hub.current();
        QCOMPARE(last->sessionId, sessionId);
        QVERIFY(!steering->undoAction()->isEnabled()); // nothing runs: the stored steering is only shown
        QCOMPARE(testing::listLines(steering->constraintsList()), both);

        // The manual point has its own marker on the tuning curves and in predicted vs measured.
        QTRY_VERIFY(curves->plot()->manualGraph());
        QCOMPARE(curves->plot()->manualGraph()->dataCount(), last->findRecord(manualId)->ok() ? 1 : 0);
        QCOMPARE(curves->plot()->manualGraph()->name(), QStringLiteral("manual"));
        const auto& points = prediction->scatter()->points();
        QCOMPARE(std::count_if(points.begin(), points.end(),
                     [&](const widgets::PredictionScatter::Point& p) { return p.manual && p.recordId == manualId; }),
            last->findRecord(manualId)->ok() ? 1 : 0);

        // The store: the manual record, and the policy obeying each constraint from its answer on.
        auto store = store::Store::open(path.toStdString());
        QVERIFY(store);
        store::RecordFilter filter;
        filter.sessionId = sessionId;
        auto stored = store->records(filter);
        QVERIFY(stored);
        const ir::ComputeDAG& dag = last->tasks[0].task->dag;
        const search::Constraints first = models::withoutConstraint(last->steering.constraints[0], 1);
        QCOMPARE(first.describe(), std::vector<std::string> { "split matmul.j innermost = 8" });
        int manualRecords = 0;
        int checkedFirst = 0;
        int checkedBoth = 0;
        int brokeBefore = 0; // records of before the first constraint that break it: it binds
        for (const store::Record& r : *stored) {
            const nlohmann::json extra = nlohmann::json::parse(r.extra);
            if (extra.value("pick", std::string()) == "manual") {
                ++manualRecords;
                QCOMPARE(r.id, manualId);
                QCOMPARE(r.sessionId, std::optional<int64_t>(sessionId));
                continue; // a person's state: no constraint binds it
            }
            auto state = store::replayStored(dag, r.steps, r.extra);
            QVERIFY2(state, state ? "" : state.error().message.c_str());
            if (r.id <= firstConstrainedAfter) {
                brokeBefore += search::violation(first, dag, *state) ? 1 : 0;
                continue;
            }
            const auto broken
                = search::violation(r.id > bothConstrainedAfter ? last->steering.constraints[0] : first, dag, *state);
            QVERIFY2(!broken, (std::to_string(r.id) + ": " + broken.value_or("")).c_str());
            ++(r.id > bothConstrainedAfter ? checkedBoth : checkedFirst);
        }
        QCOMPARE(manualRecords, 1);
        QVERIFY(checkedBoth >= 16); // at least one round ran under both
        QVERIFY(brokeBefore > 0);
        qInfo("records checked: %d under the first constraint only, %d under both; %d of before it break it",
            checkedFirst, checkedBoth, brokeBefore);

        // The stored session reads back with its steering and its manual record.
        auto reloaded = models::loadSessionSnapshot(*store, sessionId);
        QVERIFY(reloaded);
        QCOMPARE(reloaded->steering.history, last->steering.history);
        QCOMPARE(reloaded->steering.history.size(), size_t { 7 });
        QCOMPARE(reloaded->steering.position, 6);
        QCOMPARE(reloaded->steering.constraints, last->steering.constraints);
        QCOMPARE(reloaded->steering.seeds, std::vector<int> { 1 });
        QVERIFY(reloaded->steering.manualInPopulation.empty());
        QVERIFY(reloaded->findRecord(manualId) && reloaded->findRecord(manualId)->manual);
        QCOMPARE(reloaded->manualTrials(0), 1);
        QCOMPARE(reloaded->trialsDone, last->trialsDone);
    }
};

QTEST_MAIN(SteeringViewTest)
#include "steering_view_test.moc"
