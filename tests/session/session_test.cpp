// JobTracker: stale results are dropped, cancel delivers nothing, delivery runs on the receiver's thread,
// progress is throttled, a job outlives its receiver safely, a failure arrives as a value.
#include "core/session/job_tracker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using namespace ts;
using namespace std::chrono_literals;

namespace {

// Blocks a worker until the job is asked to stop (or a generous deadline passes, so a bug fails the test
// instead of hanging it). Returns whether the stop came.
bool waitForStop(const session::JobContext& context)
{
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!context.stopRequested()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

struct Holder : QObject {
    explicit Holder(QThreadPool* pool)
        : tracker(this, pool)
    {
    }
    session::JobTracker tracker;
};

} // namespace

class SessionTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void throttleAdmitsOneReportPerInterval()
    {
        session::ProgressThrottle throttle(100ms);
        const auto t0 = session::ProgressThrottle::Clock::time_point {} + 1h;
        QVERIFY(throttle.admit(t0)); // the first report always passes
        QVERIFY(!throttle.admit(t0 + 1ms));
        QVERIFY(!throttle.admit(t0 + 99ms));
        QVERIFY(throttle.admit(t0 + 100ms));
        QVERIFY(!throttle.admit(t0 + 150ms)); // the interval restarts at the last admitted report
        QVERIFY(throttle.admit(t0 + 250ms));
        QCOMPARE(session::ProgressThrottle().interval(), session::ProgressThrottle::Clock::duration(100ms));
    }

    void resultArrivesOnTheReceiversThread()
    {
        QThreadPool pool;
        QObject receiver;
        session::JobTracker tracker(&receiver, &pool);
        QThread* workThread = nullptr;
        QThread* deliveryThread = nullptr;
        int value = 0;
        tracker.start(
            [&workThread](session::JobContext&) -> Expected<int> {
                workThread = QThread::currentThread();
                return 42;
            },
            [&](Expected<int> result) {
                deliveryThread = QThread::currentThread();
                value = *result;
            });
        QVERIFY(tracker.isRunning());
        QTRY_COMPARE(value, 42);
        QVERIFY(!tracker.isRunning());
        QVERIFY(workThread != QThread::currentThread()); // the work ran off this thread
        QCOMPARE(deliveryThread, QThread::currentThread());
    }

    void resultArrivesOnAReceiverLivingInAnotherThread()
    {
        QThreadPool pool;
        QThread thread;
        thread.start();
        auto* receiver = new QObject;
        receiver->moveToThread(&thread);
        std::unique_ptr<session::JobTracker> tracker;
        std::atomic<QThread*> deliveryThread = nullptr;
        // The tracker is made, used and destroyed on the receiver's thread.
        QMetaObject::invokeMethod(
            receiver,
            [&] {
                tracker = std::make_unique<session::JobTracker>(receiver, &pool);
                tracker->start([](session::JobContext&) -> Expected<int> { return 7; },
                    [&](Expected<int>) { deliveryThread = QThread::currentThread(); });
            },
            Qt::BlockingQueuedConnection);
        QTRY_VERIFY(deliveryThread.load() != nullptr);
        QCOMPARE(deliveryThread.load(), &thread);
        QMetaObject::invokeMethod(
            receiver, [&] { tracker.reset(); }, Qt::BlockingQueuedConnection);
        QMetaObject::invokeMethod(
            receiver, [receiver] { delete receiver; }, Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    }

    void newerJobSupersedesARunningOne()
    {
        QThreadPool pool;
        QObject receiver;
        session::JobTracker tracker(&receiver, &pool);
        std::vector<int> delivered;
        std::atomic<bool> firstStarted = false;
        std::atomic<bool> firstSawStop = false;
        const auto first = tracker.start(
            [&](session::JobContext& context) -> Expected<int> {
                firstStarted = true;
                firstSawStop = waitForStop(context);
                return 1;
            },
            [&](Expected<int> result) { delivered.push_back(*result); });
        QTRY_VERIFY(firstStarted.load()); // running, not merely queued
        const auto second = tracker.start([](session::JobContext&) -> Expected<int> { return 2; },
            [&](Expected<int> result) { delivered.push_back(*result); });
        QVERIFY(second > first);
        QCOMPARE(tracker.generation(), second);
        QTRY_COMPARE(delivered.size(), size_t(1));
        pool.waitForDone();
        QTest::qWait(50); // anything the first job might still have queued is processed now
        QCOMPARE(delivered, std::vector<int>({ 2 }));
        QVERIFY(firstSawStop.load());
    }

    void resultQueuedBeforeANewerStartIsDropped()
    {
        // The first job finishes and queues its result; only then does the second start. The stale result
        // is already in the receiver's event queue, so it is the generation check there that drops it.
        QThreadPool pool;
        QObject receiver;
        session::JobTracker tracker(&receiver, &pool);
        std::vector<int> delivered;
        tracker.start([](session::JobContext&) -> Expected<int> { return 1; },
            [&](Expected<int> result) { delivered.push_back(*result); });
        pool.waitForDone(); // no event processed yet: result 1 waits in the queue
        tracker.start([](session::JobContext&) -> Expected<int> { return 2; },
            [&](Expected<int> result) { delivered.push_back(*result); });
        QTRY_VERIFY(!tracker.isRunning());
        pool.waitForDone();
        QTest::qWait(50);
        QCOMPARE(delivered, std::vector<int>({ 2 }));
    }

    void jobSupersededWhileQueuedNeverRuns()
    {
        QThreadPool pool;
        pool.setMaxThreadCount(1);
        std::atomic<bool> release = false;
        pool.start([&release] {
            while (!release)
                std::this_thread::sleep_for(1ms);
        }); // occupies the only worker
        QObject receiver;
        session::JobTracker tracker(&receiver, &pool);
        std::atomic<int> firstRuns = 0;
        int delivered = 0;
        tracker.start(
            [&firstRuns](session::JobContext&) -> Expected<int> {
                ++firstRuns;
                return 1;
            },
            [&](Expected<int> result) { delivered = *result; });
        tracker.start([](session::JobContext&) -> Expected<int> { return 2; },
            [&](Expected<int> result) { delivered = *result; });
        release = true;
        QTRY_COMPARE(delivered, 2);
        pool.waitForDone();
        QCOMPARE(firstRuns.load(), 0);
    }

    void cancelDeliversNothing()
    {
        QThreadPool pool;
        QObject receiver;
        session::JobTracker tracker(&receiver, &pool);
        int delivered = 0;
        std::atomic<bool> started = false;
        std::atomic<bool> sawStop = false;
        std::atomic<bool> finished = false;
        tracker.start(
            [&](session::JobContext& context) -> Expected<int> {
                started = true;
                sawStop = waitForStop(context);
                finished = true;
                return 1;
            },
            [&](Expected<int>) { ++delivered; });
        QTRY_VERIFY(started.load());
        tracker.cancel();
        QVERIFY(!tracker.isRunning());
        QTRY_VERIFY(finished.load());
        pool.waitForDone();
        QTest::qWait(50);
        QCOMPARE(delivered, 0);
        QVERIFY(sawStop.load());

        // Cancelled after the result was queued: still nothing.
        tracker.start([](session::JobContext&) -> Expected<int> { return 3; }, [&](Expected<int>) { ++delivered; });
        pool.waitForDone();
        tracker.cancel();
        QTest::qWait(50);
        QCOMPARE(delivered, 0);
    }

    void progressIsThrottledAndStaleProgressDropped()
    {
        QThreadPool pool;
        QObject receiver;
        session::JobTracker tracker(&receiver, &pool);
        std::vector<double> progress;
        std::atomic<int> sent = 0;
        std::atomic<int> reports = 0;
        qint64 elapsedMs = -1;
        tracker.start(
            [&](session::JobContext& context) -> Expected<qint64> {
                QElapsedTimer timer;
                timer.start();
                while (timer.elapsed() < 350) {
                    ++reports;
                    if (context.reportProgress(double(timer.elapsed()) / 350.0, "working"))
                        ++sent;
                    std::this_thread::sleep_for(200us);
                }
                return timer.elapsed();
            },
            [&](Expected<qint64> result) { elapsedMs = *result; },
            [&](session::JobProgress p) {
                QCOMPARE(p.message, std::string("working"));
                progress.push_back(p.fraction);
            });
        QTRY_VERIFY(elapsedMs >= 0);
        // Progress queued before the result arrives first: nothing is lost between worker and receiver.
        QCOMPARE(int(progress.size()), sent.load());
        QVERIFY(reports.load() > 50); // many reports were made...
        QVERIFY(progress.size() >= 2); // ...a few passed (the first, and one per 100 ms)...
        QVERIFY(int(progress.size()) <= elapsedMs / 100 + 1); // ...and no more than 10 per second
        for (size_t i = 1; i < progress.size(); ++i)
            QVERIFY(progress[i] > progress[i - 1]);
    }

    void failureArrivesAsAnError()
    {
        QThreadPool pool;
        QObject receiver;
        session::JobTracker tracker(&receiver, &pool);
        std::optional<Error> error;
        tracker.start([](session::JobContext&) -> Expected<int> { throw std::runtime_error("disk on fire"); },
            [&](Expected<int> result) {
                QVERIFY(!result);
                error = result.error();
            });
        QTRY_VERIFY(error.has_value());
        QCOMPARE(error->kind, ErrorKind::Internal);
        QCOMPARE(error->message, std::string("job failed: disk on fire"));
    }

    void jobOutlivesItsReceiver()
    {
        QThreadPool pool;
        auto delivered = std::make_shared<std::atomic<int>>(0);
        auto started = std::make_shared<std::atomic<bool>>(false);
        auto sawStop = std::make_shared<std::atomic<bool>>(false);
        auto* holder = new Holder(&pool);
        holder->tracker.start(
            [started, sawStop](session::JobContext& context) -> Expected<int> {
                *started = true;
                *sawStop = waitForStop(context);
                return 1;
            },
            [delivered](Expected<int>) { ++*delivered; });
        QTRY_VERIFY(started->load());
        delete holder; // the tracker goes with it and stops the job
        pool.waitForDone();
        QTest::qWait(50);
        QVERIFY(sawStop->load());
        QCOMPARE(delivered->load(), 0);

        // A tracker that is not a member of its receiver and outlives it: the job posts nothing.
        auto* receiver = new QObject;
        session::JobTracker tracker(receiver, &pool);
        std::atomic<bool> release = false;
        tracker.start(
            [&release](session::JobContext&) -> Expected<int> {
                while (!release)
                    std::this_thread::sleep_for(1ms);
                return 1;
            },
            [delivered](Expected<int>) { ++*delivered; });
        delete receiver;
        release = true;
        pool.waitForDone();
        QTest::qWait(50);
        QCOMPARE(delivered->load(), 0);
        tracker.cancel(); // harmless once the receiver is gone
    }
};

QTEST_GUILESS_MAIN(SessionTest)
#include "session_test.moc"
