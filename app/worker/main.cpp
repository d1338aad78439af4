// tunescope-worker: measures the candidates that sessions queue in a PostgreSQL workspace, on the machine it
// runs on (engine/measure_worker.h). Qt-free; SIGTERM or Ctrl-C ends it after the candidate in flight.
//   tunescope-worker --workspace postgresql://user@host/db [--device NAME] [--threads K] [--name NAME]
#include "app/cli/arguments.h"
#include "app/cli/interrupt.h"
#include "core/engine/measure_worker.h"
#include "core/support/strings.h"

#include <iostream>

namespace {

using namespace ts;

const std::vector<cli::OptionSpec> kOptions {
    { "workspace", "URL", "the PostgreSQL workspace whose queue to measure, postgresql://user@host[:port]/db" },
    { "device", "NAME", "measure for this device of the workspace (default: this host's CPU)" },
    { "threads", "K", "build threads and kernel threads (default 1)" },
    { "claim", "N", "candidates per claim, built in parallel (default 8)" },
    { "lease", "SECONDS", "how long a claim holds without renewal before another worker may take it (default 60)" },
    { "name", "NAME", "shown in the workbench's Workers list (default host:pid)" },
    { "max-candidates", "N", "exit after measuring N candidates (default: run until stopped)" },
    { "exit-when-idle", "", "exit when the queue has nothing for this device" },
    { "help", "", "show this help" },
};

constexpr const char* kUsage = "tunescope-worker --workspace URL [--device NAME] [--threads K] [--claim N] "
                               "[--lease SECONDS] [--name NAME] [--max-candidates N] [--exit-when-idle]";

int run(int argc, char** argv)
{
    auto args = cli::Arguments::parse(std::vector<std::string>(argv + 1, argv + argc), kOptions);
    if (!args) {
        std::cerr << "tunescope-worker: " << args.error().message << "\nusage: " << kUsage << "\n";
        return 2;
    }
    if (args->has("help")) {
        std::cout << "usage: " << kUsage << "\n\nMeasures queued candidates of a PostgreSQL workspace.\n\n"
                  << cli::optionsHelp(kOptions);
        return 0;
    }
    if (!args->has("workspace")) {
        std::cerr << "tunescope-worker: --workspace postgresql://... is needed\nusage: " << kUsage << "\n";
        return 2;
    }
    engine::WorkerOptions options;
    options.workspace = args->value("workspace");
    options.device = args->value("device", "");
    options.name = args->value("name", "");
    options.exitWhenIdle = args->has("exit-when-idle");
    for (auto [name, target, low] : { std::tuple { "threads", &options.threads, 1 }, { "claim", &options.claim, 1 } })
        if (args->has(name)) {
            auto value = parseInt(args->value(name), std::string("--") + name);
            if (!value || *value < low || *value > 1024) {
                std::cerr << "tunescope-worker: --" << name << " must be 1..1024\n";
                return 2;
            }
            *target = static_cast<int>(*value);
        }
    if (args->has("lease")) {
        auto value = parseInt(args->value("lease"), "--lease");
        if (!value || *value < 1) {
            std::cerr << "tunescope-worker: --lease must be at least 1 second\n";
            return 2;
        }
        options.leaseSeconds = static_cast<double>(*value);
    }
    if (args->has("max-candidates")) {
        auto value = parseInt(args->value("max-candidates"), "--max-candidates");
        if (!value || *value < 1) {
            std::cerr << "tunescope-worker: --max-candidates must be at least 1\n";
            return 2;
        }
        options.maxCandidates = *value;
    }
    cli::InterruptStop interrupt;
    auto stats = engine::runWorker(
        options, interrupt.token(), [](const std::string& line) { std::cout << line << std::endl; });
    if (!stats) {
        std::cerr << "tunescope-worker: " << stats.error().message << "\n";
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) { return run(argc, argv); }
