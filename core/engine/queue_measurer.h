// Measuring a session's batches on workers (DESIGN: "tunescope-worker measures on any machine"): the batch
// goes into the work queue of the session's PostgreSQL workspace (store/work_queue.h), workers claim, build
// and run its candidates, and their results come back one by one as they complete, through the same
// MeasureCallbacks a local Measurer calls. The session stores the records itself, as always: a result is
// stored once, whichever worker measured it and however many claimed it.
//
// - Results are collected when the workspace says one arrived (LISTEN on the session's own results
//   channel), with a look at the batch every few seconds besides, in case a notification was lost with a
//   dropped connection.
// - A stop withdraws what is not finished (the rows are cancelled; a worker's late result is refused).
// - What cannot be queued (the workspace is gone, the task is not in it) becomes a failed result per
//   candidate with the reason: measurement outcomes are data.
// - The measure options that matter on the worker (timing, timeouts, checks, seed, layout rewrite) travel with
//   each row as JSON (measureOptionsToJson); the worker measures for its own host.
#pragma once

#include "core/measure/measurer.h"
#include "core/store/store.h"
#include "core/store/work_queue.h"

#include <map>
#include <memory>

namespace ts::engine {

std::string measureOptionsToJson(const measure::MeasureOptions& options);
// Fills the fields measureOptionsToJson wrote into `options`; other fields keep their values.
Expected<void> measureOptionsFromJson(const std::string& json, measure::MeasureOptions& options);

// A resume's first step on a PostgreSQL workspace: the results workers wrote for sessions that died with
// batches in the queue (killed outright; WorkQueue::leftBy tells a dead session from a live one) are stored
// as those sessions' records, marked "pick": "recovered", unless the session stored them itself; their
// unfinished rows are withdrawn. Returns how many records were added (0 on an SQLite workspace).
Expected<int64_t> recoverQueuedResults(store::Store& workspace, const std::string& url);

class QueueMeasurer final : public measure::BatchMeasurer {
public:
    // `taskIds`: the store's task id of each task's workload key.
    static Expected<std::unique_ptr<QueueMeasurer>> open(const std::string& workspace, std::optional<int64_t> sessionId,
        int64_t deviceId, std::map<std::string, int64_t> taskIds, const measure::MeasureOptions& options);

    int measure(const ir::ComputeDAG& task, std::vector<sched::State> states,
        const measure::MeasureCallbacks& callbacks, std::stop_token stop = {}) override;

private:
    QueueMeasurer(store::WorkQueue queue, std::optional<int64_t> sessionId, int64_t deviceId,
        std::map<std::string, int64_t> taskIds, std::string options);

    store::WorkQueue m_queue;
    std::optional<int64_t> m_sessionId;
    int64_t m_deviceId;
    std::map<std::string, int64_t> m_taskIds;
    std::string m_options;
};

} // namespace ts::engine
