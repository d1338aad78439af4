// The one LibTorch translation unit of the cost models: the networks of neural_network.h, their training loop
// and the LambdaRank loss. Nothing here knows about states, tasks or the store.
#include "core/cost/neural_network.h"

#include "core/cost/data_parallel.h"
#include "core/cost/data_parallel_tensors.h"
#include "core/support/rng.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <sstream>
#include <thread>

namespace ts::cost {

const char* toString(NeuralArch arch)
{
    switch (arch) {
    case NeuralArch::Mlp:
        return "mlp";
    case NeuralArch::Lstm:
        return "lstm";
    case NeuralArch::Tlp:
        return "tlp";
    case NeuralArch::MtlTlp:
        return "mtl-tlp";
    case NeuralArch::AtFormer:
        return "atformer";
    case NeuralArch::GTuner:
        return "gtuner";
    }
    return "?";
}

bool readsStepTokens(NeuralArch arch)
{
    return arch == NeuralArch::Lstm || arch == NeuralArch::Tlp || arch == NeuralArch::MtlTlp
        || arch == NeuralArch::AtFormer;
}
bool readsRows(NeuralArch arch)
{
    return arch == NeuralArch::Mlp || arch == NeuralArch::AtFormer || arch == NeuralArch::GTuner;
}
bool readsGraph(NeuralArch arch) { return arch == NeuralArch::GTuner; }

namespace {

    namespace nn = torch::nn;
    using torch::Tensor;

    // A batch as tensors; the parts the architecture does not read are undefined.
    struct BatchTensors {
        Tensor tokens; // [B, S, W], scaled
        Tensor tokenMask; // [B, S] bool, true = a step
        Tensor tokenCount; // [B] long
        Tensor rows; // [B, R, 164]
        Tensor rowMask; // [B, R] bool
        Tensor nodes; // [B, N, F]
        Tensor adjacency; // [B, N, N]
        Tensor nodeMask; // [B, N] bool
        Tensor device; // [B] long
    };

    BatchTensors collate(std::span<const NeuralInput* const> inputs, const NeuralSettings& s)
    {
        const auto b = static_cast<int64_t>(inputs.size());
        BatchTensors t;
        const auto floatOptions = torch::TensorOptions().dtype(torch::kFloat32);
        if (readsStepTokens(s.arch)) {
            const int64_t seq = s.tokens.seqLen;
            const int64_t width = s.tokens.width();
            t.tokens = torch::zeros({ b, seq, width }, floatOptions);
            t.tokenMask = torch::zeros({ b, seq }, torch::kBool);
            t.tokenCount = torch::zeros({ b }, torch::kLong);
            float* dst = t.tokens.data_ptr<float>();
            bool* mask = t.tokenMask.data_ptr<bool>();
            int64_t* count = t.tokenCount.data_ptr<int64_t>();
            for (int64_t i = 0; i < b; ++i) {
                const auto& values = inputs[static_cast<size_t>(i)]->tokens.values;
                const size_t n = std::min<size_t>(values.size(), static_cast<size_t>(seq * width));
                std::copy_n(values.data(), n, dst + i * seq * width);
                const int steps = std::max(1, inputs[static_cast<size_t>(i)]->tokens.steps);
                count[i] = steps;
                std::fill_n(mask + i * seq, std::min<int64_t>(steps, seq), true);
            }
            t.tokens = torch::sign(t.tokens) * torch::log2(1.0 + t.tokens.abs());
        }
        if (readsRows(s.arch)) {
            int64_t rows = 1;
            for (const NeuralInput* in : inputs)
                rows = std::max<int64_t>(rows, in->rows.rows());
            constexpr int64_t f = features::kPerStoreFeatures;
            t.rows = torch::zeros({ b, rows, f }, floatOptions);
            t.rowMask = torch::zeros({ b, rows }, torch::kBool);
            float* dst = t.rows.data_ptr<float>();
            bool* mask = t.rowMask.data_ptr<bool>();
            for (int64_t i = 0; i < b; ++i) {
                const features::ProgramFeatures& p = inputs[static_cast<size_t>(i)]->rows;
                std::copy(p.values.begin(), p.values.end(), dst + i * rows * f);
                std::fill_n(mask + i * rows, std::max(1, p.rows()), true); // a program without rows: one zero row
            }
        }
        if (readsGraph(s.arch)) {
            int64_t n = 1;
            for (const NeuralInput* in : inputs)
                n = std::max<int64_t>(n, in->graph.nodes);
            constexpr int64_t f = features::kNodeFeatures;
            t.nodes = torch::zeros({ b, n, f }, floatOptions);
            t.adjacency = torch::zeros({ b, n, n }, floatOptions);
            t.nodeMask = torch::zeros({ b, n }, torch::kBool);
            float* x = t.nodes.data_ptr<float>();
            float* a = t.adjacency.data_ptr<float>();
            bool* mask = t.nodeMask.data_ptr<bool>();
            for (int64_t i = 0; i < b; ++i) {
                const features::ProgramGraph& g = inputs[static_cast<size_t>(i)]->graph;
                std::copy(g.x.begin(), g.x.end(), x + i * n * f);
                for (const auto& [from, to] : g.edges) {
                    a[i * n * n + from * n + to] = 1.0f;
                    a[i * n * n + to * n + from] = 1.0f;
                }
                std::fill_n(mask + i * n, std::max(1, g.nodes), true);
            }
        }
        t.device = torch::zeros({ b }, torch::kLong);
        for (int64_t i = 0; i < b; ++i)
            t.device.data_ptr<int64_t>()[i] = inputs[static_cast<size_t>(i)]->device;
        return t;
    }

    // Masked pooling over dim 1: x [B, S, D], mask [B, S] bool.
    Tensor maskedSum(const Tensor& x, const Tensor& mask) { return (x * mask.unsqueeze(-1).to(x.dtype())).sum(1); }
    Tensor maskedMean(const Tensor& x, const Tensor& mask)
    {
        return maskedSum(x, mask) / mask.sum(1, true).clamp_min(1).to(x.dtype());
    }

    // x [B, S, D] -> self-attention output [B, S, D]; `padding` [B, S] bool true = ignore (undefined: none).
    Tensor selfAttention(nn::MultiheadAttention& attention, const Tensor& x, const Tensor& padding)
    {
        const Tensor seqFirst = x.transpose(0, 1);
        auto out = padding.defined() ? attention->forward(seqFirst, seqFirst, seqFirst, padding)
                                     : attention->forward(seqFirst, seqFirst, seqFirst);
        return std::get<0>(out).transpose(0, 1);
    }

    nn::Sequential mlp(std::initializer_list<int64_t> widths, bool reluAfterLast)
    {
        nn::Sequential seq;
        const std::vector<int64_t> w(widths);
        for (size_t i = 0; i + 1 < w.size(); ++i) {
            seq->push_back(nn::Linear(w[i], w[i + 1]));
            if (i + 2 < w.size() || reluAfterLast)
                seq->push_back(nn::ReLU());
        }
        return seq;
    }

    struct Net : nn::Module {
        // Per-column scales of the inputs (TenSet's MLP divides each feature by its maximum over the training
        // data): set by the first training, saved with the weights, kept by fine-tuning.
        Tensor tokenScale, rowScale, nodeScale, scaled;
        void registerScales(int tokenWidth)
        {
            tokenScale = register_buffer("token_scale", torch::ones({ tokenWidth }));
            rowScale = register_buffer("row_scale", torch::ones({ features::kPerStoreFeatures }));
            nodeScale = register_buffer("node_scale", torch::ones({ features::kNodeFeatures }));
            scaled = register_buffer("scaled", torch::zeros({ 1 }));
        }
        virtual Tensor forward(const BatchTensors& batch) = 0;
        virtual int addDevice() { return 0; }
        virtual int devices() const { return 1; }
    };

    // The largest magnitude of each column over a batch's real entries: x [B, S, F], mask [B, S].
    Tensor columnMax(const Tensor& x, const Tensor& mask)
    {
        return (x.abs() * mask.unsqueeze(-1).to(x.dtype())).amax({ 0, 1 });
    }

    BatchTensors normalized(BatchTensors b, const Net& net)
    {
        if (b.tokens.defined())
            b.tokens = b.tokens / net.tokenScale;
        if (b.rows.defined())
            b.rows = b.rows / net.rowScale;
        if (b.nodes.defined())
            b.nodes = b.nodes / net.nodeScale;
        return b;
    }

    struct MlpNet : Net {
        nn::Sequential encoder, res1, res2;
        nn::Linear head { nullptr };
        explicit MlpNet(int h)
        {
            encoder = register_module("encoder", mlp({ features::kPerStoreFeatures, h, h }, true));
            res1 = register_module("res1", mlp({ h, h }, true));
            res2 = register_module("res2", mlp({ h, h }, true));
            head = register_module("head", nn::Linear(h, 1));
        }
        Tensor forward(const BatchTensors& b) override
        {
            Tensor x = maskedSum(encoder->forward(b.rows), b.rowMask);
            x = x + res1->forward(x);
            x = x + res2->forward(x);
            return head->forward(x).squeeze(-1);
        }
    };

    struct LstmNet : Net {
        nn::Sequential encoder;
        nn::LSTM lstm { nullptr };
        nn::Linear head { nullptr };
        LstmNet(int width, int h)
        {
            encoder = register_module("encoder", mlp({ width, h }, true));
            lstm = register_module("lstm", nn::LSTM(nn::LSTMOptions(h, h).batch_first(true)));
            head = register_module("head", nn::Linear(h, 1));
        }
        Tensor forward(const BatchTensors& b) override
        {
            const Tensor out = std::get<0>(lstm->forward(encoder->forward(b.tokens))); // [B, S, H]
            const Tensor last = (b.tokenCount - 1).clamp(0, out.size(1) - 1);
            const Tensor index = last.view({ -1, 1, 1 }).expand({ out.size(0), 1, out.size(2) });
            return head->forward(out.gather(1, index).squeeze(1)).squeeze(-1);
        }
    };

    struct TlpNet : Net {
        nn::Sequential encoder, res1, res2;
        nn::MultiheadAttention attention { nullptr };
        std::vector<nn::Sequential> decoders;
        int h = 0;
        TlpNet(int width, int hidden, int heads, int devices)
            : h(hidden)
        {
            encoder = register_module("encoder", mlp({ width, 64, 128, hidden, hidden }, true));
            attention
                = register_module("attention", nn::MultiheadAttention(nn::MultiheadAttentionOptions(hidden, heads)));
            res1 = register_module("res1", mlp({ hidden, hidden }, true));
            res2 = register_module("res2", mlp({ hidden, hidden }, true));
            for (int d = 0; d < std::max(1, devices); ++d)
                addDecoder();
        }
        void addDecoder()
        {
            const std::string name = decoders.empty() ? "decoder" : "decoder" + std::to_string(decoders.size());
            decoders.push_back(register_module(name, mlp({ h, h, 128, 64, 1 }, false)));
        }
        int addDevice() override
        {
            addDecoder();
            torch::NoGradGuard noGrad;
            auto from = decoders.front()->parameters();
            auto to = decoders.back()->parameters();
            for (size_t i = 0; i < from.size(); ++i)
                to[i].copy_(from[i]);
            return static_cast<int>(decoders.size()) - 1;
        }
        int devices() const override { return static_cast<int>(decoders.size()); }
        Tensor forward(const BatchTensors& b) override
        {
            Tensor x = encoder->forward(b.tokens);
            x = x + selfAttention(attention, x, Tensor()); // TLP attends to every position, padding included
            x = x + res1->forward(x);
            x = x + res2->forward(x);
            if (decoders.size() == 1)
                return decoders[0]->forward(x).squeeze(-1).sum(1);
            std::vector<Tensor> heads;
            for (auto& decoder : decoders)
                heads.push_back(decoder->forward(x).squeeze(-1).sum(1)); // [B]
            const Tensor all = torch::stack(heads, 1); // [B, H]
            return all.gather(1, b.device.clamp(0, all.size(1) - 1).unsqueeze(1)).squeeze(1);
        }
    };

    // A transformer encoder block: attention and a feed-forward layer, each with a residual and LayerNorm.
    struct Block : nn::Module {
        nn::MultiheadAttention attention { nullptr };
        nn::LayerNorm norm1 { nullptr }, norm2 { nullptr };
        nn::Sequential ffn;
        Block(int d, int heads)
        {
            attention = register_module("attention", nn::MultiheadAttention(nn::MultiheadAttentionOptions(d, heads)));
            norm1 = register_module("norm1", nn::LayerNorm(nn::LayerNormOptions({ d })));
            norm2 = register_module("norm2", nn::LayerNorm(nn::LayerNormOptions({ d })));
            ffn = register_module("ffn", mlp({ d, 2 * d, d }, false));
        }
        Tensor forward(const Tensor& x, const Tensor& padding)
        {
            Tensor y = norm1->forward(x + selfAttention(attention, x, padding));
            return norm2->forward(y + ffn->forward(y));
        }
    };

    struct AtFormerNet : Net {
        nn::Sequential coarseEncoder, fineEncoder, head;
        std::shared_ptr<Block> coarse, fine;
        bool mask = true;
        AtFormerNet(int width, int d, int heads, bool useMask)
            : mask(useMask)
        {
            coarseEncoder = register_module("coarse_encoder", mlp({ width, d, d }, false));
            fineEncoder = register_module("fine_encoder", mlp({ features::kPerStoreFeatures, d, d }, false));
            coarse = register_module("coarse", std::make_shared<Block>(d, heads));
            fine = register_module("fine", std::make_shared<Block>(d, heads));
            head = register_module("head", mlp({ d, d / 2, 1 }, false));
        }
        Tensor forward(const BatchTensors& b) override
        {
            const Tensor tokenMask = mask ? b.tokenMask : torch::ones_like(b.tokenMask);
            const Tensor rowMask = mask ? b.rowMask : torch::ones_like(b.rowMask);
            const Tensor c = coarse->forward(coarseEncoder->forward(b.tokens), mask ? ~b.tokenMask : Tensor());
            const Tensor context = maskedMean(c, tokenMask); // [B, d]
            const Tensor f = fineEncoder->forward(b.rows) + context.unsqueeze(1);
            const Tensor out = fine->forward(f, mask ? ~b.rowMask : Tensor());
            return head->forward(maskedSum(out, rowMask)).squeeze(-1);
        }
    };

    Tensor gcnApply(const Tensor& x, const Tensor& adjacency, const Tensor& w1, const Tensor& w2)
    {
        return torch::matmul(x, w1.t()) + torch::matmul(torch::matmul(adjacency, x), w2.t());
    }

    struct GTunerNet : Net {
        nn::Sequential nodeEncoder, rowEncoder, head;
        std::vector<nn::Linear> self, neighbours;
        nn::MultiheadAttention attention { nullptr };
        nn::LayerNorm norm { nullptr };
        GTunerNet(int d, int heads, int layers)
        {
            nodeEncoder = register_module("node_encoder", mlp({ features::kNodeFeatures, d }, true));
            rowEncoder = register_module("row_encoder", mlp({ features::kPerStoreFeatures, d }, true));
            for (int k = 0; k < layers; ++k) {
                self.push_back(register_module("gcn_self" + std::to_string(k), nn::Linear(d, d)));
                neighbours.push_back(register_module(
                    "gcn_neighbours" + std::to_string(k), nn::Linear(nn::LinearOptions(d, d).bias(false))));
            }
            attention = register_module("attention", nn::MultiheadAttention(nn::MultiheadAttentionOptions(d, heads)));
            norm = register_module("norm", nn::LayerNorm(nn::LayerNormOptions({ d })));
            head = register_module("head", mlp({ d, d / 2, 1 }, false));
        }
        Tensor forward(const BatchTensors& b) override
        {
            Tensor x = nodeEncoder->forward(b.nodes);
            for (size_t k = 0; k < self.size(); ++k)
                x = torch::relu(gcnApply(x, b.adjacency, self[k]->weight, neighbours[k]->weight) + self[k]->bias);
            const Tensor graph = maskedMean(x, b.nodeMask); // [B, d]
            const Tensor tokens = torch::cat({ graph.unsqueeze(1), rowEncoder->forward(b.rows) }, 1);
            const Tensor mask = torch::cat({ torch::ones({ b.rowMask.size(0), 1 }, torch::kBool), b.rowMask }, 1);
            const Tensor out = norm->forward(tokens + selfAttention(attention, tokens, ~mask));
            return head->forward(maskedMean(out, mask)).squeeze(-1);
        }
    };

    // Batched LambdaRank over G groups of up to M programs: scores, labels [G, M], valid [G, M] bool.
    // Returns the mean over groups of the loss lambdaRankLoss defines.
    Tensor lambdaRank(const Tensor& scores, const Tensor& labels, const Tensor& valid)
    {
        const int64_t m = scores.size(1);
        const Tensor validF = valid.to(torch::kFloat32);
        const Tensor l = labels * validF;
        // Positions by score, descending; invalid entries last; ties by index (a stable sort).
        const Tensor sortKey = torch::where(valid, scores.detach(), torch::full_like(scores, -1e30));
        const Tensor order = std::get<1>(torch::sort(sortKey, /*stable=*/true, /*dim=*/1, /*descending=*/true));
        const Tensor positions = torch::arange(1, m + 1, torch::kFloat32).expand({ scores.size(0), m });
        const Tensor rank = torch::zeros_like(scores).scatter(1, order, positions); // rank[g, i] = r_i
        const Tensor discount = validF / torch::log2(1.0 + rank); // 1 / log2(1 + r)
        const Tensor ideal = std::get<0>(torch::sort(l, 1, true));
        const Tensor idcg
            = ((torch::pow(2.0, ideal) - 1.0) / torch::log2(1.0 + positions)).sum(1, true).clamp_min(1e-10);
        const Tensor gain = (torch::pow(2.0, l) - 1.0) / idcg;
        const Tensor pairs = (l.unsqueeze(2) > l.unsqueeze(1)) & valid.unsqueeze(2) & valid.unsqueeze(1);
        const Tensor weight
            = ((gain.unsqueeze(2) - gain.unsqueeze(1)).abs() * (discount.unsqueeze(2) - discount.unsqueeze(1)).abs())
                  .detach();
        const Tensor diff = scores.unsqueeze(2) - scores.unsqueeze(1);
        const Tensor logProb = torch::log_sigmoid(diff) / std::log(2.0);
        const Tensor loss = -(weight * logProb * pairs.to(torch::kFloat32)).sum({ 1, 2 });
        return loss.mean();
    }

    // The inputs this rank holds (data-parallel training leaves null where another rank holds the program).
    std::vector<const NeuralInput*> heldInputs(std::span<const NeuralInput* const> inputs)
    {
        std::vector<const NeuralInput*> held;
        std::copy_if(inputs.begin(), inputs.end(), std::back_inserter(held), [](const auto* in) { return in; });
        return held;
    }

    std::vector<float> toVector(const Tensor& t)
    {
        const Tensor c = t.contiguous().to(torch::kFloat32);
        return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    }

    class TorchNetwork final : public NeuralNetwork {
    public:
        TorchNetwork(const NeuralSettings& settings, int devices, uint64_t seed)
            : m_settings(settings)
        {
            torch::manual_seed(seed);
            const int width = settings.tokens.width();
            const int light = std::max(8, settings.hidden / 2);
            const int lightHeads = std::max(1, settings.heads / 2);
            switch (settings.arch) {
            case NeuralArch::Mlp:
                m_net = std::make_shared<MlpNet>(settings.hidden);
                break;
            case NeuralArch::Lstm:
                m_net = std::make_shared<LstmNet>(width, settings.hidden);
                break;
            case NeuralArch::Tlp:
                m_net = std::make_shared<TlpNet>(width, settings.hidden, settings.heads, 1);
                break;
            case NeuralArch::MtlTlp:
                m_net = std::make_shared<TlpNet>(width, settings.hidden, settings.heads, devices);
                break;
            case NeuralArch::AtFormer:
                m_net = std::make_shared<AtFormerNet>(width, light, lightHeads, settings.attentionMask);
                break;
            case NeuralArch::GTuner:
                m_net = std::make_shared<GTunerNet>(light, lightHeads, settings.gcnLayers);
                break;
            }
            m_net->registerScales(width);
        }

        // The first training sets the input scales from its data.
        Expected<void> fitScales(const NeuralTrainingSet& set)
        {
            if (m_net->scaled.item<float>() > 0 || set.inputs.empty())
                return {};
            torch::NoGradGuard noGrad;
            Tensor tokens, rows, nodes;
            constexpr size_t kChunk = 2048;
            const std::vector<const NeuralInput*> held = heldInputs(set.inputs);
            for (size_t at = 0; at < held.size(); at += kChunk) {
                const auto part = std::span(held).subspan(at, std::min(kChunk, held.size() - at));
                const BatchTensors b = collate(part, m_settings);
                auto merge = [](Tensor& into, const Tensor& x) { into = into.defined() ? torch::maximum(into, x) : x; };
                if (b.tokens.defined())
                    merge(tokens, columnMax(b.tokens, b.tokenMask));
                if (b.rows.defined())
                    merge(rows, columnMax(b.rows, b.rowMask));
                if (b.nodes.defined())
                    merge(nodes, columnMax(b.nodes, b.nodeMask));
            }
            if (m_group) // the max over every rank's programs (-infinity where a rank has none)
                for (auto [max, scale] : { std::pair { &tokens, &m_net->tokenScale },
                         std::pair { &rows, &m_net->rowScale }, std::pair { &nodes, &m_net->nodeScale } }) {
                    Tensor all = max->defined() ? max->contiguous().clone()
                                                : torch::full_like(*scale, -std::numeric_limits<float>::infinity());
                    TS_CHECK(allReduceTensor(*m_group, all, DataParallelGroup::Reduce::Max));
                    *max = all.max().item<float>() > -1e30f ? all : Tensor();
                }
            auto set1 = [](Tensor& scale, const Tensor& max) {
                if (max.defined())
                    scale.copy_(torch::where(max > 1e-6, max, torch::ones_like(max)));
            };
            set1(m_net->tokenScale, tokens);
            set1(m_net->rowScale, rows);
            set1(m_net->nodeScale, nodes);
            m_net->scaled.fill_(1.0f);
            return {};
        }

        NeuralTrainStats train(const NeuralTrainingSet& set, int epochs, uint64_t seed, const EpochCallback& onEpoch,
            const NeuralFineTune& fineTune) override
        {
            const auto start = std::chrono::steady_clock::now();
            torch::manual_seed(seed);
            Rng rng(seed);
            NeuralTrainStats stats;
            stats.samples = static_cast<int64_t>(set.inputs.size());
            // A failed collective (data-parallel training) ends the training; stats.error says why.
            auto ok = [&stats](Expected<void> done) {
                if (!done && stats.error.empty())
                    stats.error = done.error().message;
                return stats.error.empty();
            };
            if (!ok(fitScales(set)) || (m_group && !ok(broadcastTensors(*m_group, weights()))))
                return stats;
            // With a validation set, the best weights so far (by pairwise accuracy), starting with these.
            std::vector<Tensor> kept;
            auto validate = [&](int epoch) {
                if (fineTune.validation == nullptr)
                    return;
                auto scores = predictHeld(fineTune.validation->inputs);
                if (!ok(scores ? Expected<void>() : Expected<void>(scores.error())))
                    return;
                const double pairwise = pairwiseAccuracy(*fineTune.validation, *scores);
                if (epoch == 0)
                    stats.startPairwise = pairwise;
                if (epoch == 0 || pairwise > stats.validationPairwise) {
                    stats.keptEpoch = epoch;
                    stats.validationPairwise = pairwise;
                    kept.clear();
                    for (const Tensor& p : m_net->parameters())
                        kept.push_back(p.detach().clone());
                }
            };
            validate(0);
            if (!stats.error.empty())
                return stats;
            m_net->train();
            torch::optim::Adam optimizer(m_net->parameters(),
                torch::optim::AdamOptions(m_settings.learningRate * fineTune.learningRateScale)
                    .weight_decay(m_settings.weightDecay));
            const int m = std::max(2, m_settings.programsPerGroup);
            for (int epoch = 1; epoch <= epochs; ++epoch) {
                // Chunks of up to m programs of one group, in a seeded order.
                std::vector<std::vector<int>> chunks;
                for (const std::vector<int>& group : set.groups) {
                    std::vector<int> order = group;
                    rng.shuffle(order);
                    for (size_t at = 0; at < order.size(); at += static_cast<size_t>(m))
                        chunks.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(at),
                            order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), at + m)));
                }
                rng.shuffle(chunks);
                double lossSum = 0.0;
                int batches = 0;
                const size_t perBatch = static_cast<size_t>(std::max(1, m_settings.groupsPerBatch));
                for (size_t at = 0; at < chunks.size(); at += perBatch) {
                    const size_t g = std::min(perBatch, chunks.size() - at);
                    std::vector<const NeuralInput*> inputs;
                    std::vector<int64_t> slot; // position of each input in the [g, m] matrix
                    std::vector<float> labels(g * static_cast<size_t>(m), 0.0f);
                    std::vector<uint8_t> valid(g * static_cast<size_t>(m), 0);
                    for (size_t c = 0; c < g; ++c)
                        for (size_t k = 0; k < chunks[at + c].size(); ++k) {
                            const int index = chunks[at + c][k];
                            if (const NeuralInput* input = set.inputs[static_cast<size_t>(index)]) {
                                inputs.push_back(input); // null: another rank's program
                                slot.push_back(static_cast<int64_t>(c * m + k));
                            }
                            labels[c * m + k] = set.labels[static_cast<size_t>(index)];
                            valid[c * m + k] = 1;
                        }
                    const Tensor scores = inputs.empty()
                        ? torch::zeros({ 0 })
                        : m_net->forward(normalized(collate(inputs, m_settings), *m_net));
                    const Tensor labelT = torch::from_blob(labels.data(), { static_cast<int64_t>(g), m }).clone();
                    const Tensor validT = torch::from_blob(valid.data(), { static_cast<int64_t>(g), m }, torch::kUInt8)
                                              .to(torch::kBool);
                    const Tensor slotT
                        = torch::from_blob(slot.data(), { static_cast<int64_t>(slot.size()) }, torch::kLong);
                    Tensor matrix
                        = torch::zeros({ static_cast<int64_t>(g) * m }).index_put({ slotT }, scores).view({ -1, m });
                    Tensor local; // data-parallel: this rank's part of the matrix, to back-propagate into
                    if (m_group) {
                        local = matrix;
                        matrix = local.detach().clone();
                        if (!ok(allReduceTensor(*m_group, matrix)))
                            break;
                        matrix.requires_grad_(true);
                    }
                    Tensor loss;
                    if (m_settings.loss == NeuralLoss::Mse)
                        loss = (torch::pow(matrix - labelT, 2) * validT.to(torch::kFloat32)).sum()
                            / validT.sum().clamp_min(1);
                    else
                        loss = lambdaRank(matrix, labelT, validT);
                    optimizer.zero_grad();
                    loss.backward();
                    if (m_group) {
                        if (local.requires_grad())
                            local.backward(matrix.grad());
                        if (!ok(allReduceGradients(*m_group, m_net->parameters())))
                            break;
                    }
                    nn::utils::clip_grad_norm_(m_net->parameters(), m_settings.gradClip);
                    optimizer.step();
                    lossSum += loss.item<double>();
                    ++batches;
                }
                if (!stats.error.empty())
                    break;
                const double loss = batches > 0 ? lossSum / batches : 0.0;
                if (epoch == 1)
                    stats.firstLoss = loss;
                stats.lastLoss = loss;
                stats.epochs = epoch;
                validate(epoch);
                if (!stats.error.empty())
                    break;
                m_net->train(); // predict() left it in eval mode
                float stop = onEpoch && !onEpoch({ epoch, epochs, loss }) ? 1.0f : 0.0f;
                if (m_group && !ok(m_group->allReduce(std::span(&stop, 1), DataParallelGroup::Reduce::Max)))
                    break; // one rank stopped (Ctrl-C): all stop after the same epoch
                if (stop > 0.0f) {
                    stats.cancelled = epoch < epochs;
                    break;
                }
            }
            if (!kept.empty()) {
                torch::NoGradGuard noGrad;
                const std::vector<Tensor> parameters = m_net->parameters();
                for (size_t i = 0; i < parameters.size() && i < kept.size(); ++i)
                    parameters[i].copy_(kept[i]);
            }
            m_net->eval();
            stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return stats;
        }

        std::vector<double> predict(std::span<const NeuralInput* const> inputs) override
        {
            torch::NoGradGuard noGrad;
            m_net->eval();
            std::vector<double> out;
            out.reserve(inputs.size());
            constexpr size_t kChunk = 1024;
            for (size_t at = 0; at < inputs.size(); at += kChunk) {
                const auto part = inputs.subspan(at, std::min(kChunk, inputs.size() - at));
                const std::vector<float> scores
                    = toVector(m_net->forward(normalized(collate(part, m_settings), *m_net)));
                out.insert(out.end(), scores.begin(), scores.end());
            }
            return out;
        }

        int addDevice() override { return m_net->addDevice(); }
        void setDataParallel(std::shared_ptr<DataParallelGroup> group) override
        {
            m_group = group && group->worldSize() > 1 ? std::move(group) : nullptr;
            if (m_group) {
                torch::set_num_threads(m_group->threads());
                setBlasThreads(m_group->threads());
            }
        }
        int devices() const override { return m_net->devices(); }
        int64_t parameters() const override
        {
            int64_t n = 0;
            for (const Tensor& p : m_net->parameters())
                n += p.numel();
            return n;
        }

        Expected<std::vector<uint8_t>> save() const override
        {
            std::ostringstream stream;
            try {
                torch::serialize::OutputArchive archive;
                m_net->save(archive);
                archive.save_to(stream);
            } catch (const std::exception& e) {
                return makeError(ErrorKind::Io, std::string("saving the network: ") + e.what());
            }
            const std::string text = stream.str();
            std::vector<uint8_t> bytes(4);
            const auto devices = static_cast<uint32_t>(m_net->devices());
            std::memcpy(bytes.data(), &devices, 4);
            bytes.insert(bytes.end(), text.begin(), text.end());
            return bytes;
        }

        Expected<void> load(std::span<const uint8_t> bytes) override
        {
            if (bytes.size() < 4)
                return makeError(ErrorKind::Parse, "the network's weights are truncated");
            uint32_t devices = 0;
            std::memcpy(&devices, bytes.data(), 4);
            if (devices < 1 || devices > 1024)
                return makeError(ErrorKind::Parse, "the network's weights are damaged (device heads)");
            while (m_net->devices() < static_cast<int>(devices) && m_net->addDevice() > 0) { }
            if (m_net->devices() != static_cast<int>(devices))
                return makeError(ErrorKind::Parse,
                    "the weights hold " + std::to_string(devices) + " device heads, this network has "
                        + std::to_string(m_net->devices()));
            try {
                std::istringstream stream(
                    std::string(reinterpret_cast<const char*>(bytes.data()) + 4, bytes.size() - 4));
                torch::serialize::InputArchive archive;
                archive.load_from(stream);
                m_net->load(archive);
            } catch (const std::exception& e) {
                return makeError(ErrorKind::Parse, std::string("the network's weights do not load: ") + e.what());
            }
            m_net->eval();
            return {};
        }

    private:
        // The parameters and buffers (the input scales): what data-parallel ranks start from, rank 0's.
        std::vector<Tensor> weights() const
        {
            std::vector<Tensor> all = m_net->parameters();
            for (const Tensor& b : m_net->buffers())
                all.push_back(b);
            return all;
        }

        // Scores for a set's inputs of which this rank holds some (null: another rank's): each rank scores its
        // own, and the ranks sum the zero-filled vectors. Alone: predict().
        Expected<std::vector<double>> predictHeld(std::span<const NeuralInput* const> inputs)
        {
            if (!m_group)
                return predict(inputs);
            const std::vector<const NeuralInput*> held = heldInputs(inputs);
            const std::vector<double> scores = predict(held);
            std::vector<float> all(inputs.size(), 0.0f);
            for (size_t i = 0, k = 0; i < inputs.size(); ++i)
                if (inputs[i] != nullptr)
                    all[i] = static_cast<float>(scores[k++]);
            TS_CHECK(m_group->allReduce(all));
            return std::vector<double>(all.begin(), all.end());
        }

        NeuralSettings m_settings;
        std::shared_ptr<Net> m_net;
        std::shared_ptr<DataParallelGroup> m_group; // null: training alone
    };

} // namespace

std::unique_ptr<NeuralNetwork> NeuralNetwork::make(const NeuralSettings& settings, int devices, uint64_t seed)
{
    static const bool threadsSet = [&] {
        const int threads = settings.threads > 0 ? settings.threads
                                                 : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        torch::set_num_threads(threads);
        return true;
    }();
    (void)threadsSet;
    return std::make_unique<TorchNetwork>(settings, devices, seed);
}

double pairwiseAccuracy(const NeuralTrainingSet& set, std::span<const double> scores)
{
    int64_t right = 0;
    int64_t pairs = 0;
    for (const std::vector<int>& group : set.groups)
        for (size_t a = 0; a < group.size(); ++a)
            for (size_t b = a + 1; b < group.size(); ++b) {
                const auto i = static_cast<size_t>(group[a]);
                const auto j = static_cast<size_t>(group[b]);
                if (set.labels[i] == set.labels[j])
                    continue;
                ++pairs;
                right += (set.labels[i] > set.labels[j]) == (scores[i] > scores[j]) ? 1 : 0;
            }
    return pairs > 0 ? static_cast<double>(right) / static_cast<double>(pairs) : 0.5;
}

double lambdaRankLoss(std::span<const float> scores, std::span<const float> labels)
{
    const auto n = static_cast<int64_t>(scores.size());
    const Tensor s = torch::from_blob(const_cast<float*>(scores.data()), { 1, n }).clone();
    const Tensor l = torch::from_blob(const_cast<float*>(labels.data()), { 1, n }).clone();
    return lambdaRank(s, l, torch::ones({ 1, n }, torch::kBool)).item<double>();
}

std::vector<float> gcnLayer(std::span<const float> x, int nodes, std::span<const std::pair<int, int>> edges,
    std::span<const float> w1, std::span<const float> w2, int in, int out)
{
    const Tensor xt = torch::from_blob(const_cast<float*>(x.data()), { nodes, in }).clone();
    Tensor adjacency = torch::zeros({ nodes, nodes });
    for (const auto& [a, b] : edges) {
        adjacency[a][b] = 1.0f;
        adjacency[b][a] = 1.0f;
    }
    const Tensor w1t = torch::from_blob(const_cast<float*>(w1.data()), { out, in }).clone();
    const Tensor w2t = torch::from_blob(const_cast<float*>(w2.data()), { out, in }).clone();
    return toVector(gcnApply(xt, adjacency, w1t, w2t));
}

} // namespace ts::cost
