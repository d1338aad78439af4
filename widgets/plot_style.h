// The look the workbench's plots share: readable series colours on a light background, a colour ramp for
// ordered series (older to newer), and the axis and legend styling. QCustomPlot based; GUI thread.
#pragma once

#include "widgets/qcustomplot_shim.h"

#include <QColor>

namespace ts::widgets::plotstyle {

// The i-th of ten distinct colours (Tableau 10, readable on white); repeats after ten.
QColor seriesColour(int i);
// A ramp from light blue (t = 0, the oldest) through purple to dark red (t = 1, the newest).
QColor rampColour(double t);
// Grid, tick and label colours, fonts.
void styleAxisRect(QCPAxisRect* rect);
void styleLegend(QCPLegend* legend);

} // namespace ts::widgets::plotstyle
