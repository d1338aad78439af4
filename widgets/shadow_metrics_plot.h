// ShadowMetricsPlot: how well each cost model of a session ranked each round's candidates (shadow models,
// core/engine/shadow_models.h). One line per model over the session's rounds, in the order the models first
// appear in the lines (the session's model first): pairwise accuracy (0.5 is chance) or Spearman's rho (0 is no
// relation), against the round. The session's own model is drawn thick and dark with filled discs, each shadow in
// a series colour with hollow circles; a dotted line marks chance; the legend, under the plot, names each model.
//
// A model's points are its rounds with metrics and at least two samples, the rounds engine::summarize averages: a
// failed model's line stops at its failure (its legend entry says it failed). Hovering a point names its model,
// round, task and both metrics. GUI thread.
#pragma once

#include "core/engine/shadow_models.h"
#include "widgets/qcustomplot_shim.h"

#include <optional>
#include <string>
#include <vector>

namespace ts::widgets {

class ShadowMetricsPlot : public QCustomPlot {
    Q_OBJECT
public:
    enum class Metric { PairwiseAccuracy, Spearman };

    explicit ShadowMetricsPlot(QWidget* parent = nullptr);

    // Draws the lines (engine::RoundDone::shadows of every round, in order). Redraws only when they differ from
    // what is drawn.
    void setLines(std::vector<engine::ShadowMetrics> lines);
    const std::vector<engine::ShadowMetrics>& lines() const { return m_lines; }
    void setMetric(Metric metric);
    Metric metric() const { return m_metric; }

    // One per model, in the order drawn; its graph holds (round, metric) per point.
    struct Series {
        std::string kind;
        bool session = false;
        bool failed = false; // its legend entry says so; its graph stops at the failure
        QCPGraph* graph = nullptr;
        std::vector<size_t> points; // the index in lines() of each point of the graph
    };
    const std::vector<Series>& series() const { return m_series; }
    // The line of the point nearest `pixel` within a few pixels.
    std::optional<engine::ShadowMetrics> lineAt(const QPointF& pixel) const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void redraw();

    std::vector<engine::ShadowMetrics> m_lines;
    std::vector<Series> m_series;
    Metric m_metric = Metric::PairwiseAccuracy;
    QCPItemStraightLine* m_chance;
};

} // namespace ts::widgets
