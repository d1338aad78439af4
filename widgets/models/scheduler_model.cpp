#include "widgets/models/scheduler_model.h"

#include <cmath>
#include <limits>

namespace ts::models {

SchedulerModel::SchedulerModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SchedulerModel::setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot)
{
    const int before = rowCount();
    const int after = snapshot ? static_cast<int>(snapshot->tasks.size()) : 0;
    if (m_snapshot && snapshot && m_snapshot->sessionId == snapshot->sessionId && before == after) {
        m_snapshot = std::move(snapshot);
        if (after > 0)
            Q_EMIT dataChanged(index(0, 0), index(after - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_snapshot = std::move(snapshot);
    endResetModel();
}

const SessionTask* SchedulerModel::taskAt(int row) const
{
    if (!m_snapshot || row < 0 || row >= static_cast<int>(m_snapshot->tasks.size()))
        return nullptr;
    return &m_snapshot->tasks[static_cast<size_t>(row)];
}

double SchedulerModel::latencyShare(const SessionSnapshot& snapshot, int task)
{
    if (snapshot.estimatedLatency <= 0.0 || task < 0 || task >= static_cast<int>(snapshot.tasks.size()))
        return -1.0;
    const engine::TaskStatus& status = snapshot.tasks[static_cast<size_t>(task)].status;
    return status.weight * status.bestCost / snapshot.estimatedLatency * 100.0;
}

QString SchedulerModel::gradientText(const SessionTask& task)
{
    const double g = task.lastGradient;
    if (std::isnan(g))
        return task.status.dead ? tr("dead") : QStringLiteral("–");
    if (std::isinf(g))
        return g < 0 ? tr("no best yet") : tr("+inf");
    return QString::number(g, 'g', 3);
}

int SchedulerModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_snapshot ? 0 : static_cast<int>(m_snapshot->tasks.size());
}

int SchedulerModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SchedulerModel::display(const SessionTask& task, int column) const
{
    const engine::TaskStatus& s = task.status;
    switch (column) {
    case TaskColumn:
        return QString::fromStdString(s.name);
    case WeightColumn:
        return s.weight;
    case SessionTrialsColumn:
        return task.sessionTrials;
    case AllTrialsColumn:
        return s.trials;
    case BestColumn:
        return s.bestCost > 0.0 ? QString::number(s.bestCost * 1e6, 'f', 1) : QStringLiteral("–");
    case GflopsColumn:
        return s.bestCost > 0.0 ? QString::number(s.gflops(), 'f', 2) : QStringLiteral("–");
    case ShareColumn: {
        const double share = latencyShare(*m_snapshot, s.task);
        return share >= 0.0 ? QString::number(share, 'f', 1) : QStringLiteral("–");
    }
    case GradientColumn:
        return gradientText(task);
    case StatusColumn:
        return s.dead ? tr("dead: %1").arg(QString::fromStdString(s.deadReason)) : tr("tuning");
    default:
        return {};
    }
}

QVariant SchedulerModel::sortValue(const SessionTask& task, int column) const
{
    const engine::TaskStatus& s = task.status;
    const double none = std::numeric_limits<double>::infinity();
    switch (column) {
    case BestColumn:
        return s.bestCost > 0.0 ? s.bestCost : none;
    case GflopsColumn:
        return s.gflops();
    case ShareColumn:
        return latencyShare(*m_snapshot, s.task);
    case GradientColumn:
        return std::isnan(task.lastGradient) ? none : task.lastGradient;
    case StatusColumn:
        return s.dead ? 1 : 0;
    default:
        return display(task, column);
    }
}

QVariant SchedulerModel::data(const QModelIndex& index, int role) const
{
    const SessionTask* task = index.isValid() ? taskAt(index.row()) : nullptr;
    if (!task || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*task, index.column());
    case SortRole:
        return sortValue(*task, index.column());
    case Qt::TextAlignmentRole:
        return index.column() == TaskColumn || index.column() == StatusColumn
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == TaskColumn && task->task)
            return QString::fromStdString(task->task->shapes);
        if (index.column() == GradientColumn)
            return tr("The scheduler's gradient before its last choice: the expected change of the network's "
                      "latency per trial of this task (more negative: more to gain).");
        return {};
    default:
        return {};
    }
}

QVariant SchedulerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TaskColumn:
        return tr("Task");
    case WeightColumn:
        return tr("Weight");
    case SessionTrialsColumn:
        return tr("Trials (session)");
    case AllTrialsColumn:
        return tr("Trials (all)");
    case BestColumn:
        return tr("Best (µs)");
    case GflopsColumn:
        return tr("GFLOP/s");
    case ShareColumn:
        return tr("Share of latency (%)");
    case GradientColumn:
        return tr("Gradient");
    case StatusColumn:
        return tr("Status");
    default:
        return {};
    }
}

} // namespace ts::models
