#include "core/cost/xgb_booster.h"

#include "core/cost/xgb_api.h"
#include "core/support/assert.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

namespace ts::cost {

namespace xgb {

    Booster::~Booster()
    {
        if (m_handle)
            XGBoosterFree(m_handle);
    }

    DMatrix::~DMatrix()
    {
        if (m_handle)
            XGDMatrixFree(m_handle);
    }

    Expected<void> silence()
    {
        thread_local bool silenced = false;
        if (silenced)
            return {};
        TS_CHECK(check(XGBSetGlobalConfig("{\"verbosity\":0}"), "XGBSetGlobalConfig"));
        silenced = true;
        return {};
    }

    Expected<void> check(int rc, const char* what, ErrorKind kind)
    {
        if (rc == 0)
            return {};
        const char* reason = XGBGetLastError();
        return makeError(
            kind, std::string("XGBoost ") + what + " failed: " + (reason && *reason ? reason : "no message"));
    }

    std::string arrayInterface(const float* data, size_t rows, size_t columns)
    {
        return "{\"data\":[" + std::to_string(reinterpret_cast<uintptr_t>(data)) + ",true],\"shape\":["
            + std::to_string(rows) + "," + std::to_string(columns) + "],\"typestr\":\"<f4\",\"version\":3}";
    }

    namespace {
        Expected<void> setParam(BoosterHandle booster, const char* name, const std::string& value)
        {
            return check(XGBoosterSetParam(booster, name, value.c_str()), "XGBoosterSetParam");
        }

        // Text that reads back as the same double.
        std::string number(double value)
        {
            char text[32];
            std::snprintf(text, sizeof text, "%.17g", value);
            return text;
        }

        Expected<void> setRuntimeParams(BoosterHandle booster, const PackSumSettings& settings)
        {
            TS_CHECK(setParam(booster, "verbosity", "0"));
            TS_CHECK(setParam(booster, "nthread", std::to_string(settings.nthread)));
            TS_CHECK(setParam(booster, "seed", std::to_string(settings.seed)));
            return {};
        }
    } // namespace

    Expected<void> setTrainingParams(BoosterHandle booster, const PackSumSettings& settings)
    {
        TS_CHECK(setParam(booster, "objective", "reg:squarederror")); // unused: gradients come from us
        TS_CHECK(setParam(booster, "disable_default_eval_metric", "1"));
        TS_CHECK(setParam(booster, "max_depth", std::to_string(settings.maxDepth)));
        TS_CHECK(setParam(booster, "gamma", number(settings.gamma)));
        TS_CHECK(setParam(booster, "min_child_weight", number(settings.minChildWeight)));
        TS_CHECK(setParam(booster, "eta", number(settings.eta)));
        TS_CHECK(setParam(booster, "tree_method", settings.treeMethod));
        TS_CHECK(setParam(booster, "base_score", number(settings.baseScore)));
        return {};
    }

    Expected<std::unique_ptr<Booster>> createBooster(const PackSumSettings& settings, DMatrixHandle train)
    {
        TS_CHECK(silence());
        BoosterHandle raw = nullptr;
        DMatrixHandle cache[1] = { train };
        TS_CHECK(check(XGBoosterCreate(train ? cache : nullptr, train ? 1 : 0, &raw), "XGBoosterCreate"));
        auto handle = std::make_unique<Booster>(raw);
        TS_CHECK(setRuntimeParams(raw, settings));
        return handle;
    }

} // namespace xgb

namespace {

    Expected<void> checkShape(const PackedMatrix& data, const char* what)
    {
        const std::string where = std::string("pack-sum booster: ") + what + ": ";
        if (data.columns <= 0)
            return makeError(ErrorKind::InvalidArgument, where + "columns must be >= 1");
        if (data.values.size() % static_cast<size_t>(data.columns) != 0)
            return makeError(ErrorKind::InvalidArgument,
                where + std::to_string(data.values.size()) + " values are not a whole number of rows of "
                    + std::to_string(data.columns) + " columns");
        int64_t sum = 0;
        for (size_t i = 0; i < data.groupSizes.size(); ++i) {
            if (data.groupSizes[i] < 0)
                return makeError(ErrorKind::InvalidArgument,
                    where + "program " + std::to_string(i) + " has " + std::to_string(data.groupSizes[i]) + " rows");
            sum += data.groupSizes[i];
        }
        if (static_cast<size_t>(sum) != data.rows())
            return makeError(ErrorKind::InvalidArgument,
                where + "group sizes add up to " + std::to_string(sum) + " rows, the matrix has "
                    + std::to_string(data.rows()));
        return {};
    }

    // RankNet's loss over every pair of programs of one task with different labels, weighted by the label
    // difference: for l_i > l_j, loss log(1 + exp(-(s_i - s_j))). Fills each program's gradient and hessian
    // with respect to its pack sum; returns the mean loss per pair.
    double rankGradients(const std::vector<double>& sums, std::span<const float> labels,
        const std::vector<std::vector<size_t>>& byTask, std::vector<double>& grad, std::vector<double>& hess)
    {
        std::fill(grad.begin(), grad.end(), 0.0);
        std::fill(hess.begin(), hess.end(), 0.0);
        double loss = 0.0;
        double pairs = 0.0;
        for (const std::vector<size_t>& programs : byTask) {
            for (size_t a = 0; a < programs.size(); ++a) {
                for (size_t b = a + 1; b < programs.size(); ++b) {
                    size_t i = programs[a];
                    size_t j = programs[b];
                    if (labels[i] == labels[j])
                        continue;
                    if (labels[i] < labels[j])
                        std::swap(i, j);
                    const double weight = static_cast<double>(labels[i] - labels[j]);
                    const double d = sums[i] - sums[j];
                    const double sigma = 1.0 / (1.0 + std::exp(d)); // the probability the pair is misordered
                    grad[i] -= weight * sigma;
                    grad[j] += weight * sigma;
                    const double h = weight * sigma * (1.0 - sigma);
                    hess[i] += h;
                    hess[j] += h;
                    loss += weight * (d > 30 ? std::exp(-d) : std::log1p(std::exp(-d)));
                    pairs += weight;
                }
            }
        }
        return pairs > 0 ? loss / pairs : 0.0;
    }

    struct Trained {
        std::unique_ptr<xgb::Booster> booster;
        PackSumTrainStats stats;
    };

    // Ansor's loop (xgb.train with pack_sum_square_error and CustomCallback), one round at a time. Runs on
    // the thread train() starts, so that XGBoost's thread-local training caches die with it.
    Expected<Trained> trainHere(const PackSumSettings& settings, const PackedMatrix& data,
        std::span<const float> labels, std::span<const float> weights, std::stop_token stop)
    {
        TS_CHECK(xgb::silence());
        const size_t rows = data.rows();
        // Program of each row, and its weight (Ansor's DMatrix weights are per row too).
        std::vector<int> program(rows);
        std::vector<float> rowWeights(rows);
        for (size_t p = 0, row = 0; p < data.groupSizes.size(); ++p)
            for (int k = 0; k < data.groupSizes[p]; ++k, ++row) {
                program[row] = static_cast<int>(p);
                rowWeights[row] = weights.empty() ? labels[p] : weights[p];
            }

        // From a typed float pointer: XGDMatrixCreateFromDense (array interface) dispatches on the element
        // type for every value and takes about twice as long.
        xgb::DMatrix train;
        TS_CHECK(xgb::check(XGDMatrixCreateFromMat_omp(data.values.data(), rows, static_cast<bst_ulong>(data.columns),
                                std::numeric_limits<float>::quiet_NaN(), train.out(), settings.nthread),
            "XGDMatrixCreateFromMat_omp"));
        TS_CHECK(xgb::check(
            XGDMatrixSetFloatInfo(train.get(), "weight", rowWeights.data(), rows), "XGDMatrixSetFloatInfo(weight)"));
        TS_TRY(auto booster, xgb::createBooster(settings, train.get()));
        TS_CHECK(xgb::setTrainingParams(booster->get(), settings));

        // Margins of the training rows with the trees so far; XGBoost caches them, so each call only adds
        // the newest tree.
        const char* predictConfig = "{\"type\":1,\"training\":true,\"iteration_begin\":0,\"iteration_end\":0,"
                                    "\"strict_shape\":false}";
        auto margins = [&]() -> Expected<const float*> {
            const bst_ulong* shape = nullptr;
            bst_ulong dims = 0;
            const float* out = nullptr;
            TS_CHECK(
                xgb::check(XGBoosterPredictFromDMatrix(booster->get(), train.get(), predictConfig, &shape, &dims, &out),
                    "XGBoosterPredictFromDMatrix"));
            if (dims != 1 || shape[0] != rows)
                return makeError(ErrorKind::Internal, "XGBoost returned a prediction of the wrong shape");
            return out;
        };

        const bool rank = settings.objective == "pack-sum-rank";
        std::vector<std::vector<size_t>> byTask; // programs of each task, for the rank objective
        if (rank) {
            std::map<int, size_t> index;
            for (size_t p = 0; p < data.groupSizes.size(); ++p) {
                const int task = data.tasks.empty() ? 0 : data.tasks[p];
                auto [it, added] = index.emplace(task, byTask.size());
                if (added)
                    byTask.emplace_back();
                byTask[it->second].push_back(p);
            }
        }
        std::vector<double> programGrad(data.groupSizes.size()), programHess(data.groupSizes.size());
        std::vector<double> packSum(data.groupSizes.size());
        std::vector<float> grad(rows), hess(rows);
        auto sumPacksOf = [&](const float* margin) {
            std::fill(packSum.begin(), packSum.end(), 0.0);
            for (size_t row = 0; row < rows; ++row)
                packSum[static_cast<size_t>(program[row])] += margin[row];
        };

        PackSumTrainStats stats;
        double best = std::numeric_limits<double>::infinity();
        TS_TRY(const float* margin, margins());
        bool evaluated = false; // the last evaluation left packSum (and the rank gradients) of these margins
        for (int round = 0; round < settings.numBoostRound; ++round) {
            if (stop.stop_requested()) {
                stats.stopped = true;
                break;
            }
            if (!evaluated) {
                sumPacksOf(margin);
                if (rank)
                    rankGradients(packSum, labels, byTask, programGrad, programHess);
            }
            evaluated = false;
            if (rank) {
                // RankNet on the pack sums, per task: every row of a program gets its program's gradient.
                for (size_t row = 0; row < rows; ++row) {
                    const auto p = static_cast<size_t>(program[row]);
                    grad[row] = static_cast<float>(programGrad[p]);
                    hess[row] = static_cast<float>(std::max(programHess[p], 1e-6));
                }
            } else {
                // pack_sum_square_error: every row of a program gets (sum - label) * weight, hessian weight.
                for (size_t row = 0; row < rows; ++row) {
                    const auto p = static_cast<size_t>(program[row]);
                    grad[row] = static_cast<float>((packSum[p] - labels[p]) * rowWeights[row]);
                    hess[row] = rowWeights[row];
                }
            }
            TS_CHECK(xgb::check(XGBoosterBoostOneIter(booster->get(), train.get(), grad.data(), hess.data(), rows),
                "XGBoosterBoostOneIter"));
            stats.rounds = round + 1;
            TS_TRY(margin, margins());
            if (round % settings.evalEvery != 0)
                continue;
            // tr-p-rmse as Ansor computes it: over rows, each row compared with its program's sum; with the rank
            // objective, the mean pairwise logistic loss instead (its gradients serve the next round).
            sumPacksOf(margin);
            evaluated = true;
            double rmse = 0.0;
            if (rank) {
                rmse = rankGradients(packSum, labels, byTask, programGrad, programHess);
            } else {
                double squares = 0.0;
                for (size_t row = 0; row < rows; ++row) {
                    const auto p = static_cast<size_t>(program[row]);
                    squares += (packSum[p] - labels[p]) * (packSum[p] - labels[p]);
                }
                rmse = std::sqrt(squares / static_cast<double>(std::max<size_t>(rows, 1)));
            }
            if (rmse < best * (1.0 - settings.earlyStoppingMinDelta)) {
                best = rmse;
                stats.bestRound = round;
                stats.bestRmse = rmse;
            } else if (settings.earlyStoppingRounds > 0 && round - stats.bestRound >= settings.earlyStoppingRounds)
                break;
        }
        return Trained { std::move(booster), stats };
    }

} // namespace

PackSumBooster::PackSumBooster(PackSumSettings settings)
    : m_settings(std::move(settings))
{
}

PackSumBooster::~PackSumBooster() = default;
PackSumBooster::PackSumBooster(PackSumBooster&&) noexcept = default;
PackSumBooster& PackSumBooster::operator=(PackSumBooster&&) noexcept = default;

Expected<PackSumTrainStats> PackSumBooster::train(
    const PackedMatrix& data, std::span<const float> labels, std::span<const float> weights, std::stop_token stop)
{
    const auto start = std::chrono::steady_clock::now();
    TS_CHECK(xgb::validate(m_settings));
    TS_CHECK(checkShape(data, "train"));
    if (labels.size() != data.programs())
        return makeError(ErrorKind::InvalidArgument,
            "pack-sum booster: train: " + std::to_string(labels.size()) + " labels for "
                + std::to_string(data.programs()) + " programs");
    if (!weights.empty() && weights.size() != data.programs())
        return makeError(ErrorKind::InvalidArgument,
            "pack-sum booster: train: " + std::to_string(weights.size()) + " weights for "
                + std::to_string(data.programs()) + " programs");
    if (data.rows() == 0)
        return makeError(ErrorKind::InvalidArgument, "pack-sum booster: train: no rows to learn from");
    for (size_t p = 0; p < labels.size(); ++p)
        if (!std::isfinite(labels[p]) || (!weights.empty() && !(std::isfinite(weights[p]) && weights[p] >= 0)))
            return makeError(ErrorKind::InvalidArgument,
                "pack-sum booster: train: program " + std::to_string(p) + " has a non-finite label or a bad weight");

    std::optional<Expected<Trained>> result;
    try {
        std::thread worker([&] {
            try {
                result.emplace(trainHere(m_settings, data, labels, weights, stop));
            } catch (const std::exception& e) {
                result.emplace(makeError(ErrorKind::Internal, std::string("pack-sum booster: train: ") + e.what()));
            }
        });
        worker.join();
    } catch (const std::system_error& e) {
        return makeError(ErrorKind::Internal, std::string("pack-sum booster: train: no thread: ") + e.what());
    }
    if (!*result)
        return result->error();
    Trained& trained = result->value();
    trained.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (trained.stats.rounds > 0) {
        m_booster = std::move(trained.booster);
        m_columns = data.columns;
        m_rounds = trained.stats.rounds;
    }
    return trained.stats;
}

Expected<std::vector<float>> PackSumBooster::predictRows(const PackedMatrix& data) const
{
    if (!m_booster)
        return makeError(ErrorKind::InvalidArgument, "pack-sum booster: predict: the model is not trained");
    TS_CHECK(checkShape(data, "predict"));
    if (data.columns != m_columns)
        return makeError(ErrorKind::InvalidArgument,
            "pack-sum booster: predict: rows have " + std::to_string(data.columns)
                + " columns, the model was trained on " + std::to_string(m_columns));
    const size_t rows = data.rows();
    if (rows == 0)
        return std::vector<float> {};
    TS_CHECK(xgb::silence());
    // In-place prediction reads our rows where they are: no DMatrix is built.
    const std::string array = xgb::arrayInterface(data.values.data(), rows, static_cast<size_t>(data.columns));
    const char* config = "{\"type\":1,\"training\":false,\"iteration_begin\":0,\"iteration_end\":0,"
                         "\"strict_shape\":false,\"cache_id\":0,\"missing\":NaN}";
    const bst_ulong* shape = nullptr;
    bst_ulong dims = 0;
    const float* out = nullptr;
    TS_CHECK(
        xgb::check(XGBoosterPredictFromDense(m_booster->get(), array.c_str(), config, nullptr, &shape, &dims, &out),
            "XGBoosterPredictFromDense"));
    if (dims != 1 || shape[0] != rows)
        return makeError(ErrorKind::Internal, "pack-sum booster: predict: XGBoost returned the wrong shape");
    return std::vector<float>(out, out + rows);
}

Expected<std::vector<float>> PackSumBooster::predict(const PackedMatrix& data) const
{
    TS_TRY(auto rows, predictRows(data));
    return sumPacks(rows, data.groupSizes);
}

std::vector<float> sumPacks(std::span<const float> rowScores, std::span<const int> groupSizes)
{
    std::vector<float> sums;
    sums.reserve(groupSizes.size());
    size_t row = 0;
    for (int size : groupSizes) {
        TS_ASSERT(size >= 0 && row + static_cast<size_t>(size) <= rowScores.size())
            << "sumPacks: the group sizes need more than the " << rowScores.size() << " row scores given";
        double sum = 0.0;
        for (int k = 0; k < size; ++k, ++row)
            sum += rowScores[row];
        sums.push_back(static_cast<float>(sum));
    }
    TS_ASSERT(row == rowScores.size()) << "sumPacks: " << rowScores.size() << " row scores, groups of " << row;
    return sums;
}

} // namespace ts::cost
