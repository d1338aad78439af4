// Tuning sessions for the benchmarks: a fresh workspace, the tasks they tune, a session run to its end with
// its tuning curve (best GFLOP/s against trials and seconds). Shared by bench_tuning.cpp and
// bench_cost_models.cpp.
#pragma once

#include "core/engine/tuning_session.h"
#include "core/ops/linear.h"
#include "core/store/schedule_source.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace ts::bench {

using Clock = std::chrono::steady_clock;

inline std::string freshWorkspace(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ts_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = dir / (name + ".tunescope");
    for (const char* suffix : { "", "-wal", "-shm" })
        std::filesystem::remove(path.string() + suffix);
    return path.string();
}

inline engine::TuneTask matmulTask(int64_t n)
{
    ir::Tensor a = ir::placeholder("A", { n, n });
    ir::Tensor b = ir::placeholder("B", { n, n });
    return { "matmul", ir::ComputeDAG::create({ a, b, ops::matmul(a, b).value() }), 1, "matmul" };
}

inline std::vector<engine::TuneTask> resnetTasks(const std::vector<int>& ids = {})
{
    store::NetworkRef ref { "resnet-18", 1, ops::Layout::NHWC };
    graph::TaskSet set = store::loadNetworkTasks(ref).value();
    std::vector<engine::TuneTask> out;
    for (const graph::Task& t : set.tasks) {
        if (!ids.empty() && std::find(ids.begin(), ids.end(), t.id) == ids.end())
            continue;
        std::string tags;
        for (const std::string& op : t.fusedOps)
            tags += (tags.empty() ? "" : ",") + op;
        out.push_back({ t.name + " #" + std::to_string(t.id), t.dag, t.weight, tags });
    }
    return out;
}

struct CurvePoint {
    int trial = 0;
    double seconds = 0.0;
    double gflops = 0.0; // best so far
};

struct Run {
    engine::Finished finished;
    std::vector<CurvePoint> curve; // one point per improvement
    engine::PhaseTimes phases;
    search::RoundStats search;
    double wall = 0.0;
};

inline Run tune(engine::TuneOptions options, bool quiet = true)
{
    Run run;
    const auto start = Clock::now();
    int trial = 0;
    std::vector<double> best(options.tasks.size(), 0.0);
    engine::TuningSession s(options, [&](const engine::TuneEvent& event) {
        if (const auto* r = std::get_if<engine::RecordMeasured>(&event)) {
            ++trial;
            if (r->result.ok()) {
                const double flops = options.tasks[static_cast<size_t>(r->task)].dag.flopCount();
                const double gflops = flops / r->result.meanCost() / 1e9;
                if (gflops > best[static_cast<size_t>(r->task)]) {
                    best[static_cast<size_t>(r->task)] = gflops;
                    if (options.tasks.size() == 1)
                        run.curve.push_back(
                            { trial, std::chrono::duration<double>(Clock::now() - start).count(), gflops });
                }
            }
        } else if (const auto* d = std::get_if<engine::RoundDone>(&event)) {
            run.phases.search += d->phases.search;
            run.phases.model += d->phases.model;
            run.phases.measure += d->phases.measure;
            run.phases.store += d->phases.store;
            run.search.sampled += d->search.sampled;
            run.search.valid += d->search.valid;
            run.search.mutations += d->search.mutations;
            run.search.predicted += d->search.predicted;
            if (!quiet)
                std::printf("    round %3d  task %2d  trials %5d  est. latency %8.3f ms  %6.0f s\n", d->round, d->task,
                    d->totalTrials, d->estimatedLatency * 1e3, d->elapsed);
            std::fflush(stdout);
        }
    });
    run.finished = s.run().value();
    run.wall = std::chrono::duration<double>(Clock::now() - start).count();
    return run;
}

inline engine::TuneOptions baseOptions(std::vector<engine::TuneTask> tasks, int trials, const std::string& workspace)
{
    engine::TuneOptions o;
    o.tasks = std::move(tasks);
    o.trials = trials;
    o.seed = 1;
    o.workspace = workspace;
    return o;
}

// Trials and seconds until the curve first reaches `fraction` of its final best.
inline CurvePoint reached(const std::vector<CurvePoint>& curve, double fraction)
{
    if (curve.empty())
        return {};
    const double target = curve.back().gflops * fraction;
    for (const CurvePoint& p : curve)
        if (p.gflops >= target)
            return p;
    return curve.back();
}

} // namespace ts::bench
