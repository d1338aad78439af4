// SketchView: the "Sketches" dock, the shown session's measured states under the sketches they came from.
//
// A tree (models::SketchTreeModel, built off the GUI thread) of the session's tasks, each task's sketches
// with the rules that made them and the best of their states, and the measured states with the tile sizes,
// compute locations and parallel / vectorize / unroll choices of each. A task box shows all tasks or one.
// Follows the hub's current session (rebuilt as a live session gains trials, at most once a second, rows
// inserted in place so expansion and selection stay) and the selection's record. A state row selects the
// measured state (selectMeasured: its task, replayed state and record); a sketch row selects the sketch's
// state (open tile sizes) of its task.
//
// Constraints (issue 41): each task's constraints (the shown session's steering, or a change the Steering dock has
// posted and the session not yet applied: SessionHub::postedConstraints) mark what they remove: a sketch the sketch
// rules rule out and a measured state that breaks a constraint are greyed and struck out, the Constraints column
// says why, and the status line counts the sketches allowed ("1 of 2 sketches allowed").
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QModelIndex;
class QTreeView;

namespace ts::models {
class SketchTreeModel;
} // namespace ts::models

namespace ts::widgets {
class SelectionContext;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

class SketchView : public QWidget {
    Q_OBJECT
public:
    explicit SketchView(ViewContext& context, QWidget* parent = nullptr);

    models::SketchTreeModel* model() const { return m_model; }
    QTreeView* treeView() const { return m_tree; }
    QComboBox* taskBox() const { return m_taskBox; }

private:
    void onTreeUpdated(bool reset);
    void onCurrentChanged(const QModelIndex& current);
    void onTaskBoxChanged();
    void followRecord();
    void followTask();
    void updateStatus();
    void updateConstraints();

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_sessions;
    models::SketchTreeModel* m_model;
    QComboBox* m_taskBox;
    QLabel* m_status;
    QTreeView* m_tree;
    bool m_following = false; // the tree's selection is being set from the context
    bool m_reset = false; // the model was reset since the last update
};

} // namespace ts::app
