// Ctrl-C (SIGINT) and SIGTERM as a stop request, for commands that run long work with a std::stop_token.
// While an InterruptStop lives, the signals set a flag (the only thing a handler may safely do) and a
// watcher thread turns the flag into stop_source::request_stop(); the old handlers come back when it dies.
// Private to tunescope-cli.
#pragma once

#include <functional>
#include <stop_token>
#include <thread>

namespace ts::cli {

class InterruptStop {
public:
    InterruptStop();
    ~InterruptStop();
    InterruptStop(const InterruptStop&) = delete;
    InterruptStop& operator=(const InterruptStop&) = delete;

    std::stop_token token() const { return m_source.get_token(); }
    // The signal that asked to stop, or 0.
    int signal() const;

private:
    std::stop_source m_source;
    std::jthread m_watcher;
};

// Every Ctrl-C (or SIGTERM) while it lives, counted: the watcher thread calls onSignal(count, signal) once per
// signal, count 1 for the first. For commands whose first Ctrl-C asks to stop softly and the second hard
// (tune: stop after the batch in flight, then abort it). Only one of InterruptStop and InterruptCount lives
// at a time.
class InterruptCount {
public:
    explicit InterruptCount(std::function<void(int count, int signal)> onSignal);
    ~InterruptCount();
    InterruptCount(const InterruptCount&) = delete;
    InterruptCount& operator=(const InterruptCount&) = delete;

    // Signals seen so far.
    int count() const;

private:
    std::jthread m_watcher;
};

} // namespace ts::cli
