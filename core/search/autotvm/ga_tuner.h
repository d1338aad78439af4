// AutoTVM's GATuner: a genetic algorithm whose genes are a config's knob indexes, with no cost model.
//
// Re-created from TVM v0.19.0 python/tvm/autotvm/tuner/ga_tuner.py. The flow:
// 1. The first generation is popSize distinct random indices (sample_ints), all marked visited.
// 2. nextBatch hands out the generation's genes in order; update records their scores (GFLOP/s, 0 = failed).
// 3. Once every gene of the generation is scored, the next generation is made:
//    - if at most popSize indices are still unvisited, it is exactly those, in index order;
//    - otherwise the parents are this generation plus the previous elites. The eliteNum best of them become
//      the new elites (kept only as parents, never re-proposed). Until popSize genes are made: pick two
//      distinct parents by roulette on score (scores + 1e-8, normalised), cut at a random knob position
//      (child = p1[:point] + p2[point:]), mutate each knob with mutationProb to a random entity, and mark the
//      child visited.
// Deviations from v0.19.0, both so that no index is proposed twice: a child that is already visited gets one
// random knob re-drawn until it is not (the loop TVM had before #12545 introduced multi_filter; v0.19.0 re-
// proposes visited configs), and nextBatch stops at the end of a generation instead of wrapping around it
// (trial_pt % pop_size). Results are matched to genes by index, not by arrival order.
#pragma once

#include "core/search/autotvm/tuner.h"
#include "core/support/rng.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ts::autotvm {

class ConfigSpace;

struct GaOptions {
    int popSize = 100;
    int eliteNum = 3;
    double mutationProb = 0.1;
};

class GATuner final : public Tuner {
public:
    // Keeps a pointer to space, which must outlive the tuner.
    GATuner(const ConfigSpace& space, uint64_t seed, GaOptions options = {});

    std::vector<int64_t> nextBatch(int batchSize) override;
    void update(const std::vector<int64_t>& indices, const std::vector<double>& flopsPerSecond) override;
    bool hasNext() const override;

    int popSize() const { return m_popSize; }
    int64_t numVisited() const { return static_cast<int64_t>(m_visited.size()); }

private:
    using Gene = std::vector<size_t>;

    void nextGeneration();
    Gene crossoverAndMutate(const std::vector<Gene>& parents, const std::vector<double>& probs);

    const ConfigSpace* m_space;
    Rng m_rng;
    int m_popSize;
    int m_eliteNum;
    double m_mutationProb;

    std::unordered_set<int64_t> m_visited; // proposed or about to be (every gene of the current generation)
    std::vector<Gene> m_genes; // the current generation
    std::vector<int64_t> m_geneIndexes; // m_genes as indices
    std::unordered_map<int64_t, size_t> m_genePosition; // index -> position in m_genes
    std::vector<std::optional<double>> m_scores; // per gene, once told
    size_t m_numScored = 0;
    size_t m_trialPt = 0; // genes of this generation handed out
    int64_t m_numProposed = 0;
    std::vector<Gene> m_elites;
    std::vector<double> m_eliteScores;
};

} // namespace ts::autotvm
