// sweep: one parameter of a schedule (a split length or the unroll limit) set to each of its legal values, each
// state measured here and scored by the cost models asked for (engine/sweep.h). The schedule is a record of the
// workspace (the task's best on this machine by default) or a step list from a file; --list prints the
// parameters, --param K sweeps the K-th of them and prints value, GFLOP/s, ms and each model's score.
#include "app/cli/commands.h"
#include "app/cli/interrupt.h"
#include "app/cli/task_selection.h"
#include "core/engine/machine.h"
#include "core/engine/sweep.h"
#include "core/engine/tuning_session.h"
#include "core/schedule/step_json.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace ts::cli {

namespace {

    // The schedule a sweep starts from, and where it came from.
    struct Schedule {
        sched::State state;
        std::string origin; // "record 12 (0.0113 ms, 46.3 GFLOP/s)", "steps.json"
        int layoutRewrite = 0;
    };

    // --record ID or best (the default): a record of the task in the workspace; best: its fastest on this machine.
    Expected<Schedule> recordSchedule(store::Store& workspace, const graph::Task& task, const std::string& which)
    {
        const std::string none = "the workspace " + workspace.path() + " has no records of task "
            + std::to_string(task.id) + " (" + task.name + ")";
        const std::string hint = "; 'tunescope-cli tune' it first, or give the steps with --steps FILE";
        TS_TRY(std::optional<store::TaskInfo> row, workspace.findTask(task.dag.workloadKey()));
        if (!row)
            return makeError(ErrorKind::NotFound, none + hint);
        store::Record record;
        if (which == "best") {
            TS_TRY(std::vector<store::Device> devices, workspace.devices());
            const std::optional<store::Device> device
                = engine::hostDevice(devices, store::deviceOf(target::Target::host()));
            std::vector<store::Record> best;
            if (device) {
                TS_TRY(best, workspace.bestRecords(row->id, device->id, 1));
            }
            if (best.empty())
                return makeError(ErrorKind::NotFound, none + " that succeeded on this machine" + hint);
            record = best.front();
        } else {
            TS_TRY(int64_t id, parseInt(which, "--record (a record id or best)"));
            store::RecordFilter filter;
            filter.taskIds = { row->id };
            TS_TRY(std::vector<store::Record> page, workspace.recordPage(filter, id - 1, 1));
            if (page.empty() || page.front().id != id)
                return makeError(ErrorKind::NotFound,
                    "record " + std::to_string(id) + " is not a record of task " + std::to_string(task.id) + " ("
                        + task.name + ") in " + workspace.path());
            record = page.front();
        }
        if (record.kind != store::RecordKind::Ansor)
            return makeError(ErrorKind::InvalidArgument,
                "record " + std::to_string(record.id)
                    + " is an AutoTVM config: its knobs, not a step list, are its "
                      "parameters");
        auto state = store::replayStored(task.dag, record.steps, record.extra);
        if (!state)
            return makeError(state.error().kind, "record " + std::to_string(record.id) + ": " + state.error().message);
        Schedule out { std::move(state).value(), "record " + std::to_string(record.id), 0 };
        if (record.result.ok())
            out.origin += " (" + formatFixed(record.result.meanCost() * 1e3, 4) + " ms, "
                + formatFixed(task.flops / record.result.meanCost() / 1e9, 1) + " GFLOP/s)";
        const nlohmann::json extra = nlohmann::json::parse(record.extra, nullptr, false);
        if (extra.is_object() && extra.contains("layout_rewrite_option")
            && extra["layout_rewrite_option"].is_number_integer())
            out.layoutRewrite = extra["layout_rewrite_option"].get<int>();
        return out;
    }

    // --steps FILE: a JSON step list, as in TVM records.
    Expected<Schedule> fileSchedule(const std::string& path, const graph::Task& task)
    {
        std::ifstream in(path);
        if (!in)
            return makeError(ErrorKind::Io, "cannot open " + path);
        std::ostringstream text;
        text << in.rdbuf();
        auto steps = sched::parseSteps(text.str());
        if (!steps)
            return makeError(ErrorKind::Parse, path + ": " + steps.error().message);
        auto state = sched::State::replay(task.dag, *steps);
        if (!state)
            return makeError(state.error().kind, path + ": " + state.error().message);
        return Schedule { std::move(state).value(), path, 0 };
    }

    // Four significant digits: the models' scores differ in scale (the analytical one is 1 / its estimated seconds).
    std::string scoreText(double score)
    {
        if (!std::isfinite(score))
            return "-";
        std::ostringstream text;
        text << std::setprecision(4) << score;
        return text.str();
    }

    std::string padLeft(std::string text, size_t width)
    {
        return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
    }

    void printTable(const engine::SweepResult& result)
    {
        std::cout << "  value   GFLOP/s         ms";
        for (const std::string& model : result.models)
            std::cout << "  " << padLeft(model, 10);
        std::cout << "\n";
        for (const engine::SweepPoint& p : result.points) {
            std::cout << (p.current ? "* " : "  ") << padLeft(std::to_string(p.value), 5);
            if (p.result.ok())
                std::cout << "  " << padLeft(formatFixed(p.gflops, 1), 8) << "  "
                          << padLeft(formatFixed(p.result.meanCost() * 1e3, 4), 9);
            else
                std::cout << "  " << padLeft("failed", 8) << "  " << padLeft("-", 9);
            for (double score : p.predictions)
                std::cout << "  " << padLeft(scoreText(score), 10);
            if (!p.result.ok())
                std::cout << "  " << record::toString(p.result.status) << ": " << p.result.message;
            std::cout << "\n";
        }
    }

    nlohmann::json resultJson(
        const engine::SweepResult& result, const std::string& title, const graph::Task& task, const Schedule& schedule)
    {
        const engine::SweepParameter& parameter = result.parameter.parameter;
        nlohmann::json points = nlohmann::json::array();
        for (const engine::SweepPoint& p : result.points) {
            nlohmann::json predictions = nlohmann::json::object();
            for (size_t m = 0; m < result.models.size(); ++m)
                predictions[result.models[m]]
                    = std::isfinite(p.predictions[m]) ? nlohmann::json(p.predictions[m]) : nlohmann::json(nullptr);
            nlohmann::json point { { "value", p.value }, { "current", p.current },
                { "status", record::toInt(p.result.status) }, { "status_name", record::toString(p.result.status) },
                { "predictions", predictions }, { "steps", p.steps } };
            if (p.result.ok()) {
                point["ms"] = p.result.meanCost() * 1e3;
                point["gflops"] = p.gflops;
            } else {
                point["message"] = p.result.message;
            }
            if (p.recordId > 0)
                point["record"] = p.recordId;
            points.push_back(std::move(point));
        }
        return nlohmann::json { { "title", title }, { "task", task.name }, { "schedule", schedule.origin },
            { "parameter",
                { { "kind", parameter.kind == engine::SweepParameter::Kind::SplitLength ? "split" : "unroll" },
                    { "step", parameter.step }, { "part", parameter.part }, { "current", result.parameter.current },
                    { "description", result.parameter.description } } },
            { "models", result.models }, { "total", result.total }, { "cancelled", result.cancelled },
            { "points", points } };
    }

    int runSweep(const Arguments& args)
    {
        auto selection = selectTasks(args, "task", true);
        if (!selection)
            return fail(selection.error().message);
        const graph::Task& task = selection->tasks.front();
        const bool list = args.has("list");
        if (list == args.has("param"))
            return fail("give --list (the parameters of the schedule) or --param K (sweep the K-th of them)");
        if (args.has("record") && args.has("steps"))
            return fail("give --record or --steps, not both");
        auto param = boundedInt(args, "param", 0, 0, INT32_MAX);
        auto number = boundedInt(args, "number", measure::TimingOptions {}.number, 1, 1'000'000);
        auto repeat = boundedInt(args, "repeat", measure::TimingOptions {}.repeat, 1, 1000);
        auto minRepeatMs = boundedInt(args, "min-repeat-ms", measure::TimingOptions {}.minRepeatMs, 0, 60000);
        auto threads = boundedInt(args, "threads", 0, 0, 4096);
        auto timeout = boundedInt(args, "timeout", measure::MeasureOptions {}.runTimeoutMs / 1000, 1, 3600);
        auto maxInnermost
            = boundedInt(args, "max-innermost", search::SearchParams {}.maxInnermostSplitFactor, 1, INT32_MAX);
        auto seed = boundedInt(args, "seed", 1, 0, INT64_MAX);
        for (const auto* v : { &param, &number, &repeat, &minRepeatMs, &threads, &timeout, &maxInnermost, &seed })
            if (!*v)
                return fail(v->error().message);
        std::vector<int64_t> values;
        if (args.has("values")) {
            auto parsed = parseIds(args.value("values"), "--values");
            if (!parsed)
                return fail(parsed.error().message);
            values = std::move(parsed).value();
        }
        std::vector<std::string> modelKinds;
        if (args.has("models"))
            modelKinds = split(args.value("models"), ',');
        for (const std::string& kind : modelKinds)
            if (auto known = cost::checkCostModelKind(kind); !known)
                return fail("--models: " + known.error().message);

        // The workspace: where the schedule comes from (unless --steps), what the models learn from, where the
        // points go (unless --no-store).
        const bool fromRecord = !args.has("steps");
        const bool storePoints = !list && !args.has("no-store");
        std::optional<store::Store> workspace;
        if (fromRecord || storePoints || !modelKinds.empty()) {
            // Only models read it: a missing one has nothing for them to learn from.
            auto opened = openWorkspace(args, !storePoints);
            if (opened)
                workspace = std::move(opened).value();
            else if (fromRecord || storePoints || opened.error().kind != ErrorKind::NotFound)
                return fail(opened.error().message);
        }
        auto schedule = fromRecord ? recordSchedule(*workspace, task, args.value("record", "best"))
                                   : fileSchedule(args.value("steps"), task);
        if (!schedule)
            return fail(schedule.error().message);
        if (!fromRecord)
            schedule->layoutRewrite = engine::defaultLayoutRewrite(
                search::PolicyKind::Ansor, selection->network.has_value(), target::Target::host());
        if (args.has("layout-rewrite")) {
            const std::string value = args.value("layout-rewrite");
            if (value != "0" && value != "1" && value != "2")
                return fail("--layout-rewrite must be 0, 1 or 2, got '" + value + "'");
            schedule->layoutRewrite = value[0] - '0';
        }

        engine::SweepOptions options;
        options.search.maxInnermostSplitFactor = static_cast<int>(*maxInnermost);
        options.measure.timing.number = static_cast<int>(*number);
        options.measure.timing.repeat = static_cast<int>(*repeat);
        options.measure.timing.minRepeatMs = static_cast<int>(*minRepeatMs);
        options.measure.kernelThreads = static_cast<int>(*threads);
        options.measure.runTimeoutMs = static_cast<int>(*timeout * 1000);
        options.measure.layoutRewrite = schedule->layoutRewrite;
        std::cout << "# " << selection->title << ", task " << task.id << " (" << task.name << "): " << task.shapes
                  << "\n# schedule: " << schedule->origin << ", " << schedule->state.steps().size() << " steps\n";

        auto parameters = engine::sweepableParameters(task.dag, schedule->state, options.search);
        if (!parameters)
            return fail(parameters.error().message);
        if (list) {
            std::cout << "# " << parameters->size() << " parameters (sweep one with --param K)\n";
            for (size_t k = 0; k < parameters->size(); ++k) {
                const engine::SweepableParameter& p = (*parameters)[k];
                std::cout << padLeft(std::to_string(k), 4) << "  " << p.description << ": " << p.candidates.size()
                          << (p.candidates.size() == 1 ? " value (" : " values (") << join(p.candidates, ", ") << ")\n";
            }
            return 0;
        }
        if (static_cast<size_t>(*param) >= parameters->size())
            return fail("--param " + std::to_string(*param) + " is out of range: the schedule has "
                + std::to_string(parameters->size()) + " parameters"
                + (parameters->empty() ? "" : " (0.." + std::to_string(parameters->size() - 1) + ")")
                + "; --list shows them");
        const engine::SweepableParameter& chosen = (*parameters)[static_cast<size_t>(*param)];

        std::vector<std::unique_ptr<cost::CostModel>> models;
        for (const std::string& kind : modelKinds) {
            auto model = engine::sweepModel(
                kind, workspace ? &*workspace : nullptr, task.dag, options.measure, static_cast<uint64_t>(*seed));
            if (!model)
                return fail(model.error().message);
            std::cout << "# model " << kind
                      << ((*model)->warmingUp() ? ": nothing to learn from in the workspace, its scores are random"
                                 : (*model)->trainedOn() > 0
                                 ? ": learned from " + std::to_string((*model)->trainedOn()) + " records of the task"
                                 : std::string())
                      << "\n";
            options.models.push_back({ kind, model->get() });
            models.push_back(std::move(model).value());
        }
        options.values = std::move(values);
        options.flops = task.flops;
        options.taskName = task.name;
        if (storePoints)
            options.workspace = workspace->path();
        if (::isatty(STDERR_FILENO))
            options.progress = [](int done, int total) {
                std::cerr << "\rmeasured " << done << " of " << total << std::flush;
                if (done == total)
                    std::cerr << "\r" << std::string(40, ' ') << "\r" << std::flush;
                return true;
            };
        InterruptStop interrupt;
        options.stop = interrupt.token();
        workspace.reset(); // the sweep opens it again to store the points, after the measurements
        auto result = engine::sweep(task.dag, schedule->state, chosen.parameter, options);
        if (!result)
            return fail(result.error().message);
        std::cout << "# sweep: " << result->parameter.description << ", " << result->total
                  << (result->total == 1 ? " value" : " values") << " on "
                  << store::deviceOf(options.measure.target).name
                  << (options.measure.layoutRewrite > 0
                             ? ", layout rewrite " + std::to_string(options.measure.layoutRewrite)
                             : std::string())
                  << "\n";
        printTable(*result);
        if (result->points.size() < static_cast<size_t>(result->total))
            std::cout << "# stopped: " << result->points.size() << " of " << result->total << " values measured\n";
        if (!options.workspace.empty() && !result->points.empty())
            std::cout << "# stored: " << result->points.size() << " records in " << options.workspace << "\n";
        if (args.has("json")) {
            const std::string path = args.value("json");
            std::ofstream out(path);
            if (!(out << resultJson(*result, selection->title, task, *schedule).dump(2) << "\n"))
                return fail("cannot write " + path);
        }
        if (result->cancelled && interrupt.signal() != 0)
            return kExitInterrupted;
        return 0;
    }

} // namespace

std::vector<Command> sweepCommands()
{
    return {
        { "sweep",
            "measure every legal value of one parameter of a schedule (a split length or the unroll limit), the "
            "rest fixed, beside each cost model's prediction",
            "tunescope-cli sweep (--network NAME [--batch N] [--layout L] --task ID | --op OP --shape S [--layout L]) "
            "[--record ID|best | --steps FILE] (--list | --param K [--values V,V] [--models M,M] [--json FILE] "
            "[--no-store]) [--number N] [--repeat N] [--min-repeat-ms MS] [--threads N] [--timeout S] "
            "[--max-innermost N] [--layout-rewrite 0|1|2] [--seed S] [--workspace PATH]",
            { kNetworkOption, kOnnxOption, kBatchOption, kLayoutOption,
                { "task", "ID", "task id from 'tunescope-cli tasks'" }, kOpOption, kShapeOption,
                { "record", "ID|best",
                    "the schedule: a record of the task in the workspace, or best, its fastest on this machine "
                    "(default)" },
                { "steps", "FILE", "the schedule from a JSON step list instead, as in TVM records" },
                { "list", "", "print the schedule's parameters, numbered, with their candidate values" },
                { "param", "K", "sweep parameter K of the list" },
                { "values", "V,V",
                    "only these values (each must be legal; default: every legal value: a split length times the "
                    "split's other lengths divides the extent, the innermost within --max-innermost; the unroll "
                    "limit 0, 16, 64 or 512)" },
                { "models", "M,M",
                    "score each value with these cost models (e.g. xgb,analytical), each first learning from the "
                    "task's records in the workspace" },
                { "json", "FILE", "also write the points as JSON" },
                { "no-store", "", "do not store the points as records in the workspace" },
                { "number", "N", "runs per measurement (default 3)" }, { "repeat", "N", "measurements (default 1)" },
                { "min-repeat-ms", "MS", "grow number until a measurement lasts this long (default 100)" },
                { "threads", "N", "threads of parallel loops (default: all cores)" },
                { "timeout", "S", "seconds before a run is killed (default 10)" },
                { "max-innermost", "N",
                    "the largest innermost split length (Ansor's max_innermost_split_factor, default 64)" },
                { "layout-rewrite", "0|1|2",
                    "Ansor's layout_rewrite_option for the measurements (default: the record's; with --steps, "
                    "TVM's: 2 for a network's task, 1 for an operator)" },
                { "seed", "S", "seed of the cost models (default 1)" }, kWorkspaceOption, kHelpOption },
            runSweep },
    };
}

} // namespace ts::cli
