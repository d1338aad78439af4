// tunescope-gpu-runner: measures kernel bundles on this machine's GPU and prints one result per bundle as a
// JSON line (bundle.h). Its only dependencies are the CUDA driver and NVRTC, both opened at run time, so it
// builds with CMake and the CUDA toolkit alone and runs on a GPU machine that has nothing else installed.
//
//   tunescope-gpu-runner [--output FILE] [--jobs N] BUNDLES
//                                                  measure every bundle (one JSON object per line; - = stdin),
//                                                  their CUDA C compiled first for this GPU in N processes
//   tunescope-gpu-runner --check BUNDLES           read them (and compile CUDA C with NVRTC where present), run nothing
//   tunescope-gpu-runner --info                    the GPU, as JSON
//
// A kernel that faults or hangs costs its own bundle, never the run: bundles run in a worker child process
// (forked before anything touches CUDA). A bundle past its timeout gets the worker killed (error 7, run
// timeout); a fault that loses the CUDA context, or a worker that dies, gives that bundle error 4 (runtime
// device); a new worker takes the next bundle.
#include "gpu_runner/bundle.h"
#include "gpu_runner/run_bundle.h"

#include "core/codegen/nvrtc.h"
#include "core/support/child_process.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ts;
using namespace ts::gpurunner;

namespace {
struct Line {
    int number = 0; // 1-based, for messages
    Expected<Bundle> bundle;
};

std::vector<Line> readBundles(std::istream& in)
{
    std::vector<Line> lines;
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
        if (text.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        lines.push_back(Line { n, parseBundle(text) });
    }
    return lines;
}

// The worker: reads bundle indices from `in`, writes "R <json>" (or "F <json>" and exits when the CUDA
// context is lost) to `out`.
[[noreturn]] void worker(const std::vector<Line>& lines, int in, int out)
{
    FILE* requests = fdopen(in, "r");
    FILE* replies = fdopen(out, "w");
    char request[32];
    while (std::fgets(request, sizeof request, requests)) {
        const size_t index = static_cast<size_t>(std::strtoul(request, nullptr, 10));
        const Outcome outcome = runBundle(lines[index].bundle.value());
        std::fprintf(replies, "%c %s\n", outcome.contextLost ? 'F' : 'R', toJsonLine(outcome.result).c_str());
        std::fflush(replies);
        if (outcome.contextLost)
            _exit(0);
    }
    _exit(0);
}

class WorkerProcess {
public:
    explicit WorkerProcess(const std::vector<Line>& lines)
        : m_lines(lines)
    {
    }
    ~WorkerProcess() { stop(); }

    // Runs bundle `index` in the worker (started on demand), waiting at most timeoutMs; its result line.
    std::string run(size_t index, int timeoutMs)
    {
        const Bundle& b = m_lines[index].bundle.value();
        auto failed = [&](RunError error, std::string message, double allCost = 0.0) {
            RunResult r;
            r.id = b.id;
            r.record = b.record;
            r.error = error;
            r.message = std::move(message);
            r.allCost = allCost;
            return toJsonLine(r);
        };
        if (m_pid <= 0 && !start())
            return failed(RunError::Unknown, "could not start a worker process");
        const auto began = std::chrono::steady_clock::now();
        const std::string request = std::to_string(index) + "\n";
        if (write(m_toWorker, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
            stop();
            return failed(RunError::RuntimeDevice, "the worker process is gone");
        }
        std::string reply;
        while (reply.empty() || reply.back() != '\n') {
            const int left = timeoutMs
                - static_cast<int>(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count());
            pollfd p { m_fromWorker, POLLIN, 0 };
            if (left <= 0 || poll(&p, 1, left) == 0) {
                stop();
                return failed(RunError::RunTimeout,
                    "no result after " + std::to_string(timeoutMs) + " ms: the worker was killed", timeoutMs * 1e-3);
            }
            char buffer[65536];
            const ssize_t n = read(m_fromWorker, buffer, sizeof buffer);
            if (n <= 0) {
                return failed(RunError::RuntimeDevice, "the worker process died running this bundle (" + stop() + ")");
            }
            reply.append(buffer, static_cast<size_t>(n));
        }
        // "R <line>", or "F <line>" when the CUDA context was lost and the worker ended.
        if (reply[0] == 'F')
            stop();
        reply.pop_back();
        return reply.substr(2);
    }

private:
    bool start()
    {
        int requests[2], replies[2];
        if (pipe(requests) != 0 || pipe(replies) != 0)
            return false;
        std::fflush(nullptr);
        m_pid = fork();
        if (m_pid < 0)
            return false;
        if (m_pid == 0) {
            close(requests[1]);
            close(replies[0]);
            worker(m_lines, requests[0], replies[1]);
        }
        close(requests[0]);
        close(replies[1]);
        m_toWorker = requests[1];
        m_fromWorker = replies[0];
        return true;
    }

    // Ends the worker; how it ended, for messages.
    std::string stop()
    {
        if (m_pid <= 0)
            return "";
        close(m_toWorker);
        close(m_fromWorker);
        const std::string ended = endChild(m_pid);
        m_pid = -1;
        return ended.empty() ? "exit status 0" : ended;
    }

    const std::vector<Line>& m_lines;
    pid_t m_pid = -1;
    int m_toWorker = -1, m_fromWorker = -1;
};

// This GPU's architecture ("sm_90"), asked in a child process so that this one never touches CUDA before it
// forks its workers; empty where there is no GPU.
std::string probeArch()
{
    int reply[2];
    if (pipe(reply) != 0)
        return "";
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0)
        return "";
    if (pid == 0) {
        close(reply[0]);
        auto arch = deviceArch();
        const std::string text = arch ? *arch : "";
        [[maybe_unused]] ssize_t n = write(reply[1], text.data(), text.size());
        _exit(0);
    }
    close(reply[1]);
    std::string arch;
    char buffer[64];
    for (ssize_t n; (n = read(reply[0], buffer, sizeof buffer)) > 0;)
        arch.append(buffer, static_cast<size_t>(n));
    close(reply[0]);
    endChild(pid);
    return arch;
}

std::string readWhole(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Compiles every bundle's CUDA C to a cubin for `arch` in `jobs` child processes, so that the worker only
// loads and runs: a file of a few hundred bundles compiles in seconds on a many-core GPU machine rather than
// one after another. Children, not threads of this process: NVRTC may initialize the CUDA driver (a driver
// initialized here before the fork leaves every worker's cuInit failing), and it runs one compile at a time
// per process. Each child writes its cubins (or NVRTC's errors) to a temporary folder. A compile still going after
// `deadlineSeconds` is left to the worker, under its bundle's timeout.
void compileAhead(std::vector<Line>& lines, const std::string& arch, int jobs, int deadlineSeconds)
{
    char dirTemplate[] = "/tmp/tunescope-gpu-runner-XXXXXX";
    if (!mkdtemp(dirTemplate))
        return;
    const std::string dir = dirTemplate;
    auto fileOf = [&](size_t i, const char* ext) { return dir + "/" + std::to_string(i) + ext; };
    // One process per job: NVRTC serializes compiles within a process (16 threads compiled no faster than one).
    std::vector<pid_t> children;
    for (int job = 0; job < jobs; ++job) {
        std::fflush(nullptr);
        const pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid > 0) {
            children.push_back(pid);
            continue;
        }
        for (size_t i = static_cast<size_t>(job); i < lines.size(); i += static_cast<size_t>(jobs)) {
            if (!lines[i].bundle || lines[i].bundle->source.empty())
                continue;
            const Bundle& b = *lines[i].bundle;
            auto cubin = codegen::compileToCubin(b.source, arch, b.id.empty() ? "bundle" : b.id);
            if (!cubin && cubin.error().kind != ErrorKind::InvalidArgument)
                continue; // not the code: no NVRTC here, or one that cannot write cubins
            const std::string text = cubin ? cubin->ptx : cubin.error().message;
            const std::string path = fileOf(i, cubin ? ".cubin" : ".error");
            std::ofstream(path + ".part", std::ios::binary) << text;
            std::rename((path + ".part").c_str(), path.c_str()); // whole files only
        }
        _exit(0);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(deadlineSeconds);
    bool late = false;
    for (pid_t pid : children) {
        while (!late && waitpid(pid, nullptr, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() <= deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                continue;
            }
            late = true;
            std::cerr << "tunescope-gpu-runner: compiling ahead took over " << deadlineSeconds
                      << " s; the bundles not compiled yet compile when they run\n";
            for (pid_t child : children)
                kill(child, SIGKILL);
        }
        if (late)
            waitpid(pid, nullptr, 0);
    }
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].bundle)
            continue;
        if (const std::string cubin = fileOf(i, ".cubin"); access(cubin.c_str(), F_OK) == 0)
            lines[i].bundle->cubin = readWhole(cubin);
        else if (const std::string error = fileOf(i, ".error"); access(error.c_str(), F_OK) == 0)
            lines[i].bundle->compileError = readWhole(error);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
}

int usage()
{
    std::cerr << "usage: tunescope-gpu-runner [--output FILE] [--jobs N] BUNDLES | --check BUNDLES | --info\n"
                 "  BUNDLES: a file of kernel bundles, one JSON object per line (- for standard input)\n"
                 "  --arch sm_XX: compile ahead for this architecture (default: this machine's GPU's)\n"
                 "  --jobs N: processes compiling the bundles' CUDA C before the runs (default: every core; 0: none,\n"
                 "            each bundle's PTX or CUDA C is then compiled when it runs)\n";
    return 2;
}
} // namespace

int main(int argc, char** argv)
{
    signal(SIGPIPE, SIG_IGN);
    std::vector<std::string> args(argv + 1, argv + argc);
    bool check = false;
    std::optional<std::string> output;
    int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::string input, arch;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--info") {
            auto info = deviceInfoJson();
            if (!info) {
                std::cerr << "tunescope-gpu-runner: " << info.error().message << "\n";
                return 1;
            }
            std::cout << *info << "\n";
            return 0;
        }
        if (args[i] == "--check")
            check = true;
        else if (args[i] == "--output" && i + 1 < args.size())
            output = args[++i];
        else if (args[i] == "--arch" && i + 1 < args.size())
            arch = args[++i];
        else if (args[i] == "--jobs" && i + 1 < args.size()) {
            char* end = nullptr;
            const long n = std::strtol(args[++i].c_str(), &end, 10);
            if (*end || n < 0 || n > 1024)
                return usage();
            jobs = static_cast<int>(n);
        } else if (args[i] == "--help" || args[i] == "-h")
            return usage(), 0;
        else if (input.empty() && (args[i] == "-" || args[i][0] != '-'))
            input = args[i];
        else
            return usage();
    }
    if (input.empty())
        return usage();
    std::vector<Line> lines;
    if (input == "-") {
        lines = readBundles(std::cin);
    } else {
        std::ifstream file(input);
        if (!file) {
            std::cerr << "tunescope-gpu-runner: cannot read " << input << "\n";
            return 1;
        }
        lines = readBundles(file);
    }

    if (check) {
        int bad = 0;
        const bool nvrtc = codegen::nvrtcVersion().hasValue();
        for (const Line& line : lines) {
            if (!line.bundle) {
                std::cout << input << ":" << line.number << ": " << line.bundle.error().message << "\n";
                ++bad;
                continue;
            }
            const Bundle& b = *line.bundle;
            std::string status = "ok";
            if (!b.source.empty() && nvrtc) {
                auto ptx = codegen::compileToPtx(b.source, "", b.id);
                status = ptx ? "ok, compiles with NVRTC" : ptx.error().message;
                bad += ptx ? 0 : 1;
            }
            std::cout << input << ":" << line.number << ": " << b.id << ": " << b.kernels.size() << " kernel"
                      << (b.kernels.size() == 1 ? "" : "s") << ", " << b.buffers.size() << " buffers, "
                      << b.expected.size() << " checked outputs: " << status << "\n";
        }
        return bad == 0 ? 0 : 1;
    }

    std::ofstream file;
    if (output) {
        file.open(*output);
        if (!file) {
            std::cerr << "tunescope-gpu-runner: cannot write " << *output << "\n";
            return 1;
        }
    }
    std::ostream& out = output ? static_cast<std::ostream&>(file) : std::cout;
    if (jobs > 0) {
        if (arch.empty())
            arch = probeArch();
        if (!arch.empty())
            compileAhead(lines, arch, jobs, 120);
    }
    WorkerProcess worker(lines);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].bundle) {
            out << worker.run(i, lines[i].bundle->timing.timeoutMs) << "\n" << std::flush;
            continue;
        }
        RunResult malformed;
        malformed.id = input + ":" + std::to_string(lines[i].number);
        malformed.error = RunError::Unknown;
        malformed.message = lines[i].bundle.error().message;
        out << toJsonLine(malformed) << "\n" << std::flush;
    }
    return 0;
}
