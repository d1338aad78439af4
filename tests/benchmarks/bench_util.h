// Timing for library baselines (OpenBLAS, LibTorch), the same way timing.h times TuneScope kernels:
// one warm-up, then `repeat` measurements of at least minRepeatMs each; the mean seconds per run.
#pragma once

#include "core/measure/measurer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

namespace ts::bench {

// The seconds per run of each of the `repeat` measurements.
inline std::vector<double> secondsPerRunEach(const std::function<void()>& run, int repeat, double minRepeatMs)
{
    using Clock = std::chrono::steady_clock;
    run();
    std::vector<double> costs;
    int number = 1;
    for (int r = 0; r < repeat; ++r) {
        double ms = 0;
        do {
            if (ms > 0)
                number = static_cast<int>(std::max(minRepeatMs / (ms / number) + 1, number * 1.618));
            const auto start = Clock::now();
            for (int i = 0; i < number; ++i)
                run();
            ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        } while (ms < minRepeatMs);
        costs.push_back(ms / 1e3 / number);
    }
    return costs;
}

inline double secondsPerRun(const std::function<void()>& run, int repeat = 5, double minRepeatMs = 300)
{
    const std::vector<double> costs = secondsPerRunEach(run, repeat, minRepeatMs);
    return std::accumulate(costs.begin(), costs.end(), 0.0) / static_cast<double>(costs.size());
}

// Seconds per run of a schedule measured the product's way (tunescope-runner, checked), or < 0 with the
// reason printed.
inline double tuneScopeSeconds(const ir::ComputeDAG& dag, const sched::State& state, int threads, int layoutRewrite = 0)
{
    measure::MeasureOptions options;
    options.kernelThreads = threads;
    options.layoutRewrite = layoutRewrite;
    options.timing.repeat = 5;
    options.timing.minRepeatMs = 300;
    measure::Measurer measurer(options);
    const auto result = measurer.measure(dag, { state })[0];
    if (!result.ok()) {
        std::printf("  TuneScope failed: %s\n", result.message.c_str());
        return -1;
    }
    return result.meanCost();
}

inline double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5)];
}

} // namespace ts::bench
