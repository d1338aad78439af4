// The Sketches view on a real short session (a 64^3 matmul, 32 trials measured for real): the tree holds
// every measured record exactly once, under its task and under the sketch the record's steps came from
// (checked against the store and core/search independently of the model), sketch rows name their rules,
// states are ordered by cost, the live rebuilds insert rows rather than reset (the selected record stays
// selected), and a row click reaches the SelectionContext. The model passes QAbstractItemModelTester
// throughout the live session. (What constraints mark in the view: sketch_constraints_test.cpp.)
#include "session_fixture.h"

#include "app/gui/sketch_view.h"
#include "app/gui/view_registry.h"
#include "core/schedule/step_json.h"
#include "core/search/sketch.h"
#include "core/search/sketch_match.h"
#include "core/store/store.h"
#include "widgets/models/sketch_tree_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <map>
#include <set>

using namespace ts;
using models::SketchTreeModel;

namespace {

// Every state row of the model: record id -> (task row, sketch group index, row index).
struct Placement {
    int task = -1;
    int group = -1; // the group's sketch index (-1: other)
    QModelIndex index;
};

std::multimap<int64_t, Placement> placements(const SketchTreeModel& model)
{
    std::multimap<int64_t, Placement> out;
    for (int t = 0; t < model.rowCount(); ++t) {
        const QModelIndex task = model.index(t, 0);
        for (int g = 0; g < model.rowCount(task); ++g) {
            const QModelIndex group = model.index(g, 0, task);
            for (int s = 0; s < model.rowCount(group); ++s) {
                const QModelIndex row = model.index(s, 0, group);
                out.emplace(row.data(SketchTreeModel::RecordIdRole).toLongLong(),
                    Placement { t, model.groupAt(group)->index, row });
            }
        }
    }
    return out;
}

} // namespace

class SketchViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aRealSessionUnderItsSketches()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ws.tunescope"));
        widgets::SessionHub hub;
        widgets::SelectionContext selection;
        app::ViewContext context { selection, hub };
        hub.openWorkspace(path);
        app::SketchView view(context);
        SketchTreeModel& model = *view.model();
        model.setThrottleInterval(150);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

        // While it runs: select the best state of the first batch; the later rebuilds keep it selected.
        int64_t picked = 0;
        connect(&model, &SketchTreeModel::treeUpdated, this, [&] {
            if (picked != 0 || model.trials() < 16)
                return;
            const auto rows = placements(model);
            QVERIFY(!rows.empty());
            for (const auto& [id, place] : rows)
                if (place.index.row() == 0 && model.measuredAt(place.index)->ok()) {
                    picked = id;
                    view.treeView()->setCurrentIndex(place.index);
                    break;
                }
        });
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(32, 16)));
        const auto snapshot = hub.current();
        QCOMPARE(snapshot->trials.size(), size_t { 32 });
        QTRY_COMPARE_WITH_TIMEOUT(model.trials(), 32, 20000);
        QTRY_VERIFY(!model.isBuilding());
        QVERIFY(model.error().isEmpty());

        // Rebuilt in place: a reset for the session (and when its id arrived), rows inserted after that.
        QVERIFY2(resets.size() <= 3, qPrintable(QString::number(resets.size())));
        QVERIFY(inserted.size() >= 2);
        QVERIFY(picked != 0);
        QCOMPARE(view.treeView()->currentIndex().data(SketchTreeModel::RecordIdRole).toLongLong(), picked);
        QCOMPARE(selection.recordId(), std::optional<int64_t>(picked));

        // One task, named as the session's; its sketches are those core/search generates, rules shown.
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex taskRow = model.index(0, 0);
        QCOMPARE(taskRow.data().toString(), QString::fromStdString(snapshot->tasks[0].status.name));
        const auto& task = snapshot->tasks[0].task;
        QVERIFY(task);
        QCOMPARE(model.taskAt(taskRow), task);
        auto sketches = search::generateSketches(
            search::SearchTask { task->dag, target::Target::host(), task->name, task->flops });
        QVERIFY(sketches);
        QVERIFY(sketches->size() >= 2); // matmul: with and without the cache stage
        QCOMPARE(model.rowCount(taskRow), static_cast<int>(sketches->size())); // no "other": all matched
        for (int g = 0; g < model.rowCount(taskRow); ++g) {
            const QModelIndex group = model.index(g, 0, taskRow);
            const auto& rules = (*sketches)[static_cast<size_t>(g)].rules;
            QVERIFY(rules.find("MultiLevelTiling") != std::string::npos);
            QCOMPARE(
                group.data().toString(), QStringLiteral("Sketch %1: %2").arg(g + 1).arg(QString::fromStdString(rules)));
            QCOMPARE(model.kindAt(group), SketchTreeModel::SketchRow);
        }

        // Every record of the session exactly once, under the sketch its stored steps match.
        auto store = store::Store::open(path.toStdString(), { true });
        QVERIFY(store);
        store::RecordFilter filter;
        filter.sessionId = snapshot->sessionId;
        auto records = store->records(filter);
        QVERIFY(records);
        QCOMPARE(records->size(), size_t { 32 });
        const auto rows = placements(model);
        QCOMPARE(rows.size(), size_t { 32 });
        std::set<int> sketchesUsed;
        for (const store::Record& r : *records) {
            QCOMPARE(rows.count(r.id), size_t { 1 });
            const Placement& place = rows.find(r.id)->second;
            const models::TrialPoint* trial = snapshot->findRecord(r.id);
            QVERIFY(trial);
            QCOMPARE(place.task, trial->task);
            auto steps = sched::parseSteps(r.steps);
            QVERIFY(steps);
            const int expected = search::sketchIndexOf(*sketches, *steps);
            QVERIFY2(expected >= 0, r.steps.c_str());
            QCOMPARE(place.group, expected);
            sketchesUsed.insert(expected);
            const auto measured = model.measuredAt(place.index);
            QCOMPARE(measured->state->steps(), *steps);
            QCOMPARE(place.index.data().toString(), QStringLiteral("Trial %1").arg(trial->trial));
            const QString tiles
                = model.index(place.index.row(), SketchTreeModel::TilesColumn, place.index.parent()).data().toString();
            QVERIFY2(tiles.contains(QStringLiteral("matmul")) && !tiles.contains(QLatin1Char('?')), qPrintable(tiles));
        }
        QVERIFY(sketchesUsed.size() >= 2); // the search sampled more than one sketch

        // States cheapest first, failures last; a sketch's best is its first row.
        for (int g = 0; g < model.rowCount(taskRow); ++g) {
            const QModelIndex group = model.index(g, 0, taskRow);
            double last = 0.0;
            bool failed = false;
            for (int s = 0; s < model.rowCount(group); ++s) {
                const auto state = model.measuredAt(model.index(s, 0, group));
                if (!state->ok()) {
                    failed = true;
                    continue;
                }
                QVERIFY(!failed);
                QVERIFY(state->cost >= last);
                last = state->cost;
            }
            if (model.rowCount(group) > 0 && model.measuredAt(model.index(0, 0, group))->ok())
                QCOMPARE(model.index(g, SketchTreeModel::CostColumn, taskRow).data(),
                    model.index(0, SketchTreeModel::CostColumn, group).data());
        }

        // A state row selects the measured state; a sketch row the sketch's state of the task.
        const auto& [someId, somePlace] = *std::next(rows.begin(), 5);
        view.treeView()->setCurrentIndex(somePlace.index);
        QCOMPARE(selection.recordId(), std::optional<int64_t>(someId));
        QCOMPARE(selection.task(), task);
        QVERIFY(selection.state());
        QCOMPARE(selection.state()->steps(), model.measuredAt(somePlace.index)->state->steps());
        const QModelIndex sketchRow = model.index(1, 0, taskRow);
        view.treeView()->setCurrentIndex(sketchRow);
        QVERIFY(selection.state());
        QCOMPARE(selection.state()->steps(), (*sketches)[1].state.steps());
        QCOMPARE(selection.recordId(), std::optional<int64_t>());
        QCOMPARE(selection.task(), task);

        // A record selected elsewhere is followed.
        const auto& [otherId, otherPlace] = *std::next(rows.begin(), 20);
        selection.selectMeasured(task, model.measuredAt(otherPlace.index)->state, otherId);
        QCOMPARE(view.treeView()->currentIndex(), otherPlace.index);

        // One task shown: the tree's root is its row.
        view.taskBox()->setCurrentIndex(1);
        QCOMPARE(view.treeView()->rootIndex(), taskRow);
        view.taskBox()->setCurrentIndex(0);
        QCOMPARE(view.treeView()->rootIndex(), QModelIndex());

        if (const QByteArray shot = qgetenv("TS_SKETCHES_SHOT"); !shot.isEmpty()) {
            view.resize(1500, 560);
            for (int g = 0; g < model.rowCount(taskRow); ++g)
                view.treeView()->expand(model.index(g, 0, taskRow));
            view.show();
            QTest::qWait(100);
            view.grab().save(QString::fromLocal8Bit(shot));
        }

        // Another session (none) resets the tree.
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void recordsOfAnotherStructureGoUnderOther()
    {
        // A snapshot whose trial's record holds steps that match no sketch (as an imported record can).
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("ws.tunescope")).toStdString();
        auto store = store::Store::open(path);
        QVERIFY(store);
        auto origin = engine::buildTasks(testing::smallMatmul("16,16,16"));
        QVERIFY(origin);
        const graph::Task& t = origin->front();
        auto device = store->addDevice(store::deviceOf(target::Target::host()));
        QVERIFY(device);
        auto taskId = store->addTask(store::taskInfoOf(t.name, t.dag.workloadKey(), "", t.flops));
        QVERIFY(taskId);
        store::SessionInfo info;
        info.policy = "import";
        auto sessionId = store->beginSession(info);
        QVERIFY(sessionId);
        // The untiled matmul, parallel on its outer loop: no matmul sketch leaves it untiled.
        sched::State state = sched::State::initial(t.dag);
        const int stage = state.stageIndex("matmul");
        sched::applyOrDie(state, sched::AnnotationStep { stage, 0, sched::Annotation::Parallel });
        store::Record r;
        r.taskId = *taskId;
        r.deviceId = *device;
        r.sessionId = *sessionId;
        r.steps = sched::stepsToText(state.steps());
        r.stepCount = static_cast<int>(state.steps().size());
        r.result.status = record::MeasureStatus::Ok;
        r.result.costs = { 1e-5 };
        std::vector<store::Record> batch { r };
        QVERIFY(store->addRecords(batch));

        auto snapshot = std::make_shared<models::SessionSnapshot>();
        snapshot->sessionId = *sessionId;
        snapshot->workspace = path;
        models::SessionTask task;
        task.status.name = t.name;
        task.status.flops = t.flops;
        task.task = std::make_shared<const graph::Task>(t);
        snapshot->tasks.push_back(task);
        models::TrialPoint trial;
        trial.recordId = batch[0].id;
        trial.trial = 1;
        trial.cost = 1e-5;
        trial.gflops = t.flops / 1e-5 / 1e9;
        snapshot->trials.push_back(trial);

        SketchTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy updated(&model, &SketchTreeModel::treeUpdated);
        model.setSnapshot(snapshot);
        QVERIFY(updated.wait(10000));
        const QModelIndex taskRow = model.index(0, 0);
        const int groups = model.rowCount(taskRow);
        QVERIFY(groups >= 2);
        const QModelIndex other = model.index(groups - 1, 0, taskRow);
        QCOMPARE(model.groupAt(other)->index, -1);
        QCOMPARE(other.data().toString(), QStringLiteral("Other (no sketch matches)"));
        QCOMPARE(model.rowCount(other), 1);
        const QModelIndex row = model.index(0, 0, other);
        QCOMPARE(row.data(SketchTreeModel::RecordIdRole).toLongLong(), batch[0].id);
        QCOMPARE(model.index(0, SketchTreeModel::AnnotationsColumn, other).data().toString(),
            QStringLiteral("parallel matmul.i (16)"));
        QCOMPARE(model.index(0, SketchTreeModel::TilesColumn, other).data().toString(), QString());
        for (int g = 0; g + 1 < groups; ++g)
            QCOMPARE(model.rowCount(model.index(g, 0, taskRow)), 0);
    }
};

QTEST_MAIN(SketchViewTest)
#include "sketch_view_test.moc"
