#include "widgets/network_run_plot.h"

#include "widgets/plot_style.h"

#include <algorithm>
#include <numeric>

namespace ts::widgets {

NetworkRunPlot::NetworkRunPlot(QWidget* parent)
    : QCustomPlot(parent)
    , m_measured(new QCPBars(yAxis, xAxis))
    , m_hot(new QCPBars(yAxis, xAxis))
    , m_estimate(new QCPBars(yAxis, xAxis))
{
    plotstyle::styleAxisRect(axisRect());
    plotstyle::styleLegend(legend);
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    xAxis->setLabel(tr("Time per run (ms)"));
    m_measured->setName(tr("measured"));
    m_measured->setPen(Qt::NoPen);
    m_measured->setBrush(plotstyle::seriesColour(0));
    m_hot->setName(tr("hot (each step timed again at once)"));
    m_hot->setPen(Qt::NoPen);
    m_hot->setBrush(plotstyle::seriesColour(2).lighter(120));
    m_estimate->setName(tr("estimate (weight × record)"));
    m_estimate->setPen(Qt::NoPen);
    m_estimate->setBrush(plotstyle::seriesColour(1).lighter(130));
    auto* group = new QCPBarsGroup(this);
    for (QCPBars* bars : { m_measured, m_hot, m_estimate }) {
        bars->setBarsGroup(group);
        bars->setWidth(0.27);
    }
    yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    yAxis->grid()->setVisible(false);
    setRun(std::nullopt);
}

void NetworkRunPlot::setRun(std::optional<runtime::NetworkRun> run)
{
    m_run = std::move(run);
    m_measured->data()->clear();
    m_hot->data()->clear();
    m_estimate->data()->clear();
    m_labels.clear();
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(yAxis->ticker());
    ticker->clear();
    if (!m_run) {
        replot();
        return;
    }
    struct Row {
        QString label;
        double measured;
        double hot; // 0: not timed (a run written before hot times were)
        double estimate; // < 0: none
    };
    std::vector<Row> rows;
    double total = m_run->otherSeconds;
    for (const runtime::TaskRun& t : m_run->tasks)
        total += t.measuredSeconds;
    auto share = [&](double s) { return total > 0 ? 100.0 * s / total : 0.0; };
    for (const runtime::TaskRun& t : m_run->tasks)
        rows.push_back({ tr("#%1 %2 ×%3 · %4%")
                             .arg(t.task)
                             .arg(QString::fromStdString(t.name))
                             .arg(t.weight)
                             .arg(share(t.measuredSeconds), 0, 'f', 1),
            t.measuredSeconds * 1e3, t.hotSeconds * 1e3, t.estimateSeconds >= 0 ? t.estimateSeconds * 1e3 : -1.0 });
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.measured < b.measured; });
    rows.insert(rows.begin(),
        { tr("other steps (%1, not tasks) · %2%").arg(m_run->otherSteps).arg(share(m_run->otherSeconds), 0, 'f', 1),
            m_run->otherSeconds * 1e3, m_run->otherHotSeconds * 1e3, -1.0 });
    double most = 0.0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const double key = static_cast<double>(i + 1);
        m_measured->addData(key, rows[i].measured);
        if (rows[i].hot > 0)
            m_hot->addData(key, rows[i].hot);
        if (rows[i].estimate >= 0)
            m_estimate->addData(key, rows[i].estimate);
        ticker->addTick(key, rows[i].label);
        m_labels.append(rows[i].label);
        most = std::max({ most, rows[i].measured, rows[i].hot, rows[i].estimate });
    }
    yAxis->setRange(0.3, static_cast<double>(rows.size()) + 0.7);
    xAxis->setRange(0.0, most > 0 ? most * 1.08 : 1.0);
    replot();
}

QStringList NetworkRunPlot::rowLabels() const
{
    QStringList top;
    for (auto it = m_labels.crbegin(); it != m_labels.crend(); ++it)
        top.append(*it);
    return top;
}

} // namespace ts::widgets
