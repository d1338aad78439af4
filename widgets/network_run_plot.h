// NetworkRunPlot: where a network's time goes, from one run of the whole network (runtime::NetworkRun). One row
// per task, largest measured time first, plus a row for the steps that are no task's: a bar of the measured time of
// all the task's occurrences, its time hot (each step timed again right after it ran, as its record was) and
// Ansor's estimate (weight x its record's time), so a task the estimate misses stands out, and whether the cache
// state the network leaves (hot -> measured) or the network itself (estimate -> hot) is why; each row's label
// gives its share of the run. Horizontal bars, QCustomPlot; GUI thread.
#pragma once

#include "core/runtime/network_run.h"
#include "widgets/qcustomplot_shim.h"

#include <optional>
#include <vector>

namespace ts::widgets {

class NetworkRunPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit NetworkRunPlot(QWidget* parent = nullptr);

    // Draws the run's tasks (none: an empty plot).
    void setRun(std::optional<runtime::NetworkRun> run);
    const std::optional<runtime::NetworkRun>& run() const { return m_run; }

    // What is drawn, for tests: the row labels top to bottom and the bar values (ms) per row.
    QStringList rowLabels() const;
    QCPBars* measuredBars() const { return m_measured; }
    QCPBars* estimateBars() const { return m_estimate; }
    QCPBars* hotBars() const { return m_hot; }

private:
    std::optional<runtime::NetworkRun> m_run;
    QCPBars* m_measured;
    QCPBars* m_hot;
    QCPBars* m_estimate;
    QVector<QString> m_labels; // bottom to top, as the ticker has them
};

} // namespace ts::widgets
