// A persistent pool of worker threads with a blocking parallelFor.
//
// Generated kernels call parallelFor for loops annotated `parallel`, so starting a loop must be cheap: the
// workers stay alive, spin for a short while after each loop (a kernel's next parallel loop, or the next
// timed run, usually starts within microseconds; waking a sleeping thread costs tens of microseconds, more
// under a hypervisor) and then sleep on a condition variable. The calling thread takes part in the work and
// spins the same way for the workers to finish. Nested parallelFor calls from inside a worker run serially (as TVM's
// runtime does) instead of deadlocking. One parallel loop runs at a time per pool; concurrent callers queue on a mutex.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ts {

class ThreadPool {
public:
    // numThreads includes the calling thread; 0 means std::thread::hardware_concurrency().
    explicit ThreadPool(int numThreads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int numThreads() const { return static_cast<int>(m_workers.size()) + 1; }

    // Calls body(begin, end) on disjoint chunks that together cover [0, n). Static partition, one chunk per
    // thread, so a loop's iteration-to-thread mapping is deterministic.
    void parallelFor(int64_t n, const std::function<void(int64_t begin, int64_t end)>& body);

    // The process-wide pool used by generated code.
    static ThreadPool& global();

private:
    void workerLoop(int index);

    std::vector<std::thread> m_workers;
    std::mutex m_runMutex; // one parallel loop at a time
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    const std::function<void(int64_t, int64_t)>* m_body = nullptr;
    int64_t m_n = 0;
    std::atomic<uint64_t> m_generation { 0 }; // written under m_mutex, read while spinning
    std::atomic<int> m_pending { 0 };
    bool m_stop = false;
};

} // namespace ts
