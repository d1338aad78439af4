// Data-parallel training (issue 42, part 3): the time to train a LibTorch cost model on a dataset in one process
// (world size 1) and in two (world size 2, rendezvous on the loopback), each process with one LibTorch thread,
// and how far the two results are apart.
//
//   ts_bench_data_parallel WORKSPACE [KIND] [EPOCHS] [SHARE]
//     WORKSPACE: a dataset workspace, e.g. data/datasets/zen4-b1.tunescope.xz decompressed (xz -dk)
//     KIND: a LibTorch model (default tlp); EPOCHS (default 2); SHARE: the fraction of each task's records
//     trained on (default 1)
//
// Every run is a fresh process (this executable with --rank-worker), as `tunescope-cli train --world-size N
// --rank R` would be; the figures are the fit's seconds (features + training), as rank 0 measures them.
#include "core/cost/data_parallel.h"
#include "core/cost/neural_model.h"
#include "core/cost/neural_models.h"
#include "core/engine/model_training.h"
#include "core/store/dataset.h"
#include "core/store/store.h"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <netinet/in.h>
#include <numeric>
#include <spawn.h>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

using namespace ts;

namespace {

using Clock = std::chrono::steady_clock;

// This process's CPU seconds (user + system): what a rank costs, whatever else the machine runs.
double cpuSeconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + 1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// One rank: loads the dataset, trains, writes {seconds, samples, first_loss, last_loss} (or {error}) to `out`.
int rankWorker(const std::string& workspace, const std::string& kind, int epochs, double share, int rank, int world,
    const std::string& port, const std::string& out)
{
    cost::registerNeuralModels();
    auto fail = [&](const std::string& message) {
        std::ofstream(out) << nlohmann::json { { "error", message } }.dump();
        return 1;
    };
    cost::NeuralSettings settings = cost::neuralSettingsOf(kind).value();
    settings.epochs = epochs;
    settings.threads = 1;
    settings.numWarmupSample = 0;
    cost::NeuralCostModel model(kind, settings, 1);
    cost::setBlasThreads(1); // alone too: LibTorch's OpenBLAS would use every core (data_parallel.h)
    std::shared_ptr<cost::DataParallelGroup> group;
    if (world > 1) {
        auto joined = cost::DataParallelGroup::connect({ world, rank, "tcp://127.0.0.1:" + port, 60.0, 1 });
        if (!joined)
            return fail(joined.error().message);
        group = *joined;
        model.setDataParallel(group);
    }
    auto store = store::Store::open(workspace, { true });
    if (!store)
        return fail(store.error().message);
    store::DatasetOptions options;
    options.rebuildDags = !model.readsStepsOnly();
    auto dataset = store::loadDataset(*store, options);
    auto targets = engine::deviceTargets(*store);
    if (!dataset || !targets)
        return fail(!dataset ? dataset.error().message : targets.error().message);
    if (options.rebuildDags)
        (void)engine::attachSessionDags(*store, *dataset);
    std::vector<size_t> records(dataset->records.size());
    std::iota(records.begin(), records.end(), size_t { 0 });
    if (share < 1.0) {
        auto shared = store::shareOfRecords(*dataset, records, share, std::nullopt, 1);
        if (!shared)
            return fail(shared.error().message);
        records = std::move(shared).value();
    }
    const double cpuBefore = cpuSeconds();
    auto report = engine::trainOnDataset(model, *dataset, records, *targets);
    if (!report)
        return fail(report.error().message);
    std::ofstream(out) << nlohmann::json {
        { "seconds", report->seconds }, { "cpu", cpuSeconds() - cpuBefore }, { "samples", report->samples },
        { "first_loss", model.lastTraining().firstLoss }, { "last_loss", model.lastTraining().lastLoss }
    }.dump();
    return 0;
}

int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(address);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), size);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
    ::close(fd);
    return ntohs(address.sin_port);
}

// Runs `world` ranks and returns rank 0's JSON and the wall seconds of the slowest.
std::pair<nlohmann::json, double> run(const std::vector<std::string>& common, int world)
{
    const std::string port = std::to_string(freePort());
    std::vector<pid_t> pids;
    std::vector<std::string> outs;
    const auto start = Clock::now();
    for (int rank = 0; rank < world; ++rank) {
        outs.push_back("/tmp/ts-bench-dp-" + std::to_string(::getpid()) + "-" + std::to_string(rank) + ".json");
        std::vector<std::string> args { "/proc/self/exe", "--rank-worker" };
        args.insert(args.end(), common.begin(), common.end());
        args.insert(args.end(), { std::to_string(rank), std::to_string(world), port, outs.back() });
        std::vector<char*> argv;
        for (std::string& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_t pid = 0;
        if (::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ) == 0)
            pids.push_back(pid);
    }
    for (pid_t pid : pids) {
        int status = 0;
        ::waitpid(pid, &status, 0);
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    std::ifstream in(outs.front());
    nlohmann::json result
        = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json { { "error", "no output" } };
    for (const std::string& out : outs)
        std::remove(out.c_str());
    return { result, wall };
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "--rank-worker") == 0) {
        if (argc != 10)
            return 2;
        return rankWorker(argv[2], argv[3], std::atoi(argv[4]), std::atof(argv[5]), std::atoi(argv[6]),
            std::atoi(argv[7]), argv[8], argv[9]);
    }
    if (argc < 2) {
        std::fprintf(stderr, "usage: ts_bench_data_parallel WORKSPACE [KIND] [EPOCHS] [SHARE]\n");
        return 2;
    }
    const std::vector<std::string> common { argv[1], argc > 2 ? argv[2] : "tlp", argc > 3 ? argv[3] : "2",
        argc > 4 ? argv[4] : "1" };
    std::printf("data-parallel training of %s, %s epochs, share %s of %s; each process 1 LibTorch thread, %u cores\n",
        common[1].c_str(), common[2].c_str(), common[3].c_str(), common[0].c_str(),
        std::thread::hardware_concurrency());
    double alone = 0.0;
    double aloneLoss = 0.0;
    for (int world : { 1, 2 }) {
        const auto [result, wall] = run(common, world);
        if (result.contains("error")) {
            std::printf("world size %d: failed: %s\n", world, result["error"].get<std::string>().c_str());
            return 1;
        }
        const double seconds = result["seconds"].get<double>();
        const double loss = result["last_loss"].get<double>();
        std::printf("world size %d: %lld programs, fit %.2f s (rank 0's CPU %.2f s; processes' wall %.2f s), last "
                    "epoch loss %.6f",
            world, static_cast<long long>(result["samples"].get<int64_t>()), seconds, result["cpu"].get<double>(), wall,
            loss);
        if (world == 1) {
            alone = seconds;
            aloneLoss = loss;
        } else {
            std::printf(", speed-up %.2fx, loss vs world size 1: %.1e relative", alone / seconds,
                std::abs(loss - aloneLoss) / std::max(1e-12, std::abs(aloneLoss)));
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
