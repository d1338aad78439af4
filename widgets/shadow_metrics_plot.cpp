#include "widgets/shadow_metrics_plot.h"

#include "widgets/plot_style.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
    constexpr double kPickRadius = 7.0; // pixels
    const QColor kSessionColour(0x22, 0x22, 0x22);

    // The rounds engine::summarize averages: metrics computed, on two samples or more.
    bool drawn(const engine::ShadowMetrics& line) { return line.error.empty() && line.samples >= 2; }

    double valueOf(const engine::ShadowMetrics& line, ShadowMetricsPlot::Metric metric)
    {
        return metric == ShadowMetricsPlot::Metric::Spearman ? line.spearman : line.pairwiseAccuracy;
    }
} // namespace

ShadowMetricsPlot::ShadowMetricsPlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_chance(new QCPItemStraightLine(this))
{
    setNoAntialiasingOnDrag(true);
    plotstyle::styleAxisRect(axisRect());
    xAxis->setLabel(tr("Round"));
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples); // every round up to about ten, then every 2nd, 5th
    ticker->setTickCount(10);
    xAxis->setTicker(ticker);
    xAxis->setRange(0.5, 1.5);

    // The legend under the plot, one row of models, so that it never covers a line.
    axisRect()->insetLayout()->take(legend);
    auto* legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(6, 0, 6, 4));
    legendRow->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(1, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(4);
    plotstyle::styleLegend(legend);
    legend->setVisible(false); // until there are models

    addLayer(QStringLiteral("session"), layer(QStringLiteral("main")), limAbove); // the session's model on top
    m_chance->setPen(QPen(QColor(0x90, 0x90, 0x90), 1, Qt::DashLine));
    m_chance->setSelectable(false);
    setMinimumWidth(220);
    redraw();
}

void ShadowMetricsPlot::setLines(std::vector<engine::ShadowMetrics> lines)
{
    if (lines == m_lines)
        return;
    m_lines = std::move(lines);
    redraw();
}

void ShadowMetricsPlot::setMetric(Metric metric)
{
    if (metric == m_metric)
        return;
    m_metric = metric;
    redraw();
}

void ShadowMetricsPlot::redraw()
{
    clearGraphs();
    m_series.clear();
    int maxRound = 1;
    int shadows = 0;
    int sessionKinds = 0;
    for (size_t i = 0; i < m_lines.size(); ++i) {
        const engine::ShadowMetrics& line = m_lines[i];
        maxRound = std::max(maxRound, line.round);
        auto it = std::find_if(m_series.begin(), m_series.end(),
            [&](const Series& s) { return s.kind == line.kind && s.session == line.session; });
        if (it == m_series.end()) {
            Series s { line.kind, line.session, false, addGraph(), {} };
            s.graph->setLineStyle(QCPGraph::lsLine);
            const QString kind = QString::fromStdString(line.kind);
            if (line.session) { // on top of the shadows; a session that switched its model: the later kinds dashed
                s.graph->setLayer(QStringLiteral("session"));
                s.graph->setPen(QPen(kSessionColour, 2.6, sessionKinds++ == 0 ? Qt::SolidLine : Qt::DashLine));
                s.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kSessionColour, 7));
                s.graph->setName(tr("%1 (session)").arg(kind));
            } else {
                const QColor colour = plotstyle::seriesColour(shadows++);
                s.graph->setPen(QPen(colour, 1.8));
                s.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour, 1.6), Qt::white, 7));
                s.graph->setName(kind);
            }
            it = m_series.insert(m_series.end(), std::move(s));
        }
        if (!line.error.empty() && !it->failed) {
            it->failed = true;
            it->graph->setName(tr("%1 (failed)").arg(it->graph->name()));
        }
        if (drawn(line)) {
            it->graph->addData(line.round, valueOf(line, m_metric));
            it->points.push_back(i);
        }
    }
    const bool spearman = m_metric == Metric::Spearman;
    yAxis->setLabel(spearman ? tr("Spearman's rho") : tr("Pairwise accuracy"));
    yAxis->setRange(spearman ? -1.05 : -0.02, spearman ? 1.05 : 1.02);
    const double chance = spearman ? 0.0 : 0.5;
    m_chance->point1->setCoords(0.0, chance);
    m_chance->point2->setCoords(1.0, chance);
    xAxis->setRange(0.5, maxRound + 0.5);
    legend->setVisible(!m_series.empty());
    replot(rpQueuedReplot);
}

std::optional<engine::ShadowMetrics> ShadowMetricsPlot::lineAt(const QPointF& pixel) const
{
    if (!axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    std::optional<engine::ShadowMetrics> best;
    double bestDistance = kPickRadius;
    for (const Series& s : m_series) // the session's model is first: it wins a tie
        for (size_t index : s.points) {
            const engine::ShadowMetrics& line = m_lines[index];
            const double x = xAxis->coordToPixel(line.round);
            const double y = yAxis->coordToPixel(valueOf(line, m_metric));
            const double distance = std::hypot(x - pixel.x(), y - pixel.y());
            if (distance < bestDistance) {
                bestDistance = distance;
                best = line;
            }
        }
    return best;
}

void ShadowMetricsPlot::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (auto line = lineAt(event->position())) {
        const QString kind = QString::fromStdString(line->kind);
        QString text = (line->session ? tr("%1 (the session's model)").arg(kind) : tr("%1 (shadow)").arg(kind))
            + QLatin1String(", ") + tr("round %1, task %2").arg(line->round).arg(line->task);
        text += QLatin1Char('\n')
            + tr("Pairwise accuracy %1, Spearman %2 over %3 candidates")
                  .arg(line->pairwiseAccuracy, 0, 'f', 3)
                  .arg(line->spearman, 0, 'f', 3)
                  .arg(line->samples);
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    } else {
        QToolTip::hideText();
    }
}

} // namespace ts::widgets
