// A thin RAII layer over SQLite's C API: a connection, prepared statements, transactions. Every error is an
// Expected carrying the database path and SQLite's own message, so a caller can say what failed and where.
// sqlite3.h stays inside sqlite.cpp: the handles are opaque here.
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ts::store {

class Statement;

class Connection {
public:
    enum class Mode { ReadOnly, ReadWrite, ReadWriteCreate };

    static Expected<Connection> open(const std::string& path, Mode mode);
    Connection() = default;
    Connection(Connection&& other) noexcept;
    Connection& operator=(Connection&& other) noexcept;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection();

    bool isOpen() const { return m_db != nullptr; }
    const std::string& path() const { return m_path; }

    // Runs one or more statements that return no rows of interest.
    Expected<void> exec(std::string_view sql);
    // PRAGMA journal_mode = WAL, retried while another connection switches the same file at once.
    Expected<void> enableWal();
    Expected<Statement> prepare(std::string_view sql);
    // A single integer from a query such as "PRAGMA user_version".
    Expected<int64_t> queryInt(std::string_view sql);
    int64_t lastInsertId() const;
    int changes() const;
    bool inTransaction() const;
    // An error naming the path, what was being done and SQLite's message for `code`.
    Error error(std::string_view what, int code) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
};

class Statement {
public:
    Statement() = default;
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
    Statement(sqlite3_stmt* stmt, const Connection* owner)
        : m_stmt(stmt)
        , m_owner(owner)
    {
    }

    sqlite3_stmt* m_stmt = nullptr;
    const Connection* m_owner = nullptr;
    bool m_stepped = false;
};

// BEGIN IMMEDIATE on construction (so a writer waits for the lock up front, not halfway through a batch);
// ROLLBACK on destruction unless commit() succeeded.
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
