// The result of measuring one candidate, as TVM's MeasureResult (auto_scheduler/measure.h): what the
// measurer returns, what a TVM log line's "r" field holds and what the store keeps for every record.
// Failures are data: the search skips them, the store keeps them.
//
// The rules, each defined here once:
// - a failed candidate costs kFailedCost (TVM's 1e10, "MAX_FLOAT" in its Python), and its costs are
//   {kFailedCost} when the measurer makes it (logs may carry other costs for failures; they are ignored);
// - meanCost is TVM's: the arithmetic mean of the costs of a successful result, kFailedCost for any
//   failure (and for a result with no costs, which cannot be ranked);
// - timestamps are Unix seconds as a double: TVM writes integers (auto_scheduler) and floats (AutoTVM's
//   time.time()), the store keeps REAL; a double holds both exactly (integers to 2^53) and sub-second
//   times of live measurements.
#pragma once

#include "core/record/measure_status.h"

#include <string>
#include <vector>

namespace ts::record {

constexpr double kFailedCost = 1e10;

struct MeasureResult {
    MeasureStatus status = MeasureStatus::UnknownError;
    std::vector<double> costs; // seconds per run, one per repeat; {kFailedCost} on failure
    double allCost = 0.0; // build + run wall time, seconds
    double timestamp = 0.0; // Unix seconds, see above
    // Why it failed; empty when Ok. The store keeps it (schema 3 on); TVM's logs do not.
    std::string message;
    // The share of its ready time the kernel's threads waited for a CPU while it was timed (measure/timing.h's
    // cpuWait); -1 when not known (a record read from a log or the store, a GPU measurement). Not in TVM's logs;
    // the store keeps it in the record's extra as "waited" when a session marked it busy.
    double waited = -1;

    bool ok() const { return status == MeasureStatus::Ok && !costs.empty(); }
    double meanCost() const;

    bool operator==(const MeasureResult&) const = default;
};

// A failure as the measurer records it: costs {kFailedCost}, stamped now.
MeasureResult failedResult(MeasureStatus status, std::string message, double allCost);

// Now, in Unix seconds.
double unixNow();

} // namespace ts::record
