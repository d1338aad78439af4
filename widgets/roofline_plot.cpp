#include "widgets/roofline_plot.h"

#include "widgets/plot_style.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
    constexpr double kPickRadius = 7.0; // pixels
} // namespace

RooflinePlot::RooflinePlot(QWidget* parent)
    : QCustomPlot(parent)
{
    setNoAntialiasingOnDrag(true);
    plotstyle::styleAxisRect(axisRect());
    xAxis->setLabel(tr("Arithmetic intensity (FLOP per byte of compulsory traffic)"));
    yAxis->setLabel(tr("GFLOP/s"));
    for (QCPAxis* axis : { xAxis, yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    }
    legend->setVisible(true);
    plotstyle::styleLegend(legend);
    legend->setBrush(QColor(255, 255, 255, 200)); // the roof stays visible under it
    QFont small = legend->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    legend->setFont(small);
    // Below the peak, right of the slopes: empty unless a kernel of high intensity runs far under its roof.
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    setMouseTracking(true);
}

void RooflinePlot::setData(std::optional<measure::MachineProfile> profile, std::vector<Point> points)
{
    m_profile = std::move(profile);
    m_points = std::move(points);
    clearGraphs();
    clearItems();
    m_roofs = 0;
    m_cacheRoofs = 0;

    double xMin = 0.1, xMax = 100.0, yMin = 1.0, yMax = 100.0;
    bool any = false;
    for (const Point& p : m_points) {
        if (p.intensity <= 0 || p.gflops <= 0)
            continue;
        if (!any) {
            xMin = xMax = p.intensity;
            yMin = yMax = p.gflops;
            any = true;
        }
        xMin = std::min(xMin, p.intensity);
        xMax = std::max(xMax, p.intensity);
        yMin = std::min(yMin, p.gflops);
        yMax = std::max(yMax, p.gflops);
    }
    if (m_profile) {
        for (size_t t = 1; t <= m_profile->peakGflops.size(); ++t) {
            const int n = static_cast<int>(t);
            const double ridge = m_profile->peak(n) / std::max(1e-9, m_profile->bandwidth(n));
            xMin = std::min(xMin, ridge / 8);
            xMax = std::max(xMax, ridge * 8);
            yMax = std::max(yMax, m_profile->peak(n));
        }
        for (measure::MemoryLevel level : { measure::MemoryLevel::L2, measure::MemoryLevel::L3 }) {
            const int threads = static_cast<int>(m_profile->peakGflops.size());
            xMin = std::min(xMin, m_profile->peak(threads) / std::max(1e-9, m_profile->bandwidth(level, threads)) / 4);
        }
    }
    xMin /= 2;
    xMax *= 2;
    yMin /= 2;
    yMax *= 1.6;

    if (m_profile) {
        const int threads = static_cast<int>(m_profile->peakGflops.size());
        for (int n = 1; n <= threads; ++n) {
            QCPGraph* roof = addGraph();
            const double ridge = m_profile->peak(n) / std::max(1e-9, m_profile->bandwidth(n));
            QVector<double> x { xMin, ridge, xMax };
            QVector<double> y { m_profile->bandwidth(n) * xMin, m_profile->peak(n), m_profile->peak(n) };
            roof->setData(x, y, true);
            QColor colour = n == threads ? QColor(0x20, 0x20, 0x20) : QColor(0x90, 0x90, 0x90);
            roof->setPen(QPen(colour, n == threads ? 2.0 : 1.2, n == threads ? Qt::SolidLine : Qt::DashLine));
            roof->setName(tr("%n thread(s): %1 GFLOP/s, %2 GB/s", nullptr, n)
                              .arg(m_profile->peak(n), 0, 'f', 1)
                              .arg(m_profile->bandwidth(n), 0, 'f', 1));
            ++m_roofs;
        }
        // The cache levels' slopes, on the most threads: a kernel whose data stays in a level climbs its slope.
        for (measure::MemoryLevel level : { measure::MemoryLevel::L2, measure::MemoryLevel::L3 }) {
            if (!m_profile->measures(level))
                continue;
            const double bandwidth = m_profile->bandwidth(level, threads);
            const double ridge = m_profile->peak(threads) / std::max(1e-9, bandwidth);
            QCPGraph* roof = addGraph();
            roof->setData(
                QVector<double> { xMin, ridge }, QVector<double> { bandwidth * xMin, bandwidth * ridge }, true);
            roof->setPen(QPen(plotstyle::seriesColour(level == measure::MemoryLevel::L2 ? 2 : 4), 1.4, Qt::DotLine));
            roof->setName(
                tr("%1: %2 GB/s").arg(QString::fromLatin1(measure::toString(level))).arg(bandwidth, 0, 'f', 1));
            ++m_cacheRoofs;
        }
    }
    QCPGraph* others = addGraph();
    others->setLineStyle(QCPGraph::lsNone);
    others->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0x80, 0x80, 0x80), 8));
    others->setName(tr("other tasks' best"));
    QCPGraph* records = addGraph();
    records->setLineStyle(QCPGraph::lsNone);
    records->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, plotstyle::seriesColour(0), 6));
    records->setName(tr("this task's records"));
    QCPGraph* best = addGraph();
    best->setLineStyle(QCPGraph::lsNone);
    best->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(plotstyle::seriesColour(3), 2.5), Qt::NoBrush, 14));
    best->setName(tr("its best"));
    for (const Point& p : m_points) {
        if (p.intensity <= 0 || p.gflops <= 0)
            continue;
        if (!p.selectedTask)
            others->addData(p.intensity, p.gflops);
        else
            (p.best ? best : records)->addData(p.intensity, p.gflops);
    }
    for (QCPGraph* g : { others, records, best })
        if (g->dataCount() == 0)
            g->removeFromLegend();
    xAxis->setRange(xMin, xMax);
    yAxis->setRange(yMin, yMax);
    replot();
}

void RooflinePlot::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QPointF at = event->position();
    const Point* nearest = nullptr;
    double bestDistance = kPickRadius;
    for (const Point& p : m_points) {
        const QPointF pixel(xAxis->coordToPixel(p.intensity), yAxis->coordToPixel(p.gflops));
        const double d = std::hypot(pixel.x() - at.x(), pixel.y() - at.y());
        if (d < bestDistance) {
            bestDistance = d;
            nearest = &p;
        }
    }
    if (!nearest) {
        QToolTip::hideText();
        return;
    }
    QString text = tr("task %1, record %2: %3 GFLOP/s at %4 FLOP/byte")
                       .arg(nearest->task)
                       .arg(nearest->recordId)
                       .arg(nearest->gflops, 0, 'f', 1)
                       .arg(nearest->intensity, 0, 'f', 2);
    if (m_profile) {
        const measure::RooflinePoint p = measure::rooflineAt(*m_profile, nearest->gflops, nearest->intensity,
            static_cast<int>(m_profile->peakGflops.size()), nearest->bytes);
        text += tr("\n%1% of the roof (%2 GFLOP/s, its data in %3), %4% of the FMA peak")
                    .arg(100 * p.ofRoof, 0, 'f', 1)
                    .arg(p.roof, 0, 'f', 1)
                    .arg(QString::fromLatin1(measure::toString(p.level)))
                    .arg(100 * p.ofPeak, 0, 'f', 1);
    }
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace ts::widgets
