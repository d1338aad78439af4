#include "app/cli/interrupt.h"

#include <chrono>
#include <csignal>

namespace ts::cli {

namespace {

    volatile std::sig_atomic_t g_signal = 0;
    volatile std::sig_atomic_t g_count = 0;
    struct sigaction g_oldInt { };
    struct sigaction g_oldTerm { };

    extern "C" void onSignal(int sig)
    {
        g_signal = sig;
        g_count = g_count + 1;
    }

    void install()
    {
        g_signal = 0;
        g_count = 0;
        struct sigaction action { };
        action.sa_handler = onSignal;
        sigemptyset(&action.sa_mask);
        // Both signals blocked while the handler runs on this thread (two at the same instant may count once).
        sigaddset(&action.sa_mask, SIGINT);
        sigaddset(&action.sa_mask, SIGTERM);
        ::sigaction(SIGINT, &action, &g_oldInt);
        ::sigaction(SIGTERM, &action, &g_oldTerm);
    }

    void restore()
    {
        ::sigaction(SIGINT, &g_oldInt, nullptr);
        ::sigaction(SIGTERM, &g_oldTerm, nullptr);
    }

} // namespace

InterruptStop::InterruptStop()
    : m_count([this](int count, int) {
        if (count == 1)
            m_source.request_stop();
    })
{
}

int InterruptStop::signal() const { return g_signal; }

InterruptCount::InterruptCount(std::function<void(int count, int signal)> onSignal)
{
    install();
    m_watcher = std::jthread([onSignal = std::move(onSignal)](std::stop_token done) {
        int seen = 0;
        while (!done.stop_requested()) {
            const int count = g_count;
            while (seen < count)
                onSignal(++seen, g_signal);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

InterruptCount::~InterruptCount()
{
    m_watcher.request_stop();
    m_watcher.join();
    restore();
}

int InterruptCount::count() const { return g_count; }

} // namespace ts::cli
