#include "core/codegen/runtime.h"

#include "core/support/thread_pool.h"

#include <cstdlib>
#include <memory>
#include <mutex>

namespace ts::codegen {

namespace {
    std::mutex g_poolMutex;
    std::unique_ptr<ThreadPool> g_pool;
    int g_threads = 0;

    ThreadPool& pool()
    {
        std::lock_guard lock(g_poolMutex);
        if (!g_pool)
            g_pool = std::make_unique<ThreadPool>(g_threads);
        return *g_pool;
    }
} // namespace

void setKernelThreads(int threads)
{
    std::lock_guard lock(g_poolMutex);
    if (threads == g_threads && g_pool)
        return;
    g_threads = threads;
    g_pool.reset();
}

int kernelThreads() { return pool().numThreads(); }

} // namespace ts::codegen

extern "C" void ts_parallel_for(void (*body)(void*, int64_t, int64_t), void* closure, int64_t n)
{
    ts::codegen::pool().parallelFor(n, [&](int64_t begin, int64_t end) { body(closure, begin, end); });
}

extern "C" void* ts_alloc(int64_t bytes)
{
    const size_t size = (static_cast<size_t>(bytes) + 63) / 64 * 64;
    return std::aligned_alloc(64, size == 0 ? 64 : size);
}

extern "C" void ts_free(void* ptr) { std::free(ptr); }
