// Lowering + LLVM codegen against the reference evaluator: every operator of the library with its default
// schedule, and random schedules of matmul and conv2d built from steps.
#include "kernel_check.h"
#include "schedule_fixtures.h"

#include "core/codegen/code_generator.h"
#include "core/codegen/codegen.h"
#include "core/codegen/runtime.h"
#include "core/ir/reference_evaluator.h"
#include "core/lower/lower.h"
#include "core/measure/kernel_buffers.h"
#include "core/measure/reference.h"
#include "core/ops/elementwise.h"
#include "core/ops/normalization.h"
#include "core/ops/pool.h"
#include "core/ops/transform.h"
#include "core/schedule/step_printer.h"
#include "core/support/strings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>

using namespace ts;
using ts::testing::expectMatchesReference;

namespace {

ir::ComputeDAG dagOf(const std::vector<ir::Tensor>& tensors) { return ir::ComputeDAG::create(tensors); }
} // namespace

TEST(Codegen, HostCpuIsReal)
{
    EXPECT_FALSE(codegen::hostCpuName().empty());
    EXPECT_NE(codegen::hostCpuName(), "generic");
}

TEST(Codegen, EveryOperatorWithTheDefaultSchedule)
{
    using ir::placeholder;
    std::vector<std::pair<std::string, ir::ComputeDAG>> cases;
    {
        auto a = placeholder("A", { 33, 17 });
        auto b = placeholder("B", { 17, 29 });
        cases.emplace_back("matmul", dagOf({ a, b, ops::matmul(a, b).value() }));
        auto w = placeholder("W", { 12, 17 });
        cases.emplace_back("dense", dagOf({ a, w, ops::dense(a, w).value() }));
    }
    {
        auto a = placeholder("A", { 3, 9, 7 });
        auto b = placeholder("B", { 3, 5, 7 });
        cases.emplace_back("batch_matmul", dagOf({ a, b, ops::batchMatmul(a, b).value() }));
    }
    {
        auto x = placeholder("data", { 1, 4, 9, 9 });
        auto w = placeholder("weight", { 6, 2, 3, 3 });
        ops::Conv2dParams p;
        p.padding = ops::Conv2dParams::symmetric(1, 2);
        p.stride = { 2, 1 };
        p.dilation = { 1, 2 };
        p.groups = 2;
        cases.emplace_back("conv2d_nchw", dagOf({ x, w, ops::conv2d(x, w, p).value() }));
        auto xh = placeholder("data", { 1, 9, 9, 4 });
        auto wh = placeholder("weight", { 3, 3, 4, 5 });
        ops::Conv2dParams q;
        q.layout = ops::Layout::NHWC;
        q.padding = ops::Conv2dParams::symmetric(1, 1);
        cases.emplace_back("conv2d_nhwc", dagOf({ xh, wh, ops::conv2d(xh, wh, q).value() }));
        auto dw = placeholder("weight", { 4, 1, 3, 3 });
        ops::Conv2dParams d;
        d.padding = ops::Conv2dParams::symmetric(1, 1);
        cases.emplace_back("depthwise", dagOf({ x, dw, ops::depthwiseConv2d(x, dw, d).value() }));
        ops::Pool2dParams pool;
        pool.kernel = { 3, 3 };
        pool.padding = { 1, 1, 1, 1 };
        cases.emplace_back("max_pool", dagOf({ x, ops::maxPool2d(x, pool).value() }));
        cases.emplace_back("avg_pool", dagOf({ x, ops::avgPool2d(x, pool).value() }));
        cases.emplace_back("global_avg_pool", dagOf({ x, ops::globalAvgPool2d(x, ops::Layout::NCHW).value() }));
    }
    {
        auto x = placeholder("x", { 5, 37 });
        auto gamma = placeholder("gamma", { 37 });
        auto beta = placeholder("beta", { 37 });
        cases.emplace_back("softmax", dagOf({ x, ops::softmax(x).value() }));
        cases.emplace_back("layer_norm", dagOf({ x, gamma, beta, ops::layerNorm(x, gamma, beta).value() }));
        cases.emplace_back("gelu", dagOf({ x, ops::gelu(x).value() }));
        auto bias = placeholder("bias", { 37 });
        auto biased = ops::biasAdd(x, bias, 1).value();
        cases.emplace_back("bias_relu", dagOf({ x, bias, ops::relu(biased).value() }));
        cases.emplace_back("clip", dagOf({ x, ops::clip(x, -0.5, 0.5).value() }));
    }
    for (const auto& [name, dag] : cases)
        expectMatchesReference(dag, sched::State::initial(dag), name);
}

TEST(Codegen, FiftyRandomMatmulSchedules)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(37, 45, 50);
    Rng rng(2024);
    for (int i = 0; i < 50; ++i)
        expectMatchesReference(dag, fixtures::randomSchedule(dag, rng), "matmul schedule " + std::to_string(i));
}

TEST(Codegen, FiftyRandomConv2dSchedules)
{
    const ir::ComputeDAG dag = fixtures::conv2dDag(6, 11, 7, 1);
    Rng rng(7);
    for (int i = 0; i < 50; ++i)
        expectMatchesReference(dag, fixtures::randomSchedule(dag, rng), "conv2d schedule " + std::to_string(i));
}

TEST(Codegen, VectorizeEmitsVectorInstructions)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    sched::State state = sched::State::initial(dag);
    fixtures::apply(state, sched::SplitStep { 2, 1, 64, { 16 }, true });
    fixtures::apply(state, sched::ReorderStep { 2, { 0, 3, 1, 2 } });
    fixtures::apply(state, sched::AnnotationStep { 2, 3, sched::Annotation::Vectorize });
    auto func = lower::lower(state);
    ASSERT_TRUE(func);
    auto ir = codegen::emitLlvmIr(*func, false);
    ASSERT_TRUE(ir) << ir.error().message;
    EXPECT_NE(ir->find("<16 x float>"), std::string::npos) << *ir;
    expectMatchesReference(dag, state, "vectorized matmul");
}

TEST(Codegen, CacheReadRfactorAndStorageAlignComputeTheSameResult)
{
    using namespace sched;
    const ir::ComputeDAG dag = fixtures::matmulAddDag(33, 40, 29); // A B matmul C out
    {
        State s = State::initial(dag);
        fixtures::apply(s, CacheReadStep { 0, "shared", { 2 } }); // A A.shared B matmul C out
        fixtures::apply(s, SplitStep { 3, 0, 33, { 8 }, true }); // i.0 i.1 j k
        fixtures::apply(s, ComputeAtStep { 1, 3, 0 }); // rows of A per i.0 tile
        fixtures::apply(s, StorageAlignStep { 1, 0, 16, 3 }); // pad A.shared's row stride
        fixtures::apply(s, ComputeRootStep { 3 });
        expectMatchesReference(dag, s, "cache_read + storage_align");
        auto func = lower::lower(s);
        ASSERT_TRUE(func);
        EXPECT_NE(lower::toString(*func).find("A.shared[ax0*51 + ax1] = A[i.0*320 + ax0*40 + ax1]"), std::string::npos)
            << lower::toString(*func);
    }
    {
        State s = State::initial(dag);
        fixtures::apply(s, SplitStep { 2, 2, 40, { 6 }, true }); // k.0 k.1, 6 does not divide 40
        fixtures::apply(s, RfactorStep { 2, 3, 0 });
        fixtures::apply(s, AnnotationStep { 2, 0, Annotation::Parallel });
        expectMatchesReference(dag, s, "rfactor with a tail");
    }
    {
        State s = State::initial(dag);
        fixtures::apply(s, CacheWriteStep { 2, "local" }); // A B matmul.local matmul C out
        fixtures::apply(s, SplitStep { 3, 0, 33, { 4 }, true });
        fixtures::apply(s, SplitStep { 3, 2, 29, { 8 }, true });
        fixtures::apply(s, FollowFusedSplitStep { 5, 0, { 1 }, 0, true }); // out.i by the same 4
        fixtures::apply(s, ComputeAtStep { 2, 3, 1 });
        fixtures::apply(s, AnnotationStep { 5, 1, Annotation::Vectorize });
        expectMatchesReference(dag, s, "cache_write + follow_fused_split");
    }
}

TEST(Codegen, ComputeAtALoopThatEnclosesTheConsumerComputesTheSameResult)
{
    using namespace sched;
    {
        // As conv2d_layer-ansor-spr.json line 3: pad_temp at T_relu's k.0, which T_relu does not read but
        // which encloses conv2d_nchw (at k.1); k.0 is fused into the parallel loop; 4 does not divide 10.
        const ir::ComputeDAG dag = fixtures::conv2dLayerDag(6, 10, 8); // data pad_temp kernel conv bias T_add T_relu
        const State s = fixtures::withSteps(dag,
            { ComputeInlineStep { 5 }, SplitStep { 6, 2, 10, { 4 }, true }, ComputeAtStep { 3, 6, 3 },
                ComputeAtStep { 1, 6, 2 }, FuseStep { 6, { 0, 1, 2 } },
                AnnotationStep { 6, 0, Annotation::Parallel } });
        expectMatchesReference(dag, s, "pad_temp at a loop enclosing conv2d_nchw");
    }
    {
        // A longer chain: conv2d_nchw.local (pad_temp's reader) at conv2d_nchw's yy, conv2d_nchw at T_relu's
        // k, pad_temp at T_relu's j.0.
        const ir::ComputeDAG dag = fixtures::conv2dLayerDag(4, 8, 8);
        const State s = fixtures::withSteps(dag,
            { CacheWriteStep { 3, "local" }, // data pad_temp kernel conv.local conv bias T_add T_relu
                ComputeInlineStep { 6 }, SplitStep { 7, 1, 8, { 2 }, true }, // T_relu: i j.0 j.1 k l
                ComputeAtStep { 4, 7, 3 }, ComputeAtStep { 3, 4, 2 }, ComputeAtStep { 1, 7, 1 } });
        expectMatchesReference(dag, s, "pad_temp at a loop enclosing a chain of two stages");
        auto func = lower::lower(s);
        ASSERT_TRUE(func);
        // One output channel pair per j.0: all 4 input channels, all 10 padded rows and columns.
        EXPECT_NE(lower::toString(*func).find("float32 pad_temp[400]"), std::string::npos) << lower::toString(*func);
    }
}

namespace {
// A CPU target other than the host: LLVM's baseline x86-64 with the given feature changes.
target::Target x86_64(const std::string& features)
{
    target::Target t;
    t.cpuName = "x86-64";
    t.features = features;
    t.vectorBytes = 16;
    return t;
}
} // namespace

TEST(Codegen, TheTargetReachesTheCompiler)
{
    // A plain loop, no vectorize annotation: LLVM's loop vectorizer picks the vector width the target has.
    auto a = ir::placeholder("A", { 1024 });
    auto b = ir::placeholder("B", { 1024 });
    const ir::ComputeDAG dag = dagOf({ a, b, ops::add(a, b).value() });
    auto func = lower::lower(sched::State::initial(dag));
    ASSERT_TRUE(func) << func.error().message;

    const target::Target sse = x86_64("-avx,-avx2,-avx512f");
    auto narrow = codegen::emitLlvmIr(*func, true, sse);
    ASSERT_TRUE(narrow) << narrow.error().message;
    EXPECT_NE(narrow->find("\"target-cpu\"=\"x86-64\""), std::string::npos) << *narrow;
    EXPECT_NE(narrow->find("<4 x float>"), std::string::npos) << *narrow;
    EXPECT_EQ(narrow->find("<8 x float>"), std::string::npos) << *narrow;

    auto wide = codegen::emitLlvmIr(*func, true, x86_64("+avx,+avx2"));
    ASSERT_TRUE(wide) << wide.error().message;
    EXPECT_NE(wide->find("\"target-cpu\"=\"x86-64\""), std::string::npos) << *wide;
    EXPECT_NE(wide->find("<8 x float>"), std::string::npos) << *wide;

    // Code for the baseline target runs on any x86-64 host and computes the same.
    expectMatchesReference(dag, sched::State::initial(dag), "add for x86-64 without AVX", sse);
    auto object = codegen::compileToObject(*func, sse);
    ASSERT_TRUE(object) << object.error().message;
    EXPECT_FALSE(object->bytes.empty());
}

TEST(Codegen, AssemblyIsTheMachineCodeForTheTarget)
{
    // 16 lanes of explicit vector code: two ymm registers with AVX2, one zmm register with AVX-512.
    auto a = ir::placeholder("A", { 1024 });
    auto b = ir::placeholder("B", { 1024 });
    const ir::ComputeDAG dag = dagOf({ a, b, ops::add(a, b).value() });
    sched::State state = sched::State::initial(dag);
    fixtures::apply(state, sched::SplitStep { 2, 0, 1024, { 16 }, true });
    fixtures::apply(state, sched::AnnotationStep { 2, 1, sched::Annotation::Vectorize });
    auto func = lower::lower(state);
    ASSERT_TRUE(func) << func.error().message;

    auto avx2 = codegen::emitAssembly(*func, x86_64("+avx2,+fma,-avx512f"));
    ASSERT_TRUE(avx2) << avx2.error().message;
    EXPECT_NE(avx2->find(func->name + ":"), std::string::npos) << *avx2; // the kernel under its own name
    EXPECT_NE(avx2->find("vaddps\t"), std::string::npos) << *avx2; // AT&T syntax, as llc prints it
    EXPECT_NE(avx2->find("%ymm"), std::string::npos) << *avx2;
    EXPECT_EQ(avx2->find("zmm"), std::string::npos) << *avx2;

    target::Target avx512;
    avx512.cpuName = "skylake-avx512";
    avx512.features = "+avx512f";
    avx512.vectorBytes = 64;
    auto wide = codegen::emitAssembly(*func, avx512);
    ASSERT_TRUE(wide) << wide.error().message;
    EXPECT_NE(wide->find("%zmm"), std::string::npos) << *wide;

    // A function lowered for the CPU has no GPU threads: the CUDA generator refuses it before NVRTC.
    auto cuda = codegen::emitAssembly(*func, target::fromTvm("cuda -arch=sm_86").value());
    ASSERT_FALSE(cuda);
    EXPECT_EQ(cuda.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(cuda.error().message.find("not bound to GPU threads"), std::string::npos) << cuda.error().message;
}

TEST(Codegen, AnUnknownCpuIsNamed)
{
    auto a = ir::placeholder("A", { 16 });
    const ir::ComputeDAG dag = dagOf({ a, ops::relu(a).value() });
    auto func = lower::lower(sched::State::initial(dag));
    ASSERT_TRUE(func);
    target::Target t;
    t.cpuName = "pentium-9000";
    auto kernel = codegen::compile(*func, t);
    ASSERT_FALSE(kernel);
    EXPECT_EQ(kernel.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(kernel.error().message.rfind("LLVM does not know the CPU \"pentium-9000\" for x86_64", 0), 0u)
        << kernel.error().message;
}

TEST(Codegen, CodeForInstructionsThisCpuLacksIsRefusedBeforeItRuns)
{
    auto a = ir::placeholder("A", { 16 });
    const ir::ComputeDAG dag = dagOf({ a, ops::relu(a).value() });
    auto func = lower::lower(sched::State::initial(dag));
    ASSERT_TRUE(func);
    const target::Target& host = target::Target::host();
    EXPECT_TRUE(codegen::checkRunsHere(host));
    EXPECT_TRUE(codegen::checkRunsHere(x86_64("-avx,-avx2,-avx512f")));
    // The host's own CPU plus one vector extension it does not have (Intel CPUs lack AMD's sse4a and xop,
    // AMD's lack AMX).
    std::string lacking;
    for (const std::string& f : split(host.features, ','))
        for (const char* family : { "-avx", "-amx", "-sse", "-xop", "-fma4" })
            if (lacking.empty() && f.rfind(family, 0) == 0)
                lacking = f.substr(1);
    if (lacking.empty())
        GTEST_SKIP() << "this CPU has every vector extension LLVM knows: " << host.features;
    target::Target beyond = host;
    beyond.features = "+" + lacking;
    auto runs = codegen::checkRunsHere(beyond);
    ASSERT_FALSE(runs);
    EXPECT_EQ(runs.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(runs.error().message.find("needs " + lacking), std::string::npos) << runs.error().message;
    EXPECT_NE(runs.error().message.find("illegal instruction"), std::string::npos) << runs.error().message;
    // compile() links into this process: refused too; compileToObject (for another machine) is not.
    EXPECT_FALSE(codegen::compile(*func, beyond));
    EXPECT_TRUE(codegen::compileToObject(*func, beyond));
}

TEST(Codegen, WorkspaceBlocksAreAlignedAndReused)
{
    void* a = ts_alloc(430'000);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
    static_cast<char*>(a)[429'999] = 1; // all of it is ours
    ts_free(a);
    void* again = ts_alloc(430'000); // the next call of the same kernel: no new mapping, no page faults
    EXPECT_EQ(again, a);
    void* other = ts_alloc(1000); // another size is another block
    EXPECT_NE(other, again);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(other) % 64, 0u);
    ts_free(other);
    ts_free(again);
    // The cache is bounded: many different sizes do not pile up (and each comes back aligned).
    for (int64_t bytes = 64; bytes < 64 * 100; bytes += 64) {
        void* p = ts_alloc(bytes);
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
        ts_free(p);
    }
    ts_free(nullptr);
}

TEST(Codegen, OneGeneratorPerTargetKind)
{
    auto cpu = codegen::makeCodeGenerator(target::Target::host());
    ASSERT_TRUE(cpu) << cpu.error().message;
    EXPECT_EQ((*cpu)->target(), target::Target::host());

    auto cudaTarget = target::fromTvm("cuda -arch=sm_86");
    ASSERT_TRUE(cudaTarget);
    auto cuda = codegen::makeCodeGenerator(*cudaTarget);
    ASSERT_TRUE(cuda) << cuda.error().message;
    EXPECT_EQ((*cuda)->target(), *cudaTarget);
    auto a = ir::placeholder("A", { 16 });
    const ir::ComputeDAG dag = dagOf({ a, ops::relu(a).value() });
    auto func = lower::lower(sched::State::initial(dag));
    ASSERT_TRUE(func);
    // CUDA kernels run in tunescope-gpu-runner, never in this process.
    auto kernel = codegen::compile(*func, *cudaTarget);
    ASSERT_FALSE(kernel);
    EXPECT_EQ(kernel.error().kind, ErrorKind::Unsupported);
    EXPECT_NE(kernel.error().message.find("tunescope-gpu-runner"), std::string::npos) << kernel.error().message;
    auto ir = codegen::emitLlvmIr(*func, false, *cudaTarget);
    ASSERT_FALSE(ir);
    EXPECT_EQ(ir.error().message, "LLVM IR is generated for cpu targets, not cuda");
}

TEST(Codegen, ThreadBindingsAreRefusedByTheCpuGenerator)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(16, 16, 16);
    sched::State s = sched::State::initial(dag);
    fixtures::apply(s, sched::AnnotationStep { 2, 0, sched::Annotation::BlockX });
    lower::LowerOptions options;
    options.target = target::fromTvm("cuda -arch=sm_86").value();
    auto func = lower::lower(s, options);
    ASSERT_TRUE(func) << func.error().message;
    auto kernel = codegen::compile(*func, target::Target::host());
    ASSERT_FALSE(kernel);
    EXPECT_EQ(kernel.error().kind, ErrorKind::Unsupported);
    EXPECT_EQ(kernel.error().message,
        "loop i is bound to blockIdx.x: thread bindings need a GPU code generator, this one generates CPU code");
}

TEST(Codegen, BuffersCarryTheirDtypeAndOnlyFloat32IsGenerated)
{
    auto x = ir::placeholder("x", { 8, 8 }, ir::DType::Float16);
    auto relu = ops::relu(x);
    ASSERT_TRUE(relu) << relu.error().message;
    const ir::ComputeDAG dag = dagOf({ x, *relu });
    auto func = lower::lower(sched::State::initial(dag));
    ASSERT_TRUE(func) << func.error().message;
    ASSERT_EQ(func->args.size(), 2u);
    EXPECT_EQ(func->args[0]->dtype, ir::DType::Float16);
    EXPECT_EQ(func->args[1]->dtype, ir::DType::Float16);
    EXPECT_EQ(lower::toString(*func).rfind("void default_function(float16* x, float16* ", 0), 0u)
        << lower::toString(*func);
    auto kernel = codegen::compile(*func);
    ASSERT_FALSE(kernel);
    EXPECT_EQ(kernel.error().kind, ErrorKind::Unsupported);
    EXPECT_EQ(kernel.error().message, "buffer x: float16 buffers are not generated yet (float32 only)");
}

TEST(Codegen, TheKernelTakesAnArrayOfPointers)
{
    // void(void** args): the entry loads each argument pointer from the array and calls the body with them.
    auto a = ir::placeholder("A", { 16 });
    const ir::ComputeDAG dag = dagOf({ a, ops::relu(a).value() });
    auto func = lower::lower(sched::State::initial(dag));
    ASSERT_TRUE(func);
    auto ir = codegen::emitLlvmIr(*func, false);
    ASSERT_TRUE(ir) << ir.error().message;
    EXPECT_NE(ir->find("define void @default_function(ptr %0)"), std::string::npos) << *ir;
    EXPECT_NE(ir->find("load float, ptr"), std::string::npos) << *ir;
    // Buffers are 64-byte aligned, as the kernel's parameters say (and as the runner allocates them): the
    // 16 elements may be one aligned vector load and store.
    alignas(64) float in[16];
    alignas(64) float out[16];
    for (int i = 0; i < 16; ++i) {
        in[i] = static_cast<float>(i - 8);
        out[i] = -1.0f;
    }
    void* args[] = { in, out };
    auto kernel = codegen::compile(*func);
    ASSERT_TRUE(kernel) << kernel.error().message;
    (*kernel)->run(args);
    for (int i = 0; i < 16; ++i)
        EXPECT_EQ(out[i], std::max(0.0f, static_cast<float>(i - 8))) << i;
}

TEST(Codegen, AnExplicitUnrollOfALongLoopAroundALoopStaysALoop)
{
    // unroll(j) with j of 256 around the i.0 loop would be 256 copies of a loop: 20,000 lines of IR and
    // seconds of O3 for no speed. Past 512 emitted statements the loop stays a loop; short unrolls stay.
    const ir::ComputeDAG dag = fixtures::matmulDag(256, 256, 256);
    sched::State state = sched::State::initial(dag);
    fixtures::apply(state, sched::SplitStep { 2, 0, 256, { 4 }, true });
    fixtures::apply(state, sched::ReorderStep { 2, { 3, 1, 2, 0 } });
    fixtures::apply(state, sched::AnnotationStep { 2, 2, sched::Annotation::Unroll });
    auto func = lower::lower(state);
    ASSERT_TRUE(func) << func.error().message;
    auto ir = codegen::emitLlvmIr(*func, false);
    ASSERT_TRUE(ir) << ir.error().message;
    EXPECT_LT(std::count(ir->begin(), ir->end(), '\n'), 1000) << "unrolled anyway";
    expectMatchesReference(dag, state, "unroll of a long loop");

    sched::State small = sched::State::initial(fixtures::matmulDag(8, 8, 8));
    fixtures::apply(small, sched::AnnotationStep { 2, 1, sched::Annotation::Unroll });
    auto smallFunc = lower::lower(small);
    ASSERT_TRUE(smallFunc);
    auto smallIr = codegen::emitLlvmIr(*smallFunc, false);
    ASSERT_TRUE(smallIr);
    EXPECT_EQ(smallIr->find("\nj:"), std::string::npos) << "8 copies of the k loop fit: j is unrolled\n" << *smallIr;
}

namespace {
// One unary function over `in`, compiled in this process with its loop scalar or split by 16 and vectorized, and run
// on 64-byte aligned buffers (as the kernel's parameters say and the runner allocates them). Fails the test where
// the generated code calls `notCalled` (a libm function the emitter should not need).
std::vector<float> runUnary(
    ops::UnaryOp op, const std::vector<float>& in, bool vectorized, const std::string& notCalled)
{
    const auto n = static_cast<int64_t>(in.size());
    auto x = ir::placeholder("x", { n });
    const ir::ComputeDAG dag = dagOf({ x, ops::unary(x, op).value() });
    sched::State state = sched::State::initial(dag);
    if (vectorized) {
        fixtures::apply(state, sched::SplitStep { 1, 0, n, { 16 }, true });
        fixtures::apply(state, sched::AnnotationStep { 1, 1, sched::Annotation::Vectorize });
    }
    auto func = lower::lower(state);
    EXPECT_TRUE(func);
    if (!func)
        return {};
    auto ir = codegen::emitLlvmIr(*func, false);
    EXPECT_TRUE(ir && ir->find(notCalled) == std::string::npos) << "no libm call";
    if (vectorized)
        EXPECT_TRUE(ir && ir->find("<16 x float>") != std::string::npos);
    auto kernel = codegen::compile(*func);
    EXPECT_TRUE(kernel);
    if (!kernel)
        return {};
    auto aligned = [&] {
        return std::unique_ptr<float, decltype(&std::free)>(
            static_cast<float*>(std::aligned_alloc(64, static_cast<size_t>(n) * sizeof(float))), &std::free);
    };
    auto a = aligned();
    auto out = aligned();
    std::copy(in.begin(), in.end(), a.get());
    std::fill(out.get(), out.get() + n, 7.0f);
    void* args[] = { a.get(), out.get() };
    (*kernel)->run(args);
    return std::vector<float>(out.get(), out.get() + n);
}
} // namespace

TEST(Codegen, ErfIsWithinFourTenthsOfAMillionthOfLibmScalarAndVectorized)
{
    // erf is a rational approximation in the generated code (llvm_emitter_expr.cpp), not libm's erff lane by lane.
    // Checked against double-precision std::erf over [-6, 6] in steps of 2^-12, with the special values, in a
    // scalar loop and in a 16-lane vectorized one.
    std::vector<float> in;
    for (int i = 0; i < 49152; ++i)
        in.push_back(-6.0f + static_cast<float>(i) / 4096.0f);
    for (float v : { 0.0f, -0.0f, 1e-30f, -1e-30f, 1e-7f, 3.925f, -3.925f, 3.93f, 1e30f, -1e30f,
             std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
             std::numeric_limits<float>::quiet_NaN(), 0.5f, -2.0f, 6.0f })
        in.push_back(v);
    for (bool vectorized : { false, true }) {
        const std::vector<float> out = runUnary(ops::UnaryOp::Erf, in, vectorized, "erff");
        ASSERT_EQ(out.size(), in.size());
        double worst = 0.0;
        for (size_t i = 0; i < in.size(); ++i) {
            if (std::isnan(in[i])) {
                EXPECT_TRUE(std::isnan(out[i])) << "erf(NaN) is NaN, got " << out[i];
                continue;
            }
            const double want = std::erf(static_cast<double>(in[i]));
            const double error = std::abs(static_cast<double>(out[i]) - want);
            worst = std::max(worst, error);
            EXPECT_LE(error, 4e-7 * std::abs(want) + 1e-37)
                << "erf(" << in[i] << ") = " << out[i] << ", want " << want << (vectorized ? " (vectorized)" : "");
            if (error > 4e-7 * std::abs(want) + 1e-37)
                break;
        }
        EXPECT_LT(worst, 4e-7);
    }
}

namespace {
// Runs `state` of a DAG whose placeholders are "table" and "ids" on the given values; returns the output.
std::vector<float> runTake(const sched::State& state, const ir::Buffer& table, const ir::Buffer& ids)
{
    auto func = lower::lower(state);
    EXPECT_TRUE(func) << func.error().message;
    if (!func)
        return {};
    auto kernel = codegen::compile(*func, target::Target::host());
    EXPECT_TRUE(kernel) << kernel.error().message << "\n" << lower::toString(*func);
    if (!kernel)
        return {};
    std::vector<std::vector<float>> storage;
    for (const ir::BufferRef& arg : func->args) {
        if (arg->name == "table")
            storage.emplace_back(table.data(), table.data() + table.size());
        else if (arg->name == "ids")
            storage.emplace_back(ids.data(), ids.data() + ids.size());
        else
            storage.emplace_back(static_cast<size_t>(arg->allocatedElements()), 0.0f);
    }
    std::vector<void*> args;
    for (std::vector<float>& s : storage)
        args.push_back(s.data());
    (*kernel)->runSetup(args.data());
    (*kernel)->run(args.data());
    return storage.back();
}
} // namespace

TEST(Codegen, TakeLoadsRowsAtRunTimeIndicesWrappedAndClamped)
{
    // ops::take's row is a data-dependent index (a cast of a load): lowered alone, and inlined into its
    // consumer, the code reads the rows the ids name; -1 is the last row, 12 and -30 clamp to the ends.
    auto table = ir::placeholder("table", { 10, 4 });
    auto ids = ir::placeholder("ids", { 2, 3 });
    auto taken = ops::take(table, ids, 0).value();
    ASSERT_EQ(taken->shape(), (std::vector<int64_t> { 2, 3, 4 }));
    auto doubled = ops::add(taken, taken).value();
    ir::Buffer tableValues(std::vector<int64_t> { 10, 4 });
    for (int64_t k = 0; k < tableValues.size(); ++k)
        tableValues[k] = static_cast<float>(k);
    ir::Buffer idValues(std::vector<int64_t> { 2, 3 });
    const float idList[] = { 3, -1, 12, 0, -30, 7 };
    const int64_t rows[] = { 3, 9, 9, 0, 0, 7 };
    for (int64_t k = 0; k < 6; ++k)
        idValues[k] = idList[k];
    std::vector<float> expected;
    for (int64_t row : rows)
        for (int64_t j = 0; j < 4; ++j)
            expected.push_back(static_cast<float>(row * 4 + j));

    const ir::ComputeDAG alone = dagOf({ table, ids, taken });
    std::vector<ir::Buffer> inputs;
    for (int stage : alone.placeholders())
        inputs.push_back(alone.ops()[static_cast<size_t>(stage)]->name() == "ids" ? idValues : tableValues);
    auto reference = ir::evaluate(alone, inputs);
    ASSERT_TRUE(reference) << reference.error().message;
    EXPECT_EQ(std::vector<float>(reference->back().data(), reference->back().data() + 24), expected);
    EXPECT_EQ(runTake(sched::State::initial(alone), tableValues, idValues), expected);

    const ir::ComputeDAG fused = dagOf({ table, ids, doubled });
    int takeStage = -1;
    for (size_t s = 0; s < fused.ops().size(); ++s)
        if (fused.ops()[s]->name() == "T_take")
            takeStage = static_cast<int>(s);
    ASSERT_GE(takeStage, 0);
    const sched::State inlined = fixtures::withSteps(fused, { sched::ComputeInlineStep { takeStage } });
    std::vector<float> twice;
    for (float v : expected)
        twice.push_back(2 * v);
    EXPECT_EQ(runTake(inlined, tableValues, idValues), twice);
    expectMatchesReference(fused, inlined, "take inlined into add");

    // A computed table at the lookup's outer loop: bound inference sizes the region of it one iteration reads
    // from the clamped row, a data-dependent index: the whole axis.
    auto scaled = ops::scale(table, 2.0).value();
    const ir::ComputeDAG computed = dagOf({ table, ids, ops::take(scaled, ids, 0).value() });
    int scaleStage = -1, lookupStage = -1;
    for (size_t s = 0; s < computed.ops().size(); ++s) {
        if (computed.ops()[s] == scaled)
            scaleStage = static_cast<int>(s);
        if (computed.ops()[s]->name() == "T_take")
            lookupStage = static_cast<int>(s);
    }
    ASSERT_GE(scaleStage, 0);
    ASSERT_GE(lookupStage, 0);
    const sched::State at = fixtures::withSteps(computed, { sched::ComputeAtStep { scaleStage, lookupStage, 1 } });
    EXPECT_EQ(runTake(at, tableValues, idValues), twice);
}

TEST(Codegen, ExpIsWithinTwoTenthsOfAMillionthOfExpScalarAndVectorizedAndOverflowsAsExpDoes)
{
    // exp is a range reduction and a polynomial in the generated code (Emitter::expOf), not libm lane by lane.
    // Checked against double-precision std::exp over [-110, 95] and special values: relative 2e-7 in the normal
    // range, a few denormal steps below it, 0 for -inf, inf above 88.73, NaN kept. Sigmoid uses the same exp.
    std::vector<float> in;
    for (int i = 0; i < 65536; ++i)
        in.push_back(-110.0f + 205.0f * static_cast<float>(i) / 65536.0f);
    for (float v : { 0.0f, -0.0f, 1e-30f, -1e-30f, 88.72f, 88.73f, -87.3f, -103.9f, -104.5f, 1e30f, -1e30f,
             std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
             std::numeric_limits<float>::quiet_NaN(), 1.0f, -1.0f })
        in.push_back(v);
    for (bool vectorized : { false, true }) {
        const std::vector<float> out = runUnary(ops::UnaryOp::Exp, in, vectorized, "llvm.exp");
        ASSERT_EQ(out.size(), in.size());
        int wrong = 0;
        for (size_t i = 0; i < in.size() && wrong < 5; ++i) {
            const double want = std::exp(static_cast<double>(in[i]));
            const float got = out[i];
            bool ok = true;
            if (std::isnan(in[i]))
                ok = std::isnan(got);
            else if (want > std::numeric_limits<float>::max())
                ok = std::isinf(got) && got > 0;
            else if (want >= std::numeric_limits<float>::min())
                ok = std::abs(static_cast<double>(got) - want) <= 2e-7 * want;
            else
                ok = got >= 0
                    && std::abs(static_cast<double>(got) - want) <= 4 * std::numeric_limits<float>::denorm_min();
            wrong += ok ? 0 : 1;
            EXPECT_TRUE(ok) << "exp(" << in[i] << ") = " << got << ", want " << want
                            << (vectorized ? " (vectorized)" : "");
        }
    }
}
