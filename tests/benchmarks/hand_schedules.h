// Hand-written schedules, steps only (what a search would produce), for the kernel benchmarks.
#pragma once

#include "core/schedule/state.h"

namespace ts::bench {

// matmul [n x n] * [n x n] -> matmul; stages A(0), B(1), matmul(2). A register tile of rows x cols
// accumulators (cache_write "local", computed at the consumer's row tile), cols vectorized, rows unrolled;
// column panels in parallel so that a panel of B stays in L2 across row tiles.
inline sched::State matmulSchedule(const ir::ComputeDAG& dag, int64_t n, int64_t rows, int64_t cols)
{
    using namespace sched;
    State s = State::initial(dag);
    applyOrDie(s, CacheWriteStep { 2, "local" }); // A, B, matmul.local(2), matmul(3)
    applyOrDie(s, SplitStep { 2, 0, n, { rows }, true }); // i.0 i.1 j k
    applyOrDie(s, SplitStep { 2, 2, n, { cols }, true }); // i.0 i.1 j.0 j.1 k
    applyOrDie(s, ReorderStep { 2, { 2, 0, 4, 1, 3 } }); // j.0 i.0 k i.1 j.1
    applyOrDie(s, SplitStep { 3, 0, n, { rows }, true }); // i.0 i.1 j
    applyOrDie(s, SplitStep { 3, 2, n, { cols }, true }); // i.0 i.1 j.0 j.1
    applyOrDie(s, ReorderStep { 3, { 2, 0, 1, 3 } }); // j.0 i.0 i.1 j.1
    applyOrDie(s, ComputeAtStep { 2, 3, 1 }); // the local tile per (j.0, i.0)
    applyOrDie(s, AnnotationStep { 3, 0, Annotation::Parallel });
    applyOrDie(s, AnnotationStep { 3, 3, Annotation::Vectorize });
    applyOrDie(s, AnnotationStep { 2, 3, Annotation::Unroll });
    applyOrDie(s, AnnotationStep { 2, 4, Annotation::Vectorize });
    return s;
}

} // namespace ts::bench

namespace ts::bench {

// conv2d NHWC (data, PaddedInput, weight, Conv2dOutput): pad inlined, an x-by-f register tile of
// accumulators (cache_write "local") over the whole reduction (ry, rx, rc innermost), f vectorized, x
// unrolled, output rows in parallel.
inline sched::State conv2dNhwcSchedule(const ir::ComputeDAG& dag, int64_t width, int64_t channels, int64_t xTile)
{
    using namespace sched;
    State s = State::initial(dag);
    const int pad = s.stageIndex("PaddedInput");
    const int conv = s.stageIndex("Conv2dOutput");
    applyOrDie(s, ComputeInlineStep { pad });
    applyOrDie(s, CacheWriteStep { conv, "local" }); // local = conv, output = conv + 1
    const int local = conv;
    const int out = conv + 1;
    applyOrDie(s, SplitStep { local, 2, width, { xTile }, true }); // nn yy xx.0 xx.1 ff ry rx rc
    applyOrDie(s, ReorderStep { local, { 0, 1, 2, 5, 6, 7, 3, 4 } }); // nn yy xx.0 ry rx rc xx.1 ff
    applyOrDie(s, SplitStep { out, 2, width, { xTile }, true }); // nn yy xx.0 xx.1 ff
    applyOrDie(s, ComputeAtStep { local, out, 2 });
    applyOrDie(s, FuseStep { out, { 0, 1 } }); // nn@yy@ xx.0 xx.1 ff
    applyOrDie(s, AnnotationStep { out, 0, Annotation::Parallel });
    applyOrDie(s, AnnotationStep { out, 3, Annotation::Vectorize });
    applyOrDie(s, AnnotationStep { local, 6, Annotation::Unroll });
    applyOrDie(s, AnnotationStep { local, 7, Annotation::Vectorize });
    (void)channels;
    return s;
}

// The same conv2d NHWC (data, PaddedInput, weight, Conv2dOutput) as Ansor's CPU sketches write it, in the form
// of the TVM records that ran at half TVM's speed here (issue 39, docs/codegen-investigation.md section 13): the
// conv tiled 4 ways in space and 2 in the reduction, the padded input computed inside the conv's loop nest (at
// xx.1), the 64 output channels one vectorized innermost loop around a 4-column register tile, and
// auto_unroll_max_step 0: nothing unrolled by the schedule. Steps in TVM's JSON.
inline const char* kConv2dNhwcAnsorStyleSteps = R"([["SP", 3, 0, 1, [1, 1, 1], 1], ["SP", 3, 4, 56, [2, 1, 1], 1],
    ["SP", 3, 8, 56, [1, 2, 4], 1], ["SP", 3, 12, 64, [1, 1, 64], 1], ["SP", 3, 16, 3, [1], 1],
    ["SP", 3, 18, 3, [3], 1], ["SP", 3, 20, 64, [4], 1],
    ["RE", 3, [0, 4, 8, 12, 1, 5, 9, 13, 16, 18, 20, 2, 6, 10, 14, 17, 19, 21, 3, 7, 11, 15]],
    ["CA", 1, 3, 7], ["FU", 3, [0, 1, 2, 3]], ["AN", 3, 0, 3], ["PR", 3, 0, "auto_unroll_max_step$0"],
    ["AN", 1, 3, 2], ["AN", 3, 18, 2]])";

} // namespace ts::bench
