#include "widgets/sweep_plot.h"

#include "core/record/measure_status.h"
#include "widgets/plot_style.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts::widgets {

namespace {
    constexpr double kPickRadius = 8.0; // pixels

    bool isSplit(const engine::SweepResult& result)
    {
        return result.parameter.parameter.kind == engine::SweepParameter::Kind::SplitLength;
    }

    // Four significant digits: the models' scores differ in scale.
    QString scoreText(double score)
    {
        return std::isfinite(score) ? QString::number(score, 'g', 4) : SweepPlot::tr("cannot score it");
    }
} // namespace

SweepPlot::SweepPlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_measured(addGraph(xAxis, yAxis))
    , m_failed(addGraph(xAxis, yAxis))
    , m_current(addGraph(xAxis, yAxis))
    , m_currentLine(new QCPItemStraightLine(this))
{
    setNoAntialiasingOnDrag(true);
    plotstyle::styleAxisRect(axisRect());
    plotstyle::styleLegend(legend);
    // The legend in a row under the plot: the points may be anywhere in it.
    auto* legendRow = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(5, 0, 5, 5));
    legendRow->addElement(0, 0, legend);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    plotLayout()->setRowStretchFactor(1, 0.001);
    yAxis->setLabel(tr("Measured GFLOP/s"));
    yAxis2->setLabel(tr("Prediction, 0–1 per model (not GFLOP/s)"));
    yAxis2->setVisible(true);
    yAxis2->setRange(-0.05, 1.1);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());

    m_measured->setName(tr("measured GFLOP/s"));
    m_measured->setPen(QPen(plotstyle::seriesColour(0), 2.0));
    m_measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, plotstyle::seriesColour(0), 7));
    m_failed->setName(tr("failed (hover for why)"));
    m_failed->setLineStyle(QCPGraph::lsNone);
    m_failed->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0xb0, 0x00, 0x20), 2.5), Qt::NoBrush, 11));
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x20, 0x20, 0x20), 1.8), Qt::NoBrush, 17));
    m_currentLine->setPen(QPen(QColor(0x70, 0x70, 0x70), 1.0, Qt::DashLine));
    m_currentLine->setVisible(false);
    setMouseTracking(true);
    setResult(nullptr);
}

double SweepPlot::keyOf(int64_t value) const
{
    if (!m_result || isSplit(*m_result))
        return std::log2(static_cast<double>(std::max<int64_t>(value, 1)));
    const std::vector<int64_t>& values = m_result->parameter.candidates;
    return static_cast<double>(std::lower_bound(values.begin(), values.end(), value) - values.begin());
}

void SweepPlot::setResult(std::shared_ptr<const engine::SweepResult> result)
{
    m_result = std::move(result);
    for (QCPGraph* graph : m_predictions)
        removeGraph(graph);
    m_predictions.clear();
    for (QCPGraph* graph : { m_measured, m_failed, m_current })
        graph->data()->clear();
    m_currentLine->setVisible(false);
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    ticker->clear();
    if (!m_result) {
        xAxis->setLabel(tr("Value of the parameter"));
        xAxis->setRange(0, 1);
        yAxis->setRange(0, 1);
        legend->setVisible(false);
        replot();
        return;
    }
    const engine::SweepResult& r = *m_result;
    const bool split = isSplit(r);
    xAxis->setLabel(split ? tr("Split length (log2 scale)") : tr("Unroll limit (auto_unroll_max_step)"));
    double xMin = std::numeric_limits<double>::max();
    double xMax = std::numeric_limits<double>::lowest();
    for (int64_t value : r.parameter.candidates) {
        const double key = keyOf(value);
        ticker->addTick(key, QString::number(value));
        xMin = std::min(xMin, key);
        xMax = std::max(xMax, key);
    }
    double most = 0.0;
    for (const engine::SweepPoint& p : r.points) {
        const double key = keyOf(p.value);
        xMin = std::min(xMin, key);
        xMax = std::max(xMax, key);
        if (p.result.ok()) {
            m_measured->addData(key, p.gflops);
            most = std::max(most, p.gflops);
        } else {
            m_failed->addData(key, 0.0);
        }
    }
    if (xMin > xMax)
        xMin = xMax = 0.0;
    const double pad = std::max(0.35, (xMax - xMin) * 0.06);
    xAxis->setRange(xMin - pad, xMax + pad);
    yAxis->setRange(0.0, most > 0.0 ? most * 1.15 : 1.0);

    const auto current
        = std::find_if(r.points.begin(), r.points.end(), [](const engine::SweepPoint& p) { return p.current; });
    m_current->setName(tr("the state's value (%1)").arg(r.parameter.current));
    m_currentLine->point1->setCoords(keyOf(r.parameter.current), 0.0);
    m_currentLine->point2->setCoords(keyOf(r.parameter.current), 1.0);
    m_currentLine->setVisible(true);
    if (current != r.points.end())
        m_current->addData(keyOf(current->value), current->result.ok() ? current->gflops : 0.0);

    // Each model's scores, scaled to its own range in the sweep.
    for (size_t m = 0; m < r.models.size(); ++m) {
        double lo = std::numeric_limits<double>::max();
        double hi = std::numeric_limits<double>::lowest();
        for (const engine::SweepPoint& p : r.points)
            if (m < p.predictions.size() && std::isfinite(p.predictions[m])) {
                lo = std::min(lo, p.predictions[m]);
                hi = std::max(hi, p.predictions[m]);
            }
        QCPGraph* graph = addGraph(xAxis, yAxis2);
        const QColor colour = plotstyle::seriesColour(static_cast<int>(m) + 1);
        graph->setPen(QPen(colour, 1.6, Qt::DashLine));
        graph->setScatterStyle(QCPScatterStyle(
            m % 2 == 0 ? QCPScatterStyle::ssSquare : QCPScatterStyle::ssTriangle, QPen(colour, 1.4), Qt::white, 7));
        graph->setName(tr("%1 (predicted)").arg(QString::fromStdString(r.models[m])));
        for (const engine::SweepPoint& p : r.points) {
            if (m >= p.predictions.size() || !std::isfinite(p.predictions[m]))
                continue;
            graph->addData(keyOf(p.value), hi > lo ? (p.predictions[m] - lo) / (hi - lo) : 1.0);
        }
        m_predictions.append(graph);
    }
    for (QCPGraph* graph : { m_failed, m_current }) {
        if (graph->dataCount() == 0)
            graph->removeFromLegend();
        else if (!legend->hasItemWithPlottable(graph))
            graph->addToLegend();
    }
    if (!legend->hasItemWithPlottable(m_measured))
        m_measured->addToLegend();
    legend->setVisible(true);
    replot();
}

QString SweepPlot::pointText(int64_t value) const
{
    if (!m_result)
        return {};
    const engine::SweepResult& r = *m_result;
    const auto p = std::find_if(
        r.points.begin(), r.points.end(), [value](const engine::SweepPoint& point) { return point.value == value; });
    if (p == r.points.end())
        return {};
    QString text = p->current ? tr("%1 (the state's value): ").arg(p->value) : tr("%1: ").arg(p->value);
    if (p->result.ok())
        text += tr("%1 GFLOP/s, %2 ms").arg(p->gflops, 0, 'f', 1).arg(p->result.meanCost() * 1e3, 0, 'f', 4);
    else
        text += tr("failed (%1): %2")
                    .arg(QString::fromLatin1(record::toString(p->result.status)),
                        QString::fromStdString(p->result.message));
    if (p->recordId > 0)
        text += tr(", record %1").arg(p->recordId);
    for (size_t m = 0; m < r.models.size() && m < p->predictions.size(); ++m)
        text += QLatin1Char('\n')
            + tr("%1 predicts %2").arg(QString::fromStdString(r.models[m]), scoreText(p->predictions[m]));
    return text;
}

const engine::SweepPoint* SweepPlot::pointAt(const QPointF& pixel) const
{
    if (!m_result)
        return nullptr;
    const engine::SweepPoint* nearest = nullptr;
    double best = kPickRadius;
    for (const engine::SweepPoint& p : m_result->points) {
        const double x = xAxis->coordToPixel(keyOf(p.value));
        // The measured point, or the cross on the axis; a prediction's marker at the same value names it too.
        std::vector<double> ys { yAxis->coordToPixel(p.result.ok() ? p.gflops : 0.0) };
        for (const QCPGraph* graph : m_predictions) {
            const auto it = graph->data()->findBegin(keyOf(p.value), false);
            if (it != graph->data()->constEnd() && it->key == keyOf(p.value))
                ys.push_back(yAxis2->coordToPixel(it->value));
        }
        for (double y : ys) {
            const double d = std::hypot(x - pixel.x(), y - pixel.y());
            if (d < best) {
                best = d;
                nearest = &p;
            }
        }
    }
    return nearest;
}

void SweepPlot::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const engine::SweepPoint* point = pointAt(event->position());
    if (!point) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), pointText(point->value), this);
}

void SweepPlot::mousePressEvent(QMouseEvent* event)
{
    QCustomPlot::mousePressEvent(event);
    if (event->button() == Qt::LeftButton)
        if (const engine::SweepPoint* point = pointAt(event->position()))
            Q_EMIT pointClicked(point->value);
}

} // namespace ts::widgets
