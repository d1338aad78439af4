#include "widgets/tuning_curve_plot.h"

#include "widgets/plot_style.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ts::widgets {

namespace {
    constexpr double kPickRadius = 8.0; // pixels
} // namespace

struct TuningCurvePlot::SessionGraphs {
    std::shared_ptr<const models::SessionSnapshot> snapshot;
    bool overlay = false;
    std::vector<QCPGraph*> lines; // per task: best so far, a step line up to the current trial
    std::vector<QCPGraph*> markers; // per task: one marker per improvement
    std::vector<size_t> plotted; // per task: curve points drawn
    std::vector<int64_t> lastRecord; // per task: the record of the last curve point drawn
    QCPGraph* latency = nullptr;
    size_t latencyPlotted = 0; // rounds looked at
    QCPGraph* manual = nullptr; // the shown session's manual trials (none for an overlay)
    size_t trialsScanned = 0; // trials looked at for manual ones
    QCPGraph* legendEntry = nullptr; // the session's label in the legend, while sessions are compared
};

TuningCurvePlot::TuningCurvePlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_curveRect(axisRect())
    , m_latencyRect(new QCPAxisRect(this))
{
    setNoAntialiasingOnDrag(true);
    plotLayout()->addElement(1, 0, m_latencyRect);
    plotLayout()->setRowStretchFactor(0, 2.2);
    plotLayout()->setRowStretchFactor(1, 1);
    plotLayout()->setRowSpacing(0);
    auto* margins = new QCPMarginGroup(this);
    m_curveRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_latencyRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);

    // The legend to the right of the curves, not over them, at the top of its column.
    legend->setVisible(true);
    m_curveRect->insetLayout()->take(legend);
    auto* legendColumn = new QCPLayoutGrid;
    plotLayout()->addElement(0, 1, legendColumn);
    legendColumn->addElement(0, 0, legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(this)); // takes the height the legend does not need
    legendColumn->setRowStretchFactor(0, 0.001);
    legendColumn->setMargins(QMargins(0, 10, 6, 0));
    plotLayout()->setColumnStretchFactor(1, 0.001);
    legend->setLayer(QStringLiteral("legend"));
    legend->setWrap(12);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    legend->setMargins(QMargins(6, 4, 6, 4));
    plotstyle::styleLegend(legend);

    plotstyle::styleAxisRect(m_curveRect);
    plotstyle::styleAxisRect(m_latencyRect);
    yAxis->setLabel(tr("Best GFLOP/s"));
    m_latencyRect->axis(QCPAxis::atLeft)->setLabel(tr("Latency (ms)"));
    m_latencyRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(2);
    xAxis->setTickLabels(false); // the x axis is labelled once, under the latency plot
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1);

    m_highlight = addGraph(xAxis, yAxis);
    m_highlight->setLineStyle(QCPGraph::lsNone);
    m_highlight->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 15));
    m_highlight->removeFromLegend();
    setXAxis(XAxis::Trials);
}

TuningCurvePlot::~TuningCurvePlot() = default;

void TuningCurvePlot::setXAxis(XAxis axis)
{
    m_xAxis = axis;
    QCPAxis* bottom = m_latencyRect->axis(QCPAxis::atBottom);
    if (axis == XAxis::WallTime) {
        QSharedPointer<QCPAxisTickerTime> ticker(new QCPAxisTickerTime);
        ticker->setTimeFormat(QStringLiteral("%h:%m:%s"));
        bottom->setTicker(ticker);
        xAxis->setTicker(ticker);
        bottom->setLabel(tr("Wall time (h:mm:ss)"));
    } else {
        QSharedPointer<QCPAxisTicker> ticker(new QCPAxisTicker);
        bottom->setTicker(ticker);
        xAxis->setTicker(ticker);
        bottom->setLabel(tr("Trials (this session)"));
    }
    // Every key changes: redraw every graph from the start.
    auto redraw = [this](SessionGraphs* g) {
        if (!g)
            return;
        for (size_t i = 0; i < g->lines.size(); ++i) {
            g->lines[i]->data()->clear();
            g->markers[i]->data()->clear();
            g->plotted[i] = 0;
        }
        g->latency->data()->clear();
        g->latencyPlotted = 0;
        if (g->manual)
            g->manual->data()->clear();
        g->trialsScanned = 0;
        update(*g);
    };
    redraw(m_main.get());
    for (auto& overlay : m_overlays)
        redraw(overlay.get());
    updateModelSwitches();
    updateRanges();
    updateHighlight();
    replot(rpQueuedReplot);
}

void TuningCurvePlot::setSession(std::shared_ptr<const models::SessionSnapshot> snapshot)
{
    if (m_main && snapshot && m_main->snapshot->sessionId == snapshot->sessionId
        && m_main->snapshot->tasks.size() <= snapshot->tasks.size() && snapshot->sessionId != 0) {
        m_main->snapshot = std::move(snapshot);
        update(*m_main);
    } else {
        if (m_main)
            removeGraphs(*m_main);
        m_main = snapshot ? makeGraphs(std::move(snapshot), false) : nullptr;
        updateLegendLabels();
        m_switchMarksFor.first = static_cast<size_t>(-1); // another session: draw its switches anew
    }
    updateModelSwitches();
    updateRanges();
    updateHighlight();
    replot(rpQueuedReplot);
}

void TuningCurvePlot::updateModelSwitches()
{
    const size_t count = m_main ? m_main->snapshot->modelSwitches.size() : 0;
    if (m_switchMarksFor == std::make_pair(count, m_xAxis))
        return;
    m_switchMarksFor = { count, m_xAxis };
    for (QCPAbstractItem* item : m_switchMarks)
        removeItem(item);
    m_switchMarks.clear();
    if (!m_main)
        return;
    const models::SessionSnapshot& s = *m_main->snapshot;
    for (const engine::ModelSwitched& m : s.modelSwitches) {
        if (!m.error.empty())
            continue;
        // Between the last trial the old model ranked and the first the new one did.
        double key = m.trial + 0.5;
        if (m_xAxis == XAxis::WallTime)
            key = static_cast<size_t>(m.trial) < s.trials.size() ? s.trials[static_cast<size_t>(m.trial)].elapsed
                                                                 : s.elapsed;
        auto* line = new QCPItemStraightLine(this);
        line->setClipAxisRect(m_curveRect);
        line->point1->setAxes(xAxis, yAxis);
        line->point2->setAxes(xAxis, yAxis);
        line->point1->setCoords(key, 0.0);
        line->point2->setCoords(key, 1.0);
        line->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
        auto* label = new QCPItemText(this);
        label->setClipAxisRect(m_curveRect);
        label->position->setAxes(xAxis, yAxis);
        label->position->setAxisRect(m_curveRect);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(key, 0.97); // at the bottom: curves climb, and are high by a switch
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(4, 0, 0, 0));
        label->setColor(QColor(70, 70, 70));
        label->setText(tr("\u2192 %1").arg(QString::fromStdString(m.to)));
        m_switchMarks.push_back(line);
        m_switchMarks.push_back(label);
    }
}

void TuningCurvePlot::setOverlays(std::vector<std::shared_ptr<const models::SessionSnapshot>> overlays)
{
    std::vector<std::unique_ptr<SessionGraphs>> kept;
    for (auto& snapshot : overlays) {
        auto same = std::find_if(m_overlays.begin(), m_overlays.end(),
            [&](const std::unique_ptr<SessionGraphs>& g) { return g && g->snapshot == snapshot; });
        if (same != m_overlays.end())
            kept.push_back(std::move(*same));
        else if (snapshot)
            kept.push_back(makeGraphs(std::move(snapshot), true));
    }
    for (auto& old : m_overlays)
        if (old)
            removeGraphs(*old);
    m_overlays = std::move(kept);
    updateLegendLabels();
    updateRanges();
    updateHighlight();
    replot(rpQueuedReplot);
}

void TuningCurvePlot::setHighlightedRecord(std::optional<int64_t> recordId)
{
    m_highlightedRecord = recordId;
    updateHighlight();
    replot(rpQueuedReplot);
}

std::unique_ptr<TuningCurvePlot::SessionGraphs> TuningCurvePlot::makeGraphs(
    std::shared_ptr<const models::SessionSnapshot> snapshot, bool overlay)
{
    auto g = std::make_unique<SessionGraphs>();
    g->snapshot = std::move(snapshot);
    g->overlay = overlay;
    g->latency = addGraph(m_latencyRect->axis(QCPAxis::atBottom), m_latencyRect->axis(QCPAxis::atLeft));
    g->latency->setLineStyle(QCPGraph::lsStepLeft);
    g->latency->setPen(QPen(QColor(0x33, 0x33, 0x33), overlay ? 1.5 : 2.0, overlay ? Qt::DashLine : Qt::SolidLine));
    g->latency->removeFromLegend();
    update(*g);
    return g;
}

void TuningCurvePlot::removeGraphs(SessionGraphs& g)
{
    for (QCPGraph* graph : g.lines)
        removeGraph(graph);
    for (QCPGraph* graph : g.markers)
        removeGraph(graph);
    if (g.latency)
        removeGraph(g.latency);
    if (g.manual)
        removeGraph(g.manual);
    if (g.legendEntry)
        removeGraph(g.legendEntry);
    g = SessionGraphs {};
}

double TuningCurvePlot::keyOf(const models::CurvePoint& point) const
{
    return m_xAxis == XAxis::Trials ? point.trial : point.elapsed;
}

void TuningCurvePlot::update(SessionGraphs& g)
{
    const models::SessionSnapshot& s = *g.snapshot;
    for (size_t i = g.lines.size(); i < s.tasks.size(); ++i) {
        const QColor colour = plotstyle::seriesColour(static_cast<int>(i));
        QCPGraph* line = addGraph(xAxis, yAxis);
        line->setLineStyle(QCPGraph::lsStepLeft);
        line->setPen(QPen(colour, g.overlay ? 1.5 : 2.0, g.overlay ? Qt::DashLine : Qt::SolidLine));
        if (g.overlay)
            line->removeFromLegend();
        else
            line->setName(tr("%1: %2").arg(i).arg(QString::fromStdString(s.tasks[i].status.name)));
        QCPGraph* markers = addGraph(xAxis, yAxis);
        markers->setLineStyle(QCPGraph::lsNone);
        markers->setScatterStyle(g.overlay ? QCPScatterStyle(QCPScatterStyle::ssDiamond, colour, colour, 6)
                                           : QCPScatterStyle(QCPScatterStyle::ssCircle, colour, Qt::white, 7));
        markers->removeFromLegend();
        g.lines.push_back(line);
        g.markers.push_back(markers);
        g.plotted.push_back(0);
        g.lastRecord.push_back(0);
    }
    const double tailKey = m_xAxis == XAxis::Trials ? s.trialsDone : s.elapsed;
    for (size_t i = 0; i < s.tasks.size(); ++i) {
        const std::vector<models::CurvePoint>& curve = s.tasks[i].curve;
        QCPGraph* line = g.lines[i];
        size_t& plotted = g.plotted[i];
        if (plotted > curve.size() || (plotted > 0 && curve[plotted - 1].recordId != g.lastRecord[i])) {
            // not a continuation of what is drawn (the session reloaded from the store): start over
            line->data()->clear();
            g.markers[i]->data()->clear();
            plotted = 0;
        }
        if (plotted > 0)
            line->data()->removeAfter(keyOf(curve[plotted - 1])); // the old tail
        else
            line->data()->clear();
        for (; plotted < curve.size(); ++plotted) {
            const double key = keyOf(curve[plotted]);
            line->addData(key, curve[plotted].gflops);
            g.markers[i]->addData(key, curve[plotted].gflops);
            g.lastRecord[i] = curve[plotted].recordId;
        }
        if (!curve.empty() && tailKey > keyOf(curve.back()))
            line->addData(tailKey, curve.back().gflops);
    }
    if (!g.overlay) {
        if (g.trialsScanned > s.trials.size()) { // the session reloaded from the store
            if (g.manual)
                g.manual->data()->clear();
            g.trialsScanned = 0;
        }
        for (; g.trialsScanned < s.trials.size(); ++g.trialsScanned) {
            const models::TrialPoint& t = s.trials[g.trialsScanned];
            if (!t.manual || !t.ok())
                continue;
            if (!g.manual) { // made at the first one, after the curves: drawn over them, last in the legend
                g.manual = addGraph(xAxis, yAxis);
                g.manual->setLineStyle(QCPGraph::lsNone);
                g.manual->setScatterStyle(
                    QCPScatterStyle(QCPScatterStyle::ssStar, QPen(Qt::black, 1.5), Qt::NoBrush, 11));
                g.manual->setName(tr("manual"));
            }
            g.manual->addData(m_xAxis == XAxis::Trials ? t.trial : t.elapsed, t.gflops);
        }
    }
    for (; g.latencyPlotted < s.rounds.size(); ++g.latencyPlotted) {
        const models::RoundInfo& round = s.rounds[g.latencyPlotted];
        if (round.estimatedLatency > 0.0)
            g.latency->addData(
                m_xAxis == XAxis::Trials ? round.totalTrials : round.elapsed, round.estimatedLatency * 1e3);
    }
}

void TuningCurvePlot::updateRanges()
{
    double xMax = 0.0;
    double yMax = 0.0;
    double latencyMax = 0.0;
    double latencyMin = 0.0; // of the estimates there are (0: none)
    auto visit = [&](const SessionGraphs* g) {
        if (!g)
            return;
        const models::SessionSnapshot& s = *g->snapshot;
        xMax = std::max(xMax, m_xAxis == XAxis::Trials ? static_cast<double>(s.trialsDone) : s.elapsed);
        for (const models::SessionTask& t : s.tasks)
            for (const models::CurvePoint& p : t.curve)
                yMax = std::max(yMax, p.gflops);
        for (const models::RoundInfo& r : s.rounds) {
            if (r.estimatedLatency <= 0.0)
                continue;
            const double ms = r.estimatedLatency * 1e3;
            latencyMax = std::max(latencyMax, ms);
            latencyMin = latencyMin > 0.0 ? std::min(latencyMin, ms) : ms;
        }
    };
    visit(m_main.get());
    for (const auto& overlay : m_overlays)
        visit(overlay.get());
    if (m_measuredMs) {
        latencyMax = std::max(latencyMax, *m_measuredMs);
        latencyMin = latencyMin > 0.0 ? std::min(latencyMin, *m_measuredMs) : *m_measuredMs;
    }
    const QCPRange keys(0.0, xMax > 0.0 ? xMax * 1.02 : 1.0);
    xAxis->setRange(keys);
    m_latencyRect->axis(QCPAxis::atBottom)->setRange(keys);
    yAxis->setRange(0.0, yMax > 0.0 ? yMax * 1.1 : 1.0);
    // The estimate's range, not from zero: its improvements are what the plot is for.
    const double spread = std::max(latencyMax - latencyMin, latencyMax * 0.05);
    if (latencyMax > 0.0)
        m_latencyRect->axis(QCPAxis::atLeft)->setRange(latencyMin - spread * 0.15, latencyMax + spread * 0.15);
    else
        m_latencyRect->axis(QCPAxis::atLeft)->setRange(0.0, 1.0);
}

void TuningCurvePlot::setMeasuredLatency(std::optional<double> ms, const QString& label)
{
    if (!m_measuredLine) {
        m_measuredLine = new QCPItemStraightLine(this);
        m_measuredLine->setClipAxisRect(m_latencyRect);
        m_measuredLine->point1->setAxisRect(m_latencyRect);
        m_measuredLine->point2->setAxisRect(m_latencyRect);
        m_measuredLine->point1->setAxes(m_latencyRect->axis(QCPAxis::atBottom), m_latencyRect->axis(QCPAxis::atLeft));
        m_measuredLine->point2->setAxes(m_latencyRect->axis(QCPAxis::atBottom), m_latencyRect->axis(QCPAxis::atLeft));
        m_measuredLine->setPen(QPen(plotstyle::seriesColour(3), 2.0, Qt::DashLine));
        m_measuredLabel = new QCPItemText(this);
        m_measuredLabel->setClipAxisRect(m_latencyRect);
        m_measuredLabel->position->setAxisRect(m_latencyRect);
        m_measuredLabel->position->setAxes(
            m_latencyRect->axis(QCPAxis::atBottom), m_latencyRect->axis(QCPAxis::atLeft));
        m_measuredLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_measuredLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        m_measuredLabel->setColor(plotstyle::seriesColour(3).darker(130));
    }
    m_measuredMs = ms;
    m_measuredLine->setVisible(ms.has_value());
    m_measuredLabel->setVisible(ms.has_value());
    if (ms) {
        m_measuredLine->point1->setCoords(0.0, *ms);
        m_measuredLine->point2->setCoords(1.0, *ms);
        m_measuredLabel->position->setCoords(0.99, *ms);
        m_measuredLabel->setText(label);
    }
    updateRanges();
    replot(QCustomPlot::rpQueuedReplot);
}

void TuningCurvePlot::updateHighlight()
{
    m_highlight->data()->clear();
    if (!m_highlightedRecord)
        return;
    auto onCurve = [&](const SessionGraphs* g) {
        if (!g)
            return false;
        for (const models::SessionTask& t : g->snapshot->tasks)
            for (const models::CurvePoint& p : t.curve)
                if (p.recordId == *m_highlightedRecord) {
                    m_highlight->addData(keyOf(p), p.gflops);
                    return true;
                }
        return false;
    };
    if (onCurve(m_main.get()))
        return;
    for (const auto& overlay : m_overlays)
        if (onCurve(overlay.get()))
            return;
    if (m_main) // a trial that did not improve its task's best: where it was measured
        if (const models::TrialPoint* t = m_main->snapshot->findRecord(*m_highlightedRecord); t && t->ok())
            m_highlight->addData(m_xAxis == XAxis::Trials ? t->trial : t->elapsed, t->gflops);
}

void TuningCurvePlot::updateLegendLabels()
{
    // While sessions are compared, the legend also says which line style is which session.
    auto setEntry = [this](SessionGraphs* g, bool wanted) {
        if (!g)
            return;
        if (!wanted) {
            if (g->legendEntry)
                removeGraph(g->legendEntry);
            g->legendEntry = nullptr;
            return;
        }
        if (!g->legendEntry) {
            g->legendEntry = addGraph(xAxis, yAxis);
            g->legendEntry->setPen(
                QPen(QColor(0x33, 0x33, 0x33), g->overlay ? 1.5 : 2.0, g->overlay ? Qt::DashLine : Qt::SolidLine));
        }
        g->legendEntry->setName(QString::fromStdString(g->snapshot->label()));
    };
    const bool comparing = !m_overlays.empty();
    setEntry(m_main.get(), comparing);
    for (auto& overlay : m_overlays)
        setEntry(overlay.get(), true);
    legend->setVisible(legend->itemCount() > 0); // no empty box before the first session
}

QCPGraph* TuningCurvePlot::curveGraph(int task, int overlay) const
{
    const SessionGraphs* g = overlay < 0 ? m_main.get()
        : overlay < overlayCount()       ? m_overlays[static_cast<size_t>(overlay)].get()
                                         : nullptr;
    return g && task >= 0 && task < static_cast<int>(g->lines.size()) ? g->lines[static_cast<size_t>(task)] : nullptr;
}

QCPGraph* TuningCurvePlot::markerGraph(int task, int overlay) const
{
    const SessionGraphs* g = overlay < 0 ? m_main.get()
        : overlay < overlayCount()       ? m_overlays[static_cast<size_t>(overlay)].get()
                                         : nullptr;
    return g && task >= 0 && task < static_cast<int>(g->markers.size()) ? g->markers[static_cast<size_t>(task)]
                                                                        : nullptr;
}

QCPGraph* TuningCurvePlot::latencyGraph(int overlay) const
{
    const SessionGraphs* g = overlay < 0 ? m_main.get()
        : overlay < overlayCount()       ? m_overlays[static_cast<size_t>(overlay)].get()
                                         : nullptr;
    return g ? g->latency : nullptr;
}

QCPGraph* TuningCurvePlot::manualGraph() const { return m_main ? m_main->manual : nullptr; }

QPointF TuningCurvePlot::pixelOf(const Point& point) const
{
    const models::CurvePoint& p = point.snapshot->tasks[static_cast<size_t>(point.task)].curve[point.index];
    return { xAxis->coordToPixel(keyOf(p)), yAxis->coordToPixel(p.gflops) };
}

std::optional<TuningCurvePlot::Point> TuningCurvePlot::pointAt(const QPointF& pixel) const
{
    if (!m_curveRect->rect().contains(pixel.toPoint()))
        return std::nullopt;
    std::optional<Point> best;
    double bestDistance = kPickRadius;
    auto visit = [&](const SessionGraphs* g) {
        if (!g)
            return;
        const models::SessionSnapshot& s = *g->snapshot;
        for (size_t t = 0; t < s.tasks.size(); ++t)
            for (size_t i = 0; i < s.tasks[t].curve.size(); ++i) {
                Point candidate { s.sessionId, static_cast<int>(t), i, &s };
                const QPointF at = pixelOf(candidate);
                const double distance = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
                if (distance < bestDistance) { // strict: the shown session wins a tie
                    bestDistance = distance;
                    best = candidate;
                }
            }
    };
    visit(m_main.get());
    for (const auto& overlay : m_overlays)
        visit(overlay.get());
    return best;
}

QString TuningCurvePlot::toolTipOf(const Point& point) const
{
    const models::SessionTask& task = point.snapshot->tasks[static_cast<size_t>(point.task)];
    const models::CurvePoint& p = task.curve[point.index];
    QString text = tr("Task %1: %2").arg(point.task).arg(QString::fromStdString(task.status.name));
    if (!m_main || point.snapshot != m_main->snapshot.get())
        text += QLatin1Char('\n') + QString::fromStdString(point.snapshot->label());
    text += QLatin1Char('\n') + tr("Trial %1 (the task's %2)").arg(p.trial).arg(p.taskTrial);
    text += QLatin1Char('\n') + tr("%1 GFLOP/s, %2 µs").arg(p.gflops, 0, 'f', 2).arg(p.cost * 1e6, 0, 'f', 2);
    text += QLatin1Char('\n') + tr("Record %1").arg(p.recordId);
    return text;
}

void TuningCurvePlot::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (auto point = pointAt(event->position()))
        QToolTip::showText(event->globalPosition().toPoint(), toolTipOf(*point), this);
    else
        QToolTip::hideText();
}

void TuningCurvePlot::mousePressEvent(QMouseEvent* event)
{
    QCustomPlot::mousePressEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    if (auto point = pointAt(event->position())) {
        const models::CurvePoint& p = point->snapshot->tasks[static_cast<size_t>(point->task)].curve[point->index];
        Q_EMIT pointClicked(point->sessionId, point->task, p.recordId);
    }
}

void TuningCurvePlot::leaveEvent(QEvent* event)
{
    QCustomPlot::leaveEvent(event);
    QToolTip::hideText();
}

} // namespace ts::widgets
