// Structural properties of the LLVM IR the code generator emits for register-tiled schedules (issue 18: the
// speed of generated kernels depends on them, not only their results). Each test also runs the kernel
// against the reference evaluator.
#include "kernel_check.h"
#include "schedule_fixtures.h"

#include "core/codegen/codegen.h"
#include "core/lower/lower.h"
#include "core/measure/kernel_buffers.h"
#include "core/measure/reference.h"
#include "core/schedule/step_printer.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

using namespace ts;
using ts::testing::expectMatchesReference;
using namespace ts::sched;

namespace {

std::string llvmIr(const State& state, bool optimized)
{
    auto func = lower::lower(state);
    EXPECT_TRUE(func) << func.error().message;
    auto ir = codegen::emitLlvmIr(*func, optimized);
    EXPECT_TRUE(ir) << ir.error().message;
    return ir ? *ir : std::string();
}

std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

bool hasLabel(const std::string& ir, const std::string& label)
{
    for (const std::string& line : linesOf(ir))
        if (line.rfind(label + ":", 0) == 0)
            return true;
    return false;
}

// The instructions of the header block of loop `var` (a serial loop's header is named after its variable;
// LLVM's inliner adds ".i" when it inlines the body function into the entry). Empty if there is none.
std::string loopHeaderBlock(const std::string& ir, const std::string& var)
{
    std::string block;
    bool inside = false;
    for (const std::string& line : linesOf(ir)) {
        if (inside && (line.empty() || line == "}"))
            break;
        if (inside)
            block += line + "\n";
        inside = inside || line.rfind(var + ":", 0) == 0 || line.rfind(var + ".i:", 0) == 0;
    }
    return block;
}

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

// C = A * B (n x l times l x m; stages A B matmul), a 4 x 16 register tile accumulated straight into C:
// i.0 j.0 k, then i.1 (4, unrolled) and j.1 (16, vectorized).
State registerTile(const ir::ComputeDAG& dag, int64_t n, int64_t m)
{
    return fixtures::withSteps(dag,
        { SplitStep { 2, 0, n, { 4 }, true }, SplitStep { 2, 2, m, { 16 }, true }, ReorderStep { 2, { 0, 2, 4, 1, 3 } },
            AnnotationStep { 2, 3, Annotation::Unroll }, AnnotationStep { 2, 4, Annotation::Vectorize } });
}
} // namespace

// The 4 rows of the tile live in 4 vector registers across the k loop: LLVM promotes C's tile to phis only
// when alias analysis can tell the 4 rows apart. Loads and stores of C inside k would make the kernel
// memory bound.
TEST(CodegenStructure, ARegisterTileWrittenToTheOutputStaysInRegisters)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    const State state = registerTile(dag, 64, 64);
    const std::string ir = llvmIr(state, true);
    const std::string k = loopHeaderBlock(ir, "k");
    ASSERT_FALSE(k.empty()) << ir;
    EXPECT_GE(count(k, "phi <16 x float>"), 4u) << ir;
    EXPECT_EQ(count(k, "store"), 0u) << ir;
    EXPECT_EQ(count(k, "ptr %matmul"), 0u) << ir; // no address into C at all: no load, no store
    EXPECT_EQ(count(ir, "store <16 x float>"), 4u) << ir; // each row of the tile written once, after k
    expectMatchesReference(dag, state);
}

// An NCHW convolution vectorized over its output channels (16 lanes of ff, innermost in the last tile, with 7
// output pixels unrolled around them), computed at its bias+ReLU consumer: its local accumulator buffer stores
// ff innermost, so each of the 7 accumulators is one contiguous vector that stays in a register. In the DAG's
// order (ff, yy, xx) each would be a 16-lane access at stride 7: a gather and a scatter per FMA. (The bias+ReLU
// stage reads it element by element here; vectorized along xx it would gather 7 lanes at stride 16 instead.)
TEST(CodegenStructure, ChannelVectorizedAccumulatorsAreContiguousInTheirLocalBuffer)
{
    const ir::ComputeDAG dag = fixtures::conv2dLayerDag(16, 14, 32);
    auto state = State::replayJson(dag,
        R"([["CI",5],["SP",3,0,1,[1,1,1],1],["SP",3,4,32,[1,1,16],1],["SP",3,8,14,[14,1,1],1],)"
        R"(["SP",3,12,14,[1,1,7],1],["SP",3,16,16,[8],1],["SP",3,18,3,[1],1],["SP",3,20,3,[3],1],)"
        R"(["RE",3,[0,4,8,12,1,5,9,13,16,18,20,2,6,10,14,17,19,21,3,11,15,7]],["FSP",6,0,1,2],["FSP",6,3,2,2],)"
        R"(["FSP",6,6,3,2],["FSP",6,9,4,2],["RE",6,[0,3,6,9,1,4,7,10,2,5,8,11]],["CA",3,6,7],["CA",1,3,9],)"
        R"(["FU",6,[0,1,2,3,4,5,6]],["AN",6,0,3],["PR",3,0,"auto_unroll_max_step$64"],["AN",1,3,2],)"
        R"(["AN",3,21,2]])");
    ASSERT_TRUE(state) << state.error().message;
    lower::LowerOptions packed; // the weight in its loops' order, as a tuned conv has it: ff contiguous too
    packed.layoutRewrite = 1;
    auto func = lower::lower(*state, packed);
    ASSERT_TRUE(func) << func.error().message;
    const std::string loops = lower::toString(*func);
    EXPECT_NE(loops.find("conv2d_nchw[ff.3 + xx.3*16] = conv2d_nchw[ff.3 + xx.3*16] + "), std::string::npos) << loops;
    auto ir = codegen::emitLlvmIr(*func, true);
    ASSERT_TRUE(ir) << ir.error().message;
    // The 7 accumulators are vector phis of the reduction loop, never stored inside it.
    const std::string rc = loopHeaderBlock(*ir, "rc.1");
    ASSERT_FALSE(rc.empty()) << *ir;
    EXPECT_GE(count(rc, "phi <16 x float>"), 7u) << *ir;
    EXPECT_EQ(count(rc, "store"), 0u) << *ir;
    EXPECT_EQ(count(*ir, "llvm.masked.scatter"), 0u) << *ir;
    expectMatchesReference(dag, *state);
}

// ResNet-18 NCHW task 4 (3x3 stride 2, 64 -> 128 channels) with a 14-pixel x 32-channel tile and its 3 rx
// taps unrolled: 28 accumulators, and taps that overlap (pixel p at tap 2 reads what pixel p + 1 reads at tap
// 0). The IR loads each of the 42 broadcasts on its own, but SelectionDAG made one node of two loads of one
// address on one chain, so the backend held 13 broadcasts across the block and spilled (0.86 ms against 0.40
// with rx a loop). RematerializeLoads now ends the chain before such a re-load: 42 broadcasts in the loop.
TEST(CodegenStructure, OverlappingTapsAreReloadedNotHeldByTheBackend)
{
    const ir::ComputeDAG dag = fixtures::conv2dLayerDag(64, 56, 128, 2);
    auto state = State::replayJson(dag,
        R"([["CI",5],["SP",3,0,1,[1,1,1],1],["SP",3,4,128,[1,1,32],1],["SP",3,8,28,[4,1,1],1],)"
        R"(["SP",3,12,28,[2,1,14],1],["SP",3,16,64,[16],1],["SP",3,18,3,[1],1],["SP",3,20,3,[3],1],)"
        R"(["RE",3,[0,4,8,12,1,5,9,13,16,18,20,2,6,10,14,17,19,21,3,7,11,15]],["FSP",6,0,1,2],["FSP",6,3,2,2],)"
        R"(["FSP",6,6,3,2],["FSP",6,9,4,2],["RE",6,[0,3,6,9,1,4,7,10,2,5,8,11]],["CA",3,6,7],["CA",1,3,7],)"
        R"(["FU",6,[0,1,2,3,4,5,6,7]],["AN",6,0,3],["PR",3,0,"auto_unroll_max_step$64"],)"
        R"(["RE",3,[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,21,19]],["AN",1,3,2],["AN",3,21,2],)"
        R"(["AN",6,4,2]])");
    ASSERT_TRUE(state) << state.error().message;
    lower::LowerOptions packed;
    packed.layoutRewrite = 2;
    auto func = lower::lower(*state, packed);
    ASSERT_TRUE(func) << func.error().message;
    auto assembly = codegen::emitAssembly(*func);
    ASSERT_TRUE(assembly) << assembly.error().message;
    // The block with the most FMAs is the rc.1 loop's: 3 taps x 14 pixels x 2 vectors of 16 channels.
    size_t fmas = 0, broadcasts = 0, blockFmas = 0, blockBroadcasts = 0;
    for (const std::string& line : linesOf(*assembly)) {
        if (!line.empty() && line[0] == '.' && line.back() == ':') {
            blockFmas = blockBroadcasts = 0;
            continue;
        }
        blockFmas += line.find("vfmadd") != std::string::npos;
        blockBroadcasts += line.find("vbroadcastss") != std::string::npos || line.find("{1to") != std::string::npos;
        if (blockFmas > fmas) {
            fmas = blockFmas;
            broadcasts = blockBroadcasts;
        }
    }
    EXPECT_EQ(fmas, 84u) << *assembly;
    EXPECT_EQ(broadcasts, 42u) << *assembly;
    expectMatchesReference(dag, *state, "conv2d stride 2, rx unrolled", target::Target::host(), 2e7);
}

// The same tile through a cache_write stage computed at the output's j.0: the local buffer must vanish into
// vector phis too (a stack array read and written every k would cost as much as the output buffer).
TEST(CodegenStructure, ACacheWriteTileIsVectorPhis)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    State state = fixtures::withSteps(dag,
        { CacheWriteStep { 2, "local" }, // A B matmul.local matmul
            SplitStep { 3, 0, 64, { 4 }, true }, SplitStep { 3, 2, 64, { 16 }, true },
            ReorderStep { 3, { 0, 2, 1, 3 } }, // i.0 j.0 i.1 j.1
            ComputeAtStep { 2, 3, 1 }, ReorderStep { 2, { 2, 0, 1 } }, // local: k i j
            AnnotationStep { 2, 1, Annotation::Unroll }, AnnotationStep { 2, 2, Annotation::Vectorize },
            AnnotationStep { 3, 2, Annotation::Unroll }, AnnotationStep { 3, 3, Annotation::Vectorize } });
    const std::string ir = llvmIr(state, true);
    const std::string k = loopHeaderBlock(ir, "k");
    ASSERT_FALSE(k.empty()) << ir;
    EXPECT_GE(count(k, "phi <16 x float>"), 4u) << ir;
    EXPECT_EQ(count(k, "store"), 0u) << ir;
    EXPECT_EQ(count(ir, "alloca"), 0u) << ir; // matmul.local is gone
    EXPECT_EQ(count(ir, "store <16 x float>"), 4u) << ir; // only the copy of the 4 rows into C
    expectMatchesReference(dag, state);
}

// A schedule that does not unroll its register tile (auto_unroll_max_step 0, no annotation) gets what LLVM's full
// unroller gives it in TVM's own build: the small loop-free i.1 loop is emitted unrolled, and its 4 rows stay in
// registers across k as in test 1. Rolled, every FMA loaded and stored its accumulator (ResNet-18 NHWC's 3x3 conv
// with such a tile: 0.46 of the unrolled speed). A loop whose unrolled whole is past the budget (64 operations of
// 16 lanes) stays a loop.
TEST(CodegenStructure, ASmallLoopFreeLoopIsUnrolledAsLlvmWouldInTvmsBuild)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    const State rolled = fixtures::withSteps(dag,
        { SplitStep { 2, 0, 64, { 4 }, true }, SplitStep { 2, 2, 64, { 16 }, true },
            ReorderStep { 2, { 0, 2, 4, 1, 3 } }, AnnotationStep { 2, 4, Annotation::Vectorize } });
    const std::string ir = llvmIr(rolled, true);
    const std::string k = loopHeaderBlock(ir, "k");
    ASSERT_FALSE(k.empty()) << ir;
    EXPECT_FALSE(hasLabel(ir, "i.1")) << ir;
    EXPECT_GE(count(k, "phi <16 x float>"), 4u) << ir;
    EXPECT_EQ(count(k, "store"), 0u) << ir;
    expectMatchesReference(dag, rolled);

    // i.1 of 32 rows x one 16-lane FMA: 32 operations, unrolled; k (64) around it: 2048, a loop.
    const State wide = fixtures::withSteps(dag,
        { SplitStep { 2, 0, 64, { 32 }, true }, SplitStep { 2, 2, 64, { 16 }, true },
            ReorderStep { 2, { 0, 2, 4, 1, 3 } }, AnnotationStep { 2, 4, Annotation::Vectorize } });
    const std::string wideIr = llvmIr(wide, false);
    EXPECT_FALSE(hasLabel(wideIr, "i.1")) << wideIr;
    EXPECT_TRUE(hasLabel(wideIr, "k")) << wideIr;
    // i.1 of 32 rows around j.1 of 4 around a 16-lane j.2: 128 operations, a loop (j.1, 4, unrolled inside it).
    const State past = fixtures::withSteps(dag,
        { SplitStep { 2, 0, 64, { 32 }, true }, SplitStep { 2, 2, 64, { 4, 16 }, true },
            ReorderStep { 2, { 0, 2, 5, 1, 3, 4 } }, AnnotationStep { 2, 5, Annotation::Vectorize } });
    const std::string pastIr = llvmIr(past, false);
    EXPECT_TRUE(hasLabel(pastIr, "i.1")) << pastIr;
    EXPECT_FALSE(hasLabel(pastIr, "j.1")) << pastIr;
    expectMatchesReference(dag, past);
}

// An unrolled loop is emitted by substituting each constant for its variable: no block and no phi named
// after it, its body once per iteration. A loop left behind would keep the tile's index dynamic, and the
// registers of test 1 would be memory again. Both ways to unroll: the annotation and the pragma.
TEST(CodegenStructure, UnrolledLoopsLeaveNoLoop)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(16, 16, 32);
    // i j.0 k j.1, j.1 of extent 8 innermost, with one store in its body (and one in the init nest's j.1).
    const std::vector<Step> tile = { SplitStep { 2, 1, 32, { 8 }, true }, ReorderStep { 2, { 0, 1, 3, 2 } } };
    std::vector<Step> annotated = tile;
    annotated.push_back(AnnotationStep { 2, 3, Annotation::Unroll });
    std::vector<Step> pragma = tile;
    pragma.push_back(PragmaStep { 2, 0, "auto_unroll_max_step$16" }); // 8 stores <= 16; k: 16 * 8 > 16
    for (const auto& [what, steps] : { std::pair { "annotation", annotated }, std::pair { "pragma", pragma } }) {
        SCOPED_TRACE(what);
        const State state = fixtures::withSteps(dag, steps);
        const std::string ir = llvmIr(state, false);
        EXPECT_TRUE(hasLabel(ir, "k")) << ir; // the loops around stay loops, named after their variables
        EXPECT_TRUE(hasLabel(ir, "j.0")) << ir;
        EXPECT_FALSE(hasLabel(ir, "j.1")) << ir;
        EXPECT_EQ(count(ir, "%j.1"), 0u) << ir;
        EXPECT_EQ(count(ir, "store float "), 2u * 8u) << ir;
        expectMatchesReference(dag, state);
    }
}

// Canonical index order: an unrolled row of the tile is the row-0 address plus a constant added last
// (outer loop terms first). That is what lets alias analysis see the 4 rows of test 1 as disjoint.
// Non-square shapes so that C's row stride (m) differs from A's (l).
TEST(CodegenStructure, UnrolledAddressesDifferByAConstant)
{
    const int64_t n = 32, l = 40, m = 48;
    const ir::ComputeDAG dag = fixtures::matmulDag(n, l, m);
    const State state = registerTile(dag, n, m);
    const std::string ir = llvmIr(state, false);
    const size_t body = ir.find("define internal void @default_function_impl(");
    ASSERT_NE(body, std::string::npos) << ir;
    std::map<std::string, std::string> definitions; // %name -> its instruction, in the body function only
    for (const std::string& line : linesOf(ir.substr(body, ir.find("\n}", body) - body))) {
        const size_t eq = line.find(" = ");
        if (line.rfind("  %", 0) == 0 && eq != std::string::npos)
            definitions[line.substr(2, eq - 2)] = line.substr(eq + 3);
    }
    // The constant added last to the index of every address into C (none for row 0).
    std::set<int64_t> rowOffsets;
    size_t addresses = 0;
    for (const auto& [name, instruction] : definitions) {
        const std::string gep = "getelementptr inbounds float, ptr %matmul, i64 ";
        if (instruction.rfind(gep, 0) != 0)
            continue;
        ++addresses;
        const auto index = definitions.find(instruction.substr(gep.size()));
        ASSERT_NE(index, definitions.end()) << instruction;
        const std::string& add = index->second; // "add nsw i64 %x, 96" for a row offset
        const std::string constant = add.substr(add.rfind(", ") + 2);
        if (add.rfind("add nsw i64 %", 0) == 0 && constant.find_first_not_of("0123456789") == std::string::npos)
            rowOffsets.insert(std::stoll(constant));
    }
    EXPECT_EQ(addresses, 3u * 4u) << ir; // init store, load and store of each of the 4 rows
    EXPECT_EQ(rowOffsets, (std::set<int64_t> { 1 * m, 2 * m, 3 * m })) << ir;
    expectMatchesReference(dag, state);
}

// A 14-lane register tile (Ansor's conv2d schedules vectorize 14 of 56 columns) carried across the k loop:
// WidenOddVectorPhis makes its phis 16 lanes wide. LLVM widens <14 x float> to <16 x float> inside a block,
// but passes a <14 x float> phi between blocks in 8 + 4 + 2 pieces on AVX2 and rebuilds it lane by lane
// (conv2d_layer line 4 compiled for AVX2: 10 instead of 23 GFLOP/s on Zen 4).
TEST(CodegenStructure, OddWidthAccumulatorsCrossLoopsAsPowerOfTwoVectors)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(32, 64, 56); // n x l times l x m
    const State state = fixtures::withSteps(dag,
        { SplitStep { 2, 0, 32, { 4 }, true }, SplitStep { 2, 2, 56, { 14 }, true },
            ReorderStep { 2, { 0, 2, 4, 1, 3 } }, AnnotationStep { 2, 3, Annotation::Unroll },
            AnnotationStep { 2, 4, Annotation::Vectorize } });
    const std::string ir = llvmIr(state, true);
    const std::string k = loopHeaderBlock(ir, "k");
    ASSERT_FALSE(k.empty()) << ir;
    EXPECT_EQ(count(ir, "phi <14 x float>"), 0u) << ir;
    EXPECT_GE(count(k, "phi <16 x float>"), 4u) << k;
    expectMatchesReference(dag, state);
}

// conv2d_layer-ansor-spr.json line 2 (conv2d_layer 1x64x56x56, 64 filters): the serial loop ff.2 holds an
// unrolled tile yy.2 (2) > rc.1 (4) > ry.1 (3) > ff.3 (16) of 14-lane FMAs, 32 accumulators. The weight
// kernel[.. + ff.3*576 + rc.1*9 + ry.1*3 + rx.0] does not depend on yy.2: GVN merges its two loads into one
// broadcast held from yy.2 = 0 to yy.2 = 1, 192 of them across the tile, which the register allocator spills
// and reloads from the stack (45 instead of 80 GFLOP/s on Zen 4). RematerializeLoads loads each again from
// the kernel instead: 2 x 192 scalar loads in ff.2's block, the only scalar loads there (pad_temp's and the
// accumulators' are vectors). Holds with 16 or 32 vector registers: the two uses are ~600 vector ops apart.
TEST(CodegenStructure, ReloadedNotHeldAcrossAnUnrolledTile)
{
    const char* line2
        = R"([["CI", 5], ["SP", 3, 0, 1, [1, 1, 1], 1], ["SP", 3, 4, 64, [2, 2, 16], 1], )"
          R"(["SP", 3, 8, 56, [2, 2, 1], 1], ["SP", 3, 12, 56, [1, 1, 14], 1], ["SP", 3, 16, 64, [4], 1], )"
          R"(["SP", 3, 18, 3, [3], 1], ["SP", 3, 20, 3, [1], 1], )"
          R"(["RE", 3, [0, 4, 8, 12, 1, 5, 9, 13, 16, 18, 20, 2, 6, 10, 14, 17, 19, 21, 3, 7, 11, 15]], )"
          R"(["CA", 1, 3, 8], ["FU", 3, [0, 1, 2, 3]], ["AN", 3, 0, 3], ["FU", 6, [0, 1]], ["AN", 6, 0, 3], )"
          R"(["PR", 3, 0, "auto_unroll_max_step$512"], ["AN", 1, 3, 2], ["AN", 3, 18, 2]])";
    const ir::ComputeDAG dag = fixtures::conv2dLayerDag(64, 56, 64);
    auto steps = parseSteps(line2);
    ASSERT_TRUE(steps) << steps.error().message;
    const State state = fixtures::withSteps(dag, *steps);
    const std::string ir = llvmIr(state, true);
    const std::string tile = loopHeaderBlock(ir, "ff.2");
    ASSERT_FALSE(tile.empty()) << ir;
    const size_t weights = 4 * 3 * 16; // rc.1 x ry.1 x ff.3 distinct weights per ff.2 iteration
    EXPECT_EQ(count(tile, "load float, ptr"), 2 * weights) << tile; // once per yy.2
    EXPECT_EQ(count(tile, "fmul <14 x float>"), 2 * weights) << tile; // the tile is there, whole
    expectMatchesReference(dag, state, "conv2d_layer line 2", target::Target::host(), 2e7); // sampled: 0.2 GFLOP
}

// A padding inlined into a convolution whose output rows are 28 lanes: the select over the row's edges
// depends on the vectorized loop, so the row runs as a 16-lane chunk and pieces of 8 and 4 lanes. The
// pieces are not masked by the extent: a masked load or store of the local accumulators keeps SROA from
// promoting the buffer, and every FMA then went through the stack (MobileNet-V2's depthwise task 12 with
// its padding inlined: 0.15-0.18 ms, 0.04-0.05 after; with the padding computed apart, 0.03-0.07).
TEST(CodegenStructure, InlinedPaddingKeepsTheAccumulatorsInRegisters)
{
    const ir::ComputeDAG dag = fixtures::conv2dLayerDag(8, 28, 16);
    auto state = State::replayJson(dag,
        R"([["CI",5],["CI",1],["SP",3,0,1,[1,1,1],1],["SP",3,4,16,[1,1,1],1],["SP",3,8,28,[1,1,4],1],)"
        R"(["SP",3,12,28,[1,1,28],1],["SP",3,16,8,[1],1],["SP",3,18,3,[3],1],["SP",3,20,3,[3],1],)"
        R"(["RE",3,[0,4,8,12,1,5,9,13,16,18,20,2,6,10,14,17,19,21,3,7,11,15]],["FSP",6,0,2,1],["FSP",6,2,3,1],)"
        R"(["FSP",6,4,4,1],["FSP",6,6,5,1],["RE",6,[0,2,4,6,1,3,5,7]],["CA",3,6,3],["FU",6,[0,1,2,3]],)"
        R"(["AN",6,0,3],["PR",3,0,"auto_unroll_max_step$64"],["AN",3,21,2],["AN",6,4,2]])");
    ASSERT_TRUE(state) << state.error().message;
    const std::string ir = llvmIr(*state, true);
    // The rc.0 loop carries the 4 x 28 accumulators as phis: 4 rows x 9 taps x 3 pieces of FMAs, no store.
    const std::string rc = loopHeaderBlock(ir, "rc.0");
    ASSERT_FALSE(rc.empty()) << ir;
    EXPECT_EQ(count(rc, "store"), 0u) << rc;
    EXPECT_EQ(count(rc, "fmul <16 x float>") + count(rc, "fmul <8 x float>") + count(rc, "fmul <4 x float>"), 108u)
        << rc;
    EXPECT_EQ(count(ir, "llvm.masked.store"), 0u) << ir;
    EXPECT_GE(count(ir, "llvm.masked.load.v8f32"), 1u) << ir; // the pieces' edge loads, masked by the padding
    EXPECT_GE(count(ir, "llvm.masked.load.v4f32"), 1u) << ir;
    expectMatchesReference(dag, *state, "conv2d with its padding inlined, 28-lane rows");
}
