// collect: a TenSet-style dataset measured on this machine. For every task of the chosen networks (each
// workload once, however many networks share it) it samples N unique programs from Ansor's search space under
// the random model (the initial population plus mutations, as TenSet's dump_programs did), measures them with
// the CPU cache flushed before every run (as TenSet measured CPUs) and stores them as ordinary records of a
// session, with the device. Each network's task list and weights go into the workspace's networks table, which
// the dataset loader and the network-level metrics read.
//
// One tuning session per task, with the task's budget = N programs counting what the workspace already holds:
// a rerun after Ctrl-C or a kill measures only what is missing, and never a program twice (the session's
// resume). Progress: a line per task with the running total and an ETA.
#include "app/cli/commands.h"
#include "app/cli/interrupt.h"
#include "core/session/tuning_session.h"
#include "core/support/strings.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

namespace ts::cli {

namespace {

    using Clock = std::chrono::steady_clock;

    // "resnet-18" or "resnet-50:4" (the batch after a colon; default --batch).
    Expected<store::NetworkRef> parseNetwork(const std::string& text, int64_t batch, ops::Layout layout)
    {
        store::NetworkRef ref { text, batch, layout };
        if (const size_t colon = text.find(':'); colon != std::string::npos) {
            ref.name = text.substr(0, colon);
            TS_TRY(ref.batch, parseInt(text.substr(colon + 1), "--networks " + text + ": the batch"));
            if (ref.batch < 1 || ref.batch > 4096)
                return makeError(ErrorKind::InvalidArgument, "--networks " + text + ": the batch must be 1..4096");
        }
        if (ref.name.empty())
            return makeError(ErrorKind::InvalidArgument, "--networks: an empty network name");
        return ref;
    }

    // One workload to sample, and every network it appears in.
    struct PlannedTask {
        graph::Task task;
        std::string network; // the first network that has it ("resnet-18:1")
        int64_t storeId = 0;
    };

    std::string formatDuration(double seconds)
    {
        const auto s = static_cast<int64_t>(seconds + 0.5);
        char text[32];
        if (s >= 3600)
            std::snprintf(text, sizeof text, "%lldh%02lldm", static_cast<long long>(s / 3600),
                static_cast<long long>(s / 60 % 60));
        else
            std::snprintf(text, sizeof text, "%lldm%02llds", static_cast<long long>(s / 60),
                static_cast<long long>(s % 60));
        return text;
    }

    int runCollect(const Arguments& args)
    {
        if (!args.has("networks"))
            return fail("--networks is required, e.g. --networks resnet-18,mobilenet-v2,resnet-50:8");
        if (!args.has("programs-per-task"))
            return fail("--programs-per-task is required (TenSet sampled 3000; 200 is a useful start)");
        auto perTask = args.intValue("programs-per-task", 0);
        auto batch = args.intValue("batch", 1);
        auto seed = args.intValue("seed", 1);
        auto kernelThreads = args.intValue("kernel-threads", 0);
        auto repeat = args.intValue("repeat", 3);
        auto timeout = args.intValue("run-timeout", 4);
        for (const auto* v : { &perTask, &batch, &seed, &kernelThreads, &repeat, &timeout })
            if (!*v)
                return fail(v->error().message);
        if (*perTask < 1 || *perTask > 1000000)
            return fail("--programs-per-task must be between 1 and 1000000, got " + std::to_string(*perTask));
        if (*batch < 1 || *batch > 4096)
            return fail("--batch must be between 1 and 4096, got " + std::to_string(*batch));
        if (*kernelThreads < 0 || *kernelThreads > 4096)
            return fail("--kernel-threads must be between 0 and 4096, got " + std::to_string(*kernelThreads));
        if (*repeat < 1 || *repeat > 100)
            return fail("--repeat must be between 1 and 100, got " + std::to_string(*repeat));
        if (*timeout < 1 || *timeout > 600)
            return fail("--run-timeout must be between 1 and 600 seconds, got " + std::to_string(*timeout));
        auto layout = layoutOption(args);
        if (!layout)
            return fail(layout.error().message);

        // The plan: every network's tasks, each workload once.
        std::vector<store::NetworkInfo> networks;
        std::vector<PlannedTask> plan;
        std::map<std::string, size_t> byKey;
        for (const std::string& item : split(args.value("networks"), ',')) {
            auto ref = parseNetwork(item, *batch, *layout);
            if (!ref)
                return fail(ref.error().message);
            auto set = store::loadNetworkTasks(*ref);
            if (!set)
                return fail(set.error().message);
            store::NetworkInfo info { 0, ref->name, ref->batch, std::string(ops::toString(ref->layout)), {} };
            for (graph::Task& task : set->tasks) {
                const std::string key = task.dag.workloadKey();
                auto [it, added] = byKey.emplace(key, plan.size());
                if (added)
                    plan.push_back({ task, ref->name + ":" + std::to_string(ref->batch), 0 });
                info.tasks.push_back({ static_cast<int64_t>(it->second), task.weight }); // plan index for now
            }
            networks.push_back(std::move(info));
        }

        target::Target target = target::Target::host();
        if (*kernelThreads > 0)
            target.cores = *kernelThreads; // a device of its own: Ansor's num_cores is part of the device
        const std::string workspacePath = args.value("workspace", store::Store::defaultWorkspacePath());
        auto workspace = store::Store::open(workspacePath);
        if (!workspace)
            return fail(workspace.error().message);
        auto deviceId = workspace->addDevice(store::deviceOf(target));
        if (!deviceId)
            return fail(deviceId.error().message);
        for (PlannedTask& p : plan) {
            auto id = workspace->addTask(
                store::taskInfoOf(p.task.name, p.task.dag.workloadKey(), p.task.dag.toString(), p.task.flops));
            if (!id)
                return fail(id.error().message);
            p.storeId = *id;
        }
        for (store::NetworkInfo& n : networks) {
            for (auto& member : n.tasks)
                member.taskId = plan[static_cast<size_t>(member.taskId)].storeId;
            if (auto added = workspace->addNetwork(n); !added)
                return fail(added.error().message);
        }
        std::vector<int64_t> already(plan.size(), 0);
        int64_t missing = 0;
        for (size_t i = 0; i < plan.size(); ++i) {
            store::RecordFilter filter;
            filter.taskIds = { plan[i].storeId };
            filter.deviceId = *deviceId;
            auto counts = workspace->statusCounts(filter);
            if (!counts)
                return fail(counts.error().message);
            for (const auto& [status, n] : *counts)
                already[i] += n;
            missing += std::max<int64_t>(0, *perTask - already[i]);
        }
        const std::string deviceName = store::deviceOf(target).name;
        std::cout << "Collecting " << *perTask << " programs per task: " << plan.size() << " tasks of "
                  << networks.size() << (networks.size() == 1 ? " network" : " networks") << ", " << missing
                  << " programs to measure\nworkspace " << workspacePath << ", on " << deviceName << ", "
                  << (*kernelThreads > 0 ? std::to_string(*kernelThreads) : std::string("all")) << " kernel threads, "
                  << "cache flushed before each of " << *repeat << " runs" << std::endl;

        std::atomic<session::TuningSession*> current { nullptr };
        InterruptCount interrupt([&](int count, int) {
            if (auto* s = current.load()) {
                if (count == 1) {
                    s->cancel();
                    std::cerr << "tunescope-cli: stopping after the batch in flight; run the same command to resume"
                              << std::endl;
                } else {
                    s->abort();
                }
            }
        });
        const auto started = Clock::now();
        int64_t measured = 0;
        for (size_t i = 0; i < plan.size(); ++i) {
            const PlannedTask& p = plan[i];
            const std::string label = "[" + std::to_string(i + 1) + "/" + std::to_string(plan.size()) + "] "
                + p.network + " #" + std::to_string(p.task.id) + " " + p.task.name;
            if (already[i] >= *perTask) {
                std::cout << label << ": " << already[i] << " programs already" << std::endl;
                continue;
            }
            session::TuneOptions options;
            options.tasks.push_back({ p.task.name, p.task.dag, p.task.weight, join(p.task.fusedOps, ",") });
            options.model = "random";
            options.trials = static_cast<int>(*perTask);
            options.seed = fnv1a64(p.task.dag.workloadKey(), static_cast<uint64_t>(*seed));
            options.remeasureTop = 0;
            options.measure.target = target;
            options.measure.kernelThreads = static_cast<int>(*kernelThreads);
            options.measure.timing.number = 1;
            options.measure.timing.repeat = static_cast<int>(*repeat);
            options.measure.timing.minRepeatMs = 0;
            options.measure.timing.flushCache = true;
            options.measure.runTimeoutMs = static_cast<int>(*timeout) * 1000;
            options.workspace = workspacePath;
            int done = 0;
            int failed = 0;
            session::TuningSession session(std::move(options), [&](const session::TuneEvent& e) {
                if (const auto* r = std::get_if<session::RecordMeasured>(&e)) {
                    ++done;
                    failed += !r->result.ok();
                }
            });
            const auto taskStart = Clock::now();
            if (auto ok = session.start(); !ok)
                return fail(label + ": " + ok.error().message);
            current = &session;
            auto finished = session.wait();
            current = nullptr;
            if (!finished)
                return fail(label + ": " + finished.error().message);
            measured += done;
            const double seconds = std::chrono::duration<double>(Clock::now() - taskStart).count();
            const double total = std::chrono::duration<double>(Clock::now() - started).count();
            const double eta = measured > 0 ? total / static_cast<double>(measured) * static_cast<double>(missing - measured) : 0.0;
            std::string best = "none succeeded";
            if (!finished->tasks.empty() && finished->tasks.front().bestCost > 0.0)
                best = "best " + formatFixed(finished->tasks.front().gflops(), 2) + " GFLOP/s";
            std::cout << label << ": " << done << " measured (" << failed << " failed) in " << formatFixed(seconds, 1)
                      << " s, " << best;
            if (finished->tasks.size() == 1 && finished->tasks.front().dead)
                std::cout << "; search space exhausted: " << finished->tasks.front().deadReason;
            std::cout << " | " << measured << "/" << missing << ", ETA " << formatDuration(std::max(0.0, eta))
                      << std::endl;
            if (finished->status == "cancelled" || interrupt.count() > 0) {
                std::cout << "stopped; run the same command to resume" << std::endl;
                return kExitInterrupted;
            }
            if (finished->status == "failed")
                return fail(label + ": " + finished->message);
        }
        std::cout << "done: " << measured << " programs in "
                  << formatDuration(std::chrono::duration<double>(Clock::now() - started).count()) << std::endl;
        return 0;
    }

} // namespace

std::vector<Command> datasetCommands()
{
    return {
        { "collect", "measure a TenSet-style dataset: N sampled programs per task of the chosen networks",
            "tunescope-cli collect --networks NAME[:BATCH],... --programs-per-task N [--batch N] [--layout L] "
            "[--kernel-threads K] [--repeat R] [--run-timeout S] [--seed S] [--workspace PATH]",
            { { "networks", "LIST", "networks to sample, e.g. resnet-18,mobilenet-v2,resnet-50:8 (':B' sets the batch)" },
                { "programs-per-task", "N", "unique programs per task, counting those already stored" },
                kBatchOption, kLayoutOption,
                { "kernel-threads", "K",
                    "threads of the measured kernels (default: all cores); a count other than the machine's is a "
                    "device of its own" },
                { "repeat", "R", "timed runs per program, each after a cache flush (default 3)" },
                { "run-timeout", "S", "seconds a program may run before it counts as a timeout (default 4)" },
                { "seed", "S", "random seed (default 1)" }, kWorkspaceOption, kHelpOption },
            runCollect },
    };
}

} // namespace ts::cli
