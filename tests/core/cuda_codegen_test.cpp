// CUDA code generation without a GPU: the lowering for GPU targets (shared buffers spanning the block,
// barriers, the device's limits), the CUDA C text, NVRTC compiling records and sampled states, and the
// lowered GPU function computing the right result when its threads run one after the other on the CPU.
// Running the CUDA code itself needs a GPU (tunescope-gpu-runner's tests).
#include "kernel_check.h"
#include "schedule_fixtures.h"

#include "core/codegen/code_generator.h"
#include "core/codegen/cuda_source.h"
#include "core/codegen/nvrtc.h"
#include "core/cost/cost_model.h"
#include "core/lower/gpu_kernels.h"
#include "core/lower/stmt_mutator.h"
#include "core/measure/measurer.h"
#include "core/ops/normalization.h"
#include "core/search/annotation.h"
#include "core/search/sketch.h"
#include "core/search/sketch_policy.h"
#include "core/store/schedule_source.h"
#include "core/support/rng.h"
#include "core/support/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

using namespace ts;
using namespace ts::sched;

namespace {
target::Target cuda() { return fixtures::cudaTarget("sm_80"); }
lower::LowerOptions on(const target::Target& t) { return fixtures::loweringFor(t); }

std::string dataPath(const std::string& file) { return std::string(TS_TEST_DATA_DIR) + "/tvm-logs/" + file; }

// matmul 64^3 tiled for a GPU as Ansor's GPU sketches are: 2x2 blocks of 32x32, 128 threads (8 x 16) of 2x2
// outputs each, accumulated in registers (a local cache_write), k in steps of 8 through shared copies of A
// and B that the block's threads fetch together (B two floats at a time).
State sharedTiledMatmul(const ir::ComputeDAG& dag)
{
    return fixtures::withSteps(dag,
        {
            CacheWriteStep { 2, "local" }, // A B matmul.local matmul
            CacheReadStep { 0, "shared", { 2 } }, // A A.shared B matmul.local matmul
            CacheReadStep { 2, "shared", { 3 } }, // A A.shared B B.shared matmul.local matmul
            SplitStep { 5, 0, 64, { 8, 2 }, true }, // i.0 i.1 i.2 j
            SplitStep { 5, 3, 64, { 16, 2 }, true }, // i.0 i.1 i.2 j.0 j.1 j.2
            ReorderStep { 5, { 0, 3, 1, 4, 2, 5 } }, // i.0 j.0 i.1 j.1 i.2 j.2
            FuseStep { 5, { 0, 1 } }, // i.0@j.0@ i.1 j.1 i.2 j.2
            FuseStep { 5, { 1, 2 } }, // i.0@j.0@ i.1@j.1@ i.2 j.2
            AnnotationStep { 5, 0, Annotation::BlockX },
            AnnotationStep { 5, 1, Annotation::ThreadX },
            ComputeAtStep { 4, 5, 1 }, // matmul.local per thread
            SplitStep { 4, 2, 64, { 8 }, true }, // i j k.0 k.1
            ReorderStep { 4, { 2, 3, 0, 1 } }, // k.0 k.1 i j
            ComputeAtStep { 1, 4, 0 },
            ComputeAtStep { 3, 4, 0 },
            FuseStep { 1, { 0, 1 } }, // A.shared: 16 x 8 = 128, one per thread
            AnnotationStep { 1, 0, Annotation::ThreadX },
            FuseStep { 3, { 0, 1 } }, // B.shared: 8 x 32 = 256 = 128 threads x 2 lanes
            SplitStep { 3, 0, 256, { 2 }, true },
            AnnotationStep { 3, 0, Annotation::ThreadX },
            AnnotationStep { 3, 1, Annotation::Vectorize },
        });
}

// The GPU function with its threads run one after another on the CPU: thread loops become serial loops and
// barriers go. Each thread then fetches the whole of a shared copy itself, so the result is right exactly
// when the lowering's regions and indices are (not its barriers: those need a GPU). A cross-thread
// reduction accumulates in its one-element buffer across the threads in turn, the first of the group
// starting from the identity; its buffer is allocated once for the function, so the last thread's store
// holds the whole reduction.
lower::LoweredFunc serialized(const lower::LoweredFunc& func)
{
    class Serialize : public lower::StmtMutator {
        lower::Stmt visitFor(const lower::Stmt& s) override
        {
            if (s->forKind != lower::ForKind::ThreadBinding)
                return StmtMutator::visitFor(s);
            return lower::makeFor(s->var, s->extent, lower::ForKind::Serial, mutate(s->body));
        }
        lower::Stmt visitBarrier(const lower::Stmt&) override { return nullptr; }
        lower::Stmt visitAllReduce(const lower::Stmt& s) override
        {
            std::vector<ir::Expr> first;
            for (const ir::Expr& t : s->reduceThreads)
                first.push_back(ir::eq(t, ir::intImm(0)));
            const ir::Expr identity = ir::floatImm(ir::reducerIdentity(s->reducer), s->buffer->dtype);
            const ir::Expr current = ir::bufferLoad(s->buffer, s->indices);
            return lower::makeSeq(
                { lower::makeIf(ir::conjunction(first), lower::makeStore(s->buffer, s->indices, identity)),
                    lower::makeStore(s->buffer, s->indices, ir::combine(s->reducer, current, s->value)) });
        }
    };
    lower::LoweredFunc out = func;
    out.body = Serialize().mutate(func.body);
    return out;
}

// Lowers `state` for `gpu`, runs it serialized on the CPU and compares it with the reference.
void expectGpuLoweringMatches(
    const measure::Reference& reference, const State& state, const target::Target& gpu, const std::string& what)
{
    auto func = lower::lower(state, on(gpu));
    ASSERT_TRUE(func) << what << ": " << func.error().message;
    const lower::LoweredFunc cpu = serialized(*func);
    auto kernel = codegen::compile(cpu);
    ASSERT_TRUE(kernel) << what << ": " << kernel.error().message;
    std::vector<int64_t> elements;
    for (const ir::BufferRef& arg : cpu.args)
        elements.push_back(arg->allocatedElements());
    measure::KernelBuffers buffers(elements, cpu.numInputs, 11);
    (*kernel)->run(buffers.args());
    std::vector<std::string> names;
    std::vector<std::vector<float>> outputs;
    for (size_t i = static_cast<size_t>(cpu.numInputs); i < cpu.args.size(); ++i) {
        names.push_back(cpu.args[i]->name);
        outputs.emplace_back(buffers.data(i), buffers.data(i) + buffers.elements(i));
    }
    auto wrong = measure::compareWithReference(reference, names, outputs, 1e-4, 1e-4);
    EXPECT_FALSE(wrong) << what << ": " << *wrong << "\n" << lower::toString(*func);
}

bool haveNvrtc()
{
    static const bool have = codegen::nvrtcVersion().hasValue();
    return have;
}

// The same steps with every split step's lengths drawn again, each a divisor of what is left, kept small
// as Ansor's GPU sampling keeps them (else nearly every state breaks a limit): at most 2 for the vthread
// level (the first of a multi-level tiling's lengths), else at most 4. (Larger tiles make kernels NVRTC
// takes seconds to unroll: a build timeout's business, not these tests'.)
std::optional<State> withRandomSplits(const State& state, std::mt19937& rng)
{
    std::vector<SplitFill> fills;
    const auto& steps = state.steps();
    for (size_t i = 0; i < steps.size(); ++i) {
        const auto* split = std::get_if<SplitStep>(&steps[i]);
        if (!split || !split->extent || *split->extent <= 0)
            continue;
        int64_t left = *split->extent;
        std::vector<int64_t> lengths;
        for (size_t k = 0; k < split->lengths.size(); ++k) {
            std::vector<int64_t> divisors;
            const int64_t cap = (k == 0 && split->lengths.size() >= 3) ? 2 : 4;
            for (int64_t d = 1; d <= std::min(left, cap); ++d)
                if (left % d == 0)
                    divisors.push_back(d);
            const int64_t d = divisors[std::uniform_int_distribution<size_t>(0, divisors.size() - 1)(rng)];
            lengths.push_back(d);
            left /= d;
        }
        fills.push_back(SplitFill { static_cast<int>(i), lengths });
    }
    auto filled = state.withSplitLengths(fills);
    if (!filled)
        return std::nullopt;
    return *filled;
}

struct RecordCase {
    std::string file;
    int line = 0;
};

// The TVM CUDA records whose workloads TuneScope rebuilds.
const std::vector<RecordCase> kCudaRecords = {
    { "conv2d.json", 2 },
    { "resnet-18-NHWC-B1-cuda.json", 3 },
    { "resnet-18-NHWC-B1-cuda.json", 4 },
    { "resnet-18-NHWC-B1-cuda.json", 5 },
    { "resnet-18-NHWC-B1-cuda.json", 11 },
    { "resnet-18-NHWC-B1-cuda.json", 15 },
    { "resnet-18-NHWC-B1-cuda.json", 21 },
};

Expected<store::ResolvedSchedule> resolveRecord(const RecordCase& c)
{
    store::ScheduleSource source;
    source.what = store::RecordRef { dataPath(c.file), c.line };
    return store::resolveSchedule(source);
}
} // namespace

TEST(CudaCodegen, SharedTilesSpanTheBlockAndBarriersGuardThem)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto func = lower::lower(sharedTiledMatmul(dag), on(cuda()));
    ASSERT_TRUE(func) << func.error().message;
    const std::string text = lower::toString(*func);
    // A.shared holds the block's 16 rows of A (8 thread rows x 2), not one thread's 2.
    EXPECT_NE(text.find("float32 A.shared[128]; // shared"), std::string::npos) << text;
    EXPECT_NE(text.find("float32 B.shared[256]; // shared"), std::string::npos) << text;
    EXPECT_NE(text.find("float32 matmul.local[4]; // local"), std::string::npos) << text;
}

TEST(CudaCodegen, SharedTiledMatmulGoldenCudaC)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto func = lower::lower(sharedTiledMatmul(dag), on(cuda()));
    ASSERT_TRUE(func) << func.error().message;
    auto program = codegen::emitCuda(*func, cuda());
    ASSERT_TRUE(program) << program.error().message;
    EXPECT_EQ(program->source,
        R"(// default_function: 1 kernel, generated by TuneScope for cuda -keys=cuda,gpu -arch=sm_80 -max_num_threads=1024 -max_shared_memory_per_block=49152 -thread_warp_size=32

extern "C" __global__ void __launch_bounds__(128) default_function_kernel0(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ matmul)
{
    {
        const int i_0_j_0_ = (int)blockIdx.x;
        {
            const int i_1_j_1_ = (int)threadIdx.x;
            __align__(16) float matmul_local[4];
            for (int i = 0; i < 2; ++i) {
                for (int j = 0; j < 2; ++j) {
                    matmul_local[i * 2 + j] = 0.0f;
                }
            }
            for (int k_0 = 0; k_0 < 8; ++k_0) {
                __shared__ __align__(16) float A_shared[128];
                __syncthreads();
                {
                    const int ax0_ax1_ = (int)threadIdx.x;
                    A_shared[ax0_ax1_] = A[i_0_j_0_ / 2 * 1024 + ax0_ax1_ / 8 * 64 + k_0 * 8 + ax0_ax1_ % 8];
                }
                __shared__ __align__(16) float B_shared[256];
                {
                    const int ax0_ax1__0 = (int)threadIdx.x;
                    {
                        const float2 vec0 = *(const float2*)(B + k_0 * 512 + ax0_ax1__0 / 16 * 64 + i_0_j_0_ % 2 * 32 + ax0_ax1__0 % 16 * 2);
                        *(float2*)(B_shared + ax0_ax1__0 * 2) = make_float2(vec0.x, vec0.y);
                    }
                }
                __syncthreads();
                for (int k_1 = 0; k_1 < 8; ++k_1) {
                    for (int i = 0; i < 2; ++i) {
                        for (int j = 0; j < 2; ++j) {
                            matmul_local[i * 2 + j] = matmul_local[i * 2 + j] + A_shared[i_1_j_1_ / 16 * 16 + i * 8 + k_1] * B_shared[k_1 * 32 + i_1_j_1_ % 16 * 2 + j];
                        }
                    }
                }
            }
            for (int i_2 = 0; i_2 < 2; ++i_2) {
                for (int j_2 = 0; j_2 < 2; ++j_2) {
                    matmul[i_0_j_0_ / 2 * 1024 + i_1_j_1_ / 16 * 128 + i_2 * 64 + i_0_j_0_ % 2 * 32 + i_1_j_1_ % 16 * 2 + j_2] = matmul_local[i_2 * 2 + j_2];
                }
            }
        }
    }
}
)");
}

namespace {
// The same matmul with two virtual threads along i (Ansor's second tiling level): 8 blocks of 64 threads,
// each thread 2 x (2 x 2) outputs, one tile per virtual thread.
State virtualThreadMatmul(const ir::ComputeDAG& dag)
{
    return fixtures::withSteps(dag,
        {
            CacheWriteStep { 2, "local" },
            CacheReadStep { 0, "shared", { 2 } },
            CacheReadStep { 2, "shared", { 3 } }, // A A.shared B B.shared matmul.local matmul
            SplitStep { 5, 0, 64, { 2, 4, 2 }, true }, // i.0 i.1 i.2 i.3 j
            SplitStep { 5, 4, 64, { 16, 2 }, true }, // i.0 i.1 i.2 i.3 j.0 j.1 j.2
            ReorderStep { 5, { 0, 4, 1, 2, 5, 3, 6 } }, // i.0 j.0 i.1 i.2 j.1 i.3 j.2
            FuseStep { 5, { 0, 1 } }, // i.0@j.0@ i.1 i.2 j.1 i.3 j.2
            FuseStep { 5, { 2, 3 } }, // i.0@j.0@ i.1 i.2@j.1@ i.3 j.2
            AnnotationStep { 5, 0, Annotation::BlockX },
            AnnotationStep { 5, 1, Annotation::VThread },
            AnnotationStep { 5, 2, Annotation::ThreadX },
            ComputeAtStep { 4, 5, 2 }, // matmul.local per (virtual) thread
            SplitStep { 4, 2, 64, { 8 }, true }, // i j k.0 k.1
            ReorderStep { 4, { 2, 3, 0, 1 } }, // k.0 k.1 i j
            ComputeAtStep { 1, 4, 0 },
            ComputeAtStep { 3, 4, 0 },
            FuseStep { 1, { 0, 1 } }, // A.shared: 16 x 8 = 128 = 64 threads x 2 lanes
            SplitStep { 1, 0, 128, { 2 }, true },
            AnnotationStep { 1, 0, Annotation::ThreadX },
            AnnotationStep { 1, 1, Annotation::Vectorize },
            FuseStep { 3, { 0, 1 } }, // B.shared: 8 x 32 = 256 = 64 threads x 4 lanes
            SplitStep { 3, 0, 256, { 4 }, true },
            AnnotationStep { 3, 0, Annotation::ThreadX },
            AnnotationStep { 3, 1, Annotation::Vectorize },
        });
}

// The loops (by thread tag, "" for others) around the first line of `text` that contains `what`.
std::vector<std::string> loopsAround(const std::string& text, const std::string& what)
{
    std::vector<std::string> open;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find(what) != std::string::npos)
            return open;
        if (line.find("for (") != std::string::npos) {
            const size_t tag = line.find("// ");
            open.push_back(tag == std::string::npos ? "" : line.substr(tag + 3));
        } else if (line.find_first_not_of(' ') != std::string::npos && line[line.find_first_not_of(' ')] == '}'
            && !open.empty()) {
            open.pop_back();
        }
    }
    return { "(not found)" };
}
} // namespace

// TVM's InjectVirtualThread: the shared copies, which do not depend on the virtual thread, are fetched once
// per k step, not once per virtual thread; the register tile is one per virtual thread.
TEST(CudaCodegen, VirtualThreadsShareTheFetchAndKeepTheirOwnRegisters)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto func = lower::lower(virtualThreadMatmul(dag), on(cuda()));
    ASSERT_TRUE(func) << func.error().message;
    const std::string text = lower::toString(*func);
    EXPECT_NE(text.find("float32 matmul.local[8]; // local"), std::string::npos) << text;
    const std::vector<std::string> fetch = loopsAround(text, "A.shared[");
    EXPECT_EQ(std::count(fetch.begin(), fetch.end(), "vthread"), 0) << text;
    const std::vector<std::string> update = loopsAround(text, "matmul.local[i*2 + j + i.1*4] = matmul.local");
    EXPECT_EQ(std::count(update.begin(), update.end(), "vthread"), 1) << text;

    auto reference = measure::computeReference(dag, 11, 512, 1e9);
    ASSERT_TRUE(reference) << reference.error().message;
    expectGpuLoweringMatches(*reference, virtualThreadMatmul(dag), cuda(), "matmul with virtual threads");
    if (haveNvrtc()) {
        auto ptx = codegen::emitAssembly(*func, cuda());
        EXPECT_TRUE(ptx) << ptx.error().message;
    }
}

TEST(CudaCodegen, GpuLoweringComputesTheRightResultWithThreadsInSequence)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    auto reference = measure::computeReference(dag, 11, 512, 1e9);
    ASSERT_TRUE(reference) << reference.error().message;
    expectGpuLoweringMatches(*reference, sharedTiledMatmul(dag), cuda(), "shared tiled matmul");
}

TEST(CudaCodegen, TvmCudaRecordsAndTheirResplitsComputeTheRightResult)
{
    std::mt19937 rng(7);
    int checked = 0, rejected = 0;
    for (const RecordCase& c : kCudaRecords) {
        auto resolved = resolveRecord(c);
        ASSERT_TRUE(resolved) << c.file << ":" << c.line << ": " << resolved.error().message;
        auto reference = measure::computeReference(resolved->dag, 11, 512, 0.0);
        ASSERT_TRUE(reference) << reference.error().message;
        auto target = target::fromTvm(resolved->record->target);
        ASSERT_TRUE(target) << target.error().message;
        const std::string what = c.file + ":" + std::to_string(c.line);
        expectGpuLoweringMatches(*reference, resolved->state, *target, what);
        for (int k = 0, lowered = 0; k < 12 && lowered < 2; ++k) {
            auto variant = withRandomSplits(resolved->state, rng);
            if (!variant)
                continue;
            auto func = lower::lower(*variant, on(*target));
            if (!func) { // beyond the device's limits: an instantiation error, named
                EXPECT_EQ(func.error().kind, ErrorKind::InvalidArgument) << func.error().message;
                EXPECT_NE(func.error().message.find("GPU kernel"), std::string::npos) << func.error().message;
                ++rejected;
                continue;
            }
            expectGpuLoweringMatches(*reference, *variant, *target, what + " resplit " + std::to_string(k));
            ++checked;
            ++lowered;
        }
    }
    EXPECT_GE(checked, 10) << rejected << " rejected";
}

TEST(CudaCodegen, NvrtcCompilesTheTvmCudaRecords)
{
    if (!haveNvrtc())
        GTEST_SKIP() << "NVRTC is not installed: " << codegen::nvrtcVersion().error().message;
    for (const RecordCase& c : kCudaRecords) {
        auto resolved = resolveRecord(c);
        ASSERT_TRUE(resolved) << resolved.error().message;
        auto target = target::fromTvm(resolved->record->target);
        ASSERT_TRUE(target);
        auto func = lower::lower(resolved->state, on(*target));
        ASSERT_TRUE(func) << c.file << ":" << c.line << ": " << func.error().message;
        auto ptx = codegen::emitAssembly(*func, *target);
        ASSERT_TRUE(ptx) << c.file << ":" << c.line << ": " << ptx.error().message;
        EXPECT_NE(ptx->find(".entry default_function_kernel0"), std::string::npos);
        EXPECT_EQ(ptx->back(), '\n'); // no NUL at the end: ptxas would reject it
    }
}

// States drawn from each record by new split lengths (140 in all): each compiles, or the lowering refuses it
// with the device limit it breaks. None crashes. One test per record, so ctest runs them side by side.
class SampledGpuStates : public ::testing::TestWithParam<size_t> { };

TEST_P(SampledGpuStates, CompileOrAreRefusedByTheLimits)
{
    if (!haveNvrtc())
        GTEST_SKIP() << "NVRTC is not installed: " << codegen::nvrtcVersion().error().message;
    const RecordCase& c = kCudaRecords[GetParam()];
    std::mt19937 rng(11 + static_cast<unsigned>(GetParam()));
    int compiled = 0, refused = 0;
    std::map<std::string, int> reasons;
    auto resolved = resolveRecord(c);
    ASSERT_TRUE(resolved) << resolved.error().message;
    const target::Target target = target::fromTvm(resolved->record->target).value();
    // One NVRTC program for all: the sampled kernels side by side (named apart), as a batch compiles.
    std::string batch;
    for (int k = 0; k < 100 && compiled < 20; ++k) {
        auto variant = withRandomSplits(resolved->state, rng);
        ASSERT_TRUE(variant);
        lower::LowerOptions options = on(target);
        options.functionName = "s" + std::to_string(k);
        auto func = lower::lower(*variant, options);
        if (!func) {
            ASSERT_EQ(func.error().kind, ErrorKind::InvalidArgument) << func.error().message;
            std::string why = func.error().message.substr(func.error().message.find(": ") + 2);
            why.erase(std::remove_if(why.begin(), why.end(), [](char ch) { return std::isdigit(ch); }), why.end());
            reasons[why.substr(0, 40)]++;
            ++refused;
            continue;
        }
        auto program = codegen::emitCuda(*func, target);
        ASSERT_TRUE(program) << program.error().message;
        batch += program->source.substr(program->source.find('\n') + 1);
        ++compiled;
    }
    auto ptx = codegen::compileToPtx(batch, target.arch, "sampled");
    ASSERT_TRUE(ptx) << c.file << ":" << c.line << ": " << ptx.error().message;
    std::string why;
    for (const auto& [reason, n] : reasons)
        why += "  " + std::to_string(n) + " x " + reason + "...\n";
    std::cout << c.file << ":" << c.line << ": " << compiled << " sampled states compiled, " << refused
              << " refused by the limits:\n"
              << why;
    EXPECT_EQ(compiled, 20);
}

INSTANTIATE_TEST_SUITE_P(CudaCodegen, SampledGpuStates, ::testing::Range<size_t>(0, 7));

namespace {
// matmul 64^3 with i bound to blockIdx.x and j to threadIdx.x (one output per thread), then `extra` steps.
State boundMatmul(const ir::ComputeDAG& dag, std::vector<Step> extra = {})
{
    std::vector<Step> steps = {
        AnnotationStep { 2, 0, Annotation::BlockX },
        AnnotationStep { 2, 1, Annotation::ThreadX },
    };
    steps.insert(steps.end(), extra.begin(), extra.end());
    return fixtures::withSteps(dag, steps);
}

std::string limitError(const State& state, const target::Target& target)
{
    auto func = lower::lower(state, on(target));
    if (func)
        return "lowered";
    EXPECT_EQ(func.error().kind, ErrorKind::InvalidArgument) << func.error().message;
    return func.error().message;
}
} // namespace

TEST(CudaCodegen, TheDeviceLimitsAreInstantiationErrors)
{
    const target::Target gpu = cuda();
    EXPECT_EQ(limitError(boundMatmul(fixtures::matmulDag(64, 64, 64)), gpu), "lowered");

    // 2048 threads in a block.
    EXPECT_EQ(limitError(boundMatmul(fixtures::matmulDag(4, 4, 2048)), gpu),
        "GPU kernel default_function_kernel0: threadIdx.x extent 2048 is over 1024");
    target::Target small = gpu;
    small.maxThreadsPerBlock = 32;
    EXPECT_EQ(limitError(boundMatmul(fixtures::matmulDag(64, 64, 64)), small),
        "GPU kernel default_function_kernel0: 64 threads per block, more than the device's 32");

    // A shared copy of the whole of B (64 KiB) in every block.
    const ir::ComputeDAG big = fixtures::matmulDag(64, 128, 128);
    State shared = fixtures::withSteps(big,
        {
            CacheReadStep { 1, "shared", { 2 } }, // A B B.shared matmul
            AnnotationStep { 3, 0, Annotation::BlockX },
            AnnotationStep { 3, 1, Annotation::ThreadX },
            ComputeAtStep { 2, 3, 0 },
            FuseStep { 2, { 0, 1 } },
            SplitStep { 2, 0, 16384, { 128 }, true },
            AnnotationStep { 2, 1, Annotation::ThreadX },
        });
    EXPECT_EQ(limitError(shared, gpu),
        "GPU kernel default_function_kernel0: 65536 bytes of shared memory per block, more than the device's "
        "49152");

    // A vthread of 16 (the device allows 8).
    State vthread = fixtures::withSteps(fixtures::matmulDag(64, 64, 64),
        {
            SplitStep { 2, 0, 64, { 16 }, true }, // i.0 i.1 j k
            AnnotationStep { 2, 0, Annotation::BlockX },
            AnnotationStep { 2, 1, Annotation::VThread },
            AnnotationStep { 2, 2, Annotation::ThreadX },
        });
    EXPECT_EQ(limitError(vthread, gpu),
        "GPU kernel default_function_kernel0: vthread i.1 has extent 16, more than the device's 8");

    // 8 floats at once (32 bytes; the device moves at most 16).
    State vector = fixtures::withSteps(fixtures::matmulDag(64, 64, 64),
        {
            SplitStep { 2, 1, 64, { 8 }, true }, // i j.0 j.1 k
            ReorderStep { 2, { 0, 1, 3, 2 } }, // i j.0 k j.1
            AnnotationStep { 2, 0, Annotation::BlockX },
            AnnotationStep { 2, 1, Annotation::ThreadX },
            AnnotationStep { 2, 3, Annotation::Vectorize },
        });
    EXPECT_EQ(limitError(vector, gpu),
        "GPU kernel default_function_kernel0: vectorized loop j.1 moves 32 bytes at once, more than the device's 16");

    // A root nest left on the host.
    EXPECT_EQ(limitError(State::initial(fixtures::matmulDag(8, 8, 8)), gpu),
        "GPU kernel default_function_kernel0: a root loop nest is not bound to GPU threads (it would run on the "
        "host): bind its outer loops to blockIdx and threadIdx");
}

TEST(CudaCodegen, ABarrierSomeThreadsMissIsRefused)
{
    // The shared copy is fetched by 256 threads, the compute runs on 64: the block has 256 threads, and the
    // compute's barrier sits under `threadIdx.x < 64`.
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    State s = fixtures::withSteps(dag,
        {
            CacheReadStep { 1, "shared", { 2 } }, // A B B.shared matmul
            SplitStep { 3, 2, 64, { 16 }, true }, // i j k.0 k.1
            ReorderStep { 3, { 0, 1, 2, 3 } },
            AnnotationStep { 3, 0, Annotation::BlockX },
            AnnotationStep { 3, 1, Annotation::ThreadX },
            ComputeAtStep { 2, 3, 2 },
            FuseStep { 2, { 0, 1 } }, // 16 x 64 = 1024
            SplitStep { 2, 0, 1024, { 256 }, true },
            AnnotationStep { 2, 1, Annotation::ThreadX },
        });
    EXPECT_EQ(limitError(s, cuda()),
        "GPU kernel default_function_kernel0: a barrier (__syncthreads) is reached by only some of the block's "
        "threads: a thread loop narrower than the block, or a guard on a thread index, encloses it");
}

// --- Cross-thread reduction: a reduce iterator bound to threadIdx (Ansor's CrossThreadReduction sketch).

namespace {
// A conv2d with little spatial work (8 x 4 x 4 outputs) and a long reduction (16 x 3 x 3 = 144), as Ansor's
// CrossThreadReduction rule and InitThreadBind leave it: the padding inlined, the reduction fused and split
// by the warp (5 x 32 > 144: the last part is guarded), its inner part on threadIdx.x, the outputs on
// blockIdx.x.
State crossThreadConv2d(const ir::ComputeDAG& dag, int64_t threads = 32)
{
    const int64_t reduce = 16 * 3 * 3;
    return fixtures::withSteps(dag,
        {
            ComputeInlineStep { 1 }, // data pad_temp weight conv2d
            FuseStep { 3, { 4, 5, 6 } }, // nn ff yy xx rc@ry@rx@
            SplitStep { 3, 4, reduce, { threads }, true }, // nn ff yy xx rc@ry@rx@.0 rc@ry@rx@.1
            AnnotationStep { 3, 5, Annotation::ThreadX },
            FuseStep { 3, { 0, 1, 2, 3 } }, // nn@ff@yy@xx@ rc@ry@rx@.0 rc@ry@rx@.1
            AnnotationStep { 3, 0, Annotation::BlockX },
        });
}

// matmul 4 x 300 x 4 with the whole of k on threadIdx.x (no loop left to each thread) or split so that
// each thread also loops.
State crossThreadMatmul(const ir::ComputeDAG& dag, int64_t threads, bool loopInEachThread)
{
    std::vector<Step> steps;
    if (loopInEachThread) {
        steps.push_back(SplitStep { 2, 2, 300, { threads }, true }); // i j k.0 k.1
        steps.push_back(AnnotationStep { 2, 3, Annotation::ThreadX });
    } else {
        steps.push_back(AnnotationStep { 2, 2, Annotation::ThreadX });
    }
    steps.push_back(FuseStep { 2, { 0, 1 } });
    steps.push_back(AnnotationStep { 2, 0, Annotation::BlockX });
    return fixtures::withSteps(dag, steps);
}
} // namespace

TEST(CrossThreadReduction, LowersToAnAllReduceOfEachThreadsPartialSum)
{
    const ir::ComputeDAG dag = fixtures::conv2dDag(16, 4, 8);
    auto func = lower::lower(crossThreadConv2d(dag), on(cuda()));
    ASSERT_TRUE(func) << func.error().message;
    const std::string text = lower::toString(*func);
    EXPECT_NE(text.find("conv2d_nchw.partial[0] = 0"), std::string::npos) << text;
    EXPECT_NE(text.find("conv2d_nchw.red[0] = all_reduce_sum(conv2d_nchw.partial[0]) over threads (rc@ry@rx@.1)"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("] = conv2d_nchw.red[0];"), std::string::npos) << text;
}

TEST(CrossThreadReduction, ComputesTheRightResultWithThreadsInSequence)
{
    const ir::ComputeDAG conv = fixtures::conv2dDag(16, 4, 8);
    auto convReference = measure::computeReference(conv, 11, 512, 1e9);
    ASSERT_TRUE(convReference) << convReference.error().message;
    expectGpuLoweringMatches(*convReference, crossThreadConv2d(conv), cuda(), "conv2d, 32 threads");
    expectGpuLoweringMatches(*convReference, crossThreadConv2d(conv, 48), cuda(), "conv2d, 48 threads");

    const ir::ComputeDAG matmul = fixtures::matmulDag(4, 300, 4);
    auto matmulReference = measure::computeReference(matmul, 11, 512, 1e9);
    ASSERT_TRUE(matmulReference) << matmulReference.error().message;
    for (const int64_t threads : { 16, 32, 64 })
        expectGpuLoweringMatches(*matmulReference, crossThreadMatmul(matmul, threads, true), cuda(),
            "matmul, " + std::to_string(threads) + " threads looping");
    expectGpuLoweringMatches(
        *matmulReference, crossThreadMatmul(matmul, 300, false), cuda(), "matmul, 300 threads, no loop");
}

TEST(CrossThreadReduction, Conv2dGoldenCudaC)
{
    const ir::ComputeDAG dag = fixtures::conv2dDag(16, 4, 8);
    auto func = lower::lower(crossThreadConv2d(dag), on(cuda()));
    ASSERT_TRUE(func) << func.error().message;
    auto program = codegen::emitCuda(*func, cuda());
    ASSERT_TRUE(program) << program.error().message;
    EXPECT_EQ(program->source,
        R"(// default_function: 1 kernel, generated by TuneScope for cuda -keys=cuda,gpu -arch=sm_80 -max_num_threads=1024 -max_shared_memory_per_block=49152 -thread_warp_size=32

extern "C" __global__ void __launch_bounds__(32) default_function_kernel0(const float* __restrict__ data, const float* __restrict__ weight, float* __restrict__ conv2d_nchw)
{
    {
        const int nn_ff_yy_xx_ = (int)blockIdx.x;
        {
            const int rc_ry_rx__1 = (int)threadIdx.x;
            __align__(16) float conv2d_nchw_partial[1];
            __align__(16) float conv2d_nchw_red[1];
            conv2d_nchw_partial[0] = 0.0f;
            for (int rc_ry_rx__0 = 0; rc_ry_rx__0 < 5; ++rc_ry_rx__0) {
                if ((rc_ry_rx__0 * 32 + rc_ry_rx__1) / 9 < 16) {
                    conv2d_nchw_partial[0] = conv2d_nchw_partial[0] + (nn_ff_yy_xx_ / 4 % 4 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) / 3 % 3 >= 1 && nn_ff_yy_xx_ / 4 % 4 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) / 3 % 3 < 5 && (nn_ff_yy_xx_ % 4 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) % 3 >= 1 && nn_ff_yy_xx_ % 4 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) % 3 < 5) ? data[(rc_ry_rx__0 * 32 + rc_ry_rx__1) / 9 * 16 + nn_ff_yy_xx_ / 4 % 4 * 4 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) / 3 % 3 * 4 + nn_ff_yy_xx_ % 4 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) % 3 - 5] : 0.0f) * weight[nn_ff_yy_xx_ / 16 * 144 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) / 9 * 9 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) / 3 % 3 * 3 + (rc_ry_rx__0 * 32 + rc_ry_rx__1) % 3];
                }
            }
            { // all-reduce over threadIdx.x (32 threads)
                float red0 = conv2d_nchw_partial[0];
                const unsigned mask0 = __activemask();
                red0 = red0 + __shfl_down_sync(mask0, red0, 16, 32);
                red0 = red0 + __shfl_down_sync(mask0, red0, 8, 32);
                red0 = red0 + __shfl_down_sync(mask0, red0, 4, 32);
                red0 = red0 + __shfl_down_sync(mask0, red0, 2, 32);
                red0 = red0 + __shfl_down_sync(mask0, red0, 1, 32);
                conv2d_nchw_red[0] = __shfl_sync(mask0, red0, 0, 32);
            }
            conv2d_nchw[nn_ff_yy_xx_ / 16 * 16 + nn_ff_yy_xx_ / 4 % 4 * 4 + nn_ff_yy_xx_ % 4] = conv2d_nchw_red[0];
        }
    }
}
)");
}

TEST(CrossThreadReduction, WiderThanAWarpGoesThroughSharedMemory)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(4, 300, 4);
    for (const int64_t threads : { 64, 300 }) {
        auto func = lower::lower(crossThreadMatmul(dag, threads, threads == 64), on(cuda()));
        ASSERT_TRUE(func) << func.error().message;
        auto module = lower::gpuKernels(*func, cuda());
        ASSERT_TRUE(module) << module.error().message;
        EXPECT_EQ(module->kernels[0].sharedBytes, threads * 4); // one float per thread of the block
        auto program = codegen::emitCuda(*func, cuda());
        ASSERT_TRUE(program) << program.error().message;
        EXPECT_NE(
            program->source.find("__shared__ float red_buf0[" + std::to_string(threads) + "];"), std::string::npos)
            << program->source;
        EXPECT_EQ(program->source.find("__shfl"), std::string::npos) << program->source;
        if (!haveNvrtc())
            continue;
        auto ptx = codegen::compileToPtx(program->source, "compute_80", "allreduce");
        EXPECT_TRUE(ptx) << ptx.error().message << "\n" << program->source;
    }
}

TEST(CrossThreadReduction, NvrtcCompilesTheWarpShuffles)
{
    if (!haveNvrtc())
        GTEST_SKIP() << "NVRTC is not installed: " << codegen::nvrtcVersion().error().message;
    const ir::ComputeDAG dag = fixtures::conv2dDag(16, 4, 8);
    for (const int64_t threads : { 16, 32 }) {
        auto func = lower::lower(crossThreadConv2d(dag, threads), on(cuda()));
        ASSERT_TRUE(func) << func.error().message;
        auto ptx = codegen::emitAssembly(*func, cuda());
        ASSERT_TRUE(ptx) << ptx.error().message;
        EXPECT_NE(ptx->find("shfl.sync.down"), std::string::npos);
    }
}

TEST(CrossThreadReduction, ReductionsOverBlocksOrTwoThreadDimensionsAreRefused)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(4, 64, 4);
    const State overBlocks = fixtures::withSteps(dag,
        {
            AnnotationStep { 2, 0, Annotation::ThreadX },
            AnnotationStep { 2, 2, Annotation::BlockX },
        });
    auto refusal = [](const State& state) {
        auto func = lower::lower(state, on(cuda()));
        return func ? std::string("lowered") : func.error().message;
    };
    EXPECT_EQ(refusal(overBlocks),
        "stage 2 (matmul): annotation blockIdx.x on k: a reduction can be spread over the threads of a block "
        "(threadIdx), not over blocks or a fused spatial-and-reduce iterator");
    const State twoDims = fixtures::withSteps(dag,
        {
            SplitStep { 2, 2, 64, { 8 }, true }, // i j k.0 k.1
            AnnotationStep { 2, 0, Annotation::BlockX },
            AnnotationStep { 2, 2, Annotation::ThreadY },
            AnnotationStep { 2, 3, Annotation::ThreadX },
        });
    EXPECT_EQ(refusal(twoDims),
        "stage 2 (matmul): a cross-thread reduction over more than one thread dimension is not supported");
}

// --- The GPU search: Ansor's GPU sketch rules and init rules (core/search).

namespace {
search::SearchTask gpuTask(const ir::ComputeDAG& dag)
{
    return search::SearchTask { dag, cuda(), "gpu task", dag.flopCount() };
}
} // namespace

TEST(GpuSketches, MatmulHasAnsorsGpuSketch)
{
    auto sketches = search::generateSketches(gpuTask(fixtures::matmulDag(512, 512, 512)));
    ASSERT_TRUE(sketches) << sketches.error().message;
    ASSERT_EQ(sketches->size(), 1u);
    const search::Sketch& sketch = sketches->front();
    EXPECT_EQ(sketch.rules,
        "AddCacheWrite(matmul), MultiLevelTilingWithFusion(matmul.local), AddCacheRead(B), AddCacheRead(A)");
    // As TVM's GPU records spell it: the copies computed at the local stage's k.0 (compare conv2d.json).
    EXPECT_EQ(sched::stepsToText(sketch.state.steps()),
        R"([["CHW",2,"local"],["SP",2,0,512,[null,null,null,null],1],["SP",2,5,512,[null,null,null,null],1],)"
        R"(["SP",2,10,512,[null,null],1],["RE",2,[0,5,1,6,2,7,10,11,3,8,12,4,9]],["FSP",3,0,1,3],["FSP",3,4,2,3],)"
        R"(["RE",3,[0,4,1,5,2,6,3,7]],["CA",2,3,5],["CHR",1,"shared",[2]],["CA",2,3,6],["CHR",0,"shared",[3]],)"
        R"(["CA",1,4,6]])");
}

TEST(GpuSketches, Conv2dInlinesItsPaddingAndReadsThroughSharedCopies)
{
    auto sketches = search::generateSketches(gpuTask(fixtures::conv2dDag(64, 14, 64)));
    ASSERT_TRUE(sketches) << sketches.error().message;
    ASSERT_EQ(sketches->size(), 1u);
    EXPECT_NE(sketches->front().rules.find("AddCacheRead(pad_temp)"), std::string::npos) << sketches->front().rules;
    EXPECT_NE(sketches->front().rules.find("AlwaysInline(pad_temp)"), std::string::npos) << sketches->front().rules;
    EXPECT_NE(sketches->front().rules.find("AddCacheRead(weight)"), std::string::npos) << sketches->front().rules;
}

namespace {
ir::ComputeDAG softmaxDag(int64_t rows, int64_t columns)
{
    ir::Tensor x = ir::placeholder("x", { rows, columns });
    return ir::ComputeDAG::create({ x, ops::softmax(x).value() });
}
} // namespace

TEST(GpuSketches, ALongReductionOfFewOutputsIsSpreadOverAWarp)
{
    // matmul 8 x 1024 x 8: 64 outputs, 1024 terms each. Ansor's GPU rules give the cross-thread sketch and the
    // tiled one.
    auto sketches = search::generateSketches(gpuTask(fixtures::matmulDag(8, 1024, 8)));
    ASSERT_TRUE(sketches) << sketches.error().message;
    ASSERT_EQ(sketches->size(), 2u);
    EXPECT_EQ(sketches->at(0).rules, "CrossThreadReduction(matmul)");
    EXPECT_EQ(sched::stepsToText(sketches->at(0).state.steps()), R"([["SP",2,2,1024,[32],1],["AN",2,3,6]])");
    EXPECT_EQ(sketches->at(1).rules.substr(0, 14), "AddCacheWrite(") << sketches->at(1).rules;
}

TEST(GpuSketches, SoftmaxReductionsAreComputedInTheirConsumersKernel)
{
    // Each reduction is spread over a warp or not (CrossThreadReduction applies, and so do the rules after
    // it): four sketches. In the first, both reductions follow the normalization's split of its rows by the
    // warp and are computed at its row loop: one kernel per row block, as TVM schedules softmax.
    auto sketches = search::generateSketches(gpuTask(softmaxDag(64, 1000)));
    ASSERT_TRUE(sketches) << sketches.error().message;
    ASSERT_EQ(sketches->size(), 4u);
    EXPECT_EQ(sketches->at(0).rules,
        "CrossThreadReduction(T_softmax_expsum), AlwaysInline(T_softmax_exp), CrossThreadReduction(T_softmax_maxelem)");
    EXPECT_EQ(sched::stepsToText(sketches->at(0).state.steps()),
        R"([["SP",4,1,1000,[32],1],["AN",4,2,6],["FSP",3,1,0,1],["AN",3,2,6],["CA",3,4,0],["CI",2],)"
        R"(["FSP",1,1,0,1],["AN",1,2,6],["CA",1,4,0]])");
    EXPECT_EQ(sketches->at(3).rules, "AlwaysInline(T_softmax_exp)");
}

// Initial populations of the GPU search for matmul, conv2d, and two cross-thread reductions (a matmul with
// few outputs, softmax): every state the init rules give either lowers
// within the device's limits and compiles with NVRTC, or is refused with the limit it breaks; a sample of
// each computes the right result with its threads run one after another.
class SampledGpuSearchStates : public ::testing::TestWithParam<int> { };

TEST_P(SampledGpuSearchStates, CompileOrAreRefusedAndComputeTheRightResult)
{
    const ir::ComputeDAG dags[] = { fixtures::matmulDag(256, 256, 256), fixtures::conv2dDag(32, 14, 64),
        fixtures::matmulDag(8, 1024, 8), softmaxDag(64, 1000) };
    const ir::ComputeDAG& dag = dags[GetParam()];
    const search::SearchTask task = gpuTask(dag);
    auto sketches = search::generateSketches(task);
    ASSERT_TRUE(sketches) << sketches.error().message;
    auto reference = measure::computeReference(dag, 11, 512, 0.0);
    ASSERT_TRUE(reference) << reference.error().message;
    Rng rng(3 + static_cast<uint64_t>(GetParam()));
    int annotated = 0, refused = 0, compiled = 0, checked = 0;
    std::string batch;
    for (int k = 0; k < 400 && compiled < 30; ++k) {
        const search::Sketch& sketch = (*sketches)[static_cast<size_t>(k) % sketches->size()];
        auto state = search::randomAnnotation(task, sketch, search::SearchParams {}, rng);
        if (!state) // a vthread past the limit, fewer threads than a warp: Ansor drops these too
            continue;
        ++annotated;
        lower::LowerOptions options = on(task.target);
        options.functionName = "g" + std::to_string(k);
        auto func = lower::lower(*state, options);
        if (!func) {
            ASSERT_EQ(func.error().kind, ErrorKind::InvalidArgument) << func.error().message;
            EXPECT_NE(func.error().message.find("GPU kernel"), std::string::npos) << func.error().message;
            ++refused;
            continue;
        }
        auto program = codegen::emitCuda(*func, task.target);
        ASSERT_TRUE(program) << program.error().message;
        batch += program->source.substr(program->source.find('\n') + 1);
        ++compiled;
        if (checked < 3) {
            expectGpuLoweringMatches(*reference, *state, task.target, "sampled state " + std::to_string(k));
            ++checked;
        }
    }
    std::cout << annotated << " annotated, " << compiled << " lowered within the limits, " << refused
              << " refused by them\n";
    EXPECT_EQ(compiled, 30);
    if (!haveNvrtc())
        GTEST_SKIP() << "NVRTC is not installed: " << codegen::nvrtcVersion().error().message;
    auto ptx = codegen::compileToPtx(batch, task.target.arch, "sampled");
    ASSERT_TRUE(ptx) << ptx.error().message;
}

INSTANTIATE_TEST_SUITE_P(GpuSketches, SampledGpuSearchStates, ::testing::Values(0, 1, 2, 3));

// A search round on a GPU target proposes only states the device can launch: those that break a limit
// (vthreads, threads or shared memory past the device's, after a mutation of tile sizes) score -inf and are
// neither bred from nor measured. Without the filter, 60 of the 64 first candidates for matmul 4096^3 on
// sm_90 were refused by the limits check at build time, each a wasted trial.
TEST(GpuSearch, EveryProposedCandidateLaunches)
{
    ThreadPool pool(2);
    for (const auto& [dag, kind] : { std::pair { fixtures::matmulDag(4096, 4096, 4096), search::PolicyKind::Ansor },
             std::pair { fixtures::matmulDag(4096, 4096, 4096), search::PolicyKind::Random },
             std::pair { fixtures::conv2dDag(32, 14, 64), search::PolicyKind::Ansor } }) {
        search::SearchTask task = gpuTask(dag);
        search::SearchParams params;
        params.population = 256;
        auto model = cost::makeCostModel("random", 1).value();
        search::SketchPolicy policy(task, kind, params, *model, 7, &pool);
        auto candidates = policy.searchOneRound(32);
        ASSERT_TRUE(candidates) << candidates.error().message;
        EXPECT_GE(candidates->size(), 16u);
        for (const search::Candidate& c : *candidates) {
            auto func = lower::lower(c.state, on(task.target));
            EXPECT_TRUE(func) << func.error().message;
        }
    }
}

// The measurer on a GPU target: candidates become bundles and go through tunescope-gpu-runner; one beyond
// the device's limits is an instantiation error before any runner. Without a GPU the runner answers each
// with status 4 and the reason; with one, the kernel is measured and checked.
TEST(GpuMeasurer, CandidatesGoThroughTheGpuRunner)
{
#ifndef TS_GPU_RUNNER_PATH
    GTEST_SKIP() << "tunescope-gpu-runner is not built here (no CUDA toolkit at build time)";
#else
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    const State vthread = fixtures::withSteps(dag,
        {
            SplitStep { 2, 0, 64, { 16 }, true },
            AnnotationStep { 2, 0, Annotation::BlockX },
            AnnotationStep { 2, 1, Annotation::VThread },
            AnnotationStep { 2, 2, Annotation::ThreadX },
        });
    measure::MeasureOptions options;
    options.target = cuda();
    options.gpuRunnerPath = TS_GPU_RUNNER_PATH;
    options.timing.minRepeatMs = 0;
    measure::Measurer measurer(options);
    std::vector<int> order;
    std::vector<record::MeasureResult> results(2);
    measure::MeasureCallbacks callbacks;
    callbacks.onResult = [&](int index, record::MeasureResult r) {
        order.push_back(index);
        results[static_cast<size_t>(index)] = std::move(r);
    };
    EXPECT_EQ(measurer.measure(dag, { sharedTiledMatmul(dag), vthread }, callbacks), 2);
    ASSERT_EQ(order, (std::vector<int> { 1, 0 })); // the build failure first, as it is known
    EXPECT_EQ(results[1].status, record::MeasureStatus::InstantiationError);
    EXPECT_NE(results[1].message.find("vthread i.1 has extent 16"), std::string::npos) << results[1].message;
    if (results[0].ok()) {
        EXPECT_GT(results[0].meanCost(), 0.0);
    } else {
        EXPECT_EQ(results[0].status, record::MeasureStatus::RuntimeDeviceError) << results[0].message;
        EXPECT_TRUE(results[0].message.find("CUDA driver") != std::string::npos
            || results[0].message.find("GPU") != std::string::npos)
            << results[0].message;
    }
#endif
}
