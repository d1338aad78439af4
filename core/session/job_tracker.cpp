#include "core/session/job_tracker.h"

#include "core/support/assert.h"

#include <QObject>
#include <QThread>
#include <QThreadPool>

namespace ts::session {

namespace detail {

    JobChannel::JobChannel(QObject* receiver)
        : m_receiver(receiver)
    {
    }

    bool JobChannel::post(std::uint64_t generation, std::function<void()> deliver)
    {
        std::lock_guard lock(m_mutex);
        if (!m_receiver || generation != m_generation.load())
            return false;
        QMetaObject::invokeMethod(m_receiver, std::move(deliver), Qt::QueuedConnection);
        return true;
    }

    std::uint64_t JobChannel::startGeneration()
    {
        {
            std::lock_guard lock(m_mutex);
            TS_ASSERT(m_receiver) << "cannot start a job: the receiver is gone";
        }
        assertOnReceiverThread("start a job");
        m_running = true;
        return ++m_generation;
    }

    void JobChannel::endGeneration()
    {
        m_running = false;
        ++m_generation;
    }

    bool JobChannel::acceptResult(std::uint64_t generation)
    {
        if (!acceptProgress(generation))
            return false;
        m_running = false;
        return true;
    }

    bool JobChannel::acceptProgress(std::uint64_t generation) const
    {
        std::lock_guard lock(m_mutex);
        if (!m_receiver)
            return false; // the tracker is gone, the receiver still here
        TS_ASSERT(QThread::currentThread() == m_receiver->thread())
            << "a job's result or progress reached a thread other than its receiver's";
        return generation == m_generation.load();
    }

    void JobChannel::detach()
    {
        std::lock_guard lock(m_mutex);
        m_receiver = nullptr;
        ++m_generation;
    }

    void JobChannel::assertOnReceiverThread(const char* what) const
    {
        std::lock_guard lock(m_mutex);
        if (!m_receiver)
            return; // nothing left to deliver to, so no thread to be on
        TS_ASSERT(QThread::currentThread() == m_receiver->thread())
            << "cannot " << what << " outside the receiver's thread";
    }

} // namespace detail

JobTracker::JobTracker(QObject* receiver, QThreadPool* pool)
    : m_channel(std::make_shared<detail::JobChannel>(receiver))
    , m_pool(pool ? pool : QThreadPool::globalInstance())
{
    TS_ASSERT(receiver) << "a job tracker needs a receiver";
    // A tracker that is not a member of its receiver may outlive it: stop posting once it is gone.
    std::weak_ptr<detail::JobChannel> weak = m_channel;
    m_receiverGone = QObject::connect(receiver, &QObject::destroyed, [weak] {
        if (auto channel = weak.lock())
            channel->detach();
    });
}

JobTracker::~JobTracker()
{
    m_stop.request_stop();
    QObject::disconnect(m_receiverGone);
    m_channel->detach();
}

std::uint64_t JobTracker::begin()
{
    m_stop.request_stop();
    m_stop = std::stop_source();
    return m_channel->startGeneration();
}

void JobTracker::submit(std::function<void()> task) { m_pool->start(std::move(task)); }

void JobTracker::cancel()
{
    m_channel->assertOnReceiverThread("cancel a job");
    m_stop.request_stop();
    m_channel->endGeneration();
}

} // namespace ts::session
