// AutoTVM's model-based XGBoost tuner (XGBTuner = ModelBasedTuner + XGBoostCostModel + the simulated annealing
// optimizer), re-created from TVM v0.19.0 python/tvm/autotvm/tuner/{model_based_tuner,xgboost_tuner,
// xgboost_cost_model}.py on TuneScope's XGBoost (core/cost/xgb_booster.h).
//
// The loop, as TVM's: proposals come from a plan of plan_size (64) configs; every plan_size new measurements
// the model is refit on all of them (labels: GFLOP/s over the best so far; failures 0) and simulated annealing
// (sa_model_optimizer.h: 128 walkers, 500 iterations, linear cooling, early stop) finds the plan_size unvisited
// configs the model rates highest; the last 5% of each plan are random unvisited configs (eps-greedy). With a
// diversity filter ratio r, SA returns plan_size * r configs and a greedy submodular pick keeps the plan_size
// with the most knob values not yet in the plan (TVM weighs the scores by 0 there, so the pick is diversity
// alone). XGBoost's parameters are AutoTVM's: max_depth 3, gamma 1e-4, min_child_weight 1, eta 0.3, loss
// "rank" (pairwise) or "reg" (squared error), up to 8000 rounds with early stopping.
//
// Features of a config (one per index, cached; computed in parallel when a pool is given):
//   "knob"     TVM's get_flatten_feature: each knob's entity flattened (split sizes, the permutation, one-hot
//              annotations, option values). Not transferable across tasks.
//   "program"  Ansor's per-store features (core/features) of the config's lowered program, one row per store,
//              summed by the model (pack-sum). TuneScope's stand-in for TVM's "itervar" and "curve" features,
//              which read the same lowered loop nest (touch counts, strides, reuse per loop); like "curve" they
//              describe the program rather than the knobs, so they transfer across tasks and operators.
//   A config that cannot be instantiated or lowered gets no rows (knob features are always defined): the model
//   scores it 0, as TVM's feature cache gives such configs zeros.
//
// Transfer learning (TVM's load_history): a base model is fit on earlier tasks' measured programs (program
// features only; at least minSeedRecords of them, TVM's 500). While tuning, its margin is added to the model's
// prediction with discount 1 / 2^(n / 64) for n samples of this task, and dropped once the discount is below
// 0.05. Deviation: TVM also sets the base margin while training (the new model learns the residual); our
// booster has no base margin, so the new model is trained on its own and only prediction adds the margin.
// Deviation: early stopping watches the training loss (the booster's) rather than TVM's tr-a-recall@plan.
#pragma once

#include "core/cost/xgb_booster.h"
#include "core/ir/compute_dag.h"
#include "core/search/autotvm/config_space.h"
#include "core/search/autotvm/sa_model_optimizer.h"
#include "core/search/autotvm/template.h"
#include "core/search/autotvm/tuner.h"
#include "core/support/rng.h"
#include "core/target/target.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ts {
class ThreadPool;
}

namespace ts::autotvm {

enum class XgbFeature { Knob, Program };
const char* toString(XgbFeature feature);

struct XgbTunerOptions {
    int planSize = 64; // plan_size
    XgbFeature feature = XgbFeature::Program;
    std::string loss = "rank"; // loss_type: "rank" or "reg"
    double diversityFilterRatio = 0.0; // 0: off (TVM's None); else > 1
    double epsGreedy = 0.05; // the random share of a plan (TVM's hard-coded 5%)
    int minSeedRecords = 500; // load_history's min_seed_records
    SaOptions sa;
    int nthread = 1; // XGBoost's
};

// One config's features: rows of `columns` floats (knob: one row; program: one per store; none: no rows).
struct ConfigFeatures {
    int columns = 0;
    std::vector<float> values;
    int rows() const { return columns > 0 ? static_cast<int>(values.size()) / columns : 0; }
};

// The features of one config of `templ` on `dag` (the template's space `space`).
ConfigFeatures configFeatures(XgbFeature feature, const Template& templ, const ir::ComputeDAG& dag,
    const ConfigSpace& space, int64_t index, const target::Target& target = target::Target::host());
// TVM's get_flatten_feature for a config's knobs (one row).
std::vector<float> knobFeatures(const ConfigSpace& space, int64_t index);

// TVM's submodular_pick: n indices of `candidates`, greedily the one adding the most score plus knobWeight per
// knob value not yet picked. Returns positions into candidates.
std::vector<size_t> submodularPick(
    const std::vector<double>& scores, const std::vector<std::vector<size_t>>& knobs, int numPick, double knobWeight);

// A measured program of another task, for transfer learning: its program features and GFLOP/s (0 failed).
struct HistorySample {
    ConfigFeatures features;
    double gflops = 0.0;
};

class XgbTuner final : public Tuner {
public:
    // templ, dag and space must outlive the tuner. pool (optional) computes features in parallel.
    XgbTuner(const Template& templ, const ir::ComputeDAG& dag, const ConfigSpace& space, uint64_t seed,
        XgbTunerOptions options = {}, target::Target target = target::Target::host(), ThreadPool* pool = nullptr);

    std::vector<int64_t> nextBatch(int batchSize) override;
    void update(const std::vector<int64_t>& indices, const std::vector<double>& flopsPerSecond) override;
    bool hasNext() const override { return static_cast<int64_t>(m_visited.size()) < m_space->size(); }

    // Transfer learning: fits the base model on earlier tasks' programs. Needs "program" features and at least
    // minSeedRecords samples with some success; otherwise an error says why and nothing changes.
    Expected<void> loadHistory(const std::vector<HistorySample>& samples);

    // The model's score for each index (after at least one fit; 0 before), base margin included.
    std::vector<double> predict(const std::vector<int64_t>& indices);
    int fits() const { return m_trainCount; }
    // Why the last refit failed ("" when it did not): the tuner then keeps its plan, and its caller decides.
    const std::string& fitError() const { return m_fitError; }
    bool hasBaseModel() const { return m_base.has_value(); }
    // The last plan (best first), for tests and the teaching views.
    const std::vector<int64_t>& plan() const { return m_trials; }
    const XgbTunerOptions& options() const { return m_options; }

private:
    const ConfigFeatures& features(int64_t index);
    void computeFeatures(const std::vector<int64_t>& indices);
    cost::PackedMatrix matrix(const std::vector<int64_t>& indices);
    Expected<void> fit();
    int64_t randomUnvisited();
    double discount() const;

    const Template* m_template;
    const ir::ComputeDAG* m_dag;
    const ConfigSpace* m_space;
    XgbTunerOptions m_options;
    target::Target m_target;
    ThreadPool* m_pool;
    Rng m_rng;
    SimulatedAnnealingOptimizer m_sa;
    cost::PackSumBooster m_model;
    std::optional<cost::PackSumBooster> m_base;
    std::unordered_map<int64_t, ConfigFeatures> m_features;
    std::unordered_set<int64_t> m_visited;
    std::vector<int64_t> m_xs; // measured indices, in order
    std::vector<double> m_ys; // their GFLOP/s
    std::vector<int64_t> m_trials; // the plan
    size_t m_trialPt = 0;
    int m_trainCount = 0;
    double m_flopsMax = 0.0;
    std::string m_fitError;
};

} // namespace ts::autotvm
