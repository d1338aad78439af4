#include "core/measure/timing.h"

#include <algorithm>
#include <chrono>

namespace ts::measure {

std::vector<double> timeKernel(codegen::KernelFn kernel, KernelBuffers& buffers, const TimingOptions& options)
{
    using Clock = std::chrono::steady_clock;
    double warmupMs = 0.0;
    for (int i = 0; i < options.warmup; ++i) {
        const auto start = Clock::now();
        kernel(buffers.args());
        warmupMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    }
    int number = options.flushCache ? 1 : std::max(1, options.number);
    const double minMs = options.flushCache ? 0.0 : options.minRepeatMs;
    if (options.shrinkSlow && options.warmup > 0 && minMs > 0.0 && warmupMs >= minMs)
        number = 1;
    std::vector<double> costs;
    for (int r = 0; r < std::max(1, options.repeat); ++r) {
        double durationMs = 0.0;
        int zeroTimes = 0;
        do {
            if (durationMs > 0.0)
                number = static_cast<int>(std::max(minMs / (durationMs / number) + 1, number * 1.618));
            double total = 0.0;
            if (options.flushCache) {
                for (int j = 0; j < number; ++j) {
                    buffers.flushCaches();
                    const auto start = Clock::now();
                    kernel(buffers.args());
                    total += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                }
            } else {
                const auto start = Clock::now();
                for (int j = 0; j < number; ++j)
                    kernel(buffers.args());
                total = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            }
            durationMs = total;
            zeroTimes += durationMs == 0.0;
        } while (durationMs < minMs && zeroTimes < 10);
        costs.push_back(durationMs / 1e3 / number);
    }
    return costs;
}

} // namespace ts::measure
