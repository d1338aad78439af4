// Constraints on a task's search (core/search/constraints.h): the file form, the checks against a DAG, the
// judgement of states, and a SketchPolicy that never proposes a state breaking them, with a person's seeds in its
// population.
#include "core/cost/cost_model.h"
#include "core/ops/linear.h"
#include "core/search/constraints.h"
#include "core/search/search_utils.h"
#include "core/search/sketch_policy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace ts;
using namespace ts::search;

namespace {

SearchTask matmulTask(int64_t n = 256)
{
    ir::Tensor a = ir::placeholder("A", { n, n });
    ir::Tensor b = ir::placeholder("B", { n, n });
    auto c = ops::matmul(a, b);
    EXPECT_TRUE(c);
    SearchTask t;
    t.dag = ir::ComputeDAG::create({ a, b, *c });
    t.target.cores = 2;
    t.name = "matmul";
    t.flops = t.dag.flopCount();
    return t;
}

Constraints parse(const std::string& text)
{
    auto c = constraintsFromJson(nlohmann::json::parse(text));
    EXPECT_TRUE(c) << c.error().message;
    return c ? *c : Constraints {};
}

std::string errorOf(const std::string& text)
{
    auto c = constraintsFromJson(nlohmann::json::parse(text));
    return c ? std::string("(no error)") : c.error().message;
}

// The innermost length of each split of stage `stage`'s loop `iter` in a state.
std::vector<int64_t> innermostTiles(const SearchTask& task, const sched::State& state, const std::string& iter)
{
    std::vector<int64_t> out;
    sched::State replay = sched::State::initial(task.dag);
    for (const sched::Step& step : state.steps()) {
        if (const auto* split = std::get_if<sched::SplitStep>(&step))
            if (replay.stage(split->stageId).iters[static_cast<size_t>(split->iterId)].name == iter
                && split->lengths.back())
                out.push_back(*split->lengths.back());
        EXPECT_TRUE(replay.apply(step));
    }
    return out;
}

} // namespace

TEST(Constraints, ParseDescribeAndRoundTrip)
{
    const Constraints c = parse(R"({"splits": [{"stage": "matmul", "iter": "j", "part": -1, "equals": 16},
        {"stage": "matmul", "iter": "i", "max": 8}], "unroll": {"in": [0, 64]}, "vectorize": {"max": 16},
        "parallel": {"min": 4}, "sketch": {"forbid": ["rfactor"], "require": ["cache_write"]}})");
    ASSERT_EQ(c.splits.size(), 2u);
    EXPECT_EQ(c.splits[1].part, -1); // the innermost by default
    EXPECT_EQ(c.describe(),
        (std::vector<std::string> { "split matmul.j innermost = 16", "split matmul.i innermost <= 8",
            "unroll in {0, 64}", "vector length <= 16", "parallel extent >= 4", "no rfactor", "always cache_write" }));
    auto again = constraintsFromJson(toJson(c));
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(*again, c);
    EXPECT_TRUE(parse("{}").empty());
}

TEST(Constraints, MalformedConstraintsAreClearErrors)
{
    EXPECT_NE(errorOf(R"({"splits": [{"stage": "matmul", "iter": "j", "min": 9, "max": 4}]})").find("above max"),
        std::string::npos);
    EXPECT_NE(errorOf(R"({"splits": [{"stage": "matmul", "iter": "j"}]})").find("no bound"), std::string::npos);
    EXPECT_NE(errorOf(R"({"splits": [{"iter": "j", "equals": 4}]})").find("\"stage\""), std::string::npos);
    EXPECT_NE(errorOf(R"({"unroll": {"atleast": 4}})").find("unknown member \"atleast\""), std::string::npos);
    EXPECT_NE(
        errorOf(R"({"sketch": {"forbid": ["tensorize"]}})").find("unknown rule \"tensorize\""), std::string::npos);
    EXPECT_NE(
        errorOf(R"({"sketch": {"forbid": ["rfactor"], "require": ["rfactor"]}})").find("both"), std::string::npos);
    EXPECT_NE(errorOf(R"({"tile": 4})").find("unknown constraint \"tile\""), std::string::npos);
}

TEST(Constraints, ChecksNamesAndDivisorsAgainstTheTask)
{
    const SearchTask task = matmulTask(96);
    EXPECT_TRUE(checkConstraints(parse(R"({"splits": [{"stage": "matmul", "iter": "j", "equals": 16}]})"), task.dag));
    auto noStage = checkConstraints(parse(R"({"splits": [{"stage": "conv2d", "iter": "j", "equals": 16}]})"), task.dag);
    ASSERT_FALSE(noStage);
    EXPECT_NE(noStage.error().message.find("no stage conv2d (it has matmul)"), std::string::npos)
        << noStage.error().message;
    auto noLoop = checkConstraints(parse(R"({"splits": [{"stage": "matmul", "iter": "ff", "equals": 16}]})"), task.dag);
    ASSERT_FALSE(noLoop);
    EXPECT_NE(noLoop.error().message.find("no loop ff"), std::string::npos) << noLoop.error().message;
    auto notDivisor
        = checkConstraints(parse(R"({"splits": [{"stage": "matmul", "iter": "j", "equals": 64}]})"), task.dag);
    ASSERT_FALSE(notDivisor);
    EXPECT_NE(notDivisor.error().message.find("extent 96"), std::string::npos) << notDivisor.error().message;
}

TEST(Constraints, AFileSelectsTasksByNameIndexOrWorkloadKey)
{
    const SearchTask a = matmulTask(64);
    const SearchTask b = matmulTask(128);
    const std::vector<TaskIdentity> tasks { { "matmul", a.dag.workloadKey() }, { "matmul", b.dag.workloadKey() } };
    const std::vector<const ir::ComputeDAG*> dags { &a.dag, &b.dag };
    auto byName = constraintsForTasks(
        R"({"tunescope_constraints": 1, "tasks": [{"task": "matmul", "unroll": {"equals": 64}}]})", tasks, dags);
    ASSERT_TRUE(byName) << byName.error().message;
    EXPECT_FALSE((*byName)[0].empty());
    EXPECT_FALSE((*byName)[1].empty());
    auto byIndex = constraintsForTasks(R"({"tunescope_constraints": 1, "tasks": [{"index": 1, "unroll": {"max": 16}},
        {"index": 1, "unroll": {"max": 64}}]})",
        tasks, dags);
    ASSERT_TRUE(byIndex) << byIndex.error().message;
    EXPECT_TRUE((*byIndex)[0].empty());
    EXPECT_EQ((*byIndex)[1].unroll.max, 64); // the later entry wins

    // What the window saves reads back the same, each entry on its own task only.
    std::vector<Constraints> saved(2);
    saved[1] = parse(R"({"splits": [{"stage": "matmul", "iter": "i", "equals": 4}]})");
    auto reread = constraintsForTasks(constraintsFile(tasks, saved), tasks, dags);
    ASSERT_TRUE(reread) << reread.error().message;
    EXPECT_TRUE((*reread)[0].empty());
    EXPECT_EQ((*reread)[1], saved[1]);

    auto none = constraintsForTasks(
        R"({"tunescope_constraints": 1, "tasks": [{"task": "conv2d", "unroll": {"max": 16}}]})", tasks, dags);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("selects none"), std::string::npos) << none.error().message;
    auto unfit = constraintsForTasks(R"({"tunescope_constraints": 1, "tasks": [{"index": 0,
        "splits": [{"stage": "matmul", "iter": "j", "equals": 128}]}]})",
        tasks, dags);
    ASSERT_FALSE(unfit);
    EXPECT_NE(unfit.error().message.find("task 0"), std::string::npos) << unfit.error().message;
    EXPECT_FALSE(constraintsForTasks("{\"tasks\": []}", tasks, dags));
    EXPECT_FALSE(constraintsForTasks("not json", tasks, dags));
}

TEST(Constraints, APolicyNeverProposesAStateThatBreaksThem)
{
    SearchTask task = matmulTask();
    SearchParams params;
    params.population = 256;
    params.sampleInitMinPopulation = 32;
    auto model = cost::makeCostModel("random", 1);
    ASSERT_TRUE(model);
    SketchPolicy policy(task, PolicyKind::Ansor, params, **model, 7);
    const Constraints c = parse(R"({"splits": [{"stage": "matmul", "iter": "j", "part": -1, "equals": 16}],
        "unroll": {"in": [0, 64]}})");
    ASSERT_TRUE(policy.steer(TaskSteering { c, {}, {} }));
    int proposed = 0;
    int rejected = 0;
    for (int round = 0; round < 3; ++round) {
        auto candidates = policy.searchOneRound(16);
        ASSERT_TRUE(candidates) << candidates.error().message;
        ASSERT_FALSE(candidates->empty());
        rejected += policy.lastRound().constraintRejections;
        std::vector<record::MeasureResult> results;
        for (const Candidate& candidate : *candidates) {
            ++proposed;
            EXPECT_EQ(violation(c, task.dag, candidate.state), std::nullopt);
            for (int64_t tile : innermostTiles(task, candidate.state, "j"))
                EXPECT_EQ(tile, 16);
            record::MeasureResult r;
            r.status = record::MeasureStatus::Ok;
            r.costs = { 1e-3 * (1 + proposed % 7) };
            results.push_back(r);
        }
        policy.recordMeasured(*candidates, results);
    }
    EXPECT_EQ(proposed, 48);
    EXPECT_GT(rejected, 0) << "the sampler drew only states that already obeyed: the test cannot tell";

    // Without the constraints the same policy proposes other tiles again.
    ASSERT_TRUE(policy.steer(TaskSteering {}));
    auto free = policy.searchOneRound(16);
    ASSERT_TRUE(free);
    bool other = false;
    for (const Candidate& candidate : *free)
        other = other || violation(c, task.dag, candidate.state).has_value();
    EXPECT_TRUE(other);
}

TEST(Constraints, SketchRulesThatRuleOutEverySketchAreRefused)
{
    SearchTask task = matmulTask();
    auto model = cost::makeCostModel("random", 1);
    ASSERT_TRUE(model);
    SketchPolicy policy(task, PolicyKind::Ansor, SearchParams {}, **model, 7);
    // A plain matmul has no rfactor sketch on a 256-long reduction: requiring one leaves nothing.
    auto refused = policy.steer(TaskSteering { parse(R"({"sketch": {"require": ["rfactor"]}})"), {}, {} });
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("rule out all"), std::string::npos) << refused.error().message;
    EXPECT_TRUE(policy.steering().empty()); // nothing changed
    ASSERT_TRUE(policy.steer(TaskSteering { parse(R"({"sketch": {"forbid": ["cache_write"]}})"), {}, {} }));
    const std::vector<bool> allowed = policy.allowedSketches();
    EXPECT_GT(std::count(allowed.begin(), allowed.end(), false), 0);
    EXPECT_GT(std::count(allowed.begin(), allowed.end(), true), 0);
    auto candidates = policy.searchOneRound(8);
    ASSERT_TRUE(candidates);
    for (const Candidate& candidate : *candidates)
        for (const sched::Step& step : candidate.state.steps())
            EXPECT_FALSE(std::holds_alternative<sched::CacheWriteStep>(step));
}

TEST(Constraints, ASeedJoinsEveryInitialPopulationUnlessItBreaksThem)
{
    SearchTask task = matmulTask();
    SearchParams params;
    params.population = 128;
    params.sampleInitMinPopulation = 16;
    auto model = cost::makeCostModel("random", 1);
    ASSERT_TRUE(model);
    SketchPolicy policy(task, PolicyKind::Ansor, params, **model, 3);
    auto first = policy.searchOneRound(4);
    ASSERT_TRUE(first);
    ASSERT_FALSE(first->empty());
    const sched::State seed = first->front().state;
    const uint64_t hash = stateHash(seed);
    ASSERT_TRUE(policy.steer(TaskSteering { {}, { seed }, {} }));
    ASSERT_TRUE(policy.searchOneRound(4));
    EXPECT_TRUE(std::binary_search(policy.lastPopulation().begin(), policy.lastPopulation().end(), hash));
    EXPECT_EQ(policy.lastRound().userSeeds, 1);

    // A constraint the seed breaks keeps it out (the constraint wins) and says so in the round's figures.
    const std::vector<int64_t> tiles = innermostTiles(task, seed, "j");
    ASSERT_FALSE(tiles.empty());
    const int64_t other = tiles.front() == 1 ? 2 : 1;
    const Constraints c
        = parse(R"({"splits": [{"stage": "matmul", "iter": "j", "equals": )" + std::to_string(other) + "}]}");
    ASSERT_TRUE(policy.steer(TaskSteering { c, { seed }, {} }));
    ASSERT_TRUE(policy.searchOneRound(4));
    EXPECT_FALSE(std::binary_search(policy.lastPopulation().begin(), policy.lastPopulation().end(), hash));
    EXPECT_EQ(policy.lastRound().userSeeds, 0);
    EXPECT_GT(policy.lastRound().constraintRejections, 0);
}
