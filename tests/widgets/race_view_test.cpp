// The Race view with a real race: a 32^3 dense, random (Ansor's sketches) against autotvm-random, 16 trials each
// in rounds of 8, measured for real into a temporary workspace. Snapshots reach the view at a bounded rate, both
// curves fill, the race is stored, listed and replayed from the workspace without measuring (same curves), and a
// lane's best program reaches the selection (the code view's input).
#include "session_fixture.h"

#include "app/gui/race_view.h"
#include "app/gui/view_registry.h"
#include "core/graph/op_tasks.h"
#include "widgets/qcustomplot_shim.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

class RaceViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aLiveRaceFillsTheViewIsStoredAndReplays()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("race.tunescope")));
        app::ViewContext context { selection, hub };
        app::RaceView view(context);
        view.resize(1200, 420);
        view.show();
        // Before any race: no lanes in the legend (not "Graph 1 / Graph 2"), and a workspace that is still being
        // created is no error.
        QCOMPARE(view.plot()->legend->itemCount(), 0);
        QTest::qWait(500);
        for (const QLabel* label : view.findChildren<QLabel*>())
            QVERIFY2(!label->text().contains(QStringLiteral("no such workspace")), qPrintable(label->text()));

        auto task = graph::operatorTask("dense", { 32, 32, 32 }, ops::Layout::NCHW);
        QVERIFY(task);
        auto shared = std::make_shared<const graph::Task>(*task);
        engine::RaceOptions options;
        options.task = { task->name, task->dag, 1, "dense" };
        options.policies = { search::PolicyKind::Random, search::PolicyKind::AutotvmRandom };
        options.trials = 16;
        options.measuresPerRound = 8;
        options.seed = 3;
        options.model = "random";
        options.searchThreads = 1;
        options.measure.buildParallelism = 1;
        engine::TuneOrigin origin;
        origin.op = "dense";
        origin.shape = "32,32,32";
        options.origin = origin.toJson();

        QSignalSpy updates(&view.runner(), &widgets::RaceRunner::updated);
        QSignalSpy finished(&view.runner(), &widgets::RaceRunner::finished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(view.startRace(shared, options));
        QVERIFY(!view.startRace(shared, options)); // one race at a time
        QVERIFY(finished.wait(180000) || !finished.isEmpty());
        const double seconds = clock.elapsed() / 1000.0;
        QCOMPARE(finished.first().at(0).toString(), QStringLiteral("finished"));
        auto live = view.runner().current();
        QVERIFY(live && live->error.empty());
        QCOMPARE(live->result.lanes.size(), size_t { 2 });
        for (const engine::RaceLane& lane : live->result.lanes)
            QCOMPARE(lane.bestGflops.size(), size_t { 16 });
        // At most ~10 publishes a second, plus the ones a round's end or the finish forces (4 rounds, 2 ends).
        QVERIFY2(updates.count() <= static_cast<int>(seconds * 10.0) + 4 + 2 + 2,
            qPrintable(QStringLiteral("%1 updates in %2 s").arg(updates.count()).arg(seconds)));
        QVERIFY(updates.count() >= 2);
        QCOMPARE(view.plot()->graph(0)->dataCount(), 16);
        QCOMPARE(view.plot()->graph(1)->dataCount(), 16);
        QCOMPARE(view.plot()->legend->itemCount(), 2);
        QVERIFY(view.laneText(1).contains(QStringLiteral("configs (dense_nopack.x86")));
        QVERIFY(view.laneText(0).contains(QStringLiteral("sketch")));
        QVERIFY(view.summaryText().contains(QStringLiteral("reached")));

        // Stored: listed and replayed with the same curves, nothing measured.
        QSignalSpy listed(&view.runner(), &widgets::RaceRunner::racesListed);
        view.runner().listRaces(hub.workspace());
        QVERIFY(listed.wait(20000) || !listed.isEmpty());
        const auto races = listed.last().at(0).value<std::vector<engine::RaceInfo>>();
        QCOMPARE(races.size(), size_t { 1 });
        QCOMPARE(races.front().id, live->result.id);
        QSignalSpy loaded(&view.runner(), &widgets::RaceRunner::raceLoaded);
        view.runner().loadRace(hub.workspace(), QString::fromStdString(races.front().id));
        QVERIFY(loaded.wait(20000) || !loaded.isEmpty());
        const auto stored = loaded.first().at(0).value<std::shared_ptr<const widgets::RaceSnapshot>>();
        QVERIFY(stored && stored->task);
        for (size_t i = 0; i < 2; ++i)
            QCOMPARE(stored->result.lanes[i].bestGflops, live->result.lanes[i].bestGflops);
        // The replay plays back from trial 0 to the end (about ten seconds).
        QVERIFY(view.position() < 16);
        QTRY_COMPARE_WITH_TIMEOUT(view.position(), 16, 15000);
        view.grab().save(QStringLiteral("/tmp/race_view.png"));

        // A lane's best program goes to the selection.
        QSignalSpy stateChanged(&selection, &widgets::SelectionContext::stateChanged);
        QList<QPushButton*> buttons = view.findChildren<QPushButton*>();
        QPushButton* best = nullptr;
        for (QPushButton* b : buttons)
            if (b->text() == app::RaceView::tr("Show best program") && b->isEnabled())
                best = b;
        QVERIFY(best);
        best->click();
        QVERIFY(stateChanged.wait(20000) || !stateChanged.isEmpty());
        QVERIFY(selection.recordId().has_value());
    }

    void explanationsCoverEveryPolicyAndPhase()
    {
        for (const search::PolicyInfo& info : search::policies())
            for (const char* phase : { "search", "measure", "model", "", "done" })
                QVERIFY2(!app::RaceView::explain(info.kind, phase).isEmpty(), info.name);
    }
};

QTEST_MAIN(RaceViewTest)
#include "race_view_test.moc"
