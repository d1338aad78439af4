// Store: opening (and creating, and migrating) a workspace, transactions, the integrity check. The table
// groups are in store_devices.cpp, store_tasks.cpp, store_sessions.cpp, store_sources.cpp, store_records.cpp.
#include "core/store/store.h"

#include "core/store/store_rows.h"
#include "core/support/assert.h"
#include "core/support/strings.h"

#include <cstdlib>
#include <filesystem>

namespace ts::store {

namespace {

    // Inspects an existing file read-only: is it a TuneScope workspace, and of which version?
    Expected<int> inspect(const std::string& path)
    {
        TS_TRY(Connection db, Connection::open(path, Connection::Mode::ReadOnly));
        // One statement, so one snapshot: another process may be creating this workspace right now, and
        // separate reads could see its header before and its tables after the commit.
        auto header
            = db.prepare("SELECT (SELECT application_id FROM pragma_application_id), "
                         "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema)");
        Expected<bool> row = header ? header->step() : Expected<bool>(header.error());
        if (!row) {
            // SQLite's own words come last in the message: "file is not a database".
            const std::string& message = row.error().message;
            const size_t colon = message.rfind(": ");
            return makeError(ErrorKind::Io,
                path + ": not a TuneScope workspace (SQLite: "
                    + (colon == std::string::npos ? message : message.substr(colon + 2))
                    + "); not opened, not modified");
        }
        TS_ASSERT(*row);
        const int64_t applicationId = header->getInt(0);
        const int64_t version = header->getInt(1);
        const int64_t tables = header->getInt(2);
        if (applicationId == 0 && version == 0 && tables == 0)
            return 0; // an empty SQLite file: ours to initialize
        if (applicationId != kApplicationId)
            return makeError(ErrorKind::Io,
                path + ": not a TuneScope workspace (an SQLite database with application_id "
                    + std::to_string(applicationId) + "); not opened, not modified");
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
    if (isPostgresUrl(path))
        return openPostgres(path, options);
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
    // The busy timeout is set when the connection opens, before any statement: another process may be
    // creating or writing this file right now.
    TS_TRY(Connection db, Connection::open(path, Connection::Mode::ReadWriteCreate));
    if (version == 0)
        TS_CHECK(db.enableWal());
    // NORMAL in WAL mode: a commit is durable against a process crash (the kill test); only a power loss
    // can take the last commits back, never corrupt the file.
    TS_CHECK(db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON"));
    if (version < options.schemaVersion) {
        // Another process that found the same new file may be creating the schema too: migrate re-reads the
        // version inside each of its write transactions and skips what is already there.
        TS_TRY(version, schema::migrate(db, options.schemaVersion));
    }
    return Store(std::move(db), version);
}

Expected<Store> Store::openPostgres(const std::string& url, const OpenOptions& options)
{
    TS_TRY(Connection db, Connection::openPostgres(url, options.readOnly));
    TS_TRY(int version, schema::inspectPostgres(db));
    if (options.readOnly && version == 0)
        return makeError(ErrorKind::NotFound, db.path() + ": no TuneScope workspace in this database");
    if (!options.readOnly && version < options.schemaVersion) {
        TS_TRY(version, schema::migratePostgres(db, options.schemaVersion));
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

Expected<void> Store::verify()
{
    if (m_db.backend() == Backend::Postgres)
        return schema::verifyPostgres(m_db);
    TS_TRY(Statement s, m_db.prepare("PRAGMA quick_check"));
    TS_TRY(std::vector<std::string> lines, detail::collect(s, [](const Statement& row) { return row.getText(0); }));
    if (lines.size() == 1 && lines[0] == "ok")
        return {};
    lines.resize(std::min<size_t>(lines.size(), 5));
    return makeError(ErrorKind::Io, path() + ": damaged: " + join(lines, "; "));
}

} // namespace ts::store
