// The SessionHub drives a real short session (a 64^3 matmul measured for real) the way the workbench does:
// snapshots arrive on the GUI thread while it runs, the finished snapshot holds every measured record, and
// the same session reloaded from the workspace gives the same trials, curves and rounds. Cancel stops
// after the batch in flight and leaves a consistent workspace; pause holds the loop.
#include "session_fixture.h"

#include "core/store/store.h"
#include "widgets/models/session_snapshot.h"
#include "widgets/session_hub.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ts;

class SessionHubTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void liveSnapshotsMatchTheStoredSession()
    {
        QTemporaryDir dir;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        int updates = 0;
        int64_t sessionId = 0;
        connect(&hub, &widgets::SessionHub::currentChanged, this, [&] {
            ++updates;
            if (hub.current())
                sessionId = hub.current()->sessionId;
        });
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(32, 16)));
        QVERIFY(!hub.isLive());
        auto live = hub.current();
        QVERIFY(live);
        QCOMPARE(live->state, std::string("finished"));
        QVERIFY(!live->live);
        QVERIFY(live->sessionId > 0);
        QCOMPARE(sessionId, live->sessionId);
        QCOMPARE(live->trialsDone, 32);
        QCOMPARE(static_cast<int>(live->trials.size()), 32);
        QCOMPARE(static_cast<int>(live->rounds.size()), 2);
        QCOMPARE(live->tasks.size(), size_t { 1 });
        QVERIFY(live->tasks[0].task); // rebuilt from the origin
        QVERIFY(!live->tasks[0].curve.empty());
        QVERIFY(live->estimatedLatency > 0.0);
        // Throttled: about 10 per second plus the events published at once (a few per round), however
        // many records and progress events there were.
        QVERIFY(updates >= 3);
        const double bound = live->elapsed * 10.0 + 6.0 * static_cast<double>(live->rounds.size()) + 10.0;
        QVERIFY2(updates <= bound, qPrintable(QStringLiteral("%1 updates in %2 s").arg(updates).arg(live->elapsed)));

        // The stored session, reloaded, says the same.
        auto store = store::Store::open(dir.filePath(QStringLiteral("ws.tunescope")).toStdString());
        QVERIFY(store);
        auto stored = models::loadSessionSnapshot(*store, live->sessionId);
        QVERIFY2(stored, stored ? "" : stored.error().message.c_str());
        QCOMPARE(stored->state, std::string("finished"));
        QCOMPARE(stored->trials.size(), live->trials.size());
        QCOMPARE(stored->rounds.size(), live->rounds.size());
        QCOMPARE(stored->title, live->title);
        QVERIFY(stored->tasks[0].task);
        for (size_t i = 0; i < live->trials.size(); ++i) {
            QCOMPARE(stored->trials[i].recordId, live->trials[i].recordId);
            QCOMPARE(stored->trials[i].round, live->trials[i].round);
            QCOMPARE(stored->trials[i].ok(), live->trials[i].ok());
        }
        // The live curve also holds the end's re-measured best; the stored one follows the records.
        QVERIFY(!stored->tasks[0].curve.empty());
        QCOMPARE(stored->tasks[0].curve.front().recordId, live->tasks[0].curve.front().recordId);

        // The hub lists it, and shows it again from the store.
        QTRY_COMPARE(hub.sessions().size(), size_t { 1 });
        QSignalSpy shown(&hub, &widgets::SessionHub::currentChanged);
        hub.showSession(live->sessionId);
        QTRY_VERIFY(!shown.isEmpty());
        QCOMPARE(hub.current()->trials.size(), size_t { 32 });
    }

    void cancelKeepsTheBatchInFlightAndResumeContinues()
    {
        QTemporaryDir dir;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
        // Cancel as soon as the first record is in: the round in flight completes and is kept.
        connect(&hub, &widgets::SessionHub::currentChanged, this, [&] {
            if (hub.isLive() && hub.current() && hub.current()->trialsDone > 0)
                hub.cancel();
        });
        QVERIFY(hub.start(testing::smallMatmul(), testing::shortRun(64, 16)));
        QVERIFY(finished.wait(240000));
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("cancelled"));
        const auto cancelled = hub.current();
        QVERIFY(cancelled->trialsDone >= 16);
        QVERIFY(cancelled->trialsDone < 64);
        QCOMPARE(cancelled->trialsDone % 16, 0); // whole batches only

        auto store = store::Store::open(dir.filePath(QStringLiteral("ws.tunescope")).toStdString());
        QVERIFY(store);
        QVERIFY(store->verify());
        auto count = store->recordCount();
        QVERIFY(count);
        QCOMPARE(*count, static_cast<int64_t>(cancelled->trialsDone));

        // Resume the stored session: it tunes on to its budget of 64 and never measures a state twice.
        QTRY_COMPARE(hub.sessions().size(), size_t { 1 });
        disconnect(&hub, &widgets::SessionHub::currentChanged, this, nullptr);
        QVERIFY(hub.resume(cancelled->sessionId));
        QVERIFY(finished.wait(240000));
        QCOMPARE(finished.last().at(1).toString(), QStringLiteral("finished"));
        QCOMPARE(hub.current()->restoredTrials, cancelled->trialsDone);
        QCOMPARE(hub.current()->trialsDone + cancelled->trialsDone, 64);
    }

    void pauseHoldsTheLoop()
    {
        QTemporaryDir dir;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
        QVERIFY(hub.start(testing::smallMatmul(), testing::shortRun(48, 16)));
        hub.pause();
        QVERIFY(hub.isPaused());
        QTRY_COMPARE(hub.current() ? hub.current()->state : std::string(), std::string("paused"));
        QTest::qWait(1500);
        QVERIFY(hub.isLive());
        const int held = hub.current()->trialsDone;
        QVERIFY(held <= 16); // at most the batch that was in flight
        hub.resumeLive();
        QVERIFY(finished.wait(240000));
        QCOMPARE(hub.current()->trialsDone, 48);
    }

    void recordsOfAnotherLayoutRewriteAreNoticedNotResumed()
    {
        // 16 records measured without a layout rewrite; a session with layout rewrite 1 times another kernel,
        // so it starts from none of them and says so.
        QTemporaryDir dir;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        QSignalSpy noticed(&hub, &widgets::SessionHub::noticed);
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(16, 16)));
        QVERIFY(noticed.isEmpty());
        engine::TuneOptions packed = testing::shortRun(16, 16);
        packed.measure.layoutRewrite = 1;
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), packed));
        QTRY_COMPARE(noticed.size(), 1);
        const QString message = noticed.first().at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("Not resumed: 16 records measured with layout rewrite 0")),
            qPrintable(message));
        QCOMPARE(hub.current()->restoredTrials, 0);
    }

    void aBadOriginFailsWithItsReason()
    {
        QTemporaryDir dir;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
        QVERIFY(hub.start(testing::smallMatmul("64,64"), testing::shortRun()));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("failed"));
        QVERIFY(finished.first().at(2).toString().contains(QStringLiteral("matmul")));
    }
};

QTEST_MAIN(SessionHubTest)
#include "session_hub_test.moc"
