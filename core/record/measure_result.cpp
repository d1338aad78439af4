#include "core/record/measure_result.h"

#include <chrono>
#include <numeric>

namespace ts::record {

double MeasureResult::meanCost() const
{
    if (!ok())
        return kFailedCost;
    return std::accumulate(costs.begin(), costs.end(), 0.0) / static_cast<double>(costs.size());
}

MeasureResult failedResult(MeasureStatus status, std::string message, double allCost)
{
    MeasureResult r;
    r.status = status;
    r.costs = { kFailedCost };
    r.allCost = allCost;
    r.timestamp = unixNow();
    r.message = std::move(message);
    return r;
}

double unixNow() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

} // namespace ts::record
