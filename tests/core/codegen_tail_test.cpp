// Vector tails: a vectorized loop whose extent is not a multiple of its split factor runs its last tile
// masked (AVX-512 masks, or whatever the target legalizes llvm.masked.* to), and a vectorized loop longer
// than one vector runs in chunks with a masked last chunk. Every extent 1..70 against vector widths 4..64.
#include "kernel_check.h"
#include "schedule_fixtures.h"

#include "core/codegen/codegen.h"
#include "core/lower/lower.h"
#include "core/measure/reference.h"
#include "core/ops/elementwise.h"

#include <gtest/gtest.h>

using namespace ts;
using ts::testing::expectMatches;

namespace {

const std::vector<int64_t> kWidths { 4, 8, 16, 32, 48, 64 };

ir::ComputeDAG addDag(int64_t n)
{
    auto a = ir::placeholder("A", { n });
    auto b = ir::placeholder("B", { n });
    return ir::ComputeDAG::create({ a, b, ops::add(a, b).value() });
}

std::string llvmIr(const sched::State& state)
{
    auto func = lower::lower(state);
    EXPECT_TRUE(func) << func.error().message;
    if (!func)
        return {};
    auto ir = codegen::emitLlvmIr(*func, false);
    EXPECT_TRUE(ir) << ir.error().message;
    return ir ? *ir : std::string();
}

// C[i, j] += A[i, k] * B[k, j] with j split by `width`, the inner part innermost and vectorized.
sched::State matmulTail(const ir::ComputeDAG& dag, int64_t n, int64_t width)
{
    sched::State state = sched::State::initial(dag);
    fixtures::apply(state, sched::SplitStep { 2, 1, n, { width }, true });
    fixtures::apply(state, sched::ReorderStep { 2, { 0, 1, 3, 2 } });
    fixtures::apply(state, sched::AnnotationStep { 2, 3, sched::Annotation::Vectorize });
    return state;
}

} // namespace

TEST(CodegenTail, ElementwiseEveryExtentAndWidth)
{
    for (int64_t n = 1; n <= 70; ++n) {
        const ir::ComputeDAG dag = addDag(n);
        auto reference = measure::computeReference(dag, 11, 512, 1e9);
        ASSERT_TRUE(reference) << reference.error().message;
        for (int64_t width : kWidths) {
            sched::State state = sched::State::initial(dag);
            fixtures::apply(state, sched::SplitStep { 2, 0, n, { width }, true });
            fixtures::apply(state, sched::AnnotationStep { 2, 1, sched::Annotation::Vectorize });
            expectMatches(*reference, state, "add n=" + std::to_string(n) + " width=" + std::to_string(width));
        }
    }
}

TEST(CodegenTail, ReductionEveryExtentAndWidth)
{
    for (int64_t n = 1; n <= 70; ++n) {
        const ir::ComputeDAG dag = fixtures::matmulDag(3, 5, n);
        auto reference = measure::computeReference(dag, 11, 512, 1e9);
        ASSERT_TRUE(reference) << reference.error().message;
        for (int64_t width : kWidths)
            expectMatches(*reference, matmulTail(dag, n, width),
                "matmul n=" + std::to_string(n) + " width=" + std::to_string(width));
    }
}

TEST(CodegenTail, LongVectorizedLoopsRunInMaskedChunks)
{
    // Unsplit: the whole extent is the vectorized loop; past 64 lanes it is strip-mined.
    for (int64_t n : { 2, 17, 63, 64, 65, 70, 100, 128, 131 }) {
        const ir::ComputeDAG dag = addDag(n);
        sched::State state = sched::State::initial(dag);
        fixtures::apply(state, sched::AnnotationStep { 2, 0, sched::Annotation::Vectorize });
        ts::testing::expectMatchesReference(dag, state, "add n=" + std::to_string(n));
        const std::string ir = llvmIr(state);
        EXPECT_NE(ir.find("x float>"), std::string::npos) << "n=" << n << "\n" << ir;
        EXPECT_EQ(ir.find("llvm.masked.store") != std::string::npos, n > 64 && n % 16 != 0) << "n=" << n << "\n" << ir;
    }
}

TEST(CodegenTail, TheTailIsMaskedNotScalar)
{
    // 70 = 4 x 16 + 6: the last tile stores 6 lanes under a mask; no scalar loop is left.
    const ir::ComputeDAG dag = fixtures::matmulDag(8, 8, 70);
    const std::string ir = llvmIr(matmulTail(dag, 70, 16));
    EXPECT_NE(ir.find("llvm.masked.store.v16f32"), std::string::npos) << ir;
    EXPECT_NE(ir.find("llvm.masked.load.v16f32"), std::string::npos) << ir;
    EXPECT_EQ(ir.find("store float"), std::string::npos) << ir;
    // A width that divides the extent has no mask at all.
    const std::string even = llvmIr(matmulTail(fixtures::matmulDag(8, 8, 64), 64, 16));
    EXPECT_EQ(even.find("llvm.masked"), std::string::npos) << even;
}

TEST(CodegenTail, FullTilesRunUnguardedOnlyTheLastTileIsMasked)
{
    // 1024 columns in tiles of 48: tiles 0..20 are full, tile 21 holds 16 columns. The loop over tiles
    // becomes `if (j.0 < 21) {no guard} else {guarded}`, so the full tiles' accumulators stay in registers.
    const ir::ComputeDAG dag = fixtures::matmulDag(8, 8, 1024);
    const sched::State state = matmulTail(dag, 1024, 48);
    auto func = lower::lower(state);
    ASSERT_TRUE(func) << func.error().message;
    const std::string text = lower::toString(*func);
    EXPECT_NE(text.find("if (j.0 < 21) {"), std::string::npos) << text;
    EXPECT_NE(text.find("} else {"), std::string::npos) << text;
    ts::testing::expectMatchesReference(dag, state, "partitioned 1024 / 48");
    // A guard on an outer variable too (two non-dividing splits): each loop gets its own threshold.
    const ir::ComputeDAG both = fixtures::matmulDag(70, 8, 70);
    sched::State two = sched::State::initial(both);
    fixtures::apply(two, sched::SplitStep { 2, 0, 70, { 16 }, true }); // i.0 i.1 j k
    fixtures::apply(two, sched::SplitStep { 2, 2, 70, { 16 }, true }); // i.0 i.1 j.0 j.1 k
    fixtures::apply(two, sched::ReorderStep { 2, { 0, 2, 1, 4, 3 } }); // i.0 j.0 i.1 k j.1
    fixtures::apply(two, sched::AnnotationStep { 2, 4, sched::Annotation::Vectorize });
    auto twoFunc = lower::lower(two);
    ASSERT_TRUE(twoFunc);
    const std::string twoText = lower::toString(*twoFunc);
    EXPECT_NE(twoText.find("if (i.0 < 4) {"), std::string::npos) << twoText;
    EXPECT_NE(twoText.find("if (j.0 < 4) {"), std::string::npos) << twoText;
    ts::testing::expectMatchesReference(both, two, "two partitioned splits");
}
