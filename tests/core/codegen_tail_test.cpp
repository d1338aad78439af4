// Vector tails: a vectorized loop whose extent is not a multiple of its split factor runs its last tile
// masked (AVX-512 masks, or whatever the target legalizes llvm.masked.* to), and a vectorized loop longer
// than one vector runs in chunks with a masked last chunk. Every extent 1..70 against vector widths 4..64.
// A load whose address moves by a few elements per lane is a wide load and a permute, never reading past
// the elements its lanes need.
#include "kernel_check.h"
#include "schedule_fixtures.h"

#include "core/codegen/codegen.h"
#include "core/lower/lower.h"
#include "core/measure/reference.h"
#include "core/ops/elementwise.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

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

TEST(CodegenTail, LongVectorizedLoopsRunInChunksThenPowerOfTwoPieces)
{
    // Unsplit: the whole extent is the vectorized loop; past 64 lanes it is strip-mined into 16-lane chunks
    // and the rest in pieces of 8, 4, 2 and 1 lanes, none masked (70 = 4 x 16 + 4 + 2).
    for (int64_t n : { 2, 17, 63, 64, 65, 70, 100, 128, 131 }) {
        const ir::ComputeDAG dag = addDag(n);
        sched::State state = sched::State::initial(dag);
        fixtures::apply(state, sched::AnnotationStep { 2, 0, sched::Annotation::Vectorize });
        ts::testing::expectMatchesReference(dag, state, "add n=" + std::to_string(n));
        const std::string ir = llvmIr(state);
        EXPECT_NE(ir.find("x float>"), std::string::npos) << "n=" << n << "\n" << ir;
        EXPECT_EQ(ir.find("llvm.masked.store"), std::string::npos) << "n=" << n << "\n" << ir;
        if (n > 64) {
            for (int64_t piece = 8; piece >= 1; piece /= 2)
                EXPECT_EQ(
                    ir.find("<" + std::to_string(piece) + " x float>") != std::string::npos, (n % 16 & piece) != 0)
                    << "n=" << n << " piece " << piece << "\n"
                    << ir;
        }
    }
}

TEST(CodegenTail, OddWidthsStreamInPiecesButAccumulateInOneVector)
{
    // A loop of 28 lanes that only reads and writes memory (an epilogue's copy-out) is 16 + 8 + 4 lanes:
    // one <28 x float> load is split by LLVM and put back together with inserts. An accumulator of 14 lanes
    // (C += A * B along the vectorized loop) stays one vector: its FMA is one masked 16-lane instruction.
    const ir::ComputeDAG add = addDag(28);
    sched::State copy = sched::State::initial(add);
    fixtures::apply(copy, sched::AnnotationStep { 2, 0, sched::Annotation::Vectorize });
    ts::testing::expectMatchesReference(add, copy, "add n=28");
    const std::string copyIr = llvmIr(copy);
    EXPECT_EQ(copyIr.find("<28 x float>"), std::string::npos) << copyIr;
    for (const char* piece : { "<16 x float>", "<8 x float>", "<4 x float>" })
        EXPECT_NE(copyIr.find(piece), std::string::npos) << piece << "\n" << copyIr;

    const ir::ComputeDAG matmul = fixtures::matmulDag(3, 5, 28);
    const sched::State accumulate = matmulTail(matmul, 28, 14);
    ts::testing::expectMatchesReference(matmul, accumulate, "matmul width 14");
    const std::string accumulateIr = llvmIr(accumulate);
    EXPECT_NE(accumulateIr.find("<14 x float>"), std::string::npos) << accumulateIr;
    EXPECT_EQ(accumulateIr.find("<2 x float>"), std::string::npos) << accumulateIr;
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

namespace {

// B[i] = A[o + s*i + s - 1] + (s*i >= 3 ? A[o + s*i] : 0): loads whose address moves by s elements per
// lane, one of them under a lane-wise select. A holds a whole number of 64-byte lines (kernels assume
// aligned arguments) and o places the last lane's read on A's very last element.
int64_t stridedLength(int64_t n, int64_t s) { return (n * s + 15) / 16 * 16; }

ir::ComputeDAG stridedDag(int64_t n, int64_t s)
{
    auto a = ir::placeholder("A", { stridedLength(n, s) });
    const int64_t o = stridedLength(n, s) - n * s;
    auto b = ir::compute("B", { n }, [&](const std::vector<ir::Expr>& i) {
        const ir::Expr at = i[0] * ir::intImm(s);
        return ir::load(a, { at + ir::intImm(o + s - 1) })
            + ir::select(at >= ir::intImm(3), ir::load(a, { at + ir::intImm(o) }), ir::floatImm(0));
    });
    return ir::ComputeDAG::create({ a, b });
}

// Runs `state` with A's last element the last float before a page the process may not read: a load
// past it crashes the test. Returns B.
std::vector<float> runAtPageEnd(const sched::State& state, const std::vector<float>& a, int64_t n)
{
    auto func = lower::lower(state);
    EXPECT_TRUE(func) << func.error().message;
    auto kernel = codegen::compile(*func, target::Target::host());
    EXPECT_TRUE(kernel) << kernel.error().message;
    if (!func || !kernel)
        return {};
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t aBytes = (a.size() * sizeof(float) + page - 1) / page * page;
    const size_t bytes = aBytes + page + page; // A's pages, the unreadable page, B's page
    char* map = static_cast<char*>(::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    EXPECT_NE(map, MAP_FAILED);
    if (map == MAP_FAILED)
        return {};
    ::mprotect(map + aBytes, page, PROT_NONE);
    float* aAt = reinterpret_cast<float*>(map + aBytes) - a.size();
    float* bAt = reinterpret_cast<float*>(map + aBytes + page);
    std::copy(a.begin(), a.end(), aAt);
    void* args[] = { aAt, bAt };
    (*kernel)->run(args);
    std::vector<float> b(bAt, bAt + n);
    ::munmap(map, bytes);
    return b;
}

} // namespace

TEST(CodegenStridedLoads, EveryStrideExtentAndWidthReadsOnlyWhatItNeeds)
{
    // Stride 1 is a masked load, 2..4 a wide masked load and a permute, 5 a gather; every vector width and
    // extent, the tail masked, and unsplit loops past 64 lanes (or of an odd width, masked) in chunks. A is placed
    // against an unreadable page.
    for (int64_t s : { 1, 2, 3, 4, 5 })
        for (int64_t n = 1; n <= 70; ++n) {
            const ir::ComputeDAG dag = stridedDag(n, s);
            std::vector<float> a(static_cast<size_t>(stridedLength(n, s)));
            for (size_t k = 0; k < a.size(); ++k)
                a[k] = static_cast<float>(k % 97) * 0.5f + 1.0f;
            const size_t o = a.size() - static_cast<size_t>(n * s);
            std::vector<float> want(static_cast<size_t>(n));
            for (size_t i = 0; i < want.size(); ++i) {
                const size_t at = static_cast<size_t>(s) * i;
                want[i] = a[o + at + static_cast<size_t>(s) - 1] + (at >= 3 ? a[o + at] : 0.0f);
            }
            for (int64_t width : { 0, 4, 16, 48, 64 }) { // 0: the whole loop vectorized
                sched::State state = sched::State::initial(dag);
                if (width > 0) {
                    fixtures::apply(state, sched::SplitStep { 1, 0, n, { width }, true });
                    fixtures::apply(state, sched::AnnotationStep { 1, 1, sched::Annotation::Vectorize });
                } else {
                    fixtures::apply(state, sched::AnnotationStep { 1, 0, sched::Annotation::Vectorize });
                }
                EXPECT_EQ(runAtPageEnd(state, a, n), want) << "stride " << s << " n=" << n << " width=" << width;
            }
        }
    for (int64_t n : { 65, 100, 131 }) { // chunked: 16 lanes a chunk, the last one masked
        const ir::ComputeDAG dag = stridedDag(n, 2);
        sched::State state = sched::State::initial(dag);
        fixtures::apply(state, sched::AnnotationStep { 1, 0, sched::Annotation::Vectorize });
        ts::testing::expectMatchesReference(dag, state, "chunked n=" + std::to_string(n));
    }
}

TEST(CodegenTail, MaskedVectorsOfOddWidthsRunInRegisterChunks)
{
    // A lane-wise select over a whole loop of 29 lanes (a stride-2 convolution's padded row) is a 16-lane
    // chunk and pieces of 8, 4 and 1 lanes, each with a mask of its own width, never a <29 x i1> mask (LLVM
    // builds those a bit at a time); 7 lanes are pieces of 4, 2 and 1. Widths that are whole registers, or a
    // power of two within one, stay one vector.
    for (int64_t n : { 7, 8, 15, 16, 29, 32, 48, 50, 64 }) {
        sched::State state = sched::State::initial(stridedDag(n, 1));
        fixtures::apply(state, sched::AnnotationStep { 1, 0, sched::Annotation::Vectorize });
        const std::string ir = llvmIr(state);
        const std::string lanes = std::to_string(n);
        if (n % 16 == 0 || (n & (n - 1)) == 0) {
            EXPECT_NE(ir.find("llvm.masked.load.v" + lanes + "f32"), std::string::npos) << "n=" << n << "\n" << ir;
        } else {
            EXPECT_EQ(ir.find("<" + lanes + " x i1>"), std::string::npos) << "n=" << n << "\n" << ir;
            EXPECT_EQ(ir.find("llvm.masked.load.v16f32") != std::string::npos, n > 16) << "n=" << n << "\n" << ir;
            for (int64_t piece = 8; piece >= 1; piece /= 2)
                EXPECT_EQ(ir.find("llvm.masked.load.v" + std::to_string(piece) + "f32") != std::string::npos,
                    (n % 16 & piece) != 0)
                    << "n=" << n << " piece " << piece << "\n"
                    << ir;
        }
    }
}

TEST(CodegenStridedLoads, SmallStridesAreWideLoadsNotGathers)
{
    for (int64_t s : { 2, 3, 4, 5 }) {
        sched::State state = sched::State::initial(stridedDag(64, s));
        fixtures::apply(state, sched::SplitStep { 1, 0, 64, { 16 }, true });
        fixtures::apply(state, sched::AnnotationStep { 1, 1, sched::Annotation::Vectorize });
        const std::string ir = llvmIr(state);
        EXPECT_EQ(ir.find("llvm.masked.gather") != std::string::npos, s > 4) << "stride " << s << "\n" << ir;
        if (s <= 4) {
            EXPECT_NE(ir.find("llvm.masked.load.v" + std::to_string(16 * s) + "f32"), std::string::npos) << ir;
        }
    }
}

namespace {

// B[j, k, l] = A[l, k, j] * 2 + bias[j]: the nest j, k, l stores along l and reads A along j.
ir::ComputeDAG transposeDag(int64_t j, int64_t k, int64_t l)
{
    auto a = ir::placeholder("A", { l, k, j });
    auto bias = ir::placeholder("bias", { j });
    auto b = ir::compute("B", { j, k, l }, [&](const std::vector<ir::Expr>& i) {
        return ir::load(a, { i[2], i[1], i[0] }) * ir::floatImm(2) + ir::load(bias, { i[0] });
    });
    return ir::ComputeDAG::create({ a, bias, b });
}

} // namespace

TEST(CodegenTranspose, NestsThatReadAcrossTheirRowsRunInTransposedBlocks)
{
    // Outer extents with a 16- or 8-row block, and 12 with none (left to LLVM); inner extents 1..40 (blocks
    // of 16 with a masked last one, and loops too short for a block).
    for (int64_t j : { 8, 12, 16, 24, 32, 48 })
        for (int64_t k : { 1, 3 })
            for (int64_t l = 1; l <= 40; l += (l < 20 ? 1 : 3)) {
                const ir::ComputeDAG dag = transposeDag(j, k, l);
                const std::string what
                    = "transpose j=" + std::to_string(j) + " k=" + std::to_string(k) + " l=" + std::to_string(l);
                ts::testing::expectMatchesReference(dag, sched::State::initial(dag), what);
                // The innermost loop vectorized or unrolled by the schedule (an epilogue's annotation):
                // blocks as well.
                sched::State vectorized = sched::State::initial(dag);
                fixtures::apply(vectorized, sched::AnnotationStep { 2, 2, sched::Annotation::Vectorize });
                ts::testing::expectMatchesReference(dag, vectorized, what + " vectorized");
                sched::State unrolled = sched::State::initial(dag);
                fixtures::apply(unrolled, sched::AnnotationStep { 2, 2, sched::Annotation::Unroll });
                ts::testing::expectMatchesReference(dag, unrolled, what + " unrolled");
            }
    // The blocks are shuffles of contiguous rows, never gathers; without a block the loop is LLVM's.
    const ir::ComputeDAG dag = transposeDag(32, 3, 28);
    const std::string ir = llvmIr(sched::State::initial(dag));
    EXPECT_NE(ir.find("shufflevector <16 x float>"), std::string::npos) << ir;
    EXPECT_NE(ir.find("llvm.masked.store.v16f32"), std::string::npos) << ir; // 28 = 16 + a masked 12
    EXPECT_EQ(ir.find("gather"), std::string::npos) << ir;
    sched::State vectorized = sched::State::initial(dag);
    fixtures::apply(vectorized, sched::AnnotationStep { 2, 2, sched::Annotation::Vectorize });
    const std::string vectorIr = llvmIr(vectorized);
    EXPECT_NE(vectorIr.find("shufflevector <16 x float>"), std::string::npos) << vectorIr;
    EXPECT_EQ(vectorIr.find("gather"), std::string::npos) << vectorIr;
    const ir::ComputeDAG odd = transposeDag(12, 3, 28);
    EXPECT_EQ(llvmIr(sched::State::initial(odd)).find("shufflevector <16 x float>"), std::string::npos);
}
