// Measurer for GPU targets: bundles (gpu_bundle.h) run by tunescope-gpu-runner, results streamed back.
#include "core/measure/gpu_bundle.h"
#include "core/measure/measurer.h"
#include "core/support/child_process.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ts::measure {

namespace {
    // The runner as a child process whose standard output we read; killed when we go.
    class GpuRunnerChild {
    public:
        // The runner at `path` on the file `bundles`; with `shell`, `path` is a shell command that reads the
        // bundles from its standard input.
        bool start(const std::string& path, const std::string& bundles, bool shell = false)
        {
            int out[2];
            if (pipe(out) != 0)
                return false;
            m_pid = fork();
            if (m_pid < 0)
                return false;
            if (m_pid == 0) {
                dup2(out[1], STDOUT_FILENO);
                close(out[0]);
                close(out[1]);
                if (shell) {
                    const int in = open(bundles.c_str(), O_RDONLY);
                    if (in < 0)
                        _exit(127);
                    dup2(in, STDIN_FILENO);
                    close(in);
                    execl("/bin/sh", "sh", "-c", path.c_str(), static_cast<char*>(nullptr));
                } else {
                    execl(path.c_str(), path.c_str(), bundles.c_str(), static_cast<char*>(nullptr));
                }
                _exit(127);
            }
            close(out[1]);
            m_fd = out[0];
            return true;
        }
        ~GpuRunnerChild() { stop(); }

        // The next line, waiting in slices of 100 ms for the stop; nullopt at the end or on a stop.
        std::optional<std::string> nextLine(const std::stop_token& stop)
        {
            while (true) {
                if (auto newline = m_buffer.find('\n'); newline != std::string::npos) {
                    std::string line = m_buffer.substr(0, newline);
                    m_buffer.erase(0, newline + 1);
                    return line;
                }
                if (stop.stop_requested() || m_fd < 0)
                    return std::nullopt;
                pollfd p { m_fd, POLLIN, 0 };
                if (poll(&p, 1, 100) <= 0)
                    continue;
                char chunk[65536];
                const ssize_t n = read(m_fd, chunk, sizeof chunk);
                if (n <= 0) {
                    close(m_fd);
                    m_fd = -1;
                    continue;
                }
                m_buffer.append(chunk, static_cast<size_t>(n));
            }
        }

        // How it ended: "" for exit status 0.
        std::string stop()
        {
            if (m_fd >= 0)
                close(m_fd);
            m_fd = -1;
            const std::string ended = endChild(m_pid);
            m_pid = -1;
            return ended;
        }

    private:
        pid_t m_pid = -1;
        int m_fd = -1;
        std::string m_buffer;
    };

    // The exchange file of a batch, without its extension: <dir>/<prefix>K, K counting this process's batches.
    std::filesystem::path exchangeStem(const std::string& dir)
    {
        static std::atomic<int> batches { 0 };
        return std::filesystem::path(dir) / (gpuExchangeBatchPrefix() + std::to_string(++batches));
    }

    // Waits, in slices of 200 ms, until `path` exists; false on a stop.
    bool waitForFile(const std::filesystem::path& path, const std::stop_token& stop)
    {
        std::error_code ignored;
        while (!std::filesystem::exists(path, ignored)) {
            if (stop.stop_requested())
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        return true;
    }
} // namespace

std::string gpuExchangeBatchPrefix() { return "batch-" + std::to_string(::getpid()) + "-"; }

GpuBundleOptions gpuBundleOptions(const MeasureOptions& m)
{
    GpuBundleOptions options;
    options.timing = m.timing;
    options.timeoutMs = m.buildTimeoutMs + m.runTimeoutMs;
    options.seed = m.seed;
    options.rtol = m.rtol;
    options.atol = m.atol;
    options.ptx = false; // the runner compiles a batch's CUDA C for its own GPU, on all its machine's cores
    return options;
}

int Measurer::measureOnGpu(const ir::ComputeDAG& task, const std::vector<sched::State>& states,
    const MeasureCallbacks& callbacks, std::stop_token stop)
{
    const size_t total = states.size();
    MeasureProgress progress { 0, 0, static_cast<int>(total) };
    int delivered = 0;
    auto deliver = [&](size_t index, MeasureResult result) {
        ++progress.done;
        ++delivered;
        if (callbacks.onResult)
            callbacks.onResult(static_cast<int>(index), std::move(result));
        if (callbacks.onProgress)
            callbacks.onProgress(progress);
    };
    const GpuBundleOptions options = gpuBundleOptions(m_options);

    // Build: a bundle per candidate; failures delivered at once.
    std::string error;
    const Reference* ref = reference(task, &error);
    std::string lines;
    std::vector<size_t> queued;
    for (size_t i = 0; i < total && !stop.stop_requested(); ++i) {
        const auto started = std::chrono::steady_clock::now();
        GpuBuild built = ref ? buildGpuBundle(states[i], m_options.target, *ref, std::to_string(i), "", options)
                             : GpuBuild { "", MeasureStatus::UnknownError, "no reference: " + error };
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        ++progress.built;
        if (built.status != MeasureStatus::Ok) {
            deliver(i, record::failedResult(built.status, built.message, seconds));
            continue;
        }
        lines += built.line + "\n";
        queued.push_back(i);
    }
    if (stop.stop_requested() || queued.empty())
        return delivered;

    std::vector<bool> done(total, false);
    auto take = [&](const std::string& line) {
        auto result = parseGpuResult(line);
        if (!result)
            return;
        const size_t index = static_cast<size_t>(std::strtoul(result->id.c_str(), nullptr, 10));
        if (index >= total || done[index])
            return;
        done[index] = true;
        deliver(index, std::move(result->result));
    };
    auto failMissing = [&](const std::string& why) {
        for (size_t i : queued)
            if (!done[i])
                deliver(i, record::failedResult(MeasureStatus::RuntimeDeviceError, why, 0.0));
    };

    // Measured elsewhere: the bundles go to the exchange directory, the results come back as a file.
    if (!m_options.gpuExchangeDir.empty()) {
        const std::filesystem::path stem = exchangeStem(m_options.gpuExchangeDir);
        const std::filesystem::path bundles = stem.string() + ".jsonl", results = stem.string() + ".results.jsonl";
        const std::string part = bundles.string() + ".part"; // whole files only, for whoever watches
        std::ofstream out(part);
        out << lines;
        out.close();
        std::error_code renamed;
        if (!out.fail())
            std::filesystem::rename(part, bundles, renamed);
        if (out.fail() || renamed) {
            failMissing("cannot write the exchange file " + bundles.string());
            return delivered;
        }
        if (!waitForFile(results, stop))
            return delivered;
        std::ifstream in(results);
        for (std::string line; std::getline(in, line);)
            take(line);
        failMissing("no result for this bundle in " + results.string());
        return delivered;
    }

    // Run: the runner measures the batch; each result line is delivered as it comes.
    const std::filesystem::path file = std::filesystem::temp_directory_path()
        / ("tunescope-gpu-" + std::to_string(::getpid()) + "-" + std::to_string(reinterpret_cast<uintptr_t>(this))
            + ".jsonl");
    {
        std::ofstream out(file);
        out << lines;
    }
    const bool shell = !m_options.gpuRunnerCommand.empty();
    const std::string path = shell        ? m_options.gpuRunnerCommand
        : m_options.gpuRunnerPath.empty() ? defaultGpuRunnerPath()
                                          : m_options.gpuRunnerPath;
    GpuRunnerChild runner;
    if (runner.start(path, file.string(), shell)) {
        while (auto line = runner.nextLine(stop))
            take(*line);
    }
    const std::string ended = runner.stop();
    std::filesystem::remove(file);
    if (stop.stop_requested())
        return delivered;
    failMissing((shell ? "the runner command (" + path + ")" : "tunescope-gpu-runner (" + path + ")")
        + " gave no result" + (ended.empty() ? std::string() : " (" + ended + ")"));
    return delivered;
}

} // namespace ts::measure
