// Synthetic pack-sum data for PackSumBooster's tests and its benchmark (tests/benchmarks/bench_xgb.cpp).
//
// A program is minRows..maxRows rows of `columns` features shaped like Ansor's per-store features: a
// quarter are 0/1 flags, a quarter log2(1 + count) values, a quarter continuous in [0, 1), a quarter eight
// levels in [0, 1]. Each row contributes rowScore(row) >= 0, a nonlinear function of a few columns, and a
// program's label is the sum over its rows, divided by the largest such sum so labels lie in [0, 1] as
// Ansor's normalized throughputs do. rowTruth keeps every row's share of its label.
#pragma once

#include "core/cost/xgb_booster.h"
#include "core/support/rng.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ts::cost::testing {

struct SyntheticPacks {
    PackedMatrix matrix;
    std::vector<float> labels;
    std::vector<float> rowTruth;
};

inline float syntheticFeature(Rng& rng, int column)
{
    switch (column % 4) {
    case 0:
        return rng.bernoulli(0.5) ? 1.0f : 0.0f;
    case 1:
        return static_cast<float>(std::log2(1.0 + static_cast<double>(rng.uniformInt(0, 1023))));
    case 2:
        return static_cast<float>(rng.uniform());
    default:
        return static_cast<float>(rng.uniformInt(0, 7)) / 7.0f;
    }
}

// Needs columns >= 7.
inline double rowScore(const float* x)
{
    return 0.5 * x[2] * x[2] + 0.3 * x[0] * (x[1] / 10.0) + 0.2 * x[3] + 0.1 * (x[6] > 0.5f ? 1.0 : 0.0)
        + 0.1 * x[4] * x[5] / 10.0;
}

inline SyntheticPacks makeSyntheticPacks(int programs, int columns, uint64_t seed, int minRows = 2, int maxRows = 6)
{
    Rng rng(seed);
    SyntheticPacks out;
    out.matrix.columns = columns;
    out.matrix.groupSizes.reserve(static_cast<size_t>(programs));
    out.matrix.values.reserve(static_cast<size_t>(programs) * static_cast<size_t>((minRows + maxRows) / 2 + 1)
        * static_cast<size_t>(columns));
    std::vector<double> sums;
    std::vector<double> rowScores;
    for (int p = 0; p < programs; ++p) {
        const int rows = static_cast<int>(rng.uniformInt(minRows, maxRows));
        out.matrix.groupSizes.push_back(rows);
        double sum = 0.0;
        for (int r = 0; r < rows; ++r) {
            const size_t start = out.matrix.values.size();
            for (int c = 0; c < columns; ++c)
                out.matrix.values.push_back(syntheticFeature(rng, c));
            rowScores.push_back(rowScore(&out.matrix.values[start]));
            sum += rowScores.back();
        }
        sums.push_back(sum);
    }
    const double best = std::max(*std::max_element(sums.begin(), sums.end()), 1e-12);
    for (double sum : sums)
        out.labels.push_back(static_cast<float>(sum / best));
    for (double score : rowScores)
        out.rowTruth.push_back(static_cast<float>(score / best));
    return out;
}

// The programs [begin, end) of `packs` as a matrix of their own, with their labels.
inline SyntheticPacks sliceProgramsOf(const SyntheticPacks& packs, size_t begin, size_t end)
{
    SyntheticPacks out;
    const auto columns = static_cast<size_t>(packs.matrix.columns);
    out.matrix.columns = packs.matrix.columns;
    size_t row = 0;
    for (size_t p = 0; p < begin; ++p)
        row += static_cast<size_t>(packs.matrix.groupSizes[p]);
    for (size_t p = begin; p < end; ++p) {
        const auto rows = static_cast<size_t>(packs.matrix.groupSizes[p]);
        out.matrix.groupSizes.push_back(packs.matrix.groupSizes[p]);
        out.matrix.values.insert(out.matrix.values.end(),
            packs.matrix.values.begin() + static_cast<long>(row * columns),
            packs.matrix.values.begin() + static_cast<long>((row + rows) * columns));
        out.rowTruth.insert(out.rowTruth.end(), packs.rowTruth.begin() + static_cast<long>(row),
            packs.rowTruth.begin() + static_cast<long>(row + rows));
        out.labels.push_back(packs.labels[p]);
        row += rows;
    }
    return out;
}

// The share of pairs with different labels that `scores` orders as the labels do.
inline double pairwiseAccuracy(const std::vector<float>& scores, const std::vector<float>& labels)
{
    size_t right = 0, pairs = 0;
    for (size_t i = 0; i < labels.size(); ++i)
        for (size_t j = i + 1; j < labels.size(); ++j) {
            if (labels[i] == labels[j])
                continue;
            ++pairs;
            if ((scores[i] - scores[j]) * (labels[i] - labels[j]) > 0)
                ++right;
        }
    return pairs ? static_cast<double>(right) / static_cast<double>(pairs) : 0.0;
}

} // namespace ts::cost::testing
