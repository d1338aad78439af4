// SweepPlot: one parameter of a schedule swept (core/engine/sweep.h): measured GFLOP/s against the parameter's value,
// with each cost model's prediction beside it.
//
// - x: a split length on a log2 scale (1, 2, 4, ... evenly apart; a value between powers of two where it falls), the
//   unroll limit's few values (0, 16, 64, 512) evenly apart; every candidate value is a tick, measured or not.
// - left y: measured GFLOP/s, one disc per value that ran; a value that failed (did not build, crashed, timed out,
//   computed the wrong result) is a red cross on the axis, its reason in the tooltip. The state's own value is
//   ringed and has a dashed vertical line.
// - right y: each model's scores, one series per model. Scores are not GFLOP/s and each model has its own scale (the
//   analytical model's is 1 / its estimated seconds), so each series is scaled to its own range in the sweep: 0 is
//   the model's lowest score, 1 its highest (its top pick); the tooltip gives the raw scores.
// The legend is a row under the plot. Hovering a point names its value, time, GFLOP/s, record and every model's
// score; clicking one emits pointClicked. GUI thread.
#pragma once

#include "core/engine/sweep.h"
#include "widgets/qcustomplot_shim.h"

#include <QList>

#include <memory>
#include <optional>

namespace ts::widgets {

class SweepPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit SweepPlot(QWidget* parent = nullptr);

    // Draws a sweep's points (null: an empty plot).
    void setResult(std::shared_ptr<const engine::SweepResult> result);
    const std::shared_ptr<const engine::SweepResult>& result() const { return m_result; }

    // What is drawn, for tests: the values that ran (discs), those that failed (crosses), the current value's
    // ring, and one series per model (on the right axis), in the result's model order.
    QCPGraph* measuredGraph() const { return m_measured; }
    QCPGraph* failedGraph() const { return m_failed; }
    QCPGraph* currentGraph() const { return m_current; }
    const QList<QCPGraph*>& predictionGraphs() const { return m_predictions; }
    // Where a value is on the x axis (log2 of a split length; the index among the candidates for the unroll limit).
    double keyOf(int64_t value) const;
    // The tooltip of the point of `value` (empty when it was not measured).
    QString pointText(int64_t value) const;

Q_SIGNALS:
    // A point (the measured one, its cross or a prediction of it) was clicked.
    void pointClicked(qint64 value);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    const engine::SweepPoint* pointAt(const QPointF& pixel) const;

    std::shared_ptr<const engine::SweepResult> m_result;
    QCPGraph* m_measured;
    QCPGraph* m_failed;
    QCPGraph* m_current;
    QList<QCPGraph*> m_predictions;
    QCPItemStraightLine* m_currentLine;
};

} // namespace ts::widgets
