// TuningSession end to end on a small matmul: real search, real compilation and measurement in the runner
// process, a real SQLite workspace. Records, ranks and sessions are stored; a rerun resumes without
// measuring a state twice; the same seed gives the same batches; cancel, pause and abort; a process killed
// with SIGKILL mid-round loses at most the batch in flight.
#include "core/cost/cost_model.h"
#include "core/engine/tuning_session.h"
#include "core/ops/linear.h"
#include "core/schedule/step_json.h"
#include "core/store/store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ts;
using namespace std::chrono_literals;

namespace {

std::string tempWorkspace(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ts_tuning_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = dir / (name + ".tunescope");
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + "-wal");
    std::filesystem::remove(path.string() + "-shm");
    return path.string();
}

engine::TuneTask matmulTask(int64_t n = 32)
{
    ir::Tensor a = ir::placeholder("A", { n, n });
    ir::Tensor b = ir::placeholder("B", { n, n });
    auto c = ops::matmul(a, b);
    EXPECT_TRUE(c);
    return engine::TuneTask { "matmul", ir::ComputeDAG::create({ a, b, *c }), 1, "matmul" };
}

engine::TuneOptions smallOptions(const std::string& workspace, int trials = 16, uint64_t seed = 1)
{
    engine::TuneOptions o;
    o.tasks = { matmulTask() };
    o.trials = trials;
    o.measuresPerRound = 8;
    o.seed = seed;
    o.workspace = workspace;
    o.search.population = 128;
    o.search.sampleInitMinPopulation = 16;
    o.measure.timing.minRepeatMs = 1;
    o.measure.runnerPath = TS_RUNNER_PATH;
    o.remeasureTop = 2;
    o.remeasureRepeat = 2;
    return o;
}

engine::Finished tune(const engine::TuneOptions& options, const engine::EventSink& sink = {})
{
    engine::TuningSession s(options, sink);
    auto finished = s.run();
    EXPECT_TRUE(finished) << finished.error().message;
    return finished ? *finished : engine::Finished {};
}

std::vector<store::Record> storedRecords(const std::string& workspace)
{
    auto store = store::Store::open(workspace);
    EXPECT_TRUE(store) << store.error().message;
    auto records = store->records({});
    EXPECT_TRUE(records) << records.error().message;
    return records ? *records : std::vector<store::Record> {};
}

void expectNoStateMeasuredTwice(const std::vector<store::Record>& records)
{
    std::set<std::string> steps;
    for (const store::Record& r : records)
        EXPECT_TRUE(steps.insert(r.steps).second) << "measured twice: " << r.steps;
}

} // namespace

TEST(TuningSession, TunesAMatmulAndStoresEveryRecordWithItsPrediction)
{
    const std::string ws = tempWorkspace("store");
    int measured = 0;
    int rounds = 0;
    int internalErrors = 0;
    const engine::Finished f = tune(smallOptions(ws), [&](const engine::TuneEvent& event) {
        if (std::holds_alternative<engine::RecordMeasured>(event))
            ++measured;
        if (const auto* round = std::get_if<engine::RoundDone>(&event)) {
            ++rounds;
            internalErrors += round->search.internalErrors;
        }
    });
    EXPECT_EQ(internalErrors, 0) << "a search rule broke an invariant";
    EXPECT_EQ(f.status, "finished") << f.message;
    EXPECT_EQ(f.totalTrials, 16);
    EXPECT_EQ(measured, 16);
    EXPECT_EQ(rounds, 2);
    ASSERT_EQ(f.tasks.size(), 1u);
    EXPECT_GT(f.tasks[0].bestCost, 0.0);
    EXPECT_GT(f.estimatedLatency, 0.0);

    const auto records = storedRecords(ws);
    ASSERT_EQ(records.size(), 16u);
    std::map<int, int> ranks;
    for (const store::Record& r : records) {
        EXPECT_TRUE(r.sessionId.has_value());
        EXPECT_TRUE(r.predictedBy.has_value());
        ASSERT_TRUE(r.batchRank.has_value());
        ++ranks[*r.batchRank];
        EXPECT_TRUE(r.result.ok()) << r.steps << ": " << record::toString(r.result.status);
        EXPECT_TRUE(sched::parseSteps(r.steps)) << r.steps;
    }
    EXPECT_EQ(ranks.size(), 8u) << "ranks 0..7 in each of the two batches";
    auto store = store::Store::open(ws);
    ASSERT_TRUE(store);
    auto sessions = store->sessions();
    ASSERT_TRUE(sessions);
    ASSERT_EQ(sessions->size(), 1u);
    EXPECT_EQ(sessions->front().status, "finished");
    EXPECT_EQ(sessions->front().policy, "ansor");
}

TEST(TuningSession, RerunResumesWithoutMeasuringAStateTwice)
{
    const std::string ws = tempWorkspace("resume");
    tune(smallOptions(ws, 16));
    const engine::Finished second = tune(smallOptions(ws, 32));
    EXPECT_EQ(second.status, "finished");
    EXPECT_EQ(second.restoredTrials, 16);
    EXPECT_EQ(second.totalTrials, 16) << "the budget counts the earlier session's trials";
    ASSERT_EQ(second.tasks.size(), 1u);
    EXPECT_EQ(second.tasks[0].trials, 32) << "trial counts add up across sessions";
    const auto records = storedRecords(ws);
    ASSERT_EQ(records.size(), 32u);
    expectNoStateMeasuredTwice(records);
}

// Records measured with another layout rewrite timed another kernel: a session with option 2 does not count the
// option-0 session's trials, and re-measures as its best only records of its own option.
TEST(TuningSession, AResumeWithAnotherLayoutRewriteStartsItsOwnCount)
{
    const std::string ws = tempWorkspace("resume-rewrite");
    tune(smallOptions(ws, 16));
    engine::TuneOptions packed = smallOptions(ws, 16);
    packed.measure.layoutRewrite = 2;
    std::vector<int64_t> remeasured;
    const engine::Finished second = tune(packed, [&](const engine::TuneEvent& event) {
        if (const auto* best = std::get_if<engine::BestImproved>(&event); best && best->remeasured)
            remeasured.push_back(best->recordId);
    });
    EXPECT_EQ(second.status, "finished") << second.message;
    EXPECT_EQ(second.restoredTrials, 0);
    EXPECT_EQ(second.totalTrials, 16);
    const auto records = storedRecords(ws);
    ASSERT_EQ(records.size(), 32u);
    std::set<int64_t> packedIds;
    for (const store::Record& r : records)
        if (r.extra.find("\"layout_rewrite_option\":2") != std::string::npos)
            packedIds.insert(r.id);
    EXPECT_EQ(packedIds.size(), 16u);
    ASSERT_EQ(remeasured.size(), 1u);
    EXPECT_TRUE(packedIds.count(remeasured.front())) << "re-measured record " << remeasured.front();
}

TEST(TuningSession, SameSeedGivesTheSameFirstThreeBatches)
{
    const auto batches = [](const std::string& ws, uint64_t seed) {
        tune(smallOptions(ws, 24, seed));
        std::vector<std::string> steps;
        for (const store::Record& r : storedRecords(ws))
            steps.push_back(r.steps);
        return steps;
    };
    const auto a = batches(tempWorkspace("seed_a"), 7);
    const auto b = batches(tempWorkspace("seed_b"), 7);
    const auto c = batches(tempWorkspace("seed_c"), 8);
    ASSERT_EQ(a.size(), 24u);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(TuningSession, CancelStopsAfterTheBatchInFlightAndKeepsIt)
{
    const std::string ws = tempWorkspace("cancel");
    engine::TuningSession* self = nullptr;
    engine::TuningSession s(smallOptions(ws, 64), [&](const engine::TuneEvent& event) {
        if (std::holds_alternative<engine::RecordMeasured>(event) && self)
            self->cancel();
    });
    self = &s;
    ASSERT_TRUE(s.start());
    auto finished = s.wait();
    ASSERT_TRUE(finished) << finished.error().message;
    EXPECT_EQ(finished->status, "cancelled");
    EXPECT_EQ(finished->totalTrials, 8);
    EXPECT_EQ(storedRecords(ws).size(), 8u);
}

TEST(TuningSession, PauseHoldsBetweenBatchesAndResumeContinuesTheSameSession)
{
    const std::string ws = tempWorkspace("pause");
    std::atomic<int> rounds { 0 };
    engine::TuningSession* self = nullptr;
    engine::TuningSession s(smallOptions(ws, 24), [&](const engine::TuneEvent& event) {
        if (std::holds_alternative<engine::RoundDone>(event) && ++rounds == 1)
            self->pause();
    });
    self = &s;
    ASSERT_TRUE(s.start());
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (rounds.load() < 1 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(rounds.load(), 1) << "no round while paused";
    EXPECT_TRUE(s.paused());
    s.resume();
    auto finished = s.wait();
    ASSERT_TRUE(finished);
    EXPECT_EQ(finished->status, "finished");
    EXPECT_EQ(rounds.load(), 3);
    auto store = store::Store::open(ws);
    ASSERT_TRUE(store);
    EXPECT_EQ(store->sessions()->size(), 1u) << "one session, paused and resumed";
}

TEST(TuningSession, AbortLosesOnlyTheBatchInFlight)
{
    const std::string ws = tempWorkspace("abort");
    std::atomic<int> rounds { 0 };
    engine::TuningSession* self = nullptr;
    engine::TuningSession s(smallOptions(ws, 64), [&](const engine::TuneEvent& event) {
        if (std::holds_alternative<engine::RoundDone>(event))
            ++rounds;
        if (const auto* p = std::get_if<engine::BatchProgress>(&event); p && rounds == 1 && p->done >= 2)
            self->abort();
    });
    self = &s;
    ASSERT_TRUE(s.start());
    auto finished = s.wait();
    ASSERT_TRUE(finished);
    EXPECT_EQ(finished->status, "cancelled");
    EXPECT_EQ(storedRecords(ws).size(), 8u) << "the first batch is kept, the second was in flight";
    auto store = store::Store::open(ws);
    ASSERT_TRUE(store);
    EXPECT_TRUE(store->verify());
}

// The child tunes; the parent kills it with SIGKILL while its second batch is being measured; the rerun
// continues from the first batch: trials add up, no state is measured twice, the workspace is intact.
TEST(TuningSession, SigkillMidRoundLosesAtMostTheBatchInFlight)
{
    const std::string ws = tempWorkspace("sigkill");
    int pipeFds[2];
    ASSERT_EQ(::pipe(pipeFds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(pipeFds[0]);
        int rounds = 0;
        engine::TuningSession s(smallOptions(ws, 64), [&](const engine::TuneEvent& event) {
            if (std::holds_alternative<engine::RoundDone>(event))
                ++rounds;
            if (const auto* p = std::get_if<engine::BatchProgress>(&event); p && rounds == 1 && p->done >= 1) {
                const char byte = 1;
                (void)::write(pipeFds[1], &byte, 1);
                std::this_thread::sleep_for(60s); // killed here, mid-round
            }
        });
        (void)s.run();
        ::_exit(0);
    }
    ::close(pipeFds[1]);
    char byte = 0;
    ASSERT_EQ(::read(pipeFds[0], &byte, 1), 1) << "the child never reached its second batch";
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(pipeFds[0]);
    ASSERT_TRUE(WIFSIGNALED(status));

    EXPECT_EQ(storedRecords(ws).size(), 8u) << "the first batch survives; the second was in flight";
    const engine::Finished rerun = tune(smallOptions(ws, 24)); // the same command, budget 24 this time
    EXPECT_EQ(rerun.status, "finished");
    EXPECT_EQ(rerun.restoredTrials, 8);
    EXPECT_EQ(rerun.totalTrials, 16) << "the rerun finishes the budget";
    ASSERT_EQ(rerun.tasks.size(), 1u);
    EXPECT_EQ(rerun.tasks[0].trials, 24);
    const auto records = storedRecords(ws);
    EXPECT_EQ(records.size(), 24u);
    expectNoStateMeasuredTwice(records);
    auto store = store::Store::open(ws);
    ASSERT_TRUE(store);
    EXPECT_TRUE(store->verify());
}

TEST(TuningSession, ASpentBudgetMeasuresNothingAndSaysSo)
{
    const std::string ws = tempWorkspace("spent");
    tune(smallOptions(ws, 8));
    const engine::Finished again = tune(smallOptions(ws, 8));
    EXPECT_EQ(again.status, "finished");
    EXPECT_EQ(again.totalTrials, 0);
    EXPECT_NE(again.message.find("already spent (8 of 8"), std::string::npos) << again.message;
    EXPECT_EQ(storedRecords(ws).size(), 8u);
}

TEST(TuningSession, BadOptionsAreClearErrorsBeforeAnyWork)
{
    const std::string ws = tempWorkspace("bad");
    const auto error = [](engine::TuneOptions o) {
        engine::TuningSession s(std::move(o), {});
        auto started = s.start();
        return started ? std::string() : started.error().message;
    };
    engine::TuneOptions o = smallOptions(ws);
    o.trials = 0;
    EXPECT_NE(error(o).find("trials must be > 0"), std::string::npos) << error(o);
    o = smallOptions(ws);
    o.model = "oracle";
    EXPECT_NE(error(o).find("oracle"), std::string::npos) << error(o);
    o = smallOptions(ws);
    o.tasks.clear();
    EXPECT_NE(error(o).find("no tasks"), std::string::npos);
    const std::string text = tempWorkspace("not_a_workspace");
    std::ofstream(text) << "this is not a database\n";
    o = smallOptions(text);
    EXPECT_FALSE(error(o).empty());
    std::ifstream in(text);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "this is not a database") << "the file is left as it was";
}

TEST(TuningSession, ATaskThatOnlyFailsStopsAfterTheConsecutiveErrorLimit)
{
    const std::string ws = tempWorkspace("errors");
    engine::TuneOptions o = smallOptions(ws, 64);
    o.measure.buildTimeoutMs = 0; // every build times out
    o.maxConsecutiveErrors = 8;
    const engine::Finished f = tune(o);
    EXPECT_EQ(f.status, "finished") << f.message;
    ASSERT_EQ(f.tasks.size(), 1u);
    EXPECT_TRUE(f.tasks[0].dead);
    EXPECT_NE(f.tasks[0].deadReason.find("consecutive errors"), std::string::npos) << f.tasks[0].deadReason;
    EXPECT_EQ(f.totalTrials, 8);
}

// With the XGBoost model the session trains after its warm-up round and leaves the trained model in the
// workspace's cost_models table; the blob loads into a fresh model that scores the measured states exactly
// as a second load does, with the booster trained.
TEST(TuningSession, XgbModelIsTrainedAndSavedInTheWorkspace)
{
    const std::string ws = tempWorkspace("xgb");
    engine::TuneOptions o = smallOptions(ws, 24);
    o.model = "xgb";
    const engine::Finished f = tune(o);
    ASSERT_EQ(f.status, "finished") << f.message;
    auto store = store::Store::open(ws).value();
    auto info = store.costModel(2); // 1: the session start's, untrained; 2: the session end's
    ASSERT_TRUE(info.hasValue()) << info.error().message;
    EXPECT_EQ(info->kind, "xgb");
    const auto summary = nlohmann::json::parse(info->trainingSummary);
    EXPECT_EQ(summary["records"], 24);
    EXPECT_GT(summary["training"]["rounds"].get<int>(), 0) << info->trainingSummary;

    auto first = cost::makeCostModel("xgb", 1).value();
    auto second = cost::makeCostModel("xgb", 2).value();
    ASSERT_TRUE(first->load(info->weights).hasValue());
    ASSERT_TRUE(second->load(info->weights).hasValue());
    const engine::TuneTask task = matmulTask();
    std::vector<sched::State> states;
    for (const store::Record& r : storedRecords(ws))
        states.push_back(sched::State::replay(task.dag, sched::parseSteps(r.steps).value()).value());
    const cost::CostTask costTask { &task.dag, task.dag.workloadKey(), task.dag.flopCount() };
    const std::vector<double> a = first->predict(costTask, states);
    EXPECT_EQ(a, second->predict(costTask, states));
    EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](double v) { return std::isfinite(v); }));
    EXPECT_NE(*std::min_element(a.begin(), a.end()), *std::max_element(a.begin(), a.end())) << "a trained model";
}

TEST(TuningSession, SwitchingTheModelRetrainsOnTheRecordsAndRanksTheNextRounds)
{
    const std::string ws = tempWorkspace("switch");
    engine::TuneOptions o = smallOptions(ws, 24);
    o.model = "random";
    std::vector<engine::ModelSwitched> switches;
    engine::TuningSession* running = nullptr;
    engine::TuningSession s(o, [&](const engine::TuneEvent& event) {
        if (const auto* r = std::get_if<engine::RoundDone>(&event); r && r->round == 1) {
            EXPECT_TRUE(running->switchModel("xgb").hasValue());
        }
        if (const auto* m = std::get_if<engine::ModelSwitched>(&event))
            switches.push_back(*m);
    });
    running = &s;
    auto unknown = s.switchModel("no-such-model");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("xgb"), std::string::npos) << "names the kinds there are";
    const auto f = s.run();
    ASSERT_TRUE(f) << f.error().message;
    ASSERT_EQ(f->status, "finished") << f->message;

    ASSERT_EQ(switches.size(), 1u);
    EXPECT_EQ(switches[0].from, "random");
    EXPECT_EQ(switches[0].to, "xgb");
    EXPECT_EQ(switches[0].trial, 8);
    EXPECT_TRUE(switches[0].error.empty()) << switches[0].error;
    EXPECT_GT(switches[0].trainedOn, 0);
    EXPECT_LE(switches[0].trainedOn, 8);

    auto store = store::Store::open(ws).value();
    const auto sessions = store.sessions().value();
    ASSERT_EQ(sessions.size(), 1u);
    EXPECT_EQ(sessions[0].costModel, "xgb") << "the session's row names the model it ranks with now";
    const auto settings = nlohmann::json::parse(sessions[0].settings);
    ASSERT_EQ(settings["model_switches"].size(), 1u);
    EXPECT_EQ(settings["model_switches"][0]["from"], "random");
    EXPECT_EQ(settings["model_switches"][0]["trial"], 8);
    const auto switched = store.costModel(2).value(); // 1: the session start's random model
    EXPECT_EQ(switched.kind, "xgb");
    EXPECT_EQ(switched.name, "xgb (switched at trial 8)");

    // The first round was ranked by the random model, the later ones by the trained XGBoost model.
    const std::vector<store::Record> records = storedRecords(ws);
    std::set<double> laterScores;
    int later = 0;
    for (const store::Record& r : records) {
        if (!r.batchRank)
            continue; // the final re-measurement's
        ASSERT_TRUE(r.predictedBy);
        if (r.id <= 8) {
            EXPECT_EQ(*r.predictedBy, 1) << "record " << r.id;
        } else {
            EXPECT_EQ(*r.predictedBy, 2) << "record " << r.id;
            ++later;
            if (r.predictedScore)
                laterScores.insert(*r.predictedScore);
        }
    }
    EXPECT_EQ(later, 16);
    EXPECT_GT(laterScores.size(), 1u) << "scored by a trained model";
}

TEST(TuningSession, APolicyWithoutTheSessionsModelCannotSwitchIt)
{
    engine::TuneOptions o = smallOptions(tempWorkspace("switch_autotvm"));
    o.policy = search::PolicyKind::AutotvmRandom;
    engine::TuningSession s(o, {});
    auto refused = s.switchModel("xgb");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("autotvm-random"), std::string::npos) << refused.error().message;
}
