// AutoTVM's index-based tuners: RandomTuner and GridSearchTuner over a range of a ConfigSpace's indices.
//
// Re-created from TVM v0.19.0 python/tvm/autotvm/tuner/index_based_tuner.py. Both work on the index range
// [begin, end] (inclusive, TVM's range_idx; the whole space by default) and keep a visited list:
// - GridSearchTuner proposes the indices in increasing order;
// - RandomTuner draws uniformly from the range and redraws an index it has already visited (TVM's
//   get_rand_index rejection loop), so it samples without replacement.
// They ignore update(). The space has no multi_filter yet, so every index in range is valid.
#pragma once

#include "core/search/autotvm/tuner.h"
#include "core/support/rng.h"

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ts::autotvm {

class ConfigSpace;

// The index range a tuner may propose from: [begin, end], both inclusive (TVM's range_idx).
struct IndexRange {
    int64_t begin = 0;
    int64_t end = 0;
};

class IndexBasedTuner : public Tuner {
public:
    // range: the whole space when absent. Asserts begin >= 0, begin <= end < space.size().
    IndexBasedTuner(const ConfigSpace& space, std::optional<IndexRange> range);

    void update(const std::vector<int64_t>&, const std::vector<double>&) override { }
    bool hasNext() const override { return static_cast<int64_t>(m_visited.size()) < rangeLength(); }

    // The proposed indices in proposal order (TVM's visited list).
    const std::vector<int64_t>& visited() const { return m_visited; }

protected:
    int64_t rangeLength() const { return m_end - m_begin; }

    int64_t m_begin = 0; // inclusive
    int64_t m_end = 0; // exclusive
    std::vector<int64_t> m_visited;
};

class GridSearchTuner final : public IndexBasedTuner {
public:
    explicit GridSearchTuner(const ConfigSpace& space, std::optional<IndexRange> range = std::nullopt);
    std::vector<int64_t> nextBatch(int batchSize) override;

private:
    int64_t m_next = 0;
};

class RandomTuner final : public IndexBasedTuner {
public:
    explicit RandomTuner(const ConfigSpace& space, uint64_t seed, std::optional<IndexRange> range = std::nullopt);
    std::vector<int64_t> nextBatch(int batchSize) override;

private:
    Rng m_rng;
    std::unordered_set<int64_t> m_visitedSet;
};

} // namespace ts::autotvm
