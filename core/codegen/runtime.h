// What generated CPU code calls at run time: the parallel-for of the project's own thread pool and
// 64-byte-aligned heap buffers for large intermediate stages. Both the JIT in the engine and the JIT in
// tunescope-runner resolve these names to the functions here.
#pragma once

#include <cstdint>

extern "C" {
// Runs body(closure, begin, end) over [0, n) on the kernel thread pool. Nested calls run serially.
void ts_parallel_for(void (*body)(void*, int64_t, int64_t), void* closure, int64_t n);
// A kernel's workspace (an intermediate stage too large for the stack), 64-byte aligned. Freed blocks stay
// in a small per-thread cache and serve the next allocation of the same size, as TVM's workspace pool
// does: a kernel run many times (a measurement, an inference loop) then neither maps nor faults in its
// workspace pages on every call (conv2d_layer line 4 allocates 430 KB per parallel chunk per call).
void* ts_alloc(int64_t bytes);
void ts_free(void* ptr);
}

namespace ts::codegen {

// Threads the generated code's parallel loops use (the calling thread included); 0 = all cores. Takes
// effect for the next kernel run; not to be called while a kernel runs.
void setKernelThreads(int threads);
int kernelThreads();

} // namespace ts::codegen
