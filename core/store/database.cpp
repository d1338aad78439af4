// Connection, Statement and Transaction: the backend-neutral face of database_impl.h.
#include "core/store/database.h"

#include "core/store/database_impl.h"
#include "core/support/assert.h"

#include <utility>

namespace ts::store {

bool isPostgresUrl(std::string_view name)
{
    return name.starts_with("postgresql://") || name.starts_with("postgres://");
}

std::string redactedUrl(std::string_view url)
{
    std::string out(url);
    // user:secret@host -> user@host (only in the authority part, before the first '/' after the scheme).
    if (const size_t scheme = out.find("://"); scheme != std::string::npos) {
        const size_t start = scheme + 3;
        const size_t end = std::min(out.find_first_of("/?", start), out.size());
        const size_t at = out.rfind('@', end);
        if (at != std::string::npos && at >= start) {
            const size_t colon = out.find(':', start);
            if (colon != std::string::npos && colon < at)
                out.erase(colon, at - colon);
        }
    }
    // password=... among the query parameters (or a key=value conninfo string).
    for (size_t pos = out.find("password="); pos != std::string::npos; pos = out.find("password=", pos + 1)) {
        const size_t end = out.find_first_of("& ", pos);
        out.erase(pos, (end == std::string::npos ? out.size() : end) - pos);
        if (pos > 0 && (out[pos - 1] == '&' || out[pos - 1] == '?') && pos < out.size() && out[pos] == '&')
            out.erase(pos, 1);
    }
    while (!out.empty() && (out.back() == '&' || out.back() == '?'))
        out.pop_back();
    return out;
}

Connection::Connection() = default;
Connection::Connection(std::unique_ptr<detail::ConnectionImpl> impl)
    : m_impl(std::move(impl))
{
}
Connection::Connection(Connection&& other) noexcept = default;
Connection& Connection::operator=(Connection&& other) noexcept = default;
Connection::~Connection() = default;

Expected<Connection> Connection::open(const std::string& path, Mode mode)
{
    TS_TRY(std::unique_ptr<detail::ConnectionImpl> impl, detail::openSqlite(path, mode));
    return Connection(std::move(impl));
}

Expected<Connection> Connection::openPostgres(const std::string& url, bool readOnly)
{
    TS_TRY(std::unique_ptr<detail::ConnectionImpl> impl, detail::openPostgres(url, readOnly));
    return Connection(std::move(impl));
}

Backend Connection::backend() const { return m_impl->backend(); }
const std::string& Connection::path() const
{
    static const std::string kClosed;
    return m_impl ? m_impl->path() : kClosed;
}
Expected<void> Connection::exec(std::string_view sql) { return m_impl->exec(sql); }
Expected<void> Connection::enableWal() { return m_impl->enableWal(); }
int Connection::changes() const { return m_impl->changes(); }
bool Connection::inTransaction() const { return m_impl->inTransaction(); }
Expected<void> Connection::beginTransaction() { return m_impl->exec(m_impl->beginSql()); }
Expected<void> Connection::listen(const std::string& channel) { return m_impl->listen(channel); }
Expected<std::vector<Connection::Notification>> Connection::notifications(int timeoutMs)
{
    return m_impl->notifications(timeoutMs);
}

Expected<Statement> Connection::prepare(std::string_view sql)
{
    TS_ASSERT(m_impl);
    TS_TRY(std::unique_ptr<detail::StatementImpl> impl, m_impl->prepare(sql));
    return Statement(std::move(impl));
}

Expected<int64_t> Connection::queryInt(std::string_view sql)
{
    TS_TRY(Statement s, prepare(sql));
    TS_TRY(bool row, s.step());
    if (!row)
        return makeError(ErrorKind::Io, path() + ": '" + std::string(sql) + "' returned no row");
    return s.getInt(0);
}

Statement::Statement() = default;
Statement::Statement(std::unique_ptr<detail::StatementImpl> impl)
    : m_impl(std::move(impl))
{
}
Statement::Statement(Statement&& other) noexcept
    : m_impl(std::move(other.m_impl))
    , m_stepped(std::exchange(other.m_stepped, false))
{
}
Statement& Statement::operator=(Statement&& other) noexcept
{
    m_impl = std::move(other.m_impl);
    m_stepped = std::exchange(other.m_stepped, false);
    return *this;
}
Statement::~Statement() = default;

Statement& Statement::bind(int index, int64_t value)
{
    if (m_stepped)
        reset();
    m_impl->bindInt(index, value);
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    if (m_stepped)
        reset();
    m_impl->bindDouble(index, value);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text)
{
    if (m_stepped)
        reset();
    m_impl->bindText(index, text);
    return *this;
}

Statement& Statement::bind(int index, const std::vector<uint8_t>& blob)
{
    if (m_stepped)
        reset();
    m_impl->bindBlob(index, blob);
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (m_stepped)
        reset();
    m_impl->bindNull(index);
    return *this;
}

Expected<bool> Statement::step()
{
    m_stepped = true;
    return m_impl->step();
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
    m_impl->reset();
    m_stepped = false;
}

bool Statement::isNull(int column) const { return m_impl->isNull(column); }
int64_t Statement::getInt(int column) const { return m_impl->getInt(column); }
double Statement::getDouble(int column) const { return m_impl->getDouble(column); }
std::string Statement::getText(int column) const { return m_impl->getText(column); }
std::vector<uint8_t> Statement::getBlob(int column) const { return m_impl->getBlob(column); }

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
    TS_CHECK(db.beginTransaction());
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
