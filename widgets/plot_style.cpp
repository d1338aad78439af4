#include "widgets/plot_style.h"

#include <algorithm>
#include <array>

namespace ts::widgets::plotstyle {

QColor seriesColour(int i)
{
    static constexpr std::array<QRgb, 10> kColours
        = { 0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf };
    return QColor::fromRgb(kColours[static_cast<size_t>(std::max(i, 0)) % kColours.size()]);
}

QColor rampColour(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    // Three stops: #6baed6 (light blue), #756bb1 (purple), #a50f15 (dark red).
    static constexpr std::array<std::array<double, 3>, 3> kStops
        = { { { 0x6b, 0xae, 0xd6 }, { 0x75, 0x6b, 0xb1 }, { 0xa5, 0x0f, 0x15 } } };
    const size_t segment = t < 0.5 ? 0 : 1;
    const double u = t < 0.5 ? t * 2.0 : (t - 0.5) * 2.0;
    auto mix = [&](size_t c) {
        return static_cast<int>(kStops[segment][c] + (kStops[segment + 1][c] - kStops[segment][c]) * u);
    };
    return QColor(mix(0), mix(1), mix(2));
}

void styleAxisRect(QCPAxisRect* rect)
{
    const QColor text(0x30, 0x30, 0x30);
    const QColor grid(0xdd, 0xdd, 0xdd);
    for (QCPAxis* axis : rect->axes()) {
        axis->setLabelColor(text);
        axis->setTickLabelColor(text);
        axis->setBasePen(QPen(QColor(0x80, 0x80, 0x80)));
        axis->setTickPen(QPen(QColor(0x80, 0x80, 0x80)));
        axis->setSubTickPen(QPen(QColor(0xa0, 0xa0, 0xa0)));
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
}

void styleLegend(QCPLegend* legend)
{
    QFont font = legend->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    legend->setFont(font);
    legend->setBorderPen(QPen(QColor(0xc8, 0xc8, 0xc8)));
    legend->setBrush(QColor(255, 255, 255, 230));
    legend->setRowSpacing(0);
}

} // namespace ts::widgets::plotstyle
