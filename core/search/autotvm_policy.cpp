#include "core/search/autotvm_policy.h"

#include "core/features/per_store_features.h"
#include "core/search/autotvm/ga_tuner.h"
#include "core/search/autotvm/index_based_tuner.h"
#include "core/search/autotvm/xgb_tuner.h"
#include "core/search/search_utils.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace ts::search {

namespace {
    using Clock = std::chrono::steady_clock;

    // The preferred template that fits the DAG, or why none does.
    Expected<const autotvm::Template*> pickTemplate(const ir::ComputeDAG& dag)
    {
        const std::vector<const autotvm::Template*> fitting = autotvm::templatesFor(dag);
        if (!fitting.empty())
            return fitting.front();
        std::string tried;
        for (const autotvm::Template& t : autotvm::templates())
            if (auto space = t.space(dag); !space)
                tried += (tried.empty() ? "" : "; ") + space.error().message;
        return makeError(ErrorKind::Unsupported, "no AutoTVM template fits this task (" + tried + ")");
    }

    Expected<std::unique_ptr<autotvm::Tuner>> makeTuner(PolicyKind kind, const autotvm::Template& templ,
        const SearchTask& task, const autotvm::ConfigSpace& space, uint64_t seed, ThreadPool* pool)
    {
        switch (kind) {
        case PolicyKind::AutotvmXgb:
            return std::unique_ptr<autotvm::Tuner>(std::make_unique<autotvm::XgbTuner>(
                templ, task.dag, space, seed, autotvm::XgbTunerOptions {}, task.target, pool));
        case PolicyKind::AutotvmGrid:
            return std::unique_ptr<autotvm::Tuner>(std::make_unique<autotvm::GridSearchTuner>(space));
        case PolicyKind::AutotvmRandom:
            return std::unique_ptr<autotvm::Tuner>(std::make_unique<autotvm::RandomTuner>(space, seed));
        case PolicyKind::AutotvmGa:
            return std::unique_ptr<autotvm::Tuner>(std::make_unique<autotvm::GATuner>(space, seed));
        default:
            return makeError(ErrorKind::Unsupported, std::string("no AutoTVM tuner for policy ") + toString(kind));
        }
    }
} // namespace

AutotvmPolicy::AutotvmPolicy(
    PolicyKind kind, SearchTask task, const autotvm::Template& templ, autotvm::ConfigSpace space, std::string args)
    : m_kind(kind)
    , m_task(std::move(task))
    , m_template(&templ)
    , m_space(std::move(space))
    , m_args(std::move(args))
{
    m_costTask = cost::CostTask { &m_task.dag, m_task.dag.workloadKey(), m_task.flops, m_task.target };
}

Expected<std::unique_ptr<AutotvmPolicy>> AutotvmPolicy::make(PolicyKind kind, PolicyContext context)
{
    if (!isAutotvm(kind))
        return makeError(ErrorKind::InvalidArgument, std::string(toString(kind)) + " is not an AutoTVM policy");
    TS_TRY(const autotvm::Template* templ, pickTemplate(context.task.dag));
    TS_TRY(autotvm::ConfigSpace space, templ->space(context.task.dag));
    TS_TRY(std::string args, autotvm::taskArgs(*templ, context.task.dag));
    std::unique_ptr<AutotvmPolicy> policy(
        new AutotvmPolicy(kind, std::move(context.task), *templ, std::move(space), std::move(args)));
    TS_TRY(policy->m_tuner,
        makeTuner(kind, *policy->m_template, policy->m_task, policy->m_space, context.seed, context.pool));
    return policy;
}

Candidate AutotvmPolicy::candidate(int64_t index) const
{
    Candidate c { sched::State::initial(m_task.dag), 0.0, false, {}, {} };
    nlohmann::json autotvm { { "template", m_template->name },
        { "args", nlohmann::json::parse(m_args, nullptr, false) },
        { "config", nlohmann::json::parse(m_space.configJson(index), nullptr, false) } };
    c.extra = nlohmann::json { { "autotvm", std::move(autotvm) } }.dump();
    auto instance = autotvm::instantiate(*m_template, m_task.dag, m_space, index);
    if (!instance) {
        c.instantiationError = instance.error().message;
        return c;
    }
    auto state = sched::State::replay(instance->dag, instance->steps);
    if (!state) {
        c.instantiationError = "instantiation error: " + m_template->name + ": " + state.error().message;
        return c;
    }
    c.state = std::move(state).value();
    return c;
}

Expected<std::vector<Candidate>> AutotvmPolicy::searchOneRound(int numMeasures, std::stop_token stop)
{
    m_stats = RoundStats {};
    // A model that cannot be fit fails the session, as a cost model's failed update does for Ansor, rather than
    // leaving the tuner to propose at random unnoticed.
    if (const auto* xgb = dynamic_cast<const autotvm::XgbTuner*>(m_tuner.get()); xgb && !xgb->fitError().empty())
        return makeError(ErrorKind::Internal, "the XGBoost tuner's model: " + xgb->fitError());
    const auto start = Clock::now();
    std::vector<Candidate> out;
    // A tuner may propose an index an earlier session measured: it is told that record's figure at once and
    // asked again, so that resume never measures a config twice. A tuner that has nothing to give before it
    // hears back (the GA between generations) ends the round short.
    while (static_cast<int>(out.size()) < numMeasures && m_tuner->hasNext() && !stop.stop_requested()) {
        const std::vector<int64_t> batch = m_tuner->nextBatch(numMeasures - static_cast<int>(out.size()));
        if (batch.empty())
            break;
        std::vector<int64_t> known;
        std::vector<double> knownFlops;
        for (int64_t index : batch) {
            ++m_stats.sampled;
            if (auto it = m_restored.find(index); it != m_restored.end()) {
                known.push_back(index);
                knownFlops.push_back(it->second);
                continue;
            }
            if (!m_measured.insert(index).second)
                continue;
            ++m_stats.valid;
            out.push_back(candidate(index));
        }
        if (!known.empty())
            m_tuner->update(known, knownFlops);
    }
    // The XGBoost tuner's own prediction of what it proposes, once its model is fit; its random picks (not in
    // the plan) are marked as such.
    if (auto* xgb = dynamic_cast<autotvm::XgbTuner*>(m_tuner.get()); xgb != nullptr && !out.empty()) {
        std::vector<int64_t> indices;
        for (const Candidate& c : out)
            indices.push_back(configIndexOf(c.extra));
        if (xgb->fits() > 0 || xgb->hasBaseModel()) {
            const std::vector<double> scores = xgb->predict(indices);
            const std::vector<int64_t>& plan = xgb->plan();
            for (size_t i = 0; i < out.size(); ++i) {
                out[i].score = scores[i];
                out[i].random = std::find(plan.begin(), plan.end(), indices[i]) == plan.end();
            }
            m_stats.predicted = static_cast<int>(out.size());
        } else {
            for (Candidate& c : out)
                c.random = true;
        }
    }
    m_stats.sampleSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return out;
}

void AutotvmPolicy::learnFromOtherTasks(std::span<const sched::State> states, std::span<const double> gflops)
{
    auto* xgb = dynamic_cast<autotvm::XgbTuner*>(m_tuner.get());
    if (xgb == nullptr || static_cast<int>(states.size()) < xgb->options().minSeedRecords)
        return;
    std::vector<autotvm::HistorySample> samples;
    samples.reserve(states.size());
    for (size_t i = 0; i < states.size() && i < gflops.size(); ++i) {
        autotvm::HistorySample sample;
        sample.features.columns = features::kPerStoreFeatures;
        if (auto program = features::perStoreFeatures(states[i], m_task.target))
            sample.features.values = std::move(program->values);
        sample.gflops = gflops[i];
        samples.push_back(std::move(sample));
    }
    (void)xgb->loadHistory(samples); // too few successes: tuned without transfer, as TVM
}

double AutotvmPolicy::gflops(const record::MeasureResult& result) const
{
    return result.ok() && result.meanCost() > 0.0 ? m_task.flops / result.meanCost() / 1e9 : 0.0;
}

void AutotvmPolicy::recordMeasured(
    std::span<const Candidate> candidates, std::span<const record::MeasureResult> results)
{
    std::vector<int64_t> indices;
    std::vector<double> flops;
    for (size_t i = 0; i < candidates.size() && i < results.size(); ++i) {
        const int64_t index = configIndexOf(candidates[i].extra);
        if (index < 0)
            continue;
        indices.push_back(index);
        flops.push_back(gflops(results[i]));
    }
    if (!indices.empty())
        m_tuner->update(indices, flops);
}

int64_t AutotvmPolicy::configIndexOf(std::string_view extra)
{
    const nlohmann::json j = nlohmann::json::parse(extra, nullptr, false);
    if (!j.is_object() || !j.contains("autotvm"))
        return -1;
    const nlohmann::json& config = j["autotvm"].value("config", nlohmann::json::object());
    const auto index = config.find("index");
    return index != config.end() && index->is_number_integer() ? index->get<int64_t>() : -1;
}

bool AutotvmPolicy::owns(std::string_view extra) const
{
    const nlohmann::json j = nlohmann::json::parse(extra, nullptr, false);
    return j.is_object() && j.contains("autotvm") && j["autotvm"].is_object()
        && j["autotvm"].value("template", "") == m_template->name;
}

bool AutotvmPolicy::restoreMeasured(uint64_t, const sched::State*, double meanCost, std::string_view extra)
{
    if (!owns(extra))
        return false;
    const nlohmann::json j = nlohmann::json::parse(extra, nullptr, false);
    // The index is read back from the entity (the space's own encoding), not trusted from the record.
    const nlohmann::json& config = j["autotvm"].value("config", nlohmann::json::object());
    if (!config.contains("entity"))
        return false;
    auto index = m_space.parseEntity(config["entity"].dump());
    if (!index)
        return false; // a config of another space (another shape): not this task's
    m_measured.insert(*index);
    const bool ok = meanCost > 0.0 && meanCost < record::kFailedCost;
    m_restored[*index] = ok ? m_task.flops / meanCost / 1e9 : 0.0;
    return true;
}

Expected<SpaceSize> AutotvmPolicy::spaceSize()
{
    SpaceSize size;
    size.configs = static_cast<double>(m_space.size());
    size.text = std::to_string(m_space.size()) + " configs (" + m_template->name + ", "
        + std::to_string(m_space.numKnobs()) + " knobs)";
    return size;
}

std::string AutotvmPolicy::describe() const
{
    std::string knobs;
    for (const autotvm::Knob& k : m_space.knobs())
        knobs += (knobs.empty() ? "" : ", ") + k.name() + " (" + std::to_string(k.size()) + ")";
    std::string tuner;
    switch (m_kind) {
    case PolicyKind::AutotvmGrid:
        tuner = "grid search: configs in index order";
        break;
    case PolicyKind::AutotvmRandom:
        tuner = "random search: configs drawn uniformly without repetition";
        break;
    case PolicyKind::AutotvmGa:
        tuner = "genetic algorithm over knob indices (roulette on measured GFLOP/s, single-point crossover, "
                "mutation 0.1, 3 elites)";
        break;
    default:
        tuner = "XGBoost cost model over config features, simulated annealing picks the next 64 configs "
                "(5% random)";
        break;
    }
    return tuner + " over template " + m_template->name + "'s knobs " + knobs;
}

} // namespace ts::search
