#include "core/measure/timing.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace ts::measure {

namespace {
    constexpr int kSlices = 256; // clock reads per measurement, at most (plus one): 6 us in 100 ms
    constexpr double kOverrun = 4.0; // a measurement stops once it lasts this many times min_repeat_ms
} // namespace

std::vector<double> timeKernel(codegen::KernelFn kernel, KernelBuffers& buffers, const TimingOptions& options,
    const std::vector<codegen::MemoryRegion>& alsoFlush)
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
    const double overrunMs = minMs * kOverrun;
    std::vector<double> costs;
    for (int r = 0; r < std::max(1, options.repeat); ++r) {
        double durationMs = 0.0;
        int zeroTimes = 0;
        int runs = 0;
        do {
            if (durationMs > 0.0)
                number = static_cast<int>(std::max(minMs / (durationMs / runs) + 1, number * 1.618));
            runs = number;
            double total = 0.0;
            if (options.flushCache) {
                for (int j = 0; j < number; ++j) {
                    buffers.flushCaches(alsoFlush);
                    const auto start = Clock::now();
                    kernel(buffers.args());
                    total += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                }
            } else {
                // In slices, so that a measurement that overruns stops with the runs done (see timing.h).
                const int slice = std::max(1, number / kSlices);
                const auto start = Clock::now();
                for (runs = 0; runs < number;) {
                    const int n = std::min(slice, number - runs);
                    for (int j = 0; j < n; ++j)
                        kernel(buffers.args());
                    runs += n;
                    total = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                    if (overrunMs > 0.0 && total >= overrunMs)
                        break;
                }
            }
            durationMs = total;
            zeroTimes += durationMs == 0.0;
        } while (durationMs < minMs && zeroTimes < 10);
        costs.push_back(durationMs / 1e3 / runs);
    }
    return costs;
}

std::optional<SchedulerTimes> schedulerTimes()
{
    SchedulerTimes times;
    std::error_code error;
    bool any = false;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
        std::ifstream in(task.path() / "schedstat");
        int64_t run = 0, wait = 0;
        if (in >> run >> wait) { // a thread that ended between the listing and the read is skipped
            times.runNs += run;
            times.waitNs += wait;
            any = true;
        }
    }
    if (error || !any)
        return std::nullopt;
    return times;
}

double cpuWait(const SchedulerTimes& before, const SchedulerTimes& after)
{
    const double ran = static_cast<double>(after.runNs - before.runNs);
    const double waited = static_cast<double>(after.waitNs - before.waitNs);
    return ran + waited > 0 ? std::clamp(waited / (ran + waited), 0.0, 1.0) : 0.0;
}

} // namespace ts::measure
