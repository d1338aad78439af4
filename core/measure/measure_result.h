// The outcome of measuring one candidate, as TVM records it (MeasureResult in auto_scheduler/measure.h).
// Failures are data: the search skips them, the store keeps them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ts::measure {

// TVM's MeasureErrorNO numbering (the "r[1]" field of a log record).
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
const char* toString(MeasureStatus status);

// Cost recorded for a failed candidate, as TVM does.
constexpr double kFailedCost = 1e10;

struct MeasureResult {
    MeasureStatus status = MeasureStatus::UnknownError;
    std::vector<double> costs; // seconds per run, one per repeat; {kFailedCost} on failure
    double allCost = 0.0; // build + run wall time, seconds
    int64_t timestamp = 0; // seconds since the epoch
    std::string message; // why it failed; empty when Ok

    bool ok() const { return status == MeasureStatus::Ok; }
    double meanCost() const;
};

} // namespace ts::measure
