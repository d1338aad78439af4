#include "core/store/sqlite.h"

#include "core/support/assert.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

namespace ts::store {

namespace {

    constexpr int kBusyTimeoutMs = 10'000;

} // namespace

Expected<Connection> Connection::open(const std::string& path, Mode mode)
{
    int flags = SQLITE_OPEN_NOMUTEX; // one connection per thread; each owner serializes its own use
    switch (mode) {
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::ReadWriteCreate:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    Connection c;
    c.m_path = path;
    const int rc = sqlite3_open_v2(path.c_str(), &c.m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        Error e = c.error("cannot open", rc);
        return e;
    }
    sqlite3_extended_result_codes(c.m_db, 1);
    sqlite3_busy_timeout(c.m_db, kBusyTimeoutMs);
    return c;
}

Connection::Connection(Connection&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path))
{
}

Connection& Connection::operator=(Connection&& other) noexcept
{
    if (this != &other) {
        if (m_db)
            sqlite3_close_v2(m_db);
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

Connection::~Connection()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

Error Connection::error(std::string_view what, int code) const
{
    std::string message = m_path + ": " + std::string(what) + ": ";
    // The connection's message is the precise one when it belongs to this code; otherwise the code's text.
    if (m_db && sqlite3_extended_errcode(m_db) == code)
        message += sqlite3_errmsg(m_db);
    else
        message += sqlite3_errstr(code);
    return Error { ErrorKind::Io, std::move(message) };
}

Expected<void> Connection::exec(std::string_view sql)
{
    TS_ASSERT(m_db);
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

Expected<void> Connection::enableWal()
{
    TS_ASSERT(m_db);
    // Switching to WAL upgrades a read lock to the exclusive lock. When two connections do that on the same
    // file at once (two processes creating one new workspace), SQLite answers one of them SQLITE_BUSY right
    // away instead of calling the busy handler, since waiting could deadlock. The other connection is done
    // within milliseconds, and then the switch is a no-op: so retry, within the busy timeout.
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

Expected<Statement> Connection::prepare(std::string_view sql)
{
    TS_ASSERT(m_db);
    sqlite3_stmt* stmt = nullptr;
    const int rc
        = sqlite3_prepare_v3(m_db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK)
        return error("cannot prepare '" + std::string(sql.substr(0, 60)) + "'", rc);
    return Statement(stmt, this);
}

Expected<int64_t> Connection::queryInt(std::string_view sql)
{
    TS_TRY(Statement s, prepare(sql));
    TS_TRY(bool row, s.step());
    if (!row)
        return makeError(ErrorKind::Io, m_path + ": '" + std::string(sql) + "' returned no row");
    return s.getInt(0);
}

int64_t Connection::lastInsertId() const { return sqlite3_last_insert_rowid(m_db); }

int Connection::changes() const { return sqlite3_changes(m_db); }

bool Connection::inTransaction() const { return sqlite3_get_autocommit(m_db) == 0; }

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_owner(other.m_owner)
    , m_stepped(other.m_stepped)
{
}

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_owner = other.m_owner;
        m_stepped = other.m_stepped;
    }
    return *this;
}

Statement::~Statement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

namespace {

    void checkBind(int rc, int index)
    {
        TS_ASSERT(rc == SQLITE_OK) << "binding parameter " << index << ": " << sqlite3_errstr(rc);
    }

} // namespace

Statement& Statement::bind(int index, int64_t value)
{
    if (m_stepped)
        reset();
    checkBind(sqlite3_bind_int64(m_stmt, index, value), index);
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    if (m_stepped)
        reset();
    checkBind(sqlite3_bind_double(m_stmt, index, value), index);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text)
{
    if (m_stepped)
        reset();
    checkBind(sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8), index);
    return *this;
}

Statement& Statement::bind(int index, const std::vector<uint8_t>& blob)
{
    if (m_stepped)
        reset();
    checkBind(sqlite3_bind_blob64(m_stmt, index, blob.data(), blob.size(), SQLITE_TRANSIENT), index);
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (m_stepped)
        reset();
    checkBind(sqlite3_bind_null(m_stmt, index), index);
    return *this;
}

Expected<bool> Statement::step()
{
    m_stepped = true;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    Error e = m_owner->error("cannot run '" + std::string(sqlite3_sql(m_stmt)).substr(0, 60) + "'", rc);
    sqlite3_reset(m_stmt);
    return e;
}

Expected<void> Statement::run()
{
    for (;;) {
        TS_TRY(bool row, step());
        if (!row)
            break;
    }
    reset();
    return {};
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
    m_stepped = false;
}

bool Statement::isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }

int64_t Statement::getInt(int column) const { return sqlite3_column_int64(m_stmt, column); }

double Statement::getDouble(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string Statement::getText(int column) const
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return text ? std::string(text, static_cast<size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string();
}

std::vector<uint8_t> Statement::getBlob(int column) const
{
    const auto* data = static_cast<const uint8_t*>(sqlite3_column_blob(m_stmt, column));
    return data ? std::vector<uint8_t>(data, data + sqlite3_column_bytes(m_stmt, column)) : std::vector<uint8_t>();
}

std::optional<double> Statement::getOptionalDouble(int column) const
{
    return isNull(column) ? std::nullopt : std::optional<double>(getDouble(column));
}

std::optional<int64_t> Statement::getOptionalInt(int column) const
{
    return isNull(column) ? std::nullopt : std::optional<int64_t>(getInt(column));
}

Expected<Transaction> Transaction::begin(Connection& db)
{
    TS_CHECK(db.exec("BEGIN IMMEDIATE"));
    return Transaction(&db);
}

Transaction::Transaction(Transaction&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
{
}

Transaction::~Transaction()
{
    if (m_db)
        (void)m_db->exec("ROLLBACK");
}

Expected<void> Transaction::commit()
{
    TS_ASSERT(m_db);
    TS_CHECK(m_db->exec("COMMIT"));
    m_db = nullptr;
    return {};
}

} // namespace ts::store
