#include "core/lower/gpu_kernels.h"

#include "core/lower/stmt_visitor.h"

#include <algorithm>
#include <map>

namespace ts::lower {

namespace {
    Error limitError(const std::string& kernel, const std::string& why)
    {
        return makeError(ErrorKind::InvalidArgument, "GPU kernel " + kernel + ": " + why);
    }

    // One pass over a kernel: its launch extents and memory, then (second pass) the checks that need them.
    class KernelScan : public StmtVisitor {
    public:
        KernelScan(GpuKernel& kernel, const target::Target& target)
            : m_kernel(kernel)
            , m_target(target)
        {
        }

        std::vector<std::string> problems;
        bool checking = false; // second pass: barriers against the launch extents

    private:
        void visitFor(const StmtNode& s) override
        {
            if (s.forKind == ForKind::Vectorized) {
                const int bytes = storeBytes(s.body);
                if (!checking && s.extent * bytes > m_target.vectorBytes)
                    problems.push_back("vectorized loop " + s.var->name + " moves " + std::to_string(s.extent * bytes)
                        + " bytes at once, more than the device's " + std::to_string(m_target.vectorBytes));
            }
            if (s.forKind != ForKind::ThreadBinding) {
                StmtVisitor::visitFor(s);
                return;
            }
            const GpuThreadTag tag = threadTagOf(s.threadTag);
            if (tag.dim < 0) { // vthread
                if (!checking && m_target.maxVThreadExtent > 0 && s.extent > m_target.maxVThreadExtent)
                    problems.push_back("vthread " + s.var->name + " has extent " + std::to_string(s.extent)
                        + ", more than the device's " + std::to_string(m_target.maxVThreadExtent));
                StmtVisitor::visitFor(s);
                return;
            }
            auto& extents = tag.thread ? m_kernel.block : m_kernel.grid;
            const auto d = static_cast<size_t>(tag.dim);
            if (!checking)
                extents[d] = std::max(extents[d], s.extent);
            const bool narrower = checking && tag.thread && s.extent < m_kernel.block[d];
            m_divergent += narrower ? 1 : 0;
            m_threadLoops.push_back(&s);
            StmtVisitor::visitFor(s);
            m_threadLoops.pop_back();
            m_divergent -= narrower ? 1 : 0;
        }

        void visitAllocate(const StmtNode& s) override
        {
            const int64_t bytes = s.buffer->allocatedElements() * ir::bytesOf(s.buffer->dtype);
            if (!checking) {
                if (s.buffer->scope == "shared")
                    m_kernel.sharedBytes += bytes;
                else if (s.buffer->scope == "local")
                    m_kernel.localBytes += bytes;
                else
                    problems.push_back("buffer " + s.buffer->name + " is allocated in global memory inside the kernel");
            }
            StmtVisitor::visitAllocate(s);
        }

        void visitIfThenElse(const StmtNode& s) override
        {
            bool threadDependent = false;
            for (const StmtNode* loop : m_threadLoops)
                threadDependent = threadDependent || ir::usesVar(s.condition, loop->var.get());
            m_divergent += threadDependent ? 1 : 0;
            StmtVisitor::visitIfThenElse(s);
            m_divergent -= threadDependent ? 1 : 0;
        }

        void visitBarrier(const StmtNode&) override
        {
            if (checking && m_divergent > 0 && !m_reported) {
                problems.push_back("a barrier (__syncthreads) is reached by only some of the block's threads: a thread "
                                   "loop narrower than the block, or a guard on a thread index, encloses it");
                m_reported = true;
            }
        }

        void visitAllReduce(const StmtNode& s) override
        {
            if (!checking)
                return;
            if (m_divergent > 0 && !m_reported) {
                problems.push_back("the cross-thread reduction into " + s.buffer->name
                    + " is reached by only some of the block's threads: a thread loop narrower than the block, or a "
                      "guard on a thread index, encloses it");
                m_reported = true;
            }
            const StmtNode* loop = allReduceLoop(s, m_threadLoops);
            if (!loop) {
                problems.push_back("the cross-thread reduction into " + s.buffer->name
                    + " is not inside the one thread loop it reduces over");
                return;
            }
            if (!allReduceByWarpShuffle(m_kernel, threadTagOf(loop->threadTag), loop->extent))
                m_kernel.sharedBytes += m_kernel.threads() * ir::bytesOf(s.buffer->dtype);
        }

        // The widest element a statement stores, in bytes.
        static int storeBytes(const Stmt& s)
        {
            int bytes = 0;
            class Stores : public StmtVisitor {
            public:
                int* out;
                void visitStore(const StmtNode& n) override { *out = std::max(*out, ir::bytesOf(n.buffer->dtype)); }
            } stores;
            stores.out = &bytes;
            stores.visit(s);
            return bytes;
        }

        GpuKernel& m_kernel;
        const target::Target& m_target;
        std::vector<const StmtNode*> m_threadLoops; // loops bound to a hardware thread, outside here
        int m_divergent = 0;
        bool m_reported = false;
    };

    Expected<void> checkLimits(const GpuKernel& k, const target::Target& t)
    {
        static constexpr std::array<int64_t, 3> kMaxBlock { 1024, 1024, 64 };
        static constexpr std::array<int64_t, 3> kMaxGrid { 2147483647, 65535, 65535 };
        static constexpr const char* kDims = "xyz";
        for (size_t d = 0; d < 3; ++d) {
            if (k.block[d] > kMaxBlock[d])
                return limitError(k.name,
                    std::string("threadIdx.") + kDims[d] + " extent " + std::to_string(k.block[d]) + " is over "
                        + std::to_string(kMaxBlock[d]));
            if (k.grid[d] > kMaxGrid[d])
                return limitError(k.name,
                    std::string("blockIdx.") + kDims[d] + " extent " + std::to_string(k.grid[d]) + " is over "
                        + std::to_string(kMaxGrid[d]));
        }
        if (t.maxThreadsPerBlock > 0 && k.threads() > t.maxThreadsPerBlock)
            return limitError(k.name,
                std::to_string(k.threads()) + " threads per block, more than the device's "
                    + std::to_string(t.maxThreadsPerBlock));
        if (t.maxSharedMemoryPerBlock > 0 && k.sharedBytes > t.maxSharedMemoryPerBlock)
            return limitError(k.name,
                std::to_string(k.sharedBytes) + " bytes of shared memory per block, more than the device's "
                    + std::to_string(t.maxSharedMemoryPerBlock));
        if (t.maxLocalMemoryPerBlock > 0 && k.localBytes > t.maxLocalMemoryPerBlock)
            return limitError(k.name,
                std::to_string(k.localBytes) + " bytes of local memory per thread, more than the device's "
                    + std::to_string(t.maxLocalMemoryPerBlock));
        return {};
    }

    // A root nest must start (under its allocations) with a loop bound to blockIdx or threadIdx.
    bool boundToThreads(const Stmt& s)
    {
        if (!s)
            return true;
        if (s->kind == StmtKind::Allocate)
            return boundToThreads(s->body);
        return s->kind == StmtKind::For && s->forKind == ForKind::ThreadBinding && threadTagOf(s->threadTag).dim >= 0;
    }
} // namespace

GpuThreadTag threadTagOf(const std::string& tag)
{
    GpuThreadTag t;
    if (tag.rfind("blockIdx.", 0) == 0 || tag.rfind("threadIdx.", 0) == 0) {
        t.thread = tag[0] == 't';
        t.dim = tag.back() - 'x';
    }
    return t;
}

bool allReduceByWarpShuffle(const GpuKernel& kernel, GpuThreadTag tag, int64_t extent)
{
    return tag.thread && tag.dim == 0 && extent == kernel.block[0] && extent <= 32 && (extent & (extent - 1)) == 0;
}

const StmtNode* allReduceLoop(const StmtNode& allReduce, const std::vector<const StmtNode*>& threadLoops)
{
    if (allReduce.reduceThreads.size() != 1)
        return nullptr;
    for (const StmtNode* loop : threadLoops)
        if (loop->var.sameAs(allReduce.reduceThreads[0]))
            return loop;
    return nullptr;
}

Expected<GpuModule> gpuKernels(const LoweredFunc& func, const target::Target& target)
{
    if (!target.isGpu())
        return makeError(ErrorKind::InvalidArgument,
            std::string("GPU kernels for a ") + toString(target.kind) + " target: lower for a GPU target");
    GpuModule module;
    Stmt body = func.body;
    while (body && body->kind == StmtKind::Allocate) {
        module.workspaces.push_back(body->buffer);
        body = body->body;
    }
    std::vector<Stmt> nests;
    if (body && body->kind == StmtKind::Seq)
        nests = body->seq;
    else if (body)
        nests.push_back(body);
    for (const Stmt& nest : nests) {
        GpuKernel k;
        k.name = func.name + "_kernel" + std::to_string(module.kernels.size());
        k.body = nest;
        if (!boundToThreads(nest))
            return limitError(k.name,
                "a root loop nest is not bound to GPU threads (it would run on the host): bind its outer loops "
                "to blockIdx and threadIdx");
        KernelScan scan(k, target);
        scan.visit(nest);
        scan.checking = true;
        scan.visit(nest);
        if (!scan.problems.empty())
            return limitError(k.name, scan.problems.front());
        TS_CHECK(checkLimits(k, target));
        module.kernels.push_back(std::move(k));
    }
    return module;
}

} // namespace ts::lower
