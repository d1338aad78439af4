#include "core/search/autotvm/xgb_tuner.h"

#include "core/features/per_store_features.h"
#include "core/schedule/state.h"
#include "core/support/thread_pool.h"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace ts::autotvm {

const char* toString(XgbFeature feature) { return feature == XgbFeature::Knob ? "knob" : "program"; }

namespace {
    // TVM's _ann_to_number (space.py).
    int annotationNumber(const std::string& ann)
    {
        static const char* const kNames[] = { "none", "vec", "unroll", "blockIdx.x", "blockIdx.y", "blockIdx.z",
            "threadIdx.x", "threadIdx.y", "threadIdx.z", "vthread", "fuse" };
        for (int i = 0; i < 11; ++i)
            if (ann == kNames[i])
                return i;
        return 0;
    }

    cost::PackSumSettings autotvmSettings(const XgbTunerOptions& o, uint64_t seed)
    {
        cost::PackSumSettings s;
        s.maxDepth = 3;
        s.gamma = 1e-4;
        s.minChildWeight = 1.0;
        s.eta = 0.3;
        s.seed = seed & 0x7FFFFFFFULL; // XGBoost's seed is a signed integer; sessions derive 64-bit seeds
        s.nthread = std::max(1, o.nthread);
        s.numBoostRound = 8000;
        s.earlyStoppingRounds = 20;
        s.evalEvery = 1;
        s.objective = o.loss == "reg" ? "pack-sum-mse" : "pack-sum-rank";
        s.baseScore = 0.0;
        return s;
    }
} // namespace

std::vector<float> knobFeatures(const ConfigSpace& space, int64_t index)
{
    std::vector<float> out;
    const std::vector<size_t> positions = space.knobIndexes(index);
    for (size_t k = 0; k < space.numKnobs(); ++k) {
        const KnobEntity& e = space.knob(k).entity(positions[k]);
        if (const auto* split = std::get_if<SplitEntity>(&e)) {
            for (int64_t v : split->size)
                out.push_back(static_cast<float>(v));
        } else if (const auto* reorder = std::get_if<ReorderEntity>(&e)) {
            for (int v : reorder->perm)
                out.push_back(static_cast<float>(v));
        } else if (const auto* annotate = std::get_if<AnnotateEntity>(&e)) {
            for (const std::string& ann : annotate->anns) {
                std::vector<float> oneHot(11, 0.0f);
                oneHot[static_cast<size_t>(annotationNumber(ann))] = 1.0f;
                out.insert(out.end(), oneHot.begin(), oneHot.end());
            }
        } else if (const auto* other = std::get_if<OtherEntity>(&e)) {
            // Numbers and booleans as TVM's val; anything else by its position among the candidates.
            if (other->json == "true" || other->json == "false")
                out.push_back(other->json == "true" ? 1.0f : 0.0f);
            else {
                char* end = nullptr;
                const double v = std::strtod(other->json.c_str(), &end);
                out.push_back(end != other->json.c_str() && *end == '\0' ? static_cast<float>(v)
                                                                         : static_cast<float>(positions[k]));
            }
        }
    }
    return out;
}

ConfigFeatures configFeatures(XgbFeature feature, const Template& templ, const ir::ComputeDAG& dag,
    const ConfigSpace& space, int64_t index, const target::Target& target)
{
    ConfigFeatures out;
    if (feature == XgbFeature::Knob) {
        out.values = knobFeatures(space, index);
        out.columns = static_cast<int>(out.values.size());
        return out;
    }
    out.columns = features::kPerStoreFeatures;
    auto instance = instantiate(templ, dag, space, index);
    if (!instance)
        return out;
    auto state = sched::State::replay(instance->dag, instance->steps);
    if (!state)
        return out;
    auto program = features::perStoreFeatures(*state, target);
    if (!program)
        return out;
    out.values = std::move(program->values);
    return out;
}

std::vector<size_t> submodularPick(
    const std::vector<double>& scores, const std::vector<std::vector<size_t>>& knobs, int numPick, double knobWeight)
{
    std::vector<size_t> picked;
    if (scores.empty())
        return picked;
    const size_t numKnobs = knobs.front().size();
    std::vector<std::unordered_set<size_t>> seen(numKnobs);
    std::vector<size_t> remain(scores.size());
    for (size_t i = 0; i < remain.size(); ++i)
        remain[i] = i;
    for (int n = 0; n < numPick && !remain.empty(); ++n) {
        size_t best = 0;
        double bestDelta = -1e9;
        for (size_t r = 0; r < remain.size(); ++r) {
            const size_t x = remain[r];
            double delta = scores[x];
            for (size_t k = 0; k < numKnobs; ++k)
                if (!seen[k].count(knobs[x][k]))
                    delta += knobWeight;
            if (delta > bestDelta) { // the first of equals wins, as TVM's strict '>'
                bestDelta = delta;
                best = r;
            }
        }
        const size_t x = remain[best];
        picked.push_back(x);
        remain.erase(remain.begin() + static_cast<std::ptrdiff_t>(best));
        for (size_t k = 0; k < numKnobs; ++k)
            seen[k].insert(knobs[x][k]);
    }
    return picked;
}

XgbTuner::XgbTuner(const Template& templ, const ir::ComputeDAG& dag, const ConfigSpace& space, uint64_t seed,
    XgbTunerOptions options, target::Target target, ThreadPool* pool)
    : m_template(&templ)
    , m_dag(&dag)
    , m_space(&space)
    , m_options(std::move(options))
    , m_target(std::move(target))
    , m_pool(pool)
    , m_rng(seed)
    , m_sa(space, seed ^ 0x5A5A5A5AULL, m_options.sa)
    , m_model(autotvmSettings(m_options, seed))
{
}

void XgbTuner::computeFeatures(const std::vector<int64_t>& indices)
{
    std::vector<int64_t> missing;
    for (int64_t i : indices)
        if (!m_features.count(i))
            missing.push_back(i);
    std::sort(missing.begin(), missing.end());
    missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
    if (missing.empty())
        return;
    std::vector<ConfigFeatures> computed(missing.size());
    const auto body = [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            computed[static_cast<size_t>(i)] = configFeatures(
                m_options.feature, *m_template, *m_dag, *m_space, missing[static_cast<size_t>(i)], m_target);
    };
    if (m_pool != nullptr && missing.size() > 1)
        m_pool->parallelFor(static_cast<int64_t>(missing.size()), body);
    else
        body(0, static_cast<int64_t>(missing.size()));
    for (size_t i = 0; i < missing.size(); ++i)
        m_features.emplace(missing[i], std::move(computed[i]));
}

const ConfigFeatures& XgbTuner::features(int64_t index)
{
    computeFeatures({ index });
    return m_features.at(index);
}

cost::PackedMatrix XgbTuner::matrix(const std::vector<int64_t>& indices)
{
    computeFeatures(indices);
    cost::PackedMatrix m;
    for (int64_t i : indices) {
        const ConfigFeatures& f = m_features.at(i);
        if (m.columns == 0 && f.columns > 0)
            m.columns = f.columns;
    }
    for (int64_t i : indices) {
        const ConfigFeatures& f = m_features.at(i);
        const int rows = f.columns == m.columns ? f.rows() : 0;
        m.groupSizes.push_back(rows);
        if (rows > 0)
            m.values.insert(m.values.end(), f.values.begin(), f.values.end());
    }
    return m;
}

double XgbTuner::discount() const { return 1.0 / std::pow(2.0, static_cast<double>(m_xs.size()) / 64.0); }

std::vector<double> XgbTuner::predict(const std::vector<int64_t>& indices)
{
    std::vector<double> out(indices.size(), 0.0);
    if (indices.empty() || (!m_model.trained() && !m_base))
        return out;
    const cost::PackedMatrix m = matrix(indices);
    if (m.columns == 0)
        return out;
    if (m_model.trained())
        if (auto p = m_model.predict(m))
            for (size_t i = 0; i < out.size(); ++i)
                out[i] = (*p)[i];
    if (m_base && m.columns == m_base->columns()) {
        const double d = discount();
        if (auto p = m_base->predict(m))
            for (size_t i = 0; i < out.size(); ++i)
                out[i] += d * (*p)[i];
    }
    // A config without rows (it does not instantiate or lower) scores below every real program.
    for (size_t i = 0; i < out.size(); ++i)
        if (m.groupSizes[i] == 0)
            out[i] = -1e9;
    return out;
}

Expected<void> XgbTuner::fit()
{
    if (m_base && discount() < 0.05)
        m_base.reset(); // TVM drops the base model once its discount is negligible
    const cost::PackedMatrix m = matrix(m_xs);
    if (m.columns == 0)
        return makeError(ErrorKind::InvalidArgument, "no config measured so far has features");
    std::vector<float> labels;
    for (double y : m_ys)
        labels.push_back(static_cast<float>(y / std::max(m_flopsMax, 1e-8)));
    const std::vector<float> weights(labels.size(), 1.0f);
    TS_CHECK(m_model.train(m, labels, weights));
    return {};
}

int64_t XgbTuner::randomUnvisited()
{
    // TVM's random pick: draw until unvisited (the caller knows some index is left).
    const int64_t size = m_space->size();
    if (static_cast<int64_t>(m_visited.size()) * 2 < size) {
        for (;;) {
            const int64_t i = m_rng.uniformInt(0, size - 1);
            if (!m_visited.count(i))
                return i;
        }
    }
    std::vector<int64_t> left;
    for (int64_t i = 0; i < size; ++i)
        if (!m_visited.count(i))
            left.push_back(i);
    return left[static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(left.size()) - 1))];
}

std::vector<int64_t> XgbTuner::nextBatch(int batchSize)
{
    std::vector<int64_t> out;
    const size_t randomTail = static_cast<size_t>(m_options.epsGreedy * m_options.planSize);
    while (static_cast<int>(out.size()) < batchSize && hasNext()) {
        while (m_trialPt < m_trials.size() && m_visited.count(m_trials[m_trialPt]))
            ++m_trialPt;
        int64_t index = 0;
        // An empty plan, or its last 5%: a random unvisited config.
        if (m_trials.empty() || m_trialPt + randomTail >= m_trials.size())
            index = randomUnvisited();
        else
            index = m_trials[m_trialPt];
        out.push_back(index);
        m_visited.insert(index);
    }
    return out;
}

void XgbTuner::update(const std::vector<int64_t>& indices, const std::vector<double>& flopsPerSecond)
{
    for (size_t i = 0; i < indices.size() && i < flopsPerSecond.size(); ++i) {
        m_visited.insert(indices[i]);
        m_xs.push_back(indices[i]);
        m_ys.push_back(flopsPerSecond[i]);
        m_flopsMax = std::max(m_flopsMax, flopsPerSecond[i]);
    }
    if (static_cast<int>(m_xs.size()) < m_options.planSize * (m_trainCount + 1) || m_flopsMax <= 1e-6)
        return;
    if (auto fitted = fit(); !fitted) {
        m_fitError = fitted.error().message;
        return; // the plan stays
    }
    m_fitError.clear();
    const ScoreFunction score = [this](const std::vector<int64_t>& batch) { return predict(batch); };
    if (m_options.diversityFilterRatio > 1.0) {
        const int wanted = static_cast<int>(m_options.planSize * m_options.diversityFilterRatio);
        const std::vector<int64_t> candidates = m_sa.findMaximums(score, wanted, m_visited);
        std::vector<std::vector<size_t>> knobs;
        for (int64_t c : candidates)
            knobs.push_back(m_space->knobIndexes(c));
        const std::vector<size_t> picked
            = submodularPick(std::vector<double>(candidates.size(), 0.0), knobs, m_options.planSize, 1.0);
        m_trials.clear();
        for (size_t p : picked)
            m_trials.push_back(candidates[p]);
    } else {
        m_trials = m_sa.findMaximums(score, m_options.planSize, m_visited);
    }
    ++m_trainCount;
    m_trialPt = 0;
}

Expected<void> XgbTuner::loadHistory(const std::vector<HistorySample>& samples)
{
    if (m_options.feature != XgbFeature::Program)
        return makeError(ErrorKind::InvalidArgument, "transfer learning needs the transferable \"program\" features");
    if (static_cast<int>(samples.size()) < m_options.minSeedRecords)
        return makeError(ErrorKind::InvalidArgument,
            "transfer learning needs at least " + std::to_string(m_options.minSeedRecords) + " records (got "
                + std::to_string(samples.size()) + ")");
    double best = 0.0;
    for (const HistorySample& s : samples)
        best = std::max(best, s.gflops);
    if (best <= 1e-6)
        return makeError(ErrorKind::InvalidArgument, "transfer learning: none of the records succeeded");
    cost::PackedMatrix m;
    m.columns = features::kPerStoreFeatures;
    std::vector<float> labels;
    for (const HistorySample& s : samples) {
        const int rows = s.features.columns == m.columns ? s.features.rows() : 0;
        m.groupSizes.push_back(rows);
        if (rows > 0)
            m.values.insert(m.values.end(), s.features.values.begin(), s.features.values.end());
        labels.push_back(static_cast<float>(s.gflops / best));
    }
    cost::PackSumBooster base(autotvmSettings(m_options, m_rng.next()));
    TS_CHECK(base.train(m, labels, std::vector<float>(labels.size(), 1.0f)));
    m_base = std::move(base);
    // The first plan comes from the base model alone (TVM's load_history).
    const ScoreFunction score = [this](const std::vector<int64_t>& batch) { return predict(batch); };
    m_trials = m_sa.findMaximums(score, m_options.planSize, m_visited);
    m_trialPt = 0;
    return {};
}

} // namespace ts::autotvm
