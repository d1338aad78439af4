// Ctrl-C (SIGINT) and SIGTERM for commands that run long work. While an InterruptCount lives, the signals set a
// flag and a count (the only things a handler may safely do) and a watcher thread hands each signal to a
// callback; the old handlers come back when it dies. InterruptStop turns the first signal into
// stop_source::request_stop(), for work that takes a std::stop_token. Private to tunescope-cli.
#pragma once

#include <functional>
#include <stop_token>
#include <thread>

namespace ts::cli {

// Every Ctrl-C (or SIGTERM) while it lives, counted: the watcher thread calls onSignal(count, signal) once per
// signal, count 1 for the first. For commands whose first Ctrl-C asks to stop softly and the second hard
// (tune: stop after the batch in flight, then abort it). Only one lives at a time (an InterruptStop holds
// one).
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

// The first Ctrl-C (or SIGTERM) as a stop request.
class InterruptStop {
public:
    InterruptStop();
    InterruptStop(const InterruptStop&) = delete;
    InterruptStop& operator=(const InterruptStop&) = delete;

    std::stop_token token() const { return m_source.get_token(); }
    // The signal that asked to stop, or 0.
    int signal() const;

private:
    std::stop_source m_source; // before m_count: its watcher requests the stop until it is joined
    InterruptCount m_count;
};

} // namespace ts::cli
