// CurvesView: the tuning-curves dock. The shown session's best GFLOP/s per task against trials (or wall
// time), and the network's estimated latency below (widgets/tuning_curve_plot.h), redrawn as the hub
// publishes snapshots (at most 10 Hz, only what is new). "Compare with" overlays other sessions of the
// workspace, dashed, to compare search policies or cost models on the same tasks; they load in the hub's
// jobs (snapshotReady). A click on a marker selects its record, with its replayed state, in the selection;
// the selected record is ringed on the curves. The network's measured latency, once Session > Run network ran it, is
// a dashed line across the latency plot.
#pragma once

#include <QList>
#include <QWidget>

#include <cstdint>
#include <optional>

class QAction;
class QMenu;

namespace ts::widgets {
class RecordSelector;
class SelectionContext;
class SessionHub;
class TuningCurvePlot;
} // namespace ts::widgets

namespace ts::app {

struct ViewContext;

class CurvesView : public QWidget {
    Q_OBJECT
public:
    explicit CurvesView(ViewContext& context, QWidget* parent = nullptr);

    widgets::TuningCurvePlot* plot() const { return m_plot; }
    QAction* wallTimeAction() const { return m_wallTime; }
    QAction* compareAction() const { return m_compare; }
    // Overlays session `sessionId` (or stops overlaying it): what the "Compare with" menu's entries do.
    void compareWith(int64_t sessionId, bool on);
    QList<int64_t> comparedSessions() const { return m_compared; }
    // What a click on a marker does: selects the record of `task` of session `sessionId` (the shown one or an
    // overlaid one) in the selection, once its state is loaded. False if that session is not drawn.
    bool activatePoint(int64_t sessionId, int task, int64_t recordId);
    widgets::RecordSelector* recordSelector() const { return m_selector; }

private:
    void onCurrentChanged();
    // The shown session's network as last run whole (Session > Run network), across the latency plot.
    void updateMeasuredLatency();
    void updateOverlays();
    void fillCompareMenu();

    widgets::SelectionContext& m_selection;
    widgets::SessionHub& m_hub;
    widgets::TuningCurvePlot* m_plot;
    widgets::RecordSelector* m_selector;
    QAction* m_wallTime;
    QAction* m_compare;
    QMenu* m_compareMenu;
    QList<int64_t> m_compared;
};

} // namespace ts::app
