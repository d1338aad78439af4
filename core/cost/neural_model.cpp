#include "core/cost/neural_model.h"

#include "core/cost/byte_io.h"
#include "core/support/thread_pool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts::cost {

namespace {
    constexpr char kMagic[8] = { 'T', 'S', 'N', 'E', 'U', 'R', '0', '1' };
    constexpr double kNegInf = -std::numeric_limits<double>::infinity();
    // A transfer's fine-tune learns this many times slower than training from scratch (TLP's 7e-4 -> 7e-5).
    constexpr double kFineTuneLearningRateScale = 0.1;

    // What a sample's label is computed from: the mean cost, infinity for a failure.
    double costOf(const record::MeasureResult& result)
    {
        return result.ok() ? result.meanCost() : std::numeric_limits<double>::infinity();
    }

    const char* toString(NeuralLoss loss) { return loss == NeuralLoss::Mse ? "mse" : "lambdarank"; }
} // namespace

// --- settings --------------------------------------------------------------------------------------------------

std::string NeuralSettings::toJson() const
{
    return nlohmann::json {
        { "arch", cost::toString(arch) }, { "loss", toString(loss) }, { "hidden", hidden }, { "heads", heads },
        { "gcn_layers", gcnLayers }, { "attention_mask", attentionMask }, { "epochs", epochs },
        { "fine_tune_epochs", fineTuneEpochs }, { "groups_per_batch", groupsPerBatch },
        { "programs_per_group", programsPerGroup }, { "learning_rate", learningRate }, { "weight_decay", weightDecay },
        { "grad_clip", gradClip }, { "num_warmup_sample", numWarmupSample }, { "threads", threads },
        { "seq_len", tokens.seqLen }, { "arg_values", tokens.argValues }
    }.dump();
}

Expected<NeuralSettings> NeuralSettings::fromJson(const std::string& text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return makeError(ErrorKind::Parse, "neural model settings: not a JSON object");
    NeuralSettings s;
    try {
        const std::string arch = j.at("arch").get<std::string>();
        bool known = false;
        for (NeuralArch a : { NeuralArch::Mlp, NeuralArch::Lstm, NeuralArch::Tlp, NeuralArch::MtlTlp,
                 NeuralArch::AtFormer, NeuralArch::GTuner })
            if (arch == cost::toString(a)) {
                s.arch = a;
                known = true;
            }
        if (!known)
            return makeError(ErrorKind::Parse, "neural model settings: unknown architecture \"" + arch + "\"");
        s.loss = j.value("loss", "lambdarank") == "mse" ? NeuralLoss::Mse : NeuralLoss::LambdaRank;
        s.hidden = j.value("hidden", s.hidden);
        s.heads = j.value("heads", s.heads);
        s.gcnLayers = j.value("gcn_layers", s.gcnLayers);
        s.attentionMask = j.value("attention_mask", s.attentionMask);
        s.epochs = j.value("epochs", s.epochs);
        s.fineTuneEpochs = j.value("fine_tune_epochs", s.fineTuneEpochs);
        s.groupsPerBatch = j.value("groups_per_batch", s.groupsPerBatch);
        s.programsPerGroup = j.value("programs_per_group", s.programsPerGroup);
        s.learningRate = j.value("learning_rate", s.learningRate);
        s.weightDecay = j.value("weight_decay", s.weightDecay);
        s.gradClip = j.value("grad_clip", s.gradClip);
        s.numWarmupSample = j.value("num_warmup_sample", s.numWarmupSample);
        s.threads = j.value("threads", s.threads);
        s.tokens.seqLen = j.value("seq_len", s.tokens.seqLen);
        s.tokens.argValues = j.value("arg_values", s.tokens.argValues);
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorKind::Parse, std::string("neural model settings: ") + e.what());
    }
    const bool sane = s.hidden >= 8 && s.hidden <= 4096 && s.heads >= 1 && s.hidden % s.heads == 0
        && (s.hidden / 2) % std::max(1, s.heads / 2) == 0 && s.gcnLayers >= 0 && s.gcnLayers <= 16 && s.epochs >= 0
        && s.groupsPerBatch >= 1 && s.programsPerGroup >= 2 && s.tokens.seqLen >= 1 && s.tokens.seqLen <= 1024
        && s.tokens.argValues >= 0 && s.tokens.argValues <= 1024;
    if (!sane)
        return makeError(ErrorKind::Parse, "neural model settings out of range: " + text);
    return s;
}

// --- the model -------------------------------------------------------------------------------------------------

NeuralCostModel::NeuralCostModel(std::string kind, NeuralSettings settings, uint64_t seed)
    : m_kind(std::move(kind))
    , m_settings(std::move(settings))
    , m_seed(seed)
    , m_rng(seed)
    , m_network(NeuralNetwork::make(m_settings, 1, seed))
{
}

NeuralCostModel::~NeuralCostModel() = default;

ThreadPool& NeuralCostModel::pool()
{
    if (!m_pool)
        m_pool = std::make_unique<ThreadPool>(0);
    return *m_pool;
}

void NeuralCostModel::setWarmupSamples(int samples)
{
    if (m_settings.numWarmupSample >= 0)
        m_settings.numWarmupSample = samples;
}

int64_t NeuralCostModel::parameters() const { return m_network->parameters(); }

std::string NeuralCostModel::trainingSummary() const
{
    if (!m_trained)
        return "{}";
    nlohmann::json summary { { "samples", m_lastStats.samples }, { "epochs", m_lastStats.epochs },
        { "first_loss", m_lastStats.firstLoss }, { "last_loss", m_lastStats.lastLoss },
        { "seconds", m_lastStats.seconds }, { "trainings", m_trainings }, { "parameters", parameters() },
        { "device_heads", m_network->devices() } };
    if (m_lastStats.keptEpoch >= 0) { // a transfer: which epoch it kept, by the held-out fifth
        summary["kept_epoch"] = m_lastStats.keptEpoch;
        summary["validation_pairwise"] = m_lastStats.validationPairwise;
        summary["start_pairwise"] = m_lastStats.startPairwise;
    }
    return summary.dump();
}

int NeuralCostModel::deviceHead(const CostTask& task, bool create)
{
    if (m_settings.arch != NeuralArch::MtlTlp)
        return 0;
    const std::string device = target::toString(task.target);
    if (const auto found = m_deviceHeads.find(device); found != m_deviceHeads.end())
        return found->second;
    if (!create)
        return 0;
    // The first device takes head 0; every later one a copy of it.
    const int head = m_deviceHeads.empty() ? 0 : m_network->addDevice();
    m_deviceHeads.emplace(device, head);
    return head;
}

std::vector<Expected<NeuralInput>> NeuralCostModel::inputsOf(const CostTask& task, std::span<const sched::State> states)
{
    std::vector<Expected<NeuralInput>> out(states.size(), NeuralInput {});
    const bool rows = readsRows(m_settings.arch);
    const bool graph = readsGraph(m_settings.arch);
    const bool tokens = readsStepTokens(m_settings.arch);
    if (graph && !task.dag)
        return std::vector<Expected<NeuralInput>>(
            states.size(), makeError(ErrorKind::InvalidArgument, m_kind + " needs the task's DAG"));
    std::vector<Expected<features::ProgramFeatures>> extracted;
    if (rows)
        extracted = features::perStoreFeatures(states, task.target, &pool());
    for (size_t i = 0; i < states.size(); ++i) {
        NeuralInput& input = *out[i];
        if (rows) {
            if (!extracted[i] || extracted[i]->rows() == 0) {
                out[i] = extracted[i] ? makeError(ErrorKind::InvalidArgument, "the program stores nothing")
                                      : Expected<NeuralInput>(extracted[i].error());
                continue;
            }
            input.rows = std::move(extracted[i]).value();
        }
        if (tokens)
            input.tokens = features::stepTokens(states[i].steps(), m_settings.tokens);
        if (graph)
            input.graph = features::programGraph(*task.dag, &input.rows);
    }
    return out;
}

void NeuralCostModel::add(
    const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    const int head = deviceHead(task, true);
    auto inputs = inputsOf(task, states);
    std::vector<Sample>& samples = m_samples[task.key + "\n" + target::toString(task.target)];
    for (size_t i = 0; i < states.size(); ++i) {
        ++m_seen;
        if (!inputs[i])
            continue;
        Sample sample { std::move(inputs[i]).value(), 0.0 };
        sample.input.device = head;
        sample.cost = costOf(results[i]);
        samples.push_back(std::move(sample));
        ++m_held;
    }
}

void NeuralCostModel::addSteps(const CostTask& task, std::span<const std::vector<sched::Step>> steps,
    std::span<const record::MeasureResult> results)
{
    const int head = deviceHead(task, true);
    std::vector<Sample>& samples = m_samples[task.key + "\n" + target::toString(task.target)];
    for (size_t i = 0; i < steps.size() && i < results.size(); ++i) {
        ++m_seen;
        Sample sample { NeuralInput { features::stepTokens(steps[i], m_settings.tokens), {}, {}, head }, 0.0 };
        sample.cost = costOf(results[i]);
        samples.push_back(std::move(sample));
        ++m_held;
    }
}

NeuralTrainStats NeuralCostModel::trainOnHeld(int epochs, bool transfer)
{
    const uint64_t seed = m_seed + static_cast<uint64_t>(m_trainings) * 7919u;
    Rng split(seed ^ 0x5851F42D4C957F2DULL);
    NeuralTrainingSet set;
    NeuralTrainingSet validation;
    for (const auto& [key, samples] : m_samples) {
        double best = std::numeric_limits<double>::infinity();
        for (const Sample& s : samples)
            if (std::isfinite(s.cost) && s.cost > 0.0)
                best = std::min(best, s.cost);
        // A transfer holds out a fifth of a task's programs (at least 2, so that they make a pair; in a seeded
        // order) when it has 5 or more.
        std::vector<int> order(samples.size());
        std::iota(order.begin(), order.end(), 0);
        if (transfer)
            split.shuffle(order);
        const size_t heldOut = transfer && samples.size() >= 5 ? std::max<size_t>(2, samples.size() / 5) : 0;
        std::vector<int> group;
        std::vector<int> validationGroup;
        for (size_t k = 0; k < order.size(); ++k) {
            const Sample& s = samples[static_cast<size_t>(order[k])];
            if (!s.held && !m_group)
                continue; // left from a data-parallel fit: another rank held it
            const double label = std::isfinite(s.cost) && s.cost > 0.0 && std::isfinite(best) ? best / s.cost : 0.0;
            NeuralTrainingSet& into = k < heldOut ? validation : set;
            (k < heldOut ? validationGroup : group).push_back(static_cast<int>(into.inputs.size()));
            into.inputs.push_back(s.held ? &s.input : nullptr);
            into.labels.push_back(static_cast<float>(label));
        }
        if (!group.empty())
            set.groups.push_back(std::move(group));
        if (!validationGroup.empty())
            validation.groups.push_back(std::move(validationGroup));
    }
    NeuralFineTune fineTune;
    if (transfer) {
        fineTune.learningRateScale = kFineTuneLearningRateScale;
        if (!validation.groups.empty())
            fineTune.validation = &validation;
    }
    EpochCallback onEpoch;
    if (m_progress)
        onEpoch = [this](const NeuralEpoch& e) {
            return m_progress(static_cast<double>(e.epoch) / std::max(1, e.epochs), e.loss);
        };
    m_lastStats = m_network->train(set, epochs, seed, onEpoch, fineTune);
    ++m_trainings;
    m_trained = m_trained || m_lastStats.epochs > 0;
    m_lastTrainSize = m_held;
    return m_lastStats;
}

Expected<void> NeuralCostModel::update(
    const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    if (states.size() != results.size())
        return makeError(ErrorKind::InvalidArgument, "update: a result per state is needed");
    add(task, states, results);
    if (m_settings.numWarmupSample < 0)
        return {}; // offline: the model learns only from fit()
    if (!m_trained) {
        if (m_seen > m_settings.numWarmupSample && m_held >= 2)
            trainOnHeld(m_settings.epochs);
    } else if (static_cast<double>(m_held) >= 1.2 * static_cast<double>(std::max<int64_t>(1, m_lastTrainSize))) {
        trainOnHeld(m_settings.fineTuneEpochs);
    }
    return {};
}

Expected<void> NeuralCostModel::fit(std::span<const Batch> batches)
{
    if (m_group)
        return fitSharded(batches);
    const bool transfer = m_trained; // a loaded (pre-trained) model: fine-tune it

    for (const Batch& b : batches) {
        if (!b.steps.empty()) {
            if (b.steps.size() != b.results.size())
                return makeError(ErrorKind::InvalidArgument, "fit: a result per step list is needed");
            if (readsStepsOnly())
                addSteps(b.task, b.steps, b.results);
            continue;
        }
        if (b.states.size() != b.results.size())
            return makeError(ErrorKind::InvalidArgument, "fit: a result per state is needed");
        add(b.task, b.states, b.results);
    }
    if (m_held == 0)
        return makeError(ErrorKind::InvalidArgument, m_kind + ": none of the programs gave features to train on");
    trainOnHeld(m_settings.epochs, transfer);
    return {};
}

std::vector<double> NeuralCostModel::score(std::vector<NeuralInput>& inputs, const std::vector<bool>& present, int head)
{
    std::vector<double> scores(inputs.size(), kNegInf);
    std::vector<const NeuralInput*> pointers;
    std::vector<size_t> where;
    for (size_t i = 0; i < inputs.size(); ++i)
        if (present[i]) {
            inputs[i].device = head;
            pointers.push_back(&inputs[i]);
            where.push_back(i);
        }
    if (!m_trained) {
        for (size_t i : where)
            scores[i] = m_rng.uniform();
        return scores;
    }
    const std::vector<double> predicted = m_network->predict(pointers);
    for (size_t k = 0; k < where.size(); ++k)
        scores[where[k]] = std::isfinite(predicted[k]) ? predicted[k] : kNegInf;
    return scores;
}

std::vector<double> NeuralCostModel::predict(const CostTask& task, std::span<const sched::State> states)
{
    auto extracted = inputsOf(task, states);
    std::vector<NeuralInput> inputs(extracted.size());
    std::vector<bool> present(extracted.size(), false);
    for (size_t i = 0; i < extracted.size(); ++i)
        if (extracted[i]) {
            inputs[i] = std::move(extracted[i]).value();
            present[i] = true;
        }
    return score(inputs, present, deviceHead(task, false));
}

std::vector<double> NeuralCostModel::predictSteps(const CostTask& task, std::span<const std::vector<sched::Step>> steps)
{
    if (!readsStepsOnly())
        return CostModel::predictSteps(task, steps);
    std::vector<NeuralInput> inputs(steps.size());
    for (size_t i = 0; i < steps.size(); ++i)
        inputs[i].tokens = features::stepTokens(steps[i], m_settings.tokens);
    return score(inputs, std::vector<bool>(steps.size(), true), deviceHead(task, false));
}

Expected<std::vector<uint8_t>> NeuralCostModel::save() const
{
    nlohmann::json devices = nlohmann::json::object();
    for (const auto& [device, head] : m_deviceHeads)
        devices[device] = head;
    const auto rng = m_rng.state();
    const std::string header = nlohmann::json {
        { "kind", m_kind }, { "settings", nlohmann::json::parse(m_settings.toJson()) }, { "devices", devices },
        { "seen", m_seen }, { "trained", m_trained }, { "trainings", m_trainings }, { "seed", m_seed },
        { "rng", { rng[0], rng[1], rng[2], rng[3] } }
    }.dump();
    TS_TRY(std::vector<uint8_t> weights, m_network->save());
    std::vector<uint8_t> out(kMagic, kMagic + sizeof kMagic);
    le::put(out, header.size(), 4);
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), weights.begin(), weights.end());
    return out;
}

Expected<void> NeuralCostModel::load(std::span<const uint8_t> bytes)
{
    if (bytes.size() < sizeof kMagic + 4 || !std::equal(kMagic, kMagic + sizeof kMagic, bytes.begin()))
        return makeError(ErrorKind::Parse, "not a TuneScope neural cost model");
    const size_t length = le::get(bytes, sizeof kMagic, 4);
    if (bytes.size() < sizeof kMagic + 4 + length)
        return makeError(ErrorKind::Parse, "the neural cost model is truncated");
    const auto header = nlohmann::json::parse(
        std::string(reinterpret_cast<const char*>(bytes.data()) + sizeof kMagic + 4, length), nullptr, false);
    if (header.is_discarded() || !header.is_object() || !header.contains("settings") || !header.contains("kind"))
        return makeError(ErrorKind::Parse, "the neural cost model's header is damaged");
    TS_TRY(NeuralSettings settings, NeuralSettings::fromJson(header["settings"].dump()));
    if (settings.arch != m_settings.arch)
        return makeError(ErrorKind::Parse,
            std::string("the file holds a ") + cost::toString(settings.arch) + " network, not "
                + cost::toString(m_settings.arch));
    auto network = NeuralNetwork::make(settings, 1, m_seed);
    TS_CHECK(network->load(bytes.subspan(sizeof kMagic + 4 + length)));
    std::map<std::string, int> heads;
    try {
        for (const auto& [device, head] : header.at("devices").items())
            heads.emplace(device, head.get<int>());
        m_seen = header.at("seen").get<int64_t>();
        m_trainings = header.at("trainings").get<int>();
        m_trained = header.at("trained").get<bool>();
        const auto& rng = header.at("rng");
        m_rng.setState({ rng.at(0).get<uint64_t>(), rng.at(1).get<uint64_t>(), rng.at(2).get<uint64_t>(),
            rng.at(3).get<uint64_t>() });
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorKind::Parse, std::string("the neural cost model's header is damaged: ") + e.what());
    }
    m_settings = settings;
    m_network = std::move(network);
    m_deviceHeads = std::move(heads);
    m_samples.clear();
    m_held = 0;
    m_lastTrainSize = 0;
    return {};
}

} // namespace ts::cost
