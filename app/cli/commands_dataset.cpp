// collect, train, eval: datasets and the cost models learned from them.
//
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
#include "app/cli/data_parallel_options.h"
#include "app/cli/interrupt.h"
#include "core/cost/data_parallel.h"
#include "core/cost/neural_models.h"
#include "core/engine/model_training.h"
#include "core/engine/tuning_session.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>

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
            std::snprintf(
                text, sizeof text, "%lldm%02llds", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
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
                // Tasks of one network with the same workload (two identical layers) are one member: weights add.
                const auto member = static_cast<int64_t>(it->second); // the plan index for now
                auto same = std::find_if(info.tasks.begin(), info.tasks.end(),
                    [&](const store::NetworkInfo::Member& m) { return m.taskId == member; });
                if (same != info.tasks.end())
                    same->weight += task.weight;
                else
                    info.tasks.push_back({ member, task.weight });
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

        std::atomic<engine::TuningSession*> current { nullptr };
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
            const std::string label = "[" + std::to_string(i + 1) + "/" + std::to_string(plan.size()) + "] " + p.network
                + " #" + std::to_string(p.task.id) + " " + p.task.name;
            if (already[i] >= *perTask) {
                std::cout << label << ": " << already[i] << " programs already" << std::endl;
                continue;
            }
            engine::TuneOptions options;
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
            engine::TuningSession session(std::move(options), [&](const engine::TuneEvent& e) {
                if (const auto* r = std::get_if<engine::RecordMeasured>(&e)) {
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
            const double eta
                = measured > 0 ? total / static_cast<double>(measured) * static_cast<double>(missing - measured) : 0.0;
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

    // --- train, eval -----------------------------------------------------------------------------------------

    // A model file: "TSMODEL1\n", one line of JSON (kind, settings, training summary), then the model's bytes.
    constexpr std::string_view kModelMagic = "TSMODEL1\n";

    Expected<void> writeModelFile(const std::string& path, const cost::CostModel& model, const nlohmann::json& summary)
    {
        TS_TRY(std::vector<uint8_t> bytes, model.save());
        const nlohmann::json header { { "kind", model.kind() }, { "settings", nlohmann::json::parse(model.settings()) },
            { "training", summary } };
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << kModelMagic << header.dump() << "\n";
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!out)
            return makeError(ErrorKind::Io, path + ": cannot write the model file");
        return {};
    }

    Expected<std::unique_ptr<cost::CostModel>> readModelFile(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return makeError(ErrorKind::NotFound, path + ": no such model file");
        const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const size_t headerEnd = content.find('\n', kModelMagic.size());
        if (content.compare(0, kModelMagic.size(), kModelMagic) != 0 || headerEnd == std::string::npos)
            return makeError(ErrorKind::Parse, path + ": not a TuneScope model file (made by 'tunescope-cli train')");
        const auto header
            = nlohmann::json::parse(content.substr(kModelMagic.size(), headerEnd - kModelMagic.size()), nullptr, false);
        if (header.is_discarded() || !header.contains("kind") || !header["kind"].is_string())
            return makeError(ErrorKind::Parse, path + ": the model file's header is damaged");
        TS_TRY(std::unique_ptr<cost::CostModel> model, cost::makeCostModel(header["kind"].get<std::string>(), 1));
        const auto* bytes = reinterpret_cast<const uint8_t*>(content.data()) + headerEnd + 1;
        if (auto loaded = model->load(std::span(bytes, content.size() - headerEnd - 1)); !loaded)
            return makeError(loaded.error().kind, path + ": " + loaded.error().message);
        return model;
    }

    // The split a command names: --holdout NETS, or --split tasks:F | time:F; none: every record is a test record.
    Expected<store::DatasetSplit> splitOf(const Arguments& args, const store::Dataset& dataset, uint64_t seed)
    {
        if (args.has("holdout") && args.has("split"))
            return makeError(ErrorKind::InvalidArgument, "give --holdout or --split, not both");
        store::SplitOptions options;
        options.seed = seed;
        if (args.has("holdout")) {
            const std::vector<std::string> names = split(args.value("holdout"), ',');
            return store::splitByNetworks(dataset, names, options);
        }
        if (args.has("split")) {
            const std::string text = args.value("split");
            const size_t colon = text.find(':');
            const std::string how = text.substr(0, colon);
            char* end = nullptr;
            const std::string fractionText = colon == std::string::npos ? "" : text.substr(colon + 1);
            const double fraction = std::strtod(fractionText.c_str(), &end);
            if (fractionText.empty() || *end != '\0' || (how != "tasks" && how != "time"))
                return makeError(ErrorKind::InvalidArgument,
                    "--split must be tasks:F or time:F with F the test fraction, e.g. tasks:0.2, got '" + text + "'");
            return how == "tasks" ? store::splitByTasks(dataset, fraction, options)
                                  : store::splitByTime(dataset, fraction, options);
        }
        store::DatasetSplit all;
        for (size_t i = 0; i < dataset.records.size(); ++i)
            all.test.push_back(i);
        return all;
    }

    struct LoadedDataset {
        store::Store store;
        store::Dataset dataset;
        std::map<int64_t, target::Target> targets;
    };

    Expected<LoadedDataset> loadDatasetOption(const Arguments& args)
    {
        if (!args.has("dataset"))
            return makeError(
                ErrorKind::InvalidArgument, "--dataset WORKSPACE is required (a workspace 'collect' filled)");
        TS_TRY(store::Store store, store::Store::open(args.value("dataset"), { true }));
        store::DatasetOptions options;
        if (args.has("device")) {
            TS_TRY(int64_t device, parseInt(args.value("device"), "--device"));
            options.deviceId = device;
        }
        if (args.has("networks"))
            options.networks = split(args.value("networks"), ',');
        TS_TRY(store::Dataset dataset, store::loadDataset(store, options));
        TS_CHECK(engine::attachSessionDags(store, dataset)); // tasks of tuning sessions, not of `collect`
        TS_TRY(auto targets, engine::deviceTargets(store));
        return LoadedDataset { std::move(store), std::move(dataset), std::move(targets) };
    }

    // --dataset (and its filters), --seed and the split, for train and eval.
    struct SplitDataset {
        LoadedDataset loaded;
        store::DatasetSplit split;
        uint64_t seed = 1;
    };

    Expected<SplitDataset> loadAndSplit(const Arguments& args, bool print = true)
    {
        TS_TRY(int64_t seed, args.intValue("seed", 1));
        TS_TRY(LoadedDataset loaded, loadDatasetOption(args));
        TS_TRY(store::DatasetSplit split, splitOf(args, loaded.dataset, static_cast<uint64_t>(seed)));
        for (const std::string& line : loaded.dataset.report.lines())
            if (print)
                std::cout << "# " << line << "\n";
        return SplitDataset { std::move(loaded), std::move(split), static_cast<uint64_t>(seed) };
    }

    std::string percent(double v) { return formatFixed(v, 3); }

    void printMetrics(const engine::EvalReport& report, const store::MetricOptions& options)
    {
        const store::MetricsSummary& m = report.metrics;
        std::cout << "scored " << report.scored << " programs of " << m.tasks << " tasks in "
                  << formatFixed(report.seconds, 2) << " s";
        if (report.withoutDag + report.notReplayed > 0)
            std::cout << " (not scored: " << report.withoutDag << " of tasks that cannot be rebuilt, "
                      << report.notReplayed << " that do not replay)";
        std::cout << "\n\n";
        std::cout << "                        pairwise  spearman  rmse    ";
        for (int k : options.ks)
            std::cout << "recall@" << std::left << std::setw(3) << k << std::right;
        for (int k : options.ks)
            std::cout << "  peak@" << std::left << std::setw(3) << k << std::right;
        std::cout << "\n";
        auto row = [&](const std::string& name, const store::MetricValues& v) {
            std::cout << "  " << std::left << std::setw(22) << name << std::right << std::setw(6)
                      << percent(v.pairwiseAccuracy) << "    " << std::setw(6) << percent(v.spearman) << "    "
                      << std::setw(6) << percent(v.rmse) << "  ";
            for (double r : v.topKRecall)
                std::cout << std::setw(7) << percent(r) << "   ";
            for (double p : v.peakScore)
                std::cout << std::setw(7) << percent(p) << "  ";
            std::cout << "\n";
        };
        row("mean over tasks", m.mean);
        row("weighted by programs", m.recordWeighted);
        if (!m.networks.empty()) {
            std::cout << "\nnetwork top-k score (TenSet: sum w * best / sum w * best of the model's top k)\n";
            for (const store::NetworkMetrics& n : m.networks) {
                std::cout << "  " << std::left << std::setw(36) << n.name << std::right;
                for (size_t i = 0; i < options.ks.size() && i < n.topKScore.size(); ++i)
                    std::cout << "  top-" << options.ks[i] << " " << percent(n.topKScore[i]);
                std::cout << "  (" << n.tasks << " tasks";
                if (n.tasksWithoutPrograms > 0)
                    std::cout << ", " << n.tasksWithoutPrograms << " without programs";
                std::cout << ")\n";
            }
        }
    }

    // --train-share F[:DEVICE]: keep a seeded fraction F of each task's training records (of DEVICE's only,
    // when given; the other devices' records stay whole). At least one record of each task is kept.
    Expected<std::vector<size_t>> applyTrainShare(
        const Arguments& args, const store::Dataset& dataset, const std::vector<size_t>& train, uint64_t seed)
    {
        if (!args.has("train-share"))
            return train;
        const std::string text = args.value("train-share");
        const size_t colon = text.find(':');
        char* end = nullptr;
        const std::string fractionText = text.substr(0, colon);
        const double fraction = std::strtod(fractionText.c_str(), &end);
        if (fractionText.empty() || *end != '\0' || !(fraction > 0.0 && fraction <= 1.0))
            return makeError(ErrorKind::InvalidArgument,
                "--train-share must be F or F:DEVICE with 0 < F <= 1, e.g. 0.07:2, got '" + text + "'");
        std::optional<int64_t> device;
        if (colon != std::string::npos) {
            TS_TRY(int64_t id, parseInt(text.substr(colon + 1), "--train-share: the device"));
            device = id;
        }
        return store::shareOfRecords(dataset, train, fraction, device, seed);
    }

    int runTrain(const Arguments& args)
    {
        if (!args.has("out"))
            return fail("--out FILE is required (where the trained model goes)");
        // Data-parallel: join the other ranks first, so that an unreachable rendezvous fails before any work.
        // (With --init the file names the kind: it is checked once read.)
        auto group = joinDataParallel(
            args, args.has("init") ? std::vector<std::string> {} : std::vector { args.value("model", "xgb") });
        if (!group)
            return fail(group.error().message);
        const bool lead = reports(*group);
        auto data = loadAndSplit(args, lead);
        if (!data)
            return fail(data.error().message);
        const LoadedDataset* loaded = &data->loaded;
        const store::DatasetSplit* split = &data->split;
        std::vector<size_t> train = split->train;
        if (!args.has("holdout") && !args.has("split"))
            train = split->test; // no split: train on everything
        train.insert(train.end(), split->validation.begin(), split->validation.end());
        std::sort(train.begin(), train.end());
        auto shared = applyTrainShare(args, loaded->dataset, train, data->seed);
        if (!shared)
            return fail(shared.error().message);
        train = std::move(shared).value();
        std::string kind = args.value("model", "xgb");
        auto model = cost::makeCostModel(kind, data->seed);
        if (args.has("init")) { // transfer: start from a trained model
            model = readModelFile(args.value("init"));
            if (model)
                kind = (*model)->kind();
        }
        if (!model)
            return fail(model.error().message);
        if (*group && !cost::neuralSettingsOf(kind))
            return fail("--world-size trains the LibTorch models only; the --init model is " + kind);
        trainWith(**model, *group);
        if (lead)
            std::cout << "training " << kind << " on " << train.size() << " records of " << loaded->store.path()
                      << (*group ? " (" + std::to_string((*group)->worldSize()) + " ranks, data-parallel)" : "")
                      << std::endl;
        const InterruptStop stop; // Ctrl-C ends the training after the current epoch; the model so far is written
        (*model)->setTrainingProgress([&stop, lead](double fraction, double loss) {
            if (lead)
                std::cout << "  " << formatFixed(100.0 * fraction, 0) << "% loss " << formatFixed(loss, 4) << std::endl;
            return !stop.token().stop_requested();
        });
        auto report = engine::trainOnDataset(**model, loaded->dataset, train, loaded->targets);
        if (!report)
            return fail(report.error().message);
        if (!lead) { // the other ranks: one line; rank 0 writes the model
            std::cout << rankName(**group) << ": trained " << kind << " on " << report->samples << " programs in "
                      << formatFixed(report->seconds, 1) << " s; model: " << (*model)->trainingSummary() << "\n";
            return 0;
        }
        const nlohmann::json summary { { "dataset", loaded->store.path() }, { "records", report->samples },
            { "tasks", report->tasks }, { "holdout", args.value("holdout", "") }, { "split", args.value("split", "") },
            { "seconds", report->seconds }, { "model", nlohmann::json::parse((*model)->trainingSummary()) } };
        std::cout << "trained on " << report->samples << " programs of " << report->tasks << " tasks in "
                  << formatFixed(report->seconds, 1) << " s";
        if (report->withoutDag + report->notReplayed > 0)
            std::cout << " (" << report->withoutDag << " records of tasks that cannot be rebuilt, "
                      << report->notReplayed << " that do not replay)";
        std::cout << "\nmodel: " << (*model)->trainingSummary() << "\n";
        if (auto written = writeModelFile(args.value("out"), **model, summary); !written)
            return fail(written.error().message);
        std::cout << "model written to " << args.value("out") << "\n";
        return 0;
    }

    int runEval(const Arguments& args)
    {
        if (!args.has("model"))
            return fail("--model FILE is required (a model 'tunescope-cli train' wrote)");
        auto model = readModelFile(args.value("model"));
        if (!model)
            return fail(model.error().message);
        auto data = loadAndSplit(args);
        if (!data)
            return fail(data.error().message);
        const LoadedDataset* loaded = &data->loaded;
        const store::DatasetSplit* split = &data->split;
        std::cout << "evaluating " << (*model)->kind() << " (" << args.value("model") << ") on " << split->test.size()
                  << " test records" << (args.has("holdout") ? " of " + args.value("holdout") : std::string()) << "\n";
        const store::MetricOptions options;
        const engine::EvalReport report
            = engine::evaluateOnDataset(**model, loaded->dataset, split->test, loaded->targets, options);
        printMetrics(report, options);
        return 0;
    }

    // --- compare-models ---------------------------------------------------------------------------------------

    nlohmann::json jsonNumber(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

    // A network score, or "-" when the test tasks belong to no network.
    std::string scoreText(double score) { return std::isfinite(score) ? formatFixed(score, 3) : std::string("-"); }

    // The --search part: each model's best latency and the trials it needed to reach xgb's.
    void printSearches(const std::vector<engine::ModelComparison>& models, const engine::CompareOptions& options)
    {
        const engine::ModelComparison* xgb = nullptr;
        for (const auto& r : models)
            if (r.kind == "xgb" && r.search && r.search->error.empty())
                xgb = &r;
        std::cout << "\nsearch: Ansor guided by each trained model, " << options.searchTrials
                  << " trials per held-out task, seed " << options.seed << "\n";
        if (const auto* first = !models.empty() && models.front().search ? &*models.front().search : nullptr) {
            std::cout << "  tasks:";
            for (const std::string& t : first->tasks)
                std::cout << " " << t;
            std::cout << "\n";
        }
        std::cout << "model             sum of best ms   trials to reach xgb's   seconds   best per task (ms)\n";
        for (const auto& r : models) {
            if (!r.search)
                continue;
            const engine::ModelSearch& s = *r.search;
            std::cout << "  " << std::left << std::setw(16) << r.kind << std::right;
            if (!s.error.empty()) {
                std::cout << "failed: " << s.error << "\n";
                continue;
            }
            const double total = s.totalBest();
            const int reach = xgb ? s.trialsToReach(xgb->search->totalBest()) : -1;
            std::cout << std::setw(14) << (std::isfinite(total) ? formatFixed(total * 1e3, 4) : std::string("-"))
                      << "   " << std::setw(21) << (reach >= 0 ? std::to_string(reach) : std::string("never")) << "   "
                      << std::setw(7) << formatFixed(s.seconds, 0) << "  ";
            for (double c : s.bestCost)
                std::cout << " " << formatFixed(c * 1e3, 4);
            std::cout << "\n";
        }
    }

    int runCompareModels(const Arguments& args)
    {
        if (!args.has("models"))
            return fail("--models is required, e.g. --models xgb,mlp,lstm,tlp,atformer,gtuner");
        engine::CompareOptions options;
        options.kinds = split(args.value("models"), ',');
        for (const std::string& kind : options.kinds)
            if (auto probe = cost::makeCostModel(kind, 1); !probe)
                return fail(probe.error().message);
        auto group = joinDataParallel(args, options.kinds);
        if (!group)
            return fail(group.error().message);
        const bool lead = reports(*group);
        if (*group) {
            options.prepare = [group = *group](cost::CostModel& model) { trainWith(model, group); };
            options.evaluate = lead;
        }
        auto data = loadAndSplit(args, lead);
        if (!data)
            return fail(data.error().message);
        const store::Dataset& dataset = data->loaded.dataset;
        options.seed = data->seed;
        std::vector<size_t> train = data->split.train;
        train.insert(train.end(), data->split.validation.begin(), data->split.validation.end());
        std::sort(train.begin(), train.end());
        auto shared = applyTrainShare(args, dataset, train, data->seed);
        if (!shared)
            return fail(shared.error().message);
        train = std::move(shared).value();
        std::vector<size_t> test = data->split.test;
        if (args.has("test-device")) {
            auto device = parseInt(args.value("test-device"), "--test-device");
            if (!device)
                return fail(device.error().message);
            std::erase_if(test, [&](size_t i) { return dataset.records[i].deviceId != *device; });
        }
        if (train.empty() || test.empty())
            return fail("the split leaves " + std::to_string(train.size()) + " training and "
                + std::to_string(test.size()) + " test records; both must be non-empty (give --holdout or --split)");
        if (lead)
            std::cout << "training on " << train.size() << " records, testing on " << test.size()
                      << (*group ? " (" + std::to_string((*group)->worldSize()) + " ranks, data-parallel)" : "")
                      << std::endl;

        if (args.has("search") && lead) {
            auto tasks = parseInt(args.value("search"), "--search");
            auto trials = args.intValue("search-trials", 64);
            if (!tasks || !trials)
                return fail(!tasks ? tasks.error().message : trials.error().message);
            if (*tasks < 1 || *tasks > 100 || *trials < 1 || *trials > 100000)
                return fail("--search takes 1..100 tasks and --search-trials 1..100000 trials");
            options.searchTasks = static_cast<int>(*tasks);
            options.searchTrials = static_cast<int>(*trials);
            options.searchMeasuresPerRound = static_cast<int>(std::min<int64_t>(16, *trials));
            options.searchDirectory = std::filesystem::temp_directory_path().string();
        }
        const InterruptStop stop;
        std::string current;
        options.progress = [&](const std::string& kind, double fraction, double loss) {
            if (!lead)
                return !stop.token().stop_requested();
            if (kind != current) {
                if (!current.empty())
                    std::cout << "\n";
                current = kind;
            }
            std::cout << "\r  " << kind << ": training " << formatFixed(100.0 * fraction, 0) << "%";
            if (fraction > 0)
                std::cout << ", loss " << formatFixed(loss, 4);
            std::cout << "    " << std::flush;
            return !stop.token().stop_requested();
        };
        options.searchProgress = [&](const std::string& kind, int trials, int budget) {
            std::cout << "\r  " << kind << ": searching, " << trials << "/" << budget << " trials    " << std::flush;
            return !stop.token().stop_requested();
        };
        auto result = engine::compareModels(dataset, train, test, data->loaded.targets, options);
        if (lead)
            std::cout << "\n";
        if (!result)
            return fail(result.error().message);
        if (!lead) { // the other ranks: one line; rank 0 prints the table
            std::cout << rankName(**group) << ": trained";
            for (const engine::ModelComparison& r : result->models)
                std::cout << " " << r.kind << " ("
                          << (r.error.empty() ? formatFixed(r.trainSeconds, 1) + " s" : r.error) << ")";
            std::cout << " on " << result->trainSamples << " programs\n";
            return result->stopped ? kExitInterrupted : 0;
        }

        std::cout << "\ntrained on " << result->trainSamples << " programs of " << result->trainGroups
                  << " task groups; tested on " << result->records.size() << " programs\n\n";
        std::cout << "model             train s   top-1   top-5   pairwise   rmse     peak@1   recall@5   programs/s   "
                     "size KB\n";
        for (const engine::ModelComparison& r : result->models) {
            std::cout << "  " << std::left << std::setw(16) << r.kind << std::right;
            if (!r.error.empty()) {
                std::cout << "failed: " << r.error << "\n";
                continue;
            }
            const store::MetricValues& v = r.metrics.mean;
            std::cout << std::setw(7) << formatFixed(r.trainSeconds, 1) << "   " << std::setw(5)
                      << scoreText(engine::meanNetworkScore(r.metrics, 0)) << "   " << std::setw(5)
                      << scoreText(engine::meanNetworkScore(r.metrics, 1)) << "   " << std::setw(8)
                      << formatFixed(v.pairwiseAccuracy, 3) << "   " << std::setw(6) << formatFixed(v.rmse, 3) << "   "
                      << std::setw(6) << formatFixed(v.peakScore.empty() ? 0.0 : v.peakScore[0], 3) << "   "
                      << std::setw(8) << formatFixed(v.topKRecall.size() > 1 ? v.topKRecall[1] : 0.0, 3) << "   "
                      << std::setw(10) << formatFixed(r.programsPerSecond, 0) << "   " << std::setw(7)
                      << formatFixed(static_cast<double>(r.bytes) / 1024.0, 0) << "\n";
        }
        std::cout
            << "\ntop-1 / top-5: TenSet's network score (sum w * best / sum w * best of the model's top k), mean over "
               "the test networks;\npairwise, rmse, peak@1, recall@5: means over the test tasks; programs/s: "
               "features + prediction.\n";
        const auto& models = result->models;
        if (!models.empty() && !models.front().metrics.networks.empty()) {
            std::cout << "\nper network, top-1 / top-5:\n";
            for (size_t n = 0; n < models.front().metrics.networks.size(); ++n) {
                std::cout << "  " << std::left << std::setw(34) << models.front().metrics.networks[n].name
                          << std::right;
                for (const engine::ModelComparison& r : models)
                    if (r.error.empty() && n < r.metrics.networks.size() && r.metrics.networks[n].topKScore.size() > 1)
                        std::cout << "  " << r.kind << " " << formatFixed(r.metrics.networks[n].topKScore[0], 3) << "/"
                                  << formatFixed(r.metrics.networks[n].topKScore[1], 3);
                std::cout << "\n";
            }
        }
        if (options.searchTasks > 0)
            printSearches(models, options);
        if (args.has("json")) {
            nlohmann::json out = nlohmann::json::array();
            for (const engine::ModelComparison& r : models) {
                nlohmann::json networks = nlohmann::json::object();
                for (const store::NetworkMetrics& n : r.metrics.networks)
                    networks[n.name] = n.topKScore;
                out.push_back({ { "model", r.kind }, { "error", r.error }, { "train_seconds", r.trainSeconds },
                    { "top1", jsonNumber(engine::meanNetworkScore(r.metrics, 0)) },
                    { "top5", jsonNumber(engine::meanNetworkScore(r.metrics, 1)) },
                    { "pairwise", r.metrics.mean.pairwiseAccuracy }, { "rmse", r.metrics.mean.rmse },
                    { "programs_per_second", r.programsPerSecond }, { "bytes", r.bytes }, { "networks", networks },
                    { "training", nlohmann::json::parse(r.trainingSummary) } });
                if (r.search)
                    out.back()["search"] = { { "tasks", r.search->tasks }, { "best_cost", r.search->bestCost },
                        { "curve", r.search->curve }, { "error", r.search->error } };
            }
            std::ofstream file(args.value("json"));
            file << out.dump(2) << "\n";
            if (!file)
                return fail(args.value("json") + ": cannot write");
        }
        return result->stopped ? kExitInterrupted : 0;
    }

} // namespace

const OptionSpec kHoldoutOption { "holdout", "NETS",
    "test on these networks' tasks, train on the others (TenSet holds out resnet-50,mobilenet-v2,bert-base)" };
const OptionSpec kSplitOption { "split", "tasks:F|time:F",
    "test on a seeded fraction F of the tasks, or on the last fraction F of each task's records" };
const OptionSpec kDatasetNetworksOption { "networks", "NETS", "only the tasks of these networks (default: all)" };
const OptionSpec kTrainShareOption { "train-share", "F[:DEVICE]",
    "train on a seeded fraction F of each task's training records (of DEVICE's only, when given)" };
const OptionSpec kDeviceOption { "device", "ID", "only this device's records (default: every device)" };

namespace {
    std::vector<OptionSpec> withDataParallel(std::vector<OptionSpec> options)
    {
        options.insert(options.end() - 1, kDataParallelOptions.begin(), kDataParallelOptions.end()); // before --help
        return options;
    }
} // namespace

std::vector<Command> datasetCommands()
{
    return {
        { "collect", "measure a TenSet-style dataset: N sampled programs per task of the chosen networks",
            "tunescope-cli collect --networks NAME[:BATCH],... --programs-per-task N [--batch N] [--layout L] "
            "[--kernel-threads K] [--repeat R] [--run-timeout S] [--seed S] [--workspace PATH]",
            { { "networks", "LIST",
                  "networks to sample, e.g. resnet-18,mobilenet-v2,resnet-50:8 (':B' sets the batch)" },
                { "programs-per-task", "N", "unique programs per task, counting those already stored" }, kBatchOption,
                kLayoutOption,
                { "kernel-threads", "K",
                    "threads of the measured kernels (default: all cores); a count other than the machine's is a "
                    "device of its own" },
                { "repeat", "R", "timed runs per program, each after a cache flush (default 3)" },
                { "run-timeout", "S", "seconds a program may run before it counts as a timeout (default 4)" },
                { "seed", "S", "random seed (default 1)" }, kWorkspaceOption, kHelpOption },
            runCollect },
        { "train", "train a cost model on a dataset (all of it, or the training part of a split)",
            "tunescope-cli train --dataset WORKSPACE --out FILE [--model xgb] [--init FILE] [--holdout NETS | --split "
            "tasks:F|time:F] [--train-share F[:DEVICE]] "
            "[--networks NETS] [--device ID] [--seed S] [--world-size N --rank R --rendezvous tcp://HOST:PORT]",
            withDataParallel({ { "dataset", "WORKSPACE", "the workspace that holds the dataset ('collect' fills one)" },
                { "out", "FILE", "where the trained model is written" },
                { "model", "KIND", "the cost model to train (default xgb)" },
                { "init", "FILE", "start from this trained model (transfer / fine-tuning; its kind wins)" },
                kHoldoutOption, kSplitOption, kTrainShareOption, kDatasetNetworksOption, kDeviceOption,
                { "seed", "S", "seed of the model and of a task split (default 1)" }, kHelpOption }),
            runTrain },
        { "eval", "score a dataset's test records with a trained model and print TenSet's metrics",
            "tunescope-cli eval --model FILE --dataset WORKSPACE [--holdout NETS | --split tasks:F|time:F] "
            "[--networks NETS] [--device ID] [--seed S]",
            { { "model", "FILE", "a model file 'tunescope-cli train' wrote" },
                { "dataset", "WORKSPACE", "the workspace that holds the dataset" }, kHoldoutOption, kSplitOption,
                kDatasetNetworksOption, kDeviceOption, { "seed", "S", "seed of a task split (default 1)" },
                kHelpOption },
            runEval },
        { "compare-models", "train several cost models on one split and print one table of their metrics",
            "tunescope-cli compare-models --models KIND,... --dataset WORKSPACE [--holdout NETS | --split "
            "tasks:F|time:F] [--train-share F[:DEVICE]] [--test-device ID] [--networks NETS] [--device ID] [--seed S] "
            "[--search N [--search-trials T]] [--json FILE] [--world-size N --rank R --rendezvous tcp://HOST:PORT]",
            withDataParallel({ { "models", "KINDS", "the cost models, e.g. xgb,xgb-rank,mlp,lstm,tlp,atformer,gtuner" },
                { "dataset", "WORKSPACE", "the workspace that holds the dataset" }, kHoldoutOption, kSplitOption,
                kTrainShareOption, { "test-device", "ID", "test on this device's records only" },
                kDatasetNetworksOption, kDeviceOption, { "seed", "S", "seed of the models and of a split (default 1)" },
                { "search", "N", "then tune the first N test tasks with each trained model (Ansor, same seed)" },
                { "search-trials", "T", "trials per task of that search (default 64)" },
                { "json", "FILE", "also write the table as JSON" }, kHelpOption }),
            runCompareModels },
    };
}

} // namespace ts::cli
