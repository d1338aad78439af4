// The workbench's main window: the network/task explorer (dock), the DAG view of the selected task
// (centre) and the task's details (dock). Window geometry, dock layout and the last selection are kept in
// QSettings.
#pragma once

#include <QMainWindow>

class QComboBox;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QSpinBox;
class QTreeView;

namespace ts::widgets {
class DagView;
class NetworkTaskModel;
} // namespace ts::widgets

namespace ts::app {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Expands `network` and selects task `taskId` (the demo opens ResNet-18's first task).
    bool selectTask(const QString& network, int taskId);

    widgets::DagView* dagView() const { return m_dagView; }
    widgets::NetworkTaskModel* taskModel() const { return m_model; }
    QTreeView* explorer() const { return m_explorer; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createDocks();
    void onCurrentChanged(const QModelIndex& current);
    void onConfigurationChanged();
    void restoreSettings();

    widgets::NetworkTaskModel* m_model;
    widgets::DagView* m_dagView;
    QTreeView* m_explorer = nullptr;
    QPlainTextEdit* m_details = nullptr;
    QSpinBox* m_batch = nullptr;
    QComboBox* m_layout = nullptr;
    QLabel* m_status = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace ts::app
