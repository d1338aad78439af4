#include "core/search/autotvm/ga_tuner.h"

#include "core/search/autotvm/config_space.h"
#include "core/support/assert.h"

#include <algorithm>
#include <numeric>

namespace ts::autotvm {

GATuner::GATuner(const ConfigSpace& space, uint64_t seed, GaOptions options)
    : m_space(&space)
    , m_rng(seed)
    , m_mutationProb(options.mutationProb)
{
    TS_ASSERT(options.popSize > 0 && options.eliteNum >= 0 && options.eliteNum <= options.popSize)
        << "GATuner needs 0 <= eliteNum <= popSize and popSize > 0";
    m_popSize = static_cast<int>(std::min<int64_t>(options.popSize, space.size()));
    m_eliteNum = std::min(m_popSize, options.eliteNum);

    // sample_ints: popSize distinct random indices.
    std::vector<int64_t> first;
    while (static_cast<int>(first.size()) < m_popSize) {
        const int64_t index = m_rng.uniformInt(0, space.size() - 1);
        if (m_visited.insert(index).second)
            first.push_back(index);
    }
    for (int64_t index : first)
        m_genes.push_back(space.knobIndexes(index));
    m_geneIndexes = first;
    for (size_t i = 0; i < first.size(); ++i)
        m_genePosition[first[i]] = i;
    m_scores.assign(m_genes.size(), std::nullopt);
}

std::vector<int64_t> GATuner::nextBatch(int batchSize)
{
    std::vector<int64_t> out;
    while (static_cast<int>(out.size()) < batchSize && m_trialPt < m_genes.size()) {
        out.push_back(m_geneIndexes[m_trialPt++]);
        ++m_numProposed;
    }
    return out;
}

bool GATuner::hasNext() const { return m_numProposed < m_space->size(); }

void GATuner::update(const std::vector<int64_t>& indices, const std::vector<double>& flopsPerSecond)
{
    TS_ASSERT(indices.size() == flopsPerSecond.size()) << "update: one result per index";
    for (size_t i = 0; i < indices.size(); ++i) {
        auto it = m_genePosition.find(indices[i]);
        TS_ASSERT(it != m_genePosition.end()) << "update: index " << indices[i] << " is not of this generation";
        TS_ASSERT(it->second < m_trialPt) << "update: index " << indices[i] << " was not proposed yet";
        TS_ASSERT(flopsPerSecond[i] >= 0.0) << "update: negative throughput for index " << indices[i];
        std::optional<double>& score = m_scores[it->second];
        if (!score)
            ++m_numScored;
        score = flopsPerSecond[i];
    }
    if (m_numScored == m_genes.size() && static_cast<int64_t>(m_visited.size()) < m_space->size())
        nextGeneration();
}

GATuner::Gene GATuner::crossoverAndMutate(const std::vector<Gene>& parents, const std::vector<double>& probs)
{
    // np.random.choice(indices, size=2, replace=False, p=probs): the second draw excludes the first.
    const size_t i1 = m_rng.weightedChoice(probs);
    std::vector<double> rest = probs;
    rest[i1] = 0.0;
    const size_t i2 = parents.size() > 1 ? m_rng.weightedChoice(rest) : i1;
    const Gene& p1 = parents[i1];
    const Gene& p2 = parents[i2];

    const size_t numKnobs = m_space->numKnobs();
    const size_t point = static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(numKnobs) - 1));
    Gene child(p1.begin(), p1.begin() + static_cast<ptrdiff_t>(point));
    child.insert(child.end(), p2.begin() + static_cast<ptrdiff_t>(point), p2.end());
    for (size_t j = 0; j < numKnobs; ++j) {
        if (m_rng.uniform() < m_mutationProb)
            child[j] = static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(m_space->knob(j).size()) - 1));
    }
    // Not in v0.19.0 (see the header): re-draw a random knob until the child is new.
    while (m_visited.contains(m_space->indexOf(child))) {
        const size_t j = static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(numKnobs) - 1));
        child[j] = static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(m_space->knob(j).size()) - 1));
    }
    return child;
}

void GATuner::nextGeneration()
{
    std::vector<Gene> next;
    const int64_t unvisited = m_space->size() - static_cast<int64_t>(m_visited.size());
    if (unvisited <= m_popSize) {
        // No point in crossover or mutation: take every unvisited index.
        for (int64_t index = 0; index < m_space->size(); ++index) {
            if (m_visited.insert(index).second)
                next.push_back(m_space->knobIndexes(index));
        }
    } else {
        std::vector<Gene> parents = m_genes;
        parents.insert(parents.end(), m_elites.begin(), m_elites.end());
        std::vector<double> scores;
        for (const std::optional<double>& s : m_scores)
            scores.push_back(*s);
        scores.insert(scores.end(), m_eliteScores.begin(), m_eliteScores.end());

        // Reserve the elites (np.argpartition; here the best first, ties to the earlier parent).
        std::vector<size_t> order(parents.size());
        std::iota(order.begin(), order.end(), size_t { 0 });
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
        m_elites.clear();
        m_eliteScores.clear();
        for (int e = 0; e < m_eliteNum; ++e) {
            m_elites.push_back(parents[order[static_cast<size_t>(e)]]);
            m_eliteScores.push_back(scores[order[static_cast<size_t>(e)]]);
        }

        for (double& s : scores)
            s += 1e-8;
        const double maxScore = *std::max_element(scores.begin(), scores.end());
        for (double& s : scores)
            s /= maxScore;
        // weightedChoice normalises; scores / sum(scores) as TVM's probs.
        while (static_cast<int>(next.size()) < m_popSize) {
            Gene child = crossoverAndMutate(parents, scores);
            m_visited.insert(m_space->indexOf(child));
            next.push_back(std::move(child));
        }
    }

    m_genes = std::move(next);
    m_geneIndexes.clear();
    m_genePosition.clear();
    for (size_t i = 0; i < m_genes.size(); ++i) {
        m_geneIndexes.push_back(m_space->indexOf(m_genes[i]));
        m_genePosition[m_geneIndexes.back()] = i;
    }
    m_scores.assign(m_genes.size(), std::nullopt);
    m_numScored = 0;
    m_trialPt = 0;
}

} // namespace ts::autotvm
