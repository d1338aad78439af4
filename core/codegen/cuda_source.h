// Loop IR -> CUDA C (TVM's CodeGenCUDA, for what our loop IR holds), one __global__ function per kernel of
// lower::gpuKernels (root nests, in launch order). What each statement becomes:
//   blockIdx/threadIdx loop   the index register, `const int i = (int)threadIdx.x;`, under
//                             `if (threadIdx.x < extent)` when the loop is narrower than the block;
//   vthread loop              a loop each thread runs (#pragma unroll);
//   unrolled loop             #pragma unroll; serial loop: a plain loop;
//   vectorized loop           one float2/float4 load and store when every access moves with the loop
//                             at stride 1 from a base the vector width divides; otherwise #pragma unroll;
//   shared / local buffer     `__shared__ __align__(16) float b[n];` / `float b[n];` (registers when
//                             indices are constant after unrolling);
//   barrier                   __syncthreads();
// Indices are `int` (TVM's int32 indexing; every buffer must hold fewer than 2^31 elements); floordiv and
// floormod are C's / and % where the dividend is provably non-negative, else small helper functions.
// Inputs are `const float* __restrict__` so loads may go through the read-only cache.
//
// Buffers: the kernels' parameters are the function's arguments, then the workspaces (global buffers of
// stages at root that are not outputs), the same list for every kernel.
#pragma once

#include "core/lower/gpu_kernels.h"
#include "core/lower/stmt.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <array>
#include <string>
#include <vector>

namespace ts::codegen {

struct CudaLaunch {
    std::string name; // the __global__ function
    std::array<int64_t, 3> grid { 1, 1, 1 };
    std::array<int64_t, 3> block { 1, 1, 1 };
    int64_t sharedBytes = 0; // static shared memory, for people (the launch needs no dynamic shared memory)
};

struct CudaProgram {
    std::string source; // CUDA C, self-contained (no #include)
    std::vector<CudaLaunch> kernels; // launched in this order, one after the other
    std::vector<ir::BufferRef> buffers; // every kernel's parameters: the function's args, then the workspaces
    int numArgs = 0; // buffers[0, numArgs) are the function's args
};

// Unsupported for element types CUDA code is not generated for yet (float16); the limits errors of
// lower::gpuKernels otherwise.
Expected<CudaProgram> emitCuda(const lower::LoweredFunc& func, const target::Target& target);

} // namespace ts::codegen
