// Issue 41's "done when", in one test: a person steers ONE real session through the window (a 64^3 matmul measured
// for real in the runner process, xgb ranking, the analytical model shadowing it, a fresh workspace), paused after
// its first round, and the store says what came of each step:
//  1. a hand-written state opened in the Code view's editor and edited by typing: the loop nest of the edited steps;
//  2. Measure: a record of the session with "pick": "manual" and exactly the edited steps;
//  3. Add to search: the seed is in the initial population of the next round the session runs (its RoundStats);
//  4. a constraint from the Steering dock's dialog: every record the search stores from its answer until it is undone
//     obeys it (search::violation on the replayed steps), and the round counts no seed rejected;
//  5. a sweep of the edited split length in the Sweep dock: one stored point per legal value;
//  6. Undo, three times: the constraints, the seeds and the manual state's place in the population back to the
//     session's start, and the next round has no seed and rejects nothing; the manual record stays in the store;
//  7. the shadow models' per-round metrics (each round's session line and analytical line) equal what compare-models'
//     metrics code (store::loadDataset, store::evaluate) computes on the same records with the same scores: the
//     session's stored predictions, and an analytical model made as the session makes it.
// The GUI thread is probed from the session's start to its end: its longest stretch of own work stays under 50 ms
// (printed with how late the event loop ran at worst).
#include "event_loop_probe.h"
#include "session_fixture.h"
#include "steering_helpers.h"

#include "app/gui/code_view.h"
#include "app/gui/constraint_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/prediction_view.h"
#include "app/gui/schedule_editor.h"
#include "app/gui/steering_view.h"
#include "app/gui/sweep_view.h"
#include "core/cost/analytical_model.h"
#include "core/engine/sweep.h"
#include "core/schedule/step_json.h"
#include "core/search/constraints.h"
#include "core/store/dataset.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/sweep_plot.h"

#include <QAction>
#include <QCoreApplication>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

using namespace ts;
using app::ScheduleEditor;

class SteeringWalkthroughTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("TuneScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("steering_walkthrough_test"));
        QSettings().clear();
    }

    void steersOneRealSessionThroughEachFeature()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("walk.tunescope"));
        app::MainWindow window;
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openWorkspace(path);
        widgets::SessionHub& hub = *window.sessions();
        widgets::SelectionContext& selection = *window.selection();
        auto* code = qobject_cast<app::CodeView*>(window.view(QStringLiteral("CodeDock")));
        auto* steering = qobject_cast<app::SteeringView*>(window.view(QStringLiteral("SteeringDock")));
        auto* sweep = qobject_cast<app::SweepView*>(window.view(QStringLiteral("SweepDock")));
        auto* prediction = qobject_cast<app::PredictionView*>(window.view(QStringLiteral("PredictionDock")));
        QVERIFY(code && steering && sweep && prediction);
        ScheduleEditor* editor = code->editor();

        // The session pauses (Session > Pause) once it has `pauseAt` rounds; Session > Resume goes on.
        size_t pauseAt = 1;
        connect(&hub, &widgets::SessionHub::liveUpdated, this, [&] {
            if (pauseAt > 0 && hub.live() && hub.live()->rounds.size() >= pauseAt) {
                pauseAt = 0;
                window.sessionAction(QStringLiteral("pauseSession"))->trigger();
            }
        });
        auto runRoundThenPause = [&] {
            pauseAt = hub.live()->rounds.size() + 1;
            window.sessionAction(QStringLiteral("resumeSession"))->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(pauseAt == 0 && hub.isPaused(), 120000);
        };
        QSignalSpy done(&hub, &widgets::SessionHub::commandDone);
        QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
        auto waitDone = [&](const char* what) {
            const qsizetype before = done.size();
            QTRY_VERIFY2_WITH_TIMEOUT(done.size() > before, what, 120000);
            QVERIFY2(done.last().at(2).toString().isEmpty(), qPrintable(done.last().at(2).toString()));
        };

        testing::EventLoopProbe probe;
        probe.start();
        engine::TuneOptions options = testing::shortRun(48, 8, "xgb");
        options.shadowModels = { "analytical" };
        options.remeasureTop = 0; // the records keep the costs the metrics of their round were computed on
        QVERIFY(hub.start(testing::smallMatmul(), options));
        QTRY_VERIFY_WITH_TIMEOUT(pauseAt == 0 && steering->addConstraintAction()->isEnabled(), 120000);
        const int64_t sessionId = hub.live()->sessionId;
        const auto task = hub.live()->tasks[0].task;
        const ir::ComputeDAG& dag = task->dag;

        // 1. A hand-written state (matmul's j split by 16, its inner loop vectorised) in the editor; 16 -> 8 typed.
        const std::vector<sched::Step> hand = { sched::SplitStep { 2, 1, 64, { 16 }, true },
            sched::AnnotationStep { 2, 2, sched::Annotation::Vectorize } };
        auto handState = sched::State::replay(dag, hand);
        QVERIFY2(handState, handState ? "" : handState.error().message.c_str());
        QSignalSpy replayed(editor, &ScheduleEditor::replayed);
        selection.selectTask(nullptr, task);
        selection.selectState(std::make_shared<const sched::State>(*handState));
        code->editSelected();
        QVERIFY(replayed.wait(60000));
        QCOMPARE(editor->paneText(ScheduleEditor::Pane::LoopNest), testing::loopNestOf(dag, hand));
        const QString before = editor->textEdit()->toPlainText();
        const int at = static_cast<int>(before.indexOf(QLatin1String("[16]")));
        QVERIFY2(at > 0, qPrintable(before));
        replayed.clear();
        testing::typeOver(editor->textEdit(), at + 1, at + 3, QStringLiteral("8"));
        QVERIFY(replayed.wait(60000));
        QVERIFY2(editor->errorText().isEmpty(), qPrintable(editor->errorText()));
        std::vector<sched::Step> edited = hand;
        std::get<sched::SplitStep>(edited[0]).lengths = { 8 };
        const QString editedNest = testing::loopNestOf(dag, edited);
        QCOMPARE(editor->paneText(ScheduleEditor::Pane::LoopNest), editedNest);
        QVERIFY2(editedNest.contains(QLatin1String("vectorize j.1 (0,8)")), qPrintable(editedNest));
        QCOMPARE(editor->shownState()->steps(), edited);

        // 2. Measure: a manual record of the session (checked in the store below).
        QVERIFY2(editor->measureButton()->isEnabled(), qPrintable(editor->measureButton()->toolTip()));
        QTest::mouseClick(editor->measureButton(), Qt::LeftButton);
        waitDone("the manual measurement");
        const int64_t manualId = done.last().at(3).toLongLong();
        QVERIFY(manualId > 0);
        QVERIFY(hub.live()->findRecord(manualId) && hub.live()->findRecord(manualId)->manual);
        QCOMPARE(hub.live()->steering.manualInPopulation, std::vector<int> { 1 });

        // 3. Add to search: a seed of the task from the next round.
        QTest::mouseClick(editor->addToSearchButton(), Qt::LeftButton);
        waitDone("the seed");
        QCOMPARE(hub.live()->steering.seeds, std::vector<int> { 1 });

        // 4. A constraint through the Steering dock's dialog: the innermost j tile is 8 (the seed obeys it).
        QPointer<app::ConstraintDialog> dialog = steering->openConstraintDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->setSplit(QStringLiteral("matmul"), QStringLiteral("j"), -1));
        dialog->setBound(app::ConstraintDialog::BoundKind::Equals, QStringLiteral("8"));
        dialog->accept();
        waitDone("the constraint");
        const search::Constraints pinned { { { "matmul", "j", -1, search::Bound { 8 } } } };
        QCOMPARE(hub.live()->steering.constraints, std::vector<search::Constraints> { pinned });
        QCOMPARE(hub.live()->steering.position, 3);
        const int64_t constrainedAfter = hub.live()->trials.back().recordId;
        const size_t roundsBeforeSeed = hub.live()->rounds.size();

        // One round under the seed and the constraint: the seed is in its initial population, and rejected by nothing.
        runRoundThenPause();
        const models::RoundInfo seededRound = hub.live()->rounds[roundsBeforeSeed];
        QCOMPARE(seededRound.search.userSeeds, 1);

        // 5. A sweep of the manual state's split length, with the analytical model's prediction beside it.
        const auto manualState = std::make_shared<const sched::State>(*sched::State::replay(dag, edited));
        QSignalSpy listed(sweep, &app::SweepView::parametersReady);
        selection.selectMeasured(task, manualState, manualId);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && !sweep->parameters().empty(), 30000);
        int split = -1;
        for (size_t i = 0; i < sweep->parameters().size(); ++i)
            if (sweep->parameters()[i].parameter.kind == engine::SweepParameter::Kind::SplitLength)
                split = static_cast<int>(i);
        QVERIFY(split >= 0);
        QCOMPARE(sweep->parameters()[static_cast<size_t>(split)].current, int64_t { 8 });
        auto legal = engine::legalValues(dag, *manualState, sweep->parameters()[static_cast<size_t>(split)].parameter);
        QVERIFY(legal);
        std::vector<int64_t> values;
        for (const engine::SweepCandidate& c : *legal)
            values.push_back(c.value);
        QCOMPARE(values, (std::vector<int64_t> { 1, 2, 4, 8, 16, 32, 64 }));
        sweep->setCheckedModels({ QStringLiteral("analytical") });
        QSignalSpy swept(sweep, &app::SweepView::sweepFinished);
        QVERIFY(sweep->startSweep(split));
        QVERIFY(swept.wait(180000) || !swept.isEmpty());
        const std::shared_ptr<const engine::SweepResult> result = sweep->plot()->result();
        QVERIFY2(result && !result->cancelled, qPrintable(sweep->statusText()));
        std::vector<int64_t> sweptValues;
        std::set<int64_t> sweepRecords;
        for (const engine::SweepPoint& p : result->points) {
            sweptValues.push_back(p.value);
            sweepRecords.insert(p.recordId);
            QCOMPARE(p.predictions.size(), size_t { 1 });
        }
        QCOMPARE(sweptValues, values);
        QCOMPARE(sweepRecords.size(), values.size());
        QCOMPARE(static_cast<size_t>(
                     sweep->plot()->measuredGraph()->dataCount() + sweep->plot()->failedGraph()->dataCount()),
            values.size());

        // 6. Undo three times: the constraint, the seed, the manual state's place in the population.
        for (int position = 2; position >= 0; --position) {
            steering->undoAction()->trigger();
            waitDone("an undo");
            QCOMPARE(hub.live()->steering.position, position);
        }
        const int64_t undoneAfter = hub.live()->trials.back().recordId;
        const models::SteeringInfo start = hub.live()->steering;
        QVERIFY(start.constraints[0].empty());
        QCOMPARE(start.seeds, std::vector<int> { 0 });
        QCOMPARE(start.manualInPopulation, std::vector<int> { 0 });
        QCOMPARE(testing::listLines(steering->constraintsList()),
            QStringList { QStringLiteral("(none: the search may propose any state)") });
        QVERIFY(steering->redoAction()->isEnabled());
        const size_t roundsBeforeUndone = hub.live()->rounds.size();
        runRoundThenPause();
        const models::RoundInfo undoneRound = hub.live()->rounds[roundsBeforeUndone];
        QCOMPARE(undoneRound.search.userSeeds, 0);
        QCOMPARE(undoneRound.search.constraintRejections, 0);

        // To the end of the budget.
        window.sessionAction(QStringLiteral("resumeSession"))->trigger();
        QVERIFY(finished.wait(240000) || !finished.isEmpty());
        probe.stop();
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("finished"));
        std::printf("steering walkthrough: the GUI thread's longest stretch of its own work %.1f ms of CPU; event loop "
                    "late by at most %.1f ms (p99 %.1f ms) over %zu ticks\n",
            probe.maxBusyMs(), probe.maxBlockedMs(), probe.quantileMs(0.99), probe.ticks());
        std::fflush(stdout);
        QVERIFY2(probe.maxBusyMs() < 50.0, qPrintable(QString::number(probe.maxBusyMs())));
        QVERIFY2(probe.maxBlockedMs() < 500.0, qPrintable(QString::number(probe.maxBlockedMs())));
        const auto last = hub.current();
        QCOMPARE(last->sessionId, sessionId);

        // The store's verdict.
        auto store = store::Store::open(path.toStdString(), { true });
        QVERIFY(store);
        auto all = store->records(store::RecordFilter {});
        QVERIFY(all);
        std::map<int64_t, store::Record> byId;
        for (store::Record& r : *all)
            byId.emplace(r.id, std::move(r));
        // 2: the manual record, with the edited steps.
        QVERIFY(byId.count(manualId));
        const store::Record& manual = byId.at(manualId);
        QVERIFY2(manual.extra.find("\"pick\":\"manual\"") != std::string::npos, manual.extra.c_str());
        QCOMPARE(manual.sessionId, std::optional<int64_t>(sessionId));
        QCOMPARE(manual.steps, sched::stepsToText(edited));
        // 5: the sweep's points, stored.
        for (int64_t id : sweepRecords) {
            QVERIFY(byId.count(id));
            QVERIFY2(byId.at(id).extra.find("\"pick\":\"sweep\"") != std::string::npos, byId.at(id).extra.c_str());
        }
        // 4: every record the search stored while the constraint held obeys it.
        int obeyed = 0;
        for (const auto& [id, r] : byId) {
            if (r.sessionId != std::optional<int64_t>(sessionId) || id <= constrainedAfter || id > undoneAfter
                || r.extra.find("\"pick\":\"manual\"") != std::string::npos)
                continue;
            auto state = store::replayStored(dag, r.steps, r.extra);
            QVERIFY2(state, state ? "" : state.error().message.c_str());
            const auto broken = search::violation(pinned, dag, *state);
            QVERIFY2(!broken, (std::to_string(id) + ": " + broken.value_or("")).c_str());
            ++obeyed;
        }
        QVERIFY2(obeyed >= 8, qPrintable(QString::number(obeyed))); // at least the round run under it
        qInfo("%d records stored under the constraint obey it", obeyed);

        // 7: each round's shadow lines are compare-models' metrics on the round's records.
        const std::vector<engine::ShadowMetrics> lines = testing::storedShadowLines(path, sessionId);
        QCOMPARE(last->shadows, lines);
        QCOMPARE(lines.size(), 2 * last->rounds.size());
        auto dataset = store::loadDataset(*store, store::DatasetOptions { {}, {}, store::RecordKind::Ansor, false });
        QVERIFY2(dataset, dataset ? "" : dataset.error().message.c_str());
        std::map<int64_t, size_t> indexOf;
        for (size_t i = 0; i < dataset->records.size(); ++i)
            indexOf.emplace(dataset->records[i].recordId, i);
        auto model = cost::makeCostModel("analytical", options.seed);
        QVERIFY(model);
        auto* analytical = dynamic_cast<cost::AnalyticalCostModel*>(model->get());
        QVERIFY(analytical);
        analytical->setLimits(options.search.machine); // a fresh workspace: no measured machine profile
        const cost::CostTask costTask { &dag, dag.workloadKey(), task->flops, target::Target::host(),
            engine::recordedLayoutRewrite(options.measure) > 0 };
        std::vector<double> sessionScores(dataset->records.size(), 0.0);
        std::vector<double> analyticalScores(dataset->records.size(), 0.0);
        int compared = 0;
        for (const engine::ShadowMetrics& line : lines) {
            QVERIFY2(line.error.empty(), line.error.c_str());
            std::vector<size_t> subset; // the round's labelled records, in record order as the round measured them
            std::vector<sched::State> states;
            for (const models::TrialPoint& trial : last->trials) {
                if (trial.round != line.round || trial.manual || !indexOf.count(trial.recordId))
                    continue;
                const store::Record& r = byId.at(trial.recordId);
                subset.push_back(indexOf.at(trial.recordId));
                sessionScores[subset.back()] = r.predictedScore.value_or(0.0);
                auto state = store::replayStored(dag, r.steps, r.extra);
                QVERIFY(state);
                states.push_back(std::move(state).value());
            }
            const std::vector<double> scores = (*model)->predict(costTask, states);
            for (size_t i = 0; i < subset.size(); ++i)
                analyticalScores[subset[i]] = std::isfinite(scores[i]) ? scores[i] : 0.0;
            const store::MetricsSummary metrics
                = store::evaluate(*dataset, subset, line.session ? sessionScores : analyticalScores);
            QCOMPARE(line.samples, static_cast<int>(subset.size()));
            QCOMPARE(line.pairwiseAccuracy, metrics.mean.pairwiseAccuracy);
            QCOMPARE(line.spearman, metrics.mean.spearman);
            QCOMPARE(line.kind, std::string(line.session ? "xgb" : "analytical"));
            compared += subset.size() >= 2 ? 1 : 0;
            qInfo("round %d, %s: %d samples, pairwise accuracy %.4f, Spearman %.4f (compare-models: %.4f, %.4f)",
                line.round, line.kind.c_str(), line.samples, line.pairwiseAccuracy, line.spearman,
                metrics.mean.pairwiseAccuracy, metrics.mean.spearman);
        }
        QVERIFY(compared >= 8); // 4 rounds or more, two models each
        // The Predicted vs measured view draws the same lines.
        QTRY_VERIFY(!prediction->shadowPanel()->isHidden());
        testing::checkShadowPlot(prediction->shadowPlot(), lines, { { "xgb", true }, { "analytical", false } },
            static_cast<int>(last->rounds.size()), false);
        testing::checkShadowTable(prediction->shadowTable(), lines);
        QVERIFY(byId.count(manualId)); // 6: undone, the manual record stays
    }
};

QTEST_MAIN(SteeringWalkthroughTest)
#include "steering_walkthrough_test.moc"
