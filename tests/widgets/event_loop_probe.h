// EventLoopProbe: how long the GUI thread's event loop is blocked. A timer asks to run every `tickMs`; each
// time it runs late, the lateness is a stretch the loop spent on something else (drawing, a slot, a
// model reset). The longest one is what a user feels as a freeze.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <vector>

namespace ts::testing {

class EventLoopProbe : public QObject {
public:
    explicit EventLoopProbe(int tickMs = 5)
        : m_tickMs(tickMs)
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(tickMs);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last > 0)
                m_gapsMs.push_back(static_cast<double>(now - m_last) / 1e6 - m_tickMs);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_gapsMs.clear();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double maxBlockedMs() const { return m_gapsMs.empty() ? 0.0 : *std::max_element(m_gapsMs.begin(), m_gapsMs.end()); }
    // The q-quantile of the lateness (0.99: all but the worst 1%).
    double quantileMs(double q) const
    {
        if (m_gapsMs.empty())
            return 0.0;
        std::vector<double> sorted = m_gapsMs;
        std::sort(sorted.begin(), sorted.end());
        return sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * static_cast<double>(sorted.size())))];
    }
    size_t ticks() const { return m_gapsMs.size(); }

private:
    int m_tickMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    std::vector<double> m_gapsMs;
};

} // namespace ts::testing
