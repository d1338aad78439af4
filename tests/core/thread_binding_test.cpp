// GPU annotations lower into thread-binding loops on a GPU target, and are refused on a CPU target and by
// the CPU code generator.
#include "schedule_fixtures.h"

#include "core/lower/lower.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::sched;

namespace {
target::Target cuda() { return fixtures::cudaTarget(); }
lower::LowerOptions on(const target::Target& t) { return fixtures::loweringFor(t); }

// matmul 64^3: blocks over 8x16 tiles, a thread per element of a tile, k serial.
State boundMatmul(const ir::ComputeDAG& dag)
{
    return fixtures::withSteps(dag,
        {
            SplitStep { 2, 0, 64, { 8 }, true }, // i.0 i.1 j k
            SplitStep { 2, 2, 64, { 16 }, true }, // i.0 i.1 j.0 j.1 k
            ReorderStep { 2, { 0, 2, 1, 3, 4 } }, // i.0 j.0 i.1 j.1 k
            AnnotationStep { 2, 0, Annotation::BlockY },
            AnnotationStep { 2, 1, Annotation::BlockX },
            AnnotationStep { 2, 2, Annotation::ThreadY },
            AnnotationStep { 2, 3, Annotation::ThreadX },
        });
}
} // namespace

TEST(ThreadBinding, GpuAnnotationsBindThreadsOnACudaTarget)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto func = lower::lower(boundMatmul(dag), on(cuda()));
    ASSERT_TRUE(func) << func.error().message;
    EXPECT_EQ(lower::toString(*func), R"(void default_function(float32* A, float32* B, float32* matmul) {
  for (i.0, 0, 8) { // blockIdx.y
    for (j.0, 0, 4) { // blockIdx.x
      for (i.1, 0, 8) { // threadIdx.y
        for (j.1, 0, 16) { // threadIdx.x
          matmul[i.0*512 + i.1*64 + j.0*16 + j.1] = 0f;
          for (k, 0, 64) {
            matmul[i.0*512 + i.1*64 + j.0*16 + j.1] = matmul[i.0*512 + i.1*64 + j.0*16 + j.1] + A[i.0*512 + i.1*64 + k]*B[k*64 + j.0*16 + j.1];
          }
        }
      }
    }
  }
}
)");
    const lower::Stmt& outer = func->body;
    ASSERT_EQ(outer->kind, lower::StmtKind::For);
    EXPECT_EQ(outer->forKind, lower::ForKind::ThreadBinding);
    EXPECT_EQ(outer->threadTag, "blockIdx.y");
}

TEST(ThreadBinding, VThreadAndExtentOneBindingsStay)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(4, 4, 4);
    const State s = fixtures::withSteps(dag,
        {
            SplitStep { 2, 0, 4, { 4 }, true }, // i.0 (extent 1) i.1 j k
            AnnotationStep { 2, 0, Annotation::BlockX },
            AnnotationStep { 2, 1, Annotation::VThread },
            AnnotationStep { 2, 2, Annotation::ThreadX },
        });
    auto func = lower::lower(s, on(cuda()));
    ASSERT_TRUE(func) << func.error().message;
    // The blockIdx loop of extent 1 stays; the vthread moves inside the thread loop, around each statement
    // that depends on it (injectVirtualThreads).
    const std::string text = lower::toString(*func);
    EXPECT_NE(text.find("  for (i.0, 0, 1) { // blockIdx.x\n    for (j, 0, 4) { // threadIdx.x\n      for (i.1, 0, 4) "
                        "{ // vthread\n"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("    for (k, 0, 4) {\n        for (i.1, 0, 4) { // vthread\n"), std::string::npos) << text;
}

TEST(ThreadBinding, AnnotationsThatDoNotFitTheTargetAreNamed)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(16, 16, 16);
    const State gpu = fixtures::withSteps(dag, { AnnotationStep { 2, 1, Annotation::BlockX } });
    auto onCpu = lower::lower(gpu, on(target::Target::host()));
    ASSERT_FALSE(onCpu);
    EXPECT_EQ(onCpu.error().kind, ErrorKind::Unsupported);
    EXPECT_EQ(onCpu.error().message, "stage 2 (matmul): annotation blockIdx.x on j needs a GPU target");

    const State parallel = fixtures::withSteps(dag, { AnnotationStep { 2, 0, Annotation::Parallel } });
    auto onGpu = lower::lower(parallel, on(cuda()));
    ASSERT_FALSE(onGpu);
    EXPECT_EQ(onGpu.error().message,
        "stage 2 (matmul): annotation parallel on i needs a CPU target (bind GPU threads instead)");

    const State tensorize = fixtures::withSteps(dag, { AnnotationStep { 2, 1, Annotation::Tensorize } });
    auto intrinsic = lower::lower(tensorize, on(cuda()));
    ASSERT_FALSE(intrinsic);
    EXPECT_EQ(intrinsic.error().message,
        "stage 2 (matmul): annotation tensorize on j is not supported (no tensor intrinsics yet)");
}

TEST(ThreadBinding, BoundInferenceDoesNotDependOnTheTarget)
{
    // inferBound has no target: the extents of a GPU schedule are known without lowering it for one.
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto bound = lower::inferBound(boundMatmul(dag));
    ASSERT_TRUE(bound) << bound.error().message;
    std::vector<int64_t> extents;
    for (const Iterator& it : bound->stage(2).iters)
        extents.push_back(it.extent);
    EXPECT_EQ(extents, (std::vector<int64_t> { 8, 4, 8, 16, 64 }));
}
