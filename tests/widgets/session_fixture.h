// A real, short tuning session for the GUI tests: a small matmul (64x64x64), measured for real into a fresh
// workspace, driven through the SessionHub as the workbench drives it. A few seconds on two cores.
#pragma once

#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"
#include "widgets/session_hub.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace ts::testing {

inline engine::TuneOrigin smallMatmul(const char* shape = "64,64,64")
{
    engine::TuneOrigin origin;
    origin.op = "matmul";
    origin.shape = shape;
    return origin;
}

inline engine::TuneOptions shortRun(int trials = 32, int perRound = 16, const std::string& model = "random")
{
    engine::TuneOptions options;
    options.trials = trials;
    options.measuresPerRound = perRound;
    options.model = model;
    options.seed = 7;
    options.searchThreads = 1;
    options.measure.buildParallelism = 1;
    options.remeasureTop = 1;
    options.remeasureRepeat = 2;
    return options;
}

// Starts a session on `hub` (whose workspace must be open) and waits until it finishes. False on a timeout
// or a failed session (the snapshot's message says why).
inline bool runToEnd(
    widgets::SessionHub& hub, const engine::TuneOrigin& origin, engine::TuneOptions options, int timeoutMs = 240000)
{
    QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
    if (!hub.start(origin, std::move(options)))
        return false;
    if (!finished.wait(timeoutMs) && finished.isEmpty())
        return false;
    return finished.first().at(1).toString() == QLatin1String("finished");
}

} // namespace ts::testing
