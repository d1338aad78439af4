#include "core/cost/xgb_model.h"

#include "core/cost/byte_io.h"
#include "core/support/thread_pool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace ts::cost {

namespace {
    constexpr char kMagic[8] = { 'T', 'S', 'X', 'G', 'B', 'M', '0', '1' };
    constexpr double kNegInf = -std::numeric_limits<double>::infinity();

    // The rows of the programs that have some, packed; `present[i]` says whether program i is in it.
    PackedMatrix pack(std::span<const Expected<features::ProgramFeatures>> programs, std::vector<bool>& present)
    {
        PackedMatrix m;
        m.columns = features::kPerStoreFeatures;
        present.assign(programs.size(), false);
        for (size_t i = 0; i < programs.size(); ++i) {
            if (!programs[i] || programs[i]->rows() == 0)
                continue;
            present[i] = true;
            m.values.insert(m.values.end(), programs[i]->values.begin(), programs[i]->values.end());
            m.groupSizes.push_back(programs[i]->rows());
        }
        return m;
    }
} // namespace

XgbCostModel::XgbCostModel(uint64_t seed, XgbModelSettings settings)
    : m_settings(std::move(settings))
    , m_rng(seed)
    , m_booster(m_settings.booster)
{
}

XgbCostModel::~XgbCostModel() = default;

std::string XgbCostModel::settings() const
{
    nlohmann::json j = nlohmann::json::parse(m_settings.booster.toJson());
    j["num_warmup_sample"] = m_settings.numWarmupSample;
    j["adaptive_training"] = m_settings.adaptiveTraining;
    j["features"] = "ansor-per-store-164";
    return j.dump();
}

ThreadPool& XgbCostModel::pool()
{
    if (!m_pool)
        m_pool = std::make_unique<ThreadPool>(std::max(1, m_settings.booster.nthread));
    return *m_pool;
}

std::string XgbCostModel::trainingSummary() const
{
    if (!m_booster.trained())
        return "{}";
    return nlohmann::json {
        { "samples", m_lastTrainSize }, { "rounds", m_lastStats.rounds }, { "best_round", m_lastStats.bestRound },
        { "tr_p_rmse", m_lastStats.bestRmse }, { "seconds", m_lastStats.seconds }
    }.dump();
}

void XgbCostModel::add(
    const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    auto extracted = features::perStoreFeatures(states, task.target, &pool());
    std::vector<Sample>& samples = m_samples[task.key];
    for (size_t i = 0; i < states.size(); ++i) {
        ++m_seen;
        if (!extracted[i] || extracted[i]->rows() == 0)
            continue; // Ansor drops what it cannot featurize
        const double cost = results[i].ok() ? results[i].meanCost() : std::numeric_limits<double>::infinity();
        samples.push_back({ std::move(extracted[i]).value(), cost });
        ++m_held;
    }
}

Expected<void> XgbCostModel::update(
    const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    if (states.size() != results.size())
        return makeError(ErrorKind::InvalidArgument,
            "update: " + std::to_string(states.size()) + " states but " + std::to_string(results.size()) + " results");
    if (states.empty())
        return {};
    add(task, states, results);
    if (m_settings.adaptiveTraining && m_lastTrainSize > 0 && m_held - m_lastTrainSize < m_lastTrainSize / 5)
        return {};
    TS_CHECK(train());
    return {};
}

Expected<void> XgbCostModel::fit(std::span<const Batch> batches)
{
    for (const Batch& b : batches) {
        if (b.states.size() != b.results.size())
            return makeError(ErrorKind::InvalidArgument,
                "fit: a batch of " + std::to_string(b.states.size()) + " states has " + std::to_string(b.results.size())
                    + " results");
        add(b.task, b.states, b.results);
    }
    TS_CHECK(train());
    return {};
}

Expected<PackSumTrainStats> XgbCostModel::train()
{
    PackedMatrix data;
    data.columns = features::kPerStoreFeatures;
    std::vector<float> labels;
    int taskIndex = 0;
    for (const auto& [key, samples] : m_samples) {
        ++taskIndex;
        double best = std::numeric_limits<double>::infinity();
        for (const Sample& s : samples)
            best = std::min(best, s.cost);
        for (const Sample& s : samples) {
            data.values.insert(data.values.end(), s.features.values.begin(), s.features.values.end());
            data.groupSizes.push_back(s.features.rows());
            data.tasks.push_back(taskIndex);
            labels.push_back(std::isfinite(best) && std::isfinite(s.cost) ? static_cast<float>(best / s.cost) : 0.0f);
        }
    }
    if (labels.empty())
        return makeError(ErrorKind::InvalidArgument, "xgb: nothing to train on (no state could be featurized)");
    m_lastTrainSize = m_held;
    TS_TRY(m_lastStats, m_booster.train(data, labels));
    return m_lastStats;
}

bool XgbCostModel::warmingUp() const
{
    // A model loaded with a trained booster (a pre-trained model) is warm whatever it has seen since.
    return !(m_booster.trained() && (m_seen > m_settings.numWarmupSample || m_loadedTrained));
}

std::vector<double> XgbCostModel::predict(const CostTask& task, std::span<const sched::State> states)
{
    std::vector<double> scores(states.size(), kNegInf);
    if (states.empty())
        return scores;
    const bool warm = !warmingUp();
    auto extracted = features::perStoreFeatures(states, task.target, &pool());
    std::vector<bool> present;
    const PackedMatrix data = pack(extracted, present);
    std::vector<float> predicted;
    if (warm && !data.groupSizes.empty()) {
        if (auto p = m_booster.predict(data))
            predicted = std::move(p).value();
    }
    size_t k = 0;
    for (size_t i = 0; i < states.size(); ++i) {
        const double random = m_rng.uniform(); // drawn for every state, so warm-up scores do not depend on lowering
        if (!present[i])
            continue;
        scores[i] = predicted.empty() ? random : static_cast<double>(predicted[k]);
        ++k;
    }
    return scores;
}

std::vector<std::vector<double>> XgbCostModel::predictStages(const CostTask& task, std::span<const sched::State> states)
{
    std::vector<std::vector<double>> out(states.size());
    if (!m_booster.trained() || states.empty())
        return out;
    auto extracted = features::perStoreFeatures(states, task.target, &pool());
    std::vector<bool> present;
    const PackedMatrix data = pack(extracted, present);
    if (data.groupSizes.empty())
        return out;
    auto rows = m_booster.predictRows(data);
    if (!rows)
        return out;
    size_t at = 0;
    size_t program = 0;
    for (size_t i = 0; i < states.size(); ++i) {
        if (!present[i])
            continue;
        const int n = data.groupSizes[program++];
        out[i].assign(rows->begin() + static_cast<ptrdiff_t>(at), rows->begin() + static_cast<ptrdiff_t>(at + n));
        at += static_cast<size_t>(n);
    }
    return out;
}

Expected<std::vector<uint8_t>> XgbCostModel::save() const
{
    std::vector<uint8_t> out(std::begin(kMagic), std::end(kMagic));
    le::put(out, static_cast<uint64_t>(m_seen));
    le::put(out, static_cast<uint64_t>(m_lastTrainSize));
    for (uint64_t word : m_rng.state())
        le::put(out, word);
    out.push_back(m_booster.trained() ? 1 : 0);
    if (m_booster.trained()) {
        TS_TRY(std::vector<uint8_t> booster, m_booster.save());
        out.insert(out.end(), booster.begin(), booster.end());
    }
    return out;
}

Expected<void> XgbCostModel::load(std::span<const uint8_t> bytes)
{
    constexpr size_t kHeader = sizeof kMagic + 6 * 8 + 1; // magic, seen, last training, Rng (4 words), trained
    if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return makeError(ErrorKind::Parse,
            "not a TuneScope xgb cost model (" + std::to_string(bytes.size()) + " bytes, bad header)");
    const bool trained = bytes[kHeader - 1] != 0;
    if (bytes[kHeader - 1] > 1 || (!trained && bytes.size() != kHeader))
        return makeError(ErrorKind::Parse, "xgb cost model: corrupt header");
    PackSumBooster booster(m_settings.booster);
    if (trained)
        TS_CHECK(booster.load(bytes.subspan(kHeader)));
    m_seen = static_cast<int64_t>(le::get(bytes, 8));
    m_lastTrainSize = static_cast<int64_t>(le::get(bytes, 16));
    m_rng.setState({ le::get(bytes, 24), le::get(bytes, 32), le::get(bytes, 40), le::get(bytes, 48) });
    m_booster = std::move(booster);
    m_loadedTrained = trained;
    return {};
}

} // namespace ts::cost
