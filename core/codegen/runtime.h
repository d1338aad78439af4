// What generated CPU code calls at run time: the parallel-for of the project's own thread pool and
// 64-byte-aligned heap buffers for large intermediate stages. Both the JIT in the engine and the JIT in
// tunescope-runner resolve these names to the functions here.
#pragma once

#include <cstdint>

extern "C" {
// Runs body(closure, begin, end) over [0, n) on the kernel thread pool. Nested calls run serially.
void ts_parallel_for(void (*body)(void*, int64_t, int64_t), void* closure, int64_t n);
void* ts_alloc(int64_t bytes);
void ts_free(void* ptr);
}

namespace ts::codegen {

// Threads the generated code's parallel loops use (the calling thread included); 0 = all cores. Takes
// effect for the next kernel run; not to be called while a kernel runs.
void setKernelThreads(int threads);
int kernelThreads();

} // namespace ts::codegen
