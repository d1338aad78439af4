// RooflineView: how good the selected task's kernels are against this machine's limits. A roofline plot
// (widgets/roofline_plot.h) of the task's measured records on this machine, the best of the network's other
// tasks beside them, and the roofs of the workspace's machine profile (session/machine.h). Without a
// profile, "Measure machine" measures it (about 10 s on 2 cores) in a job with progress and Cancel, and keeps
// it in the workspace. Follows the selected network and task, and the live session's results (at most once
// a second); the store is read in jobs.
#pragma once

#include "core/measure/machine_profile.h"
#include "core/session/job_tracker.h"

#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace ts::widgets {
class RooflinePlot;
class SelectionContext;
class SessionHub;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

class RooflineView : public QWidget {
    Q_OBJECT
public:
    explicit RooflineView(ViewContext& context, QWidget* parent = nullptr);

    widgets::RooflinePlot* plot() const { return m_plot; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* profileLabel() const { return m_profileLabel; }
    QPushButton* measureButton() const { return m_measure; }
    // Reads the workspace again (what the signals trigger, throttled).
    void refresh();
    // Measures the machine in a job (what the button does); `maxThreads` 0: all cores.
    void measureMachine(int maxThreads = 0);
    bool isMeasuring() const { return m_measureJob.isRunning(); }

Q_SIGNALS:
    // A refresh was drawn (tests wait for it).
    void refreshed();
    // A measurement ended: `error` empty on success.
    void machineMeasured(const QString& error);

private:
    void scheduleRefresh();

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_hub;
    QLabel* m_profileLabel;
    QPushButton* m_measure;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    widgets::RooflinePlot* m_plot;
    QLabel* m_summary;
    QTimer* m_throttle;
    session::JobTracker m_loadJob;
    session::JobTracker m_measureJob;
};

} // namespace ts::app
