// ScheduleEditor: the Code view's Edit tab (issue 41), where a person edits a copy of a schedule state and watches
// what it becomes. The copy's steps are TVM JSON, one step per line, coloured; 300 ms after the last keystroke a
// JobTracker job parses and replays them on the task's DAG (widgets/models/schedule_edit.h). A text that replays
// updates the panes beside the editor: the loop nest, the loop IR with the session model's per-stage scores (and
// their sum), the steps as schedule calls. One that does not shows the error under the editor, naming the step,
// its line and the offending field, marks that line and field, and leaves the panes on the last state that
// replayed.
//
// The loop nest's context menu writes steps for the person: split a loop by a factor, vectorize, parallel,
// unroll (AnnotationStep), compute another stage at this loop (ComputeAtStep). Each is inserted into the text as
// one edit, so the editor's undo takes it back, and it uses the ids of the state shown, which is why the menu is
// only offered once the text in the editor has replayed.
//
// Measure and Add to search steer the live session (SessionHub::post, docs/steering.md): MeasureState and
// SeedStates for the edited task, when it is one of the live session's tasks. GUI thread only.
#pragma once

#include "core/session/job_tracker.h"

#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTimer;

namespace ts::graph {
struct Task;
} // namespace ts::graph
namespace ts::sched {
class State;
} // namespace ts::sched
namespace ts::models {
struct EditOutcome;
} // namespace ts::models
namespace ts::widgets {
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

class ScheduleEditor : public QWidget {
    Q_OBJECT
public:
    enum class Pane { LoopNest, LoopIr, Calls };
    static constexpr int kDebounceMs = 300;

    ScheduleEditor(widgets::SessionHub& sessions, QWidget* parent = nullptr);
    ~ScheduleEditor() override;

    // Replaces what is edited with a copy of `state`'s steps, a state of `task`; `recordId` (the record it was
    // selected as, if any) lists it for that record's device, as the Code view does; `origin` says where it came
    // from ("matmul: a schedule of 13 steps, record 4"). Replays at once.
    void open(std::shared_ptr<const graph::Task> task, const sched::State& state, std::optional<int64_t> recordId,
        const QString& origin);
    bool isOpen() const { return m_task != nullptr; }

    QPlainTextEdit* textEdit() const { return m_text; }
    QString stepsText() const;
    QString paneText(Pane pane) const;
    void showPane(Pane pane);
    // "xgb, saved model 7: 0.8125 (sum of 2 stages)"; the session model's score of the state shown.
    QString scoreText() const;
    // Under the editor: why the text does not replay; empty when it does.
    QString errorText() const;
    // Lines of the editor marked as wrong.
    QList<int> markedLines() const;
    // The text changed and its replay has not arrived yet (waiting for a pause in typing, or computing).
    bool isPending() const;
    // The last state that replayed (what the panes show); null before the first.
    std::shared_ptr<const sched::State> shownState() const;
    // True when the panes show the text in the editor (it replayed and was not changed since).
    bool isCurrent() const;

    // The loop nest's context menu for its line `line` (from 0): the caller owns it. Empty when the line is not a
    // loop or the panes are not current.
    std::unique_ptr<QMenu> loopMenu(int line);
    // What the menu's entries do.
    void splitLoop(int line, int64_t factor);
    void annotateLoop(int line, int annotation);
    void computeAtLoop(int line, int stage);

    // "Edit a copy of the selection": the Code view connects it (it knows the selection).
    QPushButton* copyButton() const { return m_copy; }
    QPushButton* measureButton() const { return m_measure; }
    QPushButton* addToSearchButton() const { return m_addToSearch; }
    // Posts MeasureState / SeedStates with the edited steps to the live session.
    void measure();
    void addToSearch();
    // The last command's outcome, as shown ("Measured: record 41, 0.52 ms" ...).
    QString commandText() const;

Q_SIGNALS:
    // A replay's outcome was applied (the panes or the error).
    void replayed();

private:
    void scheduleReplay();
    void startReplay();
    void applyOutcome(std::shared_ptr<const models::EditOutcome> outcome);
    void showError();
    void updateButtons();
    void insertStep(const std::string& stepText, int position);
    int liveTaskIndex() const;
    // The shown session and its model, as the last replay scored with them (a change replays again).
    QString scoreKey() const;
    void onCommandDone(qint64 id, const QString& what, const QString& error, qint64 recordId);
    void showLoopMenu(const QPoint& position);

    widgets::SessionHub& m_sessions;
    QPushButton* m_copy;
    QLabel* m_origin;
    QPlainTextEdit* m_text;
    QLabel* m_error;
    QLabel* m_score;
    QTabWidget* m_panes;
    QPlainTextEdit* m_loopNest;
    QPlainTextEdit* m_loopIr;
    QPlainTextEdit* m_calls;
    QPushButton* m_measure;
    QPushButton* m_addToSearch;
    QLabel* m_command;
    QTimer* m_debounce;

    std::shared_ptr<const graph::Task> m_task;
    std::optional<int64_t> m_recordId;
    std::shared_ptr<const models::EditOutcome> m_shown; // the last outcome that replayed
    std::shared_ptr<const models::EditOutcome> m_last; // the last outcome, replayed or not
    bool m_textChanged = false; // since m_last was started
    qint64 m_pendingCommand = 0;
    QString m_scoreKey;
    session::JobTracker m_job;
};

} // namespace ts::app
