// Ansor's per-store features: the column names, and values worked out by hand from the definitions
// (core/features/per_store_features.h) for a small tiled matmul and a conv2d with an inlined pad.
#include "schedule_fixtures.h"

#include "core/features/per_store_features.h"
#include "core/lower/lower.h"
#include "core/support/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace ts;
using namespace ts::sched;

namespace {

float slog(double x) { return static_cast<float>(std::log2(x + 1)); }

// The value of column `name` in the row of buffer `buffer`.
float valueOf(const features::ProgramFeatures& f, const std::string& buffer, const std::string& name)
{
    const auto& names = features::perStoreFeatureNames();
    const auto column = std::find(names.begin(), names.end(), name);
    EXPECT_NE(column, names.end()) << name;
    const auto row = std::find(f.rowBuffers.begin(), f.rowBuffers.end(), buffer);
    EXPECT_NE(row, f.rowBuffers.end()) << buffer;
    if (column == names.end() || row == f.rowBuffers.end())
        return NAN;
    return f.row(static_cast<int>(row - f.rowBuffers.begin()))[static_cast<size_t>(column - names.begin())];
}

features::ProgramFeatures featuresOf(const ir::ComputeDAG& dag, const std::vector<Step>& steps)
{
    auto state = State::replay(dag, steps);
    EXPECT_TRUE(state.hasValue()) << (state ? "" : state.error().message);
    auto f = features::perStoreFeatures(*state, target::Target::host());
    EXPECT_TRUE(f.hasValue()) << (f ? "" : f.error().message);
    return f ? *f : features::ProgramFeatures {};
}

// matmul C[8,8] = A[8,16] x B[16,8]: i (parallel), j.0, k, j.1 (vectorized, 4 lanes):
//   parallel for i 0..8 / for j.0 0..2 / { C[i, j.0*4 + j.1] = 0 (vectorized j.1) ;
//     for k 0..16 / vectorized for j.1 0..4: C[i, j.0*4 + j.1] = C[..] + A[i, k] * B[k, j.0*4 + j.1] }
features::ProgramFeatures tiledMatmul()
{
    return featuresOf(fixtures::matmulDag(8, 16, 8),
        { SplitStep { 2, 1, 8, { 4 }, true }, ReorderStep { 2, { 0, 1, 3, 2 } },
            AnnotationStep { 2, 0, Annotation::Parallel }, AnnotationStep { 2, 3, Annotation::Vectorize } });
}

} // namespace

TEST(PerStoreFeatures, NamesMatchValuesAndAnsorsLayout)
{
    const auto& names = features::perStoreFeatureNames();
    ASSERT_EQ(names.size(), 164u);
    EXPECT_EQ(names[0], "float_mad");
    EXPECT_EQ(names[56], "vthread_len");
    EXPECT_EQ(names[57], "B0.acc_type.kRead");
    EXPECT_EQ(names[57 + 18], "B1.acc_type.kRead");
    EXPECT_EQ(names[147], "arith_intensity_curve_0");
    EXPECT_EQ(names[163], "auto_unroll_max_step");
    const auto f = tiledMatmul();
    ASSERT_EQ(f.rows(), 1); // one buffer stored to: C (its init and update make one row, as Ansor's)
    EXPECT_EQ(f.values.size(), names.size() * static_cast<size_t>(f.rows()));
    EXPECT_EQ(f.row(0).size(), names.size());
}

TEST(PerStoreFeatures, TiledMatmulByHand)
{
    const auto f = tiledMatmul();
    auto v = [&](const std::string& name) { return valueOf(f, "matmul", name); };
    // Loops around the update: 8 * 2 * 16 * 4 = 1024 executions of one float add and one float mul; the
    // indices of the two loads each add one int multiply and one int add (j.0*4 + j.1).
    EXPECT_FLOAT_EQ(v("float_addsub"), slog(1024));
    EXPECT_FLOAT_EQ(v("float_mul"), slog(1024));
    EXPECT_FLOAT_EQ(v("float_mad"), 0.0f);
    EXPECT_FLOAT_EQ(v("int_mul"), slog(2048));
    EXPECT_FLOAT_EQ(v("int_addsub"), slog(2048));
    EXPECT_FLOAT_EQ(v("vec_num"), slog(1));
    EXPECT_FLOAT_EQ(v("vec_len"), slog(4));
    EXPECT_FLOAT_EQ(v("vec_type.kPosMixed"), 1.0f);
    EXPECT_FLOAT_EQ(v("vec_type.kPosNone"), 0.0f);
    EXPECT_FLOAT_EQ(v("parallel_prod"), slog(8));
    EXPECT_FLOAT_EQ(v("unroll_num"), 0.0f);
    EXPECT_FLOAT_EQ(v("unroll_type.kPosNone"), 1.0f);

    // Buffers by (lines, bytes): C (read-write, 64 lines), B (64 lines), A (16 lines).
    // C: 1024 * 4 bytes; its init touched the whole 8x8 tile in the outermost loop first: 256 unique
    // bytes; stride 1 in the vectorized loop: 1024 * 4/64 = 64 lines; rows of 8 floats are contiguous:
    // 256 / 32 = 8 unique lines. k does not move it: loop reuse 16 times, at a distance of one j.1 loop
    // (4 iterations, C 4 + A 1 + B 4 floats = 36 bytes).
    EXPECT_FLOAT_EQ(v("B0.acc_type.kReadWrite"), 1.0f);
    EXPECT_FLOAT_EQ(v("B0.bytes"), slog(4096));
    EXPECT_FLOAT_EQ(v("B0.unique_bytes"), slog(256));
    EXPECT_FLOAT_EQ(v("B0.lines"), slog(64));
    EXPECT_FLOAT_EQ(v("B0.unique_lines"), slog(8));
    EXPECT_FLOAT_EQ(v("B0.reuse_type.kLoopMultipleRead"), 1.0f);
    EXPECT_FLOAT_EQ(v("B0.reuse_dis_iter"), slog(4));
    EXPECT_FLOAT_EQ(v("B0.reuse_dis_bytes"), slog(36));
    EXPECT_FLOAT_EQ(v("B0.reuse_ct"), slog(16));
    EXPECT_FLOAT_EQ(v("B0.lines_d_reuse_ct"), slog(4));
    EXPECT_FLOAT_EQ(v("B0.stride"), slog(1));
    // B: 128 unique floats, 16 lines of 32 contiguous bytes; moved by j.1, k and j.0, reused by i (8 times)
    // at a distance of 128 iterations and the j.0 loop's bytes: C 8 + 8 (init and update), A 16, B 128.
    EXPECT_FLOAT_EQ(v("B1.acc_type.kRead"), 1.0f);
    EXPECT_FLOAT_EQ(v("B1.unique_bytes"), slog(512));
    EXPECT_FLOAT_EQ(v("B1.unique_lines"), slog(16));
    EXPECT_FLOAT_EQ(v("B1.reuse_dis_iter"), slog(128));
    EXPECT_FLOAT_EQ(v("B1.reuse_dis_bytes"), slog(640));
    EXPECT_FLOAT_EQ(v("B1.reuse_ct"), slog(8));
    // A: j.1 does not move it (reused 4 times, one iteration apart, 3 accesses x 4 bytes), k does with
    // stride 1: 1024 / 4 * 4/64 = 16 lines; not the innermost loop, so its stride column is 0.
    EXPECT_FLOAT_EQ(v("B2.acc_type.kRead"), 1.0f);
    EXPECT_FLOAT_EQ(v("B2.lines"), slog(16));
    EXPECT_FLOAT_EQ(v("B2.unique_lines"), slog(8));
    EXPECT_FLOAT_EQ(v("B2.reuse_dis_iter"), slog(1));
    EXPECT_FLOAT_EQ(v("B2.reuse_dis_bytes"), slog(12));
    EXPECT_FLOAT_EQ(v("B2.reuse_ct"), slog(4));
    EXPECT_FLOAT_EQ(v("B2.stride"), 0.0f);
    EXPECT_FLOAT_EQ(v("B3.bytes"), 0.0f); // only three buffers

    // Float ops over touched bytes, loop by loop from j.1 out: 8/36, 128/336, 256/608, 2048/1280. The first
    // point (204.8 ops) lies between k and j.0; the last is the whole nest.
    const double first = 128.0 / 336 + (256.0 / 608 - 128.0 / 336) / 128 * (204.8 - 128);
    EXPECT_NEAR(v("arith_intensity_curve_0"), slog(first), 1e-5);
    EXPECT_NEAR(v("arith_intensity_curve_9"), slog(1.6), 1e-5);
    EXPECT_FLOAT_EQ(v("outer_prod"), slog(1024));
    EXPECT_FLOAT_EQ(v("num_loops"), slog(4));
    EXPECT_FLOAT_EQ(v("alloc_size"), 0.0f); // C is an output argument, not allocated
}

// conv2d NCHW, data [1, 2, 4, 4], weight [4, 2, 3, 3], pad 1, with the pad stage inlined (its select moves into
// the conv's body), ff parallel, rx unrolled, auto_unroll_max_step 16 on the stage:
//   parallel for ff 0..4 / yy 0..4 / xx 0..4 / { conv[0, ff, yy, xx] = 0 ; for rc 0..2 / ry 0..3 / unrolled rx 0..3:
//     conv[0, ff, yy, xx] += select(yy + ry >= 1 && yy + ry < 5 && (xx + rx >= 1 && xx + rx < 5),
//                                   data[0, rc, yy + ry - 1, xx + rx - 1], 0) * weight[ff, rc, ry, rx] }
TEST(PerStoreFeatures, Conv2dWithInlinedPadByHand)
{
    const auto f = featuresOf(fixtures::conv2dDag(2, 4, 4),
        { ComputeInlineStep { 1 }, AnnotationStep { 3, 1, Annotation::Parallel },
            AnnotationStep { 3, 6, Annotation::Unroll }, PragmaStep { 3, 0, "auto_unroll_max_step$16" } });
    ASSERT_EQ(f.rows(), 1); // the inlined pad stores nothing
    auto v = [&](const std::string& name) { return valueOf(f, "conv2d_nchw", name); };
    // 4 * 4 * 4 * 2 * 3 * 3 = 1152 executions. The inlined pad brings one select, four integer compares, three
    // ands and eight integer adds/subs (yy + ry, xx + rx in the condition and in data's indices).
    EXPECT_FLOAT_EQ(v("outer_prod"), slog(1152));
    EXPECT_FLOAT_EQ(v("select_op"), slog(1152));
    EXPECT_FLOAT_EQ(v("int_cmp"), slog(4 * 1152));
    EXPECT_FLOAT_EQ(v("bool_op"), slog(3 * 1152));
    EXPECT_FLOAT_EQ(v("int_addsub"), slog(8 * 1152));
    EXPECT_FLOAT_EQ(v("float_addsub"), slog(1152));
    // Positions: unroll (rx) and parallel (ff) are annotated, so Ansor's one-hot says kPosMixed; no vectorize.
    EXPECT_FLOAT_EQ(v("unroll_len"), slog(3));
    EXPECT_FLOAT_EQ(v("unroll_type.kPosMixed"), 1.0f);
    EXPECT_FLOAT_EQ(v("parallel_len"), slog(4));
    EXPECT_FLOAT_EQ(v("parallel_type.kPosMixed"), 1.0f);
    EXPECT_FLOAT_EQ(v("vec_type.kPosNone"), 1.0f);
    EXPECT_FLOAT_EQ(v("auto_unroll_max_step"), slog(16));
    EXPECT_FLOAT_EQ(v("num_loops"), slog(6));

    // data (B0: 72 lines, ties weight's, 4608 bytes each, data first as read first): the pad widens the window
    // to 2 x 6 x 6 = 72 floats = 288 unique bytes; stride 1 in rx: 1152 * 4/64 = 72 lines; no trailing
    // dimension is whole but the channel one (2 = 2): 8 contiguous bytes, 288 / 8 = 36 unique lines. Every loop
    // but ff moves it: reused 4 times, 288 iterations apart, at the yy loop's bytes: data 72 + weight 18
    // + conv 16 (update) + 16 (init) floats = 488 bytes.
    EXPECT_FLOAT_EQ(v("B0.acc_type.kRead"), 1.0f);
    EXPECT_FLOAT_EQ(v("B0.unique_bytes"), slog(288));
    EXPECT_FLOAT_EQ(v("B0.lines"), slog(72));
    EXPECT_FLOAT_EQ(v("B0.unique_lines"), slog(36));
    EXPECT_FLOAT_EQ(v("B0.reuse_dis_iter"), slog(288));
    EXPECT_FLOAT_EQ(v("B0.reuse_dis_bytes"), slog(488));
    EXPECT_FLOAT_EQ(v("B0.reuse_ct"), slog(4));
    EXPECT_FLOAT_EQ(v("B0.stride"), slog(1));
    // weight (B1): 72 floats; rows of 3 contiguous floats: 288 / 12 = 24 unique lines; xx does not move it:
    // reused 4 times, 18 iterations apart, at the rc loop's bytes (data 3 x 3 x 2 + weight 18 + conv 1) * 4.
    EXPECT_FLOAT_EQ(v("B1.unique_lines"), slog(24));
    EXPECT_FLOAT_EQ(v("B1.reuse_dis_iter"), slog(18));
    EXPECT_FLOAT_EQ(v("B1.reuse_dis_bytes"), slog(148));
    // conv2d_nchw (B2, read and written): the three reduction loops leave it in place, so it moves first with
    // xx: 1152 / 18 * 4/64 = 4 lines, and its stride column (innermost loop only) is 0; reused by rx, 3 times,
    // one iteration apart (3 accesses x 4 bytes).
    EXPECT_FLOAT_EQ(v("B2.acc_type.kReadWrite"), 1.0f);
    EXPECT_FLOAT_EQ(v("B2.unique_bytes"), slog(256));
    EXPECT_FLOAT_EQ(v("B2.lines"), slog(4));
    EXPECT_FLOAT_EQ(v("B2.unique_lines"), slog(16));
    EXPECT_FLOAT_EQ(v("B2.stride"), 0.0f);
    EXPECT_FLOAT_EQ(v("B2.reuse_type.kLoopMultipleRead"), 1.0f);
    EXPECT_FLOAT_EQ(v("B2.reuse_dis_bytes"), slog(12));
    EXPECT_FLOAT_EQ(v("B2.reuse_ct"), slog(3));
    EXPECT_FLOAT_EQ(v("B2.bytes_d_reuse_ct"), slog(4608.0 / 3));
}

TEST(PerStoreFeatures, CacheWriteStageHasItsOwnRowAndAllocation)
{
    // matmul 8x8x16 with a local cache stage computed at the output's i: two rows, the local one allocated
    // inside i (8 floats, alloc_outer_prod 8).
    const auto f
        = featuresOf(fixtures::matmulDag(8, 16, 8), { CacheWriteStep { 2, "local" }, ComputeAtStep { 2, 3, 0 } });
    ASSERT_EQ(f.rows(), 2);
    EXPECT_FLOAT_EQ(valueOf(f, "matmul.local", "alloc_size"), slog(8 * 4));
    EXPECT_FLOAT_EQ(valueOf(f, "matmul.local", "alloc_outer_prod"), slog(8));
    EXPECT_FLOAT_EQ(valueOf(f, "matmul.local", "alloc_inner_prod"), slog(8 * 16));
    EXPECT_FLOAT_EQ(valueOf(f, "matmul", "B0.acc_type.kWrite"), 1.0f);
}

TEST(PerStoreFeatures, UnfilledSketchIsAnErrorAndBatchKeepsOrder)
{
    const auto dag = fixtures::matmulDag(8, 16, 8);
    auto sketch = State::replay(dag, { SplitStep { 2, 1, 8, { std::nullopt }, true } });
    ASSERT_TRUE(sketch.hasValue());
    EXPECT_FALSE(features::perStoreFeatures(*sketch, target::Target::host()).hasValue());

    std::vector<State> states { State::replay(dag, {}).value(), *sketch,
        State::replay(dag, { AnnotationStep { 2, 0, Annotation::Parallel } }).value() };
    ThreadPool pool(2);
    const auto batch = features::perStoreFeatures(states, target::Target::host(), &pool);
    ASSERT_EQ(batch.size(), 3u);
    EXPECT_TRUE(batch[0].hasValue());
    EXPECT_FALSE(batch[1].hasValue());
    ASSERT_TRUE(batch[2].hasValue());
    EXPECT_FLOAT_EQ(valueOf(*batch[2], "matmul", "parallel_len"), slog(8));
    EXPECT_FLOAT_EQ(valueOf(*batch[0], "matmul", "parallel_len"), 0.0f);
}
