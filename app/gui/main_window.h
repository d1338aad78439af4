// The workbench's main window. It owns the SelectionContext, builds the views listed in view_registry.h
// (the explorer and details docks around the central DAG view), lists each view's actions under View and
// in the toolbar (or under Edit: undo and redo steering), shows the selected task in the status bar, and keeps window
// geometry, dock layout and the last selection in QSettings (keys in settings_keys.h).
#pragma once

#include <QHash>
#include <QMainWindow>
#include <QString>

#include <functional>
#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPlainTextEdit;
class QTreeView;

namespace ts::models {
class NetworkTaskModel;
} // namespace ts::models

namespace ts::widgets {
class DagView;
class SelectionContext;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

class ExplorerView;
struct ViewContext;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Expands `network` and selects task `taskId` (the demo opens ResNet-18's first task). False if the
    // explorer has no such task, or has not loaded yet (wait for explorerReady()).
    bool selectTask(const QString& network, int taskId);
    bool isExplorerReady() const;

    // Opens (or creates) a workspace: its sessions are listed and the newest is shown.
    void openWorkspace(const QString& path);
    // Opens the "New tuning session" dialog (prefilled with the selected task) and starts what it says.
    // Adds an ONNX model to the explorer (imported off the GUI thread) and to the session dialog's networks.
    void openModel(const QString& path);
    void newSession();
    // Asked before closing while a session runs; true closes (after the batch in flight). Tests replace it.
    void setCloseQuestion(std::function<bool()> ask) { m_askClose = std::move(ask); }
    QAction* sessionAction(const QString& name) const;
    QProgressBar* progressBar() const { return m_progress; }
    // The Session toolbar's cost-model box: the live session's model; choosing another switches it.
    QComboBox* modelBox() const { return m_model; }
    QString statusText() const;

    widgets::SelectionContext* selection() const { return m_selection; }
    widgets::SessionHub* sessions() const { return m_sessions; }
    // The view built from the registry entry `id`, or null.
    QWidget* view(const QString& id) const { return m_views.value(id); }
    widgets::DagView* dagView() const;
    QPlainTextEdit* detailsView() const;
    models::NetworkTaskModel* taskModel() const;
    QTreeView* explorer() const;

Q_SIGNALS:
    // The explorer shows a freshly loaded catalog (at start, and after each change of batch or layout).
    void explorerReady();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createViews();
    void createActions();
    void createSessionActions();
    void updateSessionActions();
    void updateProgress();
    void updateModelBox();
    void onLiveFinished(qint64 sessionId, const QString& status, const QString& message);
    void onTaskChanged();
    void restoreSettings();
    ExplorerView* explorerView() const;

    widgets::SelectionContext* m_selection;
    widgets::SessionHub* m_sessions;
    // What the views are built from; lives as long as they do (a view may keep a reference to it).
    std::unique_ptr<ViewContext> m_context;
    QHash<QString, QWidget*> m_views;
    QLabel* m_status = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_sessionMenu = nullptr;
    QLabel* m_phase = nullptr;
    QProgressBar* m_progress = nullptr;
    QComboBox* m_model = nullptr;
    QString m_requestedModel; // a switch asked for, until the session makes it
    QHash<QString, QAction*> m_sessionActions;
    std::function<bool()> m_askClose;
    bool m_closeWhenFinished = false;
};

} // namespace ts::app
