// SweepView: the "Sweep" dock (issue 41, feature 5; docs/user-guide.md, "Sweep one parameter"). For the selected
// schedule state (a record, a trial, a sketch's state) it lists the parameters a sweep can vary
// (engine::sweepableParameters: every split length, the unroll limit), and sweeps the one chosen: every legal value
// is measured with the rest of the state fixed, on this machine's CPU in the runner process, with the layout
// rewrite the selected record was measured with. The plot (widgets/sweep_plot.h) shows measured GFLOP/s against the
// value and the prediction of each cost model checked in the list (each first learning from the task's records in
// the workspace, engine::sweepModel).
//
// Threads: the parameters are listed in a JobTracker job (a replay); a sweep is a session::StreamingJob (the models
// learn, then engine::sweep measures on the job's thread) whose progress reaches the bar at most ~10 times a second.
// Cancel stops the measurement in flight (the runner is killed) and keeps the values measured before it; they are
// drawn and, like every point, stored in the workspace as records ("pick": "sweep"), which the Records dock then
// lists (SessionHub::announceRecords). Clicking a point selects its record and state (the code view shows it; the
// parameter stays chosen, so the next sweep can start from the best value). A sweep keeps running when the selection
// changes; the plot's title names the state it swept. GUI thread only.
#pragma once

#include "core/engine/sweep.h"
#include "core/session/job_tracker.h"
#include "core/session/streaming_job.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace ts::graph {
struct Task;
} // namespace ts::graph
namespace ts::sched {
class State;
} // namespace ts::sched
namespace ts::widgets {
class SelectionContext;
class SessionHub;
class SweepPlot;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(ViewContext& context, QWidget* parent = nullptr);
    ~SweepView() override; // aborts a sweep in flight (the runner is killed) and joins its thread

    // The selected state's parameters, as the combo lists them (empty while listing, or without a state).
    const std::vector<engine::SweepableParameter>& parameters() const { return m_parameters; }
    // The cost models checked in the list ("xgb", "analytical"), and checks exactly `kinds`.
    QStringList checkedModels() const;
    void setCheckedModels(const QStringList& kinds);
    // How the points are measured (timing, threads; the target is always this machine's CPU and the layout rewrite
    // the selected record's). Read when a sweep starts.
    void setMeasureOptions(const measure::MeasureOptions& options) { m_measure = options; }

    // Sweeps parameter `index` of the list with the checked models (the Sweep button); false when it cannot start
    // (no state, a sweep running, an index out of range).
    bool startSweep(int index);
    void cancelSweep();
    bool isSweeping() const { return m_job.isRunning(); }

    QComboBox* parameterCombo() const { return m_parameter; }
    QListWidget* modelList() const { return m_models; }
    QPushButton* sweepButton() const { return m_sweep; }
    QPushButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_progress; }
    widgets::SweepPlot* plot() const { return m_plot; }
    QString titleText() const;
    QString statusText() const;
    // Selects the point of `value` of the sweep shown: its state and record (a click on the plot). False when the
    // sweep has no such point or it was not stored.
    bool selectPoint(int64_t value);

Q_SIGNALS:
    // The selected state's parameters were listed (or could not be: titleText() says why).
    void parametersReady();
    // A sweep ended (finished, cancelled or failed: statusText() says which); its points are drawn.
    void sweepFinished();

private:
    // What the parameter job finds for the selected state.
    struct Sweepable {
        std::vector<engine::SweepableParameter> parameters;
        int layoutRewrite = 0; // the selected record's (TVM's default for a state without one)
    };
    // The sweep job's events and its state, published as copies.
    struct Event {
        std::string phase; // non-empty: a phase starts ("learning xgb", "measuring")
        int done = 0;
        int total = 0;
    };
    // What one model learned from before it scores the points.
    struct ModelNote {
        std::string kind;
        int64_t trainedOn = 0;
        bool warmingUp = false; // learned nothing: its scores are random
    };
    struct Progress {
        std::string phase; // "learn xgb", "measure"; empty at the end
        int done = 0;
        int total = 0;
        std::vector<ModelNote> notes;
        std::shared_ptr<const engine::SweepResult> result;
        std::string error;
    };
    using SweepJob = session::StreamingJob<Event, Progress>;
    static session::Publish fold(Progress& progress, const Event& event);

    void onSelectionChanged();
    void listParameters();
    void applyParameters(Expected<Sweepable> sweepable);
    void showProgress(std::shared_ptr<const Progress> progress);
    void onSweepEnded(Expected<void> outcome);
    void updateButtons();

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_sessions;
    QLabel* m_title;
    QComboBox* m_parameter;
    QListWidget* m_models;
    QPushButton* m_sweep;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_plotTitle;
    QLabel* m_status;
    widgets::SweepPlot* m_plot;

    // The state the parameters are of, and what was found for it.
    std::shared_ptr<const graph::Task> m_task;
    std::shared_ptr<const sched::State> m_state;
    std::optional<int64_t> m_recordId;
    std::vector<engine::SweepableParameter> m_parameters;
    std::optional<engine::SweepParameter> m_chosen; // the parameter last chosen in the combo
    int m_layoutRewrite = 0;
    bool m_listing = false;
    measure::MeasureOptions m_measure;
    QString m_sweptWhat; // what the sweep in flight (or the last) swept, for its title
    std::shared_ptr<const graph::Task> m_sweptTask; // its task
    session::JobTracker m_listJob;
    SweepJob m_job;
};

} // namespace ts::app
