#include "core/engine/sweep.h"

#include "core/cost/analytical_model.h"
#include "core/cost/random_model.h"
#include "core/engine/machine.h"
#include "core/engine/tuning_session.h"
#include "core/lower/lower.h"
#include "core/schedule/step_json.h"
#include "core/search/annotation_rules.h"
#include "core/store/schedule_source.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace ts::engine {

namespace {
    constexpr const char* kUnrollPragma = "auto_unroll_max_step";

    // "auto_unroll_max_step$64" -> 64; nullopt for another pragma or a value that is not a number.
    std::optional<int64_t> unrollValue(const std::string& pragma)
    {
        const std::string prefix = std::string(kUnrollPragma) + "$";
        if (pragma.rfind(prefix, 0) != 0)
            return std::nullopt;
        auto value = parseInt(std::string_view(pragma).substr(prefix.size()), "auto_unroll_max_step");
        return value && *value >= 0 ? std::optional<int64_t>(*value) : std::nullopt;
    }

    // The candidates of one length of a split of `extent` (-1: not known): the divisors of extent / the other
    // lengths, capped for the innermost length of a split by factor; the current value in any case.
    std::vector<int64_t> splitCandidates(
        const sched::SplitStep& split, int part, int64_t extent, const search::SearchParams& params)
    {
        std::set<int64_t> values { *split.lengths[static_cast<size_t>(part)] };
        int64_t others = 1;
        for (size_t j = 0; j < split.lengths.size(); ++j)
            if (static_cast<int>(j) != part)
                others *= *split.lengths[j];
        const bool innermost = split.innerToOuter && static_cast<size_t>(part) + 1 == split.lengths.size();
        if (extent > 0 && extent % others == 0)
            for (int64_t v : search::detail::divisors(extent / others))
                if (!innermost || v <= params.maxInnermostSplitFactor)
                    values.insert(v);
        return { values.begin(), values.end() };
    }

    std::string valuesText(const std::vector<int64_t>& values) { return join(values, ", "); }

    // Every parameter of the state, found by replaying its steps once (so that each is named by the stage and
    // iterator it applied to). A split with an unfilled length offers none.
    Expected<std::vector<SweepableParameter>> allParameters(const ir::ComputeDAG& dag, const sched::State& state,
        const search::SearchParams& params, const target::Target& target)
    {
        std::vector<SweepableParameter> out;
        sched::State replayed = sched::State::initial(dag);
        const std::vector<sched::Step>& steps = state.steps();
        for (size_t i = 0; i < steps.size(); ++i) {
            const int step = static_cast<int>(i);
            if (const auto* split = std::get_if<sched::SplitStep>(&steps[i]); split && split->filled()
                && split->stageId >= 0 && split->stageId < replayed.numStages() && split->iterId >= 0
                && static_cast<size_t>(split->iterId) < replayed.stage(split->stageId).iters.size()) {
                const sched::Stage& stage = replayed.stage(split->stageId);
                const sched::Iterator& iter = stage.iters[static_cast<size_t>(split->iterId)];
                const int64_t extent = split->extent ? *split->extent : iter.extent;
                const std::string lengths = sched::toString(split->lengths);
                for (size_t part = 0; part < split->lengths.size(); ++part) {
                    const int64_t current = *split->lengths[part];
                    out.push_back(
                        SweepableParameter { { SweepParameter::Kind::SplitLength, step, static_cast<int>(part) },
                            "split " + stage.op->name() + " " + iter.name + ": length " + std::to_string(part + 1)
                                + " of " + std::to_string(split->lengths.size()) + " in [" + lengths + "] (now "
                                + std::to_string(current) + ")",
                            current, splitCandidates(*split, static_cast<int>(part), extent, params) });
                }
            } else if (const auto* pragma = std::get_if<sched::PragmaStep>(&steps[i]);
                       pragma && pragma->stageId >= 0 && pragma->stageId < replayed.numStages()) {
                if (const std::optional<int64_t> value = unrollValue(pragma->pragma)) {
                    std::set<int64_t> values { *value };
                    for (int choice : search::unrollChoices(params, target))
                        values.insert(choice);
                    out.push_back(SweepableParameter { { SweepParameter::Kind::Unroll, step, 0 },
                        "unroll " + replayed.stage(pragma->stageId).op->name() + " (now " + std::to_string(*value)
                            + ")",
                        *value, { values.begin(), values.end() } });
                }
            }
            if (auto applied = replayed.apply(steps[i]); !applied)
                return makeError(applied.error().kind, "the state does not replay: " + applied.error().message);
        }
        return out;
    }

    // The state with the parameter set to `value`, replayed and its bounds inferred.
    Expected<sched::State> withValue(
        const ir::ComputeDAG& dag, const sched::State& state, SweepParameter parameter, int64_t value)
    {
        const size_t step = static_cast<size_t>(parameter.step);
        if (parameter.kind == SweepParameter::Kind::SplitLength) {
            const auto& split = std::get<sched::SplitStep>(state.steps()[step]);
            std::vector<int64_t> lengths;
            for (const sched::SplitLength& length : split.lengths)
                lengths.push_back(*length);
            lengths[static_cast<size_t>(parameter.part)] = value;
            TS_TRY(sched::State changed, state.withSplitLengths(parameter.step, std::move(lengths)));
            return lower::inferBound(changed);
        }
        std::vector<sched::Step> steps = state.steps();
        std::get<sched::PragmaStep>(steps[step]).pragma = std::string(kUnrollPragma) + "$" + std::to_string(value);
        TS_TRY(sched::State changed, sched::State::replay(dag, steps));
        return lower::inferBound(changed);
    }

    cost::CostTask costTaskOf(const ir::ComputeDAG& dag, const measure::MeasureOptions& measure, double flops)
    {
        return cost::CostTask { &dag, dag.workloadKey(), flops, measure.target, recordedLayoutRewrite(measure) > 0 };
    }

    std::string kindText(SweepParameter::Kind kind)
    {
        return kind == SweepParameter::Kind::SplitLength ? "split" : "unroll";
    }

    // The points as records of the task on the measured device, in one transaction.
    Expected<void> storePoints(store::Store& workspace, const ir::ComputeDAG& dag, const SweepOptions& options,
        double flops, const SweepParameter& parameter, std::vector<SweepPoint>& points)
    {
        TS_TRY(int64_t deviceId, workspace.addDevice(store::deviceOf(options.measure.target)));
        const std::string name = !options.taskName.empty() ? options.taskName
            : dag.ops().empty()                            ? std::string("dag")
                                                           : dag.ops().back()->name();
        TS_TRY(int64_t taskId, workspace.addTask(store::taskInfoOf(name, dag.workloadKey(), dag.toString(), flops)));
        std::vector<store::Record> records;
        for (const SweepPoint& point : points) {
            store::Record r;
            r.taskId = taskId;
            r.deviceId = deviceId;
            r.kind = store::RecordKind::Ansor;
            r.steps = point.steps;
            TS_TRY(std::vector<sched::Step> steps, sched::parseSteps(point.steps));
            r.stepCount = static_cast<int>(steps.size());
            r.result = point.result;
            nlohmann::json extra { { "pick", "sweep" },
                { "sweep",
                    { { "parameter", kindText(parameter.kind) }, { "step", parameter.step }, { "part", parameter.part },
                        { "value", point.value } } } };
            if (const int rewrite = recordedLayoutRewrite(options.measure); rewrite > 0)
                extra["layout_rewrite_option"] = rewrite;
            if (point.result.waited >= measure::kBusyWait)
                extra["waited"] = std::round(point.result.waited * 100) / 100;
            r.extra = extra.dump();
            records.push_back(std::move(r));
        }
        if (auto added = workspace.addRecords(records); !added)
            return makeError(added.error().kind, "storing the sweep's points: " + added.error().message);
        for (size_t i = 0; i < points.size(); ++i)
            points[i].recordId = records[i].id;
        return {};
    }

} // namespace

Expected<std::vector<SweepableParameter>> sweepableParameters(const ir::ComputeDAG& dag, const sched::State& state,
    const search::SearchParams& params, const target::Target& target)
{
    return allParameters(dag, state, params, target);
}

Expected<SweepableParameter> describeParameter(const ir::ComputeDAG& dag, const sched::State& state,
    SweepParameter parameter, const search::SearchParams& params, const target::Target& target)
{
    const auto& steps = state.steps();
    const std::string where = "step " + std::to_string(parameter.step);
    if (parameter.step < 0 || static_cast<size_t>(parameter.step) >= steps.size())
        return makeError(ErrorKind::InvalidArgument,
            "cannot sweep " + where + ": the state has " + std::to_string(steps.size()) + " steps");
    const sched::Step& step = steps[static_cast<size_t>(parameter.step)];
    if (parameter.kind == SweepParameter::Kind::SplitLength) {
        const auto* split = std::get_if<sched::SplitStep>(&step);
        if (!split)
            return makeError(ErrorKind::InvalidArgument,
                "cannot sweep a split length of " + where + ": it is a " + sched::stepCode(step)
                    + " step, not a split (SP)");
        if (parameter.part < 0 || static_cast<size_t>(parameter.part) >= split->lengths.size())
            return makeError(ErrorKind::InvalidArgument,
                "cannot sweep length " + std::to_string(parameter.part) + " of " + where + " (SP): the split has "
                    + std::to_string(split->lengths.size()) + " lengths (0.."
                    + std::to_string(split->lengths.size() - 1) + ")");
        if (!split->filled())
            return makeError(ErrorKind::InvalidArgument,
                "cannot sweep a length of " + where + " (SP): its lengths are not all chosen (["
                    + sched::toString(split->lengths) + "]); fill the sketch first");
    } else {
        const auto* pragma = std::get_if<sched::PragmaStep>(&step);
        if (!pragma || !unrollValue(pragma->pragma))
            return makeError(ErrorKind::InvalidArgument,
                "cannot sweep the unroll limit of " + where + ": it is "
                    + (pragma ? "the pragma \"" + pragma->pragma + "\""
                              : std::string("a ") + sched::stepCode(step) + " step")
                    + ", not " + kUnrollPragma + "$N (PR)");
    }
    TS_TRY(std::vector<SweepableParameter> all, allParameters(dag, state, params, target));
    for (SweepableParameter& p : all)
        if (p.parameter == parameter)
            return std::move(p);
    // A split whose stage or iterator is out of range never replays: allParameters said so already.
    return makeError(ErrorKind::Internal, "cannot sweep " + where + ": not found among the state's parameters");
}

Expected<std::vector<SweepCandidate>> legalValues(const ir::ComputeDAG& dag, const sched::State& state,
    SweepParameter parameter, const std::vector<int64_t>& values, const search::SearchParams& params,
    const target::Target& target)
{
    TS_TRY(SweepableParameter described, describeParameter(dag, state, parameter, params, target));
    std::vector<SweepCandidate> legal;
    for (int64_t value : described.candidates) {
        auto changed = withValue(dag, state, parameter, value);
        if (changed) // a value whose state does not replay or whose bounds do not infer is not legal
            legal.push_back(SweepCandidate { value, value == described.current, std::move(changed).value() });
    }
    if (values.empty())
        return legal;
    std::set<int64_t> wanted(values.begin(), values.end());
    std::vector<int64_t> legalList;
    for (const SweepCandidate& c : legal)
        legalList.push_back(c.value);
    for (int64_t value : wanted)
        if (std::find(legalList.begin(), legalList.end(), value) == legalList.end())
            return makeError(ErrorKind::InvalidArgument,
                described.description + ": " + std::to_string(value)
                    + " is not a legal value (legal: " + valuesText(legalList) + ")");
    std::erase_if(legal, [&](const SweepCandidate& c) { return wanted.count(c.value) == 0; });
    return legal;
}

Expected<SweepResult> sweep(
    const ir::ComputeDAG& dag, const sched::State& state, SweepParameter parameter, const SweepOptions& options)
{
    SweepResult result;
    TS_TRY(result.parameter, describeParameter(dag, state, parameter, options.search, options.measure.target));
    TS_TRY(std::vector<SweepCandidate> candidates,
        legalValues(dag, state, parameter, options.values, options.search, options.measure.target));
    for (size_t m = 0; m < options.models.size(); ++m) {
        if (!options.models[m].model)
            return makeError(ErrorKind::InvalidArgument,
                "sweep model " + std::to_string(m) + " (" + options.models[m].name + ") has no model");
        result.models.push_back(options.models[m].name);
    }
    std::optional<store::Store> workspace;
    if (!options.workspace.empty()) {
        TS_TRY(store::Store opened, store::Store::open(options.workspace));
        workspace = std::move(opened);
    }
    const double flops = options.flops > 0.0 ? options.flops : dag.flopCount();
    result.total = static_cast<int>(candidates.size());

    std::vector<sched::State> states;
    for (const SweepCandidate& c : candidates)
        states.push_back(c.state);
    // Scored before anything runs: cheap next to a measurement, and a stopped sweep keeps them for its points.
    const cost::CostTask task = costTaskOf(dag, options.measure, flops);
    std::vector<std::vector<double>> predictions; // [model][candidate]
    for (const SweepModel& m : options.models) {
        predictions.push_back(m.model->predict(task, states));
        if (predictions.back().size() != states.size())
            return makeError(ErrorKind::Internal,
                "cost model " + m.name + " gave " + std::to_string(predictions.back().size()) + " scores for "
                    + std::to_string(states.size()) + " states");
    }

    std::stop_source stop;
    const std::stop_callback forward(options.stop, [&stop] { stop.request_stop(); });
    std::vector<std::optional<record::MeasureResult>> results(candidates.size());
    measure::MeasureCallbacks callbacks;
    callbacks.onResult
        = [&](int index, record::MeasureResult r) { results[static_cast<size_t>(index)] = std::move(r); };
    callbacks.onProgress = [&](const measure::MeasureProgress& p) {
        if (options.progress && !options.progress(p.done, p.total))
            stop.request_stop();
    };
    measure::Measurer measurer(options.measure);
    const int delivered = measurer.measure(dag, states, callbacks, stop.get_token());
    result.cancelled = delivered < result.total;

    for (size_t i = 0; i < candidates.size(); ++i) {
        if (!results[i])
            continue; // not measured before the stop
        SweepPoint point;
        point.value = candidates[i].value;
        point.current = candidates[i].current;
        point.steps = sched::stepsToText(candidates[i].state.steps());
        point.result = std::move(*results[i]);
        point.gflops = point.result.ok() ? flops / point.result.meanCost() / 1e9 : 0.0;
        for (const std::vector<double>& scores : predictions)
            point.predictions.push_back(scores[i]);
        result.points.push_back(std::move(point));
    }
    if (workspace && !result.points.empty())
        TS_CHECK(storePoints(*workspace, dag, options, flops, parameter, result.points));
    return result;
}

Expected<std::unique_ptr<cost::CostModel>> sweepModel(const std::string& kind, store::Store* workspace,
    const ir::ComputeDAG& dag, const measure::MeasureOptions& measure, uint64_t seed)
{
    TS_TRY(std::unique_ptr<cost::CostModel> model, cost::makeCostModel(kind, seed));
    // A sweep scores a handful of states once: whatever the model learned ranks them (Ansor's warm-up would
    // give random scores below 100 records).
    model->setWarmupSamples(0);
    if (!workspace)
        return model;
    TS_TRY(std::vector<store::Device> devices, workspace->devices());
    const std::optional<store::Device> device = hostDevice(devices, store::deviceOf(measure.target));
    if (!device)
        return model; // nothing measured on this device yet
    if (auto* analytical = dynamic_cast<cost::AnalyticalCostModel*>(model.get())) {
        if (!measure.target.isGpu()) {
            TS_TRY(std::optional<measure::MachineProfile> profile, deviceProfile(*workspace, device->id));
            if (profile)
                analytical->setLimits(limitsOf(*profile, measure.target.vectorBytes));
        }
        return model; // it learns nothing from records: trainedOn() stays 0, so nobody reads that it did
    }
    if (dynamic_cast<cost::RandomCostModel*>(model.get()))
        return model;
    TS_TRY(std::optional<store::TaskInfo> row, workspace->findTask(dag.workloadKey()));
    if (!row)
        return model;
    store::RecordFilter filter;
    filter.taskIds = { row->id };
    filter.deviceId = device->id;
    TS_TRY(std::vector<store::Record> records, workspace->records(filter));
    std::vector<sched::State> states;
    std::vector<record::MeasureResult> results;
    for (const store::Record& r : records) {
        if (r.kind != store::RecordKind::Ansor || layoutRewriteOf(r.extra) != recordedLayoutRewrite(measure))
            continue; // another search's config, or another kernel's time
        auto state = store::replayStored(dag, r.steps, r.extra);
        if (!state)
            continue;
        states.push_back(std::move(state).value());
        results.push_back(r.result);
    }
    if (!states.empty()) {
        const cost::CostTask task = costTaskOf(dag, measure, dag.flopCount());
        if (auto updated = model->update(task, states, results); !updated)
            return makeError(
                updated.error().kind, kind + ": learning from the workspace's records: " + updated.error().message);
    }
    return model;
}

} // namespace ts::engine
