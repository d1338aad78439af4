#include "core/codegen/runtime.h"

#include "core/support/thread_pool.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

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

namespace {
// Each block starts with a 64-byte header holding its size; the caller gets the 64-byte-aligned bytes after.
constexpr size_t kHeader = 64;
constexpr size_t kMaxCachedBlocks = 8;
constexpr size_t kMaxCachedBytes = size_t { 256 } << 20;

class WorkspaceCache {
public:
    ~WorkspaceCache()
    {
        for (void* block : m_blocks)
            std::free(block);
    }

    // A cached block of exactly `size` bytes, or null.
    void* take(size_t size)
    {
        for (size_t i = 0; i < m_blocks.size(); ++i)
            if (sizeOf(m_blocks[i]) == size) {
                void* block = m_blocks[i];
                m_blocks.erase(m_blocks.begin() + static_cast<std::ptrdiff_t>(i));
                m_bytes -= size;
                return block;
            }
        return nullptr;
    }

    // Keeps the block for reuse, evicting the oldest beyond the caps.
    void give(void* block)
    {
        m_blocks.push_back(block);
        m_bytes += sizeOf(block);
        while (m_blocks.size() > kMaxCachedBlocks || m_bytes > kMaxCachedBytes) {
            m_bytes -= sizeOf(m_blocks.front());
            std::free(m_blocks.front());
            m_blocks.erase(m_blocks.begin());
        }
    }

    static size_t sizeOf(void* block) { return *static_cast<size_t*>(block); }

private:
    std::vector<void*> m_blocks;
    size_t m_bytes = 0;
};

thread_local WorkspaceCache t_workspace;
} // namespace

extern "C" void* ts_alloc(int64_t bytes)
{
    const size_t size = (static_cast<size_t>(std::max<int64_t>(bytes, 1)) + 63) / 64 * 64 + kHeader;
    void* block = t_workspace.take(size);
    if (!block) {
        block = std::aligned_alloc(64, size);
        if (!block)
            return nullptr;
        *static_cast<size_t*>(block) = size;
    }
    return static_cast<char*>(block) + kHeader;
}

extern "C" void ts_free(void* ptr)
{
    if (ptr)
        t_workspace.give(static_cast<char*>(ptr) - kHeader);
}
