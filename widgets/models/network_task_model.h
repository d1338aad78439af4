// NetworkTaskModel: the explorer's tree of built-in networks and their tuning tasks.
//
// Top-level rows are the model-zoo networks, task rows their extracted tasks. Columns: name, GFLOP per
// occurrence, weight. The rows come from a NetworkCatalog built off the GUI thread (a session job that the
// constructor and setConfiguration() start); the model resets once when it arrives and keeps showing the
// previous catalog (empty at first) until then. A configuration asked for again while it is loaded or
// loading starts nothing; a newer one drops the older load's result.
#pragma once

#include "core/session/job_tracker.h"
#include "widgets/models/network_catalog.h"

#include <QAbstractItemModel>
#include <QStringList>

#include <memory>

namespace ts::models {

class NetworkTaskModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, GflopColumn, WeightColumn, ColumnCount };

    // Starts loading batch 1, NCHW.
    explicit NetworkTaskModel(QObject* parent = nullptr);

    // Loads the catalog for `batch` and `layout` on a worker thread; the model resets when it arrives.
    void setConfiguration(int64_t batch, ops::Layout layout);
    // Adds an ONNX model (its absolute path) to the catalog and reloads; a model already there is not added twice.
    void addModel(const QString& path);
    QStringList models() const;
    // Shows `catalog` now (the loader's hand-off), dropping a load in flight.
    void setCatalog(NetworkCatalog catalog);
    // A catalog is being built; the rows shown are the previous one's.
    bool isLoading() const { return m_loader.isRunning(); }
    // The configuration asked for last (shown, or loading).
    int64_t batch() const { return m_batch; }
    ops::Layout layout() const { return m_layout; }

    QModelIndex networkIndex(const QString& name) const;
    // The task behind a task row, or nullptr for network rows and invalid indexes.
    const graph::Task* taskAt(const QModelIndex& index) const;
    // The same, sharing ownership of the catalog: stays valid after the model resets.
    std::shared_ptr<const graph::Task> taskHandleAt(const QModelIndex& index) const;
    // The network of a network or task row, sharing ownership of the catalog; null for invalid indexes.
    std::shared_ptr<const NetworkEntry> networkAt(const QModelIndex& index) const;
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

Q_SIGNALS:
    // A load started (true) or its catalog is now shown (false).
    void loadingChanged(bool loading);

private:
    const NetworkEntry* entryOf(const QModelIndex& index) const;
    void startLoading();
    void show(NetworkCatalog catalog); // one reset

    std::shared_ptr<const NetworkCatalog> m_catalog;
    int64_t m_batch = 1;
    std::vector<std::string> m_models;
    ops::Layout m_layout = ops::Layout::NCHW;
    session::JobTracker m_loader;
};

} // namespace ts::models
