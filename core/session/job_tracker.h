// JobTracker: runs one kind of job off the receiver's thread and hands back only the newest result.
//
// The job shape the GUI and the session use (after KDAB hotspot's JobTracker):
// - The work takes its inputs by value (capture copies, snapshot settings into a plain struct first); it
//   runs on a worker thread of a QThreadPool and returns Expected<T>. An exception escaping the work (a
//   TS_ASSERT in a release build, a dependency's std::exception) becomes an Internal error value: nothing
//   crosses the thread boundary but values.
// - Every start() opens a new generation and asks the previous job to stop. A result or progress report
//   whose generation is no longer current when it reaches the receiver is dropped, so a fast reselect
//   shows only the last selection's result, never an older one arriving late.
// - Results and progress are delivered by queued invocation on the receiver QObject's thread (asserted
//   there). cancel() stops the current job and delivers nothing for it, not even a notice: the caller
//   that cancels already knows.
// - Progress is throttled to about 10 Hz on the worker side (JobContext, ProgressThrottle).
// - A job may outlive its tracker and its receiver: it then finds the receiver gone and posts nothing.
//   Destroy the tracker on the receiver's thread (make it a member of the receiver).
//
//     m_layoutJob.start([input = std::move(input)](session::JobContext& ctx) { return layoutGraph(input); },
//                       [this](Expected<LayoutResult> layout) { applyLayout(std::move(layout)); });
#pragma once

#include "core/session/job_context.h"
#include "core/support/error.h"

#include <QMetaObject>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <type_traits>

class QObject;
class QThreadPool;

namespace ts::session {

template <typename T> inline constexpr bool kIsExpected = false;
template <typename T> inline constexpr bool kIsExpected<Expected<T>> = true;

namespace detail {
    // The part of a tracker its jobs share: the receiver (null once it is gone) and the current generation.
    class JobChannel {
    public:
        explicit JobChannel(QObject* receiver);

        // Worker side: queues `deliver` on the receiver's thread if `generation` is still current and the
        // receiver alive. Holding the lock while queueing keeps detach() from completing in between.
        bool post(std::uint64_t generation, std::function<void()> deliver);

        // Receiver side.
        std::uint64_t startGeneration();
        void endGeneration(); // cancel: whatever is in flight is stale
        // True if a result of `generation` is to be handed to the receiver; it ends the job.
        bool acceptResult(std::uint64_t generation);
        bool acceptProgress(std::uint64_t generation) const;
        bool isRunning() const { return m_running; }
        std::uint64_t generation() const { return m_generation.load(); }
        void detach();
        void assertOnReceiverThread(const char* what) const;

    private:
        mutable std::mutex m_mutex;
        QObject* m_receiver;
        std::atomic<std::uint64_t> m_generation { 0 };
        bool m_running = false; // touched on the receiver's thread only
    };

    template <typename Result, typename Work> Result runGuarded(Work& work, JobContext& context)
    {
        try {
            return work(context);
        } catch (const std::exception& e) {
            return makeError(ErrorKind::Internal, std::string("job failed: ") + e.what());
        } catch (...) {
            return makeError(ErrorKind::Internal, "job failed with an unknown exception");
        }
    }
} // namespace detail

class JobTracker {
public:
    using ProgressHandler = std::function<void(JobProgress)>;

    // `receiver` is where results are delivered; `pool` runs the work (the global pool when null).
    explicit JobTracker(QObject* receiver, QThreadPool* pool = nullptr);
    ~JobTracker();
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // Starts `work(JobContext&) -> Expected<T>` on a worker thread; `onResult(Expected<T>)` and
    // `onProgress(JobProgress)` run later on the receiver's thread, only if no newer start() or cancel()
    // came in between. Returns the job's generation. Call on the receiver's thread.
    template <typename Work, typename OnResult>
    std::uint64_t start(Work work, OnResult onResult, ProgressHandler onProgress = {});

    // Stops the current job; its result and progress are never delivered.
    void cancel();
    // A job was started and neither delivered nor cancelled yet.
    bool isRunning() const { return m_channel->isRunning(); }
    std::uint64_t generation() const { return m_channel->generation(); }

private:
    std::uint64_t begin(); // stops the previous job, opens a generation
    void submit(std::function<void()> task);

    std::shared_ptr<detail::JobChannel> m_channel;
    QThreadPool* m_pool;
    std::stop_source m_stop;
    QMetaObject::Connection m_receiverGone;
};

template <typename Work, typename OnResult>
std::uint64_t JobTracker::start(Work work, OnResult onResult, ProgressHandler onProgress)
{
    using Result = std::invoke_result_t<Work&, JobContext&>;
    static_assert(kIsExpected<Result>,
        "a job returns Expected<T>, so that a failure on the worker reaches the receiver as a value");
    static_assert(std::is_invocable_v<OnResult&, Result>, "onResult must take the job's Expected<T>");

    const std::uint64_t generation = begin();
    // Shared pointers keep the closures copyable (std::function) for move-only work and results.
    auto channel = m_channel;
    auto sharedWork = std::make_shared<Work>(std::move(work));
    auto sharedOnResult = std::make_shared<OnResult>(std::move(onResult));
    auto sharedOnProgress = onProgress ? std::make_shared<ProgressHandler>(std::move(onProgress)) : nullptr;
    submit([channel, generation, stop = m_stop.get_token(), sharedWork, sharedOnResult, sharedOnProgress] {
        if (stop.stop_requested())
            return; // superseded while queued: do not start the work at all
        JobContext::ProgressSink sink;
        if (sharedOnProgress) {
            sink = [channel, generation, sharedOnProgress](JobProgress progress) {
                auto report = std::make_shared<JobProgress>(std::move(progress));
                channel->post(generation, [channel, generation, sharedOnProgress, report] {
                    if (channel->acceptProgress(generation))
                        (*sharedOnProgress)(std::move(*report));
                });
            };
        }
        JobContext context(stop, std::move(sink));
        auto result = std::make_shared<Result>(detail::runGuarded<Result>(*sharedWork, context));
        if (stop.stop_requested())
            return;
        channel->post(generation, [channel, generation, sharedOnResult, result] {
            if (channel->acceptResult(generation))
                (*sharedOnResult)(std::move(*result));
        });
    });
    return generation;
}

} // namespace ts::session
