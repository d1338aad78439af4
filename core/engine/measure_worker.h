// tunescope-worker's loop (DESIGN: "tunescope-worker measures on any machine"): claim queued candidates of a
// PostgreSQL workspace for this machine's device, build and run them with the local measurer and runner,
// write each result as it completes, keep the lease fresh, and sleep on LISTEN tunescope_queue when there is
// nothing to do.
//
// - The device: this host's (store::deviceOf(Target::host()), found or added like a session's), or the one
//   named with `device` (a CPU device must be this host's CPU: a worker never times code for another).
// - A claim takes up to `claim` candidates of one batch, so the measurer builds them in parallel as it would
//   for a local session. Each result is written as it arrives; the lease of the rest is renewed with it.
// - A stop (SIGTERM in the tool) ends the candidate in flight, gives the rest of the claim back to the queue
//   and marks the worker stopped. A worker killed outright loses its lease when it runs out
//   (`leaseSeconds`), and another worker measures its candidates again.
// - A candidate whose task cannot be rebuilt here (a task TuneScope knows only by its DAG hash) or whose steps
//   do not replay is one failed result with the reason, like any failed measurement.
#pragma once

#include "core/support/error.h"

#include <functional>
#include <stop_token>
#include <string>

namespace ts::engine {

struct WorkerOptions {
    std::string workspace; // postgresql://...
    std::string name; // shown in the workbench; empty: host:pid
    std::string device; // a device name of the workspace; empty: this host
    int threads = 1; // build threads and kernel threads
    int claim = 8; // candidates per claim
    double leaseSeconds = 60;
    int idleWaitMs = 5000; // the longest sleep between looks at the queue with no notification
    int64_t maxCandidates = 0; // stop after this many (tests, benchmarks); 0: run until stopped
    bool exitWhenIdle = false; // stop when a look finds nothing to claim (benchmarks)
};

struct WorkerStats {
    int64_t workerId = 0;
    int64_t measured = 0; // results written
    int64_t failed = 0; // of those, failed measurements
    int64_t refused = 0; // results whose lease was lost meanwhile (not written)
    int64_t released = 0; // candidates given back at the stop
    double seconds = 0; // from start to stop
    double queueSeconds = 0; // of those, in the work queue's statements (the server's share)
};

// Runs until `stop` (or maxCandidates, or idle with exitWhenIdle). `log` gets one line per claim and event.
Expected<WorkerStats> runWorker(
    const WorkerOptions& options, std::stop_token stop, const std::function<void(const std::string&)>& log);

} // namespace ts::engine
