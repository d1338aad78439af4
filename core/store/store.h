// The workspace: the database that holds everything TuneScope measures or learns (DESIGN: "the store is
// the source of truth"). An SQLite file by default; a PostgreSQL database when its name is a URL
// (postgresql://user@host/db), for a team's shared workspace. Both backends hold the same schema and answer
// the same queries; database.h says how the SQL is shared and where it differs.
//
// - WAL mode, foreign keys on, every batch of writes in one transaction: a reader never sees half a batch
//   and a killed process loses at most the batch in flight.
// - A schema version (PRAGMA user_version) with forward migrations, one transaction each. A database written
//   by a newer TuneScope, a file that is not a TuneScope workspace, or a damaged one is reported with its
//   path and SQLite's message, and is never modified: it is first inspected through a read-only connection.
// - One Store per thread: the engine writes through its own Store on a worker thread while the GUI reads
//   through another. A Store is not shared between threads.
// - "Best per task" comes from task_summary, which triggers keep in step with records inside the same
//   transaction, so it answers in microseconds however many records there are.
// - Creating a workspace is safe when two processes open the same new path at once (two imports started
//   together): the schema is created inside a BEGIN IMMEDIATE transaction that re-reads the version first.
//
// Store is the one façade over the tables; the SQL stays inside core/store, one file per group of tables:
// store.cpp (open, inspect, transactions), store_devices.cpp, store_tasks.cpp (tasks and networks),
// store_sessions.cpp (sessions and cost models), store_sources.cpp, store_records.cpp, schema.cpp.
#pragma once

#include "core/store/database.h"
#include "core/store/records.h"

#include <functional>
#include <map>
#include <memory>
#include <span>

namespace ts::store {

// The schema this build writes. Version 1 is the first release's; see schema.cpp for what each added.
constexpr int kSchemaVersion = 3;
// PRAGMA application_id of a TuneScope workspace: "TSdb".
constexpr int32_t kApplicationId = 0x54536462;

struct OpenOptions {
    bool readOnly = false;
    // Create or migrate up to this version only. Tests use it to build databases of older versions.
    int schemaVersion = kSchemaVersion;
};

// Which records a query wants. Empty fields match everything.
struct RecordFilter {
    std::vector<int64_t> taskIds;
    std::optional<int64_t> deviceId;
    std::optional<int64_t> sessionId;
    std::optional<int64_t> sourceId;
    bool okOnly = false;
    bool failedOnly = false; // error_no != 0
};

class Store {
public:
    // Opens (creating it when missing) the workspace at `path`, migrating an older schema forward. `path` is a
    // file, or a postgresql:// URL: a PostgreSQL database whose current schema is empty or a workspace.
    static Expected<Store> open(const std::string& path, const OpenOptions& options = {});
    // $XDG_DATA_HOME/TuneScope/workspace.tunescope, or ~/.local/share/TuneScope/workspace.tunescope.
    static std::string defaultWorkspacePath();

    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    ~Store();

    // The file, or the URL without its password.
    const std::string& path() const { return m_db.path(); }
    Backend backend() const { return m_db.backend(); }
    int schemaVersion() const { return m_version; }

    // A transaction around several calls below; without one, each write call is its own transaction.
    Expected<Transaction> begin();

    // Devices and tasks are found by identity (target + host + hardware params; key) or added.
    Expected<int64_t> addDevice(const Device& device);
    // Sets one key of a device's properties JSON (`value` is JSON text; the machine profile lives under
    // "machine_profile"), keeping the others. NotFound for an unknown device.
    Expected<void> setDeviceProperty(int64_t deviceId, const std::string& key, const std::string& value);
    Expected<int64_t> addTask(const TaskInfo& task);
    Expected<int64_t> addNetwork(const NetworkInfo& network);
    Expected<int64_t> beginSession(const SessionInfo& session);
    Expected<void> endSession(int64_t sessionId, const std::string& status, double endedAt);
    // A running session switched its cost model: its row names the new kind and keeps `settings` (JSON), which
    // lists the switches. NotFound for an unknown session.
    Expected<void> setSessionModel(int64_t sessionId, const std::string& costModel, const std::string& settings);
    // Adds an imported file's row (id 0) or rewrites its counts (id set). Returns the id.
    Expected<int64_t> saveSource(const SourceInfo& source);
    Expected<int64_t> saveCostModel(const CostModelInfo& model);

    // Adds a batch of records in one transaction (or in the caller's). A record whose fingerprint is
    // already stored is skipped. Returns how many were added; ids are written back into `records`.
    Expected<int64_t> addRecords(std::span<Record> records);

    Expected<std::vector<Device>> devices();
    Expected<std::vector<TaskInfo>> tasks();
    Expected<std::optional<TaskInfo>> findTask(const std::string& key);
    Expected<std::vector<NetworkInfo>> networks();
    Expected<std::vector<SessionInfo>> sessions();
    Expected<std::vector<SourceInfo>> sources();
    Expected<CostModelInfo> costModel(int64_t id);

    // Best `limit` successful records of a task on a device, cheapest first.
    Expected<std::vector<Record>> bestRecords(int64_t taskId, int64_t deviceId, int limit);
    // Records, failures and the best record of every (task, device).
    Expected<std::vector<TaskSummary>> bestPerTask();
    // A task's tuning curve on a device, in trial order.
    Expected<std::vector<HistoryPoint>> history(int64_t taskId, int64_t deviceId);
    // Records matching `filter`, in trial order (training sets, a session's records, export).
    Expected<std::vector<Record>> records(const RecordFilter& filter);
    // Streams the same records without holding them all; `visit` returns false to stop.
    Expected<void> forEachRecord(const RecordFilter& filter, const std::function<bool(const Record&)>& visit);
    // A page of the records matching `filter`: those with an id above `afterId`, ascending, at most `limit`.
    // Keyset paging on the primary key (or the session index), so a page costs the same at record 1 or 1M;
    // the next page starts after the last id of this one.
    Expected<std::vector<Record>> recordPage(const RecordFilter& filter, int64_t afterId, int limit);
    // The number of records matching `filter`.
    Expected<int64_t> recordCount(const RecordFilter& filter);
    // error_no -> number of records, for a filter.
    Expected<std::map<int, int64_t>> statusCounts(const RecordFilter& filter);
    Expected<int64_t> recordCount();

    // Copies every row of `source` (another backend or the same) into this workspace, which must be empty and
    // of the same schema version, in one transaction; ids are kept. Returns the rows copied per table.
    Expected<std::vector<std::pair<std::string, int64_t>>> copyFrom(Store& source);

    // SQLite: PRAGMA quick_check. PostgreSQL: the per-task summary agrees with the records. An error names the
    // workspace and what was found.
    Expected<void> verify();

private:
    // Tests reach the raw connection through tests/core/store_test_access.h; nothing else does.
    friend class StoreTestAccess;

    Store(Connection db, int version);
    static Expected<Store> openPostgres(const std::string& url, const OpenOptions& options);
    Expected<Statement*> cached(const char* sql);

    Connection m_db;
    int m_version = 0;
    std::map<const char*, std::unique_ptr<Statement>> m_statements;
};

// The schema migrations; schema.cpp.
namespace schema {
    // Migrates `db` up to version `to`, one BEGIN IMMEDIATE transaction per version. Each transaction reads
    // the version again first, so a version another connection applied meanwhile is skipped, not re-run.
    // Returns the version the database is at.
    Expected<int> migrate(Connection& db, int to);
    // The same for PostgreSQL (schema_postgres.cpp), and what differs there.
    Expected<int> migratePostgres(Connection& db, int to);
    // The schema version of a PostgreSQL workspace (0: an empty schema, ours to create), or an error for a
    // database of another application or of a newer TuneScope.
    Expected<int> inspectPostgres(Connection& db);
    Expected<void> verifyPostgres(Connection& db);
    extern const char* const kPostgresSetDeviceProperty;
} // namespace schema

} // namespace ts::store
