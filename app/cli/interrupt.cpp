#include "app/cli/interrupt.h"

#include <chrono>
#include <csignal>

namespace ts::cli {

namespace {

    volatile std::sig_atomic_t g_signal = 0;
    struct sigaction g_oldInt { };
    struct sigaction g_oldTerm { };

    extern "C" void onSignal(int sig) { g_signal = sig; }

} // namespace

InterruptStop::InterruptStop()
{
    g_signal = 0;
    struct sigaction action { };
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &g_oldInt);
    ::sigaction(SIGTERM, &action, &g_oldTerm);
    m_watcher = std::jthread([this](std::stop_token done) {
        while (!done.stop_requested()) {
            if (g_signal != 0) {
                m_source.request_stop();
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
}

InterruptStop::~InterruptStop()
{
    m_watcher.request_stop();
    m_watcher.join();
    ::sigaction(SIGINT, &g_oldInt, nullptr);
    ::sigaction(SIGTERM, &g_oldTerm, nullptr);
}

int InterruptStop::signal() const { return g_signal; }

} // namespace ts::cli
