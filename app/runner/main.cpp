// tunescope-runner: runs kernels for the engine in a process of its own (see core/measure/runner_process.h).
// Started by the engine with --fd=N, the socket it is served on; not meant to be started by hand.
#include "core/measure/runner_process.h"

#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv)
{
    int fd = -1;
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--fd=", 5) == 0)
            fd = std::stoi(argv[i] + 5);
    if (fd < 0) {
        std::fprintf(stderr, "tunescope-runner: started by the TuneScope engine only (--fd=N)\n");
        return 2;
    }
    return ts::measure::runnerMain(fd);
}
