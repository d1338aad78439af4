#include "core/measure/build_pool.h"

#include "core/support/assert.h"

#include <algorithm>

namespace ts::measure {

BuildPool::BuildPool(int threads)
    : m_size(std::max(1, threads))
{
}

BuildPool::~BuildPool()
{
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_jobs.clear();
        threads.swap(m_threads);
    }
    m_wake.notify_all();
    for (std::thread& thread : threads)
        thread.join();
}

void BuildPool::submit(std::function<void()> job)
{
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
        spawnIfNeeded();
    }
    m_wake.notify_all(); // not one: the thread woken might be one about to retire
}

void BuildPool::lend()
{
    std::lock_guard lock(m_mutex);
    ++m_loans;
    spawnIfNeeded();
}

void BuildPool::endLoan()
{
    {
        std::lock_guard lock(m_mutex);
        TS_ASSERT(m_loans > 0) << "BuildPool::endLoan without a loan";
        --m_loans;
    }
    m_wake.notify_all(); // an idle thread retires
}

int BuildPool::threads() const
{
    std::lock_guard lock(m_mutex);
    return m_live;
}

void BuildPool::spawnIfNeeded()
{
    reapExited();
    // An idle thread will take the job; otherwise start one if the pool (with its loans) has room.
    const int waiting = static_cast<int>(m_jobs.size());
    while (m_idle < waiting && m_live < m_size + m_loans && !m_stop) {
        ++m_live;
        ++m_idle;
        m_threads.emplace_back([this] { work(); });
    }
}

void BuildPool::reapExited()
{
    for (std::thread::id id : m_exited) {
        auto it
            = std::find_if(m_threads.begin(), m_threads.end(), [&](const std::thread& t) { return t.get_id() == id; });
        TS_ASSERT(it != m_threads.end()) << "BuildPool: an exited thread is not ours";
        it->join(); // it has left work() and only returns now
        m_threads.erase(it);
    }
    m_exited.clear();
}

void BuildPool::work()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_jobs.empty() || m_live > m_size + m_loans; });
        if (m_stop)
            return;
        if (m_live > m_size + m_loans) {
            // A loan ended: one thread too many. Leave; the next submit or lend joins this thread.
            --m_live;
            --m_idle;
            m_exited.push_back(std::this_thread::get_id());
            return;
        }
        std::function<void()> job = std::move(m_jobs.front());
        m_jobs.pop_front();
        --m_idle;
        lock.unlock();
        job();
        job = nullptr; // release what the job owns before waiting again
        lock.lock();
        ++m_idle;
    }
}

} // namespace ts::measure
