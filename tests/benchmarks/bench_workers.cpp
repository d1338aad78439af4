// Measurement through workers against measuring locally, on this machine: the same session (same seed, so the
// same candidates; the random model) measured by the local measurer with one thread and with all cores, then
// queued in a PostgreSQL workspace (a private server this benchmark starts) for 1 and 2 in-process workers of
// one thread each. Prints candidates measured per minute and the server's share of each worker's time (its
// claims, result writes and lease renewals), and of the session's batches (the queue's round trips).
//   ./build/release/tests/benchmarks/ts_bench_workers [TRIALS] [SHAPE]   (default 128, matmul 128,128,128)
#include "tests/core/pg_cluster.h"

#include "core/engine/measure_worker.h"
#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"
#include "core/store/store.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

using namespace ts;

namespace {

engine::TuneOptions session(const std::string& workspace, int trials, const std::string& shape, int threads)
{
    engine::TuneOrigin origin;
    origin.op = "matmul";
    origin.shape = shape;
    auto tasks = engine::buildTasks(origin);
    if (!tasks) {
        std::fprintf(stderr, "ts_bench_workers: %s\n", tasks.error().message.c_str());
        std::exit(1);
    }
    engine::TuneOptions o;
    o.tasks = { engine::TuneTask { "matmul", tasks->at(0).dag, 1, "matmul" } };
    o.origin = origin.toJson();
    o.trials = trials;
    o.measuresPerRound = 32;
    o.seed = 11;
    o.workspace = workspace;
    o.remeasureTop = 0;
    o.measure.buildParallelism = threads;
    o.measure.kernelThreads = threads;
    return o;
}

struct Run {
    double seconds = 0;
    int trials = 0;
};

Run tune(const engine::TuneOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    engine::TuningSession s(options, {});
    auto finished = s.run();
    if (!finished) {
        std::fprintf(stderr, "ts_bench_workers: %s\n", finished.error().message.c_str());
        std::exit(1);
    }
    return { std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), finished->totalTrials };
}

void print(const char* what, const Run& run, double baseline)
{
    const double perMinute = 60.0 * run.trials / run.seconds;
    std::printf("  %-44s %5d candidates in %6.1f s: %6.1f per minute (%.2fx local, 1 thread)\n", what, run.trials,
        run.seconds, perMinute, baseline > 0 ? perMinute / baseline : 1.0);
}

} // namespace

int main(int argc, char** argv)
{
    const int trials = argc > 1 ? std::atoi(argv[1]) : 128;
    const std::string shape = argc > 2 ? argv[2] : "128,128,128";
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::printf("ts_bench_workers: matmul %s, %d trials a run, %u cores\n", shape.c_str(), trials, cores);
    const auto dir = std::filesystem::temp_directory_path() / "ts_bench_workers";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);

    const Run local1 = tune(session((dir / "local1.tunescope").string(), trials, shape, 1));
    const double baseline = 60.0 * local1.trials / local1.seconds;
    print("local measurer, 1 thread", local1, baseline);
    const Run localAll = tune(session((dir / "local-all.tunescope").string(), trials, shape, static_cast<int>(cores)));
    print("local measurer, all cores", localAll, baseline);

    auto& pg = store::test::PgCluster::shared();
    for (int workers : { 1, 2 }) {
        const std::string url = pg.createDatabase();
        engine::TuneOptions o = session(url, trials, shape, 1);
        o.measureOnWorkers = true;
        std::stop_source stop;
        std::vector<engine::WorkerStats> stats(static_cast<size_t>(workers));
        std::vector<std::jthread> threads;
        { // the workspace exists before the workers open it
            auto created = store::Store::open(url);
            if (!created) {
                std::fprintf(stderr, "ts_bench_workers: %s\n", created.error().message.c_str());
                return 1;
            }
        }
        for (int w = 0; w < workers; ++w)
            threads.emplace_back([&, w] {
                engine::WorkerOptions options;
                options.workspace = url;
                options.threads = 1;
                options.claim = 4;
                auto done = engine::runWorker(options, stop.get_token(), [](const std::string&) {});
                if (!done) {
                    std::fprintf(stderr, "ts_bench_workers: worker: %s\n", done.error().message.c_str());
                    std::exit(1);
                }
                stats[static_cast<size_t>(w)] = *done;
            });
        const Run run = tune(o);
        stop.request_stop();
        threads.clear();
        const std::string what = std::to_string(workers) + (workers == 1 ? " worker" : " workers") + ", 1 thread each";
        print(what.c_str(), run, baseline);
        for (const engine::WorkerStats& s : stats)
            std::printf("    worker %lld: %lld measured, %.1f s, of which %.3f s in the queue's statements (%.1f%%)\n",
                static_cast<long long>(s.workerId), static_cast<long long>(s.measured), s.seconds, s.queueSeconds,
                100.0 * s.queueSeconds / std::max(1e-9, s.seconds));
    }
    std::filesystem::remove_all(dir);
    return 0;
}
