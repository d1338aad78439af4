// The PostgreSQL backend of database.h, through libpq: a shared workspace on a server. libpq-fe.h is
// included here only.
//
// - Statements are server-side prepared statements ("ts1", "ts2", ...), their `?` parameters numbered $1,
//   $2, ... here. Parameters travel as text (numbers in full precision), blobs in binary; results come back
//   as text and are parsed on reading.
// - A step runs the statement once and keeps its whole result: other statements may run on the connection
//   while a caller still reads the rows, as on SQLite. (Store::forEachRecord pages, so a million records
//   never sit in one result.)
// - A connection the server dropped is reset before the next statement outside a transaction, and the
//   statements are prepared again on the new one; inside a transaction the statement fails with a clear
//   error, since the server rolled the transaction back.
#include "core/store/database_impl.h"
#include "core/support/assert.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <libpq-fe.h>
#include <poll.h>

namespace ts::store::detail {

namespace {

    constexpr Oid kByteaOid = 17;
    constexpr Oid kBoolOid = 16;

    // "SELECT a FROM t WHERE b = ? AND c = '?'" -> "SELECT a FROM t WHERE b = $1 AND c = '?'".
    std::pair<std::string, int> numberParameters(std::string_view sql)
    {
        std::string out;
        out.reserve(sql.size() + 16);
        int count = 0;
        char quote = 0;
        for (char c : sql) {
            if (quote) {
                if (c == quote)
                    quote = 0;
                out += c;
            } else if (c == '\'' || c == '"') {
                quote = c;
                out += c;
            } else if (c == '?') {
                out += '$' + std::to_string(++count);
            } else {
                out += c;
            }
        }
        return { out, count };
    }

    std::string trimmed(std::string text)
    {
        while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
            text.pop_back();
        return text;
    }

    class PgConnection;

    class PgStatement final : public StatementImpl {
    public:
        PgStatement(PgConnection* owner, std::string name, std::string sql, int parameters, uint64_t generation)
            : m_owner(owner)
            , m_name(std::move(name))
            , m_sql(std::move(sql))
            , m_values(static_cast<size_t>(parameters))
            , m_binary(static_cast<size_t>(parameters), 0)
            , m_generation(generation)
        {
        }
        ~PgStatement() override;

        void bindInt(int index, int64_t value) override { set(index, std::to_string(value), false); }
        void bindDouble(int index, double value) override
        {
            if (std::isnan(value))
                return set(index, "NaN", false);
            if (std::isinf(value))
                return set(index, value > 0 ? "Infinity" : "-Infinity", false);
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr; // shortest exact form
            set(index, std::string(buffer, end), false);
        }
        void bindText(int index, std::string_view text) override { set(index, std::string(text), false); }
        void bindBlob(int index, const std::vector<uint8_t>& blob) override
        {
            set(index, std::string(blob.begin(), blob.end()), true);
        }
        void bindNull(int index) override
        {
            TS_ASSERT(index >= 1 && index <= static_cast<int>(m_values.size())) << "parameter " << index;
            m_values[index - 1].reset();
        }
        Expected<bool> step() override;
        void reset() override
        {
            PQclear(m_result);
            m_result = nullptr;
            m_row = -1;
        }
        bool isNull(int column) const override { return PQgetisnull(m_result, m_row, column) != 0; }
        int64_t getInt(int column) const override
        {
            const char* text = PQgetvalue(m_result, m_row, column);
            if (PQftype(m_result, column) == kBoolOid)
                return text[0] == 't' ? 1 : 0;
            int64_t value = 0;
            const char* end = text + PQgetlength(m_result, m_row, column);
            if (std::from_chars(text, end, value).ec != std::errc())
                return static_cast<int64_t>(std::strtod(text, nullptr)); // a numeric or float column
            return value;
        }
        double getDouble(int column) const override
        {
            return isNull(column) ? 0.0 : std::strtod(PQgetvalue(m_result, m_row, column), nullptr);
        }
        std::string getText(int column) const override
        {
            return std::string(PQgetvalue(m_result, m_row, column), PQgetlength(m_result, m_row, column));
        }
        std::vector<uint8_t> getBlob(int column) const override
        {
            if (isNull(column))
                return {};
            const auto* text = reinterpret_cast<const unsigned char*>(PQgetvalue(m_result, m_row, column));
            if (PQftype(m_result, column) != kByteaOid)
                return std::vector<uint8_t>(text, text + PQgetlength(m_result, m_row, column));
            size_t size = 0;
            unsigned char* bytes = PQunescapeBytea(text, &size);
            std::vector<uint8_t> out(bytes, bytes + size);
            PQfreemem(bytes);
            return out;
        }

    private:
        void set(int index, std::string value, bool binary)
        {
            TS_ASSERT(index >= 1 && index <= static_cast<int>(m_values.size()))
                << "parameter " << index << " of " << m_values.size() << " in '" << m_sql.substr(0, 60) << "'";
            m_values[index - 1] = std::move(value);
            m_binary[index - 1] = binary ? 1 : 0;
        }

        PgConnection* m_owner;
        std::string m_name;
        std::string m_sql;
        std::vector<std::optional<std::string>> m_values;
        std::vector<int> m_binary;
        uint64_t m_generation;
        PGresult* m_result = nullptr;
        int m_row = -1;
    };

    class PgConnection final : public ConnectionImpl {
    public:
        PgConnection(PGconn* conn, std::string path, bool readOnly)
            : m_conn(conn)
            , m_path(std::move(path))
            , m_readOnly(readOnly)
        {
        }
        ~PgConnection() override { PQfinish(m_conn); }

        Backend backend() const override { return Backend::Postgres; }
        const std::string& path() const override { return m_path; }
        PGconn* handle() const { return m_conn; }
        uint64_t generation() const { return m_generation; }

        Error error(std::string_view what, const PGresult* result) const
        {
            std::string message = m_path + ": " + std::string(what) + ": ";
            const char* primary = result ? PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
            const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
            if (PQstatus(m_conn) == CONNECTION_BAD)
                message += "the connection to the server was lost (" + trimmed(PQerrorMessage(m_conn)) + ")";
            else if (primary)
                message += primary;
            else
                message += trimmed(PQerrorMessage(m_conn));
            if (state)
                message += std::string(" [SQLSTATE ") + state + "]";
            return Error { ErrorKind::Io, std::move(message) };
        }

        // Applies the session settings on a new or reset connection.
        Expected<void> configure()
        {
            PQsetNoticeProcessor(
                m_conn, [](void*, const char*) {}, nullptr);
            return execRaw(m_readOnly ? "SET default_transaction_read_only = on; SET client_min_messages = warning"
                                      : "SET client_min_messages = warning");
        }

        // Resets a dropped connection before work that is not inside a transaction.
        Expected<void> ensureConnected(std::string_view what)
        {
            if (PQstatus(m_conn) == CONNECTION_OK)
                return {};
            if (m_transactionOpen)
                return error(
                    std::string(what) + " inside a transaction; the server rolled the transaction back", nullptr);
            PQreset(m_conn);
            if (PQstatus(m_conn) != CONNECTION_OK)
                return makeError(ErrorKind::Io,
                    m_path + ": the connection to the server was lost and cannot be made again: "
                        + trimmed(PQerrorMessage(m_conn)));
            ++m_generation;
            return configure();
        }

        Expected<void> exec(std::string_view sql) override
        {
            const bool closing = sql == "COMMIT" || sql == "ROLLBACK";
            if (closing && PQstatus(m_conn) == CONNECTION_BAD && sql == "ROLLBACK") {
                m_transactionOpen = false; // the server rolled it back when the connection went
                return {};
            }
            TS_CHECK(ensureConnected("cannot run '" + std::string(sql.substr(0, 60)) + "'"));
            auto done = execRaw(std::string(sql));
            if (closing)
                m_transactionOpen = false;
            else if (done && sql == beginSql())
                m_transactionOpen = true;
            return done;
        }

        Expected<void> enableWal() override { return {}; }

        Expected<std::unique_ptr<StatementImpl>> prepare(std::string_view sql) override
        {
            TS_CHECK(ensureConnected("cannot prepare '" + std::string(sql.substr(0, 60)) + "'"));
            auto [text, parameters] = numberParameters(sql);
            std::string name = "ts" + std::to_string(++m_statements);
            TS_CHECK(prepareNamed(name, text, parameters));
            return std::unique_ptr<StatementImpl>(
                std::make_unique<PgStatement>(this, std::move(name), std::move(text), parameters, m_generation));
        }

        Expected<void> prepareNamed(const std::string& name, const std::string& text, int parameters)
        {
            PGresult* result = PQprepare(m_conn, name.c_str(), text.c_str(), parameters, nullptr);
            const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
            Error e = ok ? Error {} : error("cannot prepare '" + text.substr(0, 60) + "'", result);
            PQclear(result);
            if (!ok)
                return e;
            return {};
        }

        int changes() const override { return m_changes; }
        void setChanges(const PGresult* result)
        {
            const char* tuples = PQcmdTuples(const_cast<PGresult*>(result));
            m_changes = tuples && *tuples ? std::atoi(tuples) : 0;
        }
        bool inTransaction() const override
        {
            const PGTransactionStatusType status = PQtransactionStatus(m_conn);
            return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE;
        }
        const char* beginSql() const override { return "BEGIN"; }

        Expected<void> listen(const std::string& channel) override
        {
            TS_CHECK(exec("LISTEN " + channel));
            m_channels.push_back(channel);
            return {};
        }

        Expected<std::vector<Connection::Notification>> notifications(int timeoutMs) override
        {
            std::vector<Connection::Notification> out;
            auto drain = [&]() -> Expected<void> {
                if (PQconsumeInput(m_conn) == 0)
                    return error("reading notifications", nullptr);
                while (PGnotify* n = PQnotifies(m_conn)) {
                    out.push_back({ n->relname, n->extra ? n->extra : "" });
                    PQfreemem(n);
                }
                return {};
            };
            if (PQstatus(m_conn) != CONNECTION_OK) {
                // A dropped connection forgot its LISTENs: reset, listen again, and say nothing arrived (the
                // caller looks at the queue itself after a wait, so nothing sent meanwhile is missed).
                TS_CHECK(ensureConnected("waiting for notifications"));
                for (const std::string& channel : m_channels)
                    TS_CHECK(execRaw("LISTEN " + channel));
                return out;
            }
            TS_CHECK(drain());
            if (!out.empty() || timeoutMs <= 0)
                return out;
            pollfd fd { PQsocket(m_conn), POLLIN, 0 };
            if (::poll(&fd, 1, timeoutMs) > 0)
                TS_CHECK(drain());
            return out;
        }

    private:
        Expected<void> execRaw(const std::string& sql)
        {
            PGresult* result = PQexec(m_conn, sql.c_str());
            const ExecStatusType status = PQresultStatus(result);
            if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
                Error e = error("cannot run '" + sql.substr(0, 60) + "'", result);
                PQclear(result);
                return e;
            }
            setChanges(result);
            PQclear(result);
            return {};
        }

        PGconn* m_conn = nullptr;
        std::string m_path;
        bool m_readOnly = false;
        bool m_transactionOpen = false;
        int m_changes = 0;
        uint64_t m_statements = 0;
        uint64_t m_generation = 0;
        std::vector<std::string> m_channels;
    };

    PgStatement::~PgStatement()
    {
        PQclear(m_result);
        // A statement of a connection that was reset, or one in a failed transaction, cannot be deallocated
        // now; the server drops it with the connection.
        if (m_generation == m_owner->generation() && PQstatus(m_owner->handle()) == CONNECTION_OK
            && PQtransactionStatus(m_owner->handle()) != PQTRANS_INERROR)
            PQclear(PQexec(m_owner->handle(), ("DEALLOCATE " + m_name).c_str()));
    }

    Expected<bool> PgStatement::step()
    {
        if (!m_result) {
            TS_CHECK(m_owner->ensureConnected("cannot run '" + m_sql.substr(0, 60) + "'"));
            if (m_generation != m_owner->generation()) {
                TS_CHECK(m_owner->prepareNamed(m_name, m_sql, static_cast<int>(m_values.size())));
                m_generation = m_owner->generation();
            }
            std::vector<const char*> values(m_values.size());
            std::vector<int> lengths(m_values.size());
            for (size_t i = 0; i < m_values.size(); ++i) {
                values[i] = m_values[i] ? m_values[i]->data() : nullptr;
                lengths[i] = m_values[i] ? static_cast<int>(m_values[i]->size()) : 0;
            }
            PGresult* result = PQexecPrepared(m_owner->handle(), m_name.c_str(), static_cast<int>(values.size()),
                values.data(), lengths.data(), m_binary.data(), 0);
            const ExecStatusType status = PQresultStatus(result);
            if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
                Error e = m_owner->error("cannot run '" + m_sql.substr(0, 60) + "'", result);
                PQclear(result);
                return e;
            }
            m_owner->setChanges(result);
            m_result = result;
            m_row = -1;
        }
        ++m_row;
        return m_row < PQntuples(m_result);
    }

} // namespace

Expected<std::unique_ptr<ConnectionImpl>> openPostgres(const std::string& url, bool readOnly)
{
    const std::string shown = redactedUrl(url);
    PGconn* conn = PQconnectdb(url.c_str());
    if (!conn)
        return makeError(ErrorKind::Io, shown + ": cannot connect: out of memory");
    auto connection = std::make_unique<PgConnection>(conn, shown, readOnly);
    if (PQstatus(conn) != CONNECTION_OK)
        return makeError(ErrorKind::Io, shown + ": cannot connect: " + trimmed(PQerrorMessage(conn)));
    TS_CHECK(connection->configure());
    return std::unique_ptr<ConnectionImpl>(std::move(connection));
}

} // namespace ts::store::detail
