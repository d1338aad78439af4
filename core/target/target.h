// The machine code is generated and measured for: a Target value, passed by value through lowering
// (LowerOptions::target), code generation (one code generator per kind, codegen/code_generator.h) and
// measurement (MeasureOptions::target). Nothing below the session reads the host directly: Target::host()
// is the one place that asks what this machine is, once per process.
//
// A target comes from the host or from what the record store keeps for a device: a TVM target string
// ("llvm -keys=cpu -mcpu=znver3", "cuda -keys=cuda,gpu -arch=sm_86") and Ansor's eight hardware
// parameters (fromTvm). CPU names and features are LLVM's ("znver3", "+avx2,+fma,-avx512f").
//
// How to add a target kind: add it to TargetKind and a row to the kind table in target.cpp (its name,
// TVM's name and keys for it, its defaults, and the TVM options that set its fields: fromTvm parses and
// toString prints from that one row); register its code generator in codegen/code_generator.cpp; say in
// lower/schedule_ops.cpp which annotations it lowers (thread bindings are GPU-only).
#pragma once

#include "core/support/error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ts::target {

enum class TargetKind { Cpu, Cuda };
// "cpu", "cuda"
const char* toString(TargetKind kind);

// Ansor's hardware parameters, in its record order: num_cores, vector_unit_bytes, cache_line_bytes,
// max_shared_memory_per_block, max_local_memory_per_block, max_threads_per_block, max_vthread_extent,
// warp_size (store::HardwareParams holds the same eight numbers).
using HardwareParams = std::array<int64_t, 8>;

struct Target {
    TargetKind kind = TargetKind::Cpu;

    // --- CPU (LLVM's names)
    std::string triple; // "x86_64-pc-linux-gnu"; empty: this process's triple
    std::string cpuName; // "znver3", "skylake-avx512", "x86-64"; empty: LLVM's generic CPU
    std::string features; // "+avx2,+fma,-avx512f": changes to the CPU's own features; empty: none
    int64_t cores = -1; // threads for parallel loops; -1 when not known
    int64_t vectorBytes = 64; // the widest vector register (Ansor's vector_unit_bytes)
    int64_t cacheLineBytes = 64;

    // --- GPU (CUDA); zero on CPU targets. Code for them: codegen/cuda_source.h, docs/gpu.md.
    std::string arch; // "sm_86"
    int64_t maxSharedMemoryPerBlock = 0; // bytes
    int64_t maxLocalMemoryPerBlock = 0; // bytes
    int64_t maxThreadsPerBlock = 0;
    int64_t maxVThreadExtent = 0;
    int64_t warpSize = 0;

    bool isGpu() const { return kind == TargetKind::Cuda; }

    // This machine's CPU: LLVM's name and features for it, the cores this process may use, the widest
    // vector unit its features give (16, 32 or 64 bytes), its L1 cache line. Read once.
    static const Target& host();

    bool operator==(const Target&) const = default;
};

// The eight numbers Ansor's records carry for the target.
HardwareParams hardwareParams(const Target& target);

// A TVM target string and, when the record has them, Ansor's hardware parameters. Kinds: "llvm" (CPU:
// -mcpu, -mattr, -mtriple, -num-cores) and "cuda" (-arch, -max_num_threads, -max_shared_memory_per_block,
// -thread_warp_size); other options (-keys, -model, -libs, ...) do not change the code. Hardware
// parameters win over the options they overlap; without them the CPU fields keep TVM's defaults (64-byte
// vectors and cache lines). Errors (InvalidArgument) name the option or kind that is not understood.
Expected<Target> fromTvm(std::string_view tvmTarget, const std::optional<HardwareParams>& params = std::nullopt);

// The TVM target string: fromTvm(toString(t), hardwareParams(t)) == t.
std::string toString(const Target& target);

} // namespace ts::target
