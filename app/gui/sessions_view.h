// SessionsView: the "Sessions" dock, the open workspace's tuning sessions (newest first). A click shows a
// session in every view (SessionHub::showSession; a stored one read-only); "Resume" continues a stored
// session with its origin and settings to its budget (or a larger one), "Show live" goes back to the
// session this window drives. On a PostgreSQL workspace, the Workers table below lists its measurement
// workers (what each measures now, its throughput), refreshed in a job every few seconds.
#pragma once

#include "app/gui/view_registry.h"

#include <QWidget>

#include <memory>

class QGroupBox;
class QLabel;
class QTimer;
class QSpinBox;
class QTableView;

namespace ts::models {
class SessionsModel;
class WorkersModel;
} // namespace ts::models

namespace ts::store {
class WorkQueue;
} // namespace ts::store

namespace ts::session {
class JobTracker;
} // namespace ts::session

namespace ts::app {

class SessionsView : public QWidget {
    Q_OBJECT
public:
    SessionsView(ViewContext& context, QWidget* parent = nullptr);
    ~SessionsView() override;

    models::SessionsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    models::WorkersModel* workers() const { return m_workersModel; }
    // Lists the workspace's workers again now (a timer does it every few seconds on a server workspace).
    void refreshWorkers();
    // The session the selected row names (0: none).
    int64_t selectedSession() const;
    void resumeSelected();

private:
    void onSessionsChanged();
    void onLiveChanged();
    void updateActions();
    void onWorkspaceChanged();

    ViewContext m_context;
    models::SessionsModel* m_model;
    QTableView* m_table;
    QLabel* m_workspace;
    QSpinBox* m_trials;
    QAction* m_resume;
    QAction* m_showLive;
    models::WorkersModel* m_workersModel;
    QGroupBox* m_workersBox;
    QTimer* m_workersTimer;
    std::unique_ptr<session::JobTracker> m_workersJob;
    // The refresh's connection to the server, opened by the first refresh and kept for the next ones (one
    // refresh runs at a time); a new workspace, or an error, starts a new one.
    std::shared_ptr<std::unique_ptr<store::WorkQueue>> m_workersQueue;
};

} // namespace ts::app
