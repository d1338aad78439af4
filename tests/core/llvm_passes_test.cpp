// Our own LLVM passes (core/codegen/llvm_passes.h) run alone on small hand-written IR for an AVX-512 CPU (32
// vector registers), with the module verified after each: a pass that breaks the IR is caught here, not by a
// kernel that computes a wrong answer somewhere downstream.
#include "core/codegen/llvm_passes.h"

#include <gtest/gtest.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <string>

namespace {

struct Result {
    std::string error; // the parser's or the verifier's complaint; "" when the IR is valid
    std::string ir; // the function after the pass
};

template <typename Pass> Result runAlone(const std::string& source)
{
    llvm::InitializeNativeTarget();
    std::string lookupError;
    const std::string triple = "x86_64-unknown-linux-gnu";
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, lookupError);
    if (!target)
        return { "no x86 target: " + lookupError, {} };
    std::unique_ptr<llvm::TargetMachine> machine(
        target->createTargetMachine(triple, "skylake-avx512", "", llvm::TargetOptions(), llvm::None));
    llvm::LLVMContext context;
    llvm::SMDiagnostic parseError;
    std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(source, parseError, context);
    if (!module)
        return { "the test's IR does not parse: " + parseError.getMessage().str(), {} };
    module->setDataLayout(machine->createDataLayout());
    module->setTargetTriple(triple);

    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    llvm::PassBuilder builder(machine.get());
    functions.registerPass([&] { return builder.buildDefaultAAPipeline(); });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    llvm::FunctionPassManager pass;
    pass.addPass(Pass());
    for (llvm::Function& f : *module)
        if (!f.isDeclaration())
            pass.run(f, functions);

    Result out;
    llvm::raw_string_ostream errors(out.error);
    llvm::verifyModule(*module, &errors);
    llvm::raw_string_ostream text(out.ir);
    module->print(text, nullptr);
    return out;
}

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
        ++n;
    return n;
}

// A vector loaded from %a and used once at once, then `chain` vector instructions later by two scalar users
// with no vector instruction between them. `between` goes in the middle of the chain.
std::string tiedUsersAfterALongChain(int chain, const std::string& between)
{
    std::string ir = "define void @f(ptr %a, ptr noalias %x, ptr noalias %out, ptr %other) {\n"
                     "entry:\n"
                     "  %v = load <16 x float>, ptr %a, align 64\n"
                     "  %x0 = load <16 x float>, ptr %x, align 64\n"
                     "  %c0 = fadd <16 x float> %v, %x0\n";
    for (int i = 1; i <= chain; ++i) {
        ir += "  %c" + std::to_string(i) + " = fmul <16 x float> %c" + std::to_string(i - 1) + ", %x0\n";
        if (i == chain / 2)
            ir += between;
    }
    ir += "  %s1 = extractelement <16 x float> %v, i32 0\n"
          "  %s2 = extractelement <16 x float> %v, i32 1\n"
          "  %s = fadd float %s1, %s2\n"
          "  store float %s, ptr %out, align 4\n"
          "  store <16 x float> %c"
        + std::to_string(chain)
        + ", ptr %x, align 64\n"
          "  ret void\n"
          "}\n";
    return ir;
}

// The vector is used again past more vector instructions than there are registers: both later users read one
// reload, placed before the first of them. Before uses were sorted in block order, the two tied users could
// be visited later one first, and the earlier one read a reload made after it (the verifier: "Instruction
// does not dominate all uses!"), which AnnotationKernels.Depthwise showed as a wrong answer.
TEST(RematerializeLoads, TiedUsersPastTheRegistersShareOneReloadMadeBeforeBoth)
{
    const Result r = runAlone<ts::codegen::RematerializeLoads>(tiedUsersAfterALongChain(40, ""));
    ASSERT_EQ(r.error, "") << r.ir;
    EXPECT_EQ(count(r.ir, "load <16 x float>, ptr %a"), 2u) << r.ir;
    EXPECT_EQ(count(r.ir, "fadd <16 x float> %v, %x0"), 1u) << r.ir; // the near use keeps the first load
    const size_t reload = r.ir.rfind("load <16 x float>, ptr %a");
    EXPECT_LT(reload, r.ir.find("%s1 = extractelement")) << r.ir;
    EXPECT_EQ(r.ir.find("extractelement <16 x float> %v"), std::string::npos) << r.ir;
}

// A scalar loaded twice far apart in one block (an unrolled convolution's overlapping taps) gets an empty
// side-effecting asm before the second load: it ends SelectionDAG's chain, which would otherwise make both
// loads one node and hold the broadcast across the block. A vector re-load gets none (it needs a register
// either way), nor does a scalar loaded again soon.
std::string scalarLoadedTwice(int chain)
{
    std::string ir = "define void @f(ptr %a, ptr noalias %x) {\n"
                     "entry:\n"
                     "  %s0 = load float, ptr %a, align 4\n"
                     "  %x0 = load <16 x float>, ptr %x, align 64\n"
                     "  %c0 = fmul <16 x float> %x0, %x0\n";
    for (int i = 1; i <= chain; ++i)
        ir += "  %c" + std::to_string(i) + " = fmul <16 x float> %c" + std::to_string(i - 1) + ", %x0\n";
    ir += "  %s1 = load float, ptr %a, align 4\n"
          "  %s = fadd float %s0, %s1\n"
          "  %i = insertelement <16 x float> %c"
        + std::to_string(chain)
        + ", float %s, i32 0\n"
          "  store <16 x float> %i, ptr %x, align 64\n"
          "  ret void\n"
          "}\n";
    return ir;
}

TEST(RematerializeLoads, AScalarLoadedAgainFarAwayIsSeparatedForTheBackend)
{
    const Result far = runAlone<ts::codegen::RematerializeLoads>(scalarLoadedTwice(40));
    ASSERT_EQ(far.error, "") << far.ir;
    EXPECT_EQ(count(far.ir, "call void asm sideeffect \"\", \"\"()"), 1u) << far.ir;
    const size_t barrier = far.ir.find("asm sideeffect");
    EXPECT_LT(barrier, far.ir.find("%s1 = load float")) << far.ir;
    EXPECT_GT(barrier, far.ir.find("%s0 = load float")) << far.ir;
    const Result near = runAlone<ts::codegen::RematerializeLoads>(scalarLoadedTwice(20));
    EXPECT_EQ(count(near.ir, "asm sideeffect"), 0u) << near.ir;
    const Result vector = runAlone<ts::codegen::RematerializeLoads>(tiedUsersAfterALongChain(40, ""));
    EXPECT_EQ(count(vector.ir, "asm sideeffect"), 0u) << vector.ir;
}

// Near uses keep the one load: re-loading pays only past the register file.
TEST(RematerializeLoads, UsesWithinTheRegistersKeepTheLoad)
{
    const Result r = runAlone<ts::codegen::RematerializeLoads>(tiedUsersAfterALongChain(20, ""));
    ASSERT_EQ(r.error, "") << r.ir;
    EXPECT_EQ(count(r.ir, "load <16 x float>, ptr %a"), 1u) << r.ir;
}

// A store that may write what was loaded (through a pointer not known apart from %a) forbids the reload.
TEST(RematerializeLoads, NoReloadPastAStoreThatMayWriteTheMemory)
{
    const Result r = runAlone<ts::codegen::RematerializeLoads>(
        tiedUsersAfterALongChain(40, "  store <16 x float> %c20, ptr %other, align 64\n"));
    ASSERT_EQ(r.error, "") << r.ir;
    EXPECT_EQ(count(r.ir, "load <16 x float>, ptr %a"), 1u) << r.ir;
}

// An accumulator tile's zero-fill, then a reduction loop that keeps it in a register, then the final store:
// the fill is dead. `body` goes in the loop; `exit` is the block the loop leaves to (its store overwrites).
std::string fillLoopStore(const std::string& body, bool secondExit = false)
{
    return std::string("define void @f(ptr noalias %c, ptr noalias %a, i64 %n, i1 %early) {\n"
                       "entry:\n"
                       "  store <16 x float> zeroinitializer, ptr %c, align 64\n")
        + (secondExit ? "  br i1 %early, label %out, label %loop\n" : "  br label %loop\n")
        + "loop:\n"
          "  %k = phi i64 [ 0, %entry ], [ %next, %loop ]\n"
          "  %acc = phi <16 x float> [ zeroinitializer, %entry ], [ %sum, %loop ]\n"
          "  %x = load <16 x float>, ptr %a, align 64\n"
        + body
        + "  %sum = fadd <16 x float> %acc, %x\n"
          "  %next = add i64 %k, 1\n"
          "  %done = icmp eq i64 %next, %n\n"
          "  br i1 %done, label %exit, label %loop\n"
          "exit:\n"
          "  store <16 x float> %sum, ptr %c, align 64\n"
          "  br label %out\n"
          "out:\n"
          "  ret void\n"
          "}\n";
}

TEST(EraseOverwrittenStores, AZeroFillOverwrittenAfterTheLoopIsErased)
{
    const Result r = runAlone<ts::codegen::EraseOverwrittenStores>(fillLoopStore(""));
    ASSERT_EQ(r.error, "") << r.ir;
    EXPECT_EQ(count(r.ir, "store <16 x float> zeroinitializer"), 0u) << r.ir;
    EXPECT_EQ(count(r.ir, "store <16 x float> %sum"), 1u) << r.ir;
}

// Kept when the loop reads the tile (through the same object), or when a path leaves without the final store.
TEST(EraseOverwrittenStores, AFillThatMayBeReadOrNotOverwrittenStays)
{
    const Result read
        = runAlone<ts::codegen::EraseOverwrittenStores>(fillLoopStore("  %y = load <16 x float>, ptr %c, align 64\n"));
    ASSERT_EQ(read.error, "") << read.ir;
    EXPECT_EQ(count(read.ir, "store <16 x float> zeroinitializer"), 1u) << read.ir;
    const Result escapes = runAlone<ts::codegen::EraseOverwrittenStores>(fillLoopStore("", true));
    ASSERT_EQ(escapes.error, "") << escapes.ir;
    EXPECT_EQ(count(escapes.ir, "store <16 x float> zeroinitializer"), 1u) << escapes.ir;
    const Result call = runAlone<ts::codegen::EraseOverwrittenStores>(
        "declare void @g(ptr)\n" + fillLoopStore("  call void @g(ptr %c)\n"));
    ASSERT_EQ(call.error, "") << call.ir;
    EXPECT_EQ(count(call.ir, "store <16 x float> zeroinitializer"), 1u) << call.ir;
}

// A 14-lane accumulator carried around a loop becomes a 16-lane phi; the values computed stay 14 lanes.
TEST(WidenOddVectorPhis, AnOddWidthLoopCarriedVectorBecomesAPowerOfTwoPhi)
{
    const Result r = runAlone<ts::codegen::WidenOddVectorPhis>(
        "define <14 x float> @f(ptr %p, i64 %n) {\n"
        "entry:\n"
        "  br label %loop\n"
        "loop:\n"
        "  %i = phi i64 [ 0, %entry ], [ %next, %loop ]\n"
        "  %acc = phi <14 x float> [ zeroinitializer, %entry ], [ %sum, %loop ]\n"
        "  %x = load <14 x float>, ptr %p, align 4\n"
        "  %sum = fadd <14 x float> %acc, %x\n"
        "  %next = add i64 %i, 1\n"
        "  %done = icmp eq i64 %next, %n\n"
        "  br i1 %done, label %exit, label %loop\n"
        "exit:\n"
        "  ret <14 x float> %sum\n"
        "}\n");
    ASSERT_EQ(r.error, "") << r.ir;
    EXPECT_EQ(count(r.ir, "phi <16 x float>"), 1u) << r.ir;
    EXPECT_EQ(count(r.ir, "phi <14 x float>"), 0u) << r.ir;
}

} // namespace
