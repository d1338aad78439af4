#include "widgets/model_scatter.h"

#include "widgets/plot_style.h"

#include <algorithm>

namespace ts::widgets {

ModelScatter::ModelScatter(QWidget* parent)
    : QCustomPlot(parent)
    , m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize(), QFont::Bold)))
{
    plotstyle::styleAxisRect(axisRect());
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    xAxis->setLabel(tr("measured (best cost / cost)"));
    yAxis->setLabel(tr("predicted (scaled)"));
    xAxis->setRange(0, 1.05);
    yAxis->setRange(-0.05, 1.05);
    setMinimumWidth(180);
}

void ModelScatter::setData(
    const QString& title, const std::vector<double>& labels, const std::vector<double>& predictions, int maxPoints)
{
    m_title->setText(title);
    clearGraphs();
    const size_t n = std::min(labels.size(), predictions.size());
    m_points = 0;
    if (n > 0) {
        const auto [lo, hi]
            = std::minmax_element(predictions.begin(), predictions.begin() + static_cast<std::ptrdiff_t>(n));
        const double span = *hi - *lo > 0 ? *hi - *lo : 1.0;
        const size_t step = std::max<size_t>(1, n / static_cast<size_t>(std::max(1, maxPoints)));
        QVector<double> x, y;
        for (size_t i = 0; i < n; i += step) {
            x.push_back(labels[i]);
            y.push_back((predictions[i] - *lo) / span);
        }
        QCPGraph* g = addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x1f, 0x77, 0xb4, 90), 3.5));
        g->setData(x, y);
        m_points = static_cast<int>(x.size());
    }
    replot(QCustomPlot::rpQueuedReplot);
}

ModelSearchPlot::ModelSearchPlot(QWidget* parent)
    : QCustomPlot(parent)
{
    plotstyle::styleAxisRect(axisRect());
    xAxis->setLabel(tr("trials"));
    yAxis->setLabel(tr("sum of best latency (ms)"));
    legend->setVisible(true);
    plotstyle::styleLegend(legend);
    setMinimumWidth(220);
}

void ModelSearchPlot::setCurves(const std::vector<Curve>& curves, int budget)
{
    clearGraphs();
    static const QColor kColours[] = { QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
        QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2) };
    double yMax = 0.0;
    for (size_t c = 0; c < curves.size(); ++c) {
        QVector<double> x, y;
        for (const auto& [trials, seconds] : curves[c].points) {
            x.push_back(trials);
            y.push_back(seconds * 1e3);
            yMax = std::max(yMax, seconds * 1e3);
        }
        if (!x.isEmpty()) { // hold the last best to the end of the budget
            x.push_back(std::max<double>(budget, x.back()));
            y.push_back(y.back());
        }
        QCPGraph* g = addGraph();
        g->setName(curves[c].name);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(kColours[c % std::size(kColours)], 1.8));
        g->setData(x, y, true);
    }
    xAxis->setRange(0, std::max(1, budget));
    yAxis->setRange(0, yMax > 0 ? yMax * 1.1 : 1.0);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ts::widgets
