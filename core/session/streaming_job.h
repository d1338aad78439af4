// StreamingJob: live work off the receiver's thread, shown while it runs (a tuning session, a race, a sweep).
//
// The one shape of every live stream in the window (STYLE, "Threads"; JobTracker is the shape of one-shot jobs):
// - The work runs on a thread of its own (a stream may run for hours; it does not hold a pool thread). It takes its
//   inputs by value and hands each event it produces to StreamContext::fold() as it happens.
// - The fold function folds the event into the job's State, on the worker, under the job's lock, and says how soon
//   the change is to be seen: Publish::Now (a phase, a round's end, the end: what a status line says),
//   Publish::WhenDue (a record, a progress tick: at most one publication per 100 ms, ProgressThrottle) or
//   Publish::Skip.
// - Publishing makes an immutable snapshot of the state (the publisher: State -> shared_ptr<const Snapshot>) and
//   queues one call to the receiver's thread unless one is queued already; that call hands over whatever snapshot
//   is newest when it runs, so a slow receiver skips the ones in between and never falls behind. An urgent
//   publication starts the next interval, so the rate stays about 10 Hz plus the urgent events.
// - pause(), resume(), cancel() and abort() reach the work two ways: as flags it may poll (stopRequested,
//   stopToken, waitWhilePaused) and through the controls it attaches once it has an engine to steer (a
//   TuningSession, a Race); an attached control is first told what was asked before it came.
// - When the work returns, its state is published a last time and, once that snapshot is handed over, onFinished
//   runs on the receiver's thread. An exception escaping the work reaches onFinished as an Internal error: nothing
//   but values crosses the thread boundary.
// - Destroying the job while it runs aborts the work and joins its thread; nothing is handed over after that.
//   Make the job a member of its receiver, used and destroyed on the receiver's thread.
//
// How to add a live job:
//   1. An event type the work produces and a State the events fold into (often the snapshot type itself, which is
//      then published as copies; otherwise pass a publisher).
//   2. A fold function `Publish(State&, const Event&)`: cheap, no I/O, no call back into the job.
//   3. A StreamingJob<Event, State, Snapshot> member of the receiver, built with the fold and the two handlers.
//   4. start(initial state, work): the work folds its events, polls or attaches its controls, and returns.
//
//     m_sweep.start(SweepState { points.size() }, [points](SweepJob::Context& context) {
//         for (const SweepPoint& point : points) {
//             context.waitWhilePaused();
//             if (context.stopRequested())
//                 return;
//             context.fold(measurePoint(point));
//         }
//     });
#pragma once

#include "core/session/progress_throttle.h"
#include "core/support/assert.h"
#include "core/support/error.h"

#include <QMetaObject>
#include <QObject>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>
#include <type_traits>
#include <utility>

namespace ts::session {

// How soon a change to a streaming job's state is to reach the receiver.
enum class Publish {
    Skip, // not for this change (nothing shown changed, or a later publication follows)
    WhenDue, // with the next publication the throttle lets through (at most one per 100 ms)
    Now, // at once (a phase, a round's end, the end; a user's pause or cancel)
};

// What a streaming job's work lets it steer; any may be empty. They run under the job's lock, on the receiver's
// thread (or the worker's, when attached): quick calls that set a flag or wake a thread, never a call back into
// the job.
struct StreamControls {
    std::function<void()> pause;
    std::function<void()> resume;
    std::function<void()> cancel; // stop at the next convenient point, keeping what is done
    std::function<void()> abort; // stop now; what is in flight may be lost
};

namespace detail {
    // The untyped part of one run of a streaming job (one start()), shared by the job, its worker thread and
    // the calls queued to the receiver. Its mutex guards the typed part's state too.
    class StreamCore {
    public:
        StreamCore(QObject* receiver, ProgressThrottle::Clock::duration interval);
        StreamCore(const StreamCore&) = delete;
        StreamCore& operator=(const StreamCore&) = delete;

        // Requests, from the receiver's thread: set the flag, wake a paused wait, tell the attached controls.
        void pause();
        void resume();
        void cancel();
        void abort();
        bool pauseRequested() const { return m_paused.load(); }
        bool cancelRequested() const { return m_cancelled.load(); }
        bool abortRequested() const { return m_aborted.load(); }
        bool stopRequested() const { return m_stop.stop_requested(); }
        std::stop_token stopToken() const { return m_stop.get_token(); }
        // Worker: blocks while paused, until resumed, cancelled or aborted.
        void waitWhilePaused();

        // Worker: the controls receive the requests made so far at once, then every later one, until detached.
        void attachControls(StreamControls controls);
        void detachControls();

        // The worker thread: started by the job, joined on the receiver's thread (at the end, or by the job).
        void startWorker(std::function<void()> body);
        void join();
        // The job or its receiver is gone: nothing more is queued or handed over.
        void detachReceiver();
        bool running() const { return m_running; } // started and not yet finished (receiver's thread)

    protected:
        // m_mutex held. Whether a change published with `publish` is to go out now (the throttle's verdict).
        bool admitLocked(Publish publish);
        // m_mutex held. Queues `call` on the receiver's thread; false when the receiver is gone.
        bool postLocked(std::function<void()> call);
        // Receiver's thread: whether the job and its receiver are still there.
        bool reachesReceiver() const;
        void assertOnReceiverThread(const char* what) const;
        void setRunning(bool running) { m_running = running; }

        mutable std::mutex m_mutex;
        bool m_posted = false; // a call handing over the newest snapshot is queued (m_mutex)

    private:
        QObject* m_receiver; // null once detached (m_mutex)
        ProgressThrottle m_throttle; // m_mutex
        StreamControls m_controls; // m_mutex
        std::atomic<bool> m_paused { false };
        std::atomic<bool> m_cancelled { false };
        std::atomic<bool> m_aborted { false };
        std::stop_source m_stop;
        std::condition_variable m_wake; // waitWhilePaused
        std::thread m_worker;
        bool m_running = true; // receiver's thread only
    };

    template <typename Event, typename State, typename Snapshot>
    class StreamRun : public StreamCore, public std::enable_shared_from_this<StreamRun<Event, State, Snapshot>> {
    public:
        using Fold = std::function<Publish(State&, const Event&)>;
        using Publisher = std::function<std::shared_ptr<const Snapshot>(const State&)>;
        using SnapshotHandler = std::function<void(std::shared_ptr<const Snapshot>)>;
        using FinishHandler = std::function<void(Expected<void>)>;

        StreamRun(QObject* receiver, ProgressThrottle::Clock::duration interval, State initial, Fold fold,
            Publisher publisher, SnapshotHandler onSnapshot, FinishHandler onFinished)
            : StreamCore(receiver, interval)
            , m_state(std::move(initial))
            , m_fold(std::move(fold))
            , m_publisher(std::move(publisher))
            , m_onSnapshot(std::move(onSnapshot))
            , m_onFinished(std::move(onFinished))
        {
        }

        // Worker.
        void fold(const Event& event)
        {
            std::lock_guard lock(m_mutex);
            publishLocked(m_fold(m_state, event));
        }

        // Either thread.
        template <typename Change> std::invoke_result_t<Change&, State&> update(Change& change, Publish publish)
        {
            using Result = std::invoke_result_t<Change&, State&>;
            std::lock_guard lock(m_mutex);
            if constexpr (std::is_void_v<Result>) {
                change(m_state);
                publishLocked(publish);
            } else {
                Result result = change(m_state);
                publishLocked(publish);
                return result;
            }
        }

        // Worker: `call` runs on the receiver's thread after every snapshot queued before it.
        void post(std::function<void()> call)
        {
            std::lock_guard lock(m_mutex);
            postLocked([self = this->shared_from_this(), call = std::move(call)] {
                if (self->reachesReceiver())
                    call();
            });
        }

        // Worker: runs the work, then publishes the end and queues finish().
        template <typename Work, typename Context> void runWork(Work& work, Context& context)
        {
            Expected<void> outcome;
            try {
                work(context);
            } catch (const std::exception& e) {
                outcome = makeError(ErrorKind::Internal, std::string("live job failed: ") + e.what());
            } catch (...) {
                outcome = makeError(ErrorKind::Internal, "live job failed with an unknown exception");
            }
            detachControls(); // the work's engine is gone or done
            std::lock_guard lock(m_mutex);
            publishLocked(Publish::Now);
            postLocked([self = this->shared_from_this(), outcome] { self->finish(outcome); });
        }

        // Receiver's thread: the newest snapshot handed over (kept after the end).
        std::shared_ptr<const Snapshot> delivered() const { return m_delivered; }

    private:
        void publishLocked(Publish publish)
        {
            if (!admitLocked(publish))
                return;
            std::shared_ptr<const Snapshot> snapshot = m_publisher(m_state);
            if (!snapshot)
                return; // nothing to show yet (the work has not built what its snapshot needs)
            m_latest = std::move(snapshot);
            if (!m_posted)
                m_posted = postLocked([self = this->shared_from_this()] { self->deliver(); });
        }

        // Receiver's thread: hands over the newest snapshot unless it was handed over already.
        void deliver()
        {
            std::shared_ptr<const Snapshot> latest;
            {
                std::lock_guard lock(m_mutex);
                m_posted = false;
                latest = m_latest;
            }
            if (!reachesReceiver())
                return;
            assertOnReceiverThread("hand over a snapshot");
            if (!latest || latest == m_delivered)
                return;
            m_delivered = std::move(latest);
            if (m_onSnapshot) {
                const SnapshotHandler handler = m_onSnapshot; // the handler may destroy the job
                handler(m_delivered);
            }
        }

        // Receiver's thread: the work has returned.
        void finish(Expected<void> outcome)
        {
            if (!reachesReceiver())
                return;
            join();
            deliver();
            setRunning(false);
            detachReceiver(); // nothing of this run is handed over after its end
            if (const FinishHandler handler = std::move(m_onFinished))
                handler(std::move(outcome)); // may start the next run, or destroy the job
        }

        State m_state; // m_mutex
        Fold m_fold;
        Publisher m_publisher;
        SnapshotHandler m_onSnapshot;
        FinishHandler m_onFinished;
        std::shared_ptr<const Snapshot> m_latest; // m_mutex
        std::shared_ptr<const Snapshot> m_delivered; // receiver's thread
    };
} // namespace detail

// Detaches a streaming job's controls when it goes out of scope (StreamContext::attach): before the engine they
// steer is destroyed, also when the work leaves by an exception.
class [[nodiscard]] StreamAttachment {
public:
    explicit StreamAttachment(std::shared_ptr<detail::StreamCore> core)
        : m_core(std::move(core))
    {
    }
    StreamAttachment(StreamAttachment&& other) noexcept = default;
    StreamAttachment& operator=(StreamAttachment&&) = delete;
    ~StreamAttachment()
    {
        if (m_core)
            m_core->detachControls();
    }

private:
    std::shared_ptr<detail::StreamCore> m_core;
};

// What a streaming job's work sees on its worker thread.
template <typename Event, typename State, typename Snapshot> class StreamContext {
public:
    explicit StreamContext(std::shared_ptr<detail::StreamRun<Event, State, Snapshot>> run)
        : m_run(std::move(run))
    {
    }

    // Folds an event into the state; publishes as the fold says.
    void fold(const Event& event) { m_run->fold(event); }
    // Changes the state some other way (builds it, records an error) under the job's lock; returns what `change`
    // returns. `change` must not call back into the job.
    template <typename Change> auto update(Change&& change, Publish publish = Publish::Now)
    {
        return m_run->update(change, publish);
    }
    // The controls get the requests made so far at once, then every later one, until the attachment goes.
    StreamAttachment attach(StreamControls controls)
    {
        m_run->attachControls(std::move(controls));
        return StreamAttachment(m_run);
    }
    // Runs `call` on the receiver's thread (a signal beside the snapshots), after every snapshot published
    // before it, and only while the job is still there.
    void post(std::function<void()> call) { m_run->post(std::move(call)); }

    bool pauseRequested() const { return m_run->pauseRequested(); }
    bool cancelRequested() const { return m_run->cancelRequested(); }
    bool abortRequested() const { return m_run->abortRequested(); }
    // Cancelled or aborted.
    bool stopRequested() const { return m_run->stopRequested(); }
    // For work that passes a stop token on (a measurer, a search loop); requested on cancel and on abort.
    std::stop_token stopToken() const { return m_run->stopToken(); }
    // For work without a pause of its own: blocks while paused, until resumed, cancelled or aborted.
    void waitWhilePaused() { m_run->waitWhilePaused(); }

private:
    std::shared_ptr<detail::StreamRun<Event, State, Snapshot>> m_run;
};

template <typename Event, typename State, typename Snapshot = State> class StreamingJob {
public:
    using Context = StreamContext<Event, State, Snapshot>;
    using Run = detail::StreamRun<Event, State, Snapshot>;
    using Fold = typename Run::Fold;
    using Publisher = typename Run::Publisher;
    using SnapshotHandler = typename Run::SnapshotHandler;
    using FinishHandler = typename Run::FinishHandler;

    // `fold` runs on the worker; `onSnapshot` (each newer snapshot) and `onFinished` (once per run, after its last
    // snapshot) on the receiver's thread. `publish` makes the snapshot of a state; when Snapshot is State it may be
    // left out, and the state is published as copies.
    StreamingJob(
        QObject* receiver, Fold fold, SnapshotHandler onSnapshot, FinishHandler onFinished = {}, Publisher publish = {})
        : m_receiver(receiver)
        , m_fold(std::move(fold))
        , m_publish(std::move(publish))
        , m_onSnapshot(std::move(onSnapshot))
        , m_onFinished(std::move(onFinished))
    {
        TS_ASSERT(receiver) << "a streaming job needs a receiver";
        TS_ASSERT(m_fold) << "a streaming job needs a fold function";
        if constexpr (std::is_same_v<State, Snapshot>) {
            if (!m_publish)
                m_publish = [](const State& state) { return std::make_shared<const Snapshot>(state); };
        } else {
            TS_ASSERT(m_publish) << "a streaming job whose snapshot is not its state needs a publisher";
        }
        // A job that is not a member of its receiver may outlive it: nothing is handed over once it is gone.
        m_receiverGone = QObject::connect(receiver, &QObject::destroyed, [this] {
            m_receiver = nullptr;
            if (m_run)
                m_run->detachReceiver();
        });
    }

    ~StreamingJob()
    {
        QObject::disconnect(m_receiverGone);
        if (!m_run)
            return;
        m_run->detachReceiver();
        if (m_run->running())
            m_run->abort();
        m_run->join();
    }

    StreamingJob(const StreamingJob&) = delete;
    StreamingJob& operator=(const StreamingJob&) = delete;

    // Starts `work(Context&)` on a thread of its own with `initial` as the state; false (and nothing starts)
    // while a run is live. Call on the receiver's thread; also from onFinished.
    template <typename Work> bool start(State initial, Work work)
    {
        static_assert(std::is_invocable_v<Work&, Context&>, "the work takes the job's Context&");
        TS_ASSERT(m_receiver) << "cannot start a live job: its receiver is gone";
        if (isRunning())
            return false;
        if (m_run)
            m_run->join(); // ended already: returns at once
        m_run = std::make_shared<Run>(
            m_receiver, m_interval, std::move(initial), m_fold, m_publish, m_onSnapshot, m_onFinished);
        m_run->startWorker([run = m_run, work = std::move(work)]() mutable {
            Context context(run);
            run->runWork(work, context);
        });
        return true;
    }

    // Started, and onFinished not yet called.
    bool isRunning() const { return m_run && m_run->running(); }
    // Running, and paused (the work holds once it sees it).
    bool isPaused() const { return isRunning() && m_run->pauseRequested(); }
    bool cancelRequested() const { return isRunning() && m_run->cancelRequested(); }

    // Requests for the work; nothing when no run is live. Receiver's thread.
    void pause()
    {
        if (isRunning())
            m_run->pause();
    }
    void resume()
    {
        if (isRunning())
            m_run->resume();
    }
    // The work stops at its next convenient point and keeps what it did (a paused one is woken to see it).
    void cancel()
    {
        if (isRunning())
            m_run->cancel();
    }
    void abort()
    {
        if (isRunning())
            m_run->abort();
    }

    // Changes the live run's state from the receiver's thread (what a user's pause or cancel shows) under the
    // job's lock, and publishes as asked; returns what `change` returns. Only while running.
    template <typename Change> auto update(Change&& change, Publish publish = Publish::Now)
    {
        TS_ASSERT(isRunning()) << "a live job's state changes only while it runs";
        return m_run->update(change, publish);
    }

    // The least time between two publications of WhenDue changes, from the next start() on (100 ms by default:
    // about 10 Hz; a test may stretch it so that only urgent changes go out).
    void setPublishInterval(ProgressThrottle::Clock::duration interval) { m_interval = interval; }

    // The newest snapshot handed over (the last one after the end); null before the first.
    std::shared_ptr<const Snapshot> snapshot() const { return m_run ? m_run->delivered() : nullptr; }

private:
    QObject* m_receiver;
    Fold m_fold;
    Publisher m_publish;
    SnapshotHandler m_onSnapshot;
    FinishHandler m_onFinished;
    ProgressThrottle::Clock::duration m_interval = ProgressThrottle::kDefaultInterval;
    std::shared_ptr<Run> m_run;
    QMetaObject::Connection m_receiverGone;
};

} // namespace ts::session
