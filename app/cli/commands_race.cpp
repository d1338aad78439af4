// race: two or more search policies on the same task and budget, one round each in turn (core/engine/race.h);
// prints each lane's progress, then the curves side by side and the trials each lane needed to reach the
// others' best. --list and --replay read stored races back without measuring.
#include "app/cli/commands.h"
#include "app/cli/interrupt.h"
#include "app/cli/task_selection.h"
#include "core/engine/race.h"
#include "core/engine/tune_origin.h"
#include "core/support/strings.h"

#include <cstdio>
#include <iostream>
#include <mutex>

namespace ts::cli {

namespace {

    std::string gflopsText(double gflops)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", gflops);
        return text;
    }

    std::string padded(std::string text, size_t width)
    {
        if (text.size() < width)
            text.insert(0, width - text.size(), ' ');
        return text;
    }

    // The curves at powers of two and the end, then who reached whose best when.
    void printSummary(const engine::RaceResult& race)
    {
        std::cout << "\nrace " << race.id << ": " << race.taskName << ", " << race.trials << " trials per policy, seed "
                  << race.seed << "\n";
        for (const engine::RaceLane& lane : race.lanes)
            std::cout << "  " << search::toString(lane.policy) << ": " << lane.space.text << "; "
                      << lane.bestGflops.size() << " trials, " << lane.errors << " failed, " << lane.status << "\n";
        std::cout << "\nbest GFLOP/s after N trials\n" << padded("N", 8);
        for (const engine::RaceLane& lane : race.lanes)
            std::cout << padded(search::toString(lane.policy), 16);
        std::cout << "\n";
        size_t longest = 0;
        for (const engine::RaceLane& lane : race.lanes)
            longest = std::max(longest, lane.bestGflops.size());
        std::vector<size_t> marks;
        for (size_t n = 8; n < longest; n *= 2)
            marks.push_back(n);
        if (longest > 0)
            marks.push_back(longest);
        for (size_t n : marks) {
            std::cout << padded(std::to_string(n), 8);
            for (const engine::RaceLane& lane : race.lanes)
                std::cout << padded(n <= lane.bestGflops.size() ? gflopsText(lane.bestGflops[n - 1]) : "-", 16);
            std::cout << "\n";
        }
        std::cout << "\n";
        for (const engine::RaceLane& a : race.lanes)
            for (const engine::RaceLane& b : race.lanes) {
                if (&a == &b)
                    continue;
                const auto reached = a.trialsToReach(b.best());
                std::cout << search::toString(a.policy) << " reached " << search::toString(b.policy) << "'s best ("
                          << gflopsText(b.best()) << " GFLOP/s, at trial " << b.trialsToReach(b.best()).value_or(0)
                          << "): "
                          << (reached ? "after " + std::to_string(*reached) + " trials"
                                      : "never (its best " + gflopsText(a.best()) + ")")
                          << "\n";
            }
    }

    int runRaceList(const Arguments& args)
    {
        auto store = store::Store::open(args.value("workspace", store::Store::defaultWorkspacePath()));
        if (!store)
            return fail(store.error().message);
        auto races = engine::listRaces(*store);
        if (!races)
            return fail(races.error().message);
        if (races->empty())
            std::cout << "no races in " << store->path() << "\n";
        for (const engine::RaceInfo& r : *races)
            std::cout << r.id << "  " << r.taskName << "  " << join(r.policies, " vs ") << "  " << r.status << "\n";
        return 0;
    }

    int runRaceReplay(const Arguments& args)
    {
        auto store = store::Store::open(args.value("workspace", store::Store::defaultWorkspacePath()));
        if (!store)
            return fail(store.error().message);
        auto race = engine::loadRace(*store, args.value("replay"));
        if (!race)
            return fail(race.error().message);
        printSummary(*race);
        return 0;
    }

    int runRace(const Arguments& args)
    {
        if (args.has("list"))
            return runRaceList(args);
        if (args.has("replay"))
            return runRaceReplay(args);
        auto selection = selectTasks(args, "task", true);
        if (!selection)
            return fail(selection.error().message);
        if (!args.has("trials"))
            return fail("--trials is required (measurements per policy, e.g. --trials 500)");
        auto trials = boundedInt(args, "trials", 0, 1, 1000000);
        auto perRound = boundedInt(args, "measures-per-round", 64, 1, 4096);
        auto seed = boundedInt(args, "seed", 1, 0, INT64_MAX);
        auto threads = boundedInt(args, "threads", 0, 0, 4096);
        for (const auto* v : { &trials, &perRound, &seed, &threads })
            if (!*v)
                return fail(v->error().message);
        engine::RaceOptions options;
        options.policies.clear();
        for (const std::string& name : split(args.value("policies", "ansor,autotvm-xgb"), ',')) {
            auto kind = search::policyKindFromString(name);
            if (!kind)
                return fail("--policies: " + kind.error().message);
            options.policies.push_back(*kind);
        }
        const graph::Task& task = selection->tasks.front();
        options.task = { task.name, task.dag, task.weight, join(task.fusedOps, ",") };
        options.trials = static_cast<int>(*trials);
        options.measuresPerRound = static_cast<int>(*perRound);
        options.seed = static_cast<uint64_t>(*seed);
        options.searchThreads = static_cast<int>(*threads);
        options.measure.buildParallelism = static_cast<int>(*threads);
        options.model = args.value("model", "xgb");
        options.workspace = args.value("workspace", store::Store::defaultWorkspacePath());
        engine::TuneOrigin origin;
        origin.layout = ops::toString(selection->layout);
        if (selection->network) {
            origin.network = selection->network->name;
            origin.batch = selection->network->batch;
            origin.taskIds = { task.id };
        } else {
            origin.op = args.value("op");
            origin.shape = args.value("shape");
        }
        options.origin = origin.toJson();

        std::cout << "Race on " << selection->title << (selection->network ? ", task " + std::to_string(task.id) : "")
                  << ": "
                  << join(options.policies, " vs ",
                         [](search::PolicyKind k) { return std::string(search::toString(k)); })
                  << ", " << options.trials << " trials each (" << options.measuresPerRound
                  << " per round, in turn), seed " << options.seed << "\nworkspace " << options.workspace << "\n"
                  << std::flush;
        std::mutex printing;
        engine::Race race(std::move(options), [&](const engine::RaceEvent& e, const engine::RaceResult& result) {
            const auto* round = std::get_if<engine::RoundDone>(&e.event);
            if (round == nullptr)
                return;
            const engine::RaceLane& lane = result.lanes[static_cast<size_t>(e.lane)];
            std::lock_guard lock(printing);
            std::cout << "[" << search::toString(lane.policy) << "] " << lane.bestGflops.size() << " trials, best "
                      << gflopsText(lane.best()) << " GFLOP/s, " << round->errors << " failed this round\n"
                      << std::flush;
        });
        InterruptCount interrupt([&](int, int) { race.cancel(); });
        auto result = race.run();
        if (!result)
            return fail(result.error().message);
        printSummary(*result);
        std::cout << "\nreplay: tunescope-cli race --replay " << result->id << " --workspace "
                  << args.value("workspace", store::Store::defaultWorkspacePath()) << "\n";
        if (interrupt.count() > 0)
            return kExitInterrupted;
        for (const engine::RaceLane& lane : result->lanes)
            if (lane.status == "failed")
                return fail(std::string(search::toString(lane.policy)) + " failed: " + lane.message);
        return 0;
    }

} // namespace

std::vector<Command> raceCommands()
{
    return {
        { "race", "race search policies on one task with the same budget, rounds in turn (e.g. Ansor vs AutoTVM)",
            "tunescope-cli race (--network NAME [--batch N] [--layout L] --task ID | --op OP --shape S [--layout L]) "
            "--trials T [--policies P,P] [--measures-per-round B] [--model M] [--seed S] [--threads K] "
            "[--workspace PATH] | race --list | race --replay ID",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption,
                { "task", "ID", "task id from 'tunescope-cli tasks'" },
                { "op", "OP", "one operator instead of a network's task" },
                { "shape", "S", "the operator's shape values (see 'tunescope-cli tune --help')" },
                { "trials", "T", "measurements per policy" },
                { "policies", "P,P",
                    "the policies racing, from 'tunescope-cli tune --help' (default ansor,autotvm-xgb)" },
                { "measures-per-round", "B", "measurements per round of each policy (default 64)" },
                { "model", "M", "the cost model of Ansor's lanes (default xgb)" },
                { "seed", "S", "random seed of every lane (default 1)" },
                { "threads", "K", "threads of the search and of compiling (default: all cores)" },
                { "list", "", "list the races stored in the workspace" },
                { "replay", "ID", "print a stored race again, without measuring" }, kWorkspaceOption, kHelpOption },
            runRace },
    };
}

} // namespace ts::cli
