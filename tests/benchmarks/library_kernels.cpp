// Choosing OpenBLAS's kernel for a benchmark process: the candidates, one child process per candidate, the
// re-execution with the winner (see library_kernels.h).
#include "library_kernels.h"

#include "bench_util.h"
#include "peak_flops.h"

#include <algorithm>
#include <cblas.h>
#include <cerrno>
#include <cmath>
#include <cpuid.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ts::bench {

namespace {
    constexpr const char* kCoreTypeVar = "OPENBLAS_CORETYPE";
    constexpr const char* kUserVar = "TS_BENCH_OPENBLAS_CORETYPE"; // the user's choice: NAME, auto or keep
    constexpr const char* kProbeVar = "TS_BENCH_OPENBLAS_PROBE"; // set in a probe child's environment only
    constexpr const char* kChosenVar = "TS_BENCH_OPENBLAS_CHOSEN"; // set for the re-executed process: how it chose
    constexpr const char* kProbeTag = "ts-openblas-probe"; // the child's result line starts with it
    constexpr int kProbeSize = 1024;
    constexpr int kProbeThreads = 2;
    constexpr int kProbeRepeats = 3; // in one child, each of at least 100 ms
    constexpr int kProbeRounds = 2; // every candidate once per round; even rounds in order, odd ones reversed

    std::string envOr(const char* name, const std::string& fallback = {})
    {
        const char* value = std::getenv(name);
        return value ? std::string(value) : fallback;
    }

    bool sameName(const std::string& a, const std::string& b) { return strcasecmp(a.c_str(), b.c_str()) == 0; }

    std::string shown(const std::string& coreType) { return coreType.empty() ? "(unset)" : coreType; }

    // AVX512-BF16 (CPUID leaf 7 subleaf 1, EAX bit 5) and AMX-TILE (leaf 7 subleaf 0, EDX bit 24).
    bool hasAvx512Bf16()
    {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) && (eax & (1u << 5)) != 0;
    }
    bool hasAmxTile()
    {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx & (1u << 24)) != 0;
    }

    // In a probe child: sgemm kProbeSize^3 on kProbeThreads threads, the best of kProbeRepeats repeats, 32 entries
    // of the product checked against a double-precision dot product; one line "<tag> <corename> <GFLOP/s> <ok>".
    [[noreturn]] void runProbeChild()
    {
        const int n = kProbeSize;
        const size_t size = static_cast<size_t>(n) * n;
        std::vector<float> a(size), b(size), c(size);
        for (size_t i = 0; i < size; ++i) {
            a[i] = static_cast<float>((i * 7919) % 17) / 16.0f - 0.5f;
            b[i] = static_cast<float>((i * 104729) % 23) / 22.0f - 0.5f;
        }
        openblas_set_num_threads(kProbeThreads);
        const std::vector<double> each = secondsPerRunEach(
            [&] {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                    c.data(), n);
            },
            kProbeRepeats, 100);
        const double best = *std::min_element(each.begin(), each.end());
        bool ok = true;
        for (int s = 0; s < 32; ++s) {
            const size_t i = static_cast<size_t>(s * 97 % n), j = static_cast<size_t>((s * 389 + 11) % n);
            double exact = 0, magnitude = 0;
            for (size_t k = 0; k < static_cast<size_t>(n); ++k) {
                exact += static_cast<double>(a[i * n + k]) * b[k * n + j];
                magnitude += std::fabs(static_cast<double>(a[i * n + k]) * b[k * n + j]);
            }
            ok = ok && std::fabs(c[i * n + j] - exact) <= 1e-3 * magnitude + 1e-6;
        }
        std::printf("%s %s %.3f %d\n", kProbeTag, openblas_get_corename(), 2.0 * n * n * n / best / 1e9, ok ? 1 : 0);
        std::fflush(stdout);
        std::_Exit(0);
    }

    // This executable again, with OPENBLAS_CORETYPE = coreType (unset when empty) and the probe marker in its
    // environment only; its result line read from a pipe.
    CoreTypeProbe probe(const std::string& coreType, char** argv)
    {
        CoreTypeProbe result { coreType, {}, 0, {}, {} };
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e) {
            const std::string entry = *e;
            const std::string name = entry.substr(0, entry.find('='));
            if (name != kCoreTypeVar && name != kProbeVar && name != kChosenVar)
                env.push_back(entry);
        }
        if (!coreType.empty())
            env.push_back(std::string(kCoreTypeVar) + "=" + coreType);
        env.push_back(std::string(kProbeVar) + "=1");
        std::vector<char*> envp;
        for (std::string& entry : env)
            envp.push_back(entry.data());
        envp.push_back(nullptr);

        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) {
            result.error = std::string("pipe: ") + std::strerror(errno);
            return result;
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO); // the copy loses O_CLOEXEC
        pid_t pid = 0;
        const int spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv, envp.data());
        posix_spawn_file_actions_destroy(&actions);
        close(fds[1]);
        if (spawned != 0) {
            close(fds[0]);
            result.error = std::string("spawn: ") + std::strerror(spawned);
            return result;
        }
        std::string output;
        char buffer[4096];
        for (;;) {
            const ssize_t got = read(fds[0], buffer, sizeof buffer);
            if (got > 0)
                output.append(buffer, static_cast<size_t>(got));
            else if (got == 0 || errno != EINTR)
                break;
        }
        close(fds[0]);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
        if (WIFSIGNALED(status)) {
            result.error = "killed by signal " + std::to_string(WTERMSIG(status));
            return result;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            result.error = "exit status " + std::to_string(WEXITSTATUS(status));
            return result;
        }
        const size_t at = output.find(kProbeTag);
        char loaded[64] = {};
        int ok = 0;
        if (at == std::string::npos
            || std::sscanf(output.c_str() + at + std::strlen(kProbeTag), " %63s %lf %d", loaded, &result.gflops, &ok)
                != 3) {
            result.error = "no result line";
            return result;
        }
        result.loaded = loaded;
        if (!ok)
            result.error = "wrong product";
        else if (!coreType.empty() && !sameName(coreType, result.loaded))
            result.error = "name not accepted";
        return result;
    }

    // The line that says which kernel runs the library figures of this process, and why.
    void printKernelLine(const std::string& why)
    {
        const std::string coreType = envOr(kCoreTypeVar);
        std::printf("OpenBLAS kernel in this run: %s (OPENBLAS_CORETYPE%s%s: %s; %s)\n", openBlasCoreName().c_str(),
            coreType.empty() ? " unset" : "=", coreType.c_str(), why.c_str(), openblas_get_config());
        if (!coreType.empty() && !sameName(coreType, openBlasCoreName()))
            std::printf("  (this OpenBLAS does not know OPENBLAS_CORETYPE=%s and chose %s itself)\n", coreType.c_str(),
                openBlasCoreName().c_str());
        for (const char* name : { "OPENBLAS_L2_SIZE", "OPENBLAS_BLOCK_FACTOR", "OPENBLAS_NUM_THREADS" })
            if (std::getenv(name))
                std::printf("  inherited %s=%s (left as it is)\n", name, std::getenv(name));
        std::fflush(stdout);
    }

    // Runs this executable again with OPENBLAS_CORETYPE = coreType (unset when empty), marked as chosen; returns
    // (with the line printed) where the environment already holds it or exec fails.
    void runWith(const std::string& coreType, const std::string& why, char** argv)
    {
        if (envOr(kCoreTypeVar) == coreType) {
            printKernelLine(why);
            return;
        }
        const std::string inherited = envOr(kCoreTypeVar);
        const bool hadValue = std::getenv(kCoreTypeVar) != nullptr;
        if (coreType.empty())
            unsetenv(kCoreTypeVar);
        else
            setenv(kCoreTypeVar, coreType.c_str(), 1);
        setenv(kChosenVar, why.c_str(), 1);
        std::fflush(stdout);
        std::fflush(stderr);
        execv("/proc/self/exe", argv);
        std::fprintf(stderr, "cannot re-execute %s with OPENBLAS_CORETYPE=%s: %s; the library keeps its kernel\n",
            argv[0], shown(coreType).c_str(), std::strerror(errno));
        unsetenv(kChosenVar);
        if (hadValue)
            setenv(kCoreTypeVar, inherited.c_str(), 1);
        else
            unsetenv(kCoreTypeVar);
        printKernelLine("as inherited, re-execution failed");
    }
} // namespace

std::vector<std::string> openBlasCoreTypeCandidates()
{
    std::vector<std::string> names;
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")
        && __builtin_cpu_supports("avx512cd");
    if (avx512 && hasAmxTile())
        names.push_back("SapphireRapids");
    if (avx512 && hasAvx512Bf16())
        names.push_back("Cooperlake");
    if (avx512)
        names.push_back("SkylakeX");
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        names.push_back("Zen");
        names.push_back("Haswell");
    } else if (__builtin_cpu_supports("avx")) {
        names.push_back("Sandybridge");
    }
    return names;
}

std::string openBlasCoreName()
{
    const char* name = openblas_get_corename();
    return name ? std::string(name) : std::string("(unknown)");
}

void selectOpenBlasKernel(char** argv)
{
    if (std::getenv(kProbeVar))
        runProbeChild();
    if (std::getenv(kChosenVar)) { // the re-executed process
        const std::string why = envOr(kChosenVar);
        unsetenv(kChosenVar); // not inherited by what this process starts
        printKernelLine(why);
        return;
    }
    const std::string user = envOr(kUserVar);
    if (user == "keep") {
        printKernelLine("as inherited, TS_BENCH_OPENBLAS_CORETYPE=keep");
        return;
    }
    if (!user.empty()) {
        runWith(user == "auto" ? std::string() : user, "TS_BENCH_OPENBLAS_CORETYPE=" + user + ", no probe", argv);
        return;
    }

    const std::string inherited = envOr(kCoreTypeVar);
    std::vector<std::string> coreTypes = openBlasCoreTypeCandidates();
    coreTypes.push_back(""); // OpenBLAS's own detection
    if (!inherited.empty() && std::none_of(coreTypes.begin(), coreTypes.end(), [&](const std::string& c) {
            return sameName(c, inherited);
        }))
        coreTypes.push_back(inherited);
    double peak = peakGflops(kProbeThreads);
    std::printf(
        "OpenBLAS kernel probe: sgemm %d^3 fp32 on %d threads, each OPENBLAS_CORETYPE in a child process of its "
        "own, %d rounds (the second in reverse order) of the best of %d repeats; "
        "TS_BENCH_OPENBLAS_CORETYPE=NAME|auto|keep skips it\n",
        kProbeSize, kProbeThreads, kProbeRounds, kProbeRepeats);
    std::fflush(stdout);
    std::vector<CoreTypeProbe> probes(coreTypes.size());
    for (int round = 0; round < kProbeRounds; ++round)
        for (size_t k = 0; k < coreTypes.size(); ++k) {
            const size_t i = round % 2 == 0 ? k : coreTypes.size() - 1 - k;
            const CoreTypeProbe p = probe(coreTypes[i], argv);
            CoreTypeProbe& merged = probes[i];
            if (round == 0)
                merged = p;
            merged.rounds.push_back(p.gflops);
            merged.gflops = std::max(merged.gflops, p.gflops);
            if (merged.error.empty())
                merged.error = p.error;
            if (merged.loaded.empty())
                merged.loaded = p.loaded;
        }
    // Measured before and after the rounds, the better kept: a neighbour that held a core at the start (seen: the
    // first round and the peak both at half speed, the second round at full) only ever slows one down.
    peak = std::max(peak, peakGflops(kProbeThreads));
    std::printf("  fp32 FMA peak measured here: %.1f GFLOP/s on %d threads; inherited OPENBLAS_CORETYPE=%s\n", peak,
        kProbeThreads, shown(inherited).c_str());
    std::printf(
        "  %-22s %-16s %-16s %8s %8s\n", "OPENBLAS_CORETYPE", "kernel loaded", "rounds, GFLOP/s", "best", "of peak");
    const CoreTypeProbe* best = nullptr;
    for (const CoreTypeProbe& p : probes) {
        const std::string label = p.coreType.empty()
            ? "(unset: detected)"
            : p.coreType + (sameName(p.coreType, inherited) ? " (inherited)" : "");
        std::string rounds;
        for (double g : p.rounds) {
            char figure[32];
            std::snprintf(figure, sizeof figure, "%s%.1f", rounds.empty() ? "" : " ", g);
            rounds += figure;
        }
        std::printf("  %-22s %-16s %-16s %8.1f %7.0f%%%s%s\n", label.c_str(), p.loaded.empty() ? "-" : p.loaded.c_str(),
            rounds.c_str(), p.gflops, peak > 0 ? 100 * p.gflops / peak : 0.0,
            p.error.empty() ? "" : "  out: ", p.error.c_str());
        if (p.error.empty() && (!best || p.gflops > best->gflops))
            best = &p;
    }
    if (!best) {
        printKernelLine("as inherited, no candidate ran");
        return;
    }
    std::printf("  fastest: OPENBLAS_CORETYPE=%s (%s, %.1f GFLOP/s)\n", shown(best->coreType).c_str(),
        best->loaded.c_str(), best->gflops);
    char why[128];
    std::snprintf(why, sizeof why, "the probe's fastest, %.1f GFLOP/s", best->gflops);
    runWith(best->coreType, why, argv);
}

} // namespace ts::bench
