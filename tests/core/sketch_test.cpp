// Sketches (splits with unfilled lengths) and the copy-on-write State: an unfilled sketch replays, prints
// with "?", round-trips through JSON, refuses to lower with a clear error, and fills into exactly the state
// the filled step list replays to; copies and failed steps never change the state they came from.
#include "schedule_fixtures.h"

#include "core/lower/lower.h"
#include "core/schedule/step_printer.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::sched;

namespace {
constexpr std::nullopt_t kUnfilled = std::nullopt;

// Ansor's multi-level tiling sketch of matmul_add 1024 (stages A, B, matmul, C, out): the record of
// fixtures::tvmMatmulSteps() before InitFillTileSize chose its tile sizes (steps 0, 1 and 2).
std::vector<Step> matmulSketch()
{
    return { SplitStep { 2, 0, 1024, { kUnfilled, kUnfilled, kUnfilled }, true },
        SplitStep { 2, 4, 1024, { kUnfilled, kUnfilled, kUnfilled }, true },
        SplitStep { 2, 8, 1024, { kUnfilled }, true }, ReorderStep { 2, { 0, 4, 1, 5, 8, 2, 6, 9, 3, 7 } },
        FollowSplitStep { 4, 0, 0, 2 }, FollowSplitStep { 4, 3, 1, 2 }, ReorderStep { 4, { 0, 3, 1, 4, 2, 5 } },
        ComputeAtStep { 2, 4, 3 }, FuseStep { 4, { 0, 1 } }, AnnotationStep { 4, 0, Annotation::Parallel },
        PragmaStep { 2, 0, "auto_unroll_max_step$8" }, AnnotationStep { 2, 9, Annotation::Vectorize },
        AnnotationStep { 4, 4, Annotation::Vectorize } };
}

State replayed(const ir::ComputeDAG& dag, const std::vector<Step>& steps)
{
    auto state = State::replay(dag, steps);
    EXPECT_TRUE(state) << state.error().message;
    return state ? std::move(state).value() : State::initial(dag);
}

std::string loopIr(const State& state)
{
    auto func = lower::lower(state);
    EXPECT_TRUE(func) << func.error().message;
    return func ? lower::toString(*func) : std::string();
}

std::vector<int64_t> extents(const State& s, int stage)
{
    std::vector<int64_t> out;
    for (const Iterator& it : s.stage(stage).iters)
        out.push_back(it.extent);
    return out;
}

using Extents = std::vector<int64_t>;
} // namespace

TEST(Sketch, UnfilledSplitsReplayWithUnknownExtentsAndPrintAsQuestionMarks)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024);
    State s
        = replayed(dag, { SplitStep { 2, 0, 1024, { kUnfilled, 1, 4 }, true }, SplitStep { 2, 4, 1024, { 8 }, true } });
    // As TVM's ApplySplitToState: i.3 = 4 and i.2 = 1 are known, from the unfilled i.1 outwards nothing is.
    EXPECT_EQ(extents(s, 2), (Extents { -1, -1, 1, 4, 128, 8, 1024 }));
    EXPECT_EQ(s.firstUnfilledSplit(), 0);
    EXPECT_EQ(s.toString(), R"(Placeholder: A, B, C
for i.0 (0,?)
  for i.1 (0,?)
    for i.3 (0,4)
      for j.0 (0,128)
        for j.1 (0,8)
          for k (0,1024)
            matmul = ...
for i (0,1024)
  for j (0,1024)
    out = ...
)");
    EXPECT_EQ(printStepsAsCalls(dag, s.steps()),
        "s[matmul].split(i, [?, 1, 4]) -> i.0, i.1, i.2, i.3\n"
        "s[matmul].split(j, [8]) -> j.0, j.1\n");
}

TEST(Sketch, AnsorMatmulSketchPrintsAndRefusesToLower)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024);
    const State sketch = replayed(dag, matmulSketch());
    // matmul is computed at out's j.1: its own extents wait for bound inference ("None"), those below an
    // unfilled length are unknown until the sketch is filled ("?").
    EXPECT_EQ(sketch.toString(), R"(Placeholder: A, B, C
parallel i.0@j.0@ (0,?)
  for i.1 (0,?)
    for j.1 (0,?)
      matmul auto_unroll: 8
      for i.0 (0,?)
        for j.0 (0,?)
          for i.1 (0,?)
            for j.1 (0,?)
              for k.0 (0,?)
                for i.2 (0,?)
                  for j.2 (0,?)
                    for k.1 (0,?)
                      for i.3 (0,?)
                        vectorize j.3 (0,?)
                          matmul = ...
      for i.2 (0,?)
        vectorize j.2 (0,?)
          out = ...
)");
    const std::string calls = printStepsAsCalls(dag, sketch.steps());
    EXPECT_EQ(calls.substr(0, calls.find('\n', calls.find('\n') + 1) + 1),
        "s[matmul].split(i, [?, ?, ?]) -> i.0, i.1, i.2, i.3\n"
        "s[matmul].split(j, [?, ?, ?]) -> j.0, j.1, j.2, j.3\n");
    EXPECT_NE(calls.find("s[matmul].split(k, [?]) -> k.0, k.1\n"), std::string::npos) << calls;

    const std::string error = "step 0 (SP): stage 2 (matmul): split length 1 of 3 is not filled ([?, ?, ?]); fill "
                              "the sketch before lowering";
    auto lowered = lower::lower(sketch);
    ASSERT_FALSE(lowered);
    EXPECT_EQ(lowered.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(lowered.error().message, error);
    auto bound = lower::inferBound(sketch);
    ASSERT_FALSE(bound);
    EXPECT_EQ(bound.error().message, error);
}

TEST(Sketch, TheRefusalNamesTheFirstUnfilledLengthAndTheStageAsItIsNow)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(64, 64, 64);
    // The split is on stage 2 (matmul); the cache_read after it moves matmul to stage 3.
    const State s = replayed(dag,
        { SplitStep { 2, 0, 64, { 4 }, true }, SplitStep { 2, 2, 64, { 2, kUnfilled }, false },
            CacheReadStep { 0, "shared", { 2 } } });
    EXPECT_EQ(s.stage(3).op->name(), "matmul");
    EXPECT_EQ(s.firstUnfilledSplit(), 1);
    EXPECT_EQ(lower::lower(s).error().message,
        "step 1 (SP): stage 2 (matmul): split length 2 of 2 is not filled ([2, ?]); fill the sketch before lowering");
    // By nparts: j.0 = 2 is known, j.1 and the rest j.2 are not.
    EXPECT_EQ(extents(s, 3), (Extents { 16, 4, 2, -1, -1, 64 }));
    EXPECT_TRUE(lower::lower(State::initial(dag))); // nothing to fill
    // A cache_write (or rfactor) inserts the new stage before the one it was made from.
    const ir::ComputeDAG conv = fixtures::conv2dDag(4, 8, 8); // data pad_temp weight conv2d_nchw
    const State cached = replayed(conv, { SplitStep { 3, 3, 8, { kUnfilled }, true }, CacheWriteStep { 1, "local" } });
    EXPECT_EQ(cached.stage(4).op->name(), "conv2d_nchw");
    EXPECT_EQ(lower::lower(cached).error().message,
        "step 0 (SP): stage 3 (conv2d_nchw): split length 1 of 1 is not "
        "filled ([?]); fill the sketch before lowering");
}

TEST(Sketch, FillingGivesTheStateTheFilledStepListReplaysTo)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024);
    const State sketch = replayed(dag, matmulSketch());
    auto filled = sketch.withSplitLengths(
        { SplitFill { 0, { 2, 1, 4 } }, SplitFill { 1, { 1, 1, 8 } }, SplitFill { 2, { 4 } } });
    ASSERT_TRUE(filled) << filled.error().message;
    const State direct = replayed(dag, parseSteps(fixtures::tvmMatmulSteps()).value());
    EXPECT_EQ(filled->steps(), direct.steps());
    EXPECT_EQ(filled->toString(), direct.toString());
    EXPECT_EQ(filled->firstUnfilledSplit(), -1);
    EXPECT_EQ(loopIr(*filled), loopIr(direct));
    EXPECT_EQ(lower::inferBound(*filled).value().toString(), lower::inferBound(direct).value().toString());
    // The sketch itself is unchanged, and fills one split at a time as well.
    EXPECT_EQ(sketch.steps(), matmulSketch());
    auto stepwise = sketch.withSplitLengths(2, { 4 });
    ASSERT_TRUE(stepwise);
    EXPECT_EQ(stepwise->firstUnfilledSplit(), 0);
    stepwise = stepwise->withSplitLengths(0, { 2, 1, 4 });
    ASSERT_TRUE(stepwise);
    EXPECT_EQ(stepwise->firstUnfilledSplit(), 1);
    stepwise = stepwise->withSplitLengths(1, { 1, 1, 8 });
    ASSERT_TRUE(stepwise);
    EXPECT_EQ(stepwise->toString(), direct.toString());
    EXPECT_EQ(stepwise->steps(), direct.steps());
}

TEST(Sketch, RefillingRecordsTheExtentsLaterSplitsSee)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    // A later split of the fused tile, as Ansor's GPU sketches make: its extent depends on the tile sizes.
    const State s = replayed(dag,
        { SplitStep { 2, 0, 64, { kUnfilled }, true }, SplitStep { 2, 2, 64, { kUnfilled }, true },
            FuseStep { 2, { 1, 2 } }, SplitStep { 2, 1, std::nullopt, { 2 }, true } });
    EXPECT_EQ(extents(s, 2), (Extents { -1, -1, -1, -1, 64 }));
    auto filled = s.withSplitLengths({ SplitFill { 0, { 8 } }, SplitFill { 1, { 4 } } });
    ASSERT_TRUE(filled) << filled.error().message;
    EXPECT_EQ(std::get<SplitStep>(filled->steps()[3]).extent, 8 * 16); // i.1@j.0@
    EXPECT_EQ(extents(*filled, 2), (Extents { 8, 64, 2, 4, 64 }));
    // Refilled with other sizes, the later split follows instead of failing on its recorded extent.
    auto refilled = filled->withSplitLengths(1, { 16 });
    ASSERT_TRUE(refilled) << refilled.error().message;
    EXPECT_EQ(std::get<SplitStep>(refilled->steps()[3]).extent, 8 * 4);
    EXPECT_EQ(extents(*refilled, 2), (Extents { 8, 16, 2, 16, 64 }));
    EXPECT_EQ(loopIr(*refilled), loopIr(replayed(dag, refilled->steps())));
}

TEST(Sketch, FillErrorsNameTheStep)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024);
    const State sketch = replayed(dag, matmulSketch());
    auto message = [&](int step, std::vector<int64_t> lengths) {
        auto filled = sketch.withSplitLengths(step, std::move(lengths));
        EXPECT_FALSE(filled);
        return filled ? std::string("(no error)") : filled.error().message;
    };
    EXPECT_EQ(message(13, { 4 }), "cannot fill step 13: the state has 13 steps");
    EXPECT_EQ(message(-1, { 4 }), "cannot fill step -1: the state has 13 steps");
    EXPECT_EQ(message(3, { 4 }), "cannot fill step 3: it is a RE step, not a split (SP)");
    EXPECT_EQ(message(4, { 4 }), "cannot fill step 4: it is a FSP step, not a split (SP)");
    EXPECT_EQ(message(0, { 2, 4 }), "cannot fill step 0 (SP): 2 lengths for a split of 3");
    EXPECT_EQ(message(0, { 2, 0, 4 }), "cannot fill step 0 (SP): split length 0 must be >= 1");
    EXPECT_EQ(message(2, { -8 }), "cannot fill step 2 (SP): split length -8 must be >= 1");
    auto twice = sketch.withSplitLengths({ SplitFill { 2, { 4 } }, SplitFill { 2, { 8 } } });
    ASSERT_FALSE(twice);
    EXPECT_EQ(twice.error().message, "cannot fill step 2 (SP): it is filled twice");
    // Filled lengths must still be >= 1 in a step.
    State s = State::initial(dag);
    EXPECT_EQ(s.apply(SplitStep { 2, 0, 1024, { kUnfilled, 0 }, true }).error().message,
        "step 0 (SP): stage 2 (matmul): split length 0 must be >= 1");
}

TEST(Sketch, FollowSplitsOfAnUnfilledSplitHaveUnknownExtents)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024); // A B matmul C out
    State s = replayed(dag, { SplitStep { 2, 0, 1024, { kUnfilled, 1, 4 }, true } });
    // n_split 2 takes [?, 1 * 4]: out's i.2 is known (4), i.1 and i.0 are not, as in TVM's ExtractSplitLengths.
    fixtures::apply(s, FollowSplitStep { 4, 0, 0, 2 });
    EXPECT_EQ(extents(s, 4), (Extents { -1, -1, 4, 1024 }));
    // n_split 3 takes [?, 1, 4].
    fixtures::apply(s, FollowSplitStep { 4, 3, 0, 3 });
    EXPECT_EQ(extents(s, 4), (Extents { -1, -1, 4, -1, -1, 1, 4 }));
    // Level 0 is unfilled: the fused split is unknown; level 2 (4) is known.
    fixtures::apply(s, FollowFusedSplitStep { 2, 4, { 0 }, 0, true });
    EXPECT_EQ(extents(s, 2), (Extents { -1, -1, 1, 4, -1, -1, 1024 }));
    State t = replayed(dag, { SplitStep { 2, 0, 1024, { kUnfilled, 1, 4 }, true } });
    fixtures::apply(t, FollowFusedSplitStep { 2, 4, { 0 }, 2, true });
    EXPECT_EQ(extents(t, 2), (Extents { -1, -1, 1, 4, 256, 4, 1024 }));
    // Errors only where TVM fails too: the source must be an earlier split, n_split in range.
    EXPECT_EQ(s.apply(FollowSplitStep { 4, 0, 0, 5 }).error().message,
        "step 4 (FSP): stage 4 (out): n_split 5 out of range for a split of 3 lengths");
    // Filled, the follow splits get the source's sizes.
    auto filled = s.withSplitLengths(0, { 2, 1, 4 });
    ASSERT_TRUE(filled) << filled.error().message;
    EXPECT_EQ(extents(*filled, 2), (Extents { 128, 2, 1, 4, 512, 2, 1024 }));
    EXPECT_EQ(extents(*filled, 4), (Extents { 128, 2, 4, 128, 2, 1, 4 }));
    EXPECT_EQ(printStepsAsCalls(dag, s.steps()).rfind("s[matmul].split(i, [?, 1, 4]) -> i.0, i.1, i.2, i.3\n", 0), 0u);
}

TEST(Sketch, RfactorNeedsTheSplitItFactorsFilled)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(8, 64, 8);
    State s = replayed(dag, { SplitStep { 2, 2, 64, { kUnfilled }, true } });
    EXPECT_EQ(s.apply(RfactorStep { 2, 3, 2 }).error().message,
        "step 1 (RF): stage 2 (matmul): rfactor needs the split lengths of k.0 filled");
    // A filled reduction split rfactors even while a spatial split is still unfilled.
    State t = replayed(dag, { SplitStep { 2, 0, 8, { kUnfilled }, true }, SplitStep { 2, 3, 64, { 16 }, true } });
    fixtures::apply(t, RfactorStep { 2, 4, 2 });
    EXPECT_EQ(t.stage(2).op->name(), "matmul.rf");
    EXPECT_EQ(t.stage(2).op->shape(), (std::vector<int64_t> { 8, 8, 16 }));
}

TEST(Sketch, UnfilledLengthsRoundTripThroughJsonAsNull)
{
    const std::vector<Step> steps = { SplitStep { 2, 0, 1024, { kUnfilled, 1, 4 }, true },
        SplitStep { 2, 4, std::nullopt, { kUnfilled }, false } };
    const std::string text = stepsToText(steps);
    EXPECT_EQ(text, R"([["SP",2,0,1024,[null,1,4],1],["SP",2,4,null,[null],0]])");
    EXPECT_EQ(parseSteps(text).value(), steps);
    // A whole sketch, and a filled record as TVM writes it: an unknown extent is 0 there.
    EXPECT_EQ(parseSteps(stepsToText(matmulSketch())).value(), matmulSketch());
    EXPECT_EQ(parseSteps(R"([["SP", 2, 4, 0, [8], 1]])").value(),
        (std::vector<Step> { SplitStep { 2, 4, std::nullopt, { 8 }, true } }));
    EXPECT_EQ(parseSteps(R"([["SP", 2, 4, 64, [null, 0], 1]])").error().message,
        "step 0: step [\"SP\",2,4,64,[null,0],1]: field 4 holds 0, not an integer in range");
    EXPECT_EQ(parseSteps(R"([["SP", 2, 4, -1, [8], 1]])").error().message,
        "step 0: step [\"SP\",2,4,-1,[8],1]: field 3 = -1 out of range [0, 9223372036854775807]");
    // Only split lengths may be null.
    EXPECT_EQ(parseSteps(R"([["RE", 2, [0, null]]])").error().message,
        "step 0: step [\"RE\",2,[0,null]]: field 2 holds null, not an integer in range");
}

TEST(CopyOnWrite, CopiesAndFailedStepsLeaveTheOriginalAsItWas)
{
    const ir::ComputeDAG dag = fixtures::conv2dDag(4, 8, 8); // data pad_temp weight conv2d_nchw
    State base = replayed(dag, { CacheWriteStep { 3, "local" }, SplitStep { 4, 3, 8, { 4 }, true } });
    const std::string baseText = base.toString();
    const std::vector<Step> baseSteps = base.steps();
    const std::string baseDag = base.currentDag().canonicalText();

    // A copy that goes on does not change the state it was copied from, nor does a second copy.
    State copy = base;
    fixtures::apply(copy, ComputeAtStep { 3, 4, 3 });
    fixtures::apply(copy, CacheReadStep { 2, "shared", { 3 } });
    fixtures::apply(copy, AnnotationStep { 5, 0, Annotation::Parallel });
    State second = base;
    fixtures::apply(second, FuseStep { 4, { 0, 1 } });
    EXPECT_EQ(base.toString(), baseText);
    EXPECT_EQ(base.steps(), baseSteps);
    EXPECT_EQ(base.currentDag().canonicalText(), baseDag);
    EXPECT_EQ(copy.numStages(), 6);
    EXPECT_EQ(second.stage(4).iters[0].name, "nn@ff@");
    EXPECT_EQ(base.stage(4).iters[0].name, "nn");

    // Failed steps of every kind, checked after other stages were shared and changed: nothing moves.
    const std::vector<Step> failing = { SplitStep { 4, 0, 8, { 0 }, true }, FuseStep { 4, { 0, 2 } },
        ReorderStep { 4, { 0, 0 } }, AnnotationStep { 3, 4, Annotation::Parallel }, ComputeAtStep { 5, 4, 0 },
        ComputeInlineStep { 4 }, CacheReadStep { 0, "shared", { 4 } }, CacheWriteStep { 4, "local" },
        RfactorStep { 3, 0, 0 }, FollowSplitStep { 3, 0, 0, 2 }, StorageAlignStep { 4, 4, 4, 8 },
        PragmaStep { 3, 0, "auto_unroll_max_step$-1" } };
    for (const Step& step : failing) {
        State s = copy;
        const std::string before = s.toString();
        EXPECT_FALSE(s.apply(step)) << stepsToText({ step });
        EXPECT_EQ(s.toString(), before) << stepsToText({ step });
        EXPECT_EQ(s.steps(), copy.steps());
        EXPECT_EQ(s.currentDag().canonicalText(), copy.currentDag().canonicalText());
    }
    // Bound inference works on a copy and leaves the state it was given alone.
    fixtures::apply(copy, ComputeAtStep { 1, 4, 6 });
    const std::string unbound = copy.toString();
    ASSERT_TRUE(lower::inferBound(copy));
    EXPECT_EQ(copy.toString(), unbound);
}
