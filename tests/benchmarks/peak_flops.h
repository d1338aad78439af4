// The CPU's fp32 FMA peak as measured, not as specified: 16 independent vector accumulators, as wide as the
// CPU's widest FMA (AVX-512 where it has it, else AVX2), on 1..n threads at once. A ceiling for every
// GFLOP/s a benchmark prints next to it (a kernel on Zen 4 runs its 512-bit FMAs at half the rate of
// Sapphire Rapids; only the ratio to this line compares across CPUs).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <immintrin.h>
#include <thread>
#include <vector>

namespace ts::bench {

namespace peak_detail {
    constexpr int64_t kIterations = 20'000'000;

    // One body per instruction set: the intrinsics must be inlined into a function compiled for them.
#define TS_PEAK_BODY(VEC, SET, FMA, FIRST)                                                                             \
    const VEC a = SET(0.999999f), b = SET(1e-7f);                                                                      \
    VEC acc[16];                                                                                                       \
    for (int i = 0; i < 16; ++i)                                                                                       \
        acc[i] = SET(static_cast<float>(i));                                                                           \
    for (int64_t n = 0; n < kIterations; ++n) {                                                                        \
        _Pragma("GCC unroll 16") for (int i = 0; i < 16; ++i) acc[i] = FMA(acc[i], a, b);                              \
    }                                                                                                                  \
    float sum = 0;                                                                                                     \
    for (int i = 0; i < 16; ++i)                                                                                       \
        sum += FIRST(acc[i]);                                                                                          \
    return sum;

    __attribute__((target("avx512f"))) inline float run512()
    {
        TS_PEAK_BODY(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_cvtss_f32)
    }
    __attribute__((target("avx2,fma"))) inline float run256()
    {
        TS_PEAK_BODY(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_cvtss_f32)
    }
#undef TS_PEAK_BODY
} // namespace peak_detail

// Lanes of the widest FMA this CPU has (16: AVX-512, 8: AVX2 + FMA, 0: neither).
inline int peakLanes()
{
    if (__builtin_cpu_supports("avx512f"))
        return 16;
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 8 : 0;
}

// GFLOP/s of `threads` threads each running the FMA loop at the same time, once (0 without AVX2).
inline double peakGflopsOnce(int threads)
{
    const int lanes = peakLanes();
    if (lanes == 0)
        return 0;
    std::vector<std::thread> workers;
    std::vector<float> sinks(static_cast<size_t>(threads));
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t)
        workers.emplace_back(
            [&, t] { sinks[static_cast<size_t>(t)] = lanes == 16 ? peak_detail::run512() : peak_detail::run256(); });
    for (std::thread& w : workers)
        w.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    volatile float keep = 0;
    for (float s : sinks)
        keep = keep + s;
    return 2.0 * 16 * lanes * static_cast<double>(peak_detail::kIterations) * threads / seconds / 1e9;
}

// The best of five runs (about 0.1 s each): a peak is a maximum, and on a shared host one loaded moment would
// otherwise lower it by a third and push every "% of peak" in the run over the truth.
inline double peakGflops(int threads)
{
    double best = 0;
    for (int run = 0; run < 5; ++run)
        best = std::max(best, peakGflopsOnce(threads));
    return best;
}

} // namespace ts::bench
