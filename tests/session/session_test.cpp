// JobTracker: stale results are dropped, cancel delivers nothing, delivery runs on the receiver's thread,
// progress is throttled, a job outlives its receiver safely, a failure arrives as a value.
// StreamingJob: events fold in order, publication is throttled to about 10 Hz with urgent events at once, a slow
// receiver gets only the newest snapshot, pause/cancel/abort reach the work, destroying a live job joins it.
#include "core/session/job_tracker.h"
#include "core/session/streaming_job.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <numeric>
#include <optional>
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

// Blocks until `flag` is set (or a generous deadline passes, so a bug fails the test instead of hanging it).
bool waitFor(const std::atomic<bool>& flag)
{
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!flag.load()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

// A stream of numbers folded into the list of those seen; a negative number is urgent (its absolute value is
// folded).
using NumberStream = session::StreamingJob<int, std::vector<int>>;

session::Publish foldNumber(std::vector<int>& seen, const int& number)
{
    seen.push_back(number < 0 ? -number : number);
    return number < 0 ? session::Publish::Now : session::Publish::WhenDue;
}

// What a NumberStream handed its receiver.
struct Delivered {
    std::vector<std::shared_ptr<const std::vector<int>>> snapshots;
    std::vector<QThread*> threads;
    std::optional<Expected<void>> finished;
    bool finishedAfterLastSnapshot = false;

    NumberStream::SnapshotHandler onSnapshot()
    {
        return [this](std::shared_ptr<const std::vector<int>> snapshot) {
            snapshots.push_back(std::move(snapshot));
            threads.push_back(QThread::currentThread());
        };
    }
    NumberStream::FinishHandler onFinished()
    {
        return [this](Expected<void> outcome) {
            finishedAfterLastSnapshot = !snapshots.empty();
            finished = std::move(outcome);
        };
    }
    size_t lastSize() const { return snapshots.empty() ? 0 : snapshots.back()->size(); }
};

// Counts what a streaming job's controls were told.
struct ControlLog {
    std::atomic<int> pauses = 0;
    std::atomic<int> resumes = 0;
    std::atomic<int> cancels = 0;
    std::atomic<int> aborts = 0;
    std::atomic<bool> stop = false; // set by cancel and abort, as an engine's flag

    session::StreamControls controls()
    {
        return { .pause = [this] { ++pauses; },
            .resume = [this] { ++resumes; },
            .cancel =
                [this] {
                    ++cancels;
                    stop = true;
                },
            .abort =
                [this] {
                    ++aborts;
                    stop = true;
                } };
    }
};

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

    // ----- StreamingJob

    void streamFoldsEventsInOrderOnTheWorker()
    {
        QObject receiver;
        Delivered delivered;
        NumberStream job(&receiver, foldNumber, delivered.onSnapshot(), delivered.onFinished());
        std::atomic<QThread*> workThread = nullptr;
        QVERIFY(job.start({}, [&workThread](NumberStream::Context& context) {
            workThread = QThread::currentThread();
            for (int i = 1; i <= 200; ++i)
                context.fold(i);
        }));
        QVERIFY(job.isRunning());
        QVERIFY(!job.start({}, [](NumberStream::Context&) {})); // one run at a time
        QTRY_VERIFY(delivered.finished.has_value());
        QVERIFY(*delivered.finished);
        QVERIFY(!job.isRunning());
        QVERIFY(delivered.finishedAfterLastSnapshot);
        QVERIFY(workThread.load() != QThread::currentThread());
        for (QThread* thread : delivered.threads)
            QCOMPARE(thread, QThread::currentThread());
        // Each snapshot is a longer prefix of 1..200; the last is all of it, in order.
        std::vector<int> expected(200);
        std::iota(expected.begin(), expected.end(), 1);
        for (size_t i = 0; i < delivered.snapshots.size(); ++i) {
            const auto& snapshot = *delivered.snapshots[i];
            QVERIFY(std::equal(snapshot.begin(), snapshot.end(), expected.begin()));
            if (i > 0)
                QVERIFY(snapshot.size() > delivered.snapshots[i - 1]->size());
        }
        QCOMPARE(*delivered.snapshots.back(), expected);
        QCOMPARE(job.snapshot(), delivered.snapshots.back());

        // The job runs again after its end, from the state it is given.
        delivered.finished.reset();
        QVERIFY(job.start({ 7 }, [](NumberStream::Context& context) { context.fold(8); }));
        QTRY_VERIFY(delivered.finished.has_value());
        QCOMPARE(*delivered.snapshots.back(), std::vector<int>({ 7, 8 }));
    }

    void streamPublishesAtMostTenTimesASecond()
    {
        QObject receiver;
        Delivered delivered;
        NumberStream job(&receiver, foldNumber, delivered.onSnapshot(), delivered.onFinished());
        std::atomic<qint64> elapsedMs = 0;
        QVERIFY(job.start({}, [&elapsedMs](NumberStream::Context& context) {
            QElapsedTimer timer;
            timer.start();
            for (int i = 1; i <= 1000; ++i) {
                context.fold(i);
                std::this_thread::sleep_for(1ms);
            }
            elapsedMs = timer.elapsed();
        }));
        QTRY_VERIFY_WITH_TIMEOUT(delivered.finished.has_value(), 30000);
        const int count = static_cast<int>(delivered.snapshots.size());
        // The first event, one per 100 ms after it, and the end: about 12 for a run of 1.1 s, never 1000.
        QVERIFY2(count <= elapsedMs.load() / 100 + 2,
            qPrintable(QStringLiteral("%1 snapshots in %2 ms").arg(count).arg(elapsedMs.load())));
        QVERIFY2(count >= 3, qPrintable(QStringLiteral("%1 snapshots: none while it ran").arg(count)));
        QCOMPARE(delivered.lastSize(), size_t { 1000 }); // the last one is the final state
    }

    void urgentEventsArePublishedAtOnce()
    {
        QObject receiver;
        Delivered delivered;
        std::atomic<bool> sawUrgent = false;
        NumberStream job(
            &receiver, foldNumber,
            [&](std::shared_ptr<const std::vector<int>> snapshot) {
                if (snapshot->back() == 3)
                    sawUrgent = true;
                delivered.snapshots.push_back(std::move(snapshot));
            },
            delivered.onFinished());
        job.setPublishInterval(1h); // a due publication never comes while the test runs: only the first and urgent
        std::atomic<bool> urgentArrived = false;
        QVERIFY(job.start({}, [&](NumberStream::Context& context) {
            context.fold(1); // the first publication always goes out
            context.fold(2); // due in an hour
            context.fold(-3); // urgent
            urgentArrived = waitFor(sawUrgent); // the receiver sees it while the work still runs
        }));
        QTRY_VERIFY(delivered.finished.has_value());
        QVERIFY(urgentArrived.load());
        for (const auto& snapshot : delivered.snapshots)
            QVERIFY(snapshot->back() != 2); // the throttled event went out only with the urgent one after it
        QCOMPARE(*delivered.snapshots.back(), std::vector<int>({ 1, 2, 3 }));
    }

    void aSlowReceiverSeesOnlyTheNewest()
    {
        QObject receiver;
        Delivered delivered;
        std::atomic<bool> receiverBusy = false;
        NumberStream job(
            &receiver, foldNumber,
            [&](std::shared_ptr<const std::vector<int>> snapshot) {
                delivered.snapshots.push_back(std::move(snapshot));
                receiverBusy = true;
                std::this_thread::sleep_for(200ms); // a receiver that draws slowly
            },
            delivered.onFinished());
        std::atomic<bool> sawBusy = false;
        QVERIFY(job.start({}, [&](NumberStream::Context& context) {
            context.fold(-1);
            sawBusy = waitFor(receiverBusy);
            for (int i = 2; i <= 50; ++i)
                context.fold(-i); // every one urgent, all while the receiver draws the first
        }));
        QTRY_VERIFY(delivered.finished.has_value());
        QVERIFY(sawBusy.load());
        // The first, then the newest when the receiver was free again: nothing in between.
        QCOMPARE(delivered.snapshots.size(), size_t { 2 });
        QCOMPARE(delivered.snapshots[0]->size(), size_t { 1 });
        QCOMPARE(delivered.snapshots[1]->size(), size_t { 50 });
    }

    void pauseCancelAndAbortReachTheWork()
    {
        QObject receiver;
        Delivered delivered;
        NumberStream job(&receiver, foldNumber, delivered.onSnapshot(), delivered.onFinished());

        // Requests made before the work attaches its controls are told them at once, in order.
        ControlLog early;
        std::atomic<bool> mayAttach = false;
        std::atomic<bool> stopSeen = false;
        std::atomic<bool> tokenStopped = false;
        std::atomic<bool> abortSeen = true;
        QVERIFY(job.start({}, [&](NumberStream::Context& context) {
            waitFor(mayAttach);
            auto attached = context.attach(early.controls());
            stopSeen = waitFor(early.stop);
            tokenStopped = context.stopToken().stop_requested();
            abortSeen = context.abortRequested();
        }));
        job.pause();
        QVERIFY(job.isPaused());
        job.cancel();
        QVERIFY(job.cancelRequested());
        mayAttach = true;
        QTRY_VERIFY(delivered.finished.has_value());
        QVERIFY(stopSeen.load());
        QVERIFY(tokenStopped.load());
        QVERIFY(!abortSeen.load());
        QCOMPARE(early.pauses.load(), 1);
        QCOMPARE(early.cancels.load(), 1);
        QCOMPARE(early.aborts.load(), 0);
        QVERIFY(!job.isPaused()); // not running any more

        // Requests after attaching are forwarded as they come; abort stops the work.
        delivered.finished.reset();
        ControlLog late;
        std::atomic<bool> attachedNow = false;
        QVERIFY(job.start({}, [&](NumberStream::Context& context) {
            auto attached = context.attach(late.controls());
            attachedNow = true;
            waitFor(late.stop);
            abortSeen = context.abortRequested();
        }));
        QTRY_VERIFY(attachedNow.load());
        job.pause();
        job.resume();
        QVERIFY(!job.isPaused());
        QCOMPARE(late.pauses.load(), 1);
        QCOMPARE(late.resumes.load(), 1);
        job.abort();
        QTRY_VERIFY(delivered.finished.has_value());
        QCOMPARE(late.aborts.load(), 1);
        QCOMPARE(late.cancels.load(), 0);
        QVERIFY(abortSeen.load());

        // Work without controls of its own holds in waitWhilePaused until resumed.
        delivered.finished.reset();
        std::atomic<int> folded = 0;
        std::atomic<bool> ready = false;
        std::atomic<bool> go = false;
        QVERIFY(job.start({}, [&](NumberStream::Context& context) {
            ready = true;
            waitFor(go);
            for (int i = 1; i <= 3 && !context.stopRequested(); ++i) {
                context.waitWhilePaused();
                context.fold(i);
                ++folded;
            }
        }));
        QTRY_VERIFY(ready.load());
        job.pause();
        go = true;
        QTest::qWait(200);
        QCOMPARE(folded.load(), 0); // held
        job.resume();
        QTRY_VERIFY(delivered.finished.has_value());
        QCOMPARE(folded.load(), 3);
        QCOMPARE(delivered.lastSize(), size_t { 3 });
    }

    void stateChangesFromTheReceiverAndPostedCallsKeepTheirOrder()
    {
        QObject receiver;
        Delivered delivered;
        NumberStream job(&receiver, foldNumber, delivered.onSnapshot(), delivered.onFinished());
        std::atomic<bool> changed = false;
        std::vector<size_t> seenByPosts; // the snapshot size each posted call found handed over
        QVERIFY(job.start({}, [&](NumberStream::Context& context) {
            context.fold(-1);
            context.post([&] { seenByPosts.push_back(delivered.lastSize()); });
            context.fold(-2);
            context.post([&] { seenByPosts.push_back(delivered.lastSize()); });
            waitFor(changed);
        }));
        QTRY_COMPARE(seenByPosts.size(), size_t { 2 });
        QVERIFY(seenByPosts[0] >= 1); // a call posted after a snapshot finds it handed over
        QCOMPARE(seenByPosts[1], size_t { 2 });
        // A change made on the receiver's thread (what a pause button shows), published at once.
        const size_t before = job.update([](std::vector<int>& seen) {
            seen.push_back(100);
            return seen.size() - 1;
        });
        QCOMPARE(before, size_t { 2 });
        QTRY_COMPARE(delivered.lastSize(), size_t { 3 });
        QCOMPARE(delivered.snapshots.back()->back(), 100);
        changed = true;
        QTRY_VERIFY(delivered.finished.has_value());
    }

    void anExceptionInTheWorkEndsItWithAnError()
    {
        QObject receiver;
        Delivered delivered;
        NumberStream job(&receiver, foldNumber, delivered.onSnapshot(), delivered.onFinished());
        QVERIFY(job.start({}, [](NumberStream::Context& context) {
            context.fold(1);
            throw std::runtime_error("runner on fire");
        }));
        QTRY_VERIFY(delivered.finished.has_value());
        QVERIFY(!*delivered.finished);
        QCOMPARE(delivered.finished->error().kind, ErrorKind::Internal);
        QCOMPARE(delivered.finished->error().message, std::string("live job failed: runner on fire"));
        QCOMPARE(delivered.lastSize(), size_t { 1 }); // what it folded before still arrives
    }

    void destroyingALiveJobAbortsAndJoins()
    {
        QObject receiver;
        auto delivered = std::make_shared<Delivered>();
        auto log = std::make_shared<ControlLog>();
        auto folding = std::make_shared<std::atomic<bool>>(false);
        auto workEnded = std::make_shared<std::atomic<bool>>(false);
        auto job
            = std::make_unique<NumberStream>(&receiver, foldNumber, delivered->onSnapshot(), delivered->onFinished());
        QVERIFY(job->start({}, [log, folding, workEnded](NumberStream::Context& context) {
            auto attached = context.attach(log->controls());
            for (int i = 1; !log->stop; ++i) {
                context.fold(i);
                *folding = true;
                std::this_thread::sleep_for(1ms);
            }
            std::this_thread::sleep_for(50ms); // an engine winding down
            *workEnded = true;
        }));
        QTRY_VERIFY(folding->load());
        job.reset(); // aborts, and returns once the work has ended
        QVERIFY(workEnded->load());
        QCOMPARE(log->aborts.load(), 1);
        const size_t handedOver = delivered->snapshots.size();
        QTest::qWait(100); // whatever the worker queued before the end is processed now
        QCOMPARE(delivered->snapshots.size(), handedOver); // nothing after the job is gone
        QVERIFY(!delivered->finished.has_value());
    }
};

QTEST_GUILESS_MAIN(SessionTest)
#include "session_test.moc"
