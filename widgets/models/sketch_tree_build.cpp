// buildSketchTree and the tree's values (sketch_tree_model.h): the part of the Sketches model that runs in
// its job, off the GUI thread.
#include "core/lower/lower.h"
#include "core/schedule/step_json.h"
#include "core/search/annotation_summary.h"
#include "core/search/sketch_match.h"
#include "core/store/store.h"
#include "widgets/models/sketch_tree_model.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace ts::models {

// ----- the tree's values

int SketchGroup::failures() const
{
    return static_cast<int>(std::count_if(states.begin(), states.end(), [](const auto& s) { return !s->ok(); }));
}

const MeasuredState* SketchGroup::best() const
{
    // Sorted cheapest first, failures last.
    return !states.empty() && states.front()->ok() ? states.front().get() : nullptr;
}

int SketchTask::measured() const
{
    int n = 0;
    for (const SketchGroup& group : groups)
        n += static_cast<int>(group.states.size());
    return n;
}

const MeasuredState* SketchTask::best() const
{
    const MeasuredState* best = nullptr;
    for (const SketchGroup& group : groups)
        if (const MeasuredState* b = group.best(); b && (!best || b->cost < best->cost))
            best = b;
    return best;
}

namespace {
    // Cheapest first, failures last (in trial order), ties by record: a strict order that a record's place
    // never changes in, so that a rebuild only inserts.
    bool cheaper(const std::shared_ptr<const MeasuredState>& a, const std::shared_ptr<const MeasuredState>& b)
    {
        if (a->ok() != b->ok())
            return a->ok();
        if (a->ok() && a->cost != b->cost)
            return a->cost < b->cost;
        return a->recordId < b->recordId;
    }

    std::vector<SketchGroup> groupsOf(const std::vector<search::Sketch>& sketches, const ir::ComputeDAG& dag)
    {
        std::vector<SketchGroup> groups;
        for (size_t k = 0; k < sketches.size(); ++k) {
            SketchGroup group;
            group.index = static_cast<int>(k);
            group.rules = sketches[k].rules;
            group.description = search::toString(sketches[k]);
            group.computeAt = search::summarizeAnnotations(dag, sketches[k].state).computeAtText();
            group.state = std::make_shared<const sched::State>(sketches[k].state);
            groups.push_back(std::move(group));
        }
        return groups;
    }

    // A record of a trial, replayed on its task's DAG, summarized and matched.
    std::shared_ptr<const MeasuredState> measuredState(
        const TrialPoint& trial, const store::Record* record, const SketchTask& task)
    {
        auto out = std::make_shared<MeasuredState>();
        out->recordId = trial.recordId;
        out->trial = trial.trial;
        out->cost = trial.cost;
        out->gflops = trial.gflops;
        out->status = trial.status;
        out->message = trial.message;
        if (!task.graphTask) {
            out->error = "the session's task could not be rebuilt";
            return out;
        }
        if (record->kind != store::RecordKind::Ansor) {
            out->error = "an AutoTVM configuration, not a step list";
            return out;
        }
        auto state = sched::State::replayJson(task.graphTask->dag, record->steps);
        if (!state) {
            out->error = state.error().message;
            return out;
        }
        // Extents of stages computed inside others come from bound inference; without it they are unknown.
        if (auto inferred = lower::inferBound(*state))
            state = std::move(inferred);
        const search::AnnotationSummary summary = search::summarizeAnnotations(task.graphTask->dag, *state);
        out->tiles = summary.tilesText();
        out->computeAt = summary.computeAtText();
        out->annotations = summary.annotationsText();
        if (task.sketches)
            out->sketch = search::sketchIndexOf(*task.sketches, *state);
        out->state = std::make_shared<const sched::State>(std::move(state).value());
        return out;
    }
} // namespace

Expected<SketchTree> buildSketchTree(
    const SessionSnapshot& snapshot, const SketchTree* previous, const session::JobContext* context)
{
    SketchTree out;
    out.sessionId = snapshot.sessionId;
    out.workspace = snapshot.workspace;
    const bool reuse = previous && previous->sessionId == snapshot.sessionId
        && previous->workspace == snapshot.workspace && previous->tasks.size() == snapshot.tasks.size();

    for (size_t i = 0; i < snapshot.tasks.size(); ++i) {
        const SessionTask& from = snapshot.tasks[i];
        SketchTask task;
        task.task = static_cast<int>(i);
        task.name = from.status.name;
        task.flops = from.status.flops;
        task.graphTask = from.task;
        if (reuse && previous->tasks[i].graphTask == from.task) {
            const SketchTask& before = previous->tasks[i];
            task.error = before.error;
            task.sketches = before.sketches;
            for (const SketchGroup& group : before.groups)
                if (group.index >= 0) {
                    task.groups.push_back(group);
                    task.groups.back().states.clear();
                }
        } else if (from.task) {
            search::SearchTask searchTask { from.task->dag, target::Target::host(), from.status.name,
                from.status.flops > 0.0 ? from.status.flops : from.task->dag.flopCount() };
            if (auto sketches = search::generateSketches(searchTask)) {
                task.groups = groupsOf(*sketches, from.task->dag);
                task.sketches = std::make_shared<const std::vector<search::Sketch>>(std::move(sketches).value());
            } else {
                task.error = sketches.error().message;
            }
        } else {
            task.error = "the session's tasks cannot be rebuilt from what it recorded";
        }
        out.tasks.push_back(std::move(task));
    }

    // The states the previous build replayed, and the records it still lacks, read from the store.
    std::unordered_map<int64_t, std::shared_ptr<const MeasuredState>> known;
    if (reuse)
        for (const SketchTask& task : previous->tasks)
            for (const SketchGroup& group : task.groups)
                for (const auto& state : group.states)
                    known.emplace(state->recordId, state);
    std::set<int64_t> missing;
    for (const TrialPoint& trial : snapshot.trials)
        if (!known.count(trial.recordId))
            missing.insert(trial.recordId);
    std::unordered_map<int64_t, store::Record> read;
    if (!missing.empty() && !snapshot.workspace.empty() && snapshot.sessionId > 0) {
        store::OpenOptions options;
        options.readOnly = true;
        TS_TRY(store::Store store, store::Store::open(snapshot.workspace, options));
        store::RecordFilter filter;
        filter.sessionId = snapshot.sessionId;
        TS_CHECK(store.forEachRecord(filter, [&](const store::Record& r) {
            if (missing.count(r.id))
                read.emplace(r.id, r);
            return !(context && context->stopRequested());
        }));
    }

    for (const TrialPoint& trial : snapshot.trials) {
        if (context && context->stopRequested())
            return makeError(ErrorKind::Internal, "stopped");
        if (trial.task < 0 || trial.task >= static_cast<int>(out.tasks.size()))
            continue;
        SketchTask& task = out.tasks[static_cast<size_t>(trial.task)];
        std::shared_ptr<const MeasuredState> state;
        if (auto found = known.find(trial.recordId); found != known.end())
            state = found->second;
        else if (auto r = read.find(trial.recordId); r != read.end())
            state = measuredState(trial, &r->second, task);
        else
            continue; // not in the store yet: the next build takes it
        ++out.trials;
        if (state->sketch >= 0 && state->sketch < static_cast<int>(task.groups.size())
            && task.groups[static_cast<size_t>(state->sketch)].index == state->sketch) {
            task.groups[static_cast<size_t>(state->sketch)].states.push_back(std::move(state));
        } else {
            if (task.groups.empty() || task.groups.back().index >= 0)
                task.groups.push_back(SketchGroup {});
            task.groups.back().states.push_back(std::move(state));
        }
    }
    for (SketchTask& task : out.tasks)
        for (SketchGroup& group : task.groups)
            std::sort(group.states.begin(), group.states.end(), cheaper);
    return out;
}

} // namespace ts::models
