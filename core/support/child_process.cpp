#include "core/support/child_process.h"

#include <csignal>
#include <cstring>
#include <sys/wait.h>

namespace ts {

std::string endChild(pid_t pid)
{
    if (pid <= 0)
        return "";
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    if (WIFSIGNALED(status))
        return std::string("killed by ") + strsignal(WTERMSIG(status));
    if (WEXITSTATUS(status) == 127)
        return "could not be started";
    return WEXITSTATUS(status) == 0 ? "" : "exit status " + std::to_string(WEXITSTATUS(status));
}

} // namespace ts
