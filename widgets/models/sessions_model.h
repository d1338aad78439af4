// SessionsModel: the workspace's tuning sessions as a table (id, what, policy, model, seed, status, started),
// newest first. Rows come from SessionHub::sessions() (listed in a job); the live session's row shows its
// state from the newest snapshot. Qt Core only.
#pragma once

#include "core/store/records.h"

#include <QAbstractTableModel>

#include <vector>

namespace ts::models {

class SessionsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, What, Policy, Model, Seed, Status, Started, ColumnCount };
    enum Role { SessionIdRole = Qt::UserRole + 1 };

    explicit SessionsModel(QObject* parent = nullptr);

    void setSessions(std::vector<store::SessionInfo> sessions);
    // The session this process drives now and its state ("running", "paused", ...); 0 for none.
    void setLive(int64_t sessionId, const QString& state);
    int64_t sessionIdAt(int row) const;
    int rowOf(int64_t sessionId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<store::SessionInfo> m_sessions; // newest first
    int64_t m_liveId = 0;
    QString m_liveState;
};

} // namespace ts::models
