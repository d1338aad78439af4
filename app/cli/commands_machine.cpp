// tunescope-cli machine: the workspace device's machine profile (FMA peak per thread count, triad bandwidth,
// cache sizes), measured on first use and kept with the device; the ceilings `best` and the roofline view
// compare records against.
#include "commands.h"
#include "interrupt.h"
#include "task_selection.h"

#include "core/engine/machine.h"
#include "core/support/strings.h"

#include <iostream>
#include <unistd.h>

namespace ts::cli {

namespace {

    std::string padLeft(std::string text, size_t width)
    {
        return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
    }

    std::string bytesText(int64_t bytes)
    {
        if (bytes <= 0)
            return "not reported";
        if (bytes >= 1024 * 1024)
            return formatFixed(static_cast<double>(bytes) / (1024.0 * 1024.0), bytes % (1024 * 1024) ? 1 : 0) + " MiB";
        return std::to_string(bytes / 1024) + " KiB";
    }

    int runMachine(const Arguments& args)
    {
        auto workspace = openWorkspace(args, false);
        if (!workspace)
            return fail(workspace.error().message);
        measure::ProfileOptions options;
        auto threads = boundedInt(args, "threads", 0, 0, 4096);
        if (!threads)
            return fail(threads.error().message);
        options.maxThreads = static_cast<int>(*threads);
        InterruptStop interrupt;
        const bool terminal = ::isatty(STDERR_FILENO);
        options.progress = [&](int done, int total) {
            if (!terminal)
                return !interrupt.token().stop_requested();
            std::cerr << "\rmeasuring the machine: " << done << "/" << total << std::flush;
            if (done == total)
                std::cerr << "\r                                   \r" << std::flush;
            return !interrupt.token().stop_requested();
        };
        bool measured = false;
        auto profile = engine::workspaceProfile(*workspace, options, args.has("remeasure"), &measured);
        if (!profile)
            return fail(profile.error().message);
        const measure::MachineProfile& p = *profile;
        std::cout << "# machine profile of " << p.cpu << " (" << store::deviceNameOf(p.target) << ")\n# "
                  << (measured ? "measured now, in " + formatFixed(p.seconds, 1) + " s; kept in "
                               : "measured before, kept in ")
                  << workspace->path() << " ('--remeasure' measures again)\n\n";
        std::cout << "caches (per instance): L1d " << bytesText(p.l1dBytes) << ", L2 " << bytesText(p.l2Bytes)
                  << ", L3 " << bytesText(p.l3Bytes) << "\n\n";
        // A cache level's GB/s, "-" when the profile has none.
        auto level = [&](measure::MemoryLevel at, int n) {
            return padLeft(p.measures(at) ? formatFixed(p.bandwidth(at, n), 1) : std::string("-"), 9);
        };
        std::cout << "threads  FMA peak GFLOP/s  L2 GB/s  L3 GB/s  DRAM GB/s  ridge FLOP/byte (DRAM)\n";
        for (size_t t = 1; t <= p.peakGflops.size(); ++t) {
            const int n = static_cast<int>(t);
            std::cout << padLeft(std::to_string(t), 7) << padLeft(formatFixed(p.peak(n), 1), 18)
                      << level(measure::MemoryLevel::L2, n) << level(measure::MemoryLevel::L3, n)
                      << padLeft(formatFixed(p.bandwidth(n), 1), 11)
                      << padLeft(formatFixed(p.peak(n) / p.bandwidth(n), 1), 24) << "\n";
        }
        std::cout << "\nthe peak is TuneScope's own generated FMA kernel; DRAM is a triad over 3 arrays of "
                  << formatFixed(static_cast<double>(options.triadElements) * 4 / (1024.0 * 1024.0), 0)
                  << " MiB (a = b + 3c; 12 bytes per element counted, as STREAM)\n";
        for (auto [name, set] : { std::pair { "L2", p.l2SetBytes }, std::pair { "L3", p.l3SetBytes } })
            if (set > 0)
                std::cout << name << " sweeps a += b + 3c over " << bytesText(set)
                          << " (16 bytes per element and pass); a kernel whose compulsory traffic fits in twice that "
                             "is bounded by the "
                          << name << "\n";
        return 0;
    }

} // namespace

std::string roofText(
    const measure::MachineProfile& profile, const ir::ComputeDAG& dag, double flops, double seconds, int threads)
{
    const measure::RooflinePoint p = measure::rooflinePoint(
        profile, flops, static_cast<double>(dag.bytesRead() + dag.bytesWritten()), seconds, threads);
    return formatFixed(p.ofPeak * 100, 1) + "% of the FMA peak (" + formatFixed(profile.peak(threads), 1)
        + " GFLOP/s on " + std::to_string(threads) + (threads == 1 ? " thread), " : " threads), ")
        + formatFixed(p.ofRoof * 100, 1) + "% of the roofline at " + formatFixed(p.intensity, 1) + " FLOP/byte ("
        + (p.memoryBound ? std::string(measure::toString(p.level)) + "-bound" : std::string("compute-bound")) + ")";
}

std::vector<Command> machineCommands()
{
    return {
        { "machine", "the machine's limits: FMA peak per thread count, memory bandwidth, caches (measured once)",
            "tunescope-cli machine [--remeasure] [--threads N] [--workspace PATH]",
            { { "remeasure", "", "measure again even if the workspace has a profile for this device" },
                { "threads", "N", "measure the peak on 1..N threads (default: all cores)" }, kWorkspaceOption,
                kHelpOption },
            runMachine },
    };
}

} // namespace ts::cli
