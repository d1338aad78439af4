// Ansor's 164 per-store features (TVM src/auto_scheduler/feature.cc, ../shared/reference/tuning-systems.md
// 1.3.5): one row per buffer a program stores to, so a program is a variable-length set of rows. What the
// XGBoost cost model learns from, and the statistical features the neural models reuse.
//
// Read from the loop IR as Ansor reads TVM's TIR on the CPU: after scheduleOps and simplify, with
// multi-dimensional buffer indices, loops of extent one gone, and auto_unroll_max_step still a loop
// attribute (lower.h). Groups and columns, in Ansor's order and with Ansor's names:
//   1 computation (57): float/int op counts of the stored value times the loops around it; vectorize,
//     unroll and parallel: count, product of extents, innermost extent and the 8-way position one-hot (as
//     Ansor, an annotated loop's position is always kPosMixed: the finer positions are a TODO upstream);
//     the GPU launch extents.
//   2 buffer access (5 x 18): per buffer the store touches (the top five by cache lines, then bytes; zero
//     rows when fewer): read/write one-hot, bytes, unique bytes, cache lines, unique lines, reuse type
//     one-hot, reuse distance in iterations and in bytes, reuse count, the four x / reuse count, stride.
//   3 arithmetic intensity (10): float ops / touched bytes, sampled at ten points of the loop nest from
//     the innermost loop out.
//   4 allocation (4) and 5 outer scope (3).
// Every value but the one-hots and is_gpu is log2(x + 1) scaled.
//
// Where TuneScope deviates from feature.cc (three places where upstream reads a value its own comments
// say it did not mean) is listed in docs/cost-models.md, "Features".
#pragma once

#include "core/lower/stmt.h"
#include "core/schedule/state.h"
#include "core/support/error.h"
#include "core/target/target.h"

#include <span>
#include <string>
#include <vector>

namespace ts {
class ThreadPool;
}

namespace ts::features {

inline constexpr int kMaxBuffers = 5; // Ansor's max_n_bufs
inline constexpr int kPerStoreFeatures = 57 + kMaxBuffers * 18 + 10 + 4 + 3; // 164

// The 164 column names, Ansor's ("float_mad", ..., "B0.acc_type.kRead", ..., "auto_unroll_max_step").
const std::vector<std::string>& perStoreFeatureNames();

// One program's rows, row-major: rows() x kPerStoreFeatures values.
struct ProgramFeatures {
    std::vector<float> values;
    std::vector<std::string> rowBuffers; // the buffer each row stores to (a stage's name: "C", "C.local")

    int rows() const { return static_cast<int>(rowBuffers.size()); }
    std::span<const float> row(int r) const
    {
        return { values.data() + static_cast<size_t>(r) * kPerStoreFeatures, kPerStoreFeatures };
    }
};

struct FeatureOptions {
    int cacheLineBytes = 64; // the target's (Ansor's cache_line_bytes)
    bool logScale = true; // log2(x + 1) on every non-one-hot value
};

// From a function lowered to the form above (scheduleOps, then simplify).
ProgramFeatures perStoreFeatures(const lower::LoweredFunc& func, const FeatureOptions& options = {});

// Lowers a filled state to that form and extracts its rows. Errors are lowering's (an unfilled sketch, a
// schedule that does not lower); Ansor gives such states all-zero features and the model -inf.
// `packedWeights`: the weights read in the layout their loops read (lower's layoutRewrite 2, the packing in the
// untimed setup), as the measured kernel reads them; Ansor's features (false) see the DAG's layout.
Expected<ProgramFeatures> perStoreFeatures(
    const sched::State& state, const target::Target& target, bool packedWeights = false);

// Many states at once, split over `pool` (null: this thread); results[i] belongs to states[i].
std::vector<Expected<ProgramFeatures>> perStoreFeatures(
    std::span<const sched::State> states, const target::Target& target, ThreadPool* pool, bool packedWeights = false);

} // namespace ts::features
