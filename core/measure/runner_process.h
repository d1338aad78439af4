// The engine's handle on a tunescope-runner child process: started on first use, fed one request at a
// time, killed after a timeout and restarted after a crash. Whatever the kernel does, the engine gets a
// RunReply back: a crash becomes RuntimeDeviceError ("runner died: signal 11 (Segmentation fault)"), a
// hang RunTimeout. A stop request kills the child at once (a kernel cannot be interrupted otherwise);
// the next run starts a new one.
#pragma once

#include "core/measure/protocol.h"

#include <optional>
#include <stop_token>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ts::measure {

class RunnerProcess {
public:
    explicit RunnerProcess(std::string executable);
    ~RunnerProcess();
    RunnerProcess(const RunnerProcess&) = delete;
    RunnerProcess& operator=(const RunnerProcess&) = delete;

    // timeoutMs covers sending, running and the reply. std::nullopt when a stop was requested before the
    // reply came: the child has been killed and reaped by then.
    std::optional<RunReply> run(const RunRequest& request, int64_t timeoutMs, std::stop_token stopToken = {});
    // How many times a child has been started (for tests and logs).
    int starts() const { return m_starts; }

private:
    Expected<void> start();
    // Kills (if needed) and reaps the child; returns how it ended.
    std::string stop(bool kill);

    std::string m_executable;
    pid_t m_pid = -1;
    int m_fd = -1;
    int m_cancelFd = -1; // an eventfd a stop request writes to, polled with m_fd
    int m_starts = 0;
};

// The runner next to the running executable, else the one in the build tree, else $TUNESCOPE_RUNNER.
std::string defaultRunnerPath();

// `name` in one of `dirs` (relative to this program's directory), the first that has it; empty when none.
std::string findBesideThisProgram(const std::string& name, const std::vector<std::string>& dirs);

// Links the request's kernel into this process, fills its arguments, times it and collects the outputs.
// What tunescope-runner does per request, and what Measurer does itself when isolate is off.
RunReply runRequest(const RunRequest& request);

// The child side: serves requests on fd until it closes. Returns the process exit code.
int runnerMain(int fd);

} // namespace ts::measure
