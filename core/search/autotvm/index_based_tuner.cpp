#include "core/search/autotvm/index_based_tuner.h"

#include "core/search/autotvm/config_space.h"
#include "core/support/assert.h"

namespace ts::autotvm {

IndexBasedTuner::IndexBasedTuner(const ConfigSpace& space, std::optional<IndexRange> range)
{
    const IndexRange r = range.value_or(IndexRange { 0, space.size() - 1 });
    TS_ASSERT(r.begin >= 0) << "Start index must be non-negative, got " << r.begin;
    TS_ASSERT(r.end < space.size()) << "End index " << r.end << " beyond space of " << space.size();
    TS_ASSERT(r.begin <= r.end) << "Empty index range [" << r.begin << ", " << r.end << "]";
    m_begin = r.begin;
    m_end = r.end + 1;
}

GridSearchTuner::GridSearchTuner(const ConfigSpace& space, std::optional<IndexRange> range)
    : IndexBasedTuner(space, range)
    , m_next(m_begin)
{
}

std::vector<int64_t> GridSearchTuner::nextBatch(int batchSize)
{
    std::vector<int64_t> out;
    while (static_cast<int>(out.size()) < batchSize && hasNext()) {
        m_visited.push_back(m_next);
        out.push_back(m_next);
        ++m_next;
    }
    return out;
}

RandomTuner::RandomTuner(const ConfigSpace& space, uint64_t seed, std::optional<IndexRange> range)
    : IndexBasedTuner(space, range)
    , m_rng(seed)
{
}

std::vector<int64_t> RandomTuner::nextBatch(int batchSize)
{
    std::vector<int64_t> out;
    while (static_cast<int>(out.size()) < batchSize && hasNext()) {
        int64_t index = 0;
        do
            index = m_rng.uniformInt(m_begin, m_end - 1);
        while (m_visitedSet.contains(index));
        m_visitedSet.insert(index);
        m_visited.push_back(index);
        out.push_back(index);
    }
    return out;
}

} // namespace ts::autotvm
