#include "widgets/models/sessions_model.h"

#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ts::models {

namespace {
    QString whatOf(const store::SessionInfo& s)
    {
        const nlohmann::json settings = nlohmann::json::parse(s.settings, nullptr, false);
        if (!settings.is_object())
            return {};
        if (settings.contains("origin"))
            if (auto origin = engine::TuneOrigin::fromJson(settings["origin"].dump()))
                return QString::fromStdString(origin->title());
        return QString::fromStdString(settings.value("network", std::string()));
    }
} // namespace

SessionsModel::SessionsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SessionsModel::setSessions(std::vector<store::SessionInfo> sessions)
{
    beginResetModel();
    m_sessions = std::move(sessions);
    std::sort(m_sessions.begin(), m_sessions.end(),
        [](const store::SessionInfo& a, const store::SessionInfo& b) { return a.id > b.id; });
    endResetModel();
}

void SessionsModel::setLive(int64_t sessionId, const QString& state)
{
    const int before = rowOf(m_liveId);
    m_liveId = sessionId;
    m_liveState = state;
    for (int row : { before, rowOf(sessionId) })
        if (row >= 0)
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int64_t SessionsModel::sessionIdAt(int row) const
{
    return row >= 0 && row < rowCount() ? m_sessions[static_cast<size_t>(row)].id : 0;
}

int SessionsModel::rowOf(int64_t sessionId) const
{
    for (size_t i = 0; i < m_sessions.size(); ++i)
        if (m_sessions[i].id == sessionId && sessionId != 0)
            return static_cast<int>(i);
    return -1;
}

int SessionsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_sessions.size());
}

int SessionsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SessionsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const store::SessionInfo& s = m_sessions[static_cast<size_t>(index.row())];
    if (role == SessionIdRole)
        return QVariant::fromValue<qlonglong>(s.id);
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(s.settings);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Id:
        return QVariant::fromValue<qlonglong>(s.id);
    case What:
        return whatOf(s);
    case Policy:
        return QString::fromStdString(s.policy);
    case Model: // a session that switched: the model it started with, then the one it ranks with now
        return QString::fromStdString(engine::switchedModelsText(engine::modelSwitchesOf(s.settings), s.costModel));
    case Seed:
        return QVariant::fromValue<qlonglong>(s.seed);
    case Status:
        if (s.id == m_liveId && !m_liveState.isEmpty())
            return tr("%1 (live)").arg(m_liveState);
        // A row still "running" that this process does not drive was interrupted (or runs elsewhere).
        return s.status == "running" ? tr("interrupted") : QString::fromStdString(s.status);
    case Started:
        return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(s.startedAt)).toString(Qt::ISODate);
    default:
        return {};
    }
}

QVariant SessionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Id:
        return tr("Session");
    case What:
        return tr("Tuned");
    case Policy:
        return tr("Policy");
    case Model:
        return tr("Cost model");
    case Seed:
        return tr("Seed");
    case Status:
        return tr("Status");
    case Started:
        return tr("Started");
    default:
        return {};
    }
}

} // namespace ts::models
