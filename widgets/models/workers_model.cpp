#include "widgets/models/workers_model.h"

#include <algorithm>

namespace ts::models {

WorkersModel::WorkersModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

double WorkersModel::perMinute(const store::WorkerInfo& worker)
{
    const double seconds = worker.lastSeen - worker.startedAt;
    return seconds > 0 ? 60.0 * static_cast<double>(worker.measured) / seconds : 0.0;
}

void WorkersModel::setWorkers(std::vector<store::WorkerInfo> workers, double now)
{
    std::sort(workers.begin(), workers.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    m_now = now;
    // The workers table only grows (a stopped worker keeps its row): rows already shown keep their place.
    const size_t shown = std::min(m_workers.size(), workers.size());
    bool samePrefix = true;
    for (size_t i = 0; i < shown && samePrefix; ++i)
        samePrefix = m_workers[i].id == workers[i].id;
    if (!samePrefix || workers.size() < m_workers.size()) {
        beginResetModel(); // another workspace
        m_workers = std::move(workers);
        endResetModel();
        return;
    }
    for (size_t i = 0; i < shown; ++i)
        m_workers[i] = workers[i];
    if (shown > 0)
        Q_EMIT dataChanged(index(0, 0), index(static_cast<int>(shown) - 1, ColumnCount - 1));
    if (workers.size() > shown) {
        beginInsertRows({}, static_cast<int>(shown), static_cast<int>(workers.size()) - 1);
        m_workers.insert(m_workers.end(), workers.begin() + static_cast<std::ptrdiff_t>(shown), workers.end());
        endInsertRows();
    }
}

int WorkersModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_workers.size());
}

int WorkersModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant WorkersModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const store::WorkerInfo& w = m_workers[static_cast<size_t>(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() >= Measured)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole)
        return tr("Worker %1 (pid %2, %3 threads)").arg(w.id).arg(w.pid).arg(w.threads);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name:
        return QString::fromStdString(w.name);
    case Host:
        return QString::fromStdString(w.host);
    case State:
        return QString::fromStdString(w.state);
    case Now:
        return QString::fromStdString(w.current);
    case Measured:
        return QVariant::fromValue(static_cast<qlonglong>(w.measured));
    case Failed:
        return QVariant::fromValue(static_cast<qlonglong>(w.failed));
    case PerMinute:
        return QString::number(perMinute(w), 'f', 1);
    case Seen:
        return tr("%1 s ago").arg(std::max(0.0, m_now - w.lastSeen), 0, 'f', 0);
    default:
        return {};
    }
}

QVariant WorkersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Worker");
    case Host:
        return tr("Host");
    case State:
        return tr("State");
    case Now:
        return tr("Measuring now");
    case Measured:
        return tr("Measured");
    case Failed:
        return tr("Failed");
    case PerMinute:
        return tr("Per minute");
    case Seen:
        return tr("Last seen");
    default:
        return {};
    }
}

} // namespace ts::models
