// Ansor's search policy for one task (sketch_policy.cc): sketches once, then per round an initial
// population of random annotations (plus the best measured states), evolutionary search ranked by the cost
// model, and eps-greedy picks of states never measured before. The session measures what a round
// proposes and reports the results back (recordMeasured); the policy never measures.
//
// Determinism: every random choice comes from the policy's seed. Population work (sampling, mutation) runs
// on a thread pool, but each individual draws from its own Rng derived from the round's seed and its index,
// so the candidates do not depend on the number of threads or their timing: same seed, same device, same
// measured results -> the same candidates. (Ansor gives each worker thread its own generator, so its
// candidates change with the thread count.)
//
// The "random" policy is the baseline a tuning curve is judged against: each round measures uniformly
// drawn random annotations (the initial population alone, no model, no evolution).
#pragma once

#include "core/cost/cost_model.h"
#include "core/record/measure_result.h"
#include "core/search/sketch.h"
#include "core/search/task_policy.h"
#include "core/support/rng.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ts {
class ThreadPool;
}

namespace ts::cost {
class AnalyticalCostModel;
}

namespace ts::search {

class SketchPolicy final : public TaskPolicy {
public:
    // `model` is shared by every task's policy of a session and outlives the policy; `pool` runs population
    // work (null: this thread only).
    SketchPolicy(SearchTask task, PolicyKind kind, SearchParams params, cost::CostModel& model, uint64_t seed,
        ThreadPool* pool = nullptr);
    ~SketchPolicy();

    // Generates the sketches (once; later calls return the same).
    Expected<const std::vector<Sketch>*> sketches();

    // Up to `numMeasures` candidates never measured before, best first (eps-greedy picks last). Empty when
    // the round found nothing new: the caller retries (retrySearchOneRoundOnEmpty) and then declares the
    // task dead. Returns early, empty, when `stop` is requested.
    Expected<std::vector<Candidate>> searchOneRound(int numMeasures, std::stop_token stop = {}) override;

    // What was measured: remembered as measured (never proposed again), and successful states join the
    // measured pool the next initial populations draw from.
    void recordMeasured(std::span<const sched::State> states, std::span<const record::MeasureResult> results);
    void recordMeasured(std::span<const Candidate> candidates, std::span<const record::MeasureResult> results) override;
    // The best of them (SearchParams::similarTaskSeeds), transplanted to this task, join the next initial
    // populations; those that do not replay here are dropped.
    void seedFromSimilarTasks(std::span<const sched::State> states, std::span<const double> gflops) override;
    const std::vector<sched::State>& similarTaskSeeds() const { return m_seeds; }
    // Resume: a state measured by an earlier session (its steps' hash, the state when it replays, its mean
    // cost or kFailedCost).
    // Records an AutoTVM search stored (their extra holds "autotvm") are not this policy's.
    bool restoreMeasured(uint64_t hash, const sched::State* state, double meanCost, std::string_view extra) override;
    bool owns(std::string_view extra) const override;

    const SearchTask& task() const override { return m_task; }
    const cost::CostTask& costTask() const override { return m_costTask; }
    PolicyKind kind() const { return m_kind; }
    const RoundStats& lastRound() const override { return m_stats; }
    bool usesSessionModel() const override { return true; }
    void setCostModel(cost::CostModel& model) override { m_model = &model; }
    Expected<void> steer(const TaskSteering& steering) override;
    const TaskSteering& steering() const { return m_steering; }
    // The state hashes of the last round's initial population (what evolution started from), sorted.
    const std::vector<uint64_t>& lastPopulation() const { return m_lastPopulation; }
    // Which of the sketches the constraints allow (all without constraints).
    std::vector<bool> allowedSketches();
    Expected<SpaceSize> spaceSize() override;
    std::string describe() const override;

    // The parts of a round, public for tests and the benchmark.
    // Ansor's SampleInitPopulation: random annotations of random sketches, valid and unique, at least
    // sampleInitMinPopulation of them (halved after 5 fruitless batches), from one batch of `population`.
    std::vector<sched::State> sampleInitPopulation(uint64_t roundSeed, std::stop_token stop = {});
    // Ansor's EvolutionarySearch: the best `outSize` unmeasured states met in numIters generations.
    std::vector<std::pair<sched::State, double>> evolutionarySearch(
        std::vector<sched::State> population, int outSize, uint64_t roundSeed, std::stop_token stop = {});

private:
    void parallelFor(int64_t n, const std::function<void(int64_t)>& body);
    std::vector<double> predict(std::span<const sched::State> states);
    // Whether the analytical estimate ranks now, in place of a warming-up learned model (analyticalWarmup).
    bool rankedByEstimate() const;
    // GPU targets: which of the states the device can launch. A state that breaks a limit scores -inf, so it
    // is neither bred from nor measured: TVM learns this from failed builds, a measurement each; without the
    // filter 60 of the 64 first candidates for matmul 4096^3 on sm_90 were refused. `lowered`: the full check
    // (lower::gpuKernels: every limit, milliseconds a state), for the states picked; else the limits the
    // inferred bounds show (threads, vthreads, shared bytes; microseconds), for every state scored. Cached.
    std::vector<bool> launchable(std::span<const sched::State> states, bool lowered);

    SearchTask m_task;
    cost::CostTask m_costTask;
    // The analytical model (SearchParams::machine), for the pre-filter (prefilterKeep < 1) and the learned
    // model's warm-up (analyticalWarmup); null when neither applies.
    std::unique_ptr<cost::AnalyticalCostModel> m_analytical;
    PolicyKind m_kind;
    SearchParams m_params;
    cost::CostModel* m_model; // the session's; never null
    Rng m_rng;
    ThreadPool* m_pool;
    std::optional<std::vector<Sketch>> m_sketches;
    std::unordered_set<uint64_t> m_measured; // state hashes
    std::unordered_map<uint64_t, bool> m_launchable; // GPU targets: launchable(.., true), by state hash
    std::unordered_map<uint64_t, bool> m_withinLimits; // launchable(.., false)
    // Successful measured states and their throughput (1 / mean cost), for the initial population.
    std::vector<std::pair<sched::State, double>> m_measuredGood;
    // Other tasks' best states transplanted here (seedFromSimilarTasks), for the initial population.
    std::vector<sched::State> m_seeds;
    RoundStats m_stats;
    TaskSteering m_steering;
    std::optional<ConstraintChecker> m_checker; // with m_steering's constraints, when there are any
    std::unordered_set<uint64_t> m_excluded;
    std::vector<uint64_t> m_lastPopulation;
};

} // namespace ts::search
