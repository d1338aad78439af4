// The outcome class of one measurement, numbered as TVM's MeasureErrorNO (auto_scheduler/measure.h, the
// "r[1]" field of every log record). The one place that knows the valid numbers: log parsing, the store
// and the runner protocol all convert through measureStatusFromInt.
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <string_view>

namespace ts::record {

enum class MeasureStatus {
    Ok = 0,
    InstantiationError = 1, // the schedule does not apply or lower
    CompileHostError = 2, // LLVM failed
    CompileDeviceError = 3,
    RuntimeDeviceError = 4, // the kernel crashed (or could not be loaded)
    WrongAnswer = 5, // outputs differ from the reference evaluator
    BuildTimeout = 6,
    RunTimeout = 7,
    UnknownError = 8,
};

constexpr int kMinMeasureStatus = 0;
constexpr int kMaxMeasureStatus = 8;

// "ok", "compile error", "run timeout", ...
const char* toString(MeasureStatus status);

// TVM's error number.
constexpr int toInt(MeasureStatus status) { return static_cast<int>(status); }

// The status numbered `value`, or a Parse error naming `what` and the valid range:
// "r[1] (error_no) is 42, outside 0..8".
Expected<MeasureStatus> measureStatusFromInt(int64_t value, std::string_view what = "error number");

} // namespace ts::record
