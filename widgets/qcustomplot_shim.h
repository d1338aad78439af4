// QCustomPlot through Qt's keywords: qcustomplot.h (2.1) writes `signals:`, `slots:`, `emit` and `foreach`,
// which QT_NO_KEYWORDS (on in every TuneScope target, for LibTorch's and LLVM's sake) leaves undefined.
// Include <qcustomplot.h> only through this header; it maps the keywords to Q_SIGNALS and friends for the
// include and undefines them again after it.
#pragma once

#if defined(QT_NO_KEYWORDS)
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
#else
#include <qcustomplot.h>
#endif
