#include "core/support/thread_pool.h"

#include <algorithm>
#include <chrono>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ts {

namespace {
    thread_local bool t_insideParallelFor = false;

    // How long a thread polls before it blocks (TVM's runtime and OpenMP runtimes spin the same way).
    constexpr auto kSpin = std::chrono::microseconds(200);

    // Polls `ready` until it is true or kSpin has passed; true when it became true.
    template <typename Ready> bool spinUntil(Ready ready)
    {
        const auto deadline = std::chrono::steady_clock::now() + kSpin;
        for (int i = 1;; ++i) {
            if (ready())
                return true;
#if defined(__x86_64__) || defined(__i386__)
            _mm_pause();
#endif
            if (i % 64 == 0 && std::chrono::steady_clock::now() > deadline)
                return false;
        }
    }

    std::pair<int64_t, int64_t> chunkOf(int64_t n, int chunks, int index)
    {
        const int64_t base = n / chunks;
        const int64_t extra = n % chunks;
        const int64_t begin = index * base + std::min<int64_t>(index, extra);
        return { begin, begin + base + (index < extra ? 1 : 0) };
    }
} // namespace

ThreadPool::ThreadPool(int numThreads)
{
    if (numThreads <= 0)
        numThreads = std::max(1u, std::thread::hardware_concurrency());
    for (int i = 1; i < numThreads; ++i)
        m_workers.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& worker : m_workers)
        worker.join();
}

ThreadPool& ThreadPool::global()
{
    static ThreadPool pool;
    return pool;
}

void ThreadPool::parallelFor(int64_t n, const std::function<void(int64_t, int64_t)>& body)
{
    if (n <= 0)
        return;
    if (m_workers.empty() || n == 1 || t_insideParallelFor) {
        body(0, n);
        return;
    }
    std::lock_guard run(m_runMutex);
    {
        std::lock_guard lock(m_mutex);
        m_body = &body;
        m_n = n;
        m_pending.store(static_cast<int>(m_workers.size()));
        m_generation.fetch_add(1);
    }
    m_wake.notify_all();

    t_insideParallelFor = true;
    auto [begin, end] = chunkOf(n, numThreads(), 0);
    if (begin < end)
        body(begin, end);
    t_insideParallelFor = false;

    spinUntil([this] { return m_pending.load(std::memory_order_acquire) == 0; });
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [this] { return m_pending.load() == 0; });
    m_body = nullptr;
}

void ThreadPool::workerLoop(int index)
{
    t_insideParallelFor = true;
    uint64_t seen = 0;
    while (true) {
        const std::function<void(int64_t, int64_t)>* body;
        int64_t n;
        spinUntil([&] { return m_generation.load(std::memory_order_acquire) != seen; });
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation.load() != seen; });
            if (m_stop)
                return;
            seen = m_generation;
            body = m_body;
            n = m_n;
        }
        auto [begin, end] = chunkOf(n, numThreads(), index);
        if (begin < end)
            (*body)(begin, end);
        {
            std::lock_guard lock(m_mutex);
            if (m_pending.fetch_sub(1) == 1)
                m_done.notify_one();
        }
    }
}

} // namespace ts
