// CodeView: the "Code" dock, the program the selected schedule state becomes, in tabs:
//   Steps      its steps as schedule calls (core/schedule/step_printer.h), numbered;
//   Loop nest  Ansor's printout of the state, with the extents bound inference finds;
//   Loop IR    lowered and simplified, with the cost model's per-stage score above each stage's first store
//              (the shown session's XGBoost model when it has one, else the analytical model; the label says
//              which);
//   LLVM IR    optimized for this machine, and Assembly, as `tunescope-cli lower --llvm --asm` prints them;
//   Step       stepping through the schedule: position k of 0..N shows the loop nest after the first k steps
//              with the lines step k changed highlighted, and step k's call above it (how a sketch becomes a
//              program);
//   Diff       a unified diff of the steps or the loop IR between a pinned state ("Pin for diff") and the
//              selected one;
//   Edit       a copy of the selected state's steps to edit ("Edit a Copy"), replayed as one types, with its own
//              loop nest, loop IR and model score (app/gui/schedule_editor.h).
// Everything but the steps is computed in a JobTracker job (widgets/models/code_listing.h): the tabs say
// "computing…" until it arrives, and a newer selection drops an older job's result. Follows the selection's
// task and state, and the hub's shown session for the model that scores. GUI thread only.
#pragma once

#include "core/session/job_tracker.h"

#include <QWidget>

#include <memory>
#include <optional>

class QAction;
class QLabel;
class QPlainTextEdit;
class QRadioButton;
class QSlider;
class QTabWidget;
class QToolButton;

namespace ts::graph {
struct Task;
} // namespace ts::graph
namespace ts::sched {
class State;
} // namespace ts::sched
namespace ts::models {
struct CodeListing;
} // namespace ts::models
namespace ts::widgets {
class SelectionContext;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;
class ScheduleEditor;

class CodeView : public QWidget {
    Q_OBJECT
public:
    enum class Tab { Steps, LoopNest, LoopIr, LlvmIr, Assembly, Step, Diff, Edit };
    enum class DiffOf { Steps, LoopIr };

    CodeView(ViewContext& context, QWidget* parent = nullptr);
    ~CodeView() override;

    // The tab's text as shown (a placeholder or an error while there is no listing).
    QString text(Tab tab) const;
    void showTab(Tab tab);
    // A job for the selected state is on its way.
    bool isComputing() const;
    // What scored the loop IR's stages (the Loop IR tab's label).
    QString scoreLabel() const;

    // Stepping through: N steps (frames 0..N); -1 while there is no listing.
    int stepCount() const;
    int currentStep() const;
    void showStep(int step);
    QString stepCall() const;
    // "8 / 13   +0 −3 lines": the position and what the step changed.
    QString stepSummary() const;
    // Lines of the Step tab highlighted as changed by the current step.
    QList<int> highlightedLines() const;

    // Diff.
    QAction* pinAction() const { return m_pinAction; }
    void pinSelected();
    void unpin();
    bool hasPin() const { return m_pin != nullptr; }
    void setDiffOf(DiffOf of);
    // The unified diff shown; empty when there is none (no pin, no differences, or not computed yet).
    QString diffText() const { return m_diff; }

    // Edit: a copy of the selected state in the Edit tab.
    QAction* editAction() const { return m_editAction; }
    void editSelected();
    ScheduleEditor* editor() const { return m_editor; }

Q_SIGNALS:
    // The selected state's computed tabs were filled.
    void listingReady();
    // The pinned state's loop IR arrived.
    void pinReady();

private:
    struct Pinned;
    QWidget* buildStepTab();
    QWidget* buildDiffTab();
    QWidget* buildLoopIrTab();
    void onSelectionChanged();
    void onSessionChanged();
    void start();
    void applyListing(std::shared_ptr<const models::CodeListing> listing);
    void showPlaceholders(const QString& text);
    void updateTitle();
    void onRecordChanged();
    void updateDiff();
    QString stepsText(bool numbered) const;

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_sessions;
    QLabel* m_title;
    QTabWidget* m_tabs;
    QPlainTextEdit* m_steps;
    QPlainTextEdit* m_loopNest;
    QLabel* m_scoreLabel;
    QPlainTextEdit* m_loopIr;
    QPlainTextEdit* m_llvmIr;
    QPlainTextEdit* m_assembly;
    QSlider* m_stepSlider;
    QToolButton* m_back;
    QToolButton* m_forward;
    QLabel* m_stepPosition;
    QLabel* m_stepCall;
    QPlainTextEdit* m_stepText;
    QLabel* m_diffLabel;
    QRadioButton* m_diffSteps;
    QRadioButton* m_diffLoopIr;
    QPlainTextEdit* m_diffText;
    QAction* m_pinAction;
    QAction* m_unpinAction;
    ScheduleEditor* m_editor;
    QAction* m_editAction;

    // What the tabs show: the selection when the job started, and its result.
    std::shared_ptr<const graph::Task> m_task;
    std::shared_ptr<const sched::State> m_state;
    std::shared_ptr<const models::CodeListing> m_listing;
    QString m_scoreKey; // the shown session's model, as the last job saw it
    std::optional<int64_t> m_recordId; // the record the last job listed (its device gives the target)
    std::unique_ptr<Pinned> m_pin;
    QString m_diff;
    session::JobTracker m_job;
    session::JobTracker m_pinJob;
};

} // namespace ts::app
