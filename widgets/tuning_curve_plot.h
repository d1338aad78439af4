// TuningCurvePlot: tuning curves of sessions, drawn with QCustomPlot.
//
// The upper plot holds each task's best throughput so far (GFLOP/s) as a step line, one colour per task,
// against the session's trials or its wall time, with a marker at every improvement; the lower plot holds the
// network's estimated end-to-end latency (ms, sum of weight * best over the tasks) after each round. The
// shown session is drawn solid; sessions overlaid for comparison are drawn dashed in the same task colours,
// each named by its label in the legend.
//
// A new snapshot of the shown session appends only what is new to each graph (the improvements and rounds
// since the last one, and the line's tail up to the current trial) and queues one replot, so a live session
// redraws cheaply at the hub's rate. A session that switched its cost model has a dashed line, named by the new
// model, at each switch. A person's manual states (issue 41) are black stars at their throughput, legend "manual".
// Hovering a marker shows its record; clicking one emits pointClicked.
// GUI thread only.
#pragma once

#include "widgets/models/session_snapshot.h"
#include "widgets/qcustomplot_shim.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace ts::widgets {

class TuningCurvePlot : public QCustomPlot {
    Q_OBJECT
public:
    enum class XAxis { Trials, WallTime };

    explicit TuningCurvePlot(QWidget* parent = nullptr);
    ~TuningCurvePlot() override;

    void setXAxis(XAxis axis);
    XAxis xAxisKind() const { return m_xAxis; }

    // The session drawn solid (null: none). A newer snapshot of the same session updates its graphs in place.
    void setSession(std::shared_ptr<const models::SessionSnapshot> snapshot);
    // The sessions drawn dashed, replacing the previous ones (those kept are not redrawn).
    void setOverlays(std::vector<std::shared_ptr<const models::SessionSnapshot>> overlays);
    // A dashed line across the latency plot at a measured latency (ms) of the whole network (Run network), with
    // its label; nullopt removes it.
    void setMeasuredLatency(std::optional<double> ms, const QString& label = {});
    std::optional<double> measuredLatency() const { return m_measuredMs; }
    // Rings the record on the curves (or, for a trial of the shown session off its curve, where it was measured).
    void setHighlightedRecord(std::optional<int64_t> recordId);

    // A marker: the session, its task, its curve point.
    struct Point {
        int64_t sessionId = 0;
        int task = 0;
        size_t index = 0; // into the task's curve
        const models::SessionSnapshot* snapshot = nullptr;
    };
    // The marker nearest `pixel` within a few pixels, shown session first.
    std::optional<Point> pointAt(const QPointF& pixel) const;
    // Pixel position of a curve point (for tests: a click on a marker).
    QPointF pixelOf(const Point& point) const;

    // What is drawn: the step line and the markers of a task of the shown session (overlay < 0) or of an
    // overlay; null when there is none.
    QCPGraph* curveGraph(int task, int overlay = -1) const;
    QCPGraph* markerGraph(int task, int overlay = -1) const;
    QCPGraph* latencyGraph(int overlay = -1) const;
    // The shown session's manual trials that succeeded (null until it has one).
    QCPGraph* manualGraph() const;
    int overlayCount() const { return static_cast<int>(m_overlays.size()); }
    QCPAxisRect* latencyRect() const { return m_latencyRect; }

Q_SIGNALS:
    void pointClicked(qint64 sessionId, int task, qint64 recordId);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct SessionGraphs;

    std::unique_ptr<SessionGraphs> makeGraphs(std::shared_ptr<const models::SessionSnapshot> snapshot, bool overlay);
    void removeGraphs(SessionGraphs& graphs);
    void update(SessionGraphs& graphs); // appends what is new since the last update
    double keyOf(const models::CurvePoint& point) const;
    void updateRanges();
    void updateHighlight();
    void updateLegendLabels();
    // A dashed vertical line, named by the new model, at each model switch of the shown session.
    void updateModelSwitches();
    QString toolTipOf(const Point& point) const;

    XAxis m_xAxis = XAxis::Trials;
    QCPAxisRect* m_curveRect;
    QCPAxisRect* m_latencyRect;
    std::unique_ptr<SessionGraphs> m_main;
    std::vector<std::unique_ptr<SessionGraphs>> m_overlays;
    QCPGraph* m_highlight;
    std::optional<int64_t> m_highlightedRecord;
    std::vector<QCPAbstractItem*> m_switchMarks;
    std::optional<double> m_measuredMs;
    QCPItemStraightLine* m_measuredLine = nullptr;
    QCPItemText* m_measuredLabel = nullptr;
    std::pair<size_t, XAxis> m_switchMarksFor { 0, XAxis::Trials }; // what m_switchMarks were drawn for
};

} // namespace ts::widgets
