// Steering a live TuningSession by hand (issue 41): commands posted to the session are applied between two
// batches, with real search, compilation and measurement in the runner and a real SQLite workspace. A manual
// state is measured and stored as a manual record; a seed joins the next round's population; a constraint is
// obeyed by every later proposal; undo and redo walk the history; what is in effect is stored with the session.
#include "core/cost/cost_model.h"
#include "core/engine/tuning_session.h"
#include "core/ops/linear.h"
#include "core/schedule/step_json.h"
#include "core/search/search_utils.h"
#include "core/search/sketch_policy.h"
#include "core/store/store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <thread>
#include <unistd.h>

using namespace ts;
using namespace std::chrono_literals;

namespace {

std::string tempWorkspace(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / ("ts_steering_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = dir / (name + ".tunescope");
    std::filesystem::remove(path);
    return path.string();
}

engine::TuneTask matmulTask(int64_t n = 64)
{
    ir::Tensor a = ir::placeholder("A", { n, n });
    ir::Tensor b = ir::placeholder("B", { n, n });
    auto c = ops::matmul(a, b);
    EXPECT_TRUE(c);
    return engine::TuneTask { "matmul", ir::ComputeDAG::create({ a, b, *c }), 1, "matmul" };
}

search::Constraints parse(const std::string& text)
{
    auto c = search::constraintsFromJson(nlohmann::json::parse(text));
    EXPECT_TRUE(c) << c.error().message;
    return c ? *c : search::Constraints {};
}

// A session on one small matmul whose policy the test can look into.
struct Fixture {
    engine::TuneOptions options;
    search::SketchPolicy* policy = nullptr; // owned by the session
    std::vector<engine::TuneEvent> events;

    explicit Fixture(const std::string& name, int trials = 64)
    {
        options.tasks = { matmulTask() };
        options.trials = trials;
        options.measuresPerRound = 8;
        options.workspace = tempWorkspace(name);
        options.model = "xgb";
        options.search.population = 128;
        options.search.sampleInitMinPopulation = 16;
        options.measure.timing.minRepeatMs = 1;
        options.measure.runnerPath = TS_RUNNER_PATH;
        options.remeasureTop = 0;
        options.makePolicy = [this](search::PolicyContext c) -> Expected<std::unique_ptr<search::TaskPolicy>> {
            auto p = std::make_unique<search::SketchPolicy>(
                std::move(c.task), search::PolicyKind::Ansor, c.params, *c.model, c.seed, c.pool);
            policy = p.get();
            return std::unique_ptr<search::TaskPolicy>(std::move(p));
        };
    }
    engine::EventSink sink()
    {
        return [this](const engine::TuneEvent& e) { events.push_back(e); };
    }
    template <typename T> std::vector<T> all() const
    {
        std::vector<T> out;
        for (const engine::TuneEvent& e : events)
            if (const auto* t = std::get_if<T>(&e))
                out.push_back(*t);
        return out;
    }
    template <typename T> T last() const
    {
        const std::vector<T> found = all<T>();
        EXPECT_FALSE(found.empty());
        return found.empty() ? T {} : found.back();
    }
};

// A record by id, read back from the workspace.
Expected<store::Record> recordById(store::Store& store, int64_t id)
{
    TS_TRY(std::vector<store::Record> all, store.records({}));
    for (store::Record& r : all)
        if (r.id == id)
            return std::move(r);
    return makeError(ErrorKind::NotFound, "no record " + std::to_string(id));
}

bool inPopulation(const search::SketchPolicy& policy, const sched::State& state)
{
    return std::binary_search(policy.lastPopulation().begin(), policy.lastPopulation().end(), search::stateHash(state));
}

} // namespace

TEST(Steering, AManualStateIsMeasuredStoredAsManualAndJoinsThePopulationUntilUndone)
{
    Fixture f("manual");
    engine::TuningSession session(f.options, f.sink());
    ASSERT_TRUE(session.begin());
    ASSERT_TRUE(session.step()); // one round, so that the model and the population exist
    // A person's state: the round's first candidate with its innermost j tile moved (a state never measured).
    const std::vector<engine::RecordMeasured> measured = f.all<engine::RecordMeasured>();
    ASSERT_FALSE(measured.empty());
    auto store = store::Store::open(f.options.workspace);
    ASSERT_TRUE(store);
    auto first = recordById(*store, measured.front().recordId);
    ASSERT_TRUE(first);
    auto steps = sched::parseSteps(first->steps);
    ASSERT_TRUE(steps);
    std::optional<sched::State> edited;
    for (size_t i = 0; i < steps->size() && !edited; ++i) {
        const auto* split = std::get_if<sched::SplitStep>(&(*steps)[i]);
        if (!split || split->lengths.size() < 2 || !split->lengths.back() || *split->lengths.back() == 1)
            continue;
        std::vector<sched::Step> changed = *steps;
        auto& s = std::get<sched::SplitStep>(changed[i]);
        s.lengths.back() = 1;
        if (auto state = sched::State::replay(f.options.tasks[0].dag, changed))
            edited = std::move(state).value();
    }
    ASSERT_TRUE(edited) << "no split to edit in " << first->steps;

    auto id = session.post(engine::MeasureState { 0, edited->steps() });
    ASSERT_TRUE(id) << id.error().message;
    ASSERT_TRUE(session.step()); // applies it, then a round
    const engine::CommandDone done = f.last<engine::CommandDone>();
    EXPECT_EQ(done.id, *id);
    EXPECT_EQ(done.error, "");
    ASSERT_GT(done.recordId, 0);
    auto manual = recordById(*store, done.recordId);
    ASSERT_TRUE(manual);
    EXPECT_EQ(manual->steps, sched::stepsToText(edited->steps()));
    EXPECT_EQ(nlohmann::json::parse(manual->extra).value("pick", ""), "manual");
    EXPECT_EQ(manual->sessionId, session.sessionId());
    ASSERT_TRUE(manual->result.ok()) << manual->result.message; // checked against the reference in the runner
    bool marked = false;
    for (const engine::RecordMeasured& r : f.all<engine::RecordMeasured>())
        marked = marked || (r.recordId == done.recordId && r.manual);
    EXPECT_TRUE(marked);
    // The round after it started from a population holding it; the history says so.
    EXPECT_TRUE(inPopulation(*f.policy, *edited));
    engine::SteeringChanged steering = f.last<engine::SteeringChanged>();
    ASSERT_EQ(steering.history.size(), 2u);
    EXPECT_EQ(steering.position, 1);
    EXPECT_EQ(steering.manualInPopulation, std::vector<int> { 1 });

    // Undo: the record stays in the store, the state leaves the population; redo brings it back.
    ASSERT_TRUE(session.post(engine::UndoSteering {}));
    ASSERT_TRUE(session.step());
    EXPECT_FALSE(inPopulation(*f.policy, *edited));
    EXPECT_EQ(f.last<engine::SteeringChanged>().position, 0);
    EXPECT_TRUE(recordById(*store, done.recordId));
    ASSERT_TRUE(session.post(engine::RedoSteering {}));
    ASSERT_TRUE(session.step());
    EXPECT_TRUE(inPopulation(*f.policy, *edited));
    EXPECT_EQ(f.last<engine::SteeringChanged>().position, 1);
    // Nothing to redo now: an error, and nothing changes.
    ASSERT_TRUE(session.post(engine::RedoSteering {}));
    ASSERT_TRUE(session.step());
    EXPECT_EQ(f.last<engine::CommandDone>().error, "nothing to redo");
    EXPECT_EQ(f.last<engine::SteeringChanged>().position, 1);
    ASSERT_TRUE(session.end());
}

TEST(Steering, ASeedJoinsTheNextRoundsPopulationAndAConstraintBindsEveryLaterProposal)
{
    Fixture f("seed_constraint");
    engine::TuningSession session(f.options, f.sink());
    ASSERT_TRUE(session.begin());
    ASSERT_TRUE(session.step());
    // The seed: a state of the first round's population never measured.
    auto store = store::Store::open(f.options.workspace);
    ASSERT_TRUE(store);
    const auto measured = f.all<engine::RecordMeasured>();
    auto record = recordById(*store, measured.back().recordId);
    ASSERT_TRUE(record);
    auto seedState = sched::State::replayJson(f.options.tasks[0].dag, record->steps);
    ASSERT_TRUE(seedState);
    ASSERT_TRUE(session.post(engine::SeedStates { 0, { seedState->steps() } }));
    const search::Constraints c = parse(R"({"splits": [{"stage": "matmul", "iter": "j", "part": -1, "equals": 8}],
        "unroll": {"in": [0, 16]}})");
    ASSERT_TRUE(session.post(engine::SetConstraints { 0, c }));
    ASSERT_TRUE(session.step());
    EXPECT_EQ(f.policy->steering().constraints, c);
    const size_t before = f.all<engine::RecordMeasured>().size();
    // The seed breaks the constraint unless its tile is 8: it is then kept out and the round says so.
    const bool seedObeys = !search::violation(c, f.options.tasks[0].dag, *seedState);
    EXPECT_EQ(inPopulation(*f.policy, *seedState), seedObeys);
    for (int round = 0; round < 3; ++round)
        ASSERT_TRUE(session.step());
    const auto later = f.all<engine::RecordMeasured>();
    ASSERT_GT(later.size(), before);
    // Every proposal after the constraint obeys it (the records in the store, read back and judged again).
    const int64_t constrainedFrom = later[before - 8].recordId; // the first record of the round after the commands
    int judged = 0;
    for (size_t i = before - 8; i < later.size(); ++i) {
        auto r = recordById(*store, later[i].recordId);
        ASSERT_TRUE(r);
        auto state = sched::State::replayJson(f.options.tasks[0].dag, r->steps);
        ASSERT_TRUE(state) << r->steps;
        EXPECT_EQ(search::violation(c, f.options.tasks[0].dag, *state), std::nullopt) << "record " << r->id;
        ++judged;
    }
    EXPECT_GE(judged, 24);
    EXPECT_GT(constrainedFrom, 0);
    const engine::SteeringChanged steering = f.last<engine::SteeringChanged>();
    EXPECT_EQ(steering.seeds, std::vector<int> { 1 });
    EXPECT_EQ(steering.constraints.at(0), c);

    // What is in effect is stored with the session, for its resume and the settings list.
    auto sessions = store->sessions();
    ASSERT_TRUE(sessions);
    const nlohmann::json settings = nlohmann::json::parse(sessions->back().settings);
    ASSERT_TRUE(settings.contains("steering")) << settings.dump();
    auto stored = search::constraintsFromJson(settings["steering"]["constraints"]["0"]);
    ASSERT_TRUE(stored);
    EXPECT_EQ(*stored, c);
    EXPECT_EQ(settings["steering"]["seeds"]["0"].size(), 1u);

    // Undo the constraint: the policy is free again, and the seed is still there.
    ASSERT_TRUE(session.post(engine::UndoSteering {}));
    ASSERT_TRUE(session.step());
    EXPECT_TRUE(f.policy->steering().constraints.empty());
    EXPECT_EQ(f.policy->steering().seeds.size(), 1u);
    ASSERT_TRUE(session.end());
}

TEST(Steering, BadCommandsAreClearErrorsAndChangeNothing)
{
    Fixture f("bad");
    engine::TuningSession session(f.options, f.sink());
    auto early = session.post(engine::UndoSteering {});
    ASSERT_FALSE(early);
    EXPECT_NE(early.error().message.find("not running"), std::string::npos);
    ASSERT_TRUE(session.begin());
    auto noTask = session.post(engine::SeedStates { 3, {} });
    ASSERT_FALSE(noTask);
    EXPECT_NE(noTask.error().message.find("no task 3"), std::string::npos);
    // Steps of another shape do not replay here; a constraint that names a missing loop; undo at the start.
    ir::Tensor a = ir::placeholder("A", { 8, 8 });
    auto other = ops::matmul(a, a);
    ASSERT_TRUE(other);
    sched::State alien = sched::State::initial(ir::ComputeDAG::create({ a, *other }));
    ASSERT_TRUE(alien.apply(sched::SplitStep { 1, 0, 8, { 4 }, true }));
    ASSERT_TRUE(session.post(engine::MeasureState { 0, alien.steps() }));
    ASSERT_TRUE(session.post(engine::SetConstraints { 0, parse(R"({"splits": [{"stage": "matmul", "iter": "ff",
        "equals": 4}]})") }));
    ASSERT_TRUE(session.post(engine::UndoSteering {}));
    ASSERT_TRUE(session.step());
    const auto done = f.all<engine::CommandDone>();
    ASSERT_EQ(done.size(), 3u);
    EXPECT_NE(done[0].error.find("do not replay"), std::string::npos) << done[0].error;
    EXPECT_NE(done[1].error.find("no loop ff"), std::string::npos) << done[1].error;
    EXPECT_EQ(done[2].error, "nothing to undo");
    EXPECT_EQ(f.last<engine::SteeringChanged>().history.size(), 1u);
    ASSERT_TRUE(session.end());
    EXPECT_FALSE(session.post(engine::UndoSteering {}));
}

TEST(Steering, ConstraintsFromTheStartAreCheckedBeforeAnyWorkAndStored)
{
    Fixture f("start");
    f.options.constraints = { parse(R"({"splits": [{"stage": "matmul", "iter": "rv0", "equals": 5}]})") };
    engine::TuningSession bad(f.options, {});
    auto refused = bad.start();
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("extent 64"), std::string::npos) << refused.error().message;

    f.options.constraints = { parse(R"({"unroll": {"equals": 0}})") };
    f.options.trials = 16;
    engine::TuningSession good(f.options, f.sink());
    auto finished = good.run();
    ASSERT_TRUE(finished) << finished.error().message;
    auto store = store::Store::open(f.options.workspace);
    ASSERT_TRUE(store);
    auto records = store->records({});
    ASSERT_TRUE(records);
    ASSERT_EQ(records->size(), 16u);
    for (const store::Record& r : *records)
        EXPECT_EQ(r.steps.find("auto_unroll_max_step$16"), std::string::npos);
}

TEST(Steering, CommandsPostedWhilePausedApplyAtOnce)
{
    Fixture f("paused", 512);
    std::atomic<int> rounds { 0 };
    std::atomic<int> commandsDone { 0 };
    engine::TuningSession* live = nullptr;
    engine::TuningSession session(f.options, [&](const engine::TuneEvent& e) {
        if (std::holds_alternative<engine::RoundDone>(e) && ++rounds == 1)
            live->pause();
        if (std::holds_alternative<engine::CommandDone>(e))
            ++commandsDone;
    });
    live = &session;
    ASSERT_TRUE(session.start());
    for (int i = 0; i < 2000 && !session.paused(); ++i)
        std::this_thread::sleep_for(5ms);
    while (rounds.load() < 1)
        std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(session.post(engine::SetConstraints { 0, parse(R"({"unroll": {"max": 16}})") }));
    for (int i = 0; i < 400 && commandsDone.load() == 0; ++i)
        std::this_thread::sleep_for(5ms);
    EXPECT_EQ(commandsDone.load(), 1);
    EXPECT_EQ(rounds.load(), 1); // applied while paused, no round ran
    session.cancel();
    ASSERT_TRUE(session.wait());
}

TEST(Steering, AResumeStartsFromTheStoredConstraintsAndSeeds)
{
    Fixture f("resume");
    const search::Constraints c = parse(R"({"unroll": {"in": [0, 64]}})");
    std::optional<sched::State> seed;
    {
        engine::TuningSession session(f.options, f.sink());
        ASSERT_TRUE(session.begin());
        ASSERT_TRUE(session.step());
        auto store = store::Store::open(f.options.workspace);
        ASSERT_TRUE(store);
        auto record = recordById(*store, f.all<engine::RecordMeasured>().front().recordId);
        ASSERT_TRUE(record);
        auto state = sched::State::replayJson(f.options.tasks[0].dag, record->steps);
        ASSERT_TRUE(state);
        seed = *state;
        ASSERT_TRUE(session.post(engine::SetConstraints { 0, c }));
        ASSERT_TRUE(session.post(engine::SeedStates { 0, { seed->steps() } }));
        ASSERT_TRUE(session.step());
        session.cancel();
        ASSERT_TRUE(session.end());
    }
    auto store = store::Store::open(f.options.workspace);
    ASSERT_TRUE(store);
    auto sessions = store->sessions();
    ASSERT_TRUE(sessions);
    const std::string settings = sessions->back().settings;

    Fixture again("resume");
    again.options.steeringFrom = settings;
    engine::TuningSession resumed(again.options, again.sink());
    ASSERT_TRUE(resumed.begin());
    EXPECT_EQ(again.policy->steering().constraints, c);
    ASSERT_EQ(again.policy->steering().seeds.size(), 1u);
    EXPECT_EQ(search::stateHash(again.policy->steering().seeds.front()), search::stateHash(*seed));
    EXPECT_EQ(again.last<engine::SteeringChanged>().constraints.at(0), c);
    ASSERT_TRUE(resumed.end());

    // A stored steering that names a task this session does not tune is an error before any work.
    Fixture wrong("resume_wrong");
    wrong.options.steeringFrom = R"({"steering": {"constraints": {"5": {"unroll": {"max": 16}}}}})";
    engine::TuningSession refused(wrong.options, {});
    auto started = refused.start();
    ASSERT_FALSE(started);
    EXPECT_NE(started.error().message.find("task 5"), std::string::npos) << started.error().message;
}
