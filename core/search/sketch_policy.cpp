#include "core/search/sketch_policy.h"

#include "core/cost/analytical_model.h"
#include "core/lower/lower.h"
#include "core/search/annotation.h"
#include "core/support/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>

namespace ts::search {

namespace {
    double secondsSince(std::chrono::steady_clock::time_point start)
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    // The generator of individual `index` of a round: independent of which thread draws it.
    Rng itemRng(uint64_t roundSeed, int64_t index)
    {
        return Rng(roundSeed ^ (0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(index + 1)));
    }

    // Roulette-wheel selection by score (Ansor's ComputePrefixSumProb + RandomChoose): scores below zero
    // (a state the model cannot score) weigh nothing; all-zero scores choose uniformly.
    class Roulette {
    public:
        explicit Roulette(const std::vector<double>& scores)
        {
            double sum = 0.0;
            for (double s : scores) {
                sum += std::isfinite(s) && s > 0.0 ? s : 0.0;
                m_prefix.push_back(sum);
            }
        }
        size_t pick(Rng& rng) const
        {
            if (m_prefix.empty())
                return 0;
            const double total = m_prefix.back();
            if (total <= 0.0)
                return static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(m_prefix.size()) - 1));
            const double x = rng.uniform() * total;
            const auto it = std::upper_bound(m_prefix.begin(), m_prefix.end(), x);
            return std::min(static_cast<size_t>(it - m_prefix.begin()), m_prefix.size() - 1);
        }

    private:
        std::vector<double> m_prefix;
    };
} // namespace

SketchPolicy::SketchPolicy(
    SearchTask task, PolicyKind kind, SearchParams params, cost::CostModel& model, uint64_t seed, ThreadPool* pool)
    : m_task(std::move(task))
    , m_kind(kind)
    , m_params(forTarget(std::move(params), m_task.target))
    , m_model(&model)
    , m_rng(seed)
    , m_pool(pool)
{
    m_costTask
        = cost::CostTask { &m_task.dag, m_task.dag.workloadKey(), m_task.flops, m_task.target, m_task.packsWeights };
    // One pool for the search's work. Made whatever the model: the session may switch to a learned one.
    if (m_params.prefilterKeep < 1.0 || m_params.analyticalWarmup)
        m_analytical = std::make_unique<cost::AnalyticalCostModel>(m_params.machine, m_pool);
}

SketchPolicy::~SketchPolicy() = default;

Expected<const std::vector<Sketch>*> SketchPolicy::sketches()
{
    if (!m_sketches) {
        TS_TRY(std::vector<Sketch> generated, generateSketches(m_task, m_params));
        if (generated.empty())
            return makeError(ErrorKind::Internal, m_task.name + ": no sketch was generated");
        m_sketches = std::move(generated);
    }
    return &*m_sketches;
}

void SketchPolicy::parallelFor(int64_t n, const std::function<void(int64_t)>& body)
{
    // A broken invariant inside one individual's rules (an InternalError from a TS_ASSERT) drops that
    // individual and is counted; it must not escape a pool thread, which would end the process.
    std::atomic<int> internalErrors { 0 };
    const auto guarded = [&](int64_t i) {
        try {
            body(i);
        } catch (const std::exception&) {
            ++internalErrors;
        }
    };
    if (!m_pool || n < 64) {
        for (int64_t i = 0; i < n; ++i)
            guarded(i);
    } else {
        m_pool->parallelFor(n, [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i)
                guarded(i);
        });
    }
    m_stats.internalErrors += internalErrors.load();
}

namespace {
    // The device limits a state breaks that its inferred bounds already show, without lowering it (a
    // lowering costs milliseconds, this microseconds): each stage's threads, vthreads and vector width, and
    // the shared copies' bytes under each kernel root. The full check (lower::gpuKernels) decides for the states
    // picked.
    bool withinGpuLimitsBeforeLowering(const sched::State& state, const target::Target& t)
    {
        auto inferred = lower::inferBound(state);
        if (!inferred)
            return false;
        std::map<int, int64_t> sharedBytes; // by kernel root stage
        for (int id = 0; id < inferred->numStages(); ++id) {
            const sched::Stage& stage = inferred->stage(id);
            int64_t threads = 1, vthreads = 1;
            for (const sched::Iterator& it : stage.iters) {
                if (it.extent < 0)
                    continue;
                switch (it.annotation) {
                case sched::Annotation::ThreadX:
                case sched::Annotation::ThreadY:
                case sched::Annotation::ThreadZ:
                    threads *= it.extent;
                    break;
                case sched::Annotation::VThread:
                    vthreads *= it.extent;
                    break;
                case sched::Annotation::Vectorize:
                    if (t.vectorBytes > 0 && it.extent * ir::bytesOf(stage.op->dtype()) > t.vectorBytes)
                        return false;
                    break;
                default:
                    break;
                }
            }
            if ((t.maxThreadsPerBlock > 0 && threads > t.maxThreadsPerBlock)
                || (t.maxVThreadExtent > 0 && vthreads > t.maxVThreadExtent))
                return false;
            if (stage.scope != "shared" || stage.computeAt != sched::ComputeAtKind::Iter)
                continue;
            int64_t elements = 1;
            for (const sched::Iterator& it : stage.iters)
                elements *= std::max<int64_t>(1, it.extent);
            int root = stage.attachStage;
            for (int hops = 0; root >= 0 && hops < inferred->numStages()
                 && inferred->stage(root).computeAt == sched::ComputeAtKind::Iter;
                 ++hops)
                root = inferred->stage(root).attachStage;
            sharedBytes[root] += elements * ir::bytesOf(stage.op->dtype());
        }
        for (const auto& [root, bytes] : sharedBytes)
            if (t.maxSharedMemoryPerBlock > 0 && bytes > t.maxSharedMemoryPerBlock)
                return false;
        return true;
    }
} // namespace

std::vector<bool> SketchPolicy::launchable(std::span<const sched::State> states, bool lowered)
{
    std::vector<bool> out(states.size(), true);
    if (!m_task.target.isGpu())
        return out;
    auto& cache = lowered ? m_launchable : m_withinLimits;
    std::vector<uint64_t> hashes(states.size());
    std::vector<size_t> unknown;
    for (size_t i = 0; i < states.size(); ++i) {
        hashes[i] = stateHash(states[i]);
        if (auto known = cache.find(hashes[i]); known != cache.end())
            out[i] = known->second;
        else
            unknown.push_back(i);
    }
    std::vector<char> ok(unknown.size(), 0);
    const lower::LowerOptions options { "default_function", m_task.target, {} };
    parallelFor(static_cast<int64_t>(unknown.size()), [&](int64_t k) {
        const sched::State& state = states[unknown[static_cast<size_t>(k)]];
        ok[static_cast<size_t>(k)]
            = lowered ? lower::lower(state, options).hasValue() : withinGpuLimitsBeforeLowering(state, m_task.target);
    });
    for (size_t k = 0; k < unknown.size(); ++k) {
        out[unknown[k]] = ok[k] != 0;
        cache[hashes[unknown[k]]] = ok[k] != 0;
    }
    return out;
}

bool SketchPolicy::rankedByEstimate() const
{
    return m_analytical && m_params.analyticalWarmup && m_model->kind() != "analytical" && m_model->warmingUp();
}

std::vector<double> SketchPolicy::predict(std::span<const sched::State> states)
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<double> scores;
    const bool analytical = m_model->kind() == "analytical";
    if (rankedByEstimate()) {
        // The learned model's warm-up: its scores would be random; the estimate ranks instead.
        scores = m_analytical->predict(m_costTask, states);
        m_stats.warmupRanked += static_cast<int>(states.size());
    } else if (m_analytical && m_params.prefilterKeep < 1.0 && !analytical && states.size() > 1) {
        // The pre-filter: only the best prefilterKeep of the states by the analytical estimate reach the model.
        const std::vector<double> draft = m_analytical->predict(m_costTask, states);
        std::vector<size_t> order(states.size());
        std::iota(order.begin(), order.end(), size_t { 0 });
        const auto keep = static_cast<size_t>(std::ceil(m_params.prefilterKeep * static_cast<double>(states.size())));
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return draft[a] > draft[b]; });
        order.resize(std::max<size_t>(1, keep));
        std::sort(order.begin(), order.end());
        std::vector<sched::State> kept;
        for (size_t i : order)
            if (std::isfinite(draft[i]))
                kept.push_back(states[i]);
        const std::vector<double> learned = m_model->predict(m_costTask, kept);
        scores.assign(states.size(), -std::numeric_limits<double>::infinity());
        size_t k = 0;
        for (size_t i : order)
            if (std::isfinite(draft[i]) && k < learned.size())
                scores[i] = learned[k++];
    } else {
        scores = m_model->predict(m_costTask, states);
    }
    scores.resize(states.size(), -std::numeric_limits<double>::infinity());
    const std::vector<bool> canLaunch = launchable(states, false);
    for (size_t i = 0; i < states.size(); ++i)
        if (!canLaunch[i])
            scores[i] = -std::numeric_limits<double>::infinity();
    m_stats.predicted += static_cast<int>(states.size());
    m_stats.predictSeconds += secondsSince(start);
    return scores;
}

std::vector<sched::State> SketchPolicy::sampleInitPopulation(uint64_t roundSeed, std::stop_token stop)
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<sched::State> out;
    auto sketchList = sketches();
    if (!sketchList)
        return out;
    // Sketches the constraints rule out are not drawn from (steer() refuses constraints that rule out all).
    std::vector<const Sketch*> all;
    const std::vector<bool> allowed = allowedSketches();
    for (size_t i = 0; i < (*sketchList)->size(); ++i)
        if (allowed[i])
            all.push_back(&(**sketchList)[i]);
    if (all.empty())
        return out;
    std::unordered_set<uint64_t> seen;
    std::atomic<int> rejected { 0 };
    int minPopulation = std::max(1, m_params.sampleInitMinPopulation);
    int unchanged = 0;
    const int batch = std::max(1, m_params.population);
    const bool gpu = m_task.target.isGpu();
    for (int64_t iteration = 0; static_cast<int>(out.size()) < minPopulation && !stop.stop_requested(); ++iteration) {
        std::vector<std::optional<sched::State>> drawn(static_cast<size_t>(batch));
        const uint64_t batchSeed = roundSeed + static_cast<uint64_t>(iteration) * 0xD1B54A32D192ED03ULL;
        parallelFor(batch, [&](int64_t i) {
            Rng rng = itemRng(batchSeed, i);
            const Sketch& sketch = *all[static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(all.size()) - 1))];
            auto state = randomAnnotation(m_task, sketch, m_params, rng);
            // A GPU target: an annotation past the device's limits is dropped here, as Ansor drops an
            // invalid one, so that the population is made of states the device can launch.
            if (!state || (gpu && !withinGpuLimitsBeforeLowering(*state, m_task.target)))
                return;
            if (m_checker && !m_checker->satisfies(*state)) {
                ++rejected;
                return;
            }
            drawn[static_cast<size_t>(i)] = std::move(state).value();
        });
        m_stats.sampled += batch;
        ++unchanged;
        for (auto& state : drawn) {
            if (!state)
                continue;
            if (seen.insert(stateHash(*state)).second) {
                out.push_back(std::move(*state));
                unchanged = 0;
            }
        }
        if (unchanged >= 5) { // nothing new in 5 batches: ask for less (Ansor halves its target)
            if (minPopulation <= 1)
                break;
            minPopulation /= 2;
            unchanged = 0;
        }
    }
    m_stats.valid += static_cast<int>(out.size());
    m_stats.constraintRejections += rejected.load();
    m_stats.sampleSeconds += secondsSince(start);
    return out;
}

std::vector<std::pair<sched::State, double>> SketchPolicy::evolutionarySearch(
    std::vector<sched::State> population, int outSize, uint64_t roundSeed, std::stop_token stop)
{
    int numIters = m_params.numIters;
    if (m_model->kind() == "random") // as Ansor: evolving towards random scores is wasted work
        numIters = std::min(numIters, 2);
    // The best outSize states never measured, as a min-heap on score.
    struct Item {
        sched::State state;
        double score = 0.0;
        uint64_t hash = 0;
    };
    const auto worse = [](const Item& a, const Item& b) { return a.score > b.score; };
    std::vector<Item> heap;
    std::unordered_set<uint64_t> inHeap(m_measured.begin(), m_measured.end());
    const int size = std::max(1, m_params.population);
    for (int k = 0; k <= numIters && !population.empty() && !stop.stop_requested(); ++k) {
        const std::vector<double> scores = predict(population);
        for (size_t i = 0; i < population.size(); ++i) {
            if (!std::isfinite(scores[i]))
                continue;
            const uint64_t hash = stateHash(population[i]);
            if (inHeap.count(hash))
                continue;
            if (m_checker && !m_checker->satisfies(population[i])) { // a parent only: never proposed
                inHeap.insert(hash);
                continue;
            }
            if (static_cast<int>(heap.size()) < outSize) {
                heap.push_back(Item { population[i], scores[i], hash });
                std::push_heap(heap.begin(), heap.end(), worse);
                inHeap.insert(hash);
            } else if (scores[i] > heap.front().score) {
                inHeap.erase(heap.front().hash);
                std::pop_heap(heap.begin(), heap.end(), worse);
                heap.back() = Item { population[i], scores[i], hash };
                std::push_heap(heap.begin(), heap.end(), worse);
                inHeap.insert(hash);
            }
        }
        if (k == numIters)
            break;

        // The next generation: roulette selection by score, then crossover, mutation or a copy. A failed
        // crossover or mutation draws again (up to a bound), so the generation keeps its size.
        const auto start = std::chrono::steady_clock::now();
        const Roulette roulette(scores);
        // Crossover's second parent comes from the first's structure group (parents of different structure
        // cannot be crossed: without this, 93-98% of crossovers failed), drawn by roulette within the group.
        std::vector<uint64_t> structure;
        std::map<uint64_t, std::vector<size_t>> groups;
        std::map<uint64_t, Roulette> groupRoulette;
        if (m_params.crossoverProb > 0.0) {
            structure.resize(population.size());
            parallelFor(static_cast<int64_t>(population.size()), [&](int64_t i) {
                structure[static_cast<size_t>(i)] = structureHash(population[static_cast<size_t>(i)]);
            });
            for (size_t i = 0; i < population.size(); ++i)
                groups[structure[i]].push_back(i);
            for (const auto& [hash, members] : groups) {
                std::vector<double> memberScores;
                for (size_t i : members)
                    memberScores.push_back(scores[i]);
                groupRoulette.emplace(hash, Roulette(memberScores));
            }
        }
        const uint64_t generationSeed = roundSeed + static_cast<uint64_t>(k + 1) * 0xA0761D6478BD642FULL;
        std::vector<std::optional<sched::State>> next(static_cast<size_t>(size));
        std::vector<std::array<int, 5>> counts(static_cast<size_t>(size), { 0, 0, 0, 0, 0 });
        parallelFor(size, [&](int64_t slot) {
            Rng rng = itemRng(generationSeed, slot);
            auto& count = counts[static_cast<size_t>(slot)];
            for (int attempt = 0; attempt < 8 && !next[static_cast<size_t>(slot)]; ++attempt) {
                const size_t first = roulette.pick(rng);
                const sched::State& parent = population[first];
                const double draw = rng.uniform();
                if (draw < m_params.crossoverProb && groups.at(structure[first]).size() > 1) {
                    ++count[2];
                    const auto& members = groups.at(structure[first]);
                    const sched::State& other = population[members[groupRoulette.at(structure[first]).pick(rng)]];
                    if (auto child = crossover(m_task, parent, other, rng))
                        next[static_cast<size_t>(slot)] = std::move(child).value();
                    else
                        ++count[3];
                } else if (draw < m_params.crossoverProb + (1.0 - m_params.crossoverProb) * m_params.mutationProb
                    || (draw < m_params.crossoverProb && rng.uniform() < m_params.mutationProb)) {
                    ++count[0];
                    if (auto child = mutate(m_task, parent, drawMutation(m_params, rng), m_params, rng))
                        next[static_cast<size_t>(slot)] = std::move(child).value();
                    else
                        ++count[1];
                } else {
                    next[static_cast<size_t>(slot)] = parent;
                }
                // A child that breaks the constraints is drawn again, as a failed mutation is.
                if (m_checker && next[static_cast<size_t>(slot)]
                    && !m_checker->satisfies(*next[static_cast<size_t>(slot)])) {
                    next[static_cast<size_t>(slot)].reset();
                    ++count[4];
                }
            }
        });
        population.clear();
        for (auto& state : next)
            if (state)
                population.push_back(std::move(*state));
        for (const auto& count : counts) {
            m_stats.mutations += count[0];
            m_stats.mutationFailures += count[1];
            m_stats.crossovers += count[2];
            m_stats.crossoverFailures += count[3];
            m_stats.constraintRejections += count[4];
        }
        m_stats.evolveSeconds += secondsSince(start);
    }
    std::sort(heap.begin(), heap.end(), [](const Item& a, const Item& b) { return a.score > b.score; });
    std::vector<std::pair<sched::State, double>> out;
    for (Item& item : heap)
        out.emplace_back(std::move(item.state), item.score);
    return out;
}

void SketchPolicy::seedFromSimilarTasks(std::span<const sched::State> states, std::span<const double> gflops)
{
    m_seeds.clear();
    if (m_kind == PolicyKind::Random || m_task.target.isGpu())
        return;
    std::unordered_set<uint64_t> seen;
    for (size_t i = 0; i < states.size() && i < gflops.size(); ++i) {
        if (static_cast<int>(m_seeds.size()) >= m_params.similarTaskSeeds || gflops[i] <= 0.0)
            break;
        auto state = transplant(m_task, states[i]);
        if (state && seen.insert(stateHash(*state)).second)
            m_seeds.push_back(std::move(state).value());
    }
}

Expected<std::vector<Candidate>> SketchPolicy::searchOneRound(int numMeasures, std::stop_token stop)
{
    m_stats = RoundStats {};
    m_withinLimits.clear(); // it serves one round's evolution; the lowered check's cache stays, it is small
    TS_CHECK(sketches());
    if (numMeasures <= 0)
        return std::vector<Candidate> {};
    const uint64_t roundSeed = m_rng.next();
    std::vector<sched::State> init = sampleInitPopulation(roundSeed, stop);
    std::vector<Candidate> out;
    const auto take = [&](const sched::State& state, double score, bool random) {
        if (static_cast<int>(out.size()) >= numMeasures)
            return;
        if (m_measured.insert(stateHash(state)).second)
            out.push_back(Candidate { state, score, random });
    };
    if (m_kind == PolicyKind::Random) {
        m_lastPopulation.clear();
        for (const sched::State& state : init)
            m_lastPopulation.push_back(stateHash(state));
        std::sort(m_lastPopulation.begin(), m_lastPopulation.end());
        m_rng.shuffle(init);
        // Lowered (on a GPU target, to check the limits) a chunk at a time, only as far as needed.
        const size_t chunk = static_cast<size_t>(std::max(1, numMeasures));
        for (size_t begin = 0; begin < init.size() && static_cast<int>(out.size()) < numMeasures; begin += chunk) {
            const std::span<const sched::State> some(init.data() + begin, std::min(chunk, init.size() - begin));
            const std::vector<bool> canLaunch = launchable(some, true);
            for (size_t i = 0; i < some.size(); ++i)
                if (canLaunch[i])
                    take(some[i], 0.0, true);
        }
        return out;
    }

    // The best measured states join the population (Ansor: up to 20% of it).
    const int useMeasured = std::min(static_cast<int>(m_measuredGood.size()),
        static_cast<int>(m_params.sampleInitUseMeasuredRatio * m_params.population));
    std::vector<size_t> order(m_measuredGood.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return m_measuredGood[a].second > m_measuredGood[b].second; });
    // Which states join depends on measured times when there are more than fit; the order they join in does
    // not (by state hash), so that timing noise among states that all join cannot change the candidates.
    order.resize(static_cast<size_t>(useMeasured));
    std::vector<std::pair<uint64_t, size_t>> joining;
    for (size_t i : order)
        joining.emplace_back(stateHash(m_measuredGood[i].first), i);
    std::sort(joining.begin(), joining.end());
    for (const auto& [hash, i] : joining)
        if (!m_excluded.contains(hash))
            init.push_back(m_measuredGood[i].first);
    // Other tasks' best states of this kind, refit here (TuneScope's; Ansor starts every task from scratch).
    for (const sched::State& seed : m_seeds)
        if (!m_measured.contains(stateHash(seed)))
            init.push_back(seed);
    // A person's states (steer): parents every round, measured or not, unless they break the constraints.
    for (const sched::State& seed : m_steering.seeds) {
        if (m_checker && !m_checker->satisfies(seed)) {
            ++m_stats.constraintRejections;
            continue;
        }
        init.push_back(seed);
        ++m_stats.userSeeds;
    }
    // What breaks the constraints does not breed: measured states of before the constraints, other tasks' seeds.
    if (m_checker) {
        const size_t before = init.size();
        std::erase_if(init, [&](const sched::State& state) { return !m_checker->satisfies(state); });
        m_stats.constraintRejections += static_cast<int>(before - init.size());
    }
    m_lastPopulation.clear();
    for (const sched::State& state : init)
        m_lastPopulation.push_back(stateHash(state));
    std::sort(m_lastPopulation.begin(), m_lastPopulation.end());

    // eps-greedy: a few random members of the population are measured whatever the model says. In the
    // analytical warm-up more of them: the estimate is a prior that misjudges some kinds of task.
    const double eps
        = rankedByEstimate() ? std::max(m_params.epsGreedy, m_params.warmupRandomShare) : m_params.epsGreedy;
    const int numRandom = static_cast<int>(eps * numMeasures);
    std::vector<sched::State> randomStates;
    for (int i = 0; i < numRandom * 3 && !init.empty(); ++i)
        randomStates.push_back(init[static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(init.size()) - 1))]);

    // A GPU target: more than asked, as the full limits check (after lowering) may still refuse some.
    const int gpuMargin = m_task.target.isGpu() ? 2 : 1;
    auto best = evolutionarySearch(std::move(init), numMeasures * 2 * gpuMargin, roundSeed, stop);
    if (stop.stop_requested())
        return std::vector<Candidate> {};
    if (m_task.target.isGpu()) {
        std::vector<sched::State> bestStates;
        for (const auto& [state, score] : best)
            bestStates.push_back(state);
        const std::vector<bool> canLaunch = launchable(bestStates, true);
        size_t kept = 0;
        for (size_t i = 0; i < best.size(); ++i)
            if (canLaunch[i])
                best[kept++] = std::move(best[i]);
        best.resize(kept);
    }
    const std::vector<double> randomScores = predict(randomStates);
    const std::vector<bool> randomLaunchable = launchable(randomStates, true);
    const int numGood = numMeasures - numRandom;
    size_t nextBest = 0;
    size_t nextRandom = 0;
    while (static_cast<int>(out.size()) < numMeasures) {
        const bool hasBest = nextBest < best.size();
        const bool hasRandom = nextRandom < randomStates.size();
        const bool preferBest = static_cast<int>(out.size()) < numGood;
        if (hasBest && (preferBest || !hasRandom)) {
            take(best[nextBest].first, best[nextBest].second, false);
            ++nextBest;
        } else if (hasRandom) {
            if (randomLaunchable[nextRandom])
                take(randomStates[nextRandom], randomScores[nextRandom], true);
            ++nextRandom;
        } else {
            break;
        }
    }
    return out;
}

void SketchPolicy::recordMeasured(std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    for (size_t i = 0; i < states.size() && i < results.size(); ++i) {
        m_measured.insert(stateHash(states[i]));
        if (results[i].ok())
            m_measuredGood.emplace_back(states[i], 1.0 / results[i].meanCost());
    }
}

void SketchPolicy::recordMeasured(std::span<const Candidate> candidates, std::span<const record::MeasureResult> results)
{
    std::vector<sched::State> states;
    states.reserve(candidates.size());
    for (const Candidate& c : candidates)
        states.push_back(c.state);
    recordMeasured(states, results);
}

bool SketchPolicy::owns(std::string_view extra) const { return extra.find("\"autotvm\"") == std::string_view::npos; }

bool SketchPolicy::restoreMeasured(uint64_t hash, const sched::State* state, double meanCost, std::string_view extra)
{
    if (!owns(extra))
        return false;
    m_measured.insert(hash);
    if (state && meanCost > 0.0 && meanCost < record::kFailedCost)
        m_measuredGood.emplace_back(*state, 1.0 / meanCost);
    return true;
}

std::vector<bool> SketchPolicy::allowedSketches()
{
    auto all = sketches();
    if (!all)
        return {};
    std::vector<bool> out;
    for (const Sketch& sketch : **all)
        out.push_back(!m_checker || sketchAllowed(m_checker->constraints(), sketch.state));
    return out;
}

Expected<void> SketchPolicy::steer(const TaskSteering& steering)
{
    TS_CHECK(checkConstraints(steering.constraints, m_task.dag));
    if (m_kind == PolicyKind::Random && !steering.seeds.empty())
        return makeError(ErrorKind::Unsupported,
            "the random policy measures random annotations only: seeds would never be measured");
    for (const sched::State& seed : steering.seeds)
        if (auto filled = seed.checkFilled(); !filled)
            return makeError(
                ErrorKind::InvalidArgument, "a seed is not a complete schedule: " + filled.error().message);
    TS_TRY(const std::vector<Sketch>* all, sketches());
    if (!steering.constraints.forbid.empty() || !steering.constraints.require.empty()) {
        if (std::none_of(all->begin(), all->end(),
                [&](const Sketch& sketch) { return sketchAllowed(steering.constraints, sketch.state); }))
            return makeError(ErrorKind::InvalidArgument,
                "the sketch rules rule out all " + std::to_string(all->size()) + " sketches of " + m_task.name);
    }
    m_steering = steering;
    if (steering.constraints.empty())
        m_checker.reset();
    else
        m_checker.emplace(m_task.dag, steering.constraints);
    m_excluded = std::unordered_set<uint64_t>(steering.excluded.begin(), steering.excluded.end());
    return {};
}

namespace {
    // Ordered factorizations of n into k parts: for n = prod p^e, prod C(e + k - 1, k - 1).
    double orderedFactorizations(int64_t n, int k)
    {
        double count = 1.0;
        for (int64_t p = 2; n > 1; ++p) {
            if (p * p > n)
                p = n;
            int e = 0;
            while (n % p == 0) {
                n /= p;
                ++e;
            }
            double c = 1.0;
            for (int i = 1; i <= k - 1; ++i)
                c = c * (e + i) / i;
            count *= c;
        }
        return count;
    }
} // namespace

Expected<SpaceSize> SketchPolicy::spaceSize()
{
    TS_TRY(const std::vector<Sketch>* all, sketches());
    SpaceSize size;
    size.sketches = static_cast<int>(all->size());
    // Per sketch: the tile sizes of its unfilled and open splits (ordered factorizations of each extent, the innermost
    // bound ignored) times an unroll choice per sketch; compute locations and parallel/vectorize choices are
    // not counted, so it is a lower estimate. Averaged in log space over the sketches.
    double logSum = 0.0;
    for (const Sketch& sketch : *all) {
        double n = static_cast<double>(std::max<size_t>(1, m_params.unrollMaxSteps.size()));
        const auto& steps = sketch.state.steps();
        for (size_t i = 0; i < steps.size(); ++i) {
            const auto* split = std::get_if<sched::SplitStep>(&steps[i]);
            const bool open = std::find(sketch.openSplits.begin(), sketch.openSplits.end(), static_cast<int>(i))
                != sketch.openSplits.end();
            if (split && split->extent && (!split->filled() || open))
                n *= orderedFactorizations(*split->extent, static_cast<int>(split->lengths.size()) + 1);
        }
        logSum += std::log(n);
    }
    size.annotationsPerSketch = all->empty() ? 0.0 : std::exp(logSum / static_cast<double>(all->size()));
    char text[96];
    std::snprintf(text, sizeof text, "%d sketch%s x ~%.2g annotations", size.sketches, size.sketches == 1 ? "" : "es",
        size.annotationsPerSketch);
    size.text = text;
    return size;
}

std::string SketchPolicy::describe() const
{
    if (m_kind == PolicyKind::Random)
        return "random annotations of the generated sketches, measured as drawn (no model)";
    return "evolutionary search (population " + std::to_string(m_params.population) + ", "
        + std::to_string(m_params.numIters)
        + " generations) over random annotations of the generated sketches, ranked by the cost model; "
        + std::to_string(static_cast<int>(m_params.epsGreedy * 100.0 + 0.5)) + "% random picks";
}

} // namespace ts::search
