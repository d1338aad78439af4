#include "widgets/prediction_scatter.h"

#include "widgets/plot_style.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
    constexpr double kPickRadius = 7.0; // pixels
} // namespace

PredictionScatter::PredictionScatter(QWidget* parent)
    : QCustomPlot(parent)
{
    setNoAntialiasingOnDrag(true);
    plotstyle::styleAxisRect(axisRect());
    xAxis->setLabel(tr("Predicted score"));
    yAxis->setLabel(tr("Measured GFLOP/s"));
    legend->setVisible(true);
    plotstyle::styleLegend(legend);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

    m_highlight = addGraph();
    m_highlight->setLineStyle(QCPGraph::lsNone);
    m_highlight->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 15));
    m_highlight->removeFromLegend();
    m_randomLegend = addGraph(); // no data: the legend's key for the random picks' marker
    m_randomLegend->setLineStyle(QCPGraph::lsNone);
    m_randomLegend->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(QColor(0x40, 0x40, 0x40), 1.5), Qt::NoBrush, 8));
    m_randomLegend->setName(tr("random pick (eps-greedy)"));
    legend->setVisible(false); // until there are points
}

void PredictionScatter::setRounds(
    const models::SessionSnapshot& snapshot, const std::vector<models::PredictionRound>& rounds)
{
    std::vector<Point> points;
    for (const models::PredictionRound& r : rounds)
        for (const models::TrialPoint* t : r.points)
            points.push_back(
                Point { *t->predicted, t->gflops, t->recordId, t->round, t->task, t->trial, t->random, t->manual });
    const bool same = points.size() == m_points.size()
        && std::equal(points.begin(), points.end(), m_points.begin(),
            [](const Point& a, const Point& b) { return a.recordId == b.recordId && a.round == b.round; });
    if (same)
        return;
    m_points = std::move(points);

    // One graph per round and kind of pick; the first graphs are the highlight and the legend key.
    while (graphCount() > 2)
        removeGraph(graphCount() - 1);
    double xMin = 0.0, xMax = 1.0, yMax = 1.0;
    bool first = true;
    const int firstRound = rounds.empty() ? 0 : rounds.front().round;
    const int lastRound = rounds.empty() ? 0 : rounds.back().round;
    QCPGraph* manual = nullptr; // every round's manual states: one marker, one legend entry
    for (const models::PredictionRound& r : rounds) {
        const double t = lastRound > firstRound ? double(r.round - firstRound) / (lastRound - firstRound) : 1.0;
        const QColor colour = plotstyle::rampColour(t);
        QCPGraph* picks = addGraph();
        picks->setLineStyle(QCPGraph::lsNone);
        picks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, 6));
        const QString task = r.task < static_cast<int>(snapshot.tasks.size())
            ? QString::fromStdString(snapshot.tasks[static_cast<size_t>(r.task)].status.name)
            : QString();
        picks->setName(tr("round %1 (%2)").arg(r.round).arg(task));
        QCPGraph* random = addGraph();
        random->setLineStyle(QCPGraph::lsNone);
        random->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(colour, 1.5), Qt::NoBrush, 8));
        random->removeFromLegend();
        for (const models::TrialPoint* p : r.points) {
            if (p->manual && !manual) {
                manual = addGraph();
                manual->setLineStyle(QCPGraph::lsNone);
                manual->setScatterStyle(
                    QCPScatterStyle(QCPScatterStyle::ssStar, QPen(Qt::black, 1.5), Qt::NoBrush, 11));
                manual->setName(tr("manual"));
            }
            (p->manual ? manual : p->random ? random : picks)->addData(*p->predicted, p->gflops);
            if (first) {
                xMin = xMax = *p->predicted;
                first = false;
            }
            xMin = std::min(xMin, *p->predicted);
            xMax = std::max(xMax, *p->predicted);
            yMax = std::max(yMax, p->gflops);
        }
    }
    legend->setVisible(!m_points.empty());
    const double pad = xMax > xMin ? (xMax - xMin) * 0.05 : 0.5;
    xAxis->setRange(xMin - pad, xMax + pad);
    yAxis->setRange(0.0, yMax * 1.1);
    updateHighlight();
    replot(rpQueuedReplot);
}

void PredictionScatter::setHighlightedRecord(std::optional<int64_t> recordId)
{
    m_highlightedRecord = recordId;
    updateHighlight();
    replot(rpQueuedReplot);
}

void PredictionScatter::updateHighlight()
{
    m_highlight->data()->clear();
    if (!m_highlightedRecord)
        return;
    for (const Point& p : m_points)
        if (p.recordId == *m_highlightedRecord)
            m_highlight->addData(p.predicted, p.gflops);
}

QPointF PredictionScatter::pixelOf(const Point& point) const
{
    return { xAxis->coordToPixel(point.predicted), yAxis->coordToPixel(point.gflops) };
}

std::optional<PredictionScatter::Point> PredictionScatter::pointAt(const QPointF& pixel) const
{
    if (!axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    std::optional<Point> best;
    double bestDistance = kPickRadius;
    for (const Point& p : m_points) {
        const QPointF at = pixelOf(p);
        const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
        if (distance <= bestDistance) { // the newest point wins a tie: it is drawn on top
            bestDistance = distance;
            best = p;
        }
    }
    return best;
}

void PredictionScatter::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (auto p = pointAt(event->position())) {
        QString text = tr("Record %1, trial %2, round %3").arg(p->recordId).arg(p->trial).arg(p->round);
        text += QLatin1Char('\n')
            + tr("Predicted %1, measured %2 GFLOP/s").arg(p->predicted, 0, 'g', 4).arg(p->gflops, 0, 'f', 2);
        if (p->random)
            text += QLatin1Char('\n') + tr("A random pick (eps-greedy)");
        if (p->manual)
            text += QLatin1Char('\n') + tr("A manual state (measured by hand)");
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    } else {
        QToolTip::hideText();
    }
}

void PredictionScatter::mousePressEvent(QMouseEvent* event)
{
    QCustomPlot::mousePressEvent(event);
    if (event->button() == Qt::LeftButton)
        if (auto p = pointAt(event->position()))
            Q_EMIT pointClicked(p->recordId, p->task);
}

} // namespace ts::widgets
