// JobContext: what a job's work function sees on its worker thread.
//
// The work asks stopRequested() between units of work (the job was cancelled, superseded by a newer job
// of the same tracker, or its tracker is gone) and returns early when it is set: whatever it returns then
// is dropped. reportProgress() sends a JobProgress toward the receiver, throttled to about 10 Hz
// (ProgressThrottle); a report that does not pass is dropped. A context belongs to one job and is used
// from that job's thread only.
#pragma once

#include "core/session/progress_throttle.h"

#include <functional>
#include <stop_token>
#include <string>

namespace ts::session {

struct JobProgress {
    double fraction = 0.0; // 0..1
    std::string message; // what the job is doing now, for a status line
};

class JobContext {
public:
    using ProgressSink = std::function<void(JobProgress)>;

    explicit JobContext(std::stop_token stop, ProgressSink sink = {}, ProgressThrottle throttle = ProgressThrottle {})
        : m_stop(std::move(stop))
        , m_sink(std::move(sink))
        , m_throttle(throttle)
    {
    }

    bool stopRequested() const { return m_stop.stop_requested(); }
    // For work that passes the token on (a measurer, a search loop).
    const std::stop_token& stopToken() const { return m_stop; }

    // Returns whether the report was sent (false: throttled, or nobody listens to progress).
    bool reportProgress(double fraction, std::string message = {});

private:
    std::stop_token m_stop;
    ProgressSink m_sink;
    ProgressThrottle m_throttle;
};

} // namespace ts::session
