// The measurer's build threads: a small pool that owns its threads and joins them all when destroyed.
//
// A build cannot be interrupted (LLVM has no cancel), so a build past its timeout is abandoned, not killed:
// its job runs to the end on its thread and its result is thrown away by whoever gave up on it. So that
// the builds behind it are not held up, the one who abandons a running job lends the pool one more thread
// (lend), and the job ends the loan when it finishes (endLoan); the pool then retires a thread. Jobs must
// own what they touch (shared_ptr to their inputs): they may run after the caller has stopped waiting.
// The pool itself outlives every job, since its destructor joins them.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ts::measure {

class BuildPool {
public:
    // `threads` builds at a time (>= 1); threads start when jobs need them.
    explicit BuildPool(int threads);
    // Drops the jobs not started and joins every thread, waiting for the jobs running to end.
    ~BuildPool();
    BuildPool(const BuildPool&) = delete;
    BuildPool& operator=(const BuildPool&) = delete;

    // Jobs start in submission order.
    void submit(std::function<void()> job);
    // One more thread until endLoan: call it when giving up on a running job, and have that job call
    // endLoan when it finishes.
    void lend();
    void endLoan();

    // Threads alive now (for tests).
    int threads() const;

private:
    void work();
    void spawnIfNeeded(); // m_mutex held
    void reapExited(); // m_mutex held

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::function<void()>> m_jobs;
    std::vector<std::thread> m_threads;
    std::vector<std::thread::id> m_exited; // threads that retired and are about to end; joined by reapExited
    int m_size;
    int m_loans = 0;
    int m_live = 0;
    int m_idle = 0;
    bool m_stop = false;
};

} // namespace ts::measure
