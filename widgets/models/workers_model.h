// WorkersModel: the measurement workers of a PostgreSQL workspace (store/work_queue.h) as a table: name, host,
// state, what each measures now, measured and failed counts, throughput, when it was last seen. Rows come from
// WorkQueue::workers() in a job (the Sessions dock refreshes them every few seconds); a refresh updates rows in
// place and appends new workers, it never resets the model. Qt Core only.
#pragma once

#include "core/store/work_queue.h"

#include <QAbstractTableModel>

#include <vector>

namespace ts::models {

class WorkersModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Host, State, Now, Measured, Failed, PerMinute, Seen, ColumnCount };

    explicit WorkersModel(QObject* parent = nullptr);

    // `now`: Unix seconds, for "seen n s ago" (the caller's clock, so tests are exact).
    void setWorkers(std::vector<store::WorkerInfo> workers, double now);
    const store::WorkerInfo& workerAt(int row) const { return m_workers.at(static_cast<size_t>(row)); }
    // Candidates per minute over the worker's life (started to last seen).
    static double perMinute(const store::WorkerInfo& worker);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<store::WorkerInfo> m_workers; // by id
    double m_now = 0;
};

} // namespace ts::models
