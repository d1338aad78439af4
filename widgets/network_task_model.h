// NetworkTaskModel: the explorer's tree of built-in networks and their tuning tasks.
//
// Top-level rows are the model-zoo networks, task rows their extracted tasks. Extraction of all seven
// networks takes about 20 ms, so it is done eagerly when the model is built (lazy fetchMore bought nothing
// and complicated resets). Columns: name, GFLOP per occurrence, weight. Changing batch or layout resets
// the model.
#pragma once

#include "core/graph/task_extraction.h"

#include <QAbstractItemModel>

#include <optional>
#include <vector>

namespace ts::widgets {

class NetworkTaskModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, GflopColumn, WeightColumn, ColumnCount };

    explicit NetworkTaskModel(QObject* parent = nullptr);

    void setConfiguration(int64_t batch, ops::Layout layout);
    int64_t batch() const { return m_batch; }
    ops::Layout layout() const { return m_layout; }

    QModelIndex networkIndex(const QString& name) const;
    // The task behind a task row, or nullptr for network rows and invalid indexes.
    const graph::Task* taskAt(const QModelIndex& index) const;
    QString networkNameAt(const QModelIndex& index) const;
    // Extraction error of a network, if any (e.g. a batch the network cannot take).
    QString errorAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;

private:
    struct Network {
        QString name;
        QString description;
        std::optional<graph::TaskSet> tasks;
        QString error;
    };

    void rebuild();
    Network* networkOf(const QModelIndex& taskIndex) const;

    std::vector<Network> m_networks;
    int64_t m_batch = 1;
    ops::Layout m_layout = ops::Layout::NCHW;
};

} // namespace ts::widgets
