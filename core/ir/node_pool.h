// Per-thread free lists for the shared nodes of the IR (expressions here, loop-IR statements in core/lower).
//
// Lowering a candidate builds and drops thousands of small nodes; with the general allocator those frees
// overflow its per-thread cache and cost several times the allocation. PoolAllocator<T> (for
// std::allocate_shared) keeps freed blocks of one size on a list of the thread that frees them, up to
// kMaxCached, and hands them out again. Blocks may move between threads (a node freed on another thread
// joins that thread's list): every block is an ordinary operator new block, so that is safe. A thread's list
// is freed when the thread ends; what is freed after that goes straight to operator delete. Under
// AddressSanitizer the pool is off, so use-after-free stays visible.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define TS_NODE_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_NODE_POOL 0
#endif
#endif
#ifndef TS_NODE_POOL
#define TS_NODE_POOL 1
#endif

#include <cstddef>
#include <memory>
#include <new>
#include <utility>

namespace ts::ir {

namespace detail {
    template <size_t Size> class BlockPool {
    public:
        static void* allocate()
        {
#if TS_NODE_POOL
            if (!t_ended) {
                FreeList& list = t_list;
                if (list.head) {
                    Block* b = list.head;
                    list.head = b->next;
                    --list.count;
                    return b;
                }
            }
#endif
            return ::operator new(Size);
        }

        static void deallocate(void* p) noexcept
        {
#if TS_NODE_POOL
            if (!t_ended) {
                FreeList& list = t_list;
                if (list.count < kMaxCached) {
                    auto* b = static_cast<Block*>(p);
                    b->next = list.head;
                    list.head = b;
                    ++list.count;
                    return;
                }
            }
#endif
            ::operator delete(p);
        }

    private:
        static constexpr size_t kMaxCached = 1 << 14;
        struct Block {
            Block* next;
        };
        struct FreeList {
            Block* head = nullptr;
            size_t count = 0;
            ~FreeList()
            {
                t_ended = true;
                while (head) {
                    Block* b = head;
                    head = b->next;
                    ::operator delete(b);
                }
            }
        };
        static_assert(Size >= sizeof(Block));
        static inline thread_local FreeList t_list;
        static inline thread_local bool t_ended = false; // trivially destroyed: readable after t_list is gone
    };
} // namespace detail

template <typename T> struct PoolAllocator {
    using value_type = T;
    PoolAllocator() = default;
    template <typename U> PoolAllocator(const PoolAllocator<U>&) noexcept { }

    T* allocate(size_t n)
    {
        if (n == 1 && alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__)
            return static_cast<T*>(detail::BlockPool<sizeof(T)>::allocate());
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T* p, size_t n) noexcept
    {
        if (n == 1 && alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__)
            detail::BlockPool<sizeof(T)>::deallocate(p);
        else
            std::allocator<T>().deallocate(p, n);
    }
    template <typename U> bool operator==(const PoolAllocator<U>&) const noexcept { return true; }
};

// std::make_shared<T>(args...) with T's block from the pool.
template <typename T, typename... Args> std::shared_ptr<T> makePooled(Args&&... args)
{
    return std::allocate_shared<T>(PoolAllocator<T> {}, std::forward<Args>(args)...);
}

} // namespace ts::ir
