// Private to core/store: what a database backend implements behind Connection and Statement (database.h).
//
// How to add a backend: implement ConnectionImpl and StatementImpl in one .cpp that alone includes the
// engine's client header, give Connection a static opener for it, add its schema (the same versions as
// schema.cpp, in its dialect) and teach Store::open to recognise its names.
#pragma once

#include "core/store/database.h"

#include <memory>

namespace ts::store::detail {

class StatementImpl {
public:
    virtual ~StatementImpl() = default;
    virtual void bindInt(int index, int64_t value) = 0;
    virtual void bindDouble(int index, double value) = 0;
    virtual void bindText(int index, std::string_view text) = 0;
    virtual void bindBlob(int index, const std::vector<uint8_t>& blob) = 0;
    virtual void bindNull(int index) = 0;
    virtual Expected<bool> step() = 0;
    virtual void reset() = 0;
    virtual bool isNull(int column) const = 0;
    virtual int64_t getInt(int column) const = 0;
    virtual double getDouble(int column) const = 0;
    virtual std::string getText(int column) const = 0;
    virtual std::vector<uint8_t> getBlob(int column) const = 0;
};

class ConnectionImpl {
public:
    virtual ~ConnectionImpl() = default;
    virtual Backend backend() const = 0;
    virtual const std::string& path() const = 0;
    virtual Expected<void> exec(std::string_view sql) = 0;
    virtual Expected<void> enableWal() = 0;
    virtual Expected<std::unique_ptr<StatementImpl>> prepare(std::string_view sql) = 0;
    virtual int changes() const = 0;
    virtual bool inTransaction() const = 0;
    virtual const char* beginSql() const = 0;
    virtual Expected<void> listen(const std::string& channel)
    {
        return makeError(ErrorKind::Unsupported, path() + ": LISTEN " + channel + " needs a PostgreSQL workspace");
    }
    virtual Expected<std::vector<Connection::Notification>> notifications(int timeoutMs)
    {
        (void)timeoutMs;
        return makeError(ErrorKind::Unsupported, path() + ": notifications need a PostgreSQL workspace");
    }
};

// The backends' factories (sqlite.cpp, postgres.cpp).
Expected<std::unique_ptr<ConnectionImpl>> openSqlite(const std::string& path, Connection::Mode mode);
Expected<std::unique_ptr<ConnectionImpl>> openPostgres(const std::string& url, bool readOnly);

} // namespace ts::store::detail
