// Store: the records table and the task_summary its triggers maintain: adding batches, and the queries the
// product makes (best records, best per task, tuning curves, filtered record sets, counts per status).
#include "core/store/store.h"
#include "core/store/store_rows.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

namespace ts::store {

namespace {

    std::vector<double> parseCosts(const std::string& text)
    {
        const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
        std::vector<double> costs;
        if (json.is_array())
            for (const nlohmann::json& c : json)
                if (c.is_number())
                    costs.push_back(c.get<double>());
        return costs;
    }

    // An error_no column value; a number outside TVM's range (a damaged row) reads as UnknownError, a failure.
    record::MeasureStatus errorNoToStatus(int64_t errorNo)
    {
        auto status = record::measureStatusFromInt(errorNo, "records.error_no");
        return status ? *status : record::MeasureStatus::UnknownError;
    }

    // Column order of every SELECT of records; readRecord reads it. Older schemas lack the later columns,
    // which read as NULL: version 1 the prediction columns, versions 1 and 2 the message.
    constexpr const char* kRecordColumnsBase
        = "id, task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, costs, error_no, "
          "all_cost, timestamp, extra, fingerprint, ";

    std::string recordColumns(int version)
    {
        return std::string(kRecordColumnsBase)
            + (version >= 2 ? "predicted_score, predicted_by, batch_rank, " : "NULL, NULL, NULL, ")
            + (version >= 3 ? "message" : "NULL");
    }

    Record readRecord(const Statement& s)
    {
        Record r;
        r.id = s.getInt(0);
        r.taskId = s.getInt(1);
        r.deviceId = s.getInt(2);
        r.sessionId = s.getOptionalInt(3);
        r.sourceId = s.getOptionalInt(4);
        r.sourceLine = s.getOptionalInt(5);
        r.kind = static_cast<RecordKind>(s.getInt(6));
        r.steps = s.getText(7);
        r.stepCount = static_cast<int>(s.getInt(8));
        r.result.costs = parseCosts(s.getText(9));
        r.result.status = errorNoToStatus(s.getInt(10));
        r.result.allCost = s.getDouble(11);
        r.result.timestamp = s.getDouble(12);
        r.extra = s.getText(13);
        r.fingerprint = s.getOptionalInt(14);
        r.predictedScore = s.getOptionalDouble(15);
        r.predictedBy = s.getOptionalInt(16);
        if (auto rank = s.getOptionalInt(17))
            r.batchRank = static_cast<int>(*rank);
        if (!s.isNull(18))
            r.result.message = s.getText(18);
        return r;
    }

    // WHERE clause and its bindings for a filter.
    struct FilterSql {
        std::string where;
        std::vector<int64_t> values;
    };

    FilterSql filterSql(const RecordFilter& f)
    {
        FilterSql out;
        std::vector<std::string> terms;
        if (!f.taskIds.empty()) {
            terms.push_back("task_id IN (" + join(f.taskIds, ", ", [](int64_t) { return std::string("?"); }) + ")");
            out.values.insert(out.values.end(), f.taskIds.begin(), f.taskIds.end());
        }
        auto equal = [&](const char* column, const std::optional<int64_t>& value) {
            if (value) {
                terms.push_back(std::string(column) + " = ?");
                out.values.push_back(*value);
            }
        };
        equal("device_id", f.deviceId);
        equal("session_id", f.sessionId);
        equal("source_id", f.sourceId);
        if (f.okOnly)
            terms.push_back("error_no = 0");
        if (f.failedOnly)
            terms.push_back("error_no != 0");
        if (!terms.empty())
            out.where = " WHERE " + join(terms, " AND ");
        return out;
    }

    void bindAll(Statement& s, const std::vector<int64_t>& values)
    {
        for (size_t i = 0; i < values.size(); ++i)
            s.bind(static_cast<int>(i + 1), values[i]);
    }

} // namespace

Expected<int64_t> Store::addRecords(std::span<Record> records)
{
    std::optional<Transaction> transaction;
    if (!m_db.inTransaction()) {
        TS_TRY(Transaction t, begin());
        transaction.emplace(std::move(t));
    }
    // One statement per schema version (cached by its text's address).
    static constexpr const char* kInsertV1
        = "INSERT INTO records (task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, "
          "costs, mean_cost, error_no, all_cost, timestamp, extra, fingerprint) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id";
    static constexpr const char* kInsertV2
        = "INSERT INTO records (task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, "
          "costs, mean_cost, error_no, all_cost, timestamp, extra, fingerprint, predicted_score, predicted_by, "
          "batch_rank) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING "
          "id";
    static constexpr const char* kInsertV3
        = "INSERT INTO records (task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, "
          "costs, mean_cost, error_no, all_cost, timestamp, extra, fingerprint, predicted_score, predicted_by, "
          "batch_rank, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO "
          "NOTHING RETURNING id";
    const char* sql = m_version >= 3 ? kInsertV3 : m_version >= 2 ? kInsertV2 : kInsertV1;
    TS_TRY(Statement * insert, cached(sql));
    int64_t added = 0;
    for (Record& r : records) {
        insert->bindAll(r.taskId, r.deviceId, r.sessionId, r.sourceId, r.sourceLine, static_cast<int64_t>(r.kind),
            r.steps, r.stepCount, nlohmann::json(r.result.costs).dump(), r.result.meanCost(),
            record::toInt(r.result.status), r.result.allCost, r.result.timestamp, r.extra, r.fingerprint);
        if (m_version >= 2) {
            insert->bind(16, r.predictedScore).bind(17, r.predictedBy);
            if (r.batchRank)
                insert->bind(18, *r.batchRank);
            else
                insert->bindNull(18);
        }
        if (m_version >= 3) {
            if (r.result.message.empty())
                insert->bindNull(19);
            else
                insert->bind(19, r.result.message);
        }
        // RETURNING gives the new id, or no row when the fingerprint was already stored.
        TS_TRY(bool inserted, insert->step());
        r.id = inserted ? insert->getInt(0) : 0;
        added += inserted ? 1 : 0;
        insert->reset();
    }
    if (transaction)
        TS_CHECK(transaction->commit());
    return added;
}

Expected<std::vector<Record>> Store::bestRecords(int64_t taskId, int64_t deviceId, int limit)
{
    const std::string sql = "SELECT " + recordColumns(m_version)
        + " FROM records WHERE task_id = ? AND device_id = ? AND error_no = 0 ORDER BY mean_cost, id LIMIT ?";
    TS_TRY(Statement s, m_db.prepare(sql));
    s.bindAll(taskId, deviceId, static_cast<int64_t>(limit));
    return detail::collect(s, [](const Statement& row) { return readRecord(row); });
}

Expected<std::vector<TaskSummary>> Store::bestPerTask()
{
    TS_TRY(Statement * s,
        cached("SELECT task_id, device_id, records, failures, best_record_id, best_cost FROM task_summary "
               "ORDER BY task_id, device_id"));
    return detail::collect(*s, [](const Statement& row) {
        return TaskSummary { row.getInt(0), row.getInt(1), row.getInt(2), row.getInt(3), row.getOptionalInt(4),
            row.getOptionalDouble(5) };
    });
}

Expected<std::vector<HistoryPoint>> Store::history(int64_t taskId, int64_t deviceId)
{
    TS_TRY(Statement * s,
        cached("SELECT id, session_id, mean_cost, error_no, timestamp FROM records "
               "WHERE task_id = ? AND device_id = ? ORDER BY id"));
    s->bindAll(taskId, deviceId);
    return detail::collect(*s, [](const Statement& row) {
        return HistoryPoint { row.getInt(0), row.getOptionalInt(1), row.getDouble(2), errorNoToStatus(row.getInt(3)),
            row.getDouble(4) };
    });
}

Expected<void> Store::forEachRecord(const RecordFilter& filter, const std::function<bool(const Record&)>& visit)
{
    if (m_db.backend() == Backend::Postgres) {
        // A PostgreSQL statement's result is held whole: read in keyset pages instead, so a million records
        // never sit in memory at once.
        constexpr int kPage = 4096;
        for (int64_t after = 0;;) {
            TS_TRY(std::vector<Record> page, recordPage(filter, after, kPage));
            for (const Record& r : page)
                if (!visit(r))
                    return {};
            if (page.size() < static_cast<size_t>(kPage))
                return {};
            after = page.back().id;
        }
    }
    const FilterSql f = filterSql(filter);
    TS_TRY(
        Statement s, m_db.prepare("SELECT " + recordColumns(m_version) + " FROM records" + f.where + " ORDER BY id"));
    bindAll(s, f.values);
    for (;;) {
        TS_TRY(bool row, s.step());
        if (!row || !visit(readRecord(s)))
            break;
    }
    return {};
}

Expected<std::vector<Record>> Store::records(const RecordFilter& filter)
{
    std::vector<Record> out;
    TS_CHECK(forEachRecord(filter, [&](const Record& r) {
        out.push_back(r);
        return true;
    }));
    return out;
}

Expected<std::vector<Record>> Store::recordPage(const RecordFilter& filter, int64_t afterId, int limit)
{
    FilterSql f = filterSql(filter);
    f.where += f.where.empty() ? " WHERE id > ?" : " AND id > ?";
    f.values.push_back(afterId);
    f.values.push_back(limit);
    TS_TRY(Statement s,
        m_db.prepare("SELECT " + recordColumns(m_version) + " FROM records" + f.where + " ORDER BY id LIMIT ?"));
    bindAll(s, f.values);
    return detail::collect(s, [](const Statement& row) { return readRecord(row); });
}

Expected<int64_t> Store::recordCount(const RecordFilter& filter)
{
    const FilterSql f = filterSql(filter);
    TS_TRY(Statement s, m_db.prepare("SELECT count(*) FROM records" + f.where));
    bindAll(s, f.values);
    TS_TRY(bool row, s.step());
    TS_ASSERT(row);
    return s.getInt(0);
}

Expected<std::map<int, int64_t>> Store::statusCounts(const RecordFilter& filter)
{
    const FilterSql f = filterSql(filter);
    TS_TRY(Statement s, m_db.prepare("SELECT error_no, count(*) FROM records" + f.where + " GROUP BY error_no"));
    bindAll(s, f.values);
    std::map<int, int64_t> out;
    for (;;) {
        TS_TRY(bool row, s.step());
        if (!row)
            break;
        out[static_cast<int>(s.getInt(0))] = s.getInt(1);
    }
    return out;
}

Expected<int64_t> Store::recordCount() { return m_db.queryInt("SELECT count(*) FROM records"); }

} // namespace ts::store
