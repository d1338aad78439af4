// The tuning-curves, predicted-vs-measured and task-scheduler views over a REAL short session (a 64^3
// matmul measured for real, driven through the SessionHub while the views watch it live), and over
// synthetic two-task snapshots for the logic a one-task session cannot show (task colours and rows, the
// scheduler's gradients, incremental curve updates, the prediction metrics of known orders).
#include "session_fixture.h"

#include "app/gui/curves_view.h"
#include "app/gui/prediction_view.h"
#include "app/gui/scheduler_view.h"
#include "app/gui/view_registry.h"
#include "core/schedule/state.h"
#include "widgets/models/prediction_rounds.h"
#include "widgets/models/scheduler_model.h"
#include "widgets/prediction_scatter.h"
#include "widgets/record_selector.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/tuning_curve_plot.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <set>

using namespace ts;

namespace {

// Two tasks: task 0 improved three times, task 1 once; rounds alternate; one failure, one random pick.
std::shared_ptr<models::SessionSnapshot> twoTaskSnapshot()
{
    auto s = std::make_shared<models::SessionSnapshot>();
    s->sessionId = 42;
    s->policy = "ansor";
    s->model = "xgb";
    s->seed = 3;
    s->state = "running";
    s->workspace = "/nonexistent/ws.tunescope";
    s->tasks.resize(2);
    s->tasks[0].status = engine::TaskStatus { 0, "conv2d", 2, 2e9, 6, 1e-3, false, "" };
    s->tasks[1].status = engine::TaskStatus { 1, "dense", 1, 1e9, 4, 2e-3, true, "no new candidates" };
    s->tasks[0].sessionTrials = 6;
    s->tasks[1].sessionTrials = 4;
    s->tasks[0].lastGradient = -0.25;
    s->tasks[1].lastGradient = std::numeric_limits<double>::quiet_NaN();
    s->tasks[0].curve = { { 1, 1, 0.5, 4e-3, 0.5, 101 }, { 2, 2, 1.0, 2e-3, 1.0, 102 }, { 6, 6, 3.0, 1e-3, 2.0, 106 } };
    s->tasks[1].curve = { { 7, 1, 3.5, 2e-3, 0.5, 107 } };
    // Round 1: task 0, trials 1-3; round 2: task 1, trials 4-7 (wait: trial 7 of task 1 is its 1st ok).
    auto trial = [&](int64_t id, int task, int n, int round, double gflops, double predicted, bool random, bool ok) {
        models::TrialPoint t;
        t.recordId = id;
        t.task = task;
        t.trial = n;
        t.round = round;
        t.gflops = ok ? gflops : 0.0;
        t.cost = ok ? 1e-3 : 0.0;
        t.status = ok ? record::MeasureStatus::Ok : record::MeasureStatus::RuntimeDeviceError;
        t.predicted = predicted;
        t.random = random;
        s->trials.push_back(t);
    };
    trial(101, 0, 1, 1, 0.5, 0.1, false, true);
    trial(102, 0, 2, 1, 1.0, 0.2, false, true);
    trial(103, 0, 3, 1, 0.7, 0.15, true, true); // predicted order = measured order: pairwise 1
    trial(104, 1, 4, 2, 0.0, 0.9, false, false); // failed: counted, not drawn
    trial(105, 1, 5, 2, 0.1, 0.8, false, true);
    trial(106, 0, 6, 2, 2.0, 0.3, false, true); // (task 0 in round 2 only for the curve's sake)
    trial(107, 1, 7, 2, 0.5, 0.1, false, true);
    s->trialsDone = 7;
    s->elapsed = 4.0;
    s->estimatedLatency = 2 * 1e-3 + 1 * 2e-3;
    s->rounds.push_back(models::RoundInfo { 1, 0, 3, 0, 3, 1.5, 0.0 });
    s->rounds.push_back(models::RoundInfo { 2, 1, 4, 1, 7, 4.0, s->estimatedLatency });
    return s;
}

std::vector<double> keysOf(QCPGraph* graph)
{
    std::vector<double> keys;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        keys.push_back(it->key);
    return keys;
}

std::vector<double> valuesOf(QCPGraph* graph)
{
    std::vector<double> values;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        values.push_back(it->value);
    return values;
}

// The markers of a task hold its curve: one point per improvement, at (trial, GFLOP/s).
bool markersMatchCurve(QCPGraph* markers, const models::SessionTask& task)
{
    const std::vector<double> keys = keysOf(markers);
    const std::vector<double> values = valuesOf(markers);
    if (keys.size() != task.curve.size())
        return false;
    for (size_t i = 0; i < keys.size(); ++i)
        if (keys[i] != task.curve[i].trial || values[i] != task.curve[i].gflops)
            return false;
    return true;
}

} // namespace

class CurvesViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // One real session, watched live by the three views from its start.
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_hub.openWorkspace(m_dir.filePath(QStringLiteral("ws.tunescope")));
        m_curves = new app::CurvesView(m_context);
        m_prediction = new app::PredictionView(m_context);
        m_scheduler = new app::SchedulerView(m_context);
        for (QWidget* w : { static_cast<QWidget*>(m_curves), static_cast<QWidget*>(m_prediction),
                 static_cast<QWidget*>(m_scheduler) }) {
            w->resize(900, 420);
            w->show();
        }
        m_schedulerTester = std::make_unique<QAbstractItemModelTester>(
            m_scheduler->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(testing::runToEnd(m_hub, testing::smallMatmul(), testing::shortRun(32, 16)));
        m_first = m_hub.current();
        QVERIFY(m_first);
        QCOMPARE(m_first->trialsDone, 32);
        QVERIFY(!m_first->tasks[0].curve.empty());
        QCoreApplication::processEvents();
    }

    void cleanupTestCase()
    {
        m_schedulerTester.reset();
        delete m_curves;
        delete m_prediction;
        delete m_scheduler;
    }

    void curveHoldsOnePointPerImprovement()
    {
        widgets::TuningCurvePlot* plot = m_curves->plot();
        const models::SessionTask& task = m_first->tasks[0];
        // Drawn incrementally while the session ran, it ends equal to the finished snapshot's curve.
        QVERIFY(markersMatchCurve(plot->markerGraph(0), task));
        QCPGraph* line = plot->curveGraph(0);
        QCOMPARE(line->lineStyle(), QCPGraph::lsStepLeft);
        const std::vector<double> keys = keysOf(line);
        QVERIFY(keys.size() == task.curve.size() || keys.size() == task.curve.size() + 1);
        QCOMPARE(valuesOf(line).back(), task.curve.back().gflops); // the best so far, held to the end
        if (keys.size() > task.curve.size())
            QCOMPARE(keys.back(), static_cast<double>(m_first->trialsDone));
        QVERIFY(!plot->curveGraph(1)); // one task
        // The latency plot: one point per round with an estimate, in ms.
        int estimated = 0;
        for (const models::RoundInfo& r : m_first->rounds)
            estimated += r.estimatedLatency > 0.0 ? 1 : 0;
        QVERIFY(estimated > 0);
        QCOMPARE(plot->latencyGraph()->dataCount(), estimated);
        QCOMPARE(valuesOf(plot->latencyGraph()).back(), m_first->rounds.back().estimatedLatency * 1e3);
        QCOMPARE(plot->xAxis->label(), QString()); // labelled once, below
        QVERIFY(plot->latencyRect()->axis(QCPAxis::atBottom)->label().contains(QStringLiteral("Trials")));

        // Against wall time: the same points at their elapsed seconds.
        m_curves->wallTimeAction()->setChecked(true);
        const std::vector<double> timeKeys = keysOf(plot->markerGraph(0));
        QCOMPARE(timeKeys.size(), task.curve.size());
        for (size_t i = 0; i < timeKeys.size(); ++i)
            QCOMPARE(timeKeys[i], task.curve[i].elapsed);
        m_curves->wallTimeAction()->setChecked(false);
        QVERIFY(markersMatchCurve(plot->markerGraph(0), task));
    }

    void clickingAMarkerSelectsItsRecordWithItsState()
    {
        widgets::TuningCurvePlot* plot = m_curves->plot();
        plot->replot(); // lays the axes out, so pixels map to values
        const models::SessionTask& task = m_first->tasks[0];
        const size_t index = task.curve.size() - 1;
        const QPointF at = plot->pixelOf({ m_first->sessionId, 0, index, m_first.get() });
        auto hit = plot->pointAt(at);
        QVERIFY(hit);
        QCOMPARE(hit->index, index);
        QVERIFY(!plot->pointAt(QPointF(at.x() + 40, at.y() + 40))
            || plot->pointAt(QPointF(at.x() + 40, at.y() + 40))->index != index);

        m_selection.clear();
        QTest::mouseClick(plot, Qt::LeftButton, {}, at.toPoint());
        QTRY_COMPARE(m_selection.recordId(), std::optional<int64_t>(task.curve[index].recordId));
        QCOMPARE(m_selection.task(), task.task);
        QVERIFY(m_selection.state()); // replayed from the record's steps in the workspace
        QVERIFY(!m_selection.state()->steps().empty());
        QCOMPARE(plot->graph(0)->dataCount(), 1); // the selected record is ringed

        // The view's handler, for the first improvement.
        QVERIFY(m_curves->activatePoint(m_first->sessionId, 0, task.curve.front().recordId));
        QTRY_COMPARE(m_selection.recordId(), std::optional<int64_t>(task.curve.front().recordId));
        QVERIFY(!m_curves->activatePoint(m_first->sessionId + 99, 0, task.curve.front().recordId)); // not drawn
    }

    void scatterHoldsEverySuccessfulPredictedTrialOfTheShownRounds()
    {
        // Five rounds asked for, two measured: every successful trial with a prediction, nothing else.
        std::set<int64_t> expected;
        int failed = 0;
        for (const models::TrialPoint& t : m_first->trials) {
            if (t.ok() && t.predicted)
                expected.insert(t.recordId);
            failed += t.ok() ? 0 : 1;
        }
        QVERIFY(expected.size() >= 16); // the random model scores every candidate
        std::set<int64_t> drawn;
        for (const auto& p : m_prediction->scatter()->points())
            drawn.insert(p.recordId);
        QCOMPARE(drawn, expected);
        int randomDrawn = 0;
        for (const auto& p : m_prediction->scatter()->points()) {
            const models::TrialPoint* t = m_first->findRecord(p.recordId);
            QVERIFY(t);
            QCOMPARE(p.predicted, *t->predicted);
            QCOMPARE(p.gflops, t->gflops);
            randomDrawn += p.random ? 1 : 0;
        }
        // One table row per round, newest first, failures counted.
        QTableWidget* table = m_prediction->metricsTable();
        QCOMPARE(table->rowCount(), static_cast<int>(m_first->rounds.size()));
        QCOMPARE(table->item(0, 0)->text(), QString::number(m_first->rounds.back().round));
        int failedInTable = 0;
        int randomInTable = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            failedInTable += table->item(row, 4)->text().toInt();
            randomInTable += table->item(row, 3)->text().toInt();
            const double pairwise = table->item(row, 5)->text().toDouble();
            QVERIFY(pairwise >= 0.0 && pairwise <= 1.0);
        }
        QCOMPARE(failedInTable, failed);
        QCOMPARE(randomInTable, randomDrawn);

        // The last round only.
        m_prediction->roundsBox()->setValue(1);
        std::set<int64_t> lastRound;
        for (const models::TrialPoint& t : m_first->trials)
            if (t.round == m_first->rounds.back().round && t.ok() && t.predicted)
                lastRound.insert(t.recordId);
        drawn.clear();
        for (const auto& p : m_prediction->scatter()->points())
            drawn.insert(p.recordId);
        QCOMPARE(drawn, lastRound);
        QCOMPARE(table->rowCount(), 1);
        m_prediction->roundsBox()->setValue(5);

        // A click on a point selects its record, and the view says its predicted score and rank.
        widgets::PredictionScatter* scatter = m_prediction->scatter();
        scatter->replot();
        const auto point = scatter->points().front();
        m_selection.clear();
        QTest::mouseClick(scatter, Qt::LeftButton, {}, scatter->pixelOf(point).toPoint());
        QTRY_VERIFY(m_selection.recordId().has_value());
        const models::TrialPoint* selected = m_first->findRecord(*m_selection.recordId());
        QVERIFY(selected); // the point clicked, or one drawn on the same pixel
        QVERIFY(m_prediction->recordLabel()->text().contains(QString::number(*m_selection.recordId())));
        QVERIFY(
            m_prediction->recordLabel()->text().contains(QStringLiteral("rank %1 of").arg(selected->batchRank + 1)));
    }

    void schedulerRowsAreTheTasks()
    {
        models::SchedulerModel* model = m_scheduler->model();
        QCOMPARE(model->rowCount(), static_cast<int>(m_first->tasks.size()));
        const models::SessionTask& task = m_first->tasks[0];
        QCOMPARE(model->index(0, models::SchedulerModel::TaskColumn).data().toString(),
            QString::fromStdString(task.status.name));
        QCOMPARE(model->index(0, models::SchedulerModel::SessionTrialsColumn).data().toInt(), 32);
        QCOMPARE(model->index(0, models::SchedulerModel::BestColumn).data().toString(),
            QString::number(task.status.bestCost * 1e6, 'f', 1));
        // One task carries the whole estimate and every trial.
        QCOMPARE(model->index(0, models::SchedulerModel::ShareColumn).data().toString(), QStringLiteral("100.0"));
        QCOMPARE(m_scheduler->trialBars()->data()->size(), 1);
        QCOMPARE(m_scheduler->trialBars()->data()->constBegin()->value, 100.0);
        QCOMPARE(m_scheduler->shareBars()->data()->constBegin()->value, 100.0);

        // A click on the row selects the task with its best record.
        m_selection.clear();
        QTableView* table = m_scheduler->tableView();
        QTest::mouseClick(
            table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(0, 0)).center());
        QTRY_COMPARE(m_selection.recordId(), std::optional<int64_t>(task.curve.back().recordId));
        QCOMPARE(m_selection.task(), task.task);
    }

    void comparingAddsTheOtherSessionsGraphs()
    {
        // A second session of the same operator with another seed becomes the shown one.
        // The budget counts the tasks' earlier trials too: 32 more.
        auto options = testing::shortRun(64, 16);
        options.seed = 11;
        QVERIFY(testing::runToEnd(m_hub, testing::smallMatmul(), options));
        auto second = m_hub.current();
        QVERIFY(second->sessionId != m_first->sessionId);
        QCOMPARE(second->trialsDone, 32);
        QVERIFY(!second->tasks[0].curve.empty());
        widgets::TuningCurvePlot* plot = m_curves->plot();
        QVERIFY(markersMatchCurve(plot->markerGraph(0), second->tasks[0])); // a new session: redrawn
        QCOMPARE(plot->overlayCount(), 0);
        const int graphsBefore = plot->graphCount();

        QTRY_COMPARE(m_hub.sessions().size(), size_t { 2 });
        m_curves->compareWith(m_first->sessionId, true);
        QTRY_COMPARE(plot->overlayCount(), 1); // loaded from the workspace in a job
        QCOMPARE(m_curves->comparedSessions(), QList<int64_t> { m_first->sessionId });
        QCPGraph* overlay = plot->curveGraph(0, 0);
        QVERIFY(overlay);
        QCOMPARE(overlay->pen().style(), Qt::DashLine);
        QCOMPARE(plot->curveGraph(0)->pen().style(), Qt::SolidLine);
        QCOMPARE(plot->curveGraph(0, 0)->pen().color(), plot->curveGraph(0)->pen().color()); // same task colour
        // The stored session's curve follows its records; its first improvement is the live one's.
        auto stored = m_hub.snapshot(m_first->sessionId);
        QVERIFY(stored);
        QVERIFY(markersMatchCurve(plot->markerGraph(0, 0), stored->tasks[0]));
        QCOMPARE(keysOf(plot->markerGraph(0, 0)).front(), static_cast<double>(m_first->tasks[0].curve.front().trial));
        // Line, markers and latency of the overlay, and a legend entry for each session's label.
        QCOMPARE(plot->graphCount(), graphsBefore + 3 + 2);
        bool labelled = false;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                labelled = labelled || item->plottable()->name() == QString::fromStdString(stored->label());
        QVERIFY(labelled);
        // The shown session's best may be a record of the first session (restored, then re-measured): a click
        // on it still finds its steps.
        m_selection.clear();
        QVERIFY(m_curves->activatePoint(second->sessionId, 0, second->tasks[0].curve.back().recordId));
        QTRY_COMPARE(m_selection.recordId(), std::optional<int64_t>(second->tasks[0].curve.back().recordId));
        QVERIFY(m_selection.state());
        // An overlaid session's marker selects its record too.
        QVERIFY(m_curves->activatePoint(m_first->sessionId, 0, stored->tasks[0].curve.back().recordId));
        QTRY_COMPARE(m_selection.recordId(), std::optional<int64_t>(stored->tasks[0].curve.back().recordId));

        // The menu lists the other session, checked.
        m_curves->compareAction()->menu()->aboutToShow();
        const QList<QAction*> entries = m_curves->compareAction()->menu()->actions();
        QCOMPARE(entries.size(), 1);
        QVERIFY(entries.front()->isChecked());
        QVERIFY(entries.front()->text().startsWith(QStringLiteral("#%1 ").arg(m_first->sessionId)));

        QCoreApplication::processEvents(); // the queued replots
        m_curves->grab().save(QStringLiteral("/tmp/curves.png"));
        m_prediction->grab().save(QStringLiteral("/tmp/curves-prediction.png"));
        m_scheduler->grab().save(QStringLiteral("/tmp/curves-scheduler.png"));

        entries.front()->setChecked(false);
        QCOMPARE(plot->overlayCount(), 0);
        QCOMPARE(plot->graphCount(), graphsBefore);
    }

    // ----- synthetic two-task snapshots: the logic a one-task session cannot show

    void twoTasksGetTheirOwnCurvesAndUpdateInPlace()
    {
        widgets::TuningCurvePlot plot;
        plot.resize(700, 400);
        auto s = twoTaskSnapshot();
        plot.setSession(s);
        QVERIFY(markersMatchCurve(plot.markerGraph(0), s->tasks[0]));
        QVERIFY(markersMatchCurve(plot.markerGraph(1), s->tasks[1]));
        QVERIFY(plot.curveGraph(0)->pen().color() != plot.curveGraph(1)->pen().color());
        QCOMPARE(keysOf(plot.curveGraph(0)), (std::vector<double> { 1, 2, 6, 7 })); // held to trial 7
        QCOMPARE(plot.latencyGraph()->dataCount(), 1); // round 1 had no estimate yet
        QCOMPARE(valuesOf(plot.latencyGraph()).front(), 4.0); // ms
        QCOMPARE(plot.legend->itemCount(), 2);

        // The next snapshot of the same session: the same graphs, one more point.
        QCPGraph* graph = plot.markerGraph(1);
        auto next = std::make_shared<models::SessionSnapshot>(*s);
        next->tasks[1].curve.push_back({ 9, 3, 5.0, 1e-3, 1.0, 109 });
        next->trialsDone = 10;
        plot.setSession(next);
        QCOMPARE(plot.markerGraph(1), graph);
        QVERIFY(markersMatchCurve(plot.markerGraph(1), next->tasks[1]));
        QCOMPARE(keysOf(plot.curveGraph(1)), (std::vector<double> { 7, 9, 10 }));
        QCOMPARE(keysOf(plot.curveGraph(0)), (std::vector<double> { 1, 2, 6, 10 })); // the tail moved on

        // Hover text names the record.
        plot.replot();
        const auto point = plot.pointAt(plot.pixelOf({ 42, 0, 1, next.get() }));
        QVERIFY(point);
        QCOMPARE(point->task, 0);
        QCOMPARE(point->index, size_t { 1 });
    }

    void schedulerModelShowsSharesAndGradients()
    {
        models::SchedulerModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto s = twoTaskSnapshot();
        s->tasks[1].status.dead = false;
        s->tasks[1].lastGradient = -std::numeric_limits<double>::infinity();
        model.setSnapshot(s);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), static_cast<int>(models::SchedulerModel::ColumnCount));
        // weight * best / estimate: 2 * 1 ms / 4 ms and 1 * 2 ms / 4 ms.
        QCOMPARE(models::SchedulerModel::latencyShare(*s, 0), 50.0);
        QCOMPARE(model.index(1, models::SchedulerModel::ShareColumn).data().toString(), QStringLiteral("50.0"));
        QCOMPARE(model.index(0, models::SchedulerModel::BestColumn).data().toString(), QStringLiteral("1000.0"));
        QCOMPARE(model.index(0, models::SchedulerModel::GradientColumn).data().toString(), QStringLiteral("-0.25"));
        QCOMPARE(
            model.index(1, models::SchedulerModel::GradientColumn).data().toString(), QStringLiteral("no best yet"));

        // The same session again: rows updated in place, not reset.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        auto dead = std::make_shared<models::SessionSnapshot>(*twoTaskSnapshot());
        model.setSnapshot(dead);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(1, models::SchedulerModel::GradientColumn).data().toString(), QStringLiteral("dead"));
        QVERIFY(model.index(1, models::SchedulerModel::StatusColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("no new candidates")));
        // Another session: a reset.
        auto other = std::make_shared<models::SessionSnapshot>(*dead);
        other->sessionId = 43;
        other->tasks.pop_back();
        model.setSnapshot(other);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1);
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void predictionRoundsCountAndRank()
    {
        auto s = twoTaskSnapshot();
        auto rounds = models::predictionRounds(*s, 5);
        QCOMPARE(rounds.size(), size_t { 2 });
        QCOMPARE(rounds[0].round, 1);
        QCOMPARE(rounds[0].points.size(), size_t { 3 });
        QCOMPARE(rounds[0].randomPicks, 1);
        QCOMPARE(rounds[0].failed, 0);
        QCOMPARE(rounds[0].pairwiseAccuracy, 1.0); // predicted 0.1 < 0.15 < 0.2, measured 0.5 < 0.7 < 1.0
        QCOMPARE(rounds[0].spearman, 1.0);
        QCOMPARE(rounds[1].failed, 1);
        QCOMPARE(rounds[1].points.size(), size_t { 3 });
        // Round 2: predicted 0.8, 0.3, 0.1 against 0.1, 2.0, 0.5: one pair of three in order.
        QVERIFY(std::abs(rounds[1].pairwiseAccuracy - 1.0 / 3.0) < 1e-12);
        QCOMPARE(models::predictionRounds(*s, 1).size(), size_t { 1 });
        QCOMPARE(models::predictionRounds(*s, 1).front().round, 2);
        QVERIFY(models::predictionRounds(*s, 0).empty());
    }

    void aRecordWithoutAWorkspaceIsSelectedWithoutAState()
    {
        widgets::SelectionContext selection;
        widgets::RecordSelector selector(selection);
        auto s = twoTaskSnapshot();
        QVERIFY(!selector.select(s, 0, 101)); // the synthetic tasks have no DAG
        s->tasks[0].task = m_first->tasks[0].task;
        QSignalSpy selected(&selector, &widgets::RecordSelector::selected);
        QVERIFY(selector.select(s, 0, 101));
        QVERIFY(selected.wait(10000));
        QCOMPARE(selection.recordId(), std::optional<int64_t>(101));
        QVERIFY(!selection.state());
        QVERIFY(selected.first().at(1).toString().contains(QStringLiteral("nonexistent")));
    }

private:
    QTemporaryDir m_dir;
    widgets::SelectionContext m_selection;
    widgets::SessionHub m_hub;
    app::ViewContext m_context { m_selection, m_hub };
    app::CurvesView* m_curves = nullptr;
    app::PredictionView* m_prediction = nullptr;
    app::SchedulerView* m_scheduler = nullptr;
    std::unique_ptr<QAbstractItemModelTester> m_schedulerTester;
    std::shared_ptr<const models::SessionSnapshot> m_first;
};

QTEST_MAIN(CurvesViewTest)
#include "curves_view_test.moc"
