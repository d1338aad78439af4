// The measurement work queue of a PostgreSQL workspace (DESIGN: "Remote devices and shared stores use existing
// engines"): a session queues each batch instead of measuring it, workers on any machine claim candidates for
// the devices they match, measure them and write the results back; the session collects the results and
// stores the batch's records itself, in one transaction, as when it measures locally.
//
// - Claims are `FOR UPDATE SKIP LOCKED` with a lease: two workers never hold one row, and a row whose lease
//   ran out (its worker died or hangs) is claimed again by another.
// - A result is written once: completing a row needs the lease on it (`state = 'leased' AND worker_id = me`),
//   so a worker that lost its lease cannot overwrite the one that measured the row after it.
// - Queued batches wake the workers through NOTIFY tunescope_queue; each completed row wakes the one session
//   that queued it, on that session's own channel (tunescope_results_s<id>; a measurer with no session has a
//   random one per connection), with the batch as payload. At 100 workers a completion then costs one wake-up,
//   not one per live session. Waits also end on a timeout, so that expired leases are seen without anybody's
//   notification.
// - Workers register in the workers table and keep last_seen fresh with their lease renewals; the workbench
//   lists them (what each measures now, its throughput).
// One WorkQueue per thread, on its own connection: waiting for notifications needs a connection of its own.
#pragma once

#include "core/record/measure_result.h"
#include "core/store/database.h"

#include <optional>
#include <string>
#include <vector>

namespace ts::store {

// One queued candidate, as a worker claims it.
struct QueuedCandidate {
    int64_t id = 0;
    std::string batch;
    int position = 0;
    int64_t taskId = 0;
    std::optional<int64_t> sessionId; // whose batch: its settings say how its tasks were made
    std::string steps; // the state's steps, TVM JSON
    std::string options; // the session's measure options, JSON (engine/queue_measurer.h)
    int attempts = 0; // claims so far, this one included
};

// A row a session left when it died, with what a worker measured for it.
struct QueueRow {
    int64_t id = 0;
    int64_t taskId = 0;
    std::string steps;
    std::string options;
    record::MeasureResult result;
};

// A completed row, as the session collects it.
struct QueueResult {
    int64_t id = 0;
    int position = 0;
    record::MeasureResult result;
};

// What a prune removed.
struct Pruned {
    int rows = 0; // queue rows nobody will read again
    int workers = 0; // workers not seen since the cut-off
};

struct WorkerInfo {
    int64_t id = 0;
    std::string name;
    std::string host;
    int64_t pid = 0;
    std::optional<int64_t> deviceId;
    int threads = 1;
    double startedAt = 0; // Unix seconds
    double lastSeen = 0;
    std::string state; // idle, measuring, stopped
    std::string current; // what it measures now: "task 3, 8 candidates"
    int64_t measured = 0;
    int64_t failed = 0;
};

// Counts of a batch's rows by state.
struct BatchState {
    int queued = 0;
    int leased = 0;
    int done = 0;
    int cancelled = 0;
};

class WorkQueue {
public:
    // A queue on the PostgreSQL workspace at `url` (which must exist: Store::open creates it). An SQLite
    // workspace has none: InvalidArgument, saying so.
    static Expected<WorkQueue> open(const std::string& url);

    const std::string& path() const { return m_db.path(); }

    // --- a session's side -----------------------------------------------------------------------------------
    // Queues one batch (one transaction) and wakes the workers. Returns the batch's name, which begins with its
    // owner (resultsChannel).
    Expected<std::string> enqueue(std::optional<int64_t> sessionId, int64_t taskId, int64_t deviceId,
        const std::vector<std::string>& steps, const std::string& options);
    // The batch's completed rows, by position.
    Expected<std::vector<QueueResult>> finished(const std::string& batch);
    Expected<BatchState> batchState(const std::string& batch);
    // Withdraws what no worker finished (queued and leased rows); a worker's late result is then refused.
    Expected<int> cancel(const std::string& batch);
    // Subscribes this connection to the results of the batches it queues for `sessionId` (or, with none, for
    // this connection); wait() then returns when one arrives. Other sessions' results do not wake it.
    Expected<void> listenForResults(std::optional<int64_t> sessionId);
    // The channel that a batch's results are announced on: "tunescope_results_" and the batch's owner.
    static std::string resultsChannel(const std::string& batch);
    // Says that `sessionId` is alive for as long as this connection is (a session-level advisory lock): a
    // process killed outright lets go of it with its connection.
    Expected<void> holdSession(int64_t sessionId);
    // The rows a dead session left: nullopt while the session is alive (another process holds it). Otherwise
    // its unfinished rows are withdrawn and its completed ones returned, for the resuming session to store.
    Expected<std::optional<std::vector<QueueRow>>> leftBy(int64_t sessionId);
    // Marks a session's completed rows stored (recovered into records), so they are not taken twice.
    Expected<void> markStored(int64_t sessionId);

    // --- a worker's side ------------------------------------------------------------------------------------
    Expected<int64_t> registerWorker(const WorkerInfo& worker);
    // Subscribes this connection to new batches.
    Expected<void> listenForWork();
    // Leases up to `limit` claimable rows of one batch (the oldest with any) for `deviceId`.
    Expected<std::vector<QueuedCandidate>> claim(int64_t workerId, int64_t deviceId, int limit, double leaseSeconds);
    // Writes a row's result and wakes its session. False when the lease was lost (the row was claimed by
    // another worker, or cancelled): nothing is written.
    Expected<bool> complete(int64_t workerId, int64_t rowId, const record::MeasureResult& result);
    // Extends this worker's leases and says it is alive; `state` and `current` describe what it does.
    Expected<void> heartbeat(
        int64_t workerId, double leaseSeconds, const std::string& state, const std::string& current);
    // Gives this worker's leased rows back to the queue (a clean exit mid-claim). Returns how many.
    Expected<int> release(int64_t workerId);

    // --- both -------------------------------------------------------------------------------------------------
    // Waits up to `timeoutMs` for a notification on a channel this connection listens to; true when one came.
    Expected<bool> wait(int timeoutMs);
    Expected<std::vector<WorkerInfo>> workers();
    // Deletes the queue's history older than `olderThanSeconds`: rows stored as records or cancelled, and
    // finished rows of ended sessions or of none. A running session's finished rows are kept: if it died, its
    // resume recovers them. Also deletes the workers not seen since (a live worker is seen at every lease
    // renewal). One transaction.
    Expected<Pruned> prune(double olderThanSeconds);

private:
    explicit WorkQueue(Connection db);
    // Who a batch belongs to: "s<session id>", or "x<this connection's tag>".
    std::string owner(std::optional<int64_t> sessionId) const;

    Connection m_db;
    std::string m_tag; // random, per connection: names batches and owners
};

} // namespace ts::store
