// AutoTVM through the session (core/search/autotvm_policy.h, task_policy.h) and the race (core/engine/race.h),
// on a small dense with real compilation, measurement and a real workspace: records carry their template and
// config and are unique; resume counts only AutoTVM's records of the template; instantiation errors are stored
// as status 1 and never run; exported records read back as AutoTVM v0.2 lines whose config decodes to the same
// index; a race with a fixed seed proposes the same candidates, lanes take turns, and replays from the store.
#include "core/engine/race.h"
#include "core/engine/tuning_session.h"
#include "core/ops/elementwise.h"
#include "core/ops/linear.h"
#include "core/search/autotvm/template.h"
#include "core/search/autotvm_policy.h"
#include "core/store/log_export.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "core/store/tvm_log.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace ts;

namespace {

std::string tempWorkspace(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ts_autotvm_session_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = dir / (name + ".tunescope");
    for (const char* suffix : { "", "-wal", "-shm" })
        std::filesystem::remove(path.string() + suffix);
    return path.string();
}

engine::TuneTask denseTask(int64_t n = 32)
{
    ir::Tensor x = ir::placeholder("X", { n, n });
    ir::Tensor w = ir::placeholder("W", { n, n });
    auto y = ops::dense(x, w);
    EXPECT_TRUE(y) << y.error().message;
    return engine::TuneTask { "dense", ir::ComputeDAG::create({ x, w, *y }), 1, "dense" };
}

measure::MeasureOptions quickMeasure()
{
    measure::MeasureOptions m;
    m.timing.minRepeatMs = 1;
    m.runnerPath = TS_RUNNER_PATH;
    return m;
}

engine::TuneOptions autotvmOptions(const std::string& workspace, search::PolicyKind policy, int trials)
{
    engine::TuneOptions o;
    o.tasks = { denseTask() };
    o.policy = policy;
    o.trials = trials;
    o.measuresPerRound = 8;
    o.seed = 5;
    o.workspace = workspace;
    o.measure = quickMeasure();
    o.remeasureTop = 0;
    return o;
}

engine::Finished run(const engine::TuneOptions& options)
{
    engine::TuningSession s(options, {});
    auto finished = s.run();
    EXPECT_TRUE(finished) << finished.error().message;
    return finished ? *finished : engine::Finished {};
}

std::vector<store::Record> records(const std::string& workspace)
{
    auto store = store::Store::open(workspace);
    EXPECT_TRUE(store) << store.error().message;
    auto all = store->records({});
    EXPECT_TRUE(all) << all.error().message;
    return all ? *all : std::vector<store::Record> {};
}

int64_t configIndex(const store::Record& r) { return search::AutotvmPolicy::configIndexOf(r.extra); }

} // namespace

TEST(PolicyRegistry, NamesRoundTripAndFamiliesAreKnown)
{
    std::set<std::string> names;
    for (const search::PolicyInfo& info : search::policies()) {
        EXPECT_TRUE(names.insert(info.name).second) << info.name;
        auto kind = search::policyKindFromString(info.name);
        ASSERT_TRUE(kind) << kind.error().message;
        EXPECT_EQ(*kind, info.kind);
        EXPECT_EQ(search::isAutotvm(info.kind), std::string(info.family) == "autotvm");
    }
    EXPECT_TRUE(names.count("autotvm-xgb"));
    auto unknown = search::policyKindFromString("annealing");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("autotvm-grid"), std::string::npos);
}

TEST(PolicyRegistry, AutotvmNeedsATemplateThatFits)
{
    ir::Tensor a = ir::placeholder("A", { 8, 8 });
    ir::Tensor b = ir::placeholder("B", { 8, 8 });
    auto sum = ops::add(a, b);
    ASSERT_TRUE(sum) << sum.error().message;
    const ir::ComputeDAG dag = ir::ComputeDAG::create({ a, b, *sum });
    EXPECT_TRUE(search::policySupports(search::PolicyKind::Ansor, dag));
    auto refused = search::policySupports(search::PolicyKind::AutotvmGa, dag);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("no AutoTVM template"), std::string::npos) << refused.error().message;
    EXPECT_TRUE(search::policySupports(search::PolicyKind::AutotvmGa, denseTask().dag));
}

TEST(AutotvmSession, RecordsCarryTheirConfigAndResumeSkipsMeasuredConfigs)
{
    const std::string ws = tempWorkspace("resume");
    engine::Finished first = run(autotvmOptions(ws, search::PolicyKind::AutotvmRandom, 24));
    EXPECT_EQ(first.status, "finished") << first.message;
    EXPECT_EQ(first.totalTrials, 24);
    std::vector<store::Record> stored = records(ws);
    ASSERT_EQ(stored.size(), 24u);
    std::set<int64_t> indices;
    for (const store::Record& r : stored) {
        const nlohmann::json extra = nlohmann::json::parse(r.extra);
        ASSERT_TRUE(extra.contains("autotvm")) << r.extra;
        EXPECT_EQ(extra["autotvm"]["template"], "dense_nopack.x86");
        EXPECT_TRUE(extra["autotvm"]["config"].contains("entity"));
        EXPECT_TRUE(indices.insert(configIndex(r)).second) << "config " << configIndex(r) << " measured twice";
        EXPECT_TRUE(r.result.ok()) << r.result.message;
        // The steps are ours: they replay like an Ansor record's, on the config's program (TVM's dense_nopack
        // compute, a partial sum as wide as tile_k's inner size), which the record's extra names; not on the
        // task's plain dense.
        EXPECT_TRUE(store::replayStored(denseTask().dag, r.steps, r.extra)) << r.steps;
        EXPECT_FALSE(sched::State::replayJson(denseTask().dag, r.steps)) << r.steps;
    }

    // The same command with a larger budget resumes: 24 restored, 16 new, no config twice.
    engine::TuningSession again(autotvmOptions(ws, search::PolicyKind::AutotvmRandom, 40), {});
    auto second = again.run();
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(again.restoredTrials(), 24);
    EXPECT_EQ(second->totalTrials, 16);
    stored = records(ws);
    ASSERT_EQ(stored.size(), 40u);
    indices.clear();
    for (const store::Record& r : stored)
        EXPECT_TRUE(indices.insert(configIndex(r)).second) << "config " << configIndex(r) << " measured twice";

    // Ansor does not resume from AutoTVM's records: a fresh budget of its own.
    engine::TuneOptions ansor = autotvmOptions(ws, search::PolicyKind::Random, 8);
    ansor.search.population = 64;
    ansor.search.sampleInitMinPopulation = 8;
    engine::TuningSession ansorSession(ansor, {});
    ASSERT_TRUE(ansorSession.run());
    EXPECT_EQ(ansorSession.restoredTrials(), 0);
}

TEST(AutotvmSession, TheXgbTunerRecordsItsOwnPredictions)
{
    const std::string ws = tempWorkspace("xgb");
    engine::TuneOptions o = autotvmOptions(ws, search::PolicyKind::AutotvmXgb, 96);
    o.measuresPerRound = 32;
    engine::Finished f = run(o);
    EXPECT_EQ(f.totalTrials, 96) << f.message;
    const std::vector<store::Record> stored = records(ws);
    ASSERT_EQ(stored.size(), 96u);
    int randomPicks = 0;
    for (size_t i = 0; i < stored.size(); ++i) {
        EXPECT_FALSE(stored[i].predictedBy) << "the session's model did not predict AutoTVM's candidates";
        if (i >= 64) { // after the first fit (plan size 64): the tuner's scores, most from its plan
            ASSERT_TRUE(stored[i].predictedScore) << i;
            randomPicks += stored[i].extra.find(R"("pick":"random")") != std::string::npos;
        }
    }
    EXPECT_LT(randomPicks, 32);
}

// A policy that proposes one runnable candidate and one the template could not instantiate.
class HalfBrokenPolicy final : public search::TaskPolicy {
public:
    explicit HalfBrokenPolicy(search::PolicyContext c)
        : m_task(std::move(c.task))
    {
        m_costTask = cost::CostTask { &m_task.dag, m_task.dag.workloadKey(), m_task.flops, m_task.target };
    }
    Expected<std::vector<search::Candidate>> searchOneRound(int, std::stop_token) override
    {
        if (m_done)
            return std::vector<search::Candidate> {};
        m_done = true;
        const sched::State initial = sched::State::initial(m_task.dag);
        return std::vector<search::Candidate> { { initial, 0.0, false, R"({"autotvm":{"template":"t"}})", {} },
            { initial, 0.0, false, {}, "instantiation error: t: tile_x [-1, 5] does not divide the extent 32" } };
    }
    void recordMeasured(std::span<const search::Candidate> c, std::span<const record::MeasureResult> r) override
    {
        measured.assign(r.begin(), r.end());
        EXPECT_EQ(c.size(), r.size());
    }
    bool restoreMeasured(uint64_t, const sched::State*, double, std::string_view) override { return false; }
    bool owns(std::string_view) const override { return true; }
    const search::SearchTask& task() const override { return m_task; }
    const cost::CostTask& costTask() const override { return m_costTask; }
    const search::RoundStats& lastRound() const override { return m_stats; }
    bool usesSessionModel() const override { return false; }
    Expected<search::SpaceSize> spaceSize() override { return search::SpaceSize {}; }
    std::string describe() const override { return "test"; }

    static inline std::vector<record::MeasureResult> measured;

private:
    search::SearchTask m_task;
    cost::CostTask m_costTask;
    search::RoundStats m_stats;
    bool m_done = false;
};

TEST(AutotvmSession, InstantiationErrorsAreStoredAsStatusOneAndNeverRun)
{
    const std::string ws = tempWorkspace("instantiation");
    engine::TuneOptions o = autotvmOptions(ws, search::PolicyKind::AutotvmGrid, 2);
    o.makePolicy = [](search::PolicyContext c) -> Expected<std::unique_ptr<search::TaskPolicy>> {
        return std::unique_ptr<search::TaskPolicy>(std::make_unique<HalfBrokenPolicy>(std::move(c)));
    };
    engine::Finished f = run(o);
    EXPECT_EQ(f.totalTrials, 2);
    ASSERT_EQ(HalfBrokenPolicy::measured.size(), 2u);
    EXPECT_TRUE(HalfBrokenPolicy::measured[0].ok()) << HalfBrokenPolicy::measured[0].message;
    EXPECT_EQ(HalfBrokenPolicy::measured[1].status, record::MeasureStatus::InstantiationError);
    const std::vector<store::Record> stored = records(ws);
    ASSERT_EQ(stored.size(), 2u);
    EXPECT_EQ(stored[1].result.status, record::MeasureStatus::InstantiationError);
    EXPECT_EQ(stored[1].result.allCost, 0.0); // never built nor run
    EXPECT_NE(stored[1].result.message.find("does not divide the extent 32"), std::string::npos);
    EXPECT_NE(stored[0].extra.find("\"template\":\"t\""), std::string::npos) << stored[0].extra;
}

TEST(AutotvmSession, ExportedRecordsAreAutotvmLinesWhoseConfigDecodes)
{
    const std::string ws = tempWorkspace("export");
    run(autotvmOptions(ws, search::PolicyKind::AutotvmGa, 16));
    auto store = store::Store::open(ws);
    ASSERT_TRUE(store) << store.error().message;
    std::ostringstream out;
    auto written = store::exportLog(*store, {}, out);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(*written, 16);
    const autotvm::Template* t = autotvm::findTemplate("dense_nopack.x86");
    ASSERT_NE(t, nullptr);
    auto space = t->space(denseTask().dag);
    ASSERT_TRUE(space) << space.error().message;
    const std::vector<store::Record> stored = records(ws);
    std::istringstream lines(out.str());
    std::string line;
    size_t i = 0;
    while (std::getline(lines, line)) {
        ASSERT_LT(i, stored.size());
        EXPECT_EQ(line.rfind("{\"input\": [", 0), 0u) << line;
        auto parsed = store::parseLogLine(line);
        ASSERT_TRUE(parsed && *parsed) << line;
        const store::LogRecord& r = **parsed;
        EXPECT_EQ(r.kind, store::RecordKind::AutoTvm);
        EXPECT_EQ(r.taskName, "dense_nopack.x86");
        EXPECT_EQ(r.version, "0.2");
        auto config = space->parseConfig(r.steps);
        ASSERT_TRUE(config) << config.error().message << "\n" << r.steps;
        EXPECT_EQ(config->index, configIndex(stored[i]));
        EXPECT_EQ(config->loggedIndex, configIndex(stored[i]));
        EXPECT_EQ(r.result.costs, stored[i].result.costs);
        // TVM's spelling: Python's separators.
        EXPECT_NE(line.find("\"config\": {\"index\": "), std::string::npos) << line;
        ++i;
    }
    EXPECT_EQ(i, stored.size());
}

namespace {
engine::RaceOptions raceOptions(const std::string& workspace, uint64_t seed)
{
    engine::RaceOptions o;
    o.task = denseTask();
    o.policies = { search::PolicyKind::Random, search::PolicyKind::AutotvmRandom };
    o.trials = 16;
    o.measuresPerRound = 8;
    o.seed = seed;
    o.model = "random";
    o.measure = quickMeasure();
    o.workspace = workspace;
    return o;
}

// Each lane's records' steps, in trial order.
std::vector<std::vector<std::string>> laneSteps(const std::string& workspace, const engine::RaceResult& race)
{
    auto store = store::Store::open(workspace);
    EXPECT_TRUE(store);
    std::vector<std::vector<std::string>> out;
    for (const engine::RaceLane& lane : race.lanes) {
        store::RecordFilter filter;
        filter.sessionId = lane.sessionId;
        auto rs = store->records(filter);
        EXPECT_TRUE(rs);
        out.emplace_back();
        for (const store::Record& r : *rs)
            out.back().push_back(r.steps);
    }
    return out;
}
} // namespace

TEST(Race, SameSeedSameCandidatesLanesTakeTurnsAndItReplays)
{
    std::vector<int> laneOfTrial;
    const std::string ws1 = tempWorkspace("race1");
    engine::Race race1(raceOptions(ws1, 7), [&](const engine::RaceEvent& e, const engine::RaceResult&) {
        if (std::holds_alternative<engine::RecordMeasured>(e.event))
            laneOfTrial.push_back(e.lane);
    });
    auto first = race1.run();
    ASSERT_TRUE(first) << first.error().message;
    ASSERT_EQ(first->lanes.size(), 2u);
    for (const engine::RaceLane& lane : first->lanes) {
        EXPECT_EQ(lane.bestGflops.size(), 16u);
        EXPECT_GT(lane.best(), 0.0);
        EXPECT_EQ(lane.status, "finished") << lane.message;
    }
    EXPECT_NE(first->lanes[1].space.text.find("configs (dense_nopack.x86"), std::string::npos)
        << first->lanes[1].space.text;
    EXPECT_GT(first->lanes[0].space.sketches, 0);
    // Rounds in turn: 8 of lane 0, 8 of lane 1, 8 of lane 0, 8 of lane 1.
    ASSERT_EQ(laneOfTrial.size(), 32u);
    for (size_t i = 0; i < laneOfTrial.size(); ++i)
        EXPECT_EQ(laneOfTrial[i], static_cast<int>((i / 8) % 2)) << "trial " << i;

    const std::string ws2 = tempWorkspace("race2");
    engine::Race race2(raceOptions(ws2, 7), {});
    auto second = race2.run();
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(laneSteps(ws1, *first), laneSteps(ws2, *second));

    // Stored, listed and replayed without measuring: the same curves.
    auto store = store::Store::open(ws1);
    ASSERT_TRUE(store);
    auto races = engine::listRaces(*store);
    ASSERT_TRUE(races) << races.error().message;
    ASSERT_EQ(races->size(), 1u);
    EXPECT_EQ(races->front().id, first->id);
    EXPECT_EQ(races->front().policies, (std::vector<std::string> { "random", "autotvm-random" }));
    auto replayed = engine::loadRace(*store, first->id);
    ASSERT_TRUE(replayed) << replayed.error().message;
    ASSERT_EQ(replayed->lanes.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(replayed->lanes[i].bestGflops, first->lanes[i].bestGflops);
        EXPECT_EQ(replayed->lanes[i].policy, first->lanes[i].policy);
        EXPECT_EQ(replayed->lanes[i].space.text, first->lanes[i].space.text);
    }
    EXPECT_FALSE(engine::loadRace(*store, "race-0-0"));
}

TEST(Race, RefusesWhatCannotRace)
{
    engine::RaceOptions one = raceOptions(tempWorkspace("race-bad"), 1);
    one.policies = { search::PolicyKind::Ansor };
    auto refused = engine::Race(one, {}).run();
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("at least two policies"), std::string::npos);
}
