#include "widgets/models/sketch_tree_model.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

namespace ts::models {

// ----- the model

SketchTreeModel::SketchTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
    , m_job(this)
    , m_marksJob(this)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &SketchTreeModel::startBuild);
}

SketchTreeModel::~SketchTreeModel() = default;

void SketchTreeModel::setSnapshot(std::shared_ptr<const SessionSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    if (!m_snapshot) {
        m_timer.stop();
        m_job.cancel();
        m_pending = false;
        m_building = {};
        m_built.reset();
        applyTree(SketchTree { -1, {}, 0, {} });
        return;
    }
    const Target target { m_snapshot->sessionId, m_snapshot->workspace, m_snapshot->tasks.size() };
    if (!(target == m_building)) {
        // Another session (or its tasks are now known): at once, dropping a build of the one before.
        m_timer.stop();
        startBuild();
        return;
    }
    m_retries = 0;
    const int trials = static_cast<int>(m_snapshot->trials.size());
    if (trials == (m_job.isRunning() ? m_buildingTrials : m_trials))
        return;
    scheduleBuild();
}

void SketchTreeModel::scheduleBuild()
{
    if (m_job.isRunning()) {
        m_pending = true; // built when the running build is in
        return;
    }
    if (m_timer.isActive())
        return;
    const qint64 wait = m_sinceBuild.isValid() ? m_throttleMs - m_sinceBuild.elapsed() : 0;
    if (wait <= 0)
        startBuild();
    else
        m_timer.start(static_cast<int>(wait));
}

void SketchTreeModel::startBuild()
{
    m_pending = false;
    if (!m_snapshot)
        return;
    const Target target { m_snapshot->sessionId, m_snapshot->workspace, m_snapshot->tasks.size() };
    // A build of another session lends nothing.
    if (!(target == m_building))
        m_built.reset();
    m_building = target;
    m_buildingTrials = static_cast<int>(m_snapshot->trials.size());
    m_sinceBuild.restart();
    m_job.start([snapshot = m_snapshot, previous = m_built](
                    session::JobContext& context) { return buildSketchTree(*snapshot, previous.get(), &context); },
        [this](Expected<SketchTree> tree) { onBuilt(std::move(tree)); });
}

void SketchTreeModel::onBuilt(Expected<SketchTree> tree)
{
    if (!tree) {
        m_error = QString::fromStdString(tree.error().message);
        Q_EMIT errorOccurred(m_error);
    } else {
        m_error.clear();
        applyTree(std::move(tree).value());
    }
    // Newer trials came in meanwhile, or some records were not in the store yet (the session writes a batch
    // before it reports it; a few retries cover a finished session's last batch).
    const bool behind = m_snapshot && static_cast<int>(m_snapshot->trials.size()) > m_trials;
    if (m_pending || (behind && (m_snapshot->live || m_retries++ < 3)))
        scheduleBuild();
}

bool SketchTreeModel::sameStructure(const SketchTree& tree) const
{
    if (tree.sessionId != m_sessionId || tree.workspace != m_workspace || tree.tasks.size() != m_tasks.size())
        return false;
    for (size_t t = 0; t < m_tasks.size(); ++t) {
        const SketchTask& now = m_tasks[t];
        const SketchTask& next = tree.tasks[t];
        if (now.name != next.name || now.graphTask != next.graphTask || now.groups.size() > next.groups.size())
            return false;
        for (size_t g = 0; g < now.groups.size(); ++g) {
            if (now.groups[g].index != next.groups[g].index
                || now.groups[g].states.size() > next.groups[g].states.size())
                return false;
            // Every state shown is still there, in the same order (records never change).
            std::set<int64_t> ids;
            for (const auto& state : next.groups[g].states)
                ids.insert(state->recordId);
            for (const auto& state : now.groups[g].states)
                if (!ids.count(state->recordId))
                    return false;
        }
    }
    return true;
}

void SketchTreeModel::applyTree(SketchTree tree)
{
    auto built = std::make_shared<const SketchTree>(tree);
    if (!sameStructure(tree)) {
        beginResetModel();
        m_sessionId = tree.sessionId;
        m_workspace = tree.workspace;
        m_tasks = std::move(tree.tasks);
        m_marks = {}; // of other rows
        endResetModel();
    } else {
        insertNewRows(std::move(tree));
    }
    m_trials = built->trials;
    m_built = std::move(built);
    Q_EMIT treeUpdated();
    startMarks(); // the new rows too
}

void SketchTreeModel::insertNewRows(SketchTree tree)
{
    for (size_t t = 0; t < m_tasks.size(); ++t) {
        SketchTask& now = m_tasks[t];
        SketchTask& next = tree.tasks[t];
        const QModelIndex taskRow = index(static_cast<int>(t), 0);
        for (size_t g = 0; g < next.groups.size(); ++g) {
            if (g >= now.groups.size()) { // the "other" group appears
                beginInsertRows(taskRow, static_cast<int>(g), static_cast<int>(g));
                now.groups.push_back(std::move(next.groups[g]));
                endInsertRows();
                continue;
            }
            auto& shown = now.groups[g].states;
            const auto& states = next.groups[g].states;
            if (shown.size() == states.size())
                continue;
            const QModelIndex groupRow = index(static_cast<int>(g), 0, taskRow);
            // `shown` is a subsequence of `states` (sameStructure): insert the others at their places.
            for (size_t pos = 0; pos < states.size(); ++pos) {
                if (pos < shown.size() && shown[pos]->recordId == states[pos]->recordId)
                    continue;
                beginInsertRows(groupRow, static_cast<int>(pos), static_cast<int>(pos));
                shown.insert(shown.begin() + static_cast<std::ptrdiff_t>(pos), states[pos]);
                endInsertRows();
            }
            Q_EMIT dataChanged(groupRow, index(static_cast<int>(g), ColumnCount - 1, taskRow));
        }
        Q_EMIT dataChanged(taskRow, index(static_cast<int>(t), ColumnCount - 1));
    }
}

quintptr SketchTreeModel::idOf(int task, int group)
{
    if (group < 0)
        return static_cast<quintptr>(task + 1);
    return (static_cast<quintptr>(task + 1) << 32) | static_cast<quintptr>(group + 1);
}

SketchTreeModel::Kind SketchTreeModel::kindAt(const QModelIndex& index) const
{
    const quintptr id = index.internalId();
    if (id == 0)
        return TaskRow;
    return (id >> 32) == 0 ? SketchRow : StateRow;
}

int SketchTreeModel::taskIndexAt(const QModelIndex& index) const
{
    if (!index.isValid())
        return -1;
    const quintptr id = index.internalId();
    if (id == 0)
        return index.row();
    return static_cast<int>((id >> 32) == 0 ? id - 1 : (id >> 32) - 1);
}

std::shared_ptr<const graph::Task> SketchTreeModel::taskAt(const QModelIndex& index) const
{
    const int t = taskIndexAt(index);
    return t >= 0 && t < static_cast<int>(m_tasks.size()) ? m_tasks[static_cast<size_t>(t)].graphTask : nullptr;
}

const SketchGroup* SketchTreeModel::groupAt(const QModelIndex& index) const
{
    if (!index.isValid() || kindAt(index) == TaskRow)
        return nullptr;
    const SketchTask& task = m_tasks.at(static_cast<size_t>(taskIndexAt(index)));
    const int group = kindAt(index) == SketchRow ? index.row() : static_cast<int>(index.internalId() & 0xffffffffu) - 1;
    return &task.groups.at(static_cast<size_t>(group));
}

std::shared_ptr<const MeasuredState> SketchTreeModel::measuredAt(const QModelIndex& index) const
{
    if (!index.isValid() || kindAt(index) != StateRow)
        return nullptr;
    return groupAt(index)->states.at(static_cast<size_t>(index.row()));
}

QModelIndex SketchTreeModel::indexOfRecord(int64_t recordId) const
{
    for (size_t t = 0; t < m_tasks.size(); ++t)
        for (size_t g = 0; g < m_tasks[t].groups.size(); ++g) {
            const auto& states = m_tasks[t].groups[g].states;
            for (size_t s = 0; s < states.size(); ++s)
                if (states[s]->recordId == recordId)
                    return createIndex(static_cast<int>(s), 0, idOf(static_cast<int>(t), static_cast<int>(g)));
        }
    return {};
}

QModelIndex SketchTreeModel::taskIndex(int task) const
{
    return task >= 0 && task < static_cast<int>(m_tasks.size()) ? index(task, 0) : QModelIndex();
}

QModelIndex SketchTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr { 0 });
    switch (kindAt(parent)) {
    case TaskRow:
        return createIndex(row, column, idOf(parent.row(), -1));
    case SketchRow:
        return createIndex(row, column, idOf(taskIndexAt(parent), parent.row()));
    case StateRow:
        break;
    }
    return {};
}

QModelIndex SketchTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    switch (kindAt(child)) {
    case TaskRow:
        return {};
    case SketchRow:
        return createIndex(taskIndexAt(child), 0, quintptr { 0 });
    case StateRow:
        return createIndex(static_cast<int>(child.internalId() & 0xffffffffu) - 1, 0, idOf(taskIndexAt(child), -1));
    }
    return {};
}

int SketchTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_tasks.size());
    if (parent.column() != 0)
        return 0;
    switch (kindAt(parent)) {
    case TaskRow:
        return static_cast<int>(m_tasks.at(static_cast<size_t>(parent.row())).groups.size());
    case SketchRow:
        return static_cast<int>(groupAt(parent)->states.size());
    case StateRow:
        return 0;
    }
    return 0;
}

int SketchTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

namespace {
    QString costText(double seconds)
    {
        if (seconds <= 0.0)
            return {};
        if (seconds < 1e-3)
            return QCoreApplication::translate("ts::models::SketchTreeModel", "%1 µs")
                .arg(seconds * 1e6, 0, 'f', seconds < 1e-5 ? 2 : 1);
        return QCoreApplication::translate("ts::models::SketchTreeModel", "%1 ms").arg(seconds * 1e3, 0, 'f', 3);
    }

    QString gflopsText(double gflops) { return gflops > 0.0 ? QString::number(gflops, 'f', 1) : QString(); }
} // namespace

QVariant SketchTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Kind kind = kindAt(index);
    if (role == KindRole)
        return static_cast<int>(kind);
    const int column = index.column();
    if (role == RemovedRole || (column == ConstraintColumn && role != Qt::ToolTipRole))
        return markData(index, kind, role);
    if (role == Qt::TextAlignmentRole && (column == CostColumn || column == GflopsColumn))
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    if (kind == TaskRow) {
        const SketchTask& task = m_tasks.at(static_cast<size_t>(index.row()));
        const MeasuredState* best = task.best();
        if (role == Qt::DisplayRole) {
            switch (column) {
            case NameColumn:
                return QString::fromStdString(task.name);
            case CostColumn:
                return best ? costText(best->cost) : QString();
            case GflopsColumn:
                return best ? gflopsText(best->gflops) : QString();
            case StatusColumn:
                if (!task.error.empty())
                    return tr("no sketches");
                return tr(
                    "%n sketch(es), %1 measured", nullptr, static_cast<int>(task.sketches ? task.sketches->size() : 0))
                    .arg(task.measured());
            default:
                return {};
            }
        }
        if (role == Qt::ToolTipRole && !task.error.empty())
            return QString::fromStdString(task.error);
        return {};
    }
    if (kind == SketchRow) {
        const SketchGroup& group = *groupAt(index);
        const MeasuredState* best = group.best();
        if (role == Qt::DisplayRole) {
            switch (column) {
            case NameColumn:
                return group.index < 0
                    ? tr("Other (no sketch matches)")
                    : tr("Sketch %1: %2").arg(group.index + 1).arg(QString::fromStdString(group.rules));
            case CostColumn:
                return best ? costText(best->cost) : QString();
            case GflopsColumn:
                return best ? gflopsText(best->gflops) : QString();
            case StatusColumn: {
                const int failures = group.failures();
                const QString measured = tr("%n measured", nullptr, static_cast<int>(group.states.size()));
                return failures > 0 ? tr("%1, %2 failed").arg(measured).arg(failures) : measured;
            }
            case ComputeAtColumn:
                return QString::fromStdString(group.computeAt);
            default:
                return {};
            }
        }
        if (role == Qt::ToolTipRole) {
            if (group.index < 0)
                return tr("Records whose steps match none of the task's sketches (imported, or tuned with other "
                          "rules or for another target)");
            return markedToolTip(index, kind, QString::fromStdString(group.description));
        }
        return {};
    }
    const MeasuredState& state = *measuredAt(index);
    if (role == RecordIdRole)
        return QVariant::fromValue<qint64>(state.recordId);
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return tr("Trial %1").arg(state.trial);
        case CostColumn:
            return state.ok() ? costText(state.cost) : QString();
        case GflopsColumn:
            return state.ok() ? gflopsText(state.gflops) : QString();
        case StatusColumn:
            return state.ok() ? tr("ok") : QString::fromLatin1(record::toString(state.status));
        case TilesColumn:
            return QString::fromStdString(state.tiles);
        case ComputeAtColumn:
            return QString::fromStdString(state.computeAt);
        case AnnotationsColumn:
            return QString::fromStdString(state.annotations);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = tr("Record %1").arg(state.recordId);
        if (!state.message.empty())
            tip += QLatin1Char('\n') + QString::fromStdString(state.message);
        if (!state.error.empty())
            tip += QLatin1Char('\n') + tr("Not replayed: %1").arg(QString::fromStdString(state.error));
        return markedToolTip(index, kind, tip);
    }
    return {};
}

QVariant SketchTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Task / sketch / state");
    case CostColumn:
        return tr("Cost");
    case GflopsColumn:
        return tr("GFLOP/s");
    case StatusColumn:
        return tr("Status");
    case TilesColumn:
        return tr("Tile sizes");
    case ComputeAtColumn:
        return tr("Compute at");
    case AnnotationsColumn:
        return tr("Parallel, vectorize, unroll");
    case ConstraintColumn:
        return tr("Constraints");
    default:
        return {};
    }
}

} // namespace ts::models
