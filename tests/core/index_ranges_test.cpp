// The features' index ranges per loop level (core/features/index_ranges.h) against the Analyzer's bound()
// with the same loops bound, on random indices: sums with repeated and cancelling variables, products,
// floordiv/floormod/min/max leaves, and coefficients large enough to need the Analyzer's own clamping.
#include "core/features/index_ranges.h"
#include "core/support/rng.h"

#include <gtest/gtest.h>

using namespace ts;

namespace {

ir::Expr randomIndex(Rng& rng, const std::vector<features::detail::Loop>& loops, int depth)
{
    auto leaf = [&]() -> ir::Expr {
        if (rng.bernoulli(0.2))
            return ir::intImm(rng.uniformInt(-5, 20));
        return loops[static_cast<size_t>(rng.uniformInt(0, static_cast<int64_t>(loops.size()) - 1))].var;
    };
    if (depth == 0 || rng.bernoulli(0.2))
        return leaf();
    switch (rng.uniformInt(0, 9)) {
    case 0:
    case 1:
        return randomIndex(rng, loops, depth - 1) + randomIndex(rng, loops, depth - 1);
    case 2:
        return randomIndex(rng, loops, depth - 1) - randomIndex(rng, loops, depth - 1);
    case 3: {
        const ir::Expr x = randomIndex(rng, loops, depth - 1);
        return x - x + randomIndex(rng, loops, depth - 1);
    }
    case 4:
        return randomIndex(rng, loops, depth - 1) * ir::intImm(rng.uniformInt(-4, 16));
    case 5: // near the clamp: the Analyzer bounds it as a whole
        return randomIndex(rng, loops, depth - 1) * ir::intImm(int64_t(1) << rng.uniformInt(40, 61));
    case 6:
        return randomIndex(rng, loops, depth - 1) * randomIndex(rng, loops, depth - 1);
    case 7:
        return ir::floorDiv(randomIndex(rng, loops, depth - 1), ir::intImm(rng.uniformInt(1, 9)));
    case 8:
        return ir::floorMod(randomIndex(rng, loops, depth - 1), ir::intImm(rng.uniformInt(1, 9)));
    default:
        return ir::min(randomIndex(rng, loops, depth - 1), randomIndex(rng, loops, depth - 1));
    }
}

} // namespace

TEST(IndexRanges, EveryLevelAgreesWithTheAnalyzer)
{
    Rng rng(17);
    int fellBack = 0;
    for (int round = 0; round < 400; ++round) {
        std::vector<features::detail::Loop> loops;
        const int depth = static_cast<int>(rng.uniformInt(1, 9));
        for (int d = 0; d < depth; ++d)
            loops.push_back({ ir::var("l" + std::to_string(d)), rng.uniformInt(1, 12) });
        std::vector<ir::Expr> indices;
        for (int k = 0; k < 6; ++k)
            indices.push_back(randomIndex(rng, loops, 4));

        features::detail::IndexRanges ranges(loops);
        for (const ir::Expr& index : indices)
            ranges.add(index);
        lower::arith::Analyzer reference;
        for (const auto& loop : loops)
            reference.bind(loop.var, 0, 0);
        ranges.start();
        for (int i = depth - 1; i >= 0; --i) {
            const auto& loop = loops[static_cast<size_t>(i)];
            reference.bind(loop.var, 0, loop.extent - 1);
            ranges.enterLevel(static_cast<size_t>(i));
            for (size_t id = 0; id < indices.size(); ++id) {
                const lower::arith::Interval got = ranges.bound(id);
                const lower::arith::Interval want = reference.bound(indices[id]);
                ASSERT_EQ(got.bounded, want.bounded) << ir::toString(indices[id]) << " at level " << i;
                if (want.bounded) {
                    ASSERT_EQ(got.lo, want.lo) << ir::toString(indices[id]) << " at level " << i;
                    ASSERT_EQ(got.hi, want.hi) << ir::toString(indices[id]) << " at level " << i;
                }
                fellBack += want.bounded && (want.hi >= (int64_t(1) << 55) || want.lo <= -(int64_t(1) << 55));
            }
        }
        // The loop mask: bit d when the index uses loop d's variable.
        for (size_t id = 0; id < indices.size(); ++id)
            for (size_t d = 0; d < loops.size(); ++d)
                EXPECT_EQ((ranges.loopMask(id) >> d & 1) != 0, ir::usesVar(indices[id], loops[d].var.get()));
    }
    EXPECT_GT(fellBack, 0); // the clamp path was exercised
}
