// PackSumBooster (Ansor's pack-sum XGBoost learner) at the sizes a long tuning session reaches: training
// time for 10k, 50k and 200k programs of 4..8 rows (6 on average) x 164 synthetic Ansor-like features,
// and predictions per second for the batch the evolutionary search scores at once (2048 programs).
// Sizes whose projected training time would overrun the budget are skipped and said so.
//   ./build/release/tests/benchmarks/ts_bench_xgb [MAX_ROUNDS] [TREE_METHOD] [NTHREAD] [BUDGET_S]
//   defaults: PackSumSettings' (10000 rounds with early stopping, hist, 2 threads), a 120 s budget
#include "tests/core/pack_sum_fixtures.h"

#include "core/cost/xgb_booster.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace ts;
using namespace ts::cost;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

template <typename T> T orDie(Expected<T> value)
{
    if (!value) {
        std::fprintf(stderr, "ts_bench_xgb: %s\n", value.error().toString().c_str());
        std::exit(1);
    }
    return std::move(value).value();
}

std::string cpuName()
{
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0)
            return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

constexpr int kColumns = 164;

} // namespace

int main(int argc, char** argv)
{
    PackSumSettings settings;
    if (argc > 1)
        settings.numBoostRound = std::atoi(argv[1]);
    if (argc > 2)
        settings.treeMethod = argv[2];
    if (argc > 3)
        settings.nthread = std::atoi(argv[3]);
    const double budget = argc > 4 ? std::atof(argv[4]) : 120.0;
    std::printf("ts_bench_xgb on %s, %u hardware threads; settings %s\n", cpuName().c_str(),
        std::thread::hardware_concurrency(), settings.toJson().c_str());

    // Held-out programs for ranking quality, and the batch the search predicts.
    const auto heldOut = testing::makeSyntheticPacks(2048, kColumns, 99, 4, 8);
    const auto batchStart = Clock::now();
    std::printf("\ntraining (labels: a nonlinear function summed over rows, normalized to [0, 1])\n");
    std::printf("  %9s %9s %8s %8s %10s %10s %9s %10s\n", "programs", "rows", "gen s", "rounds", "train s", "ms/round",
        "tr-p-rmse", "held-out pairwise acc");

    PackSumBooster forPrediction(settings);
    double spent = 0.0;
    double lastPerProgramSecond = 0.0;
    for (int programs : { 10000, 50000, 200000 }) {
        if (lastPerProgramSecond > 0 && spent + lastPerProgramSecond * programs > budget) {
            std::printf("  %9d   skipped: projected %.0f s would overrun the %.0f s budget\n", programs,
                lastPerProgramSecond * programs, budget);
            continue;
        }
        const auto genStart = Clock::now();
        const auto data = testing::makeSyntheticPacks(programs, kColumns, 1000 + static_cast<uint64_t>(programs), 4, 8);
        const double gen = secondsSince(genStart);
        PackSumBooster booster(settings);
        const PackSumTrainStats stats = orDie(booster.train(data.matrix, data.labels));
        const auto scores = orDie(booster.predict(heldOut.matrix));
        std::printf("  %9d %9zu %8.2f %8d %10.2f %10.1f %9.5f %10.4f\n", programs, data.matrix.rows(), gen,
            stats.rounds, stats.seconds, 1e3 * stats.seconds / stats.rounds, stats.bestRmse,
            testing::pairwiseAccuracy(scores, heldOut.labels));
        std::fflush(stdout);
        spent += stats.seconds + gen;
        lastPerProgramSecond = (stats.seconds + gen) / programs;
        if (!forPrediction.trained())
            forPrediction = std::move(booster);
    }

    // Predictions: the batch of 2048 programs, repeated for at least a second.
    std::printf("\nprediction, batch of %zu programs (%zu rows x %d features), model of %d trees, %d threads\n",
        heldOut.matrix.programs(), heldOut.matrix.rows(), kColumns, forPrediction.rounds(), settings.nthread);
    orDie(forPrediction.predict(heldOut.matrix)); // warm-up
    int batches = 0;
    const auto start = Clock::now();
    while (secondsSince(start) < 1.0 || batches < 5) {
        orDie(forPrediction.predict(heldOut.matrix));
        ++batches;
    }
    const double perBatch = secondsSince(start) / batches;
    std::printf("  %.2f ms per batch, %.0f programs/s, %.0f rows/s\n", 1e3 * perBatch,
        static_cast<double>(heldOut.matrix.programs()) / perBatch,
        static_cast<double>(heldOut.matrix.rows()) / perBatch);
    const auto bytes = orDie(forPrediction.save());
    std::printf("  saved model: %zu bytes\n", bytes.size());
    std::printf("\ntotal %.1f s\n", secondsSince(batchStart));
    return 0;
}
