// AutoTVM as a session's per-task policy (task_policy.h): a template (core/search/autotvm/template.h) declares
// its config space for the task's DAG, one of AutoTVM's tuners (grid, random, GA, XGBoost + simulated
// annealing) proposes config indices, and each index becomes a candidate: the template's steps replayed on
// the DAG, so that it lowers, compiles and is measured exactly as an Ansor state is. A config the template
// cannot instantiate is a candidate with an instantiation error (status 1, never run).
//
// Each candidate's record carries its config in `extra`, as TVM's log has it:
//   "autotvm": {"template": "conv2d_NCHWc.x86", "args": [...TVM's task args...],
//               "config": {"index": 172, "code_hash": null, "entity": [...]}}
// from which `tunescope-cli export` writes AutoTVM v0.2 lines and resume finds the indices already measured.
//
// The tuner learns from GFLOP/s (flops / mean cost / 1e9; 0 for a failure), as AutoTVM's do. The session's cost
// model is not used (usesSessionModel() is false): the XGBoost tuner keeps its own.
#pragma once

#include "core/search/autotvm/config_space.h"
#include "core/search/autotvm/template.h"
#include "core/search/autotvm/tuner.h"
#include "core/search/task_policy.h"

#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace ts::search {

class AutotvmPolicy final : public TaskPolicy {
public:
    // Fails when no template fits the DAG (the message lists what was tried) or the tuner kind is not AutoTVM's.
    static Expected<std::unique_ptr<AutotvmPolicy>> make(PolicyKind kind, PolicyContext context);

    Expected<std::vector<Candidate>> searchOneRound(int numMeasures, std::stop_token stop = {}) override;
    void recordMeasured(std::span<const Candidate> candidates, std::span<const record::MeasureResult> results) override;
    bool restoreMeasured(uint64_t hash, const sched::State* state, double meanCost, std::string_view extra) override;
    bool owns(std::string_view extra) const override;
    // autotvm-xgb: fits the tuner's base model on the other tasks' programs (at least 500, TVM's
    // min_seed_records); fewer are ignored.
    void learnFromOtherTasks(std::span<const sched::State> states, std::span<const double> gflops) override;

    const SearchTask& task() const override { return m_task; }
    const cost::CostTask& costTask() const override { return m_costTask; }
    const RoundStats& lastRound() const override { return m_stats; }
    bool usesSessionModel() const override { return false; }
    Expected<SpaceSize> spaceSize() override;
    std::string describe() const override;

    const autotvm::Template& templ() const { return *m_template; }
    const autotvm::ConfigSpace& space() const { return m_space; }
    // The config index of a candidate this policy proposed (from its extra), or -1.
    static int64_t configIndexOf(std::string_view extra);

private:
    AutotvmPolicy(
        PolicyKind kind, SearchTask task, const autotvm::Template& templ, autotvm::ConfigSpace space, std::string args);
    Candidate candidate(int64_t index) const;
    double gflops(const record::MeasureResult& result) const;

    PolicyKind m_kind;
    SearchTask m_task;
    cost::CostTask m_costTask;
    const autotvm::Template* m_template;
    autotvm::ConfigSpace m_space;
    std::string m_args; // TVM's task args, JSON
    std::unique_ptr<autotvm::Tuner> m_tuner;
    std::unordered_set<int64_t> m_measured; // config indices measured (this session's and restored)
    std::unordered_map<int64_t, double> m_restored; // index -> GFLOP/s of an earlier session's record
    RoundStats m_stats;
};

} // namespace ts::search
