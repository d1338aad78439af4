#include "core/store/store.h"

#include "core/support/assert.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace ts::store {

namespace {

    std::string hardwareParamsText(const std::optional<HardwareParams>& params)
    {
        return params ? nlohmann::json(*params).dump() : std::string();
    }

    std::optional<HardwareParams> parseHardwareParams(const std::string& text)
    {
        if (text.empty())
            return std::nullopt;
        const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
        if (!json.is_array() || json.size() != 8)
            return std::nullopt;
        HardwareParams params {};
        for (size_t i = 0; i < 8; ++i)
            params[i] = json[i].is_number_integer() ? json[i].get<int64_t>() : 0;
        return params;
    }

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

    // Column order of every SELECT of records; readRecord reads it.
    constexpr const char* kRecordColumns
        = "id, task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, costs, error_no, "
          "all_cost, timestamp, extra, fingerprint, predicted_score, predicted_by, batch_rank";
    // Version 1 has no prediction columns.
    constexpr const char* kRecordColumnsV1
        = "id, task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, costs, error_no, "
          "all_cost, timestamp, extra, fingerprint, NULL, NULL, NULL";

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
        if (!terms.empty())
            out.where = " WHERE " + join(terms, " AND ");
        return out;
    }

    void bindAll(Statement& s, const std::vector<int64_t>& values)
    {
        for (size_t i = 0; i < values.size(); ++i)
            s.bind(static_cast<int>(i + 1), values[i]);
    }

    // Every row of a statement, each read by `read`.
    template <typename Read> auto collect(Statement& s, Read read) -> Expected<std::vector<decltype(read(s))>>
    {
        std::vector<decltype(read(s))> out;
        for (;;) {
            TS_TRY(bool row, s.step());
            if (!row)
                return out;
            out.push_back(read(s));
        }
    }

    // Inspects an existing file read-only: is it a TuneScope workspace, and of which version?
    Expected<int> inspect(const std::string& path)
    {
        TS_TRY(Connection db, Connection::open(path, Connection::Mode::ReadOnly));
        auto applicationId = db.queryInt("PRAGMA application_id");
        if (!applicationId) {
            // SQLite's own words come last in the message: "file is not a database".
            const std::string& message = applicationId.error().message;
            const size_t colon = message.rfind(": ");
            return makeError(ErrorKind::Io,
                path + ": not a TuneScope workspace (SQLite: "
                    + (colon == std::string::npos ? message : message.substr(colon + 2))
                    + "); not opened, not modified");
        }
        TS_TRY(int64_t version, db.queryInt("PRAGMA user_version"));
        TS_TRY(int64_t tables, db.queryInt("SELECT count(*) FROM sqlite_schema"));
        if (*applicationId == 0 && version == 0 && tables == 0)
            return 0; // an empty SQLite file: ours to initialize
        if (*applicationId != kApplicationId)
            return makeError(ErrorKind::Io,
                path + ": not a TuneScope workspace (an SQLite database with application_id "
                    + std::to_string(*applicationId) + "); not opened, not modified");
        if (version > kSchemaVersion)
            return makeError(ErrorKind::Unsupported,
                path + ": written by a newer TuneScope (schema version " + std::to_string(version)
                    + "; this build reads up to " + std::to_string(kSchemaVersion)
                    + "); not opened, not modified. Update TuneScope to open it.");
        if (version < 1)
            return makeError(ErrorKind::Io, path + ": a TuneScope workspace without a schema version; not modified");
        return static_cast<int>(version);
    }

} // namespace

const char* toString(RecordKind kind) { return kind == RecordKind::Ansor ? "auto_scheduler" : "autotvm"; }

std::string deviceKindOf(const std::string& target)
{
    const std::string first = target.substr(0, target.find(' '));
    for (const char* gpu : { "cuda", "nvptx", "rocm", "opencl", "vulkan", "metal" })
        if (first == gpu)
            return "gpu";
    return "cpu";
}

std::string deviceNameOf(const std::string& target)
{
    const std::vector<std::string> words = split(target, ' ');
    const std::string kind = deviceKindOf(target);
    std::string name = kind == "gpu" ? (words.empty() ? target : words.front()) : "cpu";
    for (const std::string& w : words)
        for (const char* option : { "-mcpu=", "-arch=", "-model=" })
            if (w.rfind(option, 0) == 0)
                return name + " " + w.substr(std::string_view(option).size());
    return name;
}

std::string Store::defaultWorkspacePath()
{
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".local" / "share";
    else
        base = std::filesystem::current_path();
    return (base / "TuneScope" / "workspace.tunescope").string();
}

Expected<Store> Store::open(const std::string& path, const OpenOptions& options)
{
    if (options.schemaVersion < 1 || options.schemaVersion > kSchemaVersion)
        return makeError(ErrorKind::InvalidArgument, "schema version must be 1.." + std::to_string(kSchemaVersion));
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    int version = 0;
    if (exists) {
        if (std::filesystem::is_directory(path, ec))
            return makeError(ErrorKind::Io, path + ": is a directory, not a workspace file");
        TS_TRY(version, inspect(path));
    } else if (options.readOnly) {
        return makeError(ErrorKind::NotFound, path + ": no such workspace");
    } else if (const auto parent = std::filesystem::path(path).parent_path(); !parent.empty()) {
        std::filesystem::create_directories(parent, ec);
        if (ec)
            return makeError(ErrorKind::Io, path + ": cannot create its folder: " + ec.message());
    }
    if (options.readOnly) {
        TS_TRY(Connection db, Connection::open(path, Connection::Mode::ReadOnly));
        TS_CHECK(db.exec("PRAGMA foreign_keys = ON"));
        return Store(std::move(db), version);
    }
    TS_TRY(Connection db, Connection::open(path, Connection::Mode::ReadWriteCreate));
    if (version == 0)
        TS_CHECK(db.exec("PRAGMA journal_mode = WAL"));
    // NORMAL in WAL mode: a commit is durable against a process crash (the kill test); only a power loss
    // can take the last commits back, never corrupt the file.
    TS_CHECK(db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON"));
    if (version < options.schemaVersion) {
        TS_CHECK(schema::migrate(db, version, options.schemaVersion));
        version = options.schemaVersion;
    }
    return Store(std::move(db), version);
}

Store::Store(Connection db, int version)
    : m_db(std::move(db))
    , m_version(version)
{
}

Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

Expected<Statement*> Store::cached(const char* sql)
{
    auto it = m_statements.find(sql);
    if (it == m_statements.end()) {
        TS_TRY(Statement s, m_db.prepare(sql));
        it = m_statements.emplace(sql, std::make_unique<Statement>(std::move(s))).first;
    }
    it->second->reset();
    return it->second.get();
}

Expected<Transaction> Store::begin() { return Transaction::begin(m_db); }

Expected<int64_t> Store::addDevice(const Device& device)
{
    const std::string params = hardwareParamsText(device.hardwareParams);
    TS_TRY(Statement * find,
        cached("SELECT id FROM devices WHERE target = ? AND target_host = ? AND hardware_params = ?"));
    find->bind(1, device.target).bind(2, device.targetHost).bind(3, params);
    TS_TRY(bool found, find->step());
    if (found)
        return find->getInt(0);
    TS_TRY(Statement * insert,
        cached("INSERT INTO devices (kind, name, target, target_host, hardware_params, properties) "
               "VALUES (?, ?, ?, ?, ?, ?)"));
    insert->bind(1, device.kind.empty() ? deviceKindOf(device.target) : device.kind)
        .bind(2, device.name.empty() ? deviceNameOf(device.target) : device.name)
        .bind(3, device.target)
        .bind(4, device.targetHost)
        .bind(5, params)
        .bind(6, device.properties);
    TS_CHECK(insert->run());
    return m_db.lastInsertId();
}

Expected<int64_t> Store::addTask(const TaskInfo& task)
{
    TS_TRY(Statement * find, cached("SELECT id FROM tasks WHERE kind = ? AND key = ?"));
    find->bind(1, static_cast<int64_t>(task.kind)).bind(2, task.key);
    TS_TRY(bool found, find->step());
    if (found)
        return find->getInt(0);
    TS_TRY(Statement * insert,
        cached("INSERT INTO tasks (kind, key, name, dag_text, flops, rebuildable) VALUES (?, ?, ?, ?, ?, ?)"));
    insert->bind(1, static_cast<int64_t>(task.kind))
        .bind(2, task.key)
        .bind(3, task.name)
        .bind(4, task.dagText)
        .bind(5, task.flops)
        .bind(6, static_cast<int64_t>(task.rebuildable));
    TS_CHECK(insert->run());
    return m_db.lastInsertId();
}

Expected<int64_t> Store::addNetwork(const NetworkInfo& network)
{
    TS_TRY(Transaction transaction, begin());
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO networks (name, batch, layout) VALUES (?, ?, ?) "
                     "ON CONFLICT (name, batch, layout) DO UPDATE SET name = excluded.name RETURNING id"));
    insert.bind(1, network.name).bind(2, network.batch).bind(3, network.layout);
    TS_TRY(bool row, insert.step());
    TS_ASSERT(row);
    const int64_t id = insert.getInt(0);
    insert.reset();
    TS_CHECK(m_db.exec("DELETE FROM network_tasks WHERE network_id = " + std::to_string(id)));
    TS_TRY(Statement member,
        m_db.prepare("INSERT INTO network_tasks (network_id, task_id, position, weight) VALUES (?, ?, ?, ?)"));
    for (size_t i = 0; i < network.tasks.size(); ++i) {
        member.bind(1, id)
            .bind(2, network.tasks[i].taskId)
            .bind(3, static_cast<int64_t>(i))
            .bind(4, network.tasks[i].weight);
        TS_CHECK(member.run());
    }
    TS_CHECK(transaction.commit());
    return id;
}

Expected<int64_t> Store::beginSession(const SessionInfo& session)
{
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO sessions (policy, cost_model, seed, settings, device_id, started_at, status) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)"));
    insert.bind(1, session.policy)
        .bind(2, session.costModel)
        .bind(3, session.seed)
        .bind(4, session.settings)
        .bind(5, session.deviceId)
        .bind(6, session.startedAt)
        .bind(7, session.status);
    TS_CHECK(insert.run());
    return m_db.lastInsertId();
}

Expected<void> Store::endSession(int64_t sessionId, const std::string& status, double endedAt)
{
    TS_TRY(Statement update, m_db.prepare("UPDATE sessions SET status = ?, ended_at = ? WHERE id = ?"));
    update.bind(1, status).bind(2, endedAt).bind(3, sessionId);
    TS_CHECK(update.run());
    if (m_db.changes() == 0)
        return makeError(ErrorKind::NotFound, path() + ": no session " + std::to_string(sessionId));
    return {};
}

Expected<int64_t> Store::saveSource(const SourceInfo& source)
{
    TS_TRY(Statement save,
        m_db.prepare(source.id == 0
                ? "INSERT INTO sources (path, format, content_hash, bytes, lines, comments, records, duplicates, "
                  "malformed, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                : "UPDATE sources SET path = ?, format = ?, content_hash = ?, bytes = ?, lines = ?, comments = ?, "
                  "records = ?, duplicates = ?, malformed = ?, imported_at = ? WHERE id = ?"));
    save.bind(1, source.path)
        .bind(2, source.format)
        .bind(3, source.contentHash)
        .bind(4, source.bytes)
        .bind(5, source.lines)
        .bind(6, source.comments)
        .bind(7, source.records)
        .bind(8, source.duplicates)
        .bind(9, source.malformed)
        .bind(10, source.importedAt);
    if (source.id != 0)
        save.bind(11, source.id);
    TS_CHECK(save.run());
    if (source.id == 0)
        return m_db.lastInsertId();
    if (m_db.changes() == 0)
        return makeError(ErrorKind::NotFound, path() + ": no imported source " + std::to_string(source.id));
    return source.id;
}

Expected<int64_t> Store::saveCostModel(const CostModelInfo& model)
{
    if (m_version < 2)
        return makeError(ErrorKind::Unsupported, path() + ": schema version 1 has no cost models");
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO cost_models (kind, name, settings, training_summary, weights, created_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)"));
    insert.bind(1, model.kind)
        .bind(2, model.name)
        .bind(3, model.settings)
        .bind(4, model.trainingSummary)
        .bind(5, model.weights)
        .bind(6, model.createdAt);
    TS_CHECK(insert.run());
    return m_db.lastInsertId();
}

Expected<CostModelInfo> Store::costModel(int64_t id)
{
    TS_TRY(Statement select,
        m_db.prepare("SELECT id, kind, name, settings, training_summary, weights, created_at FROM cost_models "
                     "WHERE id = ?"));
    select.bind(1, id);
    TS_TRY(bool row, select.step());
    if (!row)
        return makeError(ErrorKind::NotFound, path() + ": no cost model " + std::to_string(id));
    return CostModelInfo { select.getInt(0), select.getText(1), select.getText(2), select.getText(3), select.getText(4),
        select.getBlob(5), select.getDouble(6) };
}

Expected<int64_t> Store::addRecords(std::span<Record> records)
{
    std::optional<Transaction> transaction;
    if (!m_db.inTransaction()) {
        TS_TRY(Transaction t, begin());
        transaction.emplace(std::move(t));
    }
    const char* sql = m_version >= 2
        ? "INSERT INTO records (task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, "
          "costs, mean_cost, error_no, all_cost, timestamp, extra, fingerprint, predicted_score, predicted_by, "
          "batch_rank) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        : "INSERT INTO records (task_id, device_id, session_id, source_id, source_line, kind, steps, step_count, "
          "costs, mean_cost, error_no, all_cost, timestamp, extra, fingerprint) "
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
    TS_TRY(Statement * insert, cached(sql));
    int64_t added = 0;
    for (Record& r : records) {
        insert->bind(1, r.taskId)
            .bind(2, r.deviceId)
            .bind(3, r.sessionId)
            .bind(4, r.sourceId)
            .bind(5, r.sourceLine)
            .bind(6, static_cast<int64_t>(r.kind))
            .bind(7, r.steps)
            .bind(8, r.stepCount)
            .bind(9, nlohmann::json(r.result.costs).dump())
            .bind(10, r.result.meanCost())
            .bind(11, record::toInt(r.result.status))
            .bind(12, r.result.allCost)
            .bind(13, r.result.timestamp)
            .bind(14, r.extra)
            .bind(15, r.fingerprint);
        if (m_version >= 2) {
            insert->bind(16, r.predictedScore).bind(17, r.predictedBy);
            if (r.batchRank)
                insert->bind(18, *r.batchRank);
            else
                insert->bindNull(18);
        }
        TS_CHECK(insert->run());
        if (m_db.changes() > 0) {
            r.id = m_db.lastInsertId();
            ++added;
        } else {
            r.id = 0;
        }
    }
    if (transaction)
        TS_CHECK(transaction->commit());
    return added;
}

Expected<std::vector<Device>> Store::devices()
{
    TS_TRY(Statement s,
        m_db.prepare(
            "SELECT id, kind, name, target, target_host, hardware_params, properties FROM devices ORDER BY id"));
    return collect(s, [](const Statement& row) {
        return Device { row.getInt(0), row.getText(1), row.getText(2), row.getText(3), row.getText(4),
            parseHardwareParams(row.getText(5)), row.getText(6) };
    });
}

namespace {

    TaskInfo readTask(const Statement& s)
    {
        return TaskInfo { s.getInt(0), static_cast<RecordKind>(s.getInt(1)), s.getText(2), s.getText(3), s.getText(4),
            s.getDouble(5), s.getInt(6) != 0 };
    }

    constexpr const char* kTaskColumns = "SELECT id, kind, key, name, dag_text, flops, rebuildable FROM tasks";

} // namespace

Expected<std::vector<TaskInfo>> Store::tasks()
{
    TS_TRY(Statement s, m_db.prepare(std::string(kTaskColumns) + " ORDER BY id"));
    return collect(s, [](const Statement& row) { return readTask(row); });
}

Expected<std::optional<TaskInfo>> Store::findTask(const std::string& key)
{
    TS_TRY(Statement s, m_db.prepare(std::string(kTaskColumns) + " WHERE key = ? ORDER BY id LIMIT 1"));
    s.bind(1, key);
    TS_TRY(bool row, s.step());
    if (!row)
        return std::optional<TaskInfo>();
    return std::optional<TaskInfo>(readTask(s));
}

Expected<std::vector<NetworkInfo>> Store::networks()
{
    TS_TRY(Statement s, m_db.prepare("SELECT id, name, batch, layout FROM networks ORDER BY id"));
    std::vector<NetworkInfo> out;
    for (;;) {
        TS_TRY(bool row, s.step());
        if (!row)
            break;
        out.push_back(NetworkInfo { s.getInt(0), s.getText(1), s.getInt(2), s.getText(3), {} });
    }
    TS_TRY(Statement members,
        m_db.prepare("SELECT task_id, weight FROM network_tasks WHERE network_id = ? ORDER BY position"));
    for (NetworkInfo& n : out) {
        members.bind(1, n.id);
        for (;;) {
            TS_TRY(bool row, members.step());
            if (!row)
                break;
            n.tasks.push_back({ members.getInt(0), static_cast<int>(members.getInt(1)) });
        }
    }
    return out;
}

Expected<std::vector<SessionInfo>> Store::sessions()
{
    TS_TRY(Statement s,
        m_db.prepare("SELECT id, policy, cost_model, seed, settings, device_id, started_at, ended_at, status "
                     "FROM sessions ORDER BY id"));
    return collect(s, [](const Statement& row) {
        return SessionInfo { row.getInt(0), row.getText(1), row.getText(2), row.getInt(3), row.getText(4),
            row.getOptionalInt(5), row.getDouble(6), row.getOptionalDouble(7), row.getText(8) };
    });
}

namespace {

    constexpr const char* kSourceColumns = "SELECT id, path, format, content_hash, bytes, lines, comments, records, "
                                           "duplicates, malformed, imported_at FROM sources";

    SourceInfo readSource(const Statement& s)
    {
        return SourceInfo { s.getInt(0), s.getText(1), s.getText(2), s.getInt(3), s.getInt(4), s.getInt(5), s.getInt(6),
            s.getInt(7), s.getInt(8), s.getInt(9), s.getDouble(10) };
    }

} // namespace

Expected<std::vector<SourceInfo>> Store::sources()
{
    TS_TRY(Statement s, m_db.prepare(std::string(kSourceColumns) + " ORDER BY id"));
    return collect(s, [](const Statement& row) { return readSource(row); });
}

Expected<std::vector<Record>> Store::bestRecords(int64_t taskId, int64_t deviceId, int limit)
{
    const std::string sql = "SELECT " + std::string(m_version >= 2 ? kRecordColumns : kRecordColumnsV1)
        + " FROM records WHERE task_id = ? AND device_id = ? AND error_no = 0 ORDER BY mean_cost, id LIMIT ?";
    TS_TRY(Statement s, m_db.prepare(sql));
    s.bind(1, taskId).bind(2, deviceId).bind(3, static_cast<int64_t>(limit));
    return collect(s, [](const Statement& row) { return readRecord(row); });
}

Expected<std::vector<TaskSummary>> Store::bestPerTask()
{
    TS_TRY(Statement * s,
        cached("SELECT task_id, device_id, records, failures, best_record_id, best_cost FROM task_summary "
               "ORDER BY task_id, device_id"));
    return collect(*s, [](const Statement& row) {
        return TaskSummary { row.getInt(0), row.getInt(1), row.getInt(2), row.getInt(3), row.getOptionalInt(4),
            row.getOptionalDouble(5) };
    });
}

Expected<std::vector<HistoryPoint>> Store::history(int64_t taskId, int64_t deviceId)
{
    TS_TRY(Statement * s,
        cached("SELECT id, session_id, mean_cost, error_no, timestamp FROM records "
               "WHERE task_id = ? AND device_id = ? ORDER BY id"));
    s->bind(1, taskId).bind(2, deviceId);
    return collect(*s, [](const Statement& row) {
        return HistoryPoint { row.getInt(0), row.getOptionalInt(1), row.getDouble(2), errorNoToStatus(row.getInt(3)),
            row.getDouble(4) };
    });
}

Expected<void> Store::forEachRecord(const RecordFilter& filter, const std::function<bool(const Record&)>& visit)
{
    const FilterSql f = filterSql(filter);
    TS_TRY(Statement s,
        m_db.prepare("SELECT " + std::string(m_version >= 2 ? kRecordColumns : kRecordColumnsV1) + " FROM records"
            + f.where + " ORDER BY id"));
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

Expected<void> Store::verify()
{
    TS_TRY(Statement s, m_db.prepare("PRAGMA quick_check"));
    TS_TRY(std::vector<std::string> lines, collect(s, [](const Statement& row) { return row.getText(0); }));
    if (lines.size() == 1 && lines[0] == "ok")
        return {};
    lines.resize(std::min<size_t>(lines.size(), 5));
    return makeError(ErrorKind::Io, path() + ": damaged: " + join(lines, "; "));
}

} // namespace ts::store
