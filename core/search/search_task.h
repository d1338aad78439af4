// What a search works on and with: the task (a compute DAG, the target it is tuned for) and Ansor's search
// parameters, with the defaults of TVM's auto_scheduler (python/tvm/auto_scheduler/search_policy.py,
// ../shared/reference/tuning-systems.md 1.3.4). Every deviation from Ansor is a field here, named and
// documented in docs/search.md.
#pragma once

#include "core/cost/machine_limits.h"
#include "core/ir/compute_dag.h"
#include "core/target/target.h"

#include <string>
#include <vector>

namespace ts::search {

struct SearchTask {
    ir::ComputeDAG dag;
    target::Target target = target::Target::host();
    std::string name; // for people: "matmul", "conv2d_nhwc_bias_add_relu"
    double flops = 0.0; // of one run (dag.flopCount() unless the caller knows better)
    // The measurements pack constant weights into the loops' order (layout rewrite 1 or 2, CPU): a vector loop over
    // a weight's axis then reads it contiguously, whatever its layout (see initWeightAxisInnermost).
    bool packsWeights = false;

    // Threads parallel loops may use: the target's cores, or this machine's when the target does not say.
    int cores() const;
    // fp32 lanes in the target's widest vector register.
    int vectorLanes() const { return static_cast<int>(target.vectorBytes / 4); }
};

// The mutation rules' weights (Ansor's CPU weights).
struct MutationWeights {
    double tileSize = 0.90;
    double autoUnroll = 0.04;
    double computeLocation = 0.05;
    double parallel = 0.01;
};

struct SearchParams {
    // --- sketches
    std::string cpuTilingStructure = "SSRSRS";
    // GPU: the first three S levels become blockIdx, vthread and threadIdx (InitThreadBind).
    std::string gpuTilingStructure = "SSSRRSRS";
    // --- random annotation (initial population)
    int maxInnermostSplitFactor = 64;
    int maxVectorizeSize = 16;
    // TuneScope's rule (not Ansor's): where weights are packed, a compute_at tile may move its weight's axis
    // innermost for vectorize (initWeightAxisInnermost, docs/search.md). False: Ansor's rules alone.
    bool weightAxisInnermost = true;
    std::vector<int> unrollMaxSteps { 0, 16, 64, 512 };
    std::vector<int> gpuUnrollMaxSteps { 0, 16, 64, 512, 1024 };
    bool disableChangeComputeLocation = false;
    // --- evolutionary search
    int population = 2048;
    int numIters = 4;
    double mutationProb = 0.85;
    MutationWeights mutationWeights;
    // On GPU targets (Ansor's GPU weights): tile sizes and unroll only.
    MutationWeights gpuMutationWeights { 0.90, 0.10, 0.0, 0.0 };
    // Node-based crossover (the paper's, never in upstream TVM): the probability that a new individual is
    // the crossover of two parents rather than a mutation or a copy. 0 (off) as in TVM.
    double crossoverProb = 0.0;
    int sampleInitMinPopulation = 50;
    double sampleInitUseMeasuredRatio = 0.2;
    double epsGreedy = 0.05;
    // The analytical pre-filter (Pruner's draft-then-verify; never in Ansor): the fraction of each population
    // the cost model scores, the best by the analytical estimate (AnalyticalCostModel); the rest are dropped.
    // 1: off, as Ansor.
    double prefilterKeep = 1.0;
    // TuneScope's (not Ansor's): while the learned model warms up (CostModel::warmingUp: Ansor's
    // num_warmup_sample, tasks x measures per round in a session, when its scores are random), the analytical
    // estimate ranks the population instead. False: random scores, as Ansor. Models that learn nothing
    // (random, analytical) are unaffected.
    bool analyticalWarmup = true;
    // In that warm-up, the share of each batch drawn at random from the initial population (eps-greedy's picks,
    // epsGreedy after it): the estimate is a prior, right on some kinds of task (depthwise convolutions) and
    // wrong on others (some 1x1 convolutions), so half the first round stays Ansor's random draw.
    double warmupRandomShare = 0.5;
    // The figures the analytical estimate uses (the warm-up's and the pre-filter's): the defaults, or the
    // workspace's measured profile of the machine (a session sets them, engine::limitsOf).
    cost::MachineLimits machine;
    int retrySearchOneRoundOnEmpty = 10;
    // TuneScope's (not Ansor's): the best states other tasks of the same kind measured (the same operators
    // fused, other shapes) join each round's initial population, their splits refit to this task's extents
    // (transplant). How many, at most; 0: off, as Ansor, whose tasks share only the cost model.
    int similarTaskSeeds = 16;
};

// The auto_unroll_max_step values for the target: gpuUnrollMaxSteps on a GPU, else unrollMaxSteps.
const std::vector<int>& unrollChoices(const SearchParams& params, const target::Target& target);
// The parameters as a policy for `target` holds them: on a GPU, gpuUnrollMaxSteps and gpuMutationWeights take
// the place of the CPU's (SketchPolicy does this once; the rules ask unrollChoices).
SearchParams forTarget(SearchParams params, const target::Target& target);

} // namespace ts::search
