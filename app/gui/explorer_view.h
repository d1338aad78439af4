// ExplorerView: the explorer dock, batch and layout controls over the tree of networks and their tasks.
//
// The tree's model loads off the GUI thread; until the catalog arrives the dock says "Loading networks…".
// The row the user picks goes into the SelectionContext (a network row selects the network, a task row
// the task); a task selected elsewhere is followed in the tree. When the batch or layout changes, the same
// network and task are selected again in the new catalog, or the selection is cleared if they are gone.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;
class QStackedWidget;
class QTreeView;

namespace ts::models {
class NetworkTaskModel;
} // namespace ts::models

namespace ts::widgets {
class SelectionContext;
} // namespace ts::widgets

namespace ts::app {

class ExplorerView : public QWidget {
    Q_OBJECT
public:
    explicit ExplorerView(widgets::SelectionContext& selection, QWidget* parent = nullptr);

    // Selects task `taskId` of `network` in the tree, and so in the selection. False if the shown catalog
    // has no such task (or none is shown yet: see isLoading()).
    bool selectTask(const QString& network, int taskId);
    bool isLoading() const;
    models::NetworkTaskModel* model() const { return m_model; }
    QTreeView* treeView() const { return m_tree; }

Q_SIGNALS:
    // A catalog arrived and is shown (at start, and after each change of batch or layout).
    void ready();

private:
    void onConfigurationChanged();
    void onLoadingChanged(bool loading);
    void onModelReset();
    void onCurrentChanged(const QModelIndex& current);
    void followSelection();

    widgets::SelectionContext& m_selection;
    bool m_following = false; // followSelection() is moving the tree
    models::NetworkTaskModel* m_model;
    QSpinBox* m_batch;
    QComboBox* m_layout;
    QStackedWidget* m_pages;
    QLabel* m_loading;
    QTreeView* m_tree;
};

} // namespace ts::app
