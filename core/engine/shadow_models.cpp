#include "core/engine/shadow_models.h"

#include "core/cost/analytical_model.h"
#include "core/store/metrics.h"
#include "core/support/assert.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <set>

namespace ts::engine {

namespace {
    using Clock = std::chrono::steady_clock;

    double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

    // A measured cost that carries a label: the rule of store/dataset.h (successful, positive, finite, below
    // the failure cost), so that the metrics are compare-models' on the same records.
    bool labelled(const record::MeasureResult& r)
    {
        if (!r.ok())
            return false;
        const double cost = r.meanCost();
        return std::isfinite(cost) && cost > 0.0 && cost < record::kFailedCost;
    }
} // namespace

// One shadow model, or what stopped it.
struct ShadowModels::Shadow {
    std::string kind;
    std::unique_ptr<cost::CostModel> model;
    std::string failure; // set: stopped; the model is no longer called
};

ShadowModels::ShadowModels(std::vector<Shadow> shadows)
    : m_shadows(std::move(shadows))
{
}

ShadowModels::ShadowModels(ShadowModels&&) noexcept = default;
ShadowModels& ShadowModels::operator=(ShadowModels&&) noexcept = default;
ShadowModels::~ShadowModels() = default;

Expected<ShadowModels> ShadowModels::make(
    std::vector<std::string> kinds, uint64_t seed, const cost::MachineLimits& machine, int warmupSamples)
{
    std::vector<Shadow> shadows;
    std::set<std::string> seen;
    for (std::string& kind : kinds) {
        if (!seen.insert(kind).second)
            return makeError(ErrorKind::InvalidArgument, "shadow model \"" + kind + "\" is listed twice");
        auto made = cost::makeCostModel(kind, seed);
        if (!made)
            return makeError(made.error().kind, "shadow models: " + made.error().message);
        std::unique_ptr<cost::CostModel> model = std::move(made).value();
        // As the session treats its own model (tuning_session.cpp): the analytical estimate uses the machine's
        // figures, and a learned model warms up for as many records as the session's does.
        if (auto* analytical = dynamic_cast<cost::AnalyticalCostModel*>(model.get()))
            analytical->setLimits(machine);
        model->setWarmupSamples(warmupSamples);
        shadows.push_back(Shadow { std::move(kind), std::move(model), {} });
    }
    return ShadowModels(std::move(shadows));
}

std::vector<std::string> ShadowModels::kinds() const
{
    std::vector<std::string> out;
    for (const Shadow& s : m_shadows)
        out.push_back(s.kind);
    return out;
}

namespace {
    // Runs one call of a shadow model; an exception (LibTorch's, std's, an internal error in release) becomes
    // the message that stops the model, never the session's end.
    template <typename Call> std::string guarded(Call&& call)
    {
        try {
            return call();
        } catch (const std::exception& e) {
            return std::string("exception: ") + e.what();
        } catch (...) {
            return "exception of an unknown type";
        }
    }

    std::string updateModel(cost::CostModel& model, const cost::CostTask& task, std::span<const sched::State> states,
        std::span<const record::MeasureResult> results)
    {
        return guarded([&]() -> std::string {
            auto updated = model.update(task, states, results);
            return updated ? std::string() : updated.error().message;
        });
    }
} // namespace

void ShadowModels::learn(
    const cost::CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    TS_ASSERT(states.size() == results.size()) << states.size() << " states but " << results.size() << " results";
    for (Shadow& s : m_shadows) {
        if (!s.failure.empty())
            continue;
        if (std::string error = updateModel(*s.model, task, states, results); !error.empty())
            s.failure = "learning the stored records: " + error;
    }
}

std::vector<ShadowMetrics> ShadowModels::round(int round, int task, const cost::CostTask& costTask,
    std::span<const sched::State> states, std::span<const record::MeasureResult> results,
    std::span<const double> sessionScores, const std::string& sessionKind)
{
    TS_ASSERT(states.size() == results.size()) << states.size() << " states but " << results.size() << " results";
    TS_ASSERT(sessionScores.empty() || sessionScores.size() == states.size())
        << sessionScores.size() << " session scores for " << states.size() << " states";
    std::vector<ShadowMetrics> lines;
    if (!sessionScores.empty()) {
        ShadowMetrics line = shadowMetricsOf(sessionScores, results);
        line.kind = sessionKind;
        line.session = true;
        lines.push_back(std::move(line));
    }
    for (Shadow& s : m_shadows) {
        ShadowMetrics line;
        if (s.failure.empty()) {
            const auto start = Clock::now();
            // Scored first, on the model as it was before this round: the session's model ranked the round with
            // no more than that. (A learned model in its warm-up scores at random here.)
            std::vector<double> scores;
            std::string error = guarded([&]() -> std::string {
                scores = s.model->predict(costTask, states);
                if (scores.size() != states.size())
                    return "predict gave " + std::to_string(scores.size()) + " scores for "
                        + std::to_string(states.size()) + " states";
                return {};
            });
            if (error.empty()) {
                line = shadowMetricsOf(scores, results);
                error = updateModel(*s.model, costTask, states, results);
            }
            line.seconds = secondsSince(start);
            if (!error.empty())
                s.failure = "round " + std::to_string(round) + ": " + error;
        }
        line.kind = s.kind;
        if (!s.failure.empty()) { // failed now or before: no metrics, whatever part of them was computed
            line.samples = 0;
            line.pairwiseAccuracy = 0.0;
            line.spearman = 0.0;
            line.error = s.failure;
        }
        lines.push_back(std::move(line));
    }
    for (ShadowMetrics& line : lines) {
        line.round = round;
        line.task = task;
    }
    m_history.insert(m_history.end(), lines.begin(), lines.end());
    return lines;
}

std::vector<ShadowSummary> ShadowModels::summary() const { return summarize(m_history); }

std::vector<ShadowSummary> summarize(std::span<const ShadowMetrics> lines)
{
    std::vector<ShadowSummary> out;
    for (const ShadowMetrics& line : lines) {
        auto it = std::find_if(out.begin(), out.end(),
            [&](const ShadowSummary& s) { return s.kind == line.kind && s.session == line.session; });
        if (it == out.end())
            it = out.insert(out.end(), ShadowSummary { line.kind, line.session, 0, 0.0, 0.0, {} });
        if (!line.error.empty()) {
            it->error = line.error;
            continue;
        }
        if (line.samples < 2)
            continue;
        ++it->rounds;
        it->meanPairwiseAccuracy += line.pairwiseAccuracy;
        it->meanSpearman += line.spearman;
    }
    for (ShadowSummary& s : out)
        if (s.rounds > 0) {
            s.meanPairwiseAccuracy /= s.rounds;
            s.meanSpearman /= s.rounds;
        }
    return out;
}

ShadowMetrics shadowMetricsOf(std::span<const double> scores, std::span<const record::MeasureResult> results)
{
    TS_ASSERT(scores.size() == results.size()) << scores.size() << " scores for " << results.size() << " results";
    double best = std::numeric_limits<double>::infinity();
    for (const record::MeasureResult& r : results)
        if (labelled(r))
            best = std::min(best, r.meanCost());
    std::vector<double> predictions, labels;
    for (size_t i = 0; i < results.size(); ++i) {
        if (!labelled(results[i]))
            continue;
        predictions.push_back(std::isfinite(scores[i]) ? scores[i] : 0.0); // as evaluateOnDataset
        labels.push_back(best / results[i].meanCost());
    }
    ShadowMetrics out;
    out.samples = static_cast<int>(labels.size());
    out.pairwiseAccuracy = store::pairwiseAccuracy(predictions, labels);
    out.spearman = store::spearman(predictions, labels);
    return out;
}

std::string shadowMetricsToJson(std::span<const ShadowMetrics> lines)
{
    nlohmann::json out = nlohmann::json::array();
    for (const ShadowMetrics& m : lines) {
        nlohmann::json line { { "kind", m.kind }, { "session", m.session }, { "round", m.round }, { "task", m.task },
            { "samples", m.samples }, { "pairwise_accuracy", m.pairwiseAccuracy }, { "spearman", m.spearman },
            { "seconds", m.seconds } };
        if (!m.error.empty())
            line["error"] = m.error;
        out.push_back(std::move(line));
    }
    return out.dump();
}

Expected<std::vector<ShadowMetrics>> shadowMetricsFromJson(const std::string& text)
{
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_array())
        return makeError(ErrorKind::Parse, "shadow model metrics: expected a JSON array, got: " + text.substr(0, 80));
    std::vector<ShadowMetrics> out;
    for (size_t i = 0; i < json.size(); ++i) {
        const nlohmann::json& m = json[i];
        if (!m.is_object() || !m.contains("kind") || !m["kind"].is_string())
            return makeError(ErrorKind::Parse,
                "shadow model metrics: entry " + std::to_string(i) + " is not an object with a \"kind\": " + m.dump());
        try {
            out.push_back(ShadowMetrics { m["kind"].get<std::string>(), m.value("session", false), m.value("round", 0),
                m.value("task", 0), m.value("samples", 0), m.value("pairwise_accuracy", 0.0), m.value("spearman", 0.0),
                m.value("seconds", 0.0), m.value("error", std::string()) });
        } catch (const nlohmann::json::exception& e) { // a member of the wrong type
            return makeError(
                ErrorKind::Parse, "shadow model metrics: entry " + std::to_string(i) + ": " + std::string(e.what()));
        }
    }
    return out;
}

} // namespace ts::engine
