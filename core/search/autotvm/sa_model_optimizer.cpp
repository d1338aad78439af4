#include "core/search/autotvm/sa_model_optimizer.h"

#include "core/search/autotvm/config_space.h"
#include "core/support/assert.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ts::autotvm {

int64_t randomWalk(const ConfigSpace& space, int64_t point, Rng& rng)
{
    if (space.size() <= 1)
        return point;
    const std::vector<size_t> old = space.knobIndexes(point);
    std::vector<size_t> knobs = old;
    while (knobs == old) {
        const size_t i = static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(knobs.size()) - 1));
        knobs[i] = static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(space.knob(i).size()) - 1));
    }
    return space.indexOf(knobs);
}

SimulatedAnnealingOptimizer::SimulatedAnnealingOptimizer(const ConfigSpace& space, uint64_t seed, SaOptions options)
    : m_space(&space)
    , m_rng(seed)
    , m_options(options)
{
    TS_ASSERT(options.parallelSize > 0 && options.nIter >= 0 && options.earlyStop >= 0)
        << "SimulatedAnnealingOptimizer: bad options";
    m_options.parallelSize = static_cast<int>(std::min<int64_t>(options.parallelSize, space.size()));
}

namespace {
    using HeapItem = std::pair<double, int64_t>; // (score, index), a min-heap as Python's heapq
    constexpr auto kHeapLess = std::greater<HeapItem>();
} // namespace

std::vector<int64_t> SimulatedAnnealingOptimizer::findMaximums(
    const ScoreFunction& score, int num, const std::unordered_set<int64_t>& exclusive)
{
    TS_ASSERT(num >= 0) << "findMaximums: negative num";
    std::vector<int64_t> points;
    if (m_options.persistent && !m_points.empty()) {
        points = m_points;
    } else {
        std::unordered_set<int64_t> seen;
        while (static_cast<int>(points.size()) < m_options.parallelSize) {
            const int64_t p = m_rng.uniformInt(0, m_space->size() - 1);
            if (seen.insert(p).second)
                points.push_back(p);
        }
    }
    std::vector<double> scores = score(points);
    TS_ASSERT(scores.size() == points.size())
        << "score function returned " << scores.size() << " scores for " << points.size() << " indices";

    // Sentinels (-inf, -1 - i) fill the heap; in_heap holds the excluded indices and those in the heap.
    std::vector<HeapItem> heap;
    std::unordered_set<int64_t> inHeap = exclusive;
    for (int i = 0; i < num; ++i) {
        heap.emplace_back(-std::numeric_limits<double>::infinity(), -1 - static_cast<int64_t>(i));
        inHeap.insert(-1 - static_cast<int64_t>(i));
    }
    std::make_heap(heap.begin(), heap.end(), kHeapLess);
    auto offer = [&](double s, int64_t p) {
        if (heap.empty() || !(s > heap.front().first) || inHeap.contains(p))
            return false;
        std::pop_heap(heap.begin(), heap.end(), kHeapLess);
        inHeap.erase(heap.back().second);
        heap.back() = { s, p };
        std::push_heap(heap.begin(), heap.end(), kHeapLess);
        inHeap.insert(p);
        return true;
    };
    for (size_t i = 0; i < points.size(); ++i)
        offer(scores[i], points[i]);

    double t = m_options.tempStart;
    const double cool = (m_options.tempStart - m_options.tempEnd) / (m_options.nIter + 1);
    const int earlyStop = m_options.earlyStop > 0 ? m_options.earlyStop : std::numeric_limits<int>::max();
    int k = 0;
    int kLastModify = 0;
    std::vector<int64_t> newPoints(points.size());
    while (k < m_options.nIter && k - kLastModify < earlyStop) {
        for (size_t i = 0; i < points.size(); ++i)
            newPoints[i] = randomWalk(*m_space, points[i], m_rng);
        const std::vector<double> newScores = score(newPoints);
        TS_ASSERT(newScores.size() == newPoints.size()) << "score function returned a wrong number of scores";
        for (size_t i = 0; i < points.size(); ++i) {
            const double acceptProb = std::exp(std::min((newScores[i] - scores[i]) / (t + 1e-5), 1.0));
            if (m_rng.uniform() < acceptProb) {
                points[i] = newPoints[i];
                scores[i] = newScores[i];
            }
        }
        for (size_t i = 0; i < newPoints.size(); ++i) {
            if (offer(newScores[i], newPoints[i]))
                kLastModify = k;
        }
        ++k;
        t -= cool;
    }
    m_lastIterations = k;

    std::sort(heap.begin(), heap.end(), [](const HeapItem& a, const HeapItem& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<int64_t> out;
    for (const HeapItem& item : heap) {
        if (item.second >= 0)
            out.push_back(item.second);
    }
    if (m_options.persistent)
        m_points = std::move(points);
    return out;
}

} // namespace ts::autotvm
