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

} // namespace ts::widgets
