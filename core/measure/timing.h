// Times a kernel the way TVM's time_evaluator does: warm-up runs, then `repeat` measurements, each the mean
// of `number` back-to-back runs; `number` grows (by the golden ratio or to reach min_repeat_ms) until one
// measurement lasts at least min_repeat_ms. With cache flushing, number is 1 and every run starts cold.
//
// One deviation, for slow kernels: when a warm-up run alone lasts min_repeat_ms or more, `number` is 1
// (shrinkSlow). A measurement of one such run is already as long as TVM asks a measurement to be, and a
// search meets many slow candidates (random matmul-1024 schedules average ~300 ms a run): running each
// 1 + 3 times instead of 1 + 1 spent half of a tuning session's wall time on kernels no one will keep.
//
// A second, for kernels that slow down after `number` is chosen: a measurement that has lasted 4 x min_repeat_ms
// stops with the runs it has done (checked 256 times a measurement) and reports their mean. `number` is sized from
// the runs before it, and `number` carries over to the next repeat; when the machine gets busy in between (another
// process takes a core, and a parallel kernel's threads wait for it) a 6 us kernel can take 0.4 ms a run, and
// 16,000 runs sized for 100 ms then last seconds a repeat: the runner's timeout killed it as if it hung.
#pragma once

#include "core/codegen/codegen.h"
#include "core/measure/kernel_buffers.h"

#include <optional>
#include <vector>

namespace ts::measure {

struct TimingOptions {
    int number = 3;
    int repeat = 1;
    int minRepeatMs = 100;
    int warmup = 1;
    bool flushCache = false;
    bool shrinkSlow = true; // number = 1 when a warm-up run lasts min_repeat_ms (see above)
};

// Seconds per run, one entry per repeat.
// With flushCache, `alsoFlush` (the kernel's static buffers: weights its setup packed) is flushed with the buffers.
std::vector<double> timeKernel(codegen::KernelFn kernel, KernelBuffers& buffers, const TimingOptions& options,
    const std::vector<codegen::MemoryRegion>& alsoFlush = {});

// What the OS scheduler says of this process's threads (Linux /proc/self/task/*/schedstat): nanoseconds on a CPU
// and nanoseconds runnable but waiting for one, summed over the threads. nullopt where the kernel does not say.
struct SchedulerTimes {
    int64_t runNs = 0;
    int64_t waitNs = 0;
};
std::optional<SchedulerTimes> schedulerTimes();
// The share of the time this process's threads were ready to run that they spent waiting for a CPU, between
// two readings: about 0 on a quiet machine, 0.5 when another busy process shares every core. A measurement
// with a large share times the machine's load as much as the kernel (a 2-thread kernel waits for its other
// thread at every barrier: 7 us became 0.4 ms beside two busy processes).
double cpuWait(const SchedulerTimes& before, const SchedulerTimes& after);
// Above this share a measurement is marked busy (MeasureResult::waited, the CLI and the workbench say so).
inline constexpr double kBusyWait = 0.1;

} // namespace ts::measure
