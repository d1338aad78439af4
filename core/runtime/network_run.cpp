#include "core/runtime/network_run.h"

#include "core/codegen/runtime.h"
#include "core/store/schedule_source.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ts::runtime {

StoreScheduleChooser::StoreScheduleChooser(store::Store& store, store::Device device)
    : m_store(&store)
    , m_device(std::move(device))
{
}

std::optional<GroupSchedule> StoreScheduleChooser::operator()(const graph::Task& task)
{
    if (!m_store)
        return std::nullopt;
    auto row = m_store->findTask(task.dag.workloadKey());
    if (!row || !*row)
        return std::nullopt;
    auto best = m_store->bestRecords((*row)->id, m_device.id, 16);
    if (!best)
        return std::nullopt;
    for (const store::Record& record : *best) {
        auto state = store::replayStored(task.dag, record.steps, record.extra);
        if (!state)
            continue;
        if (ir::ComputeDAG::create(state->originTensors()).workloadKey() != task.dag.workloadKey())
            continue;
        m_seconds[task.id] = record.result.meanCost();
        return GroupSchedule { std::move(*state), "record " + std::to_string(record.id), record.result.meanCost() };
    }
    return std::nullopt;
}

Expected<OutputMatch> matchOutput(const ir::Buffer& got, const ir::Buffer& reference, const std::string& what)
{
    if (reference.size() != got.size())
        return makeError(ErrorKind::InvalidArgument,
            "the network's output has " + std::to_string(got.size()) + " values, " + what + " "
                + std::to_string(reference.size()));
    OutputMatch match;
    for (int64_t i = 0; i < reference.size(); ++i)
        match.scale = std::max(match.scale, static_cast<double>(std::abs(reference[i])));
    ir::Buffer want(got.shape());
    std::copy(reference.data(), reference.data() + reference.size(), want.data());
    match.error = ir::maxRelativeError(got, want, 2e-3, 2e-3 * match.scale);
    return match;
}

std::vector<ir::Buffer> seededInputs(const graph::Graph& graph)
{
    std::vector<ir::Buffer> inputs;
    for (const graph::Node& n : graph.nodes())
        if (n.kind == graph::NodeKind::Input) {
            ir::Buffer b(n.shape);
            ir::fillRandomInput(b.data(), b.size(), 7, static_cast<int>(inputs.size()));
            if (n.indexBound > 0) // ids: the uniform [-1, 1) values mapped to whole numbers in [0, indexBound)
                for (int64_t i = 0; i < b.size(); ++i)
                    b[i] = static_cast<float>(std::clamp<int64_t>(
                        static_cast<int64_t>((b[i] + 1.0f) * 0.5 * static_cast<double>(n.indexBound)), 0,
                        n.indexBound - 1));
            inputs.push_back(std::move(b));
        }
    return inputs;
}

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const size_t i
        = std::min(v.size() - 1, static_cast<size_t>(std::max(0.0, std::ceil(q * static_cast<double>(v.size())) - 1)));
    return v[i];
}

namespace {

    double secondsSince(std::chrono::steady_clock::time_point start)
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    // Wrong steps, named with their kernel and error, after a check.
    void noteChecks(NetworkRun& run, const std::vector<StepCheck>& checks, const std::vector<StepInfo>& steps)
    {
        run.checkedSteps = static_cast<int>(checks.size());
        for (const StepCheck& c : checks) {
            if (c.error > run.worstCheck) {
                run.worstCheck = c.error;
                run.worstStep = c.step;
            }
            if (c.error > 1.0)
                run.wrongSteps += (run.wrongSteps.empty() ? "" : ", ") + std::to_string(c.step) + " ("
                    + steps[static_cast<size_t>(c.step)].name + ", " + formatFixed(c.error, 1) + ")";
        }
    }

    // Per task: the time of all its occurrences in one run, against weight x the record's time.
    void noteTasks(NetworkRun& run, const graph::TaskSet& tasks, const std::vector<StepInfo>& steps,
        const std::vector<double>& perStep, const std::vector<double>& hot, const std::map<int, double>& chosen)
    {
        run.tasks.clear();
        for (const graph::Task& t : tasks.tasks) {
            TaskRun task;
            task.task = t.id;
            task.name = t.name;
            task.weight = t.weight;
            if (auto it = chosen.find(t.id); it != chosen.end()) {
                task.estimateSeconds = it->second * t.weight;
                run.estimateSeconds += task.estimateSeconds;
                ++run.estimatedTasks;
            }
            run.tasks.push_back(std::move(task));
        }
        for (size_t i = 0; i < steps.size(); ++i) {
            run.stepSumSeconds += perStep[i];
            if (steps[i].task >= 0) {
                TaskRun& task = run.tasks[static_cast<size_t>(steps[i].task)];
                task.measuredSeconds += perStep[i];
                task.hotSeconds += hot[i];
                task.schedule = steps[i].schedule;
            } else if (!steps[i].view) {
                run.otherSeconds += perStep[i];
                run.otherHotSeconds += hot[i];
                ++run.otherSteps;
                auto it = std::find_if(run.others.begin(), run.others.end(),
                    [&](const NetworkRun::OtherStep& o) { return o.name == steps[i].name; });
                if (it == run.others.end())
                    it = run.others.insert(run.others.end(), NetworkRun::OtherStep { steps[i].name, 0, 0.0 });
                ++it->count;
                it->seconds += perStep[i];
            }
        }
        std::stable_sort(run.others.begin(), run.others.end(),
            [](const NetworkRun::OtherStep& a, const NetworkRun::OtherStep& b) { return a.seconds > b.seconds; });
    }
} // namespace

Expected<NetworkRun> runNetwork(const graph::Graph& graph, const graph::Partition& partition,
    StoreScheduleChooser& chooser, const ExecutorOptions& executorOptions, const NetworkRunOptions& options)
{
    if (options.repeat < 1)
        return makeError(ErrorKind::InvalidArgument, "a network run needs at least one timed run");
    NetworkRun run;
    run.network = graph.name();
    run.batch = graph.batch();
    run.cpu = codegen::hostCpuName();
    run.threads = options.threads;
    codegen::setKernelThreads(options.threads);

    const auto buildStart = std::chrono::steady_clock::now();
    TS_TRY(GraphExecutor executor,
        GraphExecutor::build(
            graph, partition, [&](const graph::Task& t) { return chooser(t); }, executorOptions));
    run.buildSeconds = secondsSince(buildStart);
    for (const StepInfo& s : executor.steps())
        ++(s.view ? run.views : run.kernels);
    run.plannedBytes = executor.plannedBytes();
    run.unplannedBytes = executor.unplannedBytes();
    TS_CHECK(executor.setInputs(options.inputs.empty() ? seededInputs(graph) : options.inputs));

    executor.run();
    TS_TRY(const std::vector<StepCheck> checks, executor.checkSteps(options.checkSamples));
    noteChecks(run, checks, executor.steps());
    TS_TRY(run.output, executor.value(executor.outputs().front()));
    if (options.expected) {
        run.expectedName = options.expectedName;
        TS_TRY(run.expected, matchOutput(run.output, *options.expected, options.expectedName));
    }
    if (run.wrong())
        return run;

    for (int i = 0; i < 3; ++i)
        executor.run();
    for (int i = 0; i < options.repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        executor.run();
        run.runSeconds.push_back(secondsSince(start));
    }
    std::vector<double> perStep;
    for (int i = 0; i < options.repeat; ++i)
        executor.runTimed(perStep);
    for (double& s : perStep)
        s /= static_cast<double>(options.repeat);
    std::vector<double> hot;
    executor.runHot(hot, 9);
    run.medianSeconds = percentile(run.runSeconds, 0.5);
    run.p90Seconds = percentile(run.runSeconds, 0.9);
    noteTasks(run, partition.tasks, executor.steps(), perStep, hot, chooser.chosenSeconds());
    return run;
}

std::string networkRunToJson(const NetworkRun& run)
{
    nlohmann::json tasks = nlohmann::json::array();
    for (const TaskRun& t : run.tasks)
        tasks.push_back(
            { { "task", t.task }, { "name", t.name }, { "weight", t.weight }, { "estimate_s", t.estimateSeconds },
                { "measured_s", t.measuredSeconds }, { "hot_s", t.hotSeconds }, { "schedule", t.schedule } });
    nlohmann::json others = nlohmann::json::array();
    for (const NetworkRun::OtherStep& o : run.others)
        others.push_back({ { "name", o.name }, { "count", o.count }, { "seconds", o.seconds } });
    nlohmann::json j = {
        { "network", run.network },
        { "batch", run.batch },
        { "cpu", run.cpu },
        { "threads", run.threads },
        { "kernels", run.kernels },
        { "views", run.views },
        { "build_s", run.buildSeconds },
        { "planned_bytes", run.plannedBytes },
        { "unplanned_bytes", run.unplannedBytes },
        { "checked_steps", run.checkedSteps },
        { "worst_check", run.worstCheck },
        { "worst_step", run.worstStep },
        { "wrong_steps", run.wrongSteps },
        { "expected",
            { { "name", run.expectedName }, { "error", run.expected.error }, { "scale", run.expected.scale } } },
        { "runs_s", run.runSeconds },
        { "median_s", run.medianSeconds },
        { "p90_s", run.p90Seconds },
        { "estimate_s", run.estimateSeconds },
        { "estimated_tasks", run.estimatedTasks },
        { "tasks", tasks },
        { "other_s", run.otherSeconds },
        { "other_hot_s", run.otherHotSeconds },
        { "other_steps", run.otherSteps },
        { "others", others },
        { "step_sum_s", run.stepSumSeconds },
    };
    if (run.library)
        j["library"] = { { "what", run.library->what }, { "threads", run.library->threads },
            { "backends", run.library->backends }, { "median_s", run.library->medianSeconds },
            { "p90_s", run.library->p90Seconds }, { "output_error", run.library->outputError } };
    return j.dump(1);
}

Expected<NetworkRun> networkRunFromJson(const std::string& text)
{
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        NetworkRun run;
        j.at("network").get_to(run.network);
        j.at("batch").get_to(run.batch);
        j.at("cpu").get_to(run.cpu);
        j.at("threads").get_to(run.threads);
        j.at("kernels").get_to(run.kernels);
        j.at("views").get_to(run.views);
        j.at("build_s").get_to(run.buildSeconds);
        j.at("planned_bytes").get_to(run.plannedBytes);
        j.at("unplanned_bytes").get_to(run.unplannedBytes);
        j.at("checked_steps").get_to(run.checkedSteps);
        j.at("worst_check").get_to(run.worstCheck);
        j.at("worst_step").get_to(run.worstStep);
        j.at("wrong_steps").get_to(run.wrongSteps);
        j.at("expected").at("name").get_to(run.expectedName);
        j.at("expected").at("error").get_to(run.expected.error);
        j.at("expected").at("scale").get_to(run.expected.scale);
        j.at("runs_s").get_to(run.runSeconds);
        j.at("median_s").get_to(run.medianSeconds);
        j.at("p90_s").get_to(run.p90Seconds);
        j.at("estimate_s").get_to(run.estimateSeconds);
        j.at("estimated_tasks").get_to(run.estimatedTasks);
        for (const nlohmann::json& t : j.at("tasks")) {
            TaskRun task;
            t.at("task").get_to(task.task);
            t.at("name").get_to(task.name);
            t.at("weight").get_to(task.weight);
            t.at("estimate_s").get_to(task.estimateSeconds);
            t.at("measured_s").get_to(task.measuredSeconds);
            task.hotSeconds = t.value("hot_s", 0.0); // written since November 2026
            t.at("schedule").get_to(task.schedule);
            run.tasks.push_back(std::move(task));
        }
        j.at("other_s").get_to(run.otherSeconds);
        run.otherHotSeconds = j.value("other_hot_s", 0.0);
        j.at("other_steps").get_to(run.otherSteps);
        if (j.contains("others")) // written since November 2026
            for (const nlohmann::json& o : j.at("others"))
                run.others.push_back(NetworkRun::OtherStep {
                    o.at("name").get<std::string>(), o.at("count").get<int>(), o.at("seconds").get<double>() });
        j.at("step_sum_s").get_to(run.stepSumSeconds);
        if (j.contains("library")) {
            const nlohmann::json& l = j.at("library");
            LibraryRun library;
            l.at("what").get_to(library.what);
            l.at("threads").get_to(library.threads);
            l.at("backends").get_to(library.backends);
            l.at("median_s").get_to(library.medianSeconds);
            l.at("p90_s").get_to(library.p90Seconds);
            l.at("output_error").get_to(library.outputError);
            run.library = std::move(library);
        }
        return run;
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorKind::InvalidArgument, std::string("not a network run report: ") + e.what());
    }
}

} // namespace ts::runtime
