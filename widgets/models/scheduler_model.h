// SchedulerModel: the task scheduler's view of a session, one row per task of a SessionSnapshot.
//
// Columns: the task, its weight in the network, trials spent (this session, all sessions), its best latency
// (µs) and throughput, its weighted share of the network's estimated latency (weight * best / estimate, %),
// the gradient the scheduler computed before its last choice (Ansor's dL/dt: the more negative, the more a
// trial of this task is expected to gain) and whether the task is dead (and why). A new snapshot of the same
// session updates the rows in place (dataChanged); another session resets the model. SortRole gives numbers
// for the numeric columns so a proxy sorts them as numbers. Qt Core only; GUI thread.
#pragma once

#include "widgets/models/session_snapshot.h"

#include <QAbstractTableModel>

#include <memory>

namespace ts::models {

class SchedulerModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TaskColumn,
        WeightColumn,
        SessionTrialsColumn,
        AllTrialsColumn,
        BestColumn,
        GflopsColumn,
        ShareColumn,
        GradientColumn,
        StatusColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit SchedulerModel(QObject* parent = nullptr);

    void setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot);
    const std::shared_ptr<const SessionSnapshot>& snapshot() const { return m_snapshot; }
    // The task of a row (an index into snapshot()->tasks), or null.
    const SessionTask* taskAt(int row) const;

    // weight * best / estimated latency, in percent; negative while the estimate is not known (some task has
    // no best yet).
    static double latencyShare(const SessionSnapshot& snapshot, int task);
    // The row's text for a gradient: a number, "no best yet" (-inf), "dead" (NaN of a dead task) or "–"
    // (NaN: not known, e.g. a stored session).
    static QString gradientText(const SessionTask& task);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const SessionTask& task, int column) const;
    QVariant sortValue(const SessionTask& task, int column) const;

    std::shared_ptr<const SessionSnapshot> m_snapshot;
};

} // namespace ts::models
