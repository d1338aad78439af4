// What `tunescope-cli tune` prints of a session's events (core/engine/tuning_session.h), in Ansor's words:
// after each round its table (ID, task, latency, GFLOP/s, trials) and "Estimated total latency: ... Trials:
// ... Used time: ..."; a task the scheduler stopped, once; each re-measured best; the end. While a batch is
// measured, a progress line on stderr, overwritten in place, only when stderr is a terminal (a log file
// gets none). Events arrive on the session's thread, notes (Ctrl-C) on the watcher's; one mutex orders them.
// Private to tunescope-cli.
#pragma once

#include "core/engine/tuning_session.h"

#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace ts::cli {

class TunePrinter {
public:
    // `ids`: what each task of the session is called in the table (its id in `tunescope-cli tasks`).
    explicit TunePrinter(std::vector<int> ids);

    void print(const engine::TuneEvent& event);
    // A line on stderr, "tunescope-cli: <text>", from any thread.
    void note(const std::string& text);
    // Holds the printer: events wait until the lock is released (the command's header goes first).
    std::unique_lock<std::mutex> hold() { return std::unique_lock(m_mutex); }

    // Ansor's table of the tasks' status, with the line under it; `trials`/`elapsed`: the session's.
    std::string table(
        const std::vector<engine::TaskStatus>& tasks, double estimatedLatency, int trials, double elapsed) const;

private:
    void printProgress(const engine::BatchProgress& p);
    void clearProgress();
    int idOf(int task) const;

    std::mutex m_mutex;
    std::vector<int> m_ids;
    bool m_terminal = false;
    bool m_progressShown = false;
    int m_round = 0;
    std::set<int> m_stoppedShown;
    std::vector<engine::ShadowMetrics> m_shadows; // every round's, for the summary at the end
};

} // namespace ts::cli
