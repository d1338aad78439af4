// A function lowered for a GPU target as the kernels a GPU launches (TVM's SplitHostDevice and
// VerifyGPUCode in one pass over the loop IR).
//
// Each statement at the function's root (under the allocations of stages computed at root, which become
// global workspace buffers) is one kernel, launched in order: its grid and block are the largest extents of
// the blockIdx.* and threadIdx.* loops in it. A thread loop narrower than the block runs under a guard
// (threadIdx.x < extent). A vthread loop stays a loop each thread runs.
//
// The limits are checked before any code is generated, so a schedule the device cannot launch is an
// instantiation error (InvalidArgument, measured as status 1), never a crash or a compile error: threads
// per block, each block dimension (x, y <= 1024, z <= 64), grid dimensions, shared memory per block,
// local memory per thread, vthread extents, vector width; and the shapes a GPU cannot run: a root nest not
// bound to blockIdx/threadIdx (it would run on the host), and a barrier that not every thread of the block
// reaches (under a narrower thread loop or a thread-dependent guard); the same for a cross-thread
// reduction (AllReduce), which may hold barriers.
#pragma once

#include "core/lower/stmt.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <array>
#include <string>
#include <vector>

namespace ts::lower {

struct GpuKernel {
    std::string name; // "<function>_kernel<k>"
    Stmt body; // the root nest, thread loops included
    std::array<int64_t, 3> grid { 1, 1, 1 }; // blockIdx x, y, z
    std::array<int64_t, 3> block { 1, 1, 1 }; // threadIdx x, y, z
    int64_t sharedBytes = 0; // every shared allocation of the kernel, AllReduce scratch included
    int64_t localBytes = 0; // every local allocation, per thread
    int64_t threads() const { return block[0] * block[1] * block[2]; }
};

struct GpuModule {
    std::vector<GpuKernel> kernels; // in launch order
    std::vector<ir::BufferRef> workspaces; // global buffers of stages at root that are not outputs
};

// A thread-binding loop's tag: "blockIdx.x" -> (block, dim 0), "threadIdx.z" -> (thread, dim 2); a vthread has
// dim -1.
struct GpuThreadTag {
    bool thread = false; // threadIdx (else blockIdx)
    int dim = -1;
};
GpuThreadTag threadTagOf(const std::string& tag);

// How an AllReduce over the thread loop `tag` of `extent` threads is combined: with warp shuffles when
// it is threadIdx.x, as wide as the block and a power of two up to 32 (each warp then holds whole groups);
// otherwise through a shared scratch array of one element per thread of the block, halved in a tree.
bool allReduceByWarpShuffle(const GpuKernel& kernel, GpuThreadTag tag, int64_t extent);
// The thread loop an AllReduce reduces over, among the thread loops around it (outermost first); null when
// it is not among them or the AllReduce spans more than one.
const StmtNode* allReduceLoop(const StmtNode& allReduce, const std::vector<const StmtNode*>& threadLoops);

// The kernels of a function lowered for a GPU target, checked against its limits.
Expected<GpuModule> gpuKernels(const LoweredFunc& func, const target::Target& target);

} // namespace ts::lower
