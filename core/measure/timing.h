// Times a kernel the way TVM's time_evaluator does: warm-up runs, then `repeat` measurements, each the mean
// of `number` back-to-back runs; `number` grows (by the golden ratio or to reach min_repeat_ms) until one
// measurement lasts at least min_repeat_ms. With cache flushing, number is 1 and every run starts cold.
#pragma once

#include "core/codegen/codegen.h"
#include "core/measure/kernel_buffers.h"

#include <vector>

namespace ts::measure {

struct TimingOptions {
    int number = 3;
    int repeat = 1;
    int minRepeatMs = 100;
    int warmup = 1;
    bool flushCache = false;
};

// Seconds per run, one entry per repeat.
std::vector<double> timeKernel(codegen::KernelFn kernel, KernelBuffers& buffers, const TimingOptions& options);

} // namespace ts::measure
