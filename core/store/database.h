// The store's database layer: a connection, prepared statements and transactions, over two backends.
//
// - SQLite (sqlite.cpp): a workspace file, the embedded default for one person on one machine.
// - PostgreSQL through libpq (postgres.cpp): a team's shared workspace, named by a URL
//   (postgresql://user@host:port/db?sslmode=...); passwords come from libpq's usual places (PGPASSFILE,
//   ~/.pgpass, PGPASSWORD), never from TuneScope's own files.
//
// The SQL the store writes is the subset both engines read alike: `?` parameters (the PostgreSQL backend
// numbers them $1, $2, ... itself), INSERT ... ON CONFLICT DO NOTHING, RETURNING. What differs (schema,
// triggers, JSON functions, the integrity check) lives in one file per backend: schema.cpp and
// schema_postgres.cpp. Every error is an Expected naming the database (a file path, or the URL without its
// password) and the engine's own message. sqlite3.h and libpq-fe.h stay inside their backend's .cpp.
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::store {

enum class Backend { Sqlite, Postgres };

// True for a PostgreSQL connection URL (postgresql://... or postgres://...).
bool isPostgresUrl(std::string_view name);
// `url` with any password taken out (user:secret@host, password=...): what logs and messages may show.
std::string redactedUrl(std::string_view url);

namespace detail {
    class ConnectionImpl;
    class StatementImpl;
} // namespace detail

class Statement;

class Connection {
public:
    enum class Mode { ReadOnly, ReadWrite, ReadWriteCreate };

    // An SQLite file.
    static Expected<Connection> open(const std::string& path, Mode mode);
    // A PostgreSQL database through libpq; `readOnly` makes every transaction read-only.
    static Expected<Connection> openPostgres(const std::string& url, bool readOnly);

    Connection();
    Connection(Connection&& other) noexcept;
    Connection& operator=(Connection&& other) noexcept;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection();

    bool isOpen() const { return m_impl != nullptr; }
    Backend backend() const;
    // The file path, or the URL without its password.
    const std::string& path() const;

    // Runs one or more statements that return no rows of interest.
    Expected<void> exec(std::string_view sql);
    // SQLite: PRAGMA journal_mode = WAL, retried while another connection switches the same file at once.
    // PostgreSQL: nothing to do.
    Expected<void> enableWal();
    Expected<Statement> prepare(std::string_view sql);
    // A single integer from a query such as "SELECT count(*) FROM records".
    Expected<int64_t> queryInt(std::string_view sql);
    // Rows changed by the last INSERT, UPDATE or DELETE.
    int changes() const;
    bool inTransaction() const;
    // BEGIN IMMEDIATE (SQLite: the write lock up front) or BEGIN (PostgreSQL).
    Expected<void> beginTransaction();

    // PostgreSQL's LISTEN/NOTIFY (Unsupported on SQLite). A notification is a channel and its payload.
    struct Notification {
        std::string channel;
        std::string payload;
    };
    Expected<void> listen(const std::string& channel);
    // The notifications that arrived, waiting up to `timeoutMs` for the first when none has (0: do not wait).
    Expected<std::vector<Notification>> notifications(int timeoutMs);

private:
    explicit Connection(std::unique_ptr<detail::ConnectionImpl> impl);
    std::unique_ptr<detail::ConnectionImpl> m_impl;
};

class Statement {
public:
    Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    // Binding is 1-based, as in SQLite. Binding resets the statement if it has run.
    Statement& bind(int index, int64_t value);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const std::vector<uint8_t>& blob);
    Statement& bindNull(int index);
    template <typename T> Statement& bind(int index, const std::optional<T>& value)
    {
        return value ? bind(index, *value) : bindNull(index);
    }
    Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind(int index, const std::string& text) { return bind(index, std::string_view(text)); }
    // Binds `values` to parameters 1, 2, ... in order: bindAll(a, b) is bind(1, a).bind(2, b).
    template <typename... Values> Statement& bindAll(const Values&... values)
    {
        int index = 0;
        (bind(++index, values), ...);
        return *this;
    }

    // Steps once: true when a row is ready, false when done.
    Expected<bool> step();
    // Steps to the end (for INSERT/UPDATE), then resets so the statement can run again.
    Expected<void> run();
    void reset();

    bool isNull(int column) const;
    int64_t getInt(int column) const;
    double getDouble(int column) const;
    std::string getText(int column) const;
    std::vector<uint8_t> getBlob(int column) const;
    std::optional<double> getOptionalDouble(int column) const;
    std::optional<int64_t> getOptionalInt(int column) const;

private:
    friend class Connection;
    explicit Statement(std::unique_ptr<detail::StatementImpl> impl);

    std::unique_ptr<detail::StatementImpl> m_impl;
    bool m_stepped = false;
};

// BEGIN on construction (BEGIN IMMEDIATE on SQLite, so a writer waits for the lock up front, not halfway
// through a batch); ROLLBACK on destruction unless commit() succeeded.
class Transaction {
public:
    static Expected<Transaction> begin(Connection& db);
    Transaction(Transaction&& other) noexcept;
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    Transaction& operator=(Transaction&&) = delete;
    ~Transaction();

    Expected<void> commit();

private:
    explicit Transaction(Connection* db)
        : m_db(db)
    {
    }
    Connection* m_db = nullptr;
};

} // namespace ts::store
