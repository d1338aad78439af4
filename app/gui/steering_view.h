// SteeringView: the "Steering" dock, a person's hand on a running search (issue 41, docs/steering.md).
//
// It shows the live session's steering (a stored session's, read from its settings, when none runs), as its
// snapshot holds it (SessionSnapshot::steering):
// - the history: one line per entry, the entry in effect highlighted, the entries after it greyed "undone";
//   Undo and Redo (also Edit > Undo steering, Ctrl+Z, and Edit > Redo steering, Ctrl+Shift+Z) post UndoSteering and
//   RedoSteering;
// - per task: its constraints, seeds and manual records (those in the population too); selecting a row selects
//   the task in the SelectionContext, and a task selected elsewhere selects its row;
// - the constraints of that task, one line each (search::Constraints::describe()), with "Add constraint…" (a
//   ConstraintDialog), "Remove", "Clear", "Save constraints…" (every task's, the file `tune --constraints` reads)
//   and "Load constraints…". Each change posts SetConstraints with the task's whole new list.
//
// Commands go through the hub (SessionHub::post) and are applied between two batches, or at once while the
// session is paused; until the session answers (commandDone) the status line says they wait, and a further
// change of the same task's constraints starts from the list posted last, not from the older one shown. Nothing
// here blocks: posting queues the command, and the answer comes back as a signal. GUI thread.
#pragma once

#include "core/search/constraints.h"
#include "widgets/models/session_snapshot.h"

#include <QWidget>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QLabel;
class QListWidget;
class QTableWidget;

namespace ts::app {

class ConstraintDialog;
struct ViewContext;

class SteeringView : public QWidget {
    Q_OBJECT
public:
    explicit SteeringView(ViewContext& context, QWidget* parent = nullptr);
    ~SteeringView() override;

    QAction* undoAction() const { return m_undo; }
    QAction* redoAction() const { return m_redo; }
    QAction* addConstraintAction() const { return m_addConstraint; }
    QAction* removeConstraintAction() const { return m_removeConstraint; }
    QAction* clearConstraintsAction() const { return m_clearConstraints; }
    QAction* saveConstraintsAction() const { return m_saveConstraints; }
    QAction* loadConstraintsAction() const { return m_loadConstraints; }
    QListWidget* historyList() const { return m_history; }
    QListWidget* constraintsList() const { return m_constraints; }
    QTableWidget* tasksTable() const { return m_tasks; }
    QString statusText() const;

    // The task whose constraints are listed (an index into the shown session's tasks; -1 when none).
    int shownTask() const { return m_task; }
    // The session whose steering is shown: the live one while it runs, else the one the hub shows; null if none.
    std::shared_ptr<const models::SessionSnapshot> shownSession() const { return m_snapshot; }
    // The "Add constraint…" dialog, opened (not modal to the loop: it returns at once) for the shown task; the
    // constraint is posted when it is accepted. Null when there is no task to constrain.
    ConstraintDialog* openConstraintDialog();
    // Posts `constraints` as task `task`'s (SetConstraints); false when the hub refused it (it said why).
    bool setConstraints(int task, search::Constraints constraints);
    // Every task's constraints as the file `tune --constraints` reads; false, with the reason in the status line,
    // when it cannot be written.
    bool saveConstraints(const QString& path);
    // Sets the constraints of every task the file constrains (one SetConstraints per task whose list changes);
    // false, with the reason in the status line, when the file does not read or fit the tasks.
    bool loadConstraints(const QString& path);

private:
    void onSessionChanged();
    void onCommandDone(qint64 id, const QString& what, const QString& error, qint64 recordId);
    void onTaskSelected();
    void onTaskRowChanged();
    void updateHistory();
    void updateTasks();
    void updateConstraints();
    void updateActions();
    void setStatus(const QString& text);
    bool steerable() const; // a live session that takes commands is shown
    // The constraints a change of task `task` starts from: the list posted last, while it waits, else the shown one.
    search::Constraints constraintsOf(int task) const;
    // The index of the shown session's task that `task` is (the same object, or the same workload); -1 if none.
    int indexOf(const std::shared_ptr<const graph::Task>& task) const;

    ViewContext& m_context;
    std::shared_ptr<const models::SessionSnapshot> m_snapshot;
    int m_task = -1;
    // Commands this view posted and the session has not answered: id -> what it asked; for SetConstraints also
    // the task and the list.
    struct Pending {
        QString what;
        std::optional<int> task;
        search::Constraints constraints;
    };
    std::map<int64_t, Pending> m_pending;
    QString m_lastResult; // what the last answer said
    std::vector<std::string> m_historyShown; // what the history list shows, and its entry in effect
    int m_positionShown = -1;
    bool m_followingSelection = false; // selecting a row because the context changed: do not write it back

    QListWidget* m_history;
    QTableWidget* m_tasks;
    QListWidget* m_constraints;
    QLabel* m_constraintsTitle;
    QLabel* m_status;
    QAction* m_undo;
    QAction* m_redo;
    QAction* m_addConstraint;
    QAction* m_removeConstraint;
    QAction* m_clearConstraints;
    QAction* m_saveConstraints;
    QAction* m_loadConstraints;
};

} // namespace ts::app
