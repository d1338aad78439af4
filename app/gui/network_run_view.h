// NetworkRunView: the shown session's network run whole (Session > Run network). "Run network" runs
// `tunescope-cli run` on the workspace's best records of that network in a child process (a job with progress and
// Cancel; a kernel that crashes costs the run, never the window), which builds every kernel, checks each against
// the reference evaluator and times whole runs. The view then shows the measured latency (median, p90) beside
// Ansor's estimate, LibTorch's when asked, and a per-task bar chart of measured time against the estimate with
// each task's share (widgets/network_run_plot.h); the tuning curves draw the measured latency across their
// latency plot (the run is handed to the SessionHub). Run it between sessions: while one measures, the two would
// share the cores, so the action waits for the live session to end or pause.
#pragma once

#include "core/session/job_tracker.h"

#include <QWidget>

class QAction;
class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace ts::widgets {
class NetworkRunPlot;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

class NetworkRunView : public QWidget {
    Q_OBJECT
public:
    explicit NetworkRunView(ViewContext& context, QWidget* parent = nullptr);

    QAction* runAction() const { return m_runAction; }
    widgets::NetworkRunPlot* plot() const { return m_plot; }
    QLabel* summaryLabel() const { return m_summary; }
    QCheckBox* compareBox() const { return m_compare; }
    // Runs the shown session's network (what the action does); `repeat` timed runs.
    void runNetwork(int repeat = 20);
    void cancel();
    bool isRunning() const { return m_job.isRunning(); }

Q_SIGNALS:
    // A run ended: `error` empty on success.
    void finished(const QString& error);

private:
    void updateActions();
    void showRun();

    widgets::SessionHub& m_hub;
    QAction* m_runAction;
    QCheckBox* m_compare;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_summary;
    widgets::NetworkRunPlot* m_plot;
    session::JobTracker m_job;
};

} // namespace ts::app
