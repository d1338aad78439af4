// What constraints remove, in the Sketches view (issue 41): a real 64^3 matmul session, paused after its first
// round, is constrained through the hub as the Steering dock constrains it (the view marks by a change from its post
// on, before the session has applied it). Forbidding cache_write removes exactly the sketches with a cache stage and
// every state under them; pinning the innermost j tile marks exactly the states whose loop j.3 has another extent
// (read from the replayed loops, not from the steps the checker reads); each mark names its reason in the Constraints
// column and the tooltip, the status line counts the sketches allowed, and clearing the constraints takes every mark
// away. With TS_SCREENSHOT_DIR set: sketch-constraints.png (docs/images).
#include "session_fixture.h"

#include "app/gui/sketch_view.h"
#include "app/gui/view_registry.h"
#include "core/search/constraints.h"
#include "core/search/sketch.h"
#include "widgets/models/sketch_tree_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <algorithm>
#include <map>

using namespace ts;
using models::SketchTreeModel;

namespace {

// The extent of the innermost tile of matmul's j loop in a measured state (its loop "j.3", in the cache stage when
// there is one): what a split constraint on matmul.j part -1 bounds, read from the replayed loops, not the steps.
int64_t innermostJ(const sched::State& state)
{
    int stage = state.stageIndex("matmul.local");
    if (stage < 0)
        stage = state.stageIndex("matmul");
    for (const sched::Iterator& it : state.stage(stage).iters)
        if (it.name == "j.3")
            return it.extent;
    return -1;
}

QString column(const SketchTreeModel& model, const QModelIndex& row, int column)
{
    return model.index(row.row(), column, row.parent()).data().toString();
}

} // namespace

class SketchConstraintsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void constraintsMarkWhatTheyRemove()
    {
        QTemporaryDir dir;
        widgets::SessionHub hub;
        widgets::SelectionContext selection;
        app::ViewContext context { selection, hub };
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        app::SketchView view(context);
        SketchTreeModel& model = *view.model();
        model.setThrottleInterval(150);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto* status = view.findChild<QLabel*>(QStringLiteral("SketchesStatus"));
        QVERIFY(status);

        // A live session, paused once its first round is in: constraints can be posted to it.
        bool pauseAsked = false;
        connect(&hub, &widgets::SessionHub::liveUpdated, this, [&] {
            if (!pauseAsked && hub.live() && !hub.live()->rounds.empty()) {
                pauseAsked = true;
                hub.pause();
            }
        });
        QSignalSpy done(&hub, &widgets::SessionHub::commandDone);
        QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
        QVERIFY(hub.start(testing::smallMatmul(), testing::shortRun(64, 16)));
        QTRY_VERIFY_WITH_TIMEOUT(pauseAsked && hub.isPaused() && hub.live()->state == "paused", 120000);
        QTRY_VERIFY_WITH_TIMEOUT(model.trials() >= 16 && !model.isBuilding(), 30000);
        const QModelIndex taskRow = model.index(0, 0);
        const auto task = hub.live()->tasks[0].task;
        auto sketches = search::generateSketches(
            search::SearchTask { task->dag, target::Target::host(), task->name, task->flops });
        QVERIFY(sketches);
        QCOMPARE(model.rowCount(taskRow), static_cast<int>(sketches->size()));
        std::vector<bool> cacheWrite; // per sketch: made with a cache stage (what "no cache_write" removes)
        for (const search::Sketch& sketch : *sketches)
            cacheWrite.push_back(sketch.rules.find("AddCacheWrite") != std::string::npos);
        const int kept = static_cast<int>(std::count(cacheWrite.begin(), cacheWrite.end(), false));
        QVERIFY(kept >= 1 && kept < static_cast<int>(sketches->size())); // matmul: with and without the cache stage

        // Checks every row against what `constraints` should remove, and returns how many states are marked.
        auto check = [&](const search::Constraints& c) -> int {
            const bool forbidCache = !c.forbid.empty();
            const bool pinJ = !c.splits.empty();
            int broken = 0;
            for (int g = 0; g < model.rowCount(taskRow); ++g) {
                const QModelIndex group = model.index(g, 0, taskRow);
                const bool removed = forbidCache && cacheWrite[static_cast<size_t>(g)];
                const QString groupText = column(model, group, SketchTreeModel::ConstraintColumn);
                if (model.index(g, SketchTreeModel::ConstraintColumn, taskRow)
                        .data(SketchTreeModel::RemovedRole)
                        .toBool()
                    != removed)
                    return -1000 - g;
                if (group.data(SketchTreeModel::RemovedRole).toBool() != removed)
                    return -1100 - g;
                const QString expectedGroup = removed ? QStringLiteral("removed: has cache_write, which is forbidden")
                    : c.empty()                       ? QString()
                                                      : QStringLiteral("allowed");
                if (groupText != expectedGroup)
                    return -1200 - g;
                if (removed != group.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Removed by")))
                    return -1300 - g;
                for (int r = 0; r < model.rowCount(group); ++r) {
                    const QModelIndex row = model.index(r, 0, group);
                    const auto measured = model.measuredAt(row);
                    if (!measured->state)
                        return -2000; // every state of the session replays
                    const int64_t j = innermostJ(*measured->state);
                    QString expected;
                    if (removed)
                        expected = QStringLiteral("has cache_write, which is forbidden");
                    else if (pinJ && j != *c.splits.front().bound.equals)
                        expected = QStringLiteral("split matmul.j innermost is %1, not = %2")
                                       .arg(j)
                                       .arg(*c.splits.front().bound.equals);
                    if (column(model, row, SketchTreeModel::ConstraintColumn) != expected)
                        return -3000 - r;
                    if (row.data(SketchTreeModel::RemovedRole).toBool() != !expected.isEmpty())
                        return -4000 - r;
                    broken += expected.isEmpty() ? 0 : 1;
                }
            }
            return broken;
        };
        // Posts `c` as the task's constraints (as the Steering dock does); the view marks by them from the post on,
        // before the session has applied them, and still once it has.
        auto constrain = [&](const search::Constraints& c) {
            const int answered = static_cast<int>(done.size());
            auto id = hub.post(engine::SetConstraints { 0, c });
            QVERIFY(id);
            QCOMPARE(model.constraints(), std::vector<search::Constraints> { c });
            QTRY_VERIFY_WITH_TIMEOUT(static_cast<int>(done.size()) > answered, 30000);
            QCOMPARE(done.last().at(2).toString(), QString());
            QCOMPARE(hub.current()->steering.constraints, std::vector<search::Constraints> { c });
            QCOMPARE(model.constraints(), std::vector<search::Constraints> { c });
            QTRY_VERIFY(!model.isMarking());
        };

        // No constraint: nothing marked, and the status line says nothing of constraints.
        QCOMPARE(check({}), 0);
        QVERIFY(model.marks().empty());
        QVERIFY2(!status->text().contains(QStringLiteral("constraints")), qPrintable(status->text()));

        // No cache_write: the sketches with a cache stage are removed, and every state under them.
        search::Constraints noCache;
        noCache.forbid = { "cache_write" };
        constrain(noCache);
        if (QTest::currentTestFailed())
            return;
        // The session takes a command between two batches: the batch in flight when it paused is in now.
        const int trials = static_cast<int>(hub.live()->trials.size());
        QTRY_VERIFY_WITH_TIMEOUT(model.trials() == trials && !model.isBuilding() && !model.isMarking(), 30000);
        const int underCache = check(noCache);
        QVERIFY2(underCache > 0, qPrintable(QString::number(underCache)));
        const QString allowed = QStringLiteral("%1 of %2 sketches allowed").arg(kept).arg(sketches->size());
        QCOMPARE(column(model, taskRow, SketchTreeModel::ConstraintColumn),
            QStringLiteral("%1; %2 measured state(s) break the constraints").arg(allowed).arg(underCache));
        QVERIFY2(status->text().contains(QStringLiteral("constraints: ") + allowed), qPrintable(status->text()));
        QCOMPARE(model.marks().states.size(), static_cast<size_t>(underCache));

        // The innermost j tile pinned instead (to the tile most states have): every sketch allowed, exactly the states
        // with another tile marked.
        std::map<int64_t, int> tiles;
        for (int g = 0; g < model.rowCount(taskRow); ++g)
            for (const auto& state : model.groupAt(model.index(g, 0, taskRow))->states)
                ++tiles[innermostJ(*state->state)];
        const int64_t common = std::max_element(tiles.begin(), tiles.end(), [](const auto& a, const auto& b) {
            return a.second < b.second;
        })->first;
        QVERIFY(tiles.size() >= 2); // the search tried more than one tile
        const search::Constraints pinJ { { { "matmul", "j", -1, search::Bound { common } } } };
        constrain(pinJ);
        if (QTest::currentTestFailed())
            return;
        const int otherTile = check(pinJ);
        QCOMPARE(otherTile, trials - tiles[common]);
        QVERIFY2(status->text().contains(QStringLiteral("%1 of %1 sketches allowed").arg(sketches->size())),
            qPrintable(status->text()));

        // Both, for the picture (the innermost j tile one AVX-512 vector): the removed sketches with their states, and
        // the states under the kept sketch that break the pin.
        search::Constraints both { { { "matmul", "j", -1, search::Bound { 16 } } } };
        both.forbid = noCache.forbid;
        constrain(both);
        if (QTest::currentTestFailed())
            return;
        const int bothBroken = check(both);
        QVERIFY2(bothBroken >= underCache, qPrintable(QString::number(bothBroken)));
        QCOMPARE(model.marks().states.size(), static_cast<size_t>(bothBroken));
        if (const QByteArray shots = qgetenv("TS_SCREENSHOT_DIR"); !shots.isEmpty()) {
            view.resize(1500, 620);
            for (int g = 0; g < model.rowCount(taskRow); ++g)
                view.treeView()->expand(model.index(g, 0, taskRow));
            view.show();
            QTest::qWait(200);
            view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/sketch-constraints.png"));
        }

        // Cleared: the marks go.
        constrain({});
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(check({}), 0);
        QVERIFY(model.marks().empty());
        QVERIFY2(!status->text().contains(QStringLiteral("constraints")), qPrintable(status->text()));

        hub.cancel();
        hub.resumeLive();
        QVERIFY(finished.wait(120000) || !finished.isEmpty());
    }
};

QTEST_MAIN(SketchConstraintsTest)
#include "sketch_constraints_test.moc"
