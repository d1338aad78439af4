#include "core/cost/analytical_model.h"

#include "core/support/thread_pool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <thread>

namespace ts::cost {

namespace {
    // Column positions in Ansor's layout (features::perStoreFeatureNames()).
    struct Columns {
        int floatOps[7];
        int vecLen, parallelProd;
        int lines[features::kMaxBuffers], uniqueBytes[features::kMaxBuffers], reuseBytes[features::kMaxBuffers];
        int loopReuse[features::kMaxBuffers], reuseIter[features::kMaxBuffers], reuseCount[features::kMaxBuffers];
    };

    const Columns& columns()
    {
        static const Columns c = [] {
            const auto& names = features::perStoreFeatureNames();
            auto at = [&](const std::string& name) {
                return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
            };
            Columns out {};
            const char* ops[] = { "float_mad", "float_addsub", "float_mul", "float_divmod", "float_cmp",
                "float_mathfunc", "float_otherfunc" };
            for (int i = 0; i < 7; ++i)
                out.floatOps[i] = at(ops[i]);
            out.vecLen = at("vec_len");
            out.parallelProd = at("parallel_prod");
            for (int b = 0; b < features::kMaxBuffers; ++b) {
                const std::string prefix = "B" + std::to_string(b) + ".";
                out.lines[b] = at(prefix + "lines");
                out.uniqueBytes[b] = at(prefix + "unique_bytes");
                out.reuseBytes[b] = at(prefix + "reuse_dis_bytes");
                out.loopReuse[b] = at(prefix + "reuse_type.kLoopMultipleRead");
                out.reuseIter[b] = at(prefix + "reuse_dis_iter");
                out.reuseCount[b] = at(prefix + "reuse_ct");
            }
            return out;
        }();
        return c;
    }

    double unlog(float v) { return std::exp2(static_cast<double>(v)) - 1.0; }
} // namespace

AnalyticalCostModel::AnalyticalCostModel(MachineLimits limits, ThreadPool* pool)
    : m_limits(limits)
    , m_pool(pool)
{
}

AnalyticalCostModel::~AnalyticalCostModel() = default;

std::string AnalyticalCostModel::settings() const
{
    return nlohmann::json {
        { "ghz", m_limits.ghz }, { "fma_units", m_limits.fmaUnits }, { "l1_bytes", m_limits.l1Bytes },
        { "l2_bytes", m_limits.l2Bytes }, { "l3_bytes", m_limits.l3Bytes },
        { "l1_bytes_per_cycle", m_limits.l1BytesPerCycle }, { "l2_bytes_per_cycle", m_limits.l2BytesPerCycle },
        { "l3_bytes_per_cycle", m_limits.l3BytesPerCycle }, { "dram_gbps", m_limits.dramGBps },
        { "measured", m_limits.measured }
    }.dump();
}

Expected<void> AnalyticalCostModel::update(
    const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    (void)task;
    (void)results;
    m_seen += static_cast<int64_t>(states.size());
    return {};
}

std::vector<AnalyticalCostModel::RowEstimate> AnalyticalCostModel::explain(
    const features::ProgramFeatures& program, const target::Target& target) const
{
    const Columns& c = columns();
    const double lanes = std::max<double>(1.0, static_cast<double>(target.vectorBytes) / 4.0);
    const double cores
        = static_cast<double>(target.cores > 0 ? target.cores : std::max(1u, std::thread::hardware_concurrency()));
    const double hz = m_limits.ghz * 1e9;
    const double peakPerCore = m_limits.fmaUnits * 2.0 * lanes * hz; // flop/s with every lane busy
    // x86's vector register file: 32 registers with AVX-512, 16 below it.
    const double registerBytes = static_cast<double>(target.vectorBytes) * (target.vectorBytes >= 64 ? 32.0 : 16.0);
    std::vector<RowEstimate> out;
    for (int r = 0; r < program.rows(); ++r) {
        const auto row = program.row(r);
        RowEstimate e;
        e.store = program.rowBuffers[static_cast<size_t>(r)];
        for (int column : c.floatOps)
            e.ops += unlog(row[static_cast<size_t>(column)]);
        // Counts come back from log2(x + 1) in float a little off (16 -> 16.000002): rounded, or a full vector
        // would count as a partial one and an even split as unbalanced.
        e.vecLen = std::round(unlog(row[static_cast<size_t>(c.vecLen)]));
        e.vecEfficiency = e.vecLen >= 1.0
            ? std::min(1.0, e.vecLen / lanes) * (std::fmod(e.vecLen, lanes) == 0.0 || e.vecLen < lanes ? 1.0 : 0.75)
            : 1.0 / lanes;
        const double parallel = std::max(1.0, std::round(unlog(row[static_cast<size_t>(c.parallelProd)])));
        e.coresUsed = std::min(parallel, cores);
        e.balance = parallel / (std::ceil(parallel / e.coresUsed) * e.coresUsed);
        e.compute = e.ops / (peakPerCore * e.vecEfficiency * e.coresUsed * e.balance);
        for (int b = 0; b < features::kMaxBuffers; ++b) {
            RowEstimate::Buffer buffer;
            buffer.lines = unlog(row[static_cast<size_t>(c.lines[b])]);
            if (buffer.lines <= 0.0)
                continue;
            buffer.reuseBytes = unlog(row[static_cast<size_t>(c.reuseBytes[b])]);
            buffer.uniqueBytes = unlog(row[static_cast<size_t>(c.uniqueBytes[b])]);
            // Ansor's lines count no reuse but the innermost loops' that leave the access in place. A loop
            // further out that leaves it in place (an accumulator across the reduction, a weight vector across
            // the pixels it multiplies) reuses it from a register when all that the loops inside it touch fits
            // the register file: the compiler keeps it there (scalar promotion, load hoisting), and only one
            // access in `reuse_ct` reaches the cache.
            const double reuseIter = unlog(row[static_cast<size_t>(c.reuseIter[b])]);
            const double reuseCount = std::round(unlog(row[static_cast<size_t>(c.reuseCount[b])]));
            if (row[static_cast<size_t>(c.loopReuse[b])] > 0.5f && reuseIter > 1.5 && reuseCount > 1.0
                && buffer.reuseBytes <= registerBytes) {
                buffer.lines /= reuseCount;
                buffer.inRegisters = true;
            }
            double bytesPerCycle = m_limits.dramGBps * 1e9 / hz / cores;
            buffer.level = "DRAM";
            if (buffer.inRegisters || buffer.reuseBytes <= m_limits.l1Bytes) {
                bytesPerCycle = m_limits.l1BytesPerCycle;
                buffer.level = "L1";
            } else if (buffer.reuseBytes <= m_limits.l2Bytes) {
                bytesPerCycle = m_limits.l2BytesPerCycle;
                buffer.level = "L2";
            } else if (buffer.reuseBytes <= m_limits.l3Bytes) {
                bytesPerCycle = m_limits.l3BytesPerCycle;
                buffer.level = "L3";
            }
            buffer.seconds
                = buffer.lines * static_cast<double>(target.cacheLineBytes) / (bytesPerCycle * hz * e.coresUsed)
                + buffer.uniqueBytes / (m_limits.dramGBps * 1e9);
            e.memory += buffer.seconds;
            e.buffers.push_back(buffer);
        }
        e.seconds = std::max(e.compute, e.memory);
        out.push_back(std::move(e));
    }
    return out;
}

double AnalyticalCostModel::estimateSeconds(
    const features::ProgramFeatures& program, const target::Target& target) const
{
    double seconds = 0.0;
    for (const RowEstimate& row : explain(program, target))
        seconds += row.seconds;
    return seconds;
}

std::vector<double> AnalyticalCostModel::predict(const CostTask& task, std::span<const sched::State> states)
{
    if (!m_pool) {
        m_ownPool = std::make_unique<ThreadPool>(0);
        m_pool = m_ownPool.get();
    }
    const auto extracted = features::perStoreFeatures(states, task.target, m_pool, task.packsWeights);
    std::vector<double> scores(states.size(), -std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < states.size(); ++i) {
        if (!extracted[i] || extracted[i]->rows() == 0)
            continue;
        const double seconds = estimateSeconds(*extracted[i], task.target);
        if (seconds > 0.0 && std::isfinite(seconds))
            scores[i] = 1.0 / seconds;
    }
    return scores;
}

Expected<std::vector<uint8_t>> AnalyticalCostModel::save() const
{
    const std::string text = "TSAN1" + settings();
    return std::vector<uint8_t>(text.begin(), text.end());
}

Expected<void> AnalyticalCostModel::load(std::span<const uint8_t> bytes)
{
    const std::string text(bytes.begin(), bytes.end());
    if (text.rfind("TSAN1", 0) != 0)
        return makeError(ErrorKind::Parse, "not a TuneScope analytical cost model");
    return {};
}

} // namespace ts::cost
