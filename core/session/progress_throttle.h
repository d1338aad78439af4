// ProgressThrottle: lets through at most one progress report per interval (100 ms by default, about 10 Hz).
//
// The first report always passes; a later one passes once the interval has elapsed since the last report
// that passed. Reports in between are dropped, not queued: a job's result follows its last report anyway,
// and a receiver redrawing a progress bar more than ten times a second gains nothing. One throttle belongs
// to one job and is used from that job's thread only.
#pragma once

#include <chrono>
#include <optional>

namespace ts::session {

class ProgressThrottle {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kDefaultInterval { 100 };

    explicit ProgressThrottle(Clock::duration interval = kDefaultInterval)
        : m_interval(interval)
    {
    }

    // True if a report made at `now` is to be delivered; it then starts the next interval.
    bool admit(Clock::time_point now = Clock::now());
    // A report delivered at `now` whatever the interval (an urgent one: a phase, a round's end) starts the next
    // interval too, so that the reports after it still come at most once per interval.
    void restart(Clock::time_point now = Clock::now()) { m_lastAdmitted = now; }

    Clock::duration interval() const { return m_interval; }

private:
    Clock::duration m_interval;
    std::optional<Clock::time_point> m_lastAdmitted;
};

} // namespace ts::session
