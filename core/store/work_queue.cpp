// WorkQueue: the measure_queue and workers tables of a PostgreSQL workspace (schema_postgres.cpp).
#include "core/store/work_queue.h"

#include "core/store/store.h"
#include "core/store/store_rows.h"

#include <nlohmann/json.hpp>

#include <random>

namespace ts::store {

namespace {

    constexpr const char* kClaimable = "(state = 'queued' OR (state = 'leased' AND lease_until < now()))";

    record::MeasureResult readResult(const Statement& s, int first)
    {
        record::MeasureResult r;
        const nlohmann::json costs = nlohmann::json::parse(s.getText(first), nullptr, false);
        if (costs.is_array())
            for (const nlohmann::json& c : costs)
                if (c.is_number())
                    r.costs.push_back(c.get<double>());
        auto status = record::measureStatusFromInt(s.getInt(first + 1), "measure_queue.error_no");
        r.status = status ? *status : record::MeasureStatus::UnknownError;
        r.allCost = s.getDouble(first + 2);
        r.timestamp = s.getDouble(first + 3);
        r.message = s.isNull(first + 4) ? std::string() : s.getText(first + 4);
        return r;
    }

    std::string randomTag()
    {
        static thread_local std::mt19937_64 random { std::random_device {}() };
        char tag[17];
        std::snprintf(tag, sizeof tag, "%016llx", static_cast<unsigned long long>(random()));
        return tag;
    }

} // namespace

WorkQueue::WorkQueue(Connection db)
    : m_db(std::move(db))
    , m_tag(randomTag())
{
}

std::string WorkQueue::owner(std::optional<int64_t> sessionId) const
{
    return sessionId ? "s" + std::to_string(*sessionId) : "x" + m_tag;
}

namespace {
    // Owners are "s" and digits or "x" and hex digits: a valid, lower-case identifier after the prefix.
    std::string channelOf(const std::string& owner) { return "tunescope_results_" + owner; }
} // namespace

std::string WorkQueue::resultsChannel(const std::string& batch) { return channelOf(batch.substr(0, batch.find('-'))); }

Expected<WorkQueue> WorkQueue::open(const std::string& url)
{
    if (!isPostgresUrl(url))
        return makeError(ErrorKind::InvalidArgument,
            url
                + ": measurement workers need a PostgreSQL workspace (postgresql://...); an SQLite file is measured "
                  "where it lives");
    TS_TRY(Connection db, Connection::openPostgres(url, false));
    TS_TRY(int version, schema::inspectPostgres(db));
    if (version == 0)
        return makeError(ErrorKind::NotFound, db.path() + ": no TuneScope workspace in this database yet");
    return WorkQueue(std::move(db));
}

Expected<std::string> WorkQueue::enqueue(std::optional<int64_t> sessionId, int64_t taskId, int64_t deviceId,
    const std::vector<std::string>& steps, const std::string& options)
{
    const std::string batch = owner(sessionId) + "-" + randomTag();
    TS_TRY(Transaction transaction, Transaction::begin(m_db));
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO measure_queue (batch, position, session_id, task_id, device_id, steps, options) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)"));
    for (size_t i = 0; i < steps.size(); ++i) {
        insert.bindAll(batch, static_cast<int64_t>(i), sessionId, taskId, deviceId, steps[i], options);
        TS_CHECK(insert.run());
    }
    // Delivered at commit, to every listening worker.
    TS_CHECK(m_db.exec("NOTIFY tunescope_queue"));
    TS_CHECK(transaction.commit());
    return batch;
}

Expected<std::vector<QueueResult>> WorkQueue::finished(const std::string& batch)
{
    TS_TRY(Statement s,
        m_db.prepare("SELECT id, position, costs, error_no, all_cost, timestamp, message FROM measure_queue "
                     "WHERE batch = ? AND state = 'done' ORDER BY position"));
    s.bind(1, batch);
    return detail::collect(s, [](const Statement& row) {
        return QueueResult { row.getInt(0), static_cast<int>(row.getInt(1)), readResult(row, 2) };
    });
}

Expected<BatchState> WorkQueue::batchState(const std::string& batch)
{
    TS_TRY(Statement s, m_db.prepare("SELECT state, count(*) FROM measure_queue WHERE batch = ? GROUP BY state"));
    s.bind(1, batch);
    BatchState out;
    for (;;) {
        TS_TRY(bool row, s.step());
        if (!row)
            return out;
        const std::string state = s.getText(0);
        const int n = static_cast<int>(s.getInt(1));
        (state == "queued"          ? out.queued
                : state == "leased" ? out.leased
                : state == "done"   ? out.done
                                    : out.cancelled)
            = n;
    }
}

Expected<int> WorkQueue::cancel(const std::string& batch)
{
    TS_TRY(Statement s,
        m_db.prepare("UPDATE measure_queue SET state = 'cancelled' WHERE batch = ? AND state IN ('queued', 'leased')"));
    s.bind(1, batch);
    TS_CHECK(s.run());
    return m_db.changes();
}

Expected<void> WorkQueue::listenForResults(std::optional<int64_t> sessionId)
{
    return m_db.listen(channelOf(owner(sessionId)));
}

namespace {
    // The advisory lock space of live sessions: ("TS", session id).
    constexpr int kSessionLockSpace = 0x5453;
} // namespace

Expected<void> WorkQueue::holdSession(int64_t sessionId)
{
    TS_TRY(Statement s, m_db.prepare("SELECT pg_advisory_lock(?::int, ?::int)"));
    s.bindAll(static_cast<int64_t>(kSessionLockSpace), sessionId);
    return s.run();
}

Expected<std::optional<std::vector<QueueRow>>> WorkQueue::leftBy(int64_t sessionId)
{
    TS_TRY(Statement probe, m_db.prepare("SELECT pg_try_advisory_lock(?::int, ?::int)"));
    probe.bindAll(static_cast<int64_t>(kSessionLockSpace), sessionId);
    TS_TRY(bool row, probe.step());
    if (!row || probe.getInt(0) == 0)
        return std::optional<std::vector<QueueRow>>(); // alive: its process holds the lock
    probe.reset();
    TS_TRY(Statement withdraw,
        m_db.prepare("UPDATE measure_queue SET state = 'cancelled' WHERE session_id = ? AND state IN ('queued', "
                     "'leased')"));
    withdraw.bind(1, sessionId);
    TS_CHECK(withdraw.run());
    TS_TRY(Statement done,
        m_db.prepare("SELECT id, task_id, steps, options, costs, error_no, all_cost, timestamp, message FROM "
                     "measure_queue WHERE session_id = ? AND state = 'done' ORDER BY id"));
    done.bind(1, sessionId);
    TS_TRY(std::vector<QueueRow> rows, detail::collect(done, [](const Statement& r) {
        return QueueRow { r.getInt(0), r.getInt(1), r.getText(2), r.getText(3), readResult(r, 4) };
    }));
    TS_TRY(Statement unlock, m_db.prepare("SELECT pg_advisory_unlock(?::int, ?::int)"));
    unlock.bindAll(static_cast<int64_t>(kSessionLockSpace), sessionId);
    TS_CHECK(unlock.run());
    return std::optional<std::vector<QueueRow>>(std::move(rows));
}

Expected<void> WorkQueue::markStored(int64_t sessionId)
{
    TS_TRY(
        Statement s, m_db.prepare("UPDATE measure_queue SET state = 'stored' WHERE session_id = ? AND state = 'done'"));
    s.bind(1, sessionId);
    return s.run();
}
Expected<void> WorkQueue::listenForWork() { return m_db.listen("tunescope_queue"); }

Expected<int64_t> WorkQueue::registerWorker(const WorkerInfo& worker)
{
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO workers (name, host, pid, device_id, threads, state) VALUES (?, ?, ?, ?, ?, 'idle') "
                     "RETURNING id"));
    insert.bindAll(worker.name, worker.host, worker.pid, worker.deviceId, static_cast<int64_t>(worker.threads));
    return detail::insertedId(insert);
}

Expected<std::vector<QueuedCandidate>> WorkQueue::claim(
    int64_t workerId, int64_t deviceId, int limit, double leaseSeconds)
{
    // The oldest claimable batch for this device, then up to `limit` of its claimable rows that no other
    // transaction holds. A row another worker leased meanwhile fails the re-checked WHERE and is left out.
    const std::string sql
        = std::string("UPDATE measure_queue SET state = 'leased', worker_id = ?, lease_until = now() + ")
        + "make_interval(secs => ?), attempts = attempts + 1 WHERE id IN (SELECT id FROM measure_queue WHERE "
        + "device_id = ? AND " + kClaimable + " AND batch = (SELECT batch FROM measure_queue WHERE device_id = ? AND "
        + kClaimable + " ORDER BY id LIMIT 1) ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) "
        + "RETURNING id, batch, position, task_id, session_id, steps, options, attempts";
    TS_TRY(Statement s, m_db.prepare(sql));
    s.bindAll(workerId, leaseSeconds, deviceId, deviceId, static_cast<int64_t>(limit));
    TS_TRY(std::vector<QueuedCandidate> out, detail::collect(s, [](const Statement& row) {
        return QueuedCandidate { row.getInt(0), row.getText(1), static_cast<int>(row.getInt(2)), row.getInt(3),
            row.getOptionalInt(4), row.getText(5), row.getText(6), static_cast<int>(row.getInt(7)) };
    }));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.position < b.position; });
    return out;
}

Expected<bool> WorkQueue::complete(int64_t workerId, int64_t rowId, const record::MeasureResult& result)
{
    TS_TRY(Transaction transaction, Transaction::begin(m_db));
    TS_TRY(Statement done,
        m_db.prepare("UPDATE measure_queue SET state = 'done', costs = ?, error_no = ?, all_cost = ?, timestamp = ?, "
                     "message = ?, done_at = now() WHERE id = ? AND worker_id = ? AND state = 'leased' "
                     "RETURNING batch"));
    done.bindAll(nlohmann::json(result.costs).dump(), static_cast<int64_t>(record::toInt(result.status)),
        result.allCost, result.timestamp);
    if (result.message.empty())
        done.bindNull(5);
    else
        done.bind(5, result.message);
    done.bind(6, rowId).bind(7, workerId);
    TS_TRY(bool row, done.step());
    if (!row)
        return false; // the lease was lost: the row is another worker's now, or withdrawn
    const std::string batch = done.getText(0);
    done.reset();
    TS_TRY(Statement notify, m_db.prepare("SELECT pg_notify(?, ?)"));
    notify.bindAll(resultsChannel(batch), batch);
    TS_CHECK(notify.run());
    TS_TRY(Statement count,
        m_db.prepare(
            "UPDATE workers SET measured = measured + 1, failed = failed + ?, last_seen = now() WHERE id = ?"));
    count.bindAll(static_cast<int64_t>(result.ok() ? 0 : 1), workerId);
    TS_CHECK(count.run());
    TS_CHECK(transaction.commit());
    return true;
}

Expected<void> WorkQueue::heartbeat(
    int64_t workerId, double leaseSeconds, const std::string& state, const std::string& current)
{
    TS_TRY(Statement renew,
        m_db.prepare("UPDATE measure_queue SET lease_until = now() + make_interval(secs => ?) "
                     "WHERE worker_id = ? AND state = 'leased'"));
    renew.bindAll(leaseSeconds, workerId);
    TS_CHECK(renew.run());
    TS_TRY(Statement seen, m_db.prepare("UPDATE workers SET last_seen = now(), state = ?, current = ? WHERE id = ?"));
    seen.bindAll(state, current, workerId);
    TS_CHECK(seen.run());
    return {};
}

Expected<int> WorkQueue::release(int64_t workerId)
{
    TS_TRY(Statement s,
        m_db.prepare("UPDATE measure_queue SET state = 'queued', worker_id = NULL, lease_until = NULL "
                     "WHERE worker_id = ? AND state = 'leased'"));
    s.bind(1, workerId);
    TS_CHECK(s.run());
    const int released = m_db.changes();
    if (released > 0)
        TS_CHECK(m_db.exec("NOTIFY tunescope_queue"));
    return released;
}

Expected<bool> WorkQueue::wait(int timeoutMs)
{
    TS_TRY(std::vector<Connection::Notification> arrived, m_db.notifications(timeoutMs));
    return !arrived.empty();
}

Expected<std::vector<WorkerInfo>> WorkQueue::workers()
{
    TS_TRY(Statement s,
        m_db.prepare(
            "SELECT id, name, host, pid, device_id, threads, extract(epoch FROM started_at)::float8, "
            "extract(epoch FROM last_seen)::float8, state, current, measured, failed FROM workers ORDER BY id"));
    return detail::collect(s, [](const Statement& row) {
        return WorkerInfo { row.getInt(0), row.getText(1), row.getText(2), row.getInt(3), row.getOptionalInt(4),
            static_cast<int>(row.getInt(5)), row.getDouble(6), row.getDouble(7), row.getText(8), row.getText(9),
            row.getInt(10), row.getInt(11) };
    });
}

Expected<Pruned> WorkQueue::prune(double olderThanSeconds)
{
    TS_TRY(Transaction transaction, Transaction::begin(m_db));
    TS_TRY(Statement rows,
        m_db.prepare("DELETE FROM measure_queue q WHERE coalesce(done_at, queued_at) < now() - make_interval(secs => "
                     "?) AND (state IN ('stored', 'cancelled') OR (state = 'done' AND (session_id IS NULL OR NOT "
                     "EXISTS (SELECT 1 FROM sessions s WHERE s.id = q.session_id AND s.status = 'running'))))"));
    rows.bind(1, olderThanSeconds);
    TS_CHECK(rows.run());
    Pruned pruned;
    pruned.rows = m_db.changes();
    TS_TRY(Statement gone, m_db.prepare("DELETE FROM workers WHERE last_seen < now() - make_interval(secs => ?)"));
    gone.bind(1, olderThanSeconds);
    TS_CHECK(gone.run());
    pruned.workers = m_db.changes();
    TS_CHECK(transaction.commit());
    return pruned;
}

} // namespace ts::store
