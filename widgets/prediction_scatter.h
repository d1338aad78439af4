// PredictionScatter: the cost model's predicted score against the measured throughput, one point per
// successful, predicted trial of the rounds given, coloured by round (older light blue to newest dark red).
// The model's own picks are discs; eps-greedy random picks are triangles; a person's manual states are black-edged
// stars (legend "manual"). A model that ranks well puts the
// points on a rising band. Hovering a point names its record; clicking one emits pointClicked. GUI thread.
#pragma once

#include "widgets/models/prediction_rounds.h"
#include "widgets/qcustomplot_shim.h"

#include <optional>
#include <vector>

namespace ts::widgets {

class PredictionScatter : public QCustomPlot {
    Q_OBJECT
public:
    explicit PredictionScatter(QWidget* parent = nullptr);

    // Draws `rounds` (of `snapshot`, which the rounds point into and which must outlive the next call).
    // Redraws only when the rounds' points differ from what is drawn.
    void setRounds(const models::SessionSnapshot& snapshot, const std::vector<models::PredictionRound>& rounds);
    void setHighlightedRecord(std::optional<int64_t> recordId);

    // The points drawn, in round and trial order.
    struct Point {
        double predicted = 0.0;
        double gflops = 0.0;
        int64_t recordId = 0;
        int round = 0;
        int task = 0;
        int trial = 0;
        bool random = false;
        bool manual = false;
    };
    const std::vector<Point>& points() const { return m_points; }
    // The point nearest `pixel` within a few pixels.
    std::optional<Point> pointAt(const QPointF& pixel) const;
    QPointF pixelOf(const Point& point) const;

Q_SIGNALS:
    void pointClicked(qint64 recordId, int task);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void updateHighlight();

    std::vector<Point> m_points;
    QCPGraph* m_highlight;
    QCPGraph* m_randomLegend;
    std::optional<int64_t> m_highlightedRecord;
};

} // namespace ts::widgets
