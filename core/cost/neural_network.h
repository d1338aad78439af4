// The neural networks behind NeuralCostModel (neural_model.h), behind a header free of LibTorch: only
// neural_network.cpp includes torch, so the rest of TuneScope compiles without its headers (DESIGN: LibTorch in
// the few files that need it).
//
// Architectures (the paper each re-creates, and what it reads):
//   Mlp      TenSet's SegmentSumMLP: every per-store row 164 -> 256 -> 256, summed over the program's rows,
//            two residual 256 layers, a linear head.
//   Lstm     an LSTM (hidden 256) over the TLP step tokens, its last state -> a linear head (TLP's LSTM
//            variant; the recurrent baseline against TLP's attention on the same input).
//   Tlp      TLP's AttentionModule: step tokens -> MLP 64 -> 128 -> 256 -> 256, 8-head self-attention with a
//            residual, two residual FC(256) blocks, decoder 256 -> 256 -> 128 -> 64 -> 1 per position, summed
//            over positions (padding included, as TLP).
//   MtlTlp   the TLP backbone with one decoder per device (MTL-TLP's heads).
//   AtFormer hierarchical: a coarse attention block over the step tokens (the sketch and its structure), a
//            fine attention block over the per-store rows (loop and buffer details) whose tokens first get
//            the coarse block's pooled context added, then a light MLP on the fine tokens' masked sum.
//   GTuner   K WL-GCN layers x_i <- relu(W1 x_i + W2 sum_{j in N(i)} x_j) over the program graph
//            (program_graph.h), mean-pooled into a graph token, concatenated with the per-store rows (the
//            statistical features) as tokens, 4-head self-attention with a residual, a masked mean, an MLP.
// Step tokens are scaled sign(x) log2(1 + |x|) first (they hold raw integers such as extents); the per-store rows
// and the graph's node features are log-scaled already.
//
// Data-parallel training (setDataParallel, data_parallel.h): every rank walks the same batches in the same seeded
// order; a rank scores only the programs it holds (a null input in the set is held by another rank), the ranks sum
// their scores into each batch's full score matrix (exact: the others' entries are zero), all compute the same
// loss from it, each back-propagates the loss's gradient through its own programs, and the parameter gradients are
// summed over the ranks before clipping and the Adam step. So every rank takes every step with the same
// parameters, and the gradient is the single process's up to the order of float summation. Input scales are the
// max over the ranks, the starting weights rank 0's.
#pragma once

#include "core/features/per_store_features.h"
#include "core/features/program_graph.h"
#include "core/features/step_tokens.h"
#include "core/support/error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ts::cost {

class DataParallelGroup;

enum class NeuralArch { Mlp, Lstm, Tlp, MtlTlp, AtFormer, GTuner };
const char* toString(NeuralArch arch);

// What each architecture reads.
bool readsStepTokens(NeuralArch arch);
bool readsRows(NeuralArch arch);
bool readsGraph(NeuralArch arch);

enum class NeuralLoss { LambdaRank, Mse };

struct NeuralSettings {
    NeuralArch arch = NeuralArch::Tlp;
    NeuralLoss loss = NeuralLoss::LambdaRank;
    int hidden = 256; // TLP's and TenSet's width; ATFormer and GTuner use `hidden / 2` (light)
    int heads = 8;
    int gcnLayers = 2;
    bool attentionMask = true; // mask padding in attention and pooling (ATFormer's mask ablation: off)
    int epochs = 30;
    int fineTuneEpochs = 8; // update() on a trained model: epochs over the data held
    // A batch is this many (task, device) groups of up to programsPerGroup programs each; the rank loss compares
    // within a group. 4 x 32: on a 10k-program dataset that is ~75 steps an epoch (TLP's batches of 1024 over
    // millions of records take thousands).
    int groupsPerBatch = 4;
    int programsPerGroup = 32;
    double learningRate = 7e-4; // TLP's Adam settings
    double weightDecay = 1e-6;
    double gradClip = 0.5;
    int numWarmupSample = 100; // update(): no training before this many records (Ansor's warm-up)
    int threads = 0; // LibTorch intra-op threads; 0: the machine's cores
    features::StepTokenShape tokens;

    std::string toJson() const;
    static Expected<NeuralSettings> fromJson(const std::string& text);
};

// One program as the networks read it: only the parts its architecture reads are filled.
struct NeuralInput {
    features::StepTokens tokens;
    features::ProgramFeatures rows;
    features::ProgramGraph graph;
    int device = 0; // the device head (MtlTlp)
};

// A training set: programs, their labels (normalised throughput, the group's best cost / cost; 0 for a
// failure), and the (task, device) groups the rank loss compares within.
struct NeuralTrainingSet {
    std::vector<const NeuralInput*> inputs; // null: a program another rank holds (data-parallel training only)
    std::vector<float> labels;
    std::vector<std::vector<int>> groups; // indices into inputs
};

struct NeuralEpoch {
    int epoch = 0; // 1-based
    int epochs = 0;
    double loss = 0.0; // mean batch loss of the epoch
};

// A fine-tune that must not lose what pre-training learned (transfer to few records): a lower learning rate,
// and the weights of the epoch that ranked the held-out `validation` programs best (epoch 0: the starting weights).
struct NeuralFineTune {
    double learningRateScale = 1.0; // times NeuralSettings::learningRate
    const NeuralTrainingSet* validation = nullptr; // null: keep the last epoch's weights
};

struct NeuralTrainStats {
    int epochs = 0; // completed
    double firstLoss = 0.0;
    double lastLoss = 0.0;
    double seconds = 0.0;
    int64_t samples = 0;
    bool cancelled = false;
    // With a validation set: the epoch whose weights were kept (0: the starting ones) and its pairwise accuracy
    // on the validation groups, and the starting weights' accuracy.
    int keptEpoch = -1;
    double validationPairwise = 0.0;
    double startPairwise = 0.0;
    std::string error; // data-parallel training: a collective failed (a peer stopped), training stopped there
};

// Called after every epoch; returning false stops training (the weights of the epochs done are kept).
using EpochCallback = std::function<bool(const NeuralEpoch&)>;

class NeuralNetwork {
public:
    // A new network with weights drawn from `seed`; `devices` heads where the architecture has per-device heads.
    static std::unique_ptr<NeuralNetwork> make(const NeuralSettings& settings, int devices, uint64_t seed);
    virtual ~NeuralNetwork() = default;

    virtual NeuralTrainStats train(const NeuralTrainingSet& set, int epochs, uint64_t seed,
        const EpochCallback& onEpoch, const NeuralFineTune& fineTune = {})
        = 0;
    // One score per input, in batches, without gradients.
    virtual std::vector<double> predict(std::span<const NeuralInput* const> inputs) = 0;
    // Adds a device head (MtlTlp: a copy of head 0, to fine-tune); returns its index. Others: 0.
    virtual int addDevice() = 0;
    virtual int devices() const = 0;
    virtual int64_t parameters() const = 0;
    // Trains data-parallel with `group` from now on (null: alone again); sets this process's LibTorch threads.
    virtual void setDataParallel(std::shared_ptr<DataParallelGroup> group) = 0;

    virtual Expected<std::vector<uint8_t>> save() const = 0;
    virtual Expected<void> load(std::span<const uint8_t> bytes) = 0;
};

// --- the pieces the tests check by hand ------------------------------------------------------------------------

// LambdaRank (NDCG) loss of one group, as training computes it: with programs ordered by score (ties by
// index), positions r = 1..n, gains G_i = (2^label_i - 1) / IDCG where IDCG = sum over the labels sorted
// descending of (2^l - 1) / log2(1 + r), and for every pair with label_i > label_j the weight
// w_ij = |G_i - G_j| * |1 / log2(1 + r_i) - 1 / log2(1 + r_j)|:
//   loss = - sum w_ij * log2(sigmoid(score_i - score_j)).
double lambdaRankLoss(std::span<const float> scores, std::span<const float> labels);

// Pairwise accuracy of `scores` within each group of `set` (pairs of different labels ordered as the labels
// are), over all groups' pairs; 0.5 when there is no such pair. Unlike store::pairwiseAccuracy (one list, ties
// counted), it compares only within groups, whose labels are normalised per group.
double pairwiseAccuracy(const NeuralTrainingSet& set, std::span<const double> scores);

// One WL-GCN layer without its nonlinearity: x'_i = W1 x_i + W2 sum over neighbours j of x_j (edges are
// undirected; W row-major out x in; x nodes x in). What the GTuner network applies, then ReLU.
std::vector<float> gcnLayer(std::span<const float> x, int nodes, std::span<const std::pair<int, int>> edges,
    std::span<const float> w1, std::span<const float> w2, int in, int out);

} // namespace ts::cost
