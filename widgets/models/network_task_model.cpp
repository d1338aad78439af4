#include "widgets/models/network_task_model.h"

#include "core/support/assert.h"
#include "core/support/strings.h"

#include <algorithm>

namespace ts::models {

namespace {
    // internalId 0 marks a network row; a task row stores its network's row + 1.
    constexpr quintptr kNetworkRow = 0;
} // namespace

NetworkTaskModel::NetworkTaskModel(QObject* parent)
    : QAbstractItemModel(parent)
    , m_catalog(std::make_shared<const NetworkCatalog>())
    , m_loader(this)
{
    startLoading();
}

void NetworkTaskModel::setConfiguration(int64_t batch, ops::Layout layout)
{
    if (batch == m_batch && layout == m_layout)
        return;
    m_batch = batch;
    m_layout = layout;
    startLoading();
}

void NetworkTaskModel::addModel(const QString& path)
{
    const std::string name = path.toStdString();
    if (std::find(m_models.begin(), m_models.end(), name) != m_models.end())
        return;
    m_models.push_back(name);
    startLoading();
}

QStringList NetworkTaskModel::models() const
{
    QStringList out;
    for (const std::string& m : m_models)
        out << QString::fromStdString(m);
    return out;
}

void NetworkTaskModel::startLoading()
{
    const bool wasLoading = isLoading();
    m_loader.start(
        [batch = m_batch, layout = m_layout, models = m_models](session::JobContext& context)
            -> Expected<NetworkCatalog> { return buildNetworkCatalog(batch, layout, models, context.stopToken()); },
        [this](Expected<NetworkCatalog> catalog) {
            // buildNetworkCatalog reports failures per network; an error here is a job that threw.
            TS_ASSERT(catalog) << catalog.error().toString();
            show(std::move(*catalog));
            Q_EMIT loadingChanged(false);
        });
    if (!wasLoading)
        Q_EMIT loadingChanged(true);
}

void NetworkTaskModel::setCatalog(NetworkCatalog catalog)
{
    const bool wasLoading = isLoading();
    m_loader.cancel();
    show(std::move(catalog));
    if (wasLoading)
        Q_EMIT loadingChanged(false);
}

void NetworkTaskModel::show(NetworkCatalog catalog)
{
    m_batch = catalog.batch;
    m_layout = catalog.layout;
    beginResetModel();
    m_catalog = std::make_shared<const NetworkCatalog>(std::move(catalog));
    endResetModel();
}

QModelIndex NetworkTaskModel::networkIndex(const QString& name) const
{
    for (size_t i = 0; i < m_catalog->networks.size(); ++i)
        if (QString::fromStdString(m_catalog->networks[i].name) == name)
            return index(static_cast<int>(i), 0);
    return {};
}

const NetworkEntry* NetworkTaskModel::entryOf(const QModelIndex& index) const
{
    if (!index.isValid())
        return nullptr;
    const size_t row = index.internalId() == kNetworkRow ? static_cast<size_t>(index.row()) : index.internalId() - 1;
    return &m_catalog->networks[row];
}

const graph::Task* NetworkTaskModel::taskAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == kNetworkRow)
        return nullptr;
    const NetworkEntry* network = entryOf(index);
    if (!network->tasks || index.row() >= static_cast<int>(network->tasks->tasks.size()))
        return nullptr;
    return &network->tasks->tasks[static_cast<size_t>(index.row())];
}

std::shared_ptr<const graph::Task> NetworkTaskModel::taskHandleAt(const QModelIndex& index) const
{
    const graph::Task* task = taskAt(index);
    return task ? std::shared_ptr<const graph::Task>(m_catalog, task) : nullptr;
}

std::shared_ptr<const NetworkEntry> NetworkTaskModel::networkAt(const QModelIndex& index) const
{
    const NetworkEntry* network = entryOf(index);
    return network ? std::shared_ptr<const NetworkEntry>(m_catalog, network) : nullptr;
}

QString NetworkTaskModel::networkNameAt(const QModelIndex& index) const
{
    const NetworkEntry* network = entryOf(index);
    return network ? QString::fromStdString(network->name) : QString();
}

QString NetworkTaskModel::errorAt(const QModelIndex& index) const
{
    const NetworkEntry* network = entryOf(index);
    return network ? QString::fromStdString(network->error) : QString();
}

QModelIndex NetworkTaskModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_catalog->networks.size()) ? createIndex(row, column, kNetworkRow)
                                                                  : QModelIndex();
    if (parent.internalId() != kNetworkRow || parent.column() != 0)
        return {};
    const NetworkEntry& network = m_catalog->networks[static_cast<size_t>(parent.row())];
    if (!network.tasks || row >= static_cast<int>(network.tasks->tasks.size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex NetworkTaskModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kNetworkRow)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kNetworkRow);
}

int NetworkTaskModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_catalog->networks.size());
    if (parent.internalId() != kNetworkRow || parent.column() != 0)
        return 0;
    const NetworkEntry& network = m_catalog->networks[static_cast<size_t>(parent.row())];
    return network.tasks ? static_cast<int>(network.tasks->tasks.size()) : 0;
}

int NetworkTaskModel::columnCount(const QModelIndex&) const { return ColumnCount; }

bool NetworkTaskModel::hasChildren(const QModelIndex& parent) const { return rowCount(parent) > 0; }

QVariant NetworkTaskModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == kNetworkRow) {
        const NetworkEntry& network = m_catalog->networks[static_cast<size_t>(index.row())];
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case NameColumn:
                // An ONNX model shows its file name; its path (its name in sessions and the store) is in the tooltip.
                return QString::fromStdString(network.name).section(QLatin1Char('/'), -1);
            case GflopColumn:
                return network.tasks
                    ? QVariant(QString::fromStdString(formatFixed(network.tasks->totalFlops() / 1e9, 2)))
                    : QVariant();
            case WeightColumn:
                return network.tasks ? QVariant(network.tasks->totalWeight()) : QVariant();
            }
        }
        if (role == Qt::ToolTipRole)
            return QString::fromStdString(network.error.empty() ? network.description : network.error);
        return {};
    }
    const graph::Task* task = taskAt(index);
    if (!task)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn:
            return QString::number(task->id) + QStringLiteral(": ") + QString::fromStdString(task->name);
        case GflopColumn:
            return QString::fromStdString(formatFixed(task->flops / 1e9, 4));
        case WeightColumn:
            return task->weight;
        }
    }
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(task->shapes);
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant NetworkTaskModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Network / task");
    case GflopColumn:
        return tr("GFLOP");
    case WeightColumn:
        return tr("Weight");
    }
    return {};
}

} // namespace ts::models
