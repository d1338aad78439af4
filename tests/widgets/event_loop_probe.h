// EventLoopProbe: how long the GUI thread's event loop is blocked. A timer asks to run every `tickMs`; each
// time it runs late, the lateness is a stretch the loop spent on something else (drawing, a slot, a
// model reset). The longest one is what a user feels as a freeze.
//
// On a machine whose cores are all measuring kernels, a late tick may also be the GUI thread waiting for a core:
// the CPU time the thread spent in each stretch (maxBusyMs) tells a call that takes long from a thread that was
// not scheduled.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <ctime>
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
            const double cpu = threadCpuMs(); // the timer fires on the probed thread
            if (m_last > 0) {
                m_gapsMs.push_back(static_cast<double>(now - m_last) / 1e6 - m_tickMs);
                m_busyMs.push_back(cpu - m_lastCpu);
            }
            m_last = now;
            m_lastCpu = cpu;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_gapsMs.clear();
        m_busyMs.clear();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    // Not measuring for a while (a test's own picture taking), keeping what was measured.
    void pause() { m_timer.stop(); }
    void resume()
    {
        m_last = 0; // the time paused is no block
        m_timer.start();
    }
    double maxBlockedMs() const { return m_gapsMs.empty() ? 0.0 : *std::max_element(m_gapsMs.begin(), m_gapsMs.end()); }
    // The most CPU time the thread spent between two ticks: the longest stretch of its own work.
    double maxBusyMs() const { return m_busyMs.empty() ? 0.0 : *std::max_element(m_busyMs.begin(), m_busyMs.end()); }
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
    static double threadCpuMs()
    {
        timespec t {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
    }

    int m_tickMs;
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    std::vector<double> m_gapsMs;
    std::vector<double> m_busyMs; // per gap: the thread's CPU time
    double m_lastCpu = 0.0;
};

} // namespace ts::testing
