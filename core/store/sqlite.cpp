// The SQLite backend of database.h: a workspace file. sqlite3.h is included here only.
#include "core/store/database_impl.h"
#include "core/support/assert.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

namespace ts::store::detail {

namespace {

    constexpr int kBusyTimeoutMs = 10'000;

    void checkBind(int rc, int index)
    {
        TS_ASSERT(rc == SQLITE_OK) << "binding parameter " << index << ": " << sqlite3_errstr(rc);
    }

    class SqliteConnection;

    class SqliteStatement final : public StatementImpl {
    public:
        SqliteStatement(sqlite3_stmt* stmt, const SqliteConnection* owner)
            : m_stmt(stmt)
            , m_owner(owner)
        {
        }
        ~SqliteStatement() override { sqlite3_finalize(m_stmt); }

        void bindInt(int index, int64_t value) override { checkBind(sqlite3_bind_int64(m_stmt, index, value), index); }
        void bindDouble(int index, double value) override
        {
            checkBind(sqlite3_bind_double(m_stmt, index, value), index);
        }
        void bindText(int index, std::string_view text) override
        {
            checkBind(
                sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8), index);
        }
        void bindBlob(int index, const std::vector<uint8_t>& blob) override
        {
            checkBind(sqlite3_bind_blob64(m_stmt, index, blob.data(), blob.size(), SQLITE_TRANSIENT), index);
        }
        void bindNull(int index) override { checkBind(sqlite3_bind_null(m_stmt, index), index); }
        Expected<bool> step() override;
        void reset() override { sqlite3_reset(m_stmt); }
        bool isNull(int column) const override { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
        int64_t getInt(int column) const override { return sqlite3_column_int64(m_stmt, column); }
        double getDouble(int column) const override { return sqlite3_column_double(m_stmt, column); }
        std::string getText(int column) const override
        {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
            return text ? std::string(text, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string();
        }
        std::vector<uint8_t> getBlob(int column) const override
        {
            const auto* data = static_cast<const uint8_t*>(sqlite3_column_blob(m_stmt, column));
            return data ? std::vector<uint8_t>(data, data + sqlite3_column_bytes(m_stmt, column))
                        : std::vector<uint8_t>();
        }

    private:
        sqlite3_stmt* m_stmt = nullptr;
        const SqliteConnection* m_owner = nullptr;
    };

    class SqliteConnection final : public ConnectionImpl {
    public:
        SqliteConnection(sqlite3* db, std::string path)
            : m_db(db)
            , m_path(std::move(path))
        {
        }
        ~SqliteConnection() override { sqlite3_close_v2(m_db); }

        Backend backend() const override { return Backend::Sqlite; }
        const std::string& path() const override { return m_path; }

        // An error naming the path, what was being done and SQLite's message for `code`.
        Error error(std::string_view what, int code) const
        {
            std::string message = m_path + ": " + std::string(what) + ": ";
            // The connection's message is the precise one when it belongs to this code; otherwise the code's text.
            if (m_db && sqlite3_extended_errcode(m_db) == code)
                message += sqlite3_errmsg(m_db);
            else
                message += sqlite3_errstr(code);
            return Error { ErrorKind::Io, std::move(message) };
        }

        Expected<void> exec(std::string_view sql) override
        {
            char* message = nullptr;
            const std::string text(sql);
            const int rc = sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &message);
            if (rc != SQLITE_OK) {
                std::string detail = message ? message : sqlite3_errstr(rc);
                sqlite3_free(message);
                return makeError(ErrorKind::Io, m_path + ": " + detail + " (in: " + text.substr(0, 60) + ")");
            }
            return {};
        }

        Expected<void> enableWal() override
        {
            // Switching to WAL upgrades a read lock to the exclusive lock. When two connections do that on the
            // same file at once (two processes creating one new workspace), SQLite answers one of them
            // SQLITE_BUSY right away instead of calling the busy handler, since waiting could deadlock. The
            // other connection is done within milliseconds, and then the switch is a no-op: so retry, within
            // the busy timeout.
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
            for (int attempt = 0;; ++attempt) {
                const int rc = sqlite3_exec(m_db, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr);
                if (rc == SQLITE_OK)
                    return {};
                if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline)
                    return error("cannot switch to WAL mode", rc);
                std::this_thread::sleep_for(std::chrono::milliseconds(1 << std::min(attempt, 5)));
            }
        }

        Expected<std::unique_ptr<StatementImpl>> prepare(std::string_view sql) override
        {
            sqlite3_stmt* stmt = nullptr;
            const int rc = sqlite3_prepare_v3(
                m_db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
            if (rc != SQLITE_OK)
                return error("cannot prepare '" + std::string(sql.substr(0, 60)) + "'", rc);
            return std::unique_ptr<StatementImpl>(std::make_unique<SqliteStatement>(stmt, this));
        }

        int changes() const override { return sqlite3_changes(m_db); }
        bool inTransaction() const override { return sqlite3_get_autocommit(m_db) == 0; }
        const char* beginSql() const override { return "BEGIN IMMEDIATE"; }

    private:
        sqlite3* m_db = nullptr;
        std::string m_path;
    };

    Expected<bool> SqliteStatement::step()
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        Error e = m_owner->error("cannot run '" + std::string(sqlite3_sql(m_stmt)).substr(0, 60) + "'", rc);
        sqlite3_reset(m_stmt);
        return e;
    }

} // namespace

Expected<std::unique_ptr<ConnectionImpl>> openSqlite(const std::string& path, Connection::Mode mode)
{
    int flags = SQLITE_OPEN_NOMUTEX; // one connection per thread; each owner serializes its own use
    switch (mode) {
    case Connection::Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Connection::Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Connection::Mode::ReadWriteCreate:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
    auto connection = std::make_unique<SqliteConnection>(db, path);
    if (rc != SQLITE_OK)
        return connection->error("cannot open", rc);
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    return std::unique_ptr<ConnectionImpl>(std::move(connection));
}

} // namespace ts::store::detail
