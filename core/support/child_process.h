// Ending a child process this process started: what the measurement runners (tunescope-runner's host, the
// GPU measurer, tunescope-gpu-runner's worker) share. std and POSIX only, so tunescope-gpu-runner compiles it.
#pragma once

#include <string>
#include <sys/types.h>

namespace ts {

// Reaps `pid`, killing it first (SIGKILL) when it has not ended; how it ended, for messages: "" for exit
// status 0, "killed by Killed", "exit status 3", or "could not be started" (exit status 127, exec failed).
std::string endChild(pid_t pid);

} // namespace ts
