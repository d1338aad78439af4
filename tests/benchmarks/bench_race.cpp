// Ansor vs AutoTVM (issue 14): races (core/engine/race.h) on the ResNet-18 conv tasks (NCHW, the layout
// AutoTVM's x86 templates were written for) and on BERT-base's dense tasks, same budget, rounds in turn,
// really measured. Per task: each policy's space size, its best after the budget, and the trials Ansor needed
// to reach AutoTVM's best (the Ansor paper's "measurements to match" figure: 3.3x fewer on ResNet-50 and
// 16.5x on MobileNet-V2 on an Intel CPU, with 1000 AutoTVM trials).
//
//   ts_bench_race [TRIALS] [TASKS] [POLICIES]
//     TRIALS    per policy and task (default 200; the paper's figure is at 1000)
//     TASKS     resnet-18:2,7,11,15,bert-base:0,6 (default) — network:ids, comma-separated, networks by ','
//     POLICIES  ansor,autotvm-xgb (default)
// Run from the repository root after building; it prints one line per round while it runs.
#include "tuning_util.h"

#include "core/engine/race.h"
#include "core/measure/machine_profile.h"
#include "core/store/schedule_source.h"
#include "core/support/strings.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace ts;

namespace {

struct Case {
    std::string network;
    int64_t task = 0;
};

std::vector<Case> parseCases(const std::string& text)
{
    std::vector<Case> out;
    std::string network;
    for (const std::string& part : split(text, ',')) {
        const auto colon = part.find(':');
        std::string id = part;
        if (colon != std::string::npos) {
            network = part.substr(0, colon);
            id = part.substr(colon + 1);
        }
        out.push_back({ network, std::stoll(id) });
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    const int trials = argc > 1 ? std::atoi(argv[1]) : 200;
    const std::vector<Case> cases = parseCases(argc > 2 ? argv[2] : "resnet-18:2,7,11,15,bert-base:0,6");
    std::vector<search::PolicyKind> policies;
    for (const std::string& name : split(argc > 3 ? argv[3] : "ansor,autotvm-xgb", ','))
        policies.push_back(search::policyKindFromString(name).value());
    std::printf("Races on %s, %d trials per policy and task, rounds of 64 in turn\n\n", measure::cpuModelName().c_str(),
        trials);

    struct Row {
        std::string task;
        engine::RaceResult race;
        double seconds = 0.0;
    };
    std::vector<Row> rows;
    for (const Case& c : cases) {
        store::NetworkRef ref { c.network, 1, ops::Layout::NCHW };
        graph::TaskSet set = store::loadNetworkTasks(ref).value();
        const graph::Task& task = *store::findTask(set, c.task).value();
        engine::RaceOptions o;
        o.task = { task.name, task.dag, task.weight, join(task.fusedOps, ",") };
        o.policies = policies;
        o.trials = trials;
        o.seed = 1;
        o.model = "xgb";
        o.workspace = bench::freshWorkspace("race-" + c.network + "-" + std::to_string(c.task));
        const std::string label = c.network + " #" + std::to_string(c.task) + " " + task.name;
        std::printf("%s\n", label.c_str());
        std::fflush(stdout);
        const auto start = bench::Clock::now();
        engine::Race race(o, [&](const engine::RaceEvent& e, const engine::RaceResult& r) {
            if (std::holds_alternative<engine::RoundDone>(e.event)) {
                const engine::RaceLane& lane = r.lanes[static_cast<size_t>(e.lane)];
                std::printf("  %-12s %4zu trials  best %8.2f GFLOP/s  %5.0f s\n", search::toString(lane.policy),
                    lane.bestGflops.size(), lane.best(),
                    std::chrono::duration<double>(bench::Clock::now() - start).count());
                std::fflush(stdout);
            }
        });
        auto result = race.run();
        if (!result) {
            std::printf("  failed: %s\n", result.error().message.c_str());
            continue;
        }
        rows.push_back(
            { label, std::move(result).value(), std::chrono::duration<double>(bench::Clock::now() - start).count() });
    }

    std::printf("\n%-48s", "task");
    for (search::PolicyKind p : policies)
        std::printf(" %14s", search::toString(p));
    std::printf("  %s\n", "trials for lane 0 to reach lane 1's best / lane 1's own");
    for (const Row& row : rows) {
        std::printf("%-48s", row.task.c_str());
        for (const engine::RaceLane& lane : row.race.lanes)
            std::printf(" %9.2f GF/s", lane.best());
        const engine::RaceLane& a = row.race.lanes[0];
        const engine::RaceLane& b = row.race.lanes[1];
        const auto aReach = a.trialsToReach(b.best());
        const auto bOwn = b.trialsToReach(b.best());
        std::printf("  %s / %d", aReach ? std::to_string(*aReach).c_str() : "never", bOwn.value_or(0));
        if (aReach && bOwn)
            std::printf("  (%.1fx fewer)", static_cast<double>(*bOwn) / *aReach);
        std::printf("\n");
    }
    std::printf("\nspaces:\n");
    for (const Row& row : rows) {
        std::printf("%-48s", row.task.c_str());
        for (const engine::RaceLane& lane : row.race.lanes)
            std::printf("  %s: %s;", search::toString(lane.policy), lane.space.text.c_str());
        std::printf("  %.0f s\n", row.seconds);
    }
    return 0;
}
