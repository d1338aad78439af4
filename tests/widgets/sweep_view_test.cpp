// The Sweep dock on a real record: a short session tunes a 256^3 matmul into a fresh workspace, its best record is
// selected, the dock lists the record's parameters (as engine::sweepableParameters does), sweeps the split length
// with the most candidates with two cost models (xgb, analytical), and the plot shows one point per legal value
// (engine::legalValues) on a log2 axis plus one prediction series per model on the right axis. The points are stored
// as records and the Records dock lists them; clicking a point selects its record. A sweep cancelled after its first
// value keeps fewer points. The GUI thread never works 50 ms at a stretch meanwhile (its worst is printed, with how
// late its event loop ran on a machine whose cores the kernels share). The plot alone: the unroll limit's axis, a
// failed value's cross and reason.
#include "event_loop_probe.h"
#include "session_fixture.h"

#include "app/gui/records_view.h"
#include "app/gui/sweep_view.h"
#include "app/gui/view_registry.h"
#include "core/engine/machine.h"
#include "core/engine/sweep.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "widgets/models/records_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"
#include "widgets/sweep_plot.h"

#include <QComboBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ts;

namespace {

// Pictures for a person to look at, when TS_SCREENSHOT_DIR names a folder.
void saveShot(QWidget& widget, const char* name)
{
    const QByteArray dir = qgetenv("TS_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget.grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name));
}

// The keys of a graph's points, ascending.
std::vector<double> keysOf(const QCPGraph* graph)
{
    std::vector<double> keys;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        keys.push_back(it->key);
    return keys;
}

} // namespace

class SweepViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sweepsASplitOfTheBestRecord()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("sweep.tunescope")));
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul("256,256,256"), testing::shortRun(16, 16)));
        const auto snapshot = hub.live() ? hub.live() : hub.current();
        QVERIFY(snapshot && snapshot->tasks.size() == 1 && snapshot->tasks.front().task);
        const std::shared_ptr<const graph::Task> task = snapshot->tasks.front().task;

        // The task's fastest record on this machine, replayed.
        store::Record best;
        {
            store::OpenOptions readOnly;
            readOnly.readOnly = true;
            auto workspace = store::Store::open(hub.workspace().toStdString(), readOnly);
            QVERIFY(workspace);
            auto row = workspace->findTask(task->dag.workloadKey());
            QVERIFY(row && row->has_value());
            auto devices = workspace->devices();
            QVERIFY(devices);
            const auto device = engine::hostDevice(*devices, store::deviceOf(target::Target::host()));
            QVERIFY(device);
            auto records = workspace->bestRecords((*row)->id, device->id, 1);
            QVERIFY(records && records->size() == 1);
            best = records->front();
        }
        auto replayed = store::replayStored(task->dag, best.steps, best.extra);
        QVERIFY2(replayed, replayed ? "" : replayed.error().message.c_str());
        const auto state = std::make_shared<const sched::State>(std::move(replayed).value());

        app::ViewContext context { selection, hub };
        app::SweepView view(context);
        view.resize(1100, 440);
        view.show();
        app::RecordsView records(context);
        QTRY_VERIFY_WITH_TIMEOUT(records.model()->rowCount() > 0, 20000);
        const int rowsBefore = records.model()->rowCount();

        // The record's parameters, as the engine lists them.
        QSignalSpy listed(&view, &app::SweepView::parametersReady);
        selection.selectMeasured(task, state, best.id);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && !view.parameters().empty(), 20000);
        auto expected = engine::sweepableParameters(task->dag, *state);
        QVERIFY(expected);
        QCOMPARE(view.parameters().size(), expected->size());
        QCOMPARE(view.parameterCombo()->count(), static_cast<int>(expected->size()));
        for (size_t i = 0; i < expected->size(); ++i) {
            QCOMPARE(view.parameters()[i].description, (*expected)[i].description);
            QVERIFY(view.parameterCombo()
                        ->itemText(static_cast<int>(i))
                        .startsWith(QString::fromStdString((*expected)[i].description)));
        }
        QVERIFY2(view.titleText().contains(QStringLiteral("record %1").arg(best.id)), qPrintable(view.titleText()));
        QVERIFY(view.sweepButton()->isEnabled());
        QVERIFY(!view.cancelButton()->isEnabled());

        // The split length with the most candidates.
        int index = -1;
        for (size_t i = 0; i < view.parameters().size(); ++i) {
            const engine::SweepableParameter& p = view.parameters()[i];
            if (p.parameter.kind == engine::SweepParameter::Kind::SplitLength
                && (index < 0 || p.candidates.size() > view.parameters()[static_cast<size_t>(index)].candidates.size()))
                index = static_cast<int>(i);
        }
        QVERIFY(index >= 0);
        const engine::SweepableParameter chosen = view.parameters()[static_cast<size_t>(index)];
        auto legal = engine::legalValues(task->dag, *state, chosen.parameter);
        QVERIFY(legal);
        std::vector<int64_t> values;
        for (const engine::SweepCandidate& c : *legal)
            values.push_back(c.value);
        QVERIFY2(values.size() >= 3, qPrintable(QStringLiteral("%1 legal values").arg(values.size())));
        qInfo("sweeping %s: %zu legal values", chosen.description.c_str(), values.size());

        view.setCheckedModels({ QStringLiteral("xgb"), QStringLiteral("analytical") });
        QCOMPARE(view.checkedModels(), (QStringList { QStringLiteral("xgb"), QStringLiteral("analytical") }));
        testing::EventLoopProbe probe;
        probe.start();
        QSignalSpy finished(&view, &app::SweepView::sweepFinished);
        QSignalSpy stored(&hub, &widgets::SessionHub::recordsStored);
        view.parameterCombo()->setCurrentIndex(index);
        view.sweepButton()->click();
        QVERIFY(view.isSweeping());
        QVERIFY(!view.sweepButton()->isEnabled());
        QVERIFY(view.cancelButton()->isEnabled());
        QVERIFY(!view.startSweep(index)); // one sweep at a time
        QVERIFY(finished.wait(180000) || !finished.isEmpty());
        QVERIFY2(view.plot()->result(), qPrintable(view.statusText()));

        // One point per legal value, the engine's values, on a log2 axis; each model's prediction beside them.
        const std::shared_ptr<const engine::SweepResult> first = view.plot()->result();
        const engine::SweepResult& result = *first;
        QVERIFY(!result.cancelled);
        QCOMPARE(result.total, static_cast<int>(values.size()));
        std::vector<int64_t> swept;
        for (const engine::SweepPoint& p : result.points)
            swept.push_back(p.value);
        QCOMPARE(swept, values);
        std::vector<double> keys = keysOf(view.plot()->measuredGraph());
        const std::vector<double> failedKeys = keysOf(view.plot()->failedGraph());
        keys.insert(keys.end(), failedKeys.begin(), failedKeys.end());
        std::sort(keys.begin(), keys.end());
        QCOMPARE(keys.size(), values.size());
        for (size_t i = 0; i < values.size(); ++i)
            QCOMPARE(keys[i], std::log2(static_cast<double>(values[i])));
        QCOMPARE(view.plot()->currentGraph()->dataCount(), 1);
        QCOMPARE(
            view.plot()->currentGraph()->data()->constBegin()->key, std::log2(static_cast<double>(chosen.current)));
        QCOMPARE(result.models, (std::vector<std::string> { "xgb", "analytical" }));
        QCOMPARE(view.plot()->predictionGraphs().size(), 2);
        for (const QCPGraph* graph : view.plot()->predictionGraphs()) {
            QCOMPARE(graph->dataCount(), static_cast<int>(values.size()));
            QCOMPARE(graph->valueAxis(), view.plot()->yAxis2);
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
                QVERIFY(it->value >= 0.0 && it->value <= 1.0);
        }
        QVERIFY(view.plot()->yAxis2->label().contains(QStringLiteral("not GFLOP/s")));
        // Measured, the state's value, the failures (if any), two models.
        QCOMPARE(view.plot()->legend->itemCount(), 4 + (view.plot()->failedGraph()->dataCount() > 0 ? 1 : 0));
        for (const engine::SweepPoint& p : result.points) {
            const QString text = view.plot()->pointText(p.value);
            QVERIFY2(text.contains(QStringLiteral("xgb predicts")) && text.contains(QStringLiteral("analytical")),
                qPrintable(text));
            if (!p.result.ok())
                QVERIFY2(text.contains(QString::fromStdString(p.result.message)), qPrintable(text));
            QVERIFY(p.recordId > 0);
        }
        QVERIFY2(view.statusText().contains(QStringLiteral("%1 of %1 values measured").arg(values.size())),
            qPrintable(view.statusText()));
        QVERIFY2(view.statusText().contains(QStringLiteral("xgb learned from")), qPrintable(view.statusText()));
        // The picture and the store read here are the test's work, not the view's: the probe leaves them out.
        probe.pause();
        QTest::qWait(100); // the status line's new height laid out
        saveShot(view, "sweep.png");
        // Stored in the workspace (read here, on the GUI thread: outside what the probe measures), and the Records
        // dock lists them.
        QCOMPARE(stored.count(), 1);
        {
            store::OpenOptions readOnly;
            readOnly.readOnly = true;
            auto workspace = store::Store::open(hub.workspace().toStdString(), readOnly);
            QVERIFY(workspace);
            auto all = workspace->records(store::RecordFilter {});
            QVERIFY(all);
            const auto sweeps = std::count_if(all->begin(), all->end(),
                [](const store::Record& r) { return r.extra.find("\"pick\":\"sweep\"") != std::string::npos; });
            QCOMPARE(static_cast<size_t>(sweeps), values.size());
        }
        probe.resume();

        QTRY_COMPARE_WITH_TIMEOUT(records.model()->rowCount(), rowsBefore + static_cast<int>(values.size()), 20000);

        // A point of the sweep selected (a click on it: a sibling of the state): its record and state reach the
        // selection, and the same parameter stays chosen.
        listed.clear();
        QVERIFY(view.selectPoint(result.points.front().value));
        QCOMPARE(selection.recordId(), std::optional<int64_t>(result.points.front().recordId));
        QCOMPARE(sched::stepsToText(selection.state()->steps()), result.points.front().steps);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && !view.parameters().empty(), 20000);
        QCOMPARE(view.parameterCombo()->currentIndex(), index);
        QVERIFY(view.titleText().contains(QStringLiteral("record %1").arg(result.points.front().recordId)));

        // Cancelled after the first value: fewer points, kept and drawn. Longer runs, so that the cancel lands
        // while the sweep measures.
        measure::MeasureOptions slow;
        slow.timing.minRepeatMs = 600;
        view.setMeasureOptions(slow);
        finished.clear();
        QVERIFY(view.startSweep(index));
        QTRY_VERIFY_WITH_TIMEOUT(view.progressBar()->maximum() > 0 && view.progressBar()->value() >= 1, 120000);
        view.cancelButton()->click();
        QVERIFY(!view.cancelButton()->isEnabled());
        QVERIFY(finished.wait(120000) || !finished.isEmpty());
        const engine::SweepResult& cancelled = *view.plot()->result();
        QVERIFY(cancelled.cancelled);
        QVERIFY2(!cancelled.points.empty() && cancelled.points.size() < values.size(),
            qPrintable(QStringLiteral("%1 points").arg(cancelled.points.size())));
        QCOMPARE(
            static_cast<size_t>(view.plot()->measuredGraph()->dataCount() + view.plot()->failedGraph()->dataCount()),
            cancelled.points.size());
        QVERIFY2(
            view.statusText().startsWith(
                QStringLiteral("Cancelled: %1 of %2 values measured").arg(cancelled.points.size()).arg(values.size())),
            qPrintable(view.statusText()));
        QVERIFY(view.sweepButton()->isEnabled());
        probe.stop();
        qInfo("cancelled after %zu of %zu values", cancelled.points.size(), values.size());

        // The GUI thread's longest stretch of work between two turns of its event loop (its CPU time: on a machine
        // whose cores are busy measuring, a late turn may also be the thread waiting for a core, printed beside it).
        qInfo("GUI thread while sweeping, reselecting and cancelling: longest block %.1f ms of its own work; event "
              "loop late by at most %.1f ms (p99 %.1f ms) over %zu ticks",
            probe.maxBusyMs(), probe.maxBlockedMs(), probe.quantileMs(0.99), probe.ticks());
        QVERIFY2(probe.maxBusyMs() < 50.0, qPrintable(QString::number(probe.maxBusyMs())));
    }

    // The plot alone, on a result written here: the unroll limit's values evenly apart, a failed value as a cross on
    // the axis with its reason, a model that cannot score a value leaves it out of its series.
    void unrollValuesAreEvenlyApartAndFailuresSayWhy()
    {
        auto result = std::make_shared<engine::SweepResult>();
        result->parameter.parameter.kind = engine::SweepParameter::Kind::Unroll;
        result->parameter.current = 64;
        result->parameter.candidates = { 0, 16, 64, 512 };
        result->models = { "analytical" };
        result->total = 4;
        const double inf = std::numeric_limits<double>::infinity();
        const std::vector<std::pair<int64_t, double>> measured = { { 0, 10.0 }, { 16, 20.0 }, { 64, 30.0 } };
        for (const auto& [value, gflops] : measured) {
            engine::SweepPoint p;
            p.value = value;
            p.current = value == 64;
            p.result.status = record::MeasureStatus::Ok;
            p.result.costs = { 1e-3 };
            p.gflops = gflops;
            p.predictions = { value == 16 ? -inf : static_cast<double>(value) };
            result->points.push_back(p);
        }
        engine::SweepPoint failed;
        failed.value = 512;
        failed.result.status = record::MeasureStatus::RunTimeout;
        failed.result.message = "the kernel ran past 10 s";
        failed.predictions = { 512.0 };
        result->points.push_back(failed);

        widgets::SweepPlot plot;
        plot.setResult(result);
        QCOMPARE(keysOf(plot.measuredGraph()), (std::vector<double> { 0.0, 1.0, 2.0 }));
        QCOMPARE(keysOf(plot.failedGraph()), (std::vector<double> { 3.0 }));
        QCOMPARE(plot.failedGraph()->data()->constBegin()->value, 0.0);
        QCOMPARE(keysOf(plot.currentGraph()), (std::vector<double> { 2.0 }));
        QVERIFY(plot.xAxis->label().startsWith(QStringLiteral("Unroll limit")));
        QCOMPARE(plot.predictionGraphs().size(), 1);
        QCOMPARE(keysOf(plot.predictionGraphs().front()), (std::vector<double> { 0.0, 2.0, 3.0 })); // not 16's
        QCOMPARE((plot.predictionGraphs().front()->data()->constEnd() - 1)->value, 1.0); // 512: its top score
        QVERIFY2(
            plot.pointText(512).contains(QStringLiteral("the kernel ran past 10 s")), qPrintable(plot.pointText(512)));
        QVERIFY2(plot.pointText(16).contains(QStringLiteral("analytical predicts cannot score it")),
            qPrintable(plot.pointText(16)));
        QVERIFY(plot.pointText(64).contains(QStringLiteral("the state's value")));
        QCOMPARE(plot.legend->itemCount(), 4); // measured, the state's value, failed, analytical
        plot.setResult(nullptr);
        QCOMPARE(plot.measuredGraph()->dataCount(), 0);
        QVERIFY(plot.predictionGraphs().isEmpty());
    }

    void withoutAStateThereIsNothingToSweep()
    {
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        app::SweepView view(context);
        QVERIFY(view.parameters().empty());
        QVERIFY(!view.sweepButton()->isEnabled());
        QVERIFY(!view.startSweep(0));
        QVERIFY(view.titleText().startsWith(QStringLiteral("Select a schedule state")));
        QCOMPARE(view.plot()->measuredGraph()->dataCount(), 0);
    }
};

QTEST_MAIN(SweepViewTest)
#include "sweep_view_test.moc"
