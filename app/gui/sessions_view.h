// SessionsView: the "Sessions" dock, the open workspace's tuning sessions (newest first). A click shows a
// session in every view (SessionHub::showSession; a stored one read-only); "Resume" continues a stored
// session with its origin and settings to its budget (or a larger one), "Show live" goes back to the
// session this window drives.
#pragma once

#include "app/gui/view_registry.h"

#include <QWidget>

class QLabel;
class QSpinBox;
class QTableView;

namespace ts::models {
class SessionsModel;
} // namespace ts::models

namespace ts::app {

class SessionsView : public QWidget {
    Q_OBJECT
public:
    SessionsView(ViewContext& context, QWidget* parent = nullptr);

    models::SessionsModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // The session the selected row names (0: none).
    int64_t selectedSession() const;
    void resumeSelected();

private:
    void onSessionsChanged();
    void onLiveChanged();
    void updateActions();

    ViewContext m_context;
    models::SessionsModel* m_model;
    QTableView* m_table;
    QLabel* m_workspace;
    QSpinBox* m_trials;
    QAction* m_resume;
    QAction* m_showLive;
};

} // namespace ts::app
