#include "widgets/models/code_listing.h"

#include "core/codegen/codegen.h"
#include "core/cost/analytical_model.h"
#include "core/cost/cost_model.h"
#include "core/features/per_store_features.h"
#include "core/lower/lower.h"
#include "core/schedule/step_printer.h"
#include "core/store/store.h"
#include "widgets/models/line_diff.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts::models {

namespace {
    constexpr int kMaxModelProbes = 256; // saved models looked at after the session's first one

    struct SavedModel {
        std::unique_ptr<cost::CostModel> model;
        int64_t id = 0;
        std::string name;
    };

    bool isXgb(const std::string& kind) { return kind == "xgb" || kind == "xgb-rank"; }

    // The newest model of the session's kind saved since the session began: the records name the model
    // that ranked them (saved when the session started); later ids are later saves.
    Expected<SavedModel> loadSavedModel(const ScoreSource& source)
    {
        store::OpenOptions options;
        options.readOnly = true;
        TS_TRY(store::Store store, store::Store::open(source.workspace, options));
        store::RecordFilter filter;
        filter.sessionId = source.sessionId;
        std::optional<int64_t> first;
        TS_CHECK(store.forEachRecord(filter, [&](const store::Record& r) {
            first = r.predictedBy;
            return !first; // the first record that names its model is enough
        }));
        if (!first)
            return makeError(ErrorKind::NotFound,
                "session " + std::to_string(source.sessionId) + " has no records ranked by a saved model yet");
        std::optional<store::CostModelInfo> newest;
        for (int64_t id = *first; id < *first + kMaxModelProbes; ++id) {
            auto info = store.costModel(id);
            if (!info)
                break; // no model saved after this one
            if (info->kind == source.sessionModel)
                newest = std::move(info).value();
        }
        if (!newest)
            return makeError(ErrorKind::NotFound, "no saved " + source.sessionModel + " model in the workspace");
        TS_TRY(std::unique_ptr<cost::CostModel> model, cost::makeCostModel(newest->kind, 0));
        TS_CHECK(model->load(newest->weights));
        return SavedModel { std::move(model), newest->id, newest->name };
    }

    std::string formatScore(double value)
    {
        char text[32];
        if (std::abs(value) >= 1e4 && std::abs(value) < 1e12)
            std::snprintf(text, sizeof text, "%.0f", value); // 22790 rather than 2.279e+04
        else
            std::snprintf(text, sizeof text, "%.4g", value);
        return text;
    }

} // namespace

std::vector<std::string> stepCallLines(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps)
{
    return splitLines(sched::printStepsAsCalls(dag, steps));
}

std::string loopNestText(const sched::State& state)
{
    if (auto bound = lower::inferBound(state))
        return bound->toString();
    return state.toString();
}

std::vector<StepFrame> stepThrough(
    const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps, const std::stop_token& stop)
{
    const std::vector<std::string> calls = stepCallLines(dag, steps);
    std::vector<StepFrame> frames;
    frames.reserve(steps.size() + 1);
    // Applying the steps one by one is State::replay of each prefix, without replaying it from the start.
    sched::State state = sched::State::initial(dag);
    frames.push_back(StepFrame { 0, {}, loopNestText(state), {}, {} });
    std::string error;
    for (size_t k = 1; k <= steps.size(); ++k) {
        if (stop.stop_requested())
            break;
        StepFrame frame;
        frame.step = static_cast<int>(k);
        frame.call = k - 1 < calls.size() ? calls[k - 1] : std::string();
        if (error.empty()) {
            if (auto applied = state.apply(steps[k - 1]); !applied)
                error = "steps 1.." + std::to_string(k) + " do not replay: " + applied.error().message;
        }
        if (error.empty()) {
            frame.loopNest = loopNestText(state);
            for (const DiffLine& line : diffLines(splitLines(frames.back().loopNest), splitLines(frame.loopNest))) {
                if (line.op == DiffOp::Added)
                    frame.changed.push_back(line.after);
                else if (line.op == DiffOp::Removed)
                    ++frame.removed;
            }
        } else {
            frame.error = error;
        }
        frames.push_back(std::move(frame));
    }
    return frames;
}

Listing loopIrText(const sched::State& state, const target::Target& target)
{
    lower::LowerOptions options;
    options.target = target;
    auto func = lower::lower(state, options);
    if (!func)
        return { {}, func.error().message };
    return { lower::toString(*func), {} };
}

StageScores scoreStages(
    const graph::Task& task, const sched::State& state, const target::Target& target, const ScoreSource& source)
{
    StageScores scores;
    auto features = features::perStoreFeatures(state, target);
    if (!features) {
        scores.note = "no per-stage scores: " + features.error().message;
        return scores;
    }
    if (isXgb(source.sessionModel) && !source.workspace.empty() && source.sessionId > 0) {
        auto saved = loadSavedModel(source);
        if (saved) {
            const cost::CostTask costTask { &task.dag, task.name, task.flops, target };
            const auto rows = saved->model->predictStages(costTask, std::span(&state, 1));
            if (!rows.empty() && static_cast<int>(rows[0].size()) == features->rows()) {
                scores.model = saved->model->kind();
                scores.origin = "saved model " + std::to_string(saved->id) + " (" + saved->name + ")";
                for (int r = 0; r < features->rows(); ++r)
                    scores.stages.push_back({ features->rowBuffers[size_t(r)], rows[0][size_t(r)] });
                return scores;
            }
            scores.note = "the session's " + source.sessionModel + " model (saved model " + std::to_string(saved->id)
                + ") is not trained yet";
        } else {
            scores.note = "the session's " + source.sessionModel + " model: " + saved.error().message;
        }
    }
    // The roofline estimate of each stored buffer on its own.
    const cost::AnalyticalCostModel analytical;
    scores.model = analytical.kind();
    scores.origin = "roofline estimate, no training";
    scores.higherIsBetter = false;
    for (int r = 0; r < features->rows(); ++r) {
        features::ProgramFeatures one;
        const auto row = features->row(r);
        one.values.assign(row.begin(), row.end());
        one.rowBuffers = { features->rowBuffers[size_t(r)] };
        scores.stages.push_back({ one.rowBuffers[0], analytical.estimateSeconds(one, target) * 1e6 });
    }
    return scores;
}

std::string annotateScores(const std::string& loopIr, const StageScores& scores)
{
    const std::vector<std::string> lines = splitLines(loopIr);
    std::vector<std::string> notes(lines.size()); // the comment line to put before each line
    for (const StageScore& stage : scores.stages) {
        const std::string store = stage.buffer + "[";
        for (size_t i = 0; i < lines.size(); ++i) {
            const size_t indent = lines[i].find_first_not_of(' ');
            if (indent == std::string::npos || lines[i].compare(indent, store.size(), store) != 0
                || lines[i].find("] = ", indent) == std::string::npos)
                continue;
            if (notes[i].empty())
                notes[i] = std::string(indent, ' ') + "// " + scores.model + " " + formatScore(stage.value)
                    + (scores.higherIsBetter ? "" : " us") + ": " + stage.buffer;
            break;
        }
    }
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!notes[i].empty())
            out += notes[i] + "\n";
        out += lines[i] + "\n";
    }
    return out;
}

Expected<RecordLowering> recordLowering(const std::string& workspace, int64_t recordId)
{
    store::OpenOptions options;
    options.readOnly = true;
    TS_TRY(store::Store store, store::Store::open(workspace, options));
    TS_TRY(const std::vector<store::Record> page, store.recordPage({}, recordId - 1, 1)); // one lookup by key
    if (page.empty() || page.front().id != recordId)
        return makeError(ErrorKind::NotFound, workspace + ": no record " + std::to_string(recordId));
    const store::Record& record = page.front();
    RecordLowering out;
    const nlohmann::json extra = nlohmann::json::parse(record.extra, nullptr, false);
    if (const int option = extra.is_object() ? extra.value("layout_rewrite_option", 0) : 0; option >= 0 && option <= 2)
        out.layoutRewrite = option;
    TS_TRY(const std::vector<store::Device> devices, store.devices());
    for (const store::Device& d : devices)
        if (d.id == record.deviceId) {
            TS_TRY(out.target, store::targetOf(d));
            return out;
        }
    return makeError(ErrorKind::NotFound, workspace + ": no device " + std::to_string(record.deviceId));
}

RecordLowering loweringFor(
    const target::Target& target, const std::optional<int64_t>& recordId, const std::string& workspace)
{
    if (recordId && !workspace.empty())
        if (auto measured = recordLowering(workspace, *recordId))
            return *measured;
    return RecordLowering { target, 0 };
}

CodeListing buildCodeListing(const CodeRequest& request, const std::stop_token& stop)
{
    CodeListing out;
    const graph::Task& task = *request.task;
    const sched::State& state = *request.state;
    out.loopNest.text = loopNestText(state);
    out.frames = stepThrough(task.dag, state.steps(), stop);
    if (stop.stop_requested())
        return out;
    const RecordLowering lowering = loweringFor(request.target, request.recordId, request.workspace);
    const target::Target& target = lowering.target;
    lower::LowerOptions options;
    options.target = target;
    options.layoutRewrite = lowering.layoutRewrite;
    auto func = lower::lower(state, options);
    if (!func) {
        out.loopIr.error = func.error().message;
        out.llvmIr.error = out.assembly.error = "the state does not lower: " + func.error().message;
        return out;
    }
    out.loopIr.text = lower::toString(*func);
    out.scores = scoreStages(task, state, target, request.scoreSource);
    out.loopIrScored = annotateScores(out.loopIr.text, out.scores);
    if (stop.stop_requested())
        return out;
    out.gpu = target.isGpu();
    if (auto ir = out.gpu ? codegen::emitCudaC(*func, target) : codegen::emitLlvmIr(*func, true, target))
        out.llvmIr.text = std::move(ir).value();
    else
        out.llvmIr.error = ir.error().message;
    if (stop.stop_requested())
        return out;
    if (auto assembly = codegen::emitAssembly(*func, target))
        out.assembly.text = std::move(assembly).value();
    else
        out.assembly.error = assembly.error().message;
    return out;
}

} // namespace ts::models
