// Store: the sessions table (one tuning run each) and the cost_models table (trained models and their
// weights).
#include "core/store/store.h"
#include "core/store/store_rows.h"

namespace ts::store {

Expected<int64_t> Store::beginSession(const SessionInfo& session)
{
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO sessions (policy, cost_model, seed, settings, device_id, started_at, status) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    insert.bindAll(session.policy, session.costModel, session.seed, session.settings, session.deviceId,
        session.startedAt, session.status);
    return detail::insertedId(insert);
}

Expected<void> Store::endSession(int64_t sessionId, const std::string& status, double endedAt)
{
    TS_TRY(Statement update, m_db.prepare("UPDATE sessions SET status = ?, ended_at = ? WHERE id = ?"));
    update.bindAll(status, endedAt, sessionId);
    TS_CHECK(update.run());
    if (m_db.changes() == 0)
        return makeError(ErrorKind::NotFound, path() + ": no session " + std::to_string(sessionId));
    return {};
}

Expected<void> Store::setSessionModel(int64_t sessionId, const std::string& costModel, const std::string& settings)
{
    TS_TRY(Statement update, m_db.prepare("UPDATE sessions SET cost_model = ?, settings = ? WHERE id = ?"));
    update.bindAll(costModel, settings, sessionId);
    TS_CHECK(update.run());
    if (m_db.changes() == 0)
        return makeError(ErrorKind::NotFound, path() + ": no session " + std::to_string(sessionId));
    return {};
}

Expected<std::vector<SessionInfo>> Store::sessions()
{
    TS_TRY(Statement s,
        m_db.prepare("SELECT id, policy, cost_model, seed, settings, device_id, started_at, ended_at, status "
                     "FROM sessions ORDER BY id"));
    return detail::collect(s, [](const Statement& row) {
        return SessionInfo { row.getInt(0), row.getText(1), row.getText(2), row.getInt(3), row.getText(4),
            row.getOptionalInt(5), row.getDouble(6), row.getOptionalDouble(7), row.getText(8) };
    });
}

Expected<int64_t> Store::saveCostModel(const CostModelInfo& model)
{
    if (m_version < 2)
        return makeError(ErrorKind::Unsupported, path() + ": schema version 1 has no cost models");
    TS_TRY(Statement insert,
        m_db.prepare("INSERT INTO cost_models (kind, name, settings, training_summary, weights, created_at) "
                     "VALUES (?, ?, ?, ?, ?, ?) RETURNING id"));
    insert.bindAll(model.kind, model.name, model.settings, model.trainingSummary, model.weights, model.createdAt);
    return detail::insertedId(insert);
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

} // namespace ts::store
