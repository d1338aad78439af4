// RecordsModel: the workspace's records as a table, loaded lazily so that a workspace of a million records
// opens at once.
//
// - Rows are loaded in pages of pageSize() records, in id (trial) order, by keyset paging
//   (store::Store::recordPage: the records after the last loaded id). setWorkspace() and every change of the
//   store-side filter (one session, failures only) load the first page only; the view asks for the next
//   ones through canFetchMore()/fetchMore() as it scrolls. Each page loads in a session::JobTracker job
//   with its own read-only Store: the GUI thread never runs SQL. A page arrives as one insertion.
// - appendNew() fetches the records stored after the last loaded one (a live session's new records, which
//   always come at the end): rows are appended, never reset. Ask for it as often as wanted: while a page is
//   in flight the request is remembered and done once, after it.
// - Sorting and the text filter are the proxy's (RecordsFilterModel below, a QSortFilterProxyModel): they
//   work on the rows loaded so far. Sorting by cost on a large workspace sorts the loaded pages, not the
//   workspace; the session and failures filters, which cut the set down, run in the store.
//
// Columns: id, task, session, cost (µs, mean of the repeats), GFLOP/s (the task's FLOPs over that cost),
// status, message (why it failed), predicted score, batch rank, time (local). The status cell's tooltip is
// the failure message. SortRole gives numbers for the numeric columns (a failure's cost sorts last).
#pragma once

#include "core/record/measure_status.h"
#include "core/session/job_tracker.h"
#include "core/store/store.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ts::models {

// One record as the table shows it.
struct RecordRow {
    int64_t id = 0;
    int64_t taskId = 0;
    std::optional<int64_t> sessionId;
    double cost = 0.0; // mean seconds; 0 when it failed
    record::MeasureStatus status = record::MeasureStatus::Ok;
    std::string message;
    std::optional<double> predicted;
    std::optional<int> batchRank;
    double timestamp = 0.0; // Unix seconds
    std::string steps; // JSON step list, to replay the record's state

    bool ok() const { return status == record::MeasureStatus::Ok && cost > 0.0; }
};

// A task's name, FLOPs and workload key, from the workspace's task rows.
struct RecordTask {
    std::string name;
    double flops = 0.0;
    std::string key; // a DAG's workloadKey() for the tasks TuneScope tuned itself
};

// What one page load hands back.
struct RecordPage {
    std::vector<RecordRow> rows;
    std::map<int64_t, RecordTask> tasks; // every task of the workspace
    std::optional<int64_t> total; // records matching the filter (counted with a first page only)
    bool atEnd = false; // fewer rows than asked for: nothing more is stored yet
};

// Loads up to `limit` records of `filter` after `afterId` from the workspace at `path` (a read-only Store
// of its own: call it on any thread). A workspace that does not exist yet is empty.
Expected<RecordPage> loadRecordPage(
    const std::string& path, const store::RecordFilter& filter, int64_t afterId, int limit, bool count);

class RecordsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        TaskColumn,
        SessionColumn,
        CostColumn,
        GflopsColumn,
        StatusColumn,
        MessageColumn,
        PredictedColumn,
        BatchRankColumn,
        TimeColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for numeric columns, text otherwise
        RecordIdRole, // qint64
        FailedRole, // bool
    };

    explicit RecordsModel(QObject* parent = nullptr);
    ~RecordsModel() override;

    // Shows the records of the workspace at `path` (empty: none): the first page.
    void setWorkspace(const QString& path);
    QString workspace() const { return m_workspace; }
    // Store-side filters; each change reloads from the first page.
    void setSession(std::optional<int64_t> sessionId);
    std::optional<int64_t> session() const { return m_filter.sessionId; }
    void setFailuresOnly(bool failuresOnly);
    bool failuresOnly() const { return m_filter.failedOnly; }
    // Loads the records stored after the last loaded one (see above).
    void appendNew();

    int pageSize() const { return m_pageSize; }
    void setPageSize(int rows) { m_pageSize = rows; }
    bool isLoading() const { return m_loader.isRunning(); }
    // Records matching the filter in the workspace, as counted when the first page loaded (-1 before).
    int64_t totalCount() const { return m_total; }

    const RecordRow* rowAt(int row) const;
    std::optional<int> rowOfRecord(int64_t recordId) const;
    QString taskName(int64_t taskId) const;
    // The task row's workload key ("" when not known).
    std::string taskKey(int64_t taskId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

    // The status as shown ("ok", "compile error", ...), translated.
    static QString statusText(record::MeasureStatus status);

Q_SIGNALS:
    // A page (or the new records) arrived and its rows are in.
    void pageLoaded();
    void loadingChanged(bool loading);
    void errorOccurred(const QString& message);

private:
    void reload();
    void loadAfter(int64_t afterId, bool count);
    void applyPage(Expected<RecordPage> page);

    QString m_workspace;
    store::RecordFilter m_filter;
    int m_pageSize = 500;
    std::vector<RecordRow> m_rows;
    std::map<int64_t, RecordTask> m_tasks;
    int64_t m_total = -1;
    bool m_atEnd = true;
    bool m_appendWanted = false; // appendNew() came while a page was in flight
    session::JobTracker m_loader;
};

// The table's proxy: sorts the loaded rows (by RecordsModel::SortRole) and keeps those whose task name,
// status or message contains the filter text (case-insensitive).
class RecordsFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RecordsFilterModel(QObject* parent = nullptr);
    void setText(const QString& text);
    QString text() const { return m_text; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
};

} // namespace ts::models
