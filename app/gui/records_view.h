// RecordsView: the "Records" dock, the workspace's measured records as a table with a filter bar (text on
// task, status and message; failures only; all sessions or one).
//
// The table is a models::RecordsModel (pages loaded lazily in jobs: a workspace of a million records opens
// with its first page) behind a models::RecordsFilterModel (sorting and the text filter work on the loaded
// rows). While the hub's live session runs, its new records are appended at most twice a second, never by
// a reset.
//
// Clicking a row selects the record in the SelectionContext with its task and replayed state
// (selectMeasured), when the record belongs to a session whose snapshot has its tasks (the shown one, or
// another loaded through the hub); an imported record has no task here and only says so in the status line.
// A record selected elsewhere is selected in the table when its row is loaded.
//
// "Export repro…" writes the selected record's repro folder (engine::exportRepro) in a job.
//
// The context menu steers the live session with the selected record (issue 41, docs/steering.md): "Measure again
// as manual" (engine::MeasureState with its steps: a manual record of the session) and "Add to search (seed)"
// (engine::SeedStates: its state joins the task's initial population). Both need a live session that tunes the
// record's task (the same workload); otherwise they are disabled and their tooltip says why.
#pragma once

#include "core/session/job_tracker.h"

#include <QWidget>

#include <cstdint>
#include <optional>
#include <set>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace ts::models {
class RecordsFilterModel;
class RecordsModel;
} // namespace ts::models

namespace ts::app {

struct ViewContext;

class RecordsView : public QWidget {
    Q_OBJECT
public:
    RecordsView(ViewContext& context, QWidget* parent = nullptr);
    ~RecordsView() override;

    models::RecordsModel* model() const { return m_model; }
    models::RecordsFilterModel* proxy() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }
    QLineEdit* filterEdit() const { return m_filter; }
    QCheckBox* failuresOnlyBox() const { return m_failuresOnly; }
    QComboBox* sessionCombo() const { return m_session; }
    QAction* exportAction() const { return m_export; }
    QAction* measureManualAction() const { return m_measureManual; }
    QAction* seedAction() const { return m_seed; }

    // Writes the repro of `recordId` into `dir` in a job; reproExported follows.
    void exportRepro(int64_t recordId, const QString& dir);

Q_SIGNALS:
    // An export finished: `error` is empty on success.
    void reproExported(const QString& dir, const QString& error);

private:
    void onWorkspaceChanged();
    void onSessionsChanged();
    void onSessionPicked();
    void onCurrentRowChanged();
    void onHubUpdated();
    void followRecord();
    void selectRecord(int64_t recordId);
    void updateStatus();
    void onExportTriggered();
    // The live session's index of the selected record's task; -1 with why not in `why`.
    int liveTaskOfSelected(QString& why) const;
    void updateSteeringActions();
    // Posts `command` built for the selected record's task and steps.
    void steerWithSelected(bool seed);

    ViewContext& m_context;
    models::RecordsModel* m_model;
    models::RecordsFilterModel* m_proxy;
    QLineEdit* m_filter;
    QCheckBox* m_failuresOnly;
    QComboBox* m_session;
    QLabel* m_status;
    QTableView* m_table;
    QAction* m_export;
    QAction* m_measureManual;
    QAction* m_seed;
    QTimer* m_liveRefresh;
    QString m_note; // what the status line says after the counts (a selection that could not be made)
    QString m_loadError; // the last page that failed to load, until one loads
    bool m_following = false; // selecting a row because the context changed: do not write it back
    std::optional<int64_t> m_pendingRecord; // clicked, waiting for its session's snapshot
    std::set<int64_t> m_steering; // commands this view posted that the session has not answered
    session::JobTracker m_exportJob;
};

} // namespace ts::app
