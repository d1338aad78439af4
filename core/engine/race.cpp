#include "core/engine/race.h"

#include "core/cost/cost_model.h"
#include "core/record/measure_result.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

namespace ts::engine {

std::optional<int> RaceLane::trialsToReach(double gflops) const
{
    if (gflops <= 0.0)
        return std::nullopt;
    // A relative tolerance, so that a lane whose best is the very same program counts as reaching it.
    const double target = gflops * (1.0 - 1e-9);
    for (size_t i = 0; i < bestGflops.size(); ++i)
        if (bestGflops[i] >= target)
            return static_cast<int>(i) + 1;
    return std::nullopt;
}

namespace {
    // The race's id: when it started and its seed, readable and unique enough for one workspace.
    std::string newRaceId(uint64_t seed)
    {
        const auto ms
            = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count();
        return "race-" + std::to_string(ms) + "-" + std::to_string(seed);
    }

    void addTrial(RaceLane& lane, const record::MeasureResult& result, int64_t recordId)
    {
        double best = lane.best();
        if (result.ok() && result.meanCost() > 0.0) {
            const double gflops = lane.flops / result.meanCost() / 1e9;
            if (gflops > best) {
                best = gflops;
                lane.bestRecordId = recordId;
            }
        } else {
            ++lane.errors;
        }
        lane.bestGflops.push_back(best);
    }
} // namespace

Race::Race(RaceOptions options, RaceSink sink)
    : m_options(std::move(options))
    , m_sink(std::move(sink))
{
}

Expected<RaceResult> Race::run()
{
    const RaceOptions& o = m_options;
    if (o.policies.size() < 2)
        return makeError(ErrorKind::InvalidArgument,
            "a race needs at least two policies (got " + std::to_string(o.policies.size()) + ")");
    if (o.trials <= 0)
        return makeError(ErrorKind::InvalidArgument, "trials must be > 0 (got " + std::to_string(o.trials) + ")");

    RaceResult result;
    result.id = newRaceId(o.seed);
    result.taskName = o.task.name;
    result.trials = o.trials;
    result.seed = o.seed;
    nlohmann::json policyNames = nlohmann::json::array();
    for (search::PolicyKind kind : o.policies)
        policyNames.push_back(search::toString(kind));

    // What each lane searches, from a policy made for the purpose (sketches are generated once more; cheap).
    TS_TRY(std::unique_ptr<cost::CostModel> probeModel, cost::makeCostModel("random", o.seed));
    for (search::PolicyKind kind : o.policies) {
        search::PolicyContext context { search::SearchTask {
                                            o.task.dag, o.measure.target, o.task.name, o.task.dag.flopCount() },
            search::SearchParams {}, probeModel.get(), o.seed, nullptr };
        auto policy = search::makeTaskPolicy(kind, std::move(context));
        if (!policy)
            return makeError(policy.error().kind, std::string(search::toString(kind)) + ": " + policy.error().message);
        TS_TRY(search::SpaceSize space, (*policy)->spaceSize());
        RaceLane lane;
        lane.policy = kind;
        lane.flops = o.task.dag.flopCount();
        lane.space = std::move(space);
        lane.description = (*policy)->describe();
        result.lanes.push_back(std::move(lane));
    }

    std::vector<std::unique_ptr<TuningSession>> sessions;
    for (size_t i = 0; i < o.policies.size(); ++i) {
        TuneOptions t;
        t.tasks = { o.task };
        t.policy = o.policies[i];
        t.model = o.model;
        t.trials = o.trials;
        t.measuresPerRound = o.measuresPerRound;
        t.seed = o.seed;
        t.searchThreads = o.searchThreads;
        t.measure = o.measure;
        t.workspace = o.workspace;
        t.origin = o.origin;
        t.resume = false;
        // The curves compare what each search found as it measured; a final re-measurement would change one
        // lane's last point only.
        t.remeasureTop = 0;
        const RaceLane& lane = result.lanes[i];
        t.extraSettings = nlohmann::json {
            { "race",
                { { "id", result.id }, { "lane", i }, { "policies", policyNames }, { "trials", o.trials },
                    { "space", lane.space.text }, { "space_configs", lane.space.configs },
                    { "space_sketches", lane.space.sketches }, { "space_annotations", lane.space.annotationsPerSketch },
                    { "description", lane.description } } }
        }.dump();
        const int laneIndex = static_cast<int>(i);
        sessions.push_back(
            std::make_unique<TuningSession>(std::move(t), [this, laneIndex, &result](const TuneEvent& e) {
                RaceLane& racing = result.lanes[static_cast<size_t>(laneIndex)];
                if (const auto* measured = std::get_if<RecordMeasured>(&e))
                    addTrial(racing, measured->result, measured->recordId);
                if (const auto* finished = std::get_if<Finished>(&e)) {
                    racing.status = finished->status;
                    racing.message = finished->message;
                }
                if (m_sink)
                    m_sink(RaceEvent { laneIndex, e }, result);
            }));
    }
    for (size_t i = 0; i < sessions.size(); ++i) {
        TS_CHECK(sessions[i]->begin());
        result.lanes[i].sessionId = sessions[i]->sessionId();
    }

    // Rounds in turn, lane order, until every lane is done.
    std::vector<bool> done(sessions.size(), false);
    for (bool any = true; any;) {
        any = false;
        for (size_t i = 0; i < sessions.size(); ++i) {
            if (done[i])
                continue;
            if (m_cancelled)
                sessions[i]->cancel();
            auto more = sessions[i]->step();
            if (!more || !*more) {
                done[i] = true;
                continue;
            }
            any = true;
        }
    }
    for (auto& session : sessions) {
        auto finished = session->end();
        (void)finished; // the lane's status came with its Finished event
    }
    return result;
}

Expected<std::vector<RaceInfo>> listRaces(store::Store& store)
{
    TS_TRY(std::vector<store::SessionInfo> sessions, store.sessions());
    std::map<std::string, RaceInfo> byId;
    std::map<int64_t, std::string> taskNames;
    for (const store::SessionInfo& s : sessions) {
        const nlohmann::json settings = nlohmann::json::parse(s.settings, nullptr, false);
        if (!settings.is_object() || !settings.contains("race") || !settings["race"].is_object())
            continue;
        const nlohmann::json& race = settings["race"];
        const std::string id = race.value("id", std::string());
        const int lane = race.value("lane", -1);
        if (id.empty() || lane < 0 || lane > 64)
            continue;
        RaceInfo& info = byId[id];
        info.id = id;
        if (info.policies.empty() && race.contains("policies") && race["policies"].is_array())
            for (const auto& p : race["policies"])
                info.policies.push_back(p.is_string() ? p.get<std::string>() : std::string("?"));
        if (info.sessionIds.size() <= static_cast<size_t>(lane))
            info.sessionIds.resize(static_cast<size_t>(lane) + 1, 0);
        info.sessionIds[static_cast<size_t>(lane)] = s.id;
        info.startedAt = info.startedAt == 0.0 ? s.startedAt : std::min(info.startedAt, s.startedAt);
        info.status = info.status.empty() || info.status == "finished" ? s.status : info.status;
        if (info.taskName.empty() && settings.contains("origin") && settings["origin"].is_object()) {
            const nlohmann::json& origin = settings["origin"];
            info.taskName = origin.value("op", origin.value("network", std::string()));
            if (origin.contains("shape") && origin["shape"].is_string())
                info.taskName += " " + origin["shape"].get<std::string>();
        }
    }
    std::vector<RaceInfo> out;
    for (auto& [id, info] : byId)
        out.push_back(std::move(info));
    std::sort(out.begin(), out.end(), [](const RaceInfo& a, const RaceInfo& b) { return a.startedAt > b.startedAt; });
    return out;
}

Expected<RaceResult> loadRace(store::Store& store, const std::string& id)
{
    TS_TRY(std::vector<RaceInfo> races, listRaces(store));
    const auto it = std::find_if(races.begin(), races.end(), [&](const RaceInfo& r) { return r.id == id; });
    if (it == races.end())
        return makeError(ErrorKind::NotFound, "no race '" + id + "' in " + store.path());
    TS_TRY(std::vector<store::SessionInfo> sessions, store.sessions());
    TS_TRY(std::vector<store::TaskInfo> tasks, store.tasks());
    RaceResult result;
    result.id = id;
    result.taskName = it->taskName;
    for (size_t lane = 0; lane < it->sessionIds.size(); ++lane) {
        const int64_t sessionId = it->sessionIds[lane];
        const auto session = std::find_if(
            sessions.begin(), sessions.end(), [&](const store::SessionInfo& s) { return s.id == sessionId; });
        if (sessionId == 0 || session == sessions.end())
            return makeError(ErrorKind::NotFound, "race '" + id + "' lacks its lane " + std::to_string(lane));
        const nlohmann::json race = nlohmann::json::parse(session->settings)["race"];
        RaceLane out;
        TS_TRY(out.policy, search::policyKindFromString(session->policy));
        out.sessionId = sessionId;
        out.status = session->status;
        out.space.text = race.value("space", std::string());
        out.space.configs = race.value("space_configs", 0.0);
        out.space.sketches = race.value("space_sketches", 0);
        out.space.annotationsPerSketch = race.value("space_annotations", 0.0);
        out.description = race.value("description", std::string());
        result.trials = race.value("trials", 0);
        result.seed = static_cast<uint64_t>(session->seed);
        store::RecordFilter filter;
        filter.sessionId = sessionId;
        TS_TRY(std::vector<store::Record> records, store.records(filter));
        for (const store::Record& r : records) {
            if (out.flops == 0.0)
                for (const store::TaskInfo& t : tasks)
                    if (t.id == r.taskId) {
                        out.flops = t.flops;
                        if (result.taskName.empty())
                            result.taskName = t.name;
                    }
            addTrial(out, r.result, r.id);
        }
        result.lanes.push_back(std::move(out));
    }
    return result;
}

} // namespace ts::engine
