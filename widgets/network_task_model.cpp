#include "widgets/network_task_model.h"

#include "core/graph/model_zoo.h"
#include "core/support/strings.h"

namespace ts::widgets {

namespace {
    // internalId 0 marks a network row; a task row stores its network's row + 1.
    constexpr quintptr kNetworkRow = 0;
} // namespace

NetworkTaskModel::NetworkTaskModel(QObject* parent)
    : QAbstractItemModel(parent)
{
    rebuild();
}

void NetworkTaskModel::rebuild()
{
    m_networks.clear();
    for (const graph::NetworkInfo& info : graph::networks()) {
        if (!info.imageLayouts && m_layout != ops::Layout::NCHW)
            continue;
        Network network { QString::fromStdString(info.name), QString::fromStdString(info.description), {}, {} };
        auto graph = graph::buildNetwork(info.name, m_batch, m_layout);
        Expected<graph::TaskSet> tasks = graph ? graph::extractTasks(*graph) : Expected<graph::TaskSet>(graph.error());
        if (tasks)
            network.tasks = std::move(*tasks);
        else
            network.error = QString::fromStdString(tasks.error().message);
        m_networks.push_back(std::move(network));
    }
}

void NetworkTaskModel::setConfiguration(int64_t batch, ops::Layout layout)
{
    if (batch == m_batch && layout == m_layout)
        return;
    beginResetModel();
    m_batch = batch;
    m_layout = layout;
    rebuild();
    endResetModel();
}

QModelIndex NetworkTaskModel::networkIndex(const QString& name) const
{
    for (size_t i = 0; i < m_networks.size(); ++i)
        if (m_networks[i].name == name)
            return index(static_cast<int>(i), 0);
    return {};
}

NetworkTaskModel::Network* NetworkTaskModel::networkOf(const QModelIndex& taskIndex) const
{
    if (!taskIndex.isValid() || taskIndex.internalId() == kNetworkRow)
        return nullptr;
    return const_cast<Network*>(&m_networks[taskIndex.internalId() - 1]);
}

const graph::Task* NetworkTaskModel::taskAt(const QModelIndex& index) const
{
    const Network* network = networkOf(index);
    if (!network || !network->tasks || index.row() >= static_cast<int>(network->tasks->tasks.size()))
        return nullptr;
    return &network->tasks->tasks[static_cast<size_t>(index.row())];
}

QString NetworkTaskModel::networkNameAt(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == kNetworkRow)
        return m_networks[static_cast<size_t>(index.row())].name;
    return networkOf(index)->name;
}

QString NetworkTaskModel::errorAt(const QModelIndex& index) const
{
    if (!index.isValid())
        return {};
    const size_t row = index.internalId() == kNetworkRow ? static_cast<size_t>(index.row()) : index.internalId() - 1;
    return m_networks[row].error;
}

QModelIndex NetworkTaskModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_networks.size()) ? createIndex(row, column, kNetworkRow) : QModelIndex();
    if (parent.internalId() != kNetworkRow || parent.column() != 0)
        return {};
    const Network& network = m_networks[static_cast<size_t>(parent.row())];
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
        return static_cast<int>(m_networks.size());
    if (parent.internalId() != kNetworkRow || parent.column() != 0)
        return 0;
    const Network& network = m_networks[static_cast<size_t>(parent.row())];
    return network.tasks ? static_cast<int>(network.tasks->tasks.size()) : 0;
}

int NetworkTaskModel::columnCount(const QModelIndex&) const { return ColumnCount; }

bool NetworkTaskModel::hasChildren(const QModelIndex& parent) const { return rowCount(parent) > 0; }

QVariant NetworkTaskModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == kNetworkRow) {
        const Network& network = m_networks[static_cast<size_t>(index.row())];
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case NameColumn:
                return network.name;
            case GflopColumn:
                return network.tasks
                    ? QVariant(QString::fromStdString(formatFixed(network.tasks->totalFlops() / 1e9, 2)))
                    : QVariant();
            case WeightColumn:
                return network.tasks ? QVariant(network.tasks->totalWeight()) : QVariant();
            }
        }
        if (role == Qt::ToolTipRole)
            return network.error.isEmpty() ? network.description : network.error;
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

} // namespace ts::widgets
