// ModelScatter: one cost model's predictions against the measured labels of the same test records (the
// Model comparison view puts one per model side by side). x: the label, normalised throughput (the task's
// best cost / the program's cost, so 1 is the best program); y: the model's score, min-max scaled to 0..1 per
// plot because models score on different scales (a rank loss has no unit). A model that ranks well puts the
// points on a rising band; the title carries its pairwise accuracy. GUI thread.
#pragma once

#include "widgets/qcustomplot_shim.h"

#include <utility>
#include <vector>

namespace ts::widgets {

class ModelScatter : public QCustomPlot {
    Q_OBJECT
public:
    explicit ModelScatter(QWidget* parent = nullptr);

    // At most `maxPoints` are drawn (an even sample), so 10k-record test sets stay responsive.
    void setData(const QString& title, const std::vector<double>& labels, const std::vector<double>& predictions,
        int maxPoints = 4000);
    int pointCount() const { return m_points; }
    QString title() const { return m_title->text(); }

private:
    QCPTextElement* m_title;
    int m_points = 0;
};

// ModelSearchPlot: the search curves of the compared models overlaid, the sum over the searched tasks of their
// best latency (ms) against trials, one step line per model (compare-models --search).
class ModelSearchPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ModelSearchPlot(QWidget* parent = nullptr);

    struct Curve {
        QString name;
        std::vector<std::pair<int, double>> points; // (trials, seconds), improving
    };
    void setCurves(const std::vector<Curve>& curves, int budget);
    int curveCount() const { return graphCount(); }
};

} // namespace ts::widgets
