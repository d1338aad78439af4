#include "core/session/streaming_job.h"

#include <QThread>

namespace ts::session::detail {

StreamCore::StreamCore(QObject* receiver, ProgressThrottle::Clock::duration interval)
    : m_receiver(receiver)
    , m_throttle(interval)
{
}

void StreamCore::pause()
{
    std::lock_guard lock(m_mutex);
    m_paused = true;
    if (m_controls.pause)
        m_controls.pause();
}

void StreamCore::resume()
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = false;
        if (m_controls.resume)
            m_controls.resume();
    }
    m_wake.notify_all();
}

void StreamCore::cancel()
{
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        if (m_controls.cancel)
            m_controls.cancel();
    }
    // Unlocked: a stop callback the work registered runs here and may publish.
    m_stop.request_stop();
    m_wake.notify_all();
}

void StreamCore::abort()
{
    {
        std::lock_guard lock(m_mutex);
        m_aborted = true;
        if (m_controls.abort)
            m_controls.abort();
    }
    m_stop.request_stop();
    m_wake.notify_all();
}

void StreamCore::waitWhilePaused()
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return !m_paused.load() || m_stop.stop_requested(); });
}

void StreamCore::attachControls(StreamControls controls)
{
    std::lock_guard lock(m_mutex);
    m_controls = std::move(controls);
    // What was asked before the work had anything to steer, in the order that keeps its meaning: a paused
    // engine that is then cancelled or aborted must still stop.
    if (m_paused && m_controls.pause)
        m_controls.pause();
    if (m_cancelled && m_controls.cancel)
        m_controls.cancel();
    if (m_aborted && m_controls.abort)
        m_controls.abort();
}

void StreamCore::detachControls()
{
    std::lock_guard lock(m_mutex);
    m_controls = {};
}

void StreamCore::startWorker(std::function<void()> body)
{
    assertOnReceiverThread("start a live job");
    m_worker = std::thread(std::move(body));
}

void StreamCore::join()
{
    if (m_worker.joinable())
        m_worker.join();
}

void StreamCore::detachReceiver()
{
    std::lock_guard lock(m_mutex);
    m_receiver = nullptr;
}

bool StreamCore::admitLocked(Publish publish)
{
    switch (publish) {
    case Publish::Skip:
        return false;
    case Publish::WhenDue:
        return m_throttle.admit();
    case Publish::Now:
        m_throttle.restart();
        return true;
    }
    return false;
}

bool StreamCore::postLocked(std::function<void()> call)
{
    if (!m_receiver)
        return false;
    QMetaObject::invokeMethod(m_receiver, std::move(call), Qt::QueuedConnection);
    return true;
}

bool StreamCore::reachesReceiver() const
{
    std::lock_guard lock(m_mutex);
    return m_receiver != nullptr;
}

void StreamCore::assertOnReceiverThread(const char* what) const
{
    std::lock_guard lock(m_mutex);
    if (!m_receiver)
        return; // nothing left to hand over to, so no thread to be on
    TS_ASSERT(QThread::currentThread() == m_receiver->thread()) << "cannot " << what << " off the receiver's thread";
}

} // namespace ts::session::detail
