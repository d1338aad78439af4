// Shadow models (issue 41, feature 7): extra cost models that follow a tuning session without steering it.
//
// Each shadow model learns from exactly the records the session's model learns from (the stored records on
// resume, then every round's measured candidates), and before each round's update it scores that round's
// candidates. Against the measured throughput of those candidates it gets, per round, the two rank metrics
// compare-models reports (store/metrics.h: pairwise accuracy and Spearman), and so does the session's own
// model from the scores that ranked the candidates. A user sees which model would have chosen better on this
// search's own candidates, while the search runs, without a dataset and without a second search.
//
// What the numbers are, so that they read as compare-models' do (engine::evaluateOnDataset on a dataset):
// - labels: a candidate's normalised throughput, the round's least cost over its cost (the round's best has
//   1). Only successful measurements carry a label; failed ones are left out of the metrics, as a dataset
//   leaves them out (store/dataset.h). `samples` counts those kept.
// - predictions: a score that is not finite (a state the model cannot score) counts as 0.
// - scores are taken on the model as it was before the round's update: the information the session's model
//   had when it ranked the round.
// - a learned model in its warm-up (CostModel::warmingUp) predicts at random, as the session's model does;
//   the session's search ranks by the analytical estimate instead (SearchParams::analyticalWarmup), so the
//   session's line of a warm-up round shows the estimate, a shadow of the same kind shows chance.
//
// A shadow model that fails (an error from update, a wrong number of scores, an exception) is stopped: its
// line of that round and of every later one carries the error and no metrics; the session and the other
// models go on. Threads: one at a time, the session's thread.
#pragma once

#include "core/cost/cost_model.h"
#include "core/cost/machine_limits.h"
#include "core/record/measure_result.h"
#include "core/schedule/state.h"
#include "core/support/error.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ts::engine {

// One model's metrics on one round's candidates.
struct ShadowMetrics {
    std::string kind; // the cost model's kind ("xgb")
    bool session = false; // the session's own model (its scores ranked the candidates); else a shadow
    int round = 0; // the session's round number
    int task = 0; // the task the round tuned
    int samples = 0; // successful measurements the metrics are computed on
    double pairwiseAccuracy = 0.0; // store::pairwiseAccuracy (0.5 with fewer than two samples)
    double spearman = 0.0; // store::spearman (0 with fewer than two samples)
    double seconds = 0.0; // the shadow's prediction and update this round (0 on the session's line)
    std::string error; // set: the model failed (this round or before) and the metrics are not computed

    bool operator==(const ShadowMetrics&) const = default;
};

// One model over the rounds so far.
struct ShadowSummary {
    std::string kind;
    bool session = false;
    // Rounds in the means: those with metrics and at least two samples (fewer carry no rank information).
    int rounds = 0;
    double meanPairwiseAccuracy = 0.0; // plain means over those rounds, each round counting once; 0 for none
    double meanSpearman = 0.0;
    std::string error; // the model's failure, when it failed
};

class ShadowModels {
public:
    // A model of each kind, seeded with `seed` (the session's: a shadow of the session's kind then scores as the
    // session's model would), the analytical one estimating with `machine`, the learned ones warming up for
    // `warmupSamples` records (what the session gives its model: tasks x measures per round). Errors: an
    // unknown kind (naming it and the kinds there are), a kind listed twice.
    static Expected<ShadowModels> make(
        std::vector<std::string> kinds, uint64_t seed, const cost::MachineLimits& machine, int warmupSamples);

    ShadowModels(ShadowModels&&) noexcept;
    ShadowModels& operator=(ShadowModels&&) noexcept;
    ~ShadowModels();

    // The shadow kinds, in the order asked.
    std::vector<std::string> kinds() const;

    // What the session's model learns outside a round (on resume, a task's stored records; a state a person
    // asked to measure), given to every shadow model with the same arguments. A model that fails is stopped
    // (see the header comment).
    void learn(const cost::CostTask& task, std::span<const sched::State> states,
        std::span<const record::MeasureResult> results);

    // A measured round: `states` and `results` exactly as the session's model is updated with them, and
    // `sessionScores` the scores its search ranked those states by (one per state; empty: no line for it).
    // Each shadow scores the states, then learns from them. Returns the session's line first (when there is
    // one), then one per shadow in the order asked; they are also kept for history() and summary().
    std::vector<ShadowMetrics> round(int round, int task, const cost::CostTask& costTask,
        std::span<const sched::State> states, std::span<const record::MeasureResult> results,
        std::span<const double> sessionScores, const std::string& sessionKind);

    // Every line round() returned, in order.
    const std::vector<ShadowMetrics>& history() const { return m_history; }
    // Per model (a (session, kind) pair: a session that switched models has a line per kind), in the order
    // each first appeared in history().
    std::vector<ShadowSummary> summary() const;

private:
    struct Shadow;
    explicit ShadowModels(std::vector<Shadow> shadows);

    std::vector<Shadow> m_shadows;
    std::vector<ShadowMetrics> m_history;
};

// Per model (kind, session) over some rounds' lines, as ShadowModels::summary() (a CLI or a view that kept the lines
// of RoundDone events).
std::vector<ShadowSummary> summarize(std::span<const ShadowMetrics> lines);

// The metrics of one model's scores against a round's results (the rules of the header comment): what round()
// computes for each line. `scores` and `results` have one entry per state. Sets samples and the two metrics.
ShadowMetrics shadowMetricsOf(std::span<const double> scores, std::span<const record::MeasureResult> results);

// Lines as a JSON array, for the session's stored settings ("shadow_models") and the CLI's --json:
// [{"kind": "xgb", "session": false, "round": 3, "task": 0, "samples": 63, "pairwise_accuracy": 0.71,
//   "spearman": 0.58, "seconds": 0.4}, ...], with "error" only on lines that have one.
std::string shadowMetricsToJson(std::span<const ShadowMetrics> lines);
// And back. Errors: text that is not a JSON array, an entry that is not an object or has no "kind".
Expected<std::vector<ShadowMetrics>> shadowMetricsFromJson(const std::string& text);

} // namespace ts::engine
