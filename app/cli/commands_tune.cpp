// sketches, best, tune: Ansor on this machine's CPU from a shell. Each works on a network's tasks (all, or
// those named) or on one operator (core/graph/op_tasks.h). `tune` drives a engine::TuningSession and
// prints what it reports (tune_printer.h); `best` reads what sessions stored, keyed as the session keys it
// (the DAG's workload key, the host's device row); `sketches` shows what the search starts from.
#include "app/cli/commands.h"
#include "app/cli/interrupt.h"
#include "app/cli/task_selection.h"
#include "app/cli/tune_printer.h"
#include "core/engine/machine.h"
#include "core/engine/tune_origin.h"
#include "core/engine/tuning_session.h"
#include "core/graph/op_tasks.h"
#include "core/lower/lower.h"
#include "core/measure/gpu_bundle.h"
#include "core/schedule/step_json.h"
#include "core/schedule/step_printer.h"
#include "core/search/annotation.h"
#include "core/search/sketch.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/support/rng.h"
#include "core/support/strings.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace ts::cli {

namespace {

    std::string indented(const std::string& text, const std::string& prefix)
    {
        std::string out;
        for (const std::string& line : split(text, '\n'))
            if (!line.empty())
                out += prefix + line + "\n";
        return out;
    }

    // What kind of refusal a message is, for counting: without the kernel's name, each number an N.
    std::string refusalKind(std::string message)
    {
        if (message.rfind("GPU kernel ", 0) == 0 && message.find(": ") != std::string::npos)
            message = message.substr(message.find(": ") + 2);
        std::string kind;
        for (char c : message)
            if (!std::isdigit(static_cast<unsigned char>(c)))
                kind += c;
            else if (kind.empty() || kind.back() != 'N')
                kind += 'N';
        return kind;
    }

    int runSketches(const Arguments& args)
    {
        auto selection = selectTasks(args, "task", true);
        if (!selection)
            return fail(selection.error().message);
        auto samples = boundedInt(args, "samples", 0, 0, 1000);
        auto seed = boundedInt(args, "seed", 1, 0, INT64_MAX);
        for (const auto* v : { &samples, &seed })
            if (!*v)
                return fail(v->error().message);
        const graph::Task& task = selection->tasks.front();
        target::Target target = target::Target::host();
        if (args.has("target")) {
            auto parsed = target::fromTvm(args.value("target"));
            if (!parsed)
                return fail(parsed.error().message);
            target = *parsed;
        }
        const search::SearchTask searchTask { task.dag, target, task.name, task.flops };
        const search::SearchParams params;
        auto sketches = search::generateSketches(searchTask, params);
        if (!sketches)
            return fail(sketches.error().message);
        std::cout << "# " << selection->title << ", task " << task.id << " (" << task.name << "): " << task.shapes
                  << "\n# " << sketches->size() << (sketches->size() == 1 ? " sketch" : " sketches") << " for "
                  << store::deviceOf(searchTask.target).name << "\n";
        // --emit-bundle: each annotation a kernel bundle for tunescope-gpu-runner, the reference computed once.
        const std::string bundlePath = args.value("emit-bundle");
        std::optional<measure::Reference> reference;
        std::ofstream bundles;
        const measure::GpuBundleOptions bundleOptions;
        if (!bundlePath.empty()) {
            if (!target.isGpu())
                return fail("--emit-bundle makes bundles for GPU targets (--target 'cuda -arch=sm_90')");
            auto computed = measure::computeReference(task.dag, bundleOptions.seed, bundleOptions.samples);
            if (!computed)
                return fail(computed.error().message);
            reference = std::move(computed).value();
            bundles.open(bundlePath, std::ios::app);
            if (!bundles)
                return fail("cannot write " + bundlePath);
        }
        int emitted = 0;
        std::map<std::string, int> refused;
        Rng rng(static_cast<uint64_t>(*seed));
        for (size_t i = 0; i < sketches->size(); ++i) {
            const search::Sketch& sketch = (*sketches)[i];
            std::cout << "\n## sketch " << i + 1 << " of " << sketches->size() << "\n"
                      << search::toString(sketch) << "steps:\n"
                      << indented(sched::printStepsAsCalls(task.dag, sketch.state.steps()), "  ");
            // With --emit-bundle, annotations are drawn until `samples` of them are within the device's limits
            // (at most 20 times as many tries), as the search's sampler draws again for an invalid one.
            int emittedHere = 0;
            const int64_t tries = reference ? *samples * 20 : *samples;
            for (int64_t k = 0; k < tries && (!reference || emittedHere < *samples); ++k) {
                auto state = search::randomAnnotation(searchTask, sketch, params, rng);
                if (reference) {
                    const std::string id = "sketch " + std::to_string(i + 1) + " annotation " + std::to_string(k + 1);
                    const measure::GpuBuild built = state
                        ? measure::buildGpuBundle(*state, target, *reference, id, "", bundleOptions)
                        : measure::GpuBuild { "", record::MeasureStatus::InstantiationError, state.error().message };
                    if (built.status == record::MeasureStatus::Ok && (bundles << built.line << "\n")) {
                        ++emitted;
                        ++emittedHere;
                    } else
                        ++refused[refusalKind(built.message)];
                    continue;
                }
                std::cout << "\n### sketch " << i + 1 << ", annotation " << k + 1;
                if (!state) {
                    std::cout << ": failed: " << state.error().message << "\n";
                    continue;
                }
                auto bound = lower::inferBound(*state);
                std::cout << "\n"
                          << (bound ? bound->toString() : state->toString()) << "steps:\n"
                          << indented(sched::printStepsAsCalls(task.dag, state->steps()), "  ");
            }
        }
        if (reference) {
            std::cout << "\nbundles: " << emitted << " appended to " << bundlePath;
            int total = 0;
            for (const auto& [why, n] : refused)
                total += n;
            std::cout << " (" << *samples << " wanted per sketch); " << total
                      << " annotations refused before any GPU and drawn again" << (total ? ":" : "") << "\n";
            for (const auto& [why, n] : refused)
                std::cout << "  " << n << " x " << why << "\n";
            std::cout << "on a GPU machine: tunescope-gpu-runner " << bundlePath
                      << " > results.jsonl; tunescope-gpu-bench --results results.jsonl compares the best with "
                         "cuBLAS (matmul)\n";
            if (!bundles)
                return fail("writing " + bundlePath + " failed");
        }
        return 0;
    }

    int runBest(const Arguments& args)
    {
        auto selection = selectTasks(args, "task", false);
        if (!selection)
            return fail(selection.error().message);
        auto workspace = openWorkspace(args, true);
        if (!workspace) {
            const bool missing = workspace.error().kind == ErrorKind::NotFound;
            return fail(
                workspace.error().message + (missing ? " (nothing tuned there; 'tunescope-cli tune' makes one)" : ""));
        }
        auto devices = workspace->devices();
        auto summaries = workspace->bestPerTask();
        if (!devices)
            return fail(devices.error().message);
        if (!summaries)
            return fail(summaries.error().message);
        const store::Device here = store::deviceOf(target::Target::host());
        const std::optional<store::Device> device = engine::hostDevice(*devices, here);
        const std::optional<measure::MachineProfile> profile
            = device ? engine::storedProfile(*device) : std::optional<measure::MachineProfile>();
        std::cout << "# " << selection->title << ", on " << here.name << "\n# workspace " << workspace->path() << "\n";
        for (const graph::Task& task : selection->tasks) {
            std::cout << "\ntask " << task.id << " (" << task.name << "): " << task.shapes << "\n";
            auto row = workspace->findTask(task.dag.workloadKey());
            if (!row)
                return fail(row.error().message);
            auto summary = std::find_if(summaries->begin(), summaries->end(), [&](const store::TaskSummary& s) {
                return *row && device && s.taskId == (*row)->id && s.deviceId == device->id;
            });
            if (summary == summaries->end()) {
                std::cout << "  not tuned on this machine\n";
                continue;
            }
            auto best = workspace->bestRecords((*row)->id, device->id, 1);
            if (!best)
                return fail(best.error().message);
            if (best->empty()) {
                std::cout << "  not tuned: " << summary->records << " trials, none succeeded\n";
                continue;
            }
            const store::Record& record = best->front();
            const double cost = record.result.meanCost();
            std::cout << "  best:   " << formatFixed(cost * 1e3, 4) << " ms, "
                      << formatFixed(task.flops / cost / 1e9, 2) << " GFLOP/s (record " << record.id << ")\n"
                      << "  trials: " << summary->records << " (" << summary->failures << " failed)\n";
            if (profile) {
                // The record's threads are the session's; the ceilings are the machine's at all its cores.
                std::cout << "  roof:   "
                          << roofText(
                                 *profile, task.dag, task.flops, cost, static_cast<int>(profile->peakGflops.size()))
                          << "\n";
            } else {
                std::cout << "  roof:   not known ('tunescope-cli machine' measures this machine's limits)\n";
            }
            auto steps = sched::parseSteps(record.steps);
            if (!steps)
                return fail("record " + std::to_string(record.id) + ": " + steps.error().message);
            std::cout << "  steps:\n" << indented(sched::printStepsAsCalls(task.dag, *steps), "    ");
        }
        return 0;
    }

    int runTune(const Arguments& args)
    {
        auto selection = selectTasks(args, "tasks", false);
        if (!selection)
            return fail(selection.error().message);
        if (!args.has("trials"))
            return fail("--trials is required (measurements in all, e.g. --trials 1000)");
        auto trials = args.intValue("trials", 0);
        if (trials && *trials <= 0)
            return fail("--trials must be > 0, got " + std::to_string(*trials));
        auto perRound = boundedInt(args, "measures-per-round", 64, 1, 4096);
        auto seed = boundedInt(args, "seed", 1, 0, INT64_MAX);
        auto threads = boundedInt(args, "threads", 0, 0, 4096);
        auto earlyStopping = boundedInt(args, "early-stopping", 0, 0, INT32_MAX);
        auto minRepeatMs = boundedInt(args, "min-repeat-ms", measure::TimingOptions {}.minRepeatMs, 0, 60000);
        for (const auto* v : { &trials, &perRound, &seed, &threads, &earlyStopping, &minRepeatMs })
            if (!*v)
                return fail(v->error().message);
        if (*trials > INT32_MAX)
            return fail("--trials must be at most " + std::to_string(INT32_MAX));
        auto policy = search::policyKindFromString(args.value("policy", "ansor"));
        if (!policy)
            return fail("--policy: " + policy.error().message);
        const std::string crossoverText = args.value("crossover", "0");
        char* crossoverEnd = nullptr;
        const double crossover = std::strtod(crossoverText.c_str(), &crossoverEnd);
        if (crossoverText.empty() || *crossoverEnd != '\0' || !(crossover >= 0.0 && crossover <= 1.0))
            return fail("--crossover must be a probability in [0, 1], got '" + crossoverText + "'");
        const std::string prefilterText = args.value("prefilter", "1");
        char* prefilterEnd = nullptr;
        const double prefilter = std::strtod(prefilterText.c_str(), &prefilterEnd);
        if (prefilterText.empty() || *prefilterEnd != '\0' || !(prefilter > 0.0 && prefilter <= 1.0))
            return fail("--prefilter must be a fraction in (0, 1], got '" + prefilterText + "'");
        const std::string warmup = args.value("warmup", "analytical");
        if (warmup != "analytical" && warmup != "random")
            return fail("--warmup must be analytical or random, got '" + warmup + "'");
        auto similarSeeds = boundedInt(args, "similar-task-seeds", search::SearchParams {}.similarTaskSeeds, 0, 4096);
        if (!similarSeeds)
            return fail(similarSeeds.error().message);
        const std::string scheduler = args.value("scheduler", "gradient");
        if (scheduler != "gradient" && scheduler != "round-robin")
            return fail("--scheduler must be gradient or round-robin, got '" + scheduler + "'");
        // --switch-model T:KIND: another model ranks once the session has measured T trials.
        int switchAt = 0;
        std::string switchTo;
        if (args.has("switch-model")) {
            const std::string text = args.value("switch-model", "");
            const size_t colon = text.find(':');
            char* end = nullptr;
            const long long at = colon == std::string::npos ? 0 : std::strtoll(text.c_str(), &end, 10);
            if (colon == std::string::npos || end != text.c_str() + colon || at <= 0 || at > INT32_MAX)
                return fail("--switch-model must be TRIALS:KIND with TRIALS > 0 (e.g. 256:tlp), got '" + text + "'");
            switchAt = static_cast<int>(at);
            switchTo = text.substr(colon + 1);
            if (auto allowed = engine::TuningSession::checkModelSwitch(*policy, switchTo); !allowed)
                return fail("--switch-model: " + allowed.error().message);
        }

        engine::TuneOptions options;
        if (args.has("target")) { // a GPU: Ansor's GPU rules, candidates measured by tunescope-gpu-runner
            auto target = target::fromTvm(args.value("target"));
            if (!target)
                return fail(target.error().message);
            options.measure.target = *target;
        }
        if (args.has("gpu-exchange")) { // measured on a GPU machine elsewhere, through files
            if (!options.measure.target.isGpu())
                return fail("--gpu-exchange needs a GPU --target, e.g. 'cuda -arch=sm_90'");
            const std::string dir = args.value("gpu-exchange");
            std::error_code error;
            std::filesystem::create_directories(dir, error);
            if (error || !std::filesystem::is_directory(dir))
                return fail("--gpu-exchange: cannot make the directory " + dir);
            options.measure.gpuExchangeDir = dir;
        }
        if (args.has("gpu-command")) { // measured by a command, e.g. ssh to a GPU machine
            if (!options.measure.target.isGpu())
                return fail("--gpu-command needs a GPU --target, e.g. 'cuda -arch=sm_90'");
            if (args.has("gpu-exchange"))
                return fail("--gpu-command and --gpu-exchange are two ways to reach a GPU elsewhere: give one");
            options.measure.gpuRunnerCommand = args.value("gpu-command");
            if (options.measure.gpuRunnerCommand.find_first_not_of(" \t") == std::string::npos)
                return fail("--gpu-command: give the command, e.g. 'ssh gpu-host tunescope-gpu-runner -'");
        }
        std::vector<int> ids;
        std::vector<std::string> skipped; // AutoTVM: tasks no template fits
        std::string whyNot;
        for (const graph::Task& task : selection->tasks) {
            if (auto supported = search::policySupports(*policy, task.dag, options.measure.target); !supported) {
                whyNot = supported.error().message;
                if (!selection->network || args.has("tasks"))
                    return fail("--policy " + std::string(search::toString(*policy)) + ": task "
                        + std::to_string(task.id) + " (" + task.name + "): " + supported.error().message);
                skipped.push_back(std::to_string(task.id) + " " + task.name);
                continue;
            }
            options.tasks.push_back({ task.name, task.dag, task.weight, join(task.fusedOps, ",") });
            ids.push_back(task.id);
        }
        if (options.tasks.empty())
            return fail("--policy " + std::string(search::toString(*policy)) + ": no task of " + selection->title
                + " can be tuned: " + whyNot);
        if (selection->network) {
            options.network = selection->network->name;
            options.batch = selection->network->batch;
        }
        options.layout = ops::toString(selection->layout);
        engine::TuneOrigin origin;
        origin.layout = options.layout;
        if (selection->network) {
            origin.network = selection->network->name;
            origin.batch = selection->network->batch;
            if (args.has("tasks") || !skipped.empty())
                origin.taskIds = ids;
        } else {
            origin.op = args.value("op");
            origin.shape = args.value("shape");
        }
        options.origin = origin.toJson();
        options.policy = *policy;
        options.model = args.value("model", "xgb");
        options.trials = static_cast<int>(*trials);
        options.measuresPerRound = static_cast<int>(*perRound);
        options.seed = static_cast<uint64_t>(*seed);
        options.searchThreads = static_cast<int>(*threads);
        options.measure.buildParallelism = static_cast<int>(*threads);
        options.measure.timing.minRepeatMs = static_cast<int>(*minRepeatMs);
        if (args.has("flush-cache")) { // TVM's enable_cpu_cache_flush, with the repeat its tutorials pair it with
            options.measure.timing.flushCache = true;
            options.measure.timing.repeat = std::max(options.measure.timing.repeat, 10);
        }
        options.scheduler.earlyStoppingTrials = static_cast<int>(*earlyStopping);
        options.scheduler.strategy
            = scheduler == "gradient" ? search::SchedulerStrategy::Gradient : search::SchedulerStrategy::RoundRobin;
        options.search.crossoverProb = crossover;
        options.search.prefilterKeep = prefilter;
        options.search.analyticalWarmup = warmup == "analytical";
        options.search.similarTaskSeeds = static_cast<int>(*similarSeeds);
        if (args.has("layout-rewrite")) {
            const std::string value = args.value("layout-rewrite", "");
            if (value != "0" && value != "1" && value != "2")
                return fail("--layout-rewrite must be 0, 1 or 2, got '" + value + "'");
            options.measure.layoutRewrite = value[0] - '0';
            if (options.measure.layoutRewrite > 0 && options.measure.target.isGpu())
                return fail("--layout-rewrite is for CPU targets (Ansor rewrites no layout on a GPU)");
        } else {
            options.measure.layoutRewrite
                = engine::defaultLayoutRewrite(options.policy, selection->network.has_value(), options.measure.target);
        }
        options.workspace = args.value("workspace", store::Store::defaultWorkspacePath());
        // --constraints FILE: per task, what every proposed state obeys (the window saves the same form).
        std::vector<std::string> constraintLines;
        if (args.has("constraints")) {
            const std::string path = args.value("constraints");
            std::ifstream in(path);
            if (!in)
                return fail("--constraints: cannot read " + path);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::vector<search::TaskIdentity> identities;
            std::vector<const ir::ComputeDAG*> dags;
            for (const engine::TuneTask& t : options.tasks) {
                identities.push_back({ t.name, t.dag.workloadKey() });
                dags.push_back(&t.dag);
            }
            auto constraints = search::constraintsForTasks(text, identities, dags);
            if (!constraints)
                return fail("--constraints " + path + ": " + constraints.error().message);
            for (size_t t = 0; t < constraints->size(); ++t)
                if (!(*constraints)[t].empty())
                    constraintLines.push_back("task " + std::to_string(ids[t]) + " (" + options.tasks[t].name
                        + "): " + join((*constraints)[t].describe(), ", "));
            if (search::isAutotvm(options.policy) && !constraintLines.empty())
                return fail("--constraints: the " + std::string(search::toString(options.policy))
                    + " policy searches a template's configs; constraints bound Ansor's schedules");
            options.constraints = std::move(constraints).value();
        }

        // --seed-records IDS: the workspace's records (of the tasks tuned) join their task's population from the
        // first round, as the window's "Add to search" does.
        std::vector<std::string> seedLines;
        if (args.has("seed-records")) {
            std::set<int64_t> wanted;
            for (const std::string& text : split(args.value("seed-records"), ',')) {
                char* end = nullptr;
                const long long id = std::strtoll(text.c_str(), &end, 10);
                if (text.empty() || *end != '\0' || id <= 0)
                    return fail("--seed-records takes record ids, e.g. 12,40; got '" + text + "'");
                wanted.insert(id);
            }
            auto store = store::Store::open(options.workspace);
            if (!store)
                return fail("--seed-records: " + store.error().message);
            auto storedTasks = store->tasks();
            if (!storedTasks)
                return fail("--seed-records: " + storedTasks.error().message);
            std::map<int64_t, std::string> keyOf;
            for (const store::TaskInfo& t : *storedTasks)
                keyOf[t.id] = t.key;
            options.seeds.assign(options.tasks.size(), {});
            std::set<int64_t> found;
            auto visited = store->forEachRecord({}, [&](const store::Record& r) {
                if (!wanted.contains(r.id))
                    return true;
                found.insert(r.id);
                return found.size() < wanted.size();
            });
            if (!visited)
                return fail("--seed-records: " + visited.error().message);
            for (int64_t id : wanted)
                if (!found.contains(id))
                    return fail("--seed-records: the workspace has no record " + std::to_string(id));
            // Read again, now that every id is known to exist, to replay each on its task.
            std::string error;
            (void)store->forEachRecord({}, [&](const store::Record& r) {
                if (!wanted.contains(r.id))
                    return true;
                size_t t = 0;
                while (t < options.tasks.size() && options.tasks[t].dag.workloadKey() != keyOf[r.taskId])
                    ++t;
                if (t == options.tasks.size()) {
                    error = "record " + std::to_string(r.id) + " is of a task this command does not tune";
                    return false;
                }
                auto state = store::replayStored(options.tasks[t].dag, r.steps, r.extra);
                if (!state) {
                    error = "record " + std::to_string(r.id) + " does not replay: " + state.error().message;
                    return false;
                }
                options.seeds[t].push_back(std::move(state).value());
                seedLines.push_back("record " + std::to_string(r.id) + " seeds task " + std::to_string(ids[t]));
                return true;
            });
            if (!error.empty())
                return fail("--seed-records: " + error);
        }
        if (args.has("shadow-models"))
            for (const std::string& kind : split(args.value("shadow-models"), ','))
                options.shadowModels.push_back(kind);
        if (args.has("measure-on")) {
            const std::string where = args.value("measure-on");
            if (where != "local" && where != "workers")
                return fail("--measure-on: '" + where + "' is neither local nor workers", kExitUsage);
            options.measureOnWorkers = where == "workers";
            if (options.measureOnWorkers && !store::isPostgresUrl(options.workspace))
                return fail("--measure-on workers needs a PostgreSQL workspace (--workspace postgresql://...): "
                            "workers claim candidates from its work queue",
                    kExitUsage);
        }

        TunePrinter printer(std::move(ids));
        const int trialsTotal = options.trials;
        const std::string header = "Tuning " + selection->title + ": " + std::to_string(options.tasks.size())
            + (options.tasks.size() == 1 ? " task, " : " tasks, ") + std::to_string(options.trials) + " trials ("
            + std::to_string(options.measuresPerRound) + " per round), policy " + search::toString(options.policy)
            + ", model " + options.model + ", seed " + std::to_string(options.seed)
            + (options.measure.layoutRewrite > 0 ? ", layout rewrite " + std::to_string(options.measure.layoutRewrite)
                                                 : std::string());
        const std::string workspacePath = options.workspace;
        const std::string exchange = options.measure.gpuExchangeDir;
        const target::Target measuredOn = options.measure.target;
        engine::TuningSession* running = nullptr;
        engine::TuningSession session(std::move(options), [&](const engine::TuneEvent& e) {
            printer.print(e);
            if (const auto* r = std::get_if<engine::RoundDone>(&e); r && switchAt > 0 && r->totalTrials >= switchAt) {
                (void)running->switchModel(switchTo); // checked above
                switchAt = 0;
            }
        });
        running = &session;
        // Ctrl-C: the first stops after the batch in flight (its records are kept), the second aborts it.
        InterruptCount interrupt([&](int count, int) {
            if (count == 1) {
                session.cancel();
                printer.note("stopping after the batch in flight; run the same command to resume (Ctrl-C again "
                             "to abort the batch)");
            } else if (count == 2) {
                session.abort();
                printer.note("aborting the batch in flight");
            }
        });
        {
            auto held = printer.hold(); // the header first, then the session's events
            auto started = session.start();
            if (!started)
                return fail(started.error().message);
            std::cout << header << "\n";
            if (!skipped.empty())
                std::cout << "AutoTVM has no template for " << skipped.size() << " task"
                          << (skipped.size() == 1 ? "" : "s") << " (" << join(skipped, ", ") << "); tuning the other "
                          << ids.size() << "\n";
            std::cout << "workspace " << workspacePath << ", session " << session.sessionId() << ", on "
                      << store::deviceOf(measuredOn).name << "\n";
            for (const std::string& line : constraintLines)
                std::cout << "constrained: " << line << "\n";
            for (const std::string& line : seedLines)
                std::cout << "seeded: " << line << "\n";
            if (session.restoredTrials() > 0)
                std::cout << "resuming: " << session.restoredTrials() << " of " << trialsTotal
                          << " trials already in the workspace\n";
            for (const auto& [rewrite, count] : session.otherLayoutRewriteRecords())
                if (rewrite >= 0) // a malformed option names none to pass
                    std::cout << "not resumed: " << count << " record" << (count == 1 ? "" : "s")
                              << " of these tasks measured with layout rewrite " << rewrite
                              << " (another kernel's time; --layout-rewrite " << rewrite << " resumes them)\n";
            if (!exchange.empty())
                std::cout << "measuring through " << exchange << ": each batch is written there as "
                          << measure::gpuExchangeBatchPrefix()
                          << "K.jsonl; run it on the GPU machine (tunescope-gpu-runner BATCH > RESULTS) and move "
                             "RESULTS to "
                          << measure::gpuExchangeBatchPrefix() << "K.results.jsonl\n";
            std::cout << std::flush;
        }
        // Measuring through an exchange folder: say when each batch is there to be carried to the GPU.
        std::jthread exchangeWatcher;
        if (!exchange.empty())
            exchangeWatcher = std::jthread([&printer, exchange](std::stop_token stop) {
                const std::string prefix = measure::gpuExchangeBatchPrefix();
                std::set<std::string> seen;
                while (!stop.stop_requested()) {
                    std::error_code error;
                    for (const auto& entry : std::filesystem::directory_iterator(exchange, error)) {
                        const std::string name = entry.path().filename().string();
                        if (name.rfind(prefix, 0) != 0 || !name.ends_with(".jsonl") || name.ends_with(".results.jsonl")
                            || !seen.insert(name).second)
                            continue;
                        std::ifstream in(entry.path());
                        const auto bundles
                            = std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
                        printer.note(entry.path().string() + ": " + std::to_string(bundles)
                            + " bundles to measure; waiting for "
                            + (entry.path().parent_path() / (name.substr(0, name.size() - 6) + ".results.jsonl"))
                                  .string());
                    }
                    for (int i = 0; i < 5 && !stop.stop_requested(); ++i)
                        std::this_thread::sleep_for(std::chrono::milliseconds(100));
                }
            });
        auto finished = session.wait();
        if (exchangeWatcher.joinable()) {
            exchangeWatcher.request_stop();
            exchangeWatcher.join();
        }
        if (!finished)
            return fail(finished.error().message);
        if (finished->status == "failed")
            return fail("tuning failed: " + finished->message);
        if (finished->status == "cancelled" && interrupt.count() > 0)
            return kExitInterrupted;
        return finished->status == "finished" ? 0 : kExitFailure;
    }

    const OptionSpec kTaskOption { "task", "ID", "task id from 'tunescope-cli tasks'" };
    // From search::policies(), so that a new policy shows here by itself.
    const OptionSpec kPolicyOption { "policy", "P",
        "search policy (default ansor): " + join(search::policies(), "; ", [](const search::PolicyInfo& p) {
            return std::string(p.name) + " (" + p.description + ")";
        }) + ". AutoTVM policies tune the tasks a template fits" };

} // namespace

std::vector<Command> tuneCommands()
{
    return {
        { "sketches", "print Ansor's sketches of a task and random annotations of each",
            "tunescope-cli sketches (--network NAME [--batch N] [--layout L] --task ID | --op OP --shape S "
            "[--layout L]) [--samples K] [--seed S] [--target T] [--emit-bundle FILE]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption, kTaskOption, kOpOption, kShapeOption,
                { "target", "TVM_TARGET",
                    "the sketches for this target, e.g. 'cuda -arch=sm_90' (GPU rules); default: this machine" },
                { "samples", "K",
                    "random annotations printed per sketch (default 0); with --emit-bundle, bundles per sketch, "
                    "annotations past the device's limits drawn again (up to 20K tries)" },
                { "emit-bundle", "FILE",
                    "a GPU target's annotations as kernel bundles appended to FILE, for tunescope-gpu-runner on a GPU "
                    "machine (instead of printing them)" },
                { "seed", "S", "seed of the annotations (default 1)" }, kHelpOption },
            runSketches },
        { "best", "print the best schedule stored for each task on this machine",
            "tunescope-cli best (--network NAME [--batch N] [--layout L] [--task ID] | --op OP --shape S "
            "[--layout L]) [--workspace PATH]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption,
                { "task", "ID", "only this task (default: every task)" }, kOpOption, kShapeOption, kWorkspaceOption,
                kHelpOption },
            runBest },
        { "tune", "tune a network's tasks or one operator on this machine (Ansor or AutoTVM); resumes where it stopped",
            "tunescope-cli tune (--network NAME [--batch N] [--layout L] [--tasks IDS] | --op OP --shape S "
            "[--layout L]) --trials T [--measures-per-round B] [--policy P] [--model M] [--seed S] "
            "[--threads K] [--early-stopping N] [--min-repeat-ms MS] [--flush-cache] [--crossover P] [--prefilter F] "
            "[--warmup analytical|random] "
            "[--similar-task-seeds N] [--scheduler "
            "gradient|round-robin] [--switch-model T:M] [--layout-rewrite 0|1|2] "
            "[--constraints FILE] [--seed-records IDS] [--shadow-models M,...] [--target T [--gpu-exchange DIR | "
            "--gpu-command CMD]] "
            "[--workspace PATH]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption,
                { "tasks", "IDS", "only these tasks, e.g. 0,3,5 (default: every task)" }, kOpOption, kShapeOption,
                { "trials", "T", "measurements in all, over every task (Ansor's num_measure_trials)" },
                { "measures-per-round", "B",
                    "measurements per round (Ansor's num_measures_per_round, default 64; --batch is the "
                    "network's batch size)" },
                kPolicyOption,
                { "model", "M",
                    "cost model: random, xgb, xgb-rank, analytical, or a neural one (mlp, lstm, tlp, mtl-tlp, "
                    "atformer, gtuner); default xgb, as Ansor's task scheduler" },
                { "switch-model", "T:M",
                    "switch to cost model M once this session has measured T trials: M first learns from every "
                    "record of the tasks, then ranks the following rounds (Ansor only)" },
                { "seed", "S", "random seed (default 1)" },
                { "threads", "K", "threads of the search and of compiling candidates (default: all cores)" },
                { "early-stopping", "N", "stop a task after N trials without improvement (default: never)" },
                { "min-repeat-ms", "MS",
                    "grow each measurement's number of runs until it lasts this long (TVM's min_repeat_ms, "
                    "default 100; less spends less of a lent GPU's time on each candidate)" },
                { "flush-cache", "",
                    "time candidates cold: their buffers flushed from every cache level before each of 10 single "
                    "runs (TVM's enable_cpu_cache_flush), as a network's steps meet their data; a network's "
                    "estimate then comes closer to its measured run (see docs/run.md). Give it again on resume" },
                { "crossover", "P",
                    "probability that an individual is the node-based crossover of two parents (the paper's; "
                    "default 0, as TVM)" },
                { "prefilter", "F",
                    "score only the best fraction F of each population with the cost model, ranked first by the "
                    "analytical estimate (Pruner's draft-then-verify; default 1: off, as Ansor)" },
                { "warmup", "analytical|random",
                    "how a learned model's candidates are ranked before it has trained (Ansor's warm-up: every "
                    "task's first round): by the analytical estimate with the machine's measured limits "
                    "(TuneScope's; default) or at random (Ansor's)" },
                { "similar-task-seeds", "N",
                    "each round, the N best states other tasks of the same kind measured, refit to this task's "
                    "shape, join its initial population (TuneScope's; default 16, 0: off, as Ansor)" },
                { "scheduler", "gradient|round-robin", "task scheduler (default gradient)" },
                { "seed-records", "IDS",
                    "these records of the workspace (of the tasks tuned) join their task's initial population in every "
                    "round, e.g. a hand-written schedule imported from a log, or another session's best" },
                { "shadow-models", "M,...",
                    "cost models that learn from the same records as the session's and score every round's "
                    "candidates without steering: each round's pairwise accuracy and Spearman per model, and their "
                    "means at the end (Ansor only)" },
                { "measure-on", "local|workers",
                    "where candidates are measured: here (default), or by tunescope-worker processes on any machine "
                    "that claim them from the PostgreSQL workspace's work queue (docs/workers.md)" },
                { "constraints", "FILE",
                    "per task, bounds every proposed state obeys: split factors, the unroll limit, vector length, "
                    "parallel extent, sketch rules (JSON; the format is in docs/steering.md; the window saves "
                    "it)" },
                { "layout-rewrite", "0|1|2",
                    "Ansor's layout_rewrite_option: each candidate's conv2d, dense, matmul or batch_matmul weight is "
                    "packed into the layout its loops read, at the start of the timed kernel (1) or once before "
                    "the timed runs (2, as a network's constant weights are); records say which, and export "
                    "writes it (default: TVM's, 2 for a network's tasks, 1 for an operator, 0 for AutoTVM "
                    "policies and GPU targets)" },
                { "target", "TVM_TARGET",
                    "tune for this target instead of this CPU: 'cuda -arch=sm_90' searches with Ansor's GPU rules "
                    "and measures in tunescope-gpu-runner on this machine's GPU" },
                { "gpu-exchange", "DIR",
                    "measure a GPU target on another machine: each batch's kernel bundles are written to "
                    "DIR/batch-PID-K.jsonl and the session waits for DIR/batch-PID-K.results.jsonl (the runner's "
                    "output there, moved in whole)" },
                { "gpu-command", "CMD",
                    "measure a GPU target with this shell command: each batch's bundles on its standard input, "
                    "the results read from its standard output as they come; e.g. 'ssh gpu-host "
                    "tunescope-gpu-runner -' measures on that machine's GPU" },
                kWorkspaceOption, kHelpOption },
            runTune },
    };
}

} // namespace ts::cli
