#include "widgets/models/records_model.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

#include <limits>

namespace ts::models {

namespace {

    // Status names in TVM's error order (measure_status.h), for tr().
    constexpr const char* kStatusNames[] = {
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "ok"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "instantiation error"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "compile error"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "device compile error"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "runtime error"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "wrong answer"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "build timeout"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "run timeout"),
        QT_TRANSLATE_NOOP("ts::models::RecordsModel", "unknown error"),
    };
    static_assert(std::size(kStatusNames) == record::kMaxMeasureStatus + 1);

    RecordRow rowOf(const store::Record& r)
    {
        RecordRow row;
        row.id = r.id;
        row.taskId = r.taskId;
        row.sessionId = r.sessionId;
        row.status = r.result.status;
        row.cost = r.result.ok() ? r.result.meanCost() : 0.0;
        row.message = r.result.message;
        row.predicted = r.predictedScore;
        row.batchRank = r.batchRank;
        row.timestamp = r.result.timestamp;
        row.steps = r.steps;
        return row;
    }

    QString firstLine(const std::string& text)
    {
        const QString s = QString::fromStdString(text);
        const qsizetype newline = s.indexOf(QLatin1Char('\n'));
        return newline < 0 ? s : s.left(newline) + QStringLiteral(" …");
    }

} // namespace

Expected<RecordPage> loadRecordPage(
    const std::string& path, const store::RecordFilter& filter, int64_t afterId, int limit, bool count)
{
    RecordPage page;
    store::OpenOptions options;
    options.readOnly = true;
    auto opened = store::Store::open(path, options);
    if (!opened) {
        if (opened.error().kind == ErrorKind::NotFound) { // not created yet: no records
            page.atEnd = true;
            if (count)
                page.total = 0;
            return page;
        }
        return opened.error();
    }
    store::Store& store = *opened;
    TS_TRY(std::vector<store::Record> records, store.recordPage(filter, afterId, limit));
    page.rows.reserve(records.size());
    for (const store::Record& r : records)
        page.rows.push_back(rowOf(r));
    page.atEnd = static_cast<int>(records.size()) < limit;
    TS_TRY(std::vector<store::TaskInfo> tasks, store.tasks());
    for (const store::TaskInfo& t : tasks)
        page.tasks[t.id] = RecordTask { t.name, t.flops, t.key };
    if (count) {
        TS_TRY(int64_t total, store.recordCount(filter));
        page.total = total;
    }
    return page;
}

RecordsModel::RecordsModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_loader(this)
{
}

RecordsModel::~RecordsModel() = default;

QString RecordsModel::statusText(record::MeasureStatus status)
{
    return QCoreApplication::translate("ts::models::RecordsModel", kStatusNames[record::toInt(status)]);
}

void RecordsModel::setWorkspace(const QString& path)
{
    m_workspace = path;
    reload();
}

void RecordsModel::setSession(std::optional<int64_t> sessionId)
{
    if (m_filter.sessionId == sessionId)
        return;
    m_filter.sessionId = sessionId;
    reload();
}

void RecordsModel::setFailuresOnly(bool failuresOnly)
{
    if (m_filter.failedOnly == failuresOnly)
        return;
    m_filter.failedOnly = failuresOnly;
    reload();
}

void RecordsModel::reload()
{
    beginResetModel();
    m_rows.clear();
    m_total = -1;
    m_atEnd = true;
    m_appendWanted = false;
    endResetModel();
    if (m_workspace.isEmpty()) {
        m_loader.cancel();
        Q_EMIT loadingChanged(false);
        return;
    }
    loadAfter(0, true);
}

void RecordsModel::loadAfter(int64_t afterId, bool count)
{
    const std::string path = m_workspace.toStdString();
    const store::RecordFilter filter = m_filter;
    const int limit = m_pageSize;
    m_loader.start([path, filter, afterId, limit, count](
                       session::JobContext&) { return loadRecordPage(path, filter, afterId, limit, count); },
        [this](Expected<RecordPage> page) { applyPage(std::move(page)); });
    Q_EMIT loadingChanged(true);
}

void RecordsModel::appendNew()
{
    if (m_workspace.isEmpty())
        return;
    if (m_loader.isRunning()) {
        m_appendWanted = true;
        return;
    }
    // Only at the end: rows not loaded yet come with fetchMore, new ones included.
    if (m_atEnd)
        loadAfter(m_rows.empty() ? 0 : m_rows.back().id, m_total < 0);
}

void RecordsModel::applyPage(Expected<RecordPage> page)
{
    if (!page) {
        m_atEnd = true; // no retry loop on a broken workspace; setWorkspace() tries again
        Q_EMIT loadingChanged(false);
        Q_EMIT errorOccurred(
            tr("Records of %1 could not be read: %2").arg(m_workspace, QString::fromStdString(page.error().message)));
        return;
    }
    for (auto& [id, task] : page->tasks)
        m_tasks[id] = std::move(task);
    if (page->total)
        m_total = *page->total;
    // Pages follow the last loaded id, so they only ever extend the table. A new record counted after the
    // first page adds to the total.
    const int64_t lastId = m_rows.empty() ? 0 : m_rows.back().id;
    std::vector<RecordRow> rows;
    for (RecordRow& row : page->rows)
        if (row.id > lastId)
            rows.push_back(std::move(row));
    if (!rows.empty()) {
        const int first = static_cast<int>(m_rows.size());
        beginInsertRows({}, first, first + static_cast<int>(rows.size()) - 1);
        m_rows.insert(m_rows.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
        endInsertRows();
    }
    if (m_total >= 0 && static_cast<int64_t>(m_rows.size()) > m_total)
        m_total = static_cast<int64_t>(m_rows.size());
    m_atEnd = page->atEnd;
    if (m_atEnd && m_total >= 0)
        m_total = static_cast<int64_t>(m_rows.size());
    Q_EMIT loadingChanged(false);
    Q_EMIT pageLoaded();
    if (m_appendWanted) {
        m_appendWanted = false;
        appendNew();
    }
}

const RecordRow* RecordsModel::rowAt(int row) const
{
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return nullptr;
    return &m_rows[static_cast<size_t>(row)];
}

std::optional<int> RecordsModel::rowOfRecord(int64_t recordId) const
{
    // Rows are in id order.
    auto it = std::lower_bound(
        m_rows.begin(), m_rows.end(), recordId, [](const RecordRow& row, int64_t id) { return row.id < id; });
    if (it == m_rows.end() || it->id != recordId)
        return std::nullopt;
    return static_cast<int>(it - m_rows.begin());
}

QString RecordsModel::taskName(int64_t taskId) const
{
    auto it = m_tasks.find(taskId);
    return it == m_tasks.end() ? tr("task %1").arg(taskId) : QString::fromStdString(it->second.name);
}

std::string RecordsModel::taskKey(int64_t taskId) const
{
    auto it = m_tasks.find(taskId);
    return it == m_tasks.end() ? std::string() : it->second.key;
}

int RecordsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RecordsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

bool RecordsModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && !m_workspace.isEmpty() && !m_atEnd && !m_loader.isRunning();
}

void RecordsModel::fetchMore(const QModelIndex& parent)
{
    if (canFetchMore(parent))
        loadAfter(m_rows.empty() ? 0 : m_rows.back().id, false);
}

QVariant RecordsModel::data(const QModelIndex& index, int role) const
{
    const RecordRow* row = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!row)
        return {};
    if (role == RecordIdRole)
        return QVariant::fromValue<qint64>(row->id);
    if (role == FailedRole)
        return !row->ok();
    double flops = 0.0;
    if (auto it = m_tasks.find(row->taskId); it != m_tasks.end())
        flops = it->second.flops;
    const double gflops = row->ok() && flops > 0.0 ? flops / row->cost / 1e9 : 0.0;
    if (role == SortRole) {
        switch (index.column()) {
        case IdColumn:
            return QVariant::fromValue<qint64>(row->id);
        case SessionColumn:
            return QVariant::fromValue<qint64>(row->sessionId.value_or(0));
        case CostColumn:
            return row->ok() ? row->cost : std::numeric_limits<double>::infinity();
        case GflopsColumn:
            return gflops;
        case StatusColumn:
            return record::toInt(row->status);
        case PredictedColumn:
            return row->predicted.value_or(-std::numeric_limits<double>::infinity());
        case BatchRankColumn:
            return row->batchRank.value_or(std::numeric_limits<int>::max());
        case TimeColumn:
            return row->timestamp;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case TaskColumn:
        case StatusColumn:
        case MessageColumn:
        case TimeColumn:
            return QVariant::fromValue<int>(Qt::AlignLeft | Qt::AlignVCenter);
        default:
            return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    if (role == Qt::ToolTipRole) {
        if ((index.column() == StatusColumn || index.column() == MessageColumn) && !row->message.empty())
            return QString::fromStdString(row->message);
        if (index.column() == TaskColumn)
            return taskName(row->taskId);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case IdColumn:
        return QVariant::fromValue<qint64>(row->id);
    case TaskColumn:
        return taskName(row->taskId);
    case SessionColumn:
        return row->sessionId ? QVariant::fromValue<qint64>(*row->sessionId) : QVariant(tr("import"));
    case CostColumn:
        return row->ok() ? locale.toString(row->cost * 1e6, 'f', 2) : QString();
    case GflopsColumn:
        return gflops > 0.0 ? locale.toString(gflops, 'f', 2) : QString();
    case StatusColumn:
        return statusText(row->status);
    case MessageColumn:
        return firstLine(row->message);
    case PredictedColumn:
        return row->predicted ? locale.toString(*row->predicted, 'g', 4) : QString();
    case BatchRankColumn:
        return row->batchRank ? QVariant(*row->batchRank) : QVariant(QString());
    case TimeColumn:
        return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(row->timestamp * 1000.0))
            .toLocalTime()
            .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    default:
        return {};
    }
}

QVariant RecordsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case IdColumn:
        return tr("Id");
    case TaskColumn:
        return tr("Task");
    case SessionColumn:
        return tr("Session");
    case CostColumn:
        return tr("Cost (µs)");
    case GflopsColumn:
        return tr("GFLOP/s");
    case StatusColumn:
        return tr("Status");
    case MessageColumn:
        return tr("Message");
    case PredictedColumn:
        return tr("Predicted");
    case BatchRankColumn:
        return tr("Batch rank");
    case TimeColumn:
        return tr("Time");
    case ColumnCount:
        break;
    }
    return {};
}

RecordsFilterModel::RecordsFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(RecordsModel::SortRole);
    setDynamicSortFilter(true);
}

void RecordsFilterModel::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

bool RecordsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_text.isEmpty())
        return true;
    const QAbstractItemModel* source = sourceModel();
    for (int column : { RecordsModel::TaskColumn, RecordsModel::StatusColumn, RecordsModel::MessageColumn }) {
        const QString cell = source->data(source->index(sourceRow, column, sourceParent)).toString();
        if (cell.contains(m_text, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

} // namespace ts::models
