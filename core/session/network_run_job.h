// Run network, for the workbench: `tunescope-cli run ... --json` in a child process, so a kernel that crashes or
// hangs costs the run and never the window, read back as a runtime::NetworkRun. The same command a user types,
// so the window and the command line measure the same thing.
#pragma once

#include "core/runtime/network_run.h"
#include "core/session/job_context.h"

#include <string>
#include <vector>

namespace ts::session {

struct NetworkRunRequest {
    std::string network; // a zoo name or an ONNX model's absolute path (as sessions name it)
    int64_t batch = 1;
    std::string layout = "NCHW";
    std::string workspace; // the records to run from
    int repeat = 20;
    int threads = 0; // 0: all cores
    bool compareLibTorch = false;
};

// tunescope-cli beside this program (or $TUNESCOPE_CLI).
std::string cliProgram();

// Runs the network in a child process and returns its report. Progress follows the command's output lines;
// a stop request kills the child. Errors: the child failed (its last error line), crashed, or wrote no report.
Expected<runtime::NetworkRun> runNetworkInChild(const NetworkRunRequest& request, JobContext& context);

} // namespace ts::session
