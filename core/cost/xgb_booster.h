// PackSumBooster: Ansor's XGBoost "pack-sum" learner over plain feature matrices (issue 11).
//
// A program is a pack of rows (Ansor: one row of 164 features per buffer store). The booster predicts a
// partial score per row and a program's score is the sum of its rows' scores. Training uses Ansor's custom
// objective pack_sum_square_error (python/tvm/auto_scheduler/cost_model/xgb_model.py): with s = the sum of a
// program's row predictions, y its label and w its weight, every row of the program gets gradient
// (s - y) * w and hessian w. Ansor weighs a program by its own label, so good programs count more. Rounds
// stop early when the pack-sum RMSE on the training set (Ansor's "tr-p-rmse", evaluated every other round)
// has not improved for 50 rounds; prediction then uses every tree, as Ansor's does.
//
// This class knows nothing of features: core/features makes the matrices and XgbCostModel glues the two.
// XGBoost's headers stay inside core/cost's .cpp files; every XGBoost call is checked and a failure becomes
// an Error carrying XGBGetLastError's text. XGBoost's own logging is silenced.
//
// Threads: one booster is used from one thread at a time, and any thread will do. train() runs XGBoost on
// a short-lived thread of its own, because XGBoost 1.7 keeps per-booster training caches (the training
// rows' predictions) in thread-local storage that only the thread that made them frees, when the booster
// dies on that thread or the thread exits. Prediction keeps its last output buffer the same way, per
// thread: predict from one long-lived thread, or the buffer of a thread that outlives the booster stays.
// nthread is XGBoost's OpenMP team size; on a machine busier than its cores, a team of 2 can be many times
// slower than 1 (each barrier waits for a descheduled thread), so keep it at or below the free cores.
//
// Values: NaN is XGBoost's missing value; every other float, 0 included, is a feature value.
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <memory>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace ts::cost {

namespace xgb {
    class Booster; // owns an XGBoost BoosterHandle (xgb_api.h, private to core/cost)
}

// Rows of `columns` floats, row-major, grouped into programs: groupSizes[i] rows belong to program i, in
// order. A program may have no rows (it then scores 0 and teaches nothing).
struct PackedMatrix {
    int columns = 0;
    std::vector<float> values;
    std::vector<int> groupSizes;
    // The rank objective compares programs of the same task only: the task of each program (empty: one task).
    std::vector<int> tasks;

    size_t rows() const { return columns > 0 ? values.size() / static_cast<size_t>(columns) : 0; }
    size_t programs() const { return groupSizes.size(); }
};

// Ansor's parameters (xgb_model.py) by default, but for tree_method. Serialised with XGBoost's names.
struct PackSumSettings {
    int maxDepth = 10; // max_depth
    double gamma = 0.001; // gamma: minimum loss reduction of a split
    double minChildWeight = 0.0; // min_child_weight
    double eta = 0.2; // eta: learning rate
    uint64_t seed = 43; // seed
    int nthread = 2; // nthread (Ansor: half the CPU count); also used for prediction
    int numBoostRound = 10000; // num_boost_round: the most rounds
    int earlyStoppingRounds = 50; // early_stopping_rounds, on tr-p-rmse
    int evalEvery = 2; // eval_every: Ansor's callback evaluates every other round (skip_every=2)
    // An evaluation counts as better when it lowers the best tr-p-rmse by more than this fraction of it. Ansor
    // counts any decrease; on measured records the training error keeps falling by hair's breadths for
    // thousands of rounds (2357 rounds, 9 s, for 3600 programs), so TuneScope asks for 0.1%.
    double earlyStoppingMinDelta = 0.001;
    // "pack-sum-mse": Ansor's pack_sum_square_error. "pack-sum-rank": TuneScope's pairwise rank loss on the
    // same pack sums (RankNet's logistic loss over the pairs of programs of one task, each pair weighted by
    // the difference of their labels): the search only needs the order within a task. Early stopping then
    // watches that loss instead of tr-p-rmse.
    std::string objective = "pack-sum-mse";
    // tree_method. Ansor left XGBoost's default, which in 1.7 is "exact" for data in memory; "hist" ranks as
    // well on our benchmark and trains about 10x faster at 10k programs (bench_xgb.cpp), and XGBoost 2.0
    // made it the default. "exact" reproduces Ansor.
    std::string treeMethod = "hist";
    double baseScore = 0.5; // base_score: every row starts here (XGBoost's default, as Ansor)

    // {"max_depth":10,"gamma":0.001,...}
    std::string toJson() const;
    // Missing keys keep their defaults; an unknown key, a wrong type or a value out of range is an error.
    static Expected<PackSumSettings> fromJson(std::string_view json);
    bool operator==(const PackSumSettings&) const = default;
};

struct PackSumTrainStats {
    int rounds = 0; // trees built (all of them are used to predict)
    int bestRound = -1; // 0-based round with the lowest tr-p-rmse
    double bestRmse = 0.0; // that tr-p-rmse
    bool stopped = false; // the stop token ended training early; the trees built so far are kept
    double seconds = 0.0; // wall time of train()
};

class PackSumBooster {
public:
    explicit PackSumBooster(PackSumSettings settings = {});
    ~PackSumBooster();
    PackSumBooster(PackSumBooster&&) noexcept;
    PackSumBooster& operator=(PackSumBooster&&) noexcept;
    PackSumBooster(const PackSumBooster&) = delete;
    PackSumBooster& operator=(const PackSumBooster&) = delete;

    const PackSumSettings& settings() const { return m_settings; }
    bool trained() const { return m_booster != nullptr; }
    // The feature count the trained model expects (0 before training).
    int columns() const { return m_columns; }
    int rounds() const { return m_rounds; }

    // Trains a new model from scratch (Ansor retrains on all data every update). labels[i] and weights[i]
    // belong to program i; empty weights means weight = label (Ansor). On error the previous model stays.
    Expected<PackSumTrainStats> train(const PackedMatrix& data, std::span<const float> labels,
        std::span<const float> weights = {}, std::stop_token stop = {});

    // One score per program: the sum of its rows' margins.
    Expected<std::vector<float>> predict(const PackedMatrix& data) const;
    // One score per row (Ansor's predict_stages): the partial scores the program sums are made of.
    Expected<std::vector<float>> predictRows(const PackedMatrix& data) const;

    // The model as bytes: a TuneScope header (magic "TSXGBPS1", format version, settings, shape, checksum)
    // around XGBoost's UBJSON model. load() refuses a truncated, corrupted or foreign blob with a Parse error
    // before XGBoost sees it, and keeps the current model in that case. A loaded model predicts bit for bit
    // what the saved one did. load() takes the saved settings except nthread, which stays this booster's.
    Expected<std::vector<uint8_t>> save() const;
    Expected<void> load(std::span<const uint8_t> bytes);

private:
    PackSumSettings m_settings;
    std::unique_ptr<xgb::Booster> m_booster;
    int m_columns = 0;
    int m_rounds = 0;
};

// Sums per-row scores into per-program scores (groupSizes as in PackedMatrix).
std::vector<float> sumPacks(std::span<const float> rowScores, std::span<const int> groupSizes);

} // namespace ts::cost
