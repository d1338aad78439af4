// Schedules and lowering: every step kind applies, round-trips through TVM's JSON and reports broken
// preconditions; the TVM record replays to Ansor's loop structure; golden loop IR for the main cases.
#include "schedule_fixtures.h"

#include "core/lower/lower.h"
#include "core/schedule/step_printer.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::sched;

namespace {
std::string loopIr(const State& state)
{
    auto func = lower::lower(state);
    EXPECT_TRUE(func) << func.error().message;
    return func ? lower::toString(*func) : std::string();
}

std::string errorOf(State state, const Step& step)
{
    auto applied = state.apply(step);
    return applied ? std::string("(no error)") : applied.error().message;
}

std::vector<std::string> iterNames(const State& s, int stage)
{
    std::vector<std::string> names;
    for (const Iterator& it : s.stage(stage).iters)
        names.push_back(it.name);
    return names;
}

using Names = std::vector<std::string>;
} // namespace

TEST(Steps, EveryKindRoundTripsThroughTvmJson)
{
    const std::vector<Step> steps = { AnnotationStep { 2, 9, Annotation::Vectorize }, FuseStep { 4, { 0, 1 } },
        PragmaStep { 2, 0, "auto_unroll_max_step$8" }, ReorderStep { 2, { 0, 4, 1, 5, 8, 2, 6, 9, 3, 7 } },
        SplitStep { 2, 0, 1024, { 2, 1, 4 }, true }, SplitStep { 2, 0, std::nullopt, { 8 }, false },
        FollowSplitStep { 4, 0, 0, 2 }, FollowFusedSplitStep { 3, 1, { 0, 4 }, 1, true },
        StorageAlignStep { 3, 1, 16, 1 }, ComputeAtStep { 2, 4, 3 }, ComputeInlineStep { 1 }, ComputeRootStep { 2 },
        CacheReadStep { 0, "shared", { 2, 3 } }, CacheWriteStep { 2, "local" }, RfactorStep { 2, 3, 2 } };
    const std::string text = stepsToText(steps);
    EXPECT_EQ(
        text.rfind(
            R"([["AN",2,9,2],["FU",4,[0,1]],["PR",2,0,"auto_unroll_max_step$8"],["RE",2,[0,4,1,5,8,2,6,9,3,7]],["SP",2,0,1024,[2,1,4],1])",
            0),
        0u)
        << text;
    EXPECT_NE(text.find(R"(["SP",2,0,null,[8],0])"), std::string::npos) << text;
    EXPECT_NE(text.find(R"(["FFSP",3,1,[0,4],1,1])"), std::string::npos) << text;
    EXPECT_NE(text.find(R"(["CHR",0,"shared",[2,3]])"), std::string::npos) << text;
    auto parsed = parseSteps(text);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(*parsed, steps);
    // The codes of the record in shared/data parse to the same steps they print as.
    auto tvm = parseSteps(fixtures::tvmMatmulSteps());
    ASSERT_TRUE(tvm);
    EXPECT_EQ(parseSteps(stepsToText(*tvm)).value(), *tvm);
}

TEST(Steps, MalformedJsonSaysWhichStepAndField)
{
    EXPECT_EQ(parseSteps("[[\"SP\", 2, 0]]").error().message, "step 0: step [\"SP\",2,0]: has 3 fields, expected 6");
    EXPECT_EQ(parseSteps("[[\"AN\", 2, 0, 12]]").error().message,
        "step 0: step [\"AN\",2,0,12]: field 3 = 12 out of range [0, 11]");
    EXPECT_EQ(parseSteps("[[\"SP\", 2, 0, 64, [0], 1]]").error().message,
        "step 0: step [\"SP\",2,0,64,[0],1]: field 4 holds 0, not an integer in range");
    EXPECT_EQ(parseSteps("[[\"CA\", \"2\", 0, 1]]").error().message,
        "step 0: step [\"CA\",\"2\",0,1]: field 1 is not an integer");
    EXPECT_EQ(parseSteps("[[\"ZZ\", 1]]").error().message, "step 0: unknown step code \"ZZ\"");
    EXPECT_EQ(parseSteps("[[\"SP\", 2,").error().message, "the step list is not valid JSON");
    EXPECT_EQ(parseSteps("{}").error().message, "a step list must be a JSON list");
    EXPECT_EQ(parseSteps("[[\"FU\", 2, [99999999999]]]").error().message,
        "step 0: step [\"FU\",2,[99999999999]]: field 2 holds 99999999999, not an integer in range");
}

TEST(Steps, SplitFollowSplitAndFuseNameAndSizeIterators)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024);
    State s = State::initial(dag);
    EXPECT_EQ(iterNames(s, 2), (Names { "i", "j", "k" }));
    fixtures::apply(s, SplitStep { 2, 0, 1024, { 2, 1, 4 }, true });
    EXPECT_EQ(iterNames(s, 2), (Names { "i.0", "i.1", "i.2", "i.3", "j", "k" }));
    EXPECT_EQ(s.stage(2).iters[0].extent, 128);
    EXPECT_EQ(s.stage(2).iters[3].extent, 4);
    fixtures::apply(s, SplitStep { 2, 4, 1024, { 8 }, false }); // by nparts: j.0 has 8
    EXPECT_EQ(s.stage(2).iters[4].extent, 8);
    EXPECT_EQ(s.stage(2).iters[5].extent, 128);
    fixtures::apply(s, FollowSplitStep { 4, 0, 0, 2 }); // out.i like matmul.i, 2 splits: [2, 1*4]
    EXPECT_EQ(iterNames(s, 4), (Names { "i.0", "i.1", "i.2", "j" }));
    EXPECT_EQ(s.stage(4).iters[1].extent, 2);
    EXPECT_EQ(s.stage(4).iters[2].extent, 4);
    fixtures::apply(s, FollowFusedSplitStep { 4, 3, { 0 }, 2, true }); // j by matmul.i's level-2 length (4)
    EXPECT_EQ(iterNames(s, 4), (Names { "i.0", "i.1", "i.2", "j.0", "j.1" }));
    EXPECT_EQ(s.stage(4).iters[4].extent, 4);
    fixtures::apply(s, FuseStep { 4, { 0, 1 } });
    EXPECT_EQ(s.stage(4).iters[0].name, "i.0@i.1@");
    EXPECT_EQ(s.stage(4).iters[0].extent, 256);
    fixtures::apply(s, ReorderStep { 4, { 3, 0, 1, 2 } });
    EXPECT_EQ(iterNames(s, 4), (Names { "j.1", "i.0@i.1@", "i.2", "j.0" }));
    fixtures::apply(s, AnnotationStep { 4, 1, Annotation::Parallel });
    fixtures::apply(s, PragmaStep { 4, 0, "auto_unroll_max_step$64" });
    EXPECT_EQ(s.stage(4).autoUnrollMaxStep, 64);
    EXPECT_EQ(errorOf(s, StorageAlignStep { 4, 0, 16, 1 }),
        "step 8 (SA): stage 4 (out): j.1 is not an axis of the tensor (split, fused or reduction)");
    EXPECT_EQ(s.steps().size(), 8u);
}

TEST(Steps, PreconditionsGiveTheDocumentedErrors)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(64, 64, 64);
    State s = State::initial(dag);
    EXPECT_EQ(errorOf(s, SplitStep { 9, 0, 64, { 8 }, true }), "step 0 (SP): stage 9: no such stage (5 stages)");
    EXPECT_EQ(errorOf(s, SplitStep { 0, 0, 64, { 8 }, true }), "step 0 (SP): stage 0 (A): is a placeholder");
    EXPECT_EQ(errorOf(s, SplitStep { 2, 3, 64, { 8 }, true }),
        "step 0 (SP): stage 2 (matmul): iterator 3 out of range (3 iterators)");
    EXPECT_EQ(errorOf(s, SplitStep { 2, 0, 32, { 8 }, true }),
        "step 0 (SP): stage 2 (matmul): iterator i has extent 64, the step says 32");
    EXPECT_EQ(errorOf(s, FuseStep { 2, { 0, 2 } }),
        "step 0 (FU): stage 2 (matmul): fused iterators must be consecutive: 0, 2");
    EXPECT_EQ(errorOf(s, ReorderStep { 2, { 0, 0, 1 } }),
        "step 0 (RE): stage 2 (matmul): [0, 0, 1] is not a permutation of the 3 iterators");
    EXPECT_EQ(errorOf(s, AnnotationStep { 2, 2, Annotation::Parallel }),
        "step 0 (AN): stage 2 (matmul): cannot parallelize k: it is a reduction iterator");
    EXPECT_EQ(errorOf(s, PragmaStep { 2, 0, "unroll_everything" }),
        "step 0 (PR): stage 2 (matmul): unsupported pragma 'unroll_everything'");
    EXPECT_EQ(errorOf(s, PragmaStep { 2, 0, "auto_unroll_max_step$x" }),
        "step 0 (PR): stage 2 (matmul): bad pragma 'auto_unroll_max_step$x' (want auto_unroll_max_step$N)");
    EXPECT_EQ(errorOf(s, FollowSplitStep { 4, 0, 0, 2 }),
        "step 0 (FSP): stage 4 (out): source step 0 is not an earlier step");
    EXPECT_EQ(errorOf(s, ComputeAtStep { 2, 1, 0 }), "step 0 (CA): stage 1 (B): is a placeholder");
    // A compute_at onto a stage that does not read the producer applies (TVM's rule: the target's loop must
    // enclose the readers, which later steps may attach there); lowering refuses this one.
    {
        State outAtMatmul = s;
        fixtures::apply(outAtMatmul, ComputeAtStep { 4, 2, 0 });
        auto lowered = lower::lower(outAtMatmul);
        ASSERT_FALSE(lowered);
        EXPECT_EQ(lowered.error().message, "stage 4 (out): an output must be computed at root");
    }
    EXPECT_EQ(errorOf(s, ComputeInlineStep { 2 }), "step 0 (CI): stage 2 (matmul): cannot inline a reduction");
    EXPECT_EQ(errorOf(s, ComputeInlineStep { 4 }), "step 0 (CI): stage 4 (out): cannot inline an output");
    EXPECT_EQ(
        errorOf(s, CacheReadStep { 0, "shared", { 4 } }), "step 0 (CHR): stage 0 (A): stage 4 (out) does not read it");
    EXPECT_EQ(errorOf(s, RfactorStep { 2, 0, 0 }), "step 0 (RF): stage 2 (matmul): i is not a reduction iterator");
    EXPECT_EQ(errorOf(s, StorageAlignStep { 2, 2, 16, 1 }),
        "step 0 (SA): stage 2 (matmul): k is not an axis of the tensor (split, fused or reduction)");
    fixtures::apply(s, AnnotationStep { 2, 0, Annotation::Unroll });
    EXPECT_EQ(errorOf(s, AnnotationStep { 2, 0, Annotation::Vectorize }),
        "step 1 (AN): stage 2 (matmul): i is already annotated unroll, cannot also vectorize");
    // A failed step leaves the state as it was.
    State before = s;
    EXPECT_FALSE(s.apply(FuseStep { 2, { 1, 2, 3 } }));
    EXPECT_EQ(s.steps().size(), before.steps().size());
    EXPECT_EQ(s.stage(2).iters, before.stage(2).iters);
}

TEST(Steps, CacheReadWriteAndRfactorInsertStagesAndShiftIds)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(64, 64, 64);
    State s = State::initial(dag); // A B matmul C out
    fixtures::apply(s, CacheReadStep { 0, "shared", { 2 } }); // A A.shared B matmul C out
    EXPECT_EQ(s.stage(1).op->name(), "A.shared");
    EXPECT_EQ(s.stage(3).op->inputs()[0]->name(), "A.shared");
    fixtures::apply(s, CacheWriteStep { 3, "local" }); // A A.shared B matmul.local matmul C out
    EXPECT_EQ(s.stage(3).op->name(), "matmul.local");
    EXPECT_EQ(s.stage(4).op->name(), "matmul");
    EXPECT_EQ(s.stage(4).op->reducer(), ir::Reducer::None);
    EXPECT_EQ(s.stage(6).op->inputs()[0].get(), s.stage(4).op.get()); // out reads the new matmul
    fixtures::apply(s, SplitStep { 3, 2, 64, { 16 }, true });
    fixtures::apply(s, RfactorStep { 3, 3, 2 }); // matmul.local.rf before matmul.local
    EXPECT_EQ(s.stage(3).op->name(), "matmul.local.rf");
    EXPECT_EQ(s.stage(3).op->shape(), (std::vector<int64_t> { 64, 64, 16 }));
    EXPECT_EQ(s.numStages(), 8);
    fixtures::apply(s, ComputeAtStep { 1, 3, 1 });
    EXPECT_EQ(s.stage(1).attachStage, 3);
    EXPECT_EQ(s.currentDag().numOps(), 8);
    // The rebuilt DAG computes the same thing (checked against the reference in codegen_test).
    EXPECT_EQ(s.currentDag().flopCount(), dag.flopCount() + 64 * 64 * 16 + 64 * 64 * 64 * 0);
}

TEST(Replay, TvmMatmulRecordGivesAnsorsLoopNest)
{
    const ir::ComputeDAG dag = fixtures::matmulAddDag(1024, 1024, 1024);
    const auto steps = parseSteps(fixtures::tvmMatmulSteps()).value();
    auto state = State::replay(dag, steps);
    ASSERT_TRUE(state) << state.error().message;
    auto bound = lower::inferBound(*state);
    ASSERT_TRUE(bound) << bound.error().message;
    EXPECT_EQ(bound->toString(), R"(Placeholder: A, B, C
parallel i.0@j.0@ (0,16384)
  for i.1 (0,2)
    matmul auto_unroll: 8
    for k.0 (0,256)
      for k.1 (0,4)
        for i.3 (0,4)
          vectorize j.3 (0,8)
            matmul = ...
    for i.2 (0,4)
      vectorize j.2 (0,8)
        out = ...
)");
    const std::string calls = printStepsAsCalls(dag, steps);
    EXPECT_NE(calls.find("s[out].follow_split(i, step 0, n_split=2) -> i.0, i.1, i.2\n"), std::string::npos) << calls;
    EXPECT_NE(calls.find("s[matmul].compute_at(s[out], j.1)\n"), std::string::npos) << calls;
    EXPECT_NE(calls.find("s[out].fuse(i.0, j.0) -> i.0@j.0@\n"), std::string::npos) << calls;
}

TEST(Lowering, MatmulTiledVectorizedParallel)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(64, 64, 64);
    State s = State::initial(dag);
    fixtures::apply(s, SplitStep { 2, 0, 64, { 8 }, true });
    fixtures::apply(s, SplitStep { 2, 2, 64, { 16 }, true });
    fixtures::apply(s, ReorderStep { 2, { 0, 2, 4, 1, 3 } });
    fixtures::apply(s, FuseStep { 2, { 0, 1 } });
    fixtures::apply(s, AnnotationStep { 2, 0, Annotation::Parallel });
    fixtures::apply(s, AnnotationStep { 2, 3, Annotation::Vectorize });
    EXPECT_EQ(loopIr(s), R"(void default_function(float32* A, float32* B, float32* matmul) {
  parallel for (i.0@j.0@, 0, 32) {
    for (i.1, 0, 8) {
      vectorized for (j.1, 0, 16) {
        matmul[floordiv(i.0@j.0@, 4)*512 + i.1*64 + floormod(i.0@j.0@, 4)*16 + j.1] = 0f;
      }
    }
    for (k, 0, 64) {
      for (i.1, 0, 8) {
        vectorized for (j.1, 0, 16) {
          matmul[floordiv(i.0@j.0@, 4)*512 + i.1*64 + floormod(i.0@j.0@, 4)*16 + j.1] = matmul[floordiv(i.0@j.0@, 4)*512 + i.1*64 + floormod(i.0@j.0@, 4)*16 + j.1] + A[floordiv(i.0@j.0@, 4)*512 + i.1*64 + k]*B[k*64 + floormod(i.0@j.0@, 4)*16 + j.1];
        }
      }
    }
  }
}
)");
}

TEST(Lowering, Conv2dWithCacheWriteAndComputeAt)
{
    const ir::ComputeDAG dag = fixtures::conv2dDag(4, 8, 8); // data pad_temp weight conv2d_nchw
    State s = State::initial(dag);
    fixtures::apply(s, CacheWriteStep { 3, "local" });
    fixtures::apply(s, SplitStep { 4, 3, 8, { 4 }, true });
    fixtures::apply(s, ComputeAtStep { 3, 4, 3 });
    fixtures::apply(s, ComputeAtStep { 1, 3, 6 });
    EXPECT_EQ(loopIr(s), R"(void default_function(float32* data, float32* weight, float32* conv2d_nchw) {
  for (ff, 0, 8) {
    for (yy, 0, 8) {
      for (xx.0, 0, 2) {
        float32 conv2d_nchw.local[4]; // local, shape [4]
        for (xx, 0, 4) {
          conv2d_nchw.local[xx] = 0f;
          for (rc, 0, 4) {
            for (ry, 0, 3) {
              for (rx, 0, 3) {
                float32 pad_temp[1]; // local, shape [1]
                pad_temp[0] = select(yy + ry >= 1 && yy + ry < 9 && (xx.0*4 + xx + rx >= 1 && xx.0*4 + xx + rx < 9), data[rc*64 + yy*8 + ry*8 + xx.0*4 + xx + rx - 9], 0f);
                conv2d_nchw.local[xx] = conv2d_nchw.local[xx] + pad_temp[0]*weight[ff*36 + rc*9 + ry*3 + rx];
              }
            }
          }
        }
        for (xx.1, 0, 4) {
          conv2d_nchw[ff*64 + yy*8 + xx.0*4 + xx.1] = conv2d_nchw.local[xx.1];
        }
      }
    }
  }
}
)");
}

TEST(Lowering, ComputeAtALoopThatEnclosesTheConsumerNotAReader)
{
    // conv2d_layer line 3: T_relu does not read pad_temp, but its loop k.0 (fused into the parallel loop)
    // encloses conv2d_nchw (computed at T_relu's l.0, an extent-1 loop). pad_temp's nest comes first in that
    // loop's body, over the 30 padded rows its 28 output rows need, then conv2d_nchw, then T_relu.
    const ir::ComputeDAG dag = fixtures::conv2dLayerDag(64, 56, 64);
    const State s = fixtures::withSteps(dag, parseSteps(fixtures::tvmConv2dLayerLine3Steps()).value());
    const std::string ir = loopIr(s);
    const size_t convStart = ir.find("    // auto_unroll_max_step = 512\n");
    const size_t reluStart = ir.find("    for (j.1, 0, 64) {\n");
    ASSERT_NE(convStart, std::string::npos) << ir;
    ASSERT_NE(reluStart, std::string::npos) << ir;
    EXPECT_EQ(ir.substr(0, convStart),
        R"(void default_function(float32* data, float32* kernel, float32* bias, float32* T_relu) {
  parallel for (i.0@j.0@k.0@, 0, 2) {
    float32 pad_temp[111360]; // local, shape [111360]
    for (i1, 0, 64) {
      for (i2, 0, 30) {
        for (i3, 0, 58) {
          pad_temp[i1*1740 + i2*58 + i3] = select(i.0@j.0@k.0@*28 + i2 >= 1 && i.0@j.0@k.0@*28 + i2 < 57 && (i3 >= 1 && i3 < 57), data[i1*3136 + i.0@j.0@k.0@*1568 + i2*56 + i3 - 57], 0f);
        }
      }
    }
    float32 conv2d_nchw[100352]; // local, shape [100352]
)");
    EXPECT_NE(
        ir.find("+ pad_temp[rc.0*3480 + rc.1*1740 + yy.2*116 + yy.3*58 + ry.1*58 + xx.1*8 + xx.3 + rx.1]*kernel["),
        std::string::npos)
        << ir;
    EXPECT_EQ(ir.substr(reluStart), R"(    for (j.1, 0, 64) {
      for (k.1, 0, 28) {
        vectorized for (l.1, 0, 56) {
          T_relu[j.1*3136 + i.0@j.0@k.0@*1568 + k.1*56 + l.1] = max(conv2d_nchw[j.1*1568 + k.1*56 + l.1] + bias[j.1], 0f);
        }
      }
    }
  }
}
)");
}

TEST(Lowering, ComputeAtALoopThatDoesNotEncloseAConsumerIsRefused)
{
    const ir::ComputeDAG dag = fixtures::conv2dLayerDag(4, 8, 8); // data pad_temp kernel conv bias T_add T_relu
    const std::vector<Step> base = { ComputeInlineStep { 5 }, SplitStep { 6, 2, 8, { 4 }, true } }; // i j k.0 k.1 l
    auto errorAtLowering = [&](const std::vector<Step>& more) {
        std::vector<Step> steps = base;
        steps.insert(steps.end(), more.begin(), more.end());
        auto lowered = lower::lower(fixtures::withSteps(dag, steps));
        return lowered ? std::string("(lowered)") : lowered.error().message;
    };
    // conv2d_nchw at root: T_relu's loops enclose no reader of pad_temp.
    EXPECT_EQ(errorAtLowering({ ComputeAtStep { 1, 6, 2 } }),
        "stage 1 (pad_temp): computed at T_relu's loop k.0, but its consumer conv2d_nchw is not inside that loop");
    // conv2d_nchw at T_relu's j, outside k.0.
    EXPECT_EQ(errorAtLowering({ ComputeAtStep { 3, 6, 1 }, ComputeAtStep { 1, 6, 2 } }),
        "stage 1 (pad_temp): computed at T_relu's loop k.0, but its consumer conv2d_nchw is not inside that loop");
    // The same stages the other way round enclose it.
    EXPECT_EQ(errorAtLowering({ ComputeAtStep { 3, 6, 2 }, ComputeAtStep { 1, 6, 1 } }), "(lowered)");
}

TEST(Lowering, RfactorOnAReduction)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(8, 64, 8);
    State s = State::initial(dag);
    fixtures::apply(s, SplitStep { 2, 2, 64, { 16 }, true });
    fixtures::apply(s, RfactorStep { 2, 3, 2 });
    EXPECT_EQ(loopIr(s), R"(void default_function(float32* A, float32* B, float32* matmul) {
  float32 matmul.rf[1024]; // global, shape [1024]
  for (i_matmul.rf, 0, 8) {
    for (j_matmul.rf, 0, 8) {
      for (k.1.v_matmul.rf, 0, 16) {
        matmul.rf[i_matmul.rf*128 + j_matmul.rf*16 + k.1.v_matmul.rf] = 0f;
        for (k.0, 0, 4) {
          matmul.rf[i_matmul.rf*128 + j_matmul.rf*16 + k.1.v_matmul.rf] = matmul.rf[i_matmul.rf*128 + j_matmul.rf*16 + k.1.v_matmul.rf] + A[i_matmul.rf*64 + k.0*16 + k.1.v_matmul.rf]*B[k.0*128 + k.1.v_matmul.rf*8 + j_matmul.rf];
        }
      }
    }
  }
  for (i, 0, 8) {
    for (j, 0, 8) {
      matmul[i*8 + j] = 0f;
      for (k.1.v, 0, 16) {
        matmul[i*8 + j] = matmul[i*8 + j] + matmul.rf[i*128 + j*16 + k.1.v];
      }
    }
  }
}
)");
}

TEST(Lowering, NonDividingSplitIsGuardedOncePerRow)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(10, 4, 10);
    State s = State::initial(dag);
    fixtures::apply(s, SplitStep { 2, 0, 10, { 4 }, true });
    EXPECT_EQ(loopIr(s), R"(void default_function(float32* A, float32* B, float32* matmul) {
  for (i.0, 0, 3) {
    for (i.1, 0, 4) {
      if (i.0*4 + i.1 < 10) {
        for (j, 0, 10) {
          matmul[i.0*40 + i.1*10 + j] = 0f;
          for (k, 0, 4) {
            matmul[i.0*40 + i.1*10 + j] = matmul[i.0*40 + i.1*10 + j] + A[i.0*16 + i.1*4 + k]*B[k*10 + j];
          }
        }
      }
    }
  }
}
)");
}

TEST(Lowering, PassesRunInOrderAndCanBeWatched)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(16, 16, 16);
    State s = State::initial(dag);
    fixtures::apply(s, SplitStep { 2, 1, 16, { 4 }, true });
    fixtures::apply(s, PragmaStep { 2, 0, "auto_unroll_max_step$16" });
    std::vector<std::string> passes;
    std::string afterUnroll;
    lower::LowerOptions options;
    options.onPass = [&](const std::string& pass, const lower::LoweredFunc& f) {
        passes.push_back(pass);
        if (pass == "unrollLoops")
            afterUnroll = lower::toString(f);
    };
    ASSERT_TRUE(lower::lower(s, options));
    EXPECT_EQ(passes,
        (Names {
            "scheduleOps", "simplify", "hoistGuards", "partitionTails", "unrollLoops", "flattenStorage", "simplify" }));
    // k: 16 iterations of one statement fit 16 steps; j.1 around it would be 4 x 17 and stays a loop.
    EXPECT_NE(afterUnroll.find("unrolled for (k, 0, 16)"), std::string::npos) << afterUnroll;
    EXPECT_NE(afterUnroll.find("  for (j.1, 0, 4)"), std::string::npos) << afterUnroll;
    EXPECT_NE(afterUnroll.find("matmul[i, j.0*4 + j.1]"), std::string::npos) << afterUnroll; // not flat yet
}

TEST(Lowering, GpuAnnotationOnCpuIsUnsupported)
{
    const ir::ComputeDAG dag = fixtures::matmulDag(16, 16, 16);
    State s = State::initial(dag);
    fixtures::apply(s, AnnotationStep { 2, 0, Annotation::ThreadX });
    auto func = lower::lower(s);
    ASSERT_FALSE(func);
    EXPECT_EQ(func.error().message, "stage 2 (matmul): annotation threadIdx.x on i needs a GPU target");
}
