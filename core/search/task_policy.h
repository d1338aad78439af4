// The search policy of one task, as a tuning session drives it: propose a batch, be told how it measured.
// Two families implement it on the same lowering, codegen, measurement and store:
//   Ansor   (sketch_policy.h): generated sketches, random annotations, evolutionary search under the
//           session's cost model;
//   AutoTVM (autotvm_policy.h): a hand-written template's config space under one of AutoTVM's tuners,
//           which keep their own model (the XGBoost tuner) or none.
//
// A policy never measures. The session measures what searchOneRound proposes (skipping candidates that carry
// an instantiation error: those are recorded as status 1, never run), stores each record with its
// candidate's `extra`, and hands the results back in the same order through recordMeasured.
//
// How to add a policy:
//   1. a PolicyKind value and a class deriving from TaskPolicy (its own Rng, seeded in the constructor, so
//      that the same seed, device and measurements give the same candidates);
//   2. an entry in policies() (task_policy.cpp): its name as `--policy` spells it, its family, a line for
//      people and the factory;
//   3. restoreMeasured: which stored records are this policy's (its resume), by their `extra`;
//   4. a fixed-seed case and a "never proposes a measured state twice" case in its test.
#pragma once

#include "core/cost/cost_model.h"
#include "core/record/measure_result.h"
#include "core/schedule/state.h"
#include "core/search/constraints.h"
#include "core/search/search_task.h"
#include "core/support/error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace ts {
class ThreadPool;
}

namespace ts::search {

enum class PolicyKind { Ansor, Random, AutotvmXgb, AutotvmGa, AutotvmRandom, AutotvmGrid };
const char* toString(PolicyKind kind); // "ansor", "random", "autotvm-xgb", ...
Expected<PolicyKind> policyKindFromString(const std::string& text);
// AutoTVM's tuners over a template's space, rather than Ansor's sketches.
bool isAutotvm(PolicyKind kind);

// A state proposed for measurement, with what the model predicted and where it came from.
struct Candidate {
    sched::State state;
    double score = 0.0; // the cost model's; 0 for random picks of the random policy
    bool random = false; // an eps-greedy (or random-policy) pick rather than a best-predicted state
    // JSON object members the record keeps beyond the steps, e.g. an AutoTVM config:
    // "autotvm": {"template": "dense_nopack.x86", "args": [...], "config": {"index": 3, ...}}. "" for none.
    std::string extra;
    // Non-empty: the config could not be instantiated (AutoTVM's InstantiationError). `state` is then the
    // DAG's initial state; the session records status 1 with this message and never runs it.
    std::string instantiationError;
};

// Where a round's time went and what it did: for the benchmark's phase split and the progress line.
struct RoundStats {
    int sampled = 0; // random annotations tried (AutoTVM: configs proposed)
    int valid = 0; // of those, valid and new
    int mutations = 0; // mutations tried
    int mutationFailures = 0;
    int crossovers = 0;
    int crossoverFailures = 0;
    int predicted = 0; // states scored by the model
    int warmupRanked = 0; // of those, ranked by the analytical estimate in the learned model's warm-up
    int internalErrors = 0; // individuals dropped because a rule broke an invariant (a bug of ours; 0 in tests)
    int constraintRejections = 0; // states drawn, bred or seeded that broke the task's constraints (TaskSteering)
    int userSeeds = 0; // a person's states that joined the initial population
    double sampleSeconds = 0.0; // initial population (AutoTVM: the tuner's proposal, model fit included)
    double evolveSeconds = 0.0; // mutation and crossover
    double predictSeconds = 0.0; // cost model
};

// How large the searched space is, for people (the race view, `tune`'s header).
struct SpaceSize {
    double configs = 0.0; // AutoTVM: the config space's size; Ansor: 0
    int sketches = 0; // Ansor: the sketches generated
    double annotationsPerSketch = 0.0; // Ansor: an estimate of the random annotations of one sketch (log-mean)
    std::string text; // "308 configs (conv2d_NCHWc.x86)", "3 sketches x ~2e+07 annotations"
};

// What a person set for one task's search (issue 41): constraints every proposed state obeys, their own states
// in every round's initial population (parents for mutation and crossover, whether measured or not), and measured
// states kept out of it (an undone manual measurement's place). A new value replaces the old from the next round.
struct TaskSteering {
    Constraints constraints;
    std::vector<sched::State> seeds;
    std::vector<uint64_t> excluded; // stateHash of each
    bool empty() const { return constraints.empty() && seeds.empty() && excluded.empty(); }
};

class TaskPolicy {
public:
    virtual ~TaskPolicy() = default;

    // Up to `numMeasures` candidates never measured before, best first. Empty when the round found nothing
    // new (the session retries, then declares the task dead); returns early, empty, when `stop` is requested.
    virtual Expected<std::vector<Candidate>> searchOneRound(int numMeasures, std::stop_token stop = {}) = 0;
    // What was measured, in the order searchOneRound proposed it (instantiation errors included, as failures).
    virtual void recordMeasured(std::span<const Candidate> candidates, std::span<const record::MeasureResult> results)
        = 0;
    // Resume: a record an earlier session stored for this task (its steps' hash, the state when it replays,
    // its mean cost or kFailedCost, its extra JSON). Returns whether the record is this policy's: only those
    // count toward the budget and the best.
    virtual bool restoreMeasured(uint64_t hash, const sched::State* state, double meanCost, std::string_view extra) = 0;

    // Transfer learning (AutoTVM's load_history): programs other tasks of the session measured, with their
    // GFLOP/s (0 failed), offered before this task's first round. A policy that cannot use them ignores them.
    virtual void learnFromOtherTasks(std::span<const sched::State> states, std::span<const double> gflops)
    {
        (void)states;
        (void)gflops;
    }

    // Before each round: the best states other tasks of the same kind (same name: the same operators fused,
    // other shapes) measured so far, with their GFLOP/s, best first. A policy that cannot use them ignores them.
    virtual void seedFromSimilarTasks(std::span<const sched::State> states, std::span<const double> gflops)
    {
        (void)states;
        (void)gflops;
    }

    // Whether a stored record (its extra JSON) is one this policy would have made: resume and the session's
    // final re-measurement look at these only.
    virtual bool owns(std::string_view extra) const = 0;

    virtual const SearchTask& task() const = 0;
    virtual const cost::CostTask& costTask() const = 0;
    virtual const RoundStats& lastRound() const = 0;
    // Whether the session's cost model ranks this policy's candidates and learns from its measurements.
    virtual bool usesSessionModel() const = 0;
    // The session switched its model (between rounds, on the session's thread): rank with `model` from now on.
    // It outlives the policy, as PolicyContext::model does. Policies that do not use the session's model ignore it.
    virtual void setCostModel(cost::CostModel& model) { (void)model; }
    // Steering from the next round on. An error (constraints that do not fit the task, or rule out every sketch; a
    // policy that cannot be steered so) changes nothing.
    virtual Expected<void> steer(const TaskSteering& steering)
    {
        if (steering.empty())
            return {};
        return makeError(ErrorKind::Unsupported, describe() + ": this policy cannot be steered by hand (yet)");
    }
    virtual Expected<SpaceSize> spaceSize() = 0;
    // For people: what the search does in one round ("evolutionary search over 3 sketches ...").
    virtual std::string describe() const = 0;
};

// What a factory gets: the task, Ansor's parameters, the session's model (outlives the policy), a seed,
// and a pool for population work (null: this thread only).
struct PolicyContext {
    SearchTask task;
    SearchParams params;
    cost::CostModel* model = nullptr;
    uint64_t seed = 1;
    ThreadPool* pool = nullptr;
};

struct PolicyInfo {
    PolicyKind kind;
    const char* name; // as --policy spells it
    const char* family; // "ansor" or "autotvm"
    const char* description; // one line for people
    std::function<Expected<std::unique_ptr<TaskPolicy>>(PolicyContext)> make;
};

// The registry, in the order --help lists them.
const std::vector<PolicyInfo>& policies();
const PolicyInfo& policyInfo(PolicyKind kind);
Expected<std::unique_ptr<TaskPolicy>> makeTaskPolicy(PolicyKind kind, PolicyContext context);
// Whether the policy can tune this DAG for this target (AutoTVM: a template fits it, on a CPU). The error
// says why not.
Expected<void> policySupports(
    PolicyKind kind, const ir::ComputeDAG& dag, const target::Target& target = target::Target::host());

} // namespace ts::search
