#include "core/measure/runner_process.h"

#include "core/record/measure_status.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ts::measure {

RunnerProcess::RunnerProcess(std::string executable)
    : m_executable(std::move(executable))
{
}

RunnerProcess::~RunnerProcess()
{
    stop(true);
    if (m_cancelFd >= 0)
        ::close(m_cancelFd);
}

Expected<void> RunnerProcess::start()
{
    if (!std::filesystem::exists(m_executable))
        return makeError(ErrorKind::NotFound, "runner executable " + m_executable + " does not exist");
    if (m_cancelFd < 0)
        m_cancelFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_cancelFd < 0)
        return makeError(ErrorKind::Io, std::string("eventfd: ") + std::strerror(errno));
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return makeError(ErrorKind::Io, std::string("socketpair: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 3); // the child's end is fd 3
    std::string fdArg = "--fd=3";
    char* argv[] = { m_executable.data(), fdArg.data(), nullptr };
    // The runner gets its own process group and default signal handling: a Ctrl-C at the terminal reaches
    // the engine, which stops the run and kills the runner itself, instead of killing the runner first and
    // turning a stop into a failed record.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, m_executable.c_str(), &actions, &attributes, argv, environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        return makeError(ErrorKind::Io, "starting " + m_executable + ": " + std::strerror(rc));
    }
    m_pid = pid;
    m_fd = fds[0];
    ++m_starts;
    return {};
}

std::string RunnerProcess::stop(bool kill)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    if (m_pid <= 0)
        return {};
    if (kill)
        ::kill(m_pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) { }
    m_pid = -1;
    if (WIFSIGNALED(status))
        return "signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
    if (WIFEXITED(status))
        return "exit code " + std::to_string(WEXITSTATUS(status));
    return "unknown status";
}

std::optional<RunReply> RunnerProcess::run(const RunRequest& request, int64_t timeoutMs, std::stop_token stopToken)
{
    if (stopToken.stop_requested())
        return std::nullopt;
    RunReply failed;
    if (m_pid <= 0) {
        if (auto started = start(); !started) {
            failed.status = record::MeasureStatus::RuntimeDeviceError;
            failed.message = started.error().message;
            return failed;
        }
    }
    uint64_t pending;
    while (::read(m_cancelFd, &pending, sizeof pending) > 0) { } // a stop from an earlier run
    // Runs on the thread that requests the stop: wakes the poll in readMessage.
    std::stop_callback onStop(stopToken, [fd = m_cancelFd] {
        const uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(fd, &one, sizeof one);
    });
    std::vector<char> reply;
    ReadStatus status = ReadStatus::Closed;
    if (writeMessage(m_fd, encode(request)))
        status = readMessage(m_fd, reply, timeoutMs, m_cancelFd);
    if (status == ReadStatus::Cancelled) {
        stop(true);
        return std::nullopt;
    }
    if (status == ReadStatus::Ok) {
        if (auto decoded = decodeReply(reply))
            return std::move(decoded).value();
        status = ReadStatus::Malformed;
    }
    if (status == ReadStatus::TimedOut) {
        stop(true);
        failed.status = record::MeasureStatus::RunTimeout;
        failed.message = "no result within " + std::to_string(timeoutMs) + " ms; the runner was killed";
        return failed;
    }
    // The child died (or spoke garbage): reap it and say how it ended; the next run starts a new one.
    const std::string how = stop(status == ReadStatus::Malformed);
    failed.status = record::MeasureStatus::RuntimeDeviceError;
    failed.message = "runner died: " + how;
    return failed;
}

std::string findBesideThisProgram(const std::string& name, const std::vector<std::string>& dirs)
{
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        return {};
    for (const std::string& dir : dirs) {
        const auto candidate = self.parent_path() / dir / name;
        if (std::filesystem::exists(candidate))
            return std::filesystem::weakly_canonical(candidate).string();
    }
    return {};
}

std::string defaultRunnerPath()
{
    if (const char* env = std::getenv("TUNESCOPE_RUNNER"))
        return env;
    if (std::string found = findBesideThisProgram("tunescope-runner", { ".", "..", "../app", "../../app" });
        !found.empty())
        return found;
#ifdef TS_RUNNER_BUILD_PATH
    return TS_RUNNER_BUILD_PATH;
#else
    return "tunescope-runner";
#endif
}

} // namespace ts::measure
