#include "core/search/constraints.h"

#include "core/lower/lower.h"
#include "core/search/annotation_rules.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace ts::search {

namespace {
    // "conv2d" names the stage "conv2d" and its cache copies "conv2d.local", "conv2d.rf"; "ff" names the axis "ff"
    // and the cache stage's copy "ff.c".
    bool namesBase(const std::string& name, const std::string& base)
    {
        return name == base
            || (name.size() > base.size() && name.compare(0, base.size(), base) == 0 && name[base.size()] == '.');
    }

    std::string partName(int part)
    {
        if (part == -1)
            return "innermost";
        if (part < 0)
            return "innermost" + std::to_string(part + 1);
        return "part " + std::to_string(part);
    }

    std::string splitName(const SplitConstraint& s)
    {
        return "split " + s.stage + "." + s.iter + " " + partName(s.part);
    }

    bool hasStep(const sched::State& state, const std::string& rule)
    {
        for (const sched::Step& step : state.steps()) {
            if ((rule == "rfactor" && std::holds_alternative<sched::RfactorStep>(step))
                || (rule == "cache_write" && std::holds_alternative<sched::CacheWriteStep>(step))
                || (rule == "cache_read" && std::holds_alternative<sched::CacheReadStep>(step))
                || (rule == "inline" && std::holds_alternative<sched::ComputeInlineStep>(step)))
                return true;
        }
        return false;
    }

    std::optional<std::string> sketchViolation(const Constraints& c, const sched::State& state)
    {
        for (const std::string& rule : c.forbid)
            if (hasStep(state, rule))
                return "has " + rule + ", which is forbidden";
        for (const std::string& rule : c.require)
            if (!hasStep(state, rule))
                return "has no " + rule + ", which is required";
        return std::nullopt;
    }

    Expected<Bound> boundFromJson(const nlohmann::json& json, const std::string& what)
    {
        if (!json.is_object())
            return makeError(ErrorKind::Parse, what + ": expected an object with equals, min, max or in");
        Bound b;
        for (const auto& [key, value] : json.items()) {
            if (key == "stage" || key == "iter" || key == "part")
                continue; // a split's own members
            if (key == "in") {
                if (!value.is_array())
                    return makeError(ErrorKind::Parse, what + ": \"in\" must be an array of integers");
                for (const nlohmann::json& v : value) {
                    if (!v.is_number_integer())
                        return makeError(ErrorKind::Parse, what + ": \"in\" must be an array of integers");
                    b.in.push_back(v.get<int64_t>());
                }
                continue;
            }
            if (key != "equals" && key != "min" && key != "max")
                return makeError(
                    ErrorKind::Parse, what + ": unknown member \"" + key + "\" (expected equals, min, max or in)");
            if (!value.is_number_integer())
                return makeError(ErrorKind::Parse, what + ": \"" + key + "\" must be an integer");
            const int64_t v = value.get<int64_t>();
            (key == "equals" ? b.equals : key == "min" ? b.min : b.max) = v;
        }
        if (b.min && b.max && *b.min > *b.max)
            return makeError(ErrorKind::InvalidArgument,
                what + ": min " + std::to_string(*b.min) + " is above max " + std::to_string(*b.max)
                    + "; nothing fits");
        if (b.equals && !b.allows(*b.equals))
            return makeError(ErrorKind::InvalidArgument,
                what + ": equals " + std::to_string(*b.equals) + " is outside its own bounds (" + b.describe() + ")");
        return b;
    }

    nlohmann::json boundToJson(const Bound& b)
    {
        nlohmann::json out = nlohmann::json::object();
        if (b.equals)
            out["equals"] = *b.equals;
        if (b.min)
            out["min"] = *b.min;
        if (b.max)
            out["max"] = *b.max;
        if (!b.in.empty())
            out["in"] = b.in;
        return out;
    }

    // A later entry's bound replaces an earlier one's; splits and sketch rules add up.
    void merge(Constraints& into, const Constraints& from)
    {
        for (const SplitConstraint& s : from.splits) {
            auto same = std::find_if(into.splits.begin(), into.splits.end(),
                [&](const SplitConstraint& o) { return o.stage == s.stage && o.iter == s.iter && o.part == s.part; });
            if (same != into.splits.end())
                same->bound = s.bound;
            else
                into.splits.push_back(s);
        }
        if (!from.unroll.empty())
            into.unroll = from.unroll;
        if (!from.vectorize.empty())
            into.vectorize = from.vectorize;
        if (!from.parallel.empty())
            into.parallel = from.parallel;
        for (const std::string& r : from.forbid)
            if (std::find(into.forbid.begin(), into.forbid.end(), r) == into.forbid.end())
                into.forbid.push_back(r);
        for (const std::string& r : from.require)
            if (std::find(into.require.begin(), into.require.end(), r) == into.require.end())
                into.require.push_back(r);
    }
} // namespace

bool Bound::allows(int64_t value) const
{
    if (equals && value != *equals)
        return false;
    if (min && value < *min)
        return false;
    if (max && value > *max)
        return false;
    return in.empty() || std::find(in.begin(), in.end(), value) != in.end();
}

std::string Bound::describe() const
{
    std::vector<std::string> parts;
    if (equals)
        parts.push_back("= " + std::to_string(*equals));
    if (min)
        parts.push_back(">= " + std::to_string(*min));
    if (max)
        parts.push_back("<= " + std::to_string(*max));
    if (!in.empty()) {
        std::string set;
        for (int64_t v : in)
            set += (set.empty() ? "" : ", ") + std::to_string(v);
        parts.push_back("in {" + set + "}");
    }
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : " and ") + p;
    return out.empty() ? "any" : out;
}

bool Constraints::empty() const
{
    return splits.empty() && unroll.empty() && vectorize.empty() && parallel.empty() && forbid.empty()
        && require.empty();
}

std::vector<std::string> Constraints::describe() const
{
    std::vector<std::string> out;
    for (const SplitConstraint& s : splits)
        out.push_back(splitName(s) + " " + s.bound.describe());
    if (!unroll.empty())
        out.push_back("unroll " + unroll.describe());
    if (!vectorize.empty())
        out.push_back("vector length " + vectorize.describe());
    if (!parallel.empty())
        out.push_back("parallel extent " + parallel.describe());
    for (const std::string& r : forbid)
        out.push_back("no " + r);
    for (const std::string& r : require)
        out.push_back("always " + r);
    return out;
}

nlohmann::json toJson(const Constraints& c)
{
    nlohmann::json out = nlohmann::json::object();
    if (!c.splits.empty()) {
        out["splits"] = nlohmann::json::array();
        for (const SplitConstraint& s : c.splits) {
            nlohmann::json split { { "stage", s.stage }, { "iter", s.iter }, { "part", s.part } };
            split.update(boundToJson(s.bound));
            out["splits"].push_back(std::move(split));
        }
    }
    if (!c.unroll.empty())
        out["unroll"] = boundToJson(c.unroll);
    if (!c.vectorize.empty())
        out["vectorize"] = boundToJson(c.vectorize);
    if (!c.parallel.empty())
        out["parallel"] = boundToJson(c.parallel);
    if (!c.forbid.empty() || !c.require.empty())
        out["sketch"] = { { "forbid", c.forbid }, { "require", c.require } };
    return out;
}

Expected<Constraints> constraintsFromJson(const nlohmann::json& json)
{
    if (!json.is_object())
        return makeError(ErrorKind::Parse, "constraints must be a JSON object");
    Constraints c;
    for (const auto& [key, value] : json.items()) {
        if (key == "task" || key == "index" || key == "workload_key")
            continue; // the entry's selector
        if (key == "splits") {
            if (!value.is_array())
                return makeError(ErrorKind::Parse, "\"splits\" must be an array");
            for (const nlohmann::json& s : value) {
                if (!s.is_object() || !s.contains("stage") || !s["stage"].is_string() || !s.contains("iter")
                    || !s["iter"].is_string())
                    return makeError(ErrorKind::Parse, "a split constraint needs \"stage\" and \"iter\" (strings)");
                SplitConstraint split { s["stage"].get<std::string>(), s["iter"].get<std::string>(), -1, {} };
                if (s.contains("part")) {
                    if (!s["part"].is_number_integer())
                        return makeError(ErrorKind::Parse,
                            "split " + split.stage + "." + split.iter
                                + ": \"part\" must be an integer (-1: the innermost tile)");
                    split.part = s["part"].get<int>();
                }
                TS_TRY(split.bound, boundFromJson(s, splitName(split)));
                if (split.bound.empty())
                    return makeError(ErrorKind::Parse, splitName(split) + ": no bound (give equals, min, max or in)");
                c.splits.push_back(std::move(split));
            }
        } else if (key == "unroll" || key == "vectorize" || key == "parallel") {
            TS_TRY(Bound b, boundFromJson(value, key));
            (key == "unroll" ? c.unroll : key == "vectorize" ? c.vectorize : c.parallel) = std::move(b);
        } else if (key == "sketch") {
            if (!value.is_object())
                return makeError(ErrorKind::Parse, "\"sketch\" must be an object with forbid and require");
            for (const auto& [which, rules] : value.items()) {
                if (which != "forbid" && which != "require")
                    return makeError(ErrorKind::Parse, "sketch: unknown member \"" + which + "\"");
                if (!rules.is_array())
                    return makeError(ErrorKind::Parse, "sketch." + which + " must be an array of rule names");
                for (const nlohmann::json& r : rules) {
                    const std::string rule = r.is_string() ? r.get<std::string>() : r.dump();
                    if (std::find(std::begin(kSketchRules), std::end(kSketchRules), rule) == std::end(kSketchRules))
                        return makeError(ErrorKind::InvalidArgument,
                            "sketch." + which + ": unknown rule \"" + rule
                                + "\" (known: rfactor, cache_write, cache_read, inline)");
                    (which == "forbid" ? c.forbid : c.require).push_back(rule);
                }
            }
        } else {
            return makeError(ErrorKind::Parse,
                "unknown constraint \"" + key + "\" (known: splits, unroll, vectorize, parallel, sketch)");
        }
    }
    for (const std::string& r : c.forbid)
        if (std::find(c.require.begin(), c.require.end(), r) != c.require.end())
            return makeError(ErrorKind::InvalidArgument, "sketch rule " + r + " is both forbidden and required");
    return c;
}

Expected<void> checkConstraints(const Constraints& c, const ir::ComputeDAG& dag)
{
    const sched::State initial = sched::State::initial(dag);
    for (const SplitConstraint& s : c.splits) {
        bool stageFound = false;
        std::vector<std::string> iters;
        for (int id = 0; id < initial.numStages(); ++id) {
            const sched::Stage& stage = initial.stage(id);
            if (stage.isPlaceholder() || !namesBase(stage.op->name(), s.stage))
                continue;
            stageFound = true;
            for (const sched::Iterator& it : stage.iters) {
                iters.push_back(it.name);
                if (!namesBase(it.name, s.iter))
                    continue;
                if (s.bound.equals && (*s.bound.equals <= 0 || it.extent % *s.bound.equals != 0))
                    return makeError(ErrorKind::InvalidArgument,
                        splitName(s) + " = " + std::to_string(*s.bound.equals) + ": " + it.name + " has extent "
                            + std::to_string(it.extent) + ", which it does not divide");
                if (s.bound.max && *s.bound.max < 1)
                    return makeError(ErrorKind::InvalidArgument, splitName(s) + ": a tile is at least 1");
            }
        }
        if (!stageFound) {
            std::string stages;
            for (int id = 0; id < initial.numStages(); ++id)
                if (!initial.stage(id).isPlaceholder())
                    stages += (stages.empty() ? "" : ", ") + initial.stage(id).op->name();
            return makeError(ErrorKind::InvalidArgument,
                splitName(s) + ": the task has no stage " + s.stage + " (it has " + stages + ")");
        }
        if (std::none_of(iters.begin(), iters.end(), [&](const std::string& n) { return namesBase(n, s.iter); }))
            return makeError(ErrorKind::InvalidArgument,
                splitName(s) + ": stage " + s.stage + " has no loop " + s.iter + " (it has " + join(iters, ", ") + ")");
    }
    for (int64_t v : c.unroll.in)
        if (v < 0)
            return makeError(ErrorKind::InvalidArgument, "unroll: a limit is >= 0 (got " + std::to_string(v) + ")");
    if (c.vectorize.max && *c.vectorize.max < 1)
        return makeError(ErrorKind::InvalidArgument, "vectorize: max must be >= 1");
    if (c.parallel.max && *c.parallel.max < 1)
        return makeError(ErrorKind::InvalidArgument, "parallel: max must be >= 1");
    return {};
}

namespace {
    // The loop a split step splits, by the names the constraints use: its stage's op name and its iterator's name
    // when the step applies. They depend on the steps before it only through the loops' structure (not split
    // lengths, unroll values or compute_at targets), so states of one structure share them.
    struct ResolvedSplit {
        int stepIndex = 0;
        std::string stage;
        std::string iter;
    };

    uint64_t loopStructureKey(const sched::State& state)
    {
        std::string key;
        for (const sched::Step& step : state.steps()) {
            key += sched::stepCode(step);
            key += std::to_string(sched::stepStageId(step));
            if (const auto* split = std::get_if<sched::SplitStep>(&step))
                key += "," + std::to_string(split->iterId) + "," + std::to_string(split->lengths.size());
            else if (const auto* fuse = std::get_if<sched::FuseStep>(&step))
                for (int id : fuse->fusedIds)
                    key += "," + std::to_string(id);
            else if (const auto* reorder = std::get_if<sched::ReorderStep>(&step))
                for (int id : reorder->afterIds)
                    key += "," + std::to_string(id);
            else if (const auto* follow = std::get_if<sched::FollowSplitStep>(&step))
                key += "," + std::to_string(follow->iterId) + "," + std::to_string(follow->nSplit);
            else if (const auto* fused = std::get_if<sched::FollowFusedSplitStep>(&step))
                key += "," + std::to_string(fused->iterId);
            else if (const auto* rf = std::get_if<sched::RfactorStep>(&step))
                key += "," + std::to_string(rf->iterId) + "," + std::to_string(rf->factorIterId);
            else if (const auto* read = std::get_if<sched::CacheReadStep>(&step))
                for (int id : read->readerStageIds)
                    key += "," + std::to_string(id);
            key += ';';
        }
        return fnv1a64(key);
    }

    std::optional<std::vector<ResolvedSplit>> resolveSplits(const ir::ComputeDAG& dag, const sched::State& state)
    {
        std::vector<ResolvedSplit> out;
        sched::State replay = sched::State::initial(dag);
        const std::vector<sched::Step>& steps = state.steps();
        for (size_t i = 0; i < steps.size(); ++i) {
            if (const auto* split = std::get_if<sched::SplitStep>(&steps[i])) {
                if (split->stageId < 0 || split->stageId >= replay.numStages())
                    return std::nullopt;
                const sched::Stage& stage = replay.stage(split->stageId);
                if (split->iterId < 0 || split->iterId >= static_cast<int>(stage.iters.size()))
                    return std::nullopt;
                out.push_back(ResolvedSplit {
                    static_cast<int>(i), stage.op->name(), stage.iters[static_cast<size_t>(split->iterId)].name });
            }
            if (!replay.apply(steps[i]))
                return std::nullopt;
        }
        return out;
    }
} // namespace

struct ConstraintChecker::Cache {
    std::mutex mutex;
    std::map<uint64_t, std::optional<std::vector<ResolvedSplit>>> resolved;
};

ConstraintChecker::ConstraintChecker(const ir::ComputeDAG& dag, Constraints constraints)
    : m_dag(&dag)
    , m_constraints(std::move(constraints))
    , m_cache(std::make_shared<Cache>())
{
}

std::optional<std::string> ConstraintChecker::violation(const sched::State& state) const
{
    const Constraints& c = m_constraints;
    if (c.empty())
        return std::nullopt;
    if (auto broken = sketchViolation(c, state))
        return broken;
    if (!c.splits.empty()) {
        const uint64_t key = loopStructureKey(state);
        std::optional<std::vector<ResolvedSplit>> resolved;
        {
            std::lock_guard lock(m_cache->mutex);
            if (auto known = m_cache->resolved.find(key); known != m_cache->resolved.end())
                resolved = known->second;
        }
        if (!resolved.has_value()) {
            auto fresh = resolveSplits(*m_dag, state);
            if (!fresh)
                return "its steps do not replay on the task";
            std::lock_guard lock(m_cache->mutex);
            m_cache->resolved[key] = fresh;
            resolved = std::move(fresh);
        }
        for (const ResolvedSplit& r : *resolved) {
            const auto& split = std::get<sched::SplitStep>(state.steps()[static_cast<size_t>(r.stepIndex)]);
            for (const SplitConstraint& s : c.splits) {
                if (!namesBase(r.stage, s.stage) || !namesBase(r.iter, s.iter))
                    continue;
                const int count = static_cast<int>(split.lengths.size());
                const int part = s.part < 0 ? count + s.part : s.part;
                if (part < 0 || part >= count)
                    continue; // a split with fewer levels than the constraint names: nothing to bound
                const sched::SplitLength& length = split.lengths[static_cast<size_t>(part)];
                if (length && !s.bound.allows(*length))
                    return splitName(s) + " is " + std::to_string(*length) + ", not " + s.bound.describe();
            }
        }
    }
    if (!c.unroll.empty())
        for (const sched::Step& step : state.steps())
            if (const auto* pragma = std::get_if<sched::PragmaStep>(&step);
                pragma && detail::startsWith(pragma->pragma, detail::kAutoUnrollPragma)) {
                const size_t dollar = pragma->pragma.find('$');
                const int64_t value = dollar == std::string::npos ? 0 : std::stoll(pragma->pragma.substr(dollar + 1));
                if (!c.unroll.allows(value))
                    return "unroll is " + std::to_string(value) + ", not " + c.unroll.describe();
            }
    if (!c.vectorize.empty() || !c.parallel.empty()) {
        // Loop extents: known on a searched state (bound inference ran); inferred here otherwise.
        std::optional<sched::State> inferred;
        const sched::State* s = &state;
        for (int id = 0; id < state.numStages() && s == &state; ++id)
            for (const sched::Iterator& it : state.stage(id).iters)
                if (it.extent < 0 && it.annotation != sched::Annotation::None) {
                    auto bound = lower::inferBound(state);
                    if (!bound)
                        return "its loop extents cannot be inferred: " + bound.error().message;
                    inferred = std::move(bound).value();
                    s = &*inferred;
                    break;
                }
        for (int id = 0; id < s->numStages(); ++id) {
            const sched::Stage& stage = s->stage(id);
            if (stage.computeAt == sched::ComputeAtKind::Inlined)
                continue;
            int64_t parallel = 1;
            bool hasParallel = false;
            for (const sched::Iterator& it : stage.iters) {
                if (it.annotation == sched::Annotation::Vectorize && !c.vectorize.allows(it.extent))
                    return "the vector loop " + it.name + " of " + stage.op->name() + " is " + std::to_string(it.extent)
                        + " long, not " + c.vectorize.describe();
                if (it.annotation == sched::Annotation::Parallel) {
                    parallel *= std::max<int64_t>(1, it.extent);
                    hasParallel = true;
                }
            }
            if (hasParallel && !c.parallel.allows(parallel))
                return "the parallel loops of " + stage.op->name() + " run " + std::to_string(parallel)
                    + " iterations, not " + c.parallel.describe();
        }
    }
    return std::nullopt;
}

std::optional<std::string> violation(
    const Constraints& constraints, const ir::ComputeDAG& dag, const sched::State& state)
{
    return ConstraintChecker(dag, constraints).violation(state);
}

bool sketchAllowed(const Constraints& constraints, const sched::State& sketch)
{
    return !sketchViolation(constraints, sketch);
}

std::optional<std::string> sketchRuleViolation(const Constraints& constraints, const sched::State& sketch)
{
    return sketchViolation(constraints, sketch);
}

Expected<std::vector<Constraints>> constraintsForTasks(
    const std::string& fileText, std::span<const TaskIdentity> tasks, std::span<const ir::ComputeDAG* const> dags)
{
    const nlohmann::json file = nlohmann::json::parse(fileText, nullptr, false);
    if (file.is_discarded() || !file.is_object())
        return makeError(ErrorKind::Parse, "a constraints file is a JSON object (it does not parse)");
    if (!file.contains("tunescope_constraints") || !file["tunescope_constraints"].is_number_integer())
        return makeError(ErrorKind::Parse, "not a constraints file: no \"tunescope_constraints\": 1");
    if (file["tunescope_constraints"].get<int>() != 1)
        return makeError(ErrorKind::Unsupported,
            "constraints file version " + file["tunescope_constraints"].dump() + " (this TuneScope reads 1)");
    if (!file.contains("tasks") || !file["tasks"].is_array())
        return makeError(ErrorKind::Parse, "a constraints file needs a \"tasks\" array");
    std::vector<Constraints> out(tasks.size());
    int entryIndex = 0;
    for (const nlohmann::json& entry : file["tasks"]) {
        const std::string where = "constraints entry " + std::to_string(entryIndex++);
        if (!entry.is_object())
            return makeError(ErrorKind::Parse, where + ": not an object");
        // Every selector the entry gives must match (a saved file names both the task and its workload key).
        std::vector<size_t> selected;
        for (size_t t = 0; t < tasks.size(); ++t) {
            const bool byName = !entry.contains("task")
                || (entry["task"].is_string() && entry["task"].get<std::string>() == tasks[t].name);
            const bool byIndex = !entry.contains("index")
                || (entry["index"].is_number_integer() && entry["index"].get<int64_t>() == static_cast<int64_t>(t));
            const bool byKey = !entry.contains("workload_key")
                || (entry["workload_key"].is_string()
                    && entry["workload_key"].get<std::string>() == tasks[t].workloadKey);
            if (byName && byIndex && byKey)
                selected.push_back(t);
        }
        if (!entry.contains("task") && !entry.contains("index") && !entry.contains("workload_key"))
            return makeError(ErrorKind::Parse, where + ": no task selector (task, index or workload_key)");
        if (selected.empty())
            return makeError(ErrorKind::InvalidArgument,
                where + ": selects none of the " + std::to_string(tasks.size()) + " tasks tuned");
        auto parsed = constraintsFromJson(entry);
        if (!parsed)
            return makeError(parsed.error().kind, where + ": " + parsed.error().message);
        for (size_t t : selected) {
            if (t < dags.size() && dags[t])
                if (auto fits = checkConstraints(*parsed, *dags[t]); !fits)
                    return makeError(fits.error().kind,
                        where + " on task " + std::to_string(t) + " (" + tasks[t].name + "): " + fits.error().message);
            merge(out[t], *parsed);
        }
    }
    return out;
}

std::string constraintsFile(std::span<const TaskIdentity> tasks, std::span<const Constraints> constraints)
{
    nlohmann::json file { { "tunescope_constraints", 1 }, { "tasks", nlohmann::json::array() } };
    for (size_t t = 0; t < tasks.size() && t < constraints.size(); ++t) {
        if (constraints[t].empty())
            continue;
        nlohmann::json entry { { "workload_key", tasks[t].workloadKey }, { "task", tasks[t].name } };
        entry.update(toJson(constraints[t]));
        file["tasks"].push_back(std::move(entry));
    }
    return file.dump(2) + "\n";
}

} // namespace ts::search
