// AutoTVM config spaces and knobs (core/search/autotvm). Expected counts, orders and entity texts were worked
// out with TVM v0.19.0's python/tvm/autotvm/task/space.py itself (run with its TVM imports stubbed) and
// checked by hand where noted.
#include "core/search/autotvm/config_space.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <set>

using namespace ts;
using namespace ts::autotvm;

namespace {

Knob split(int64_t extent, SplitOptions options, std::string name = "t")
{
    auto knob = makeSplitKnob(std::move(name), extent, options);
    EXPECT_TRUE(knob.hasValue()) << (knob ? "" : knob.error().toString());
    return std::move(knob).value();
}

std::vector<std::vector<int64_t>> sizes(const Knob& knob)
{
    std::vector<std::vector<int64_t>> out;
    for (const KnobEntity& e : knob.entities())
        out.push_back(std::get<SplitEntity>(e).size);
    return out;
}

std::vector<std::string> values(const Knob& knob)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < knob.size(); ++i)
        out.push_back(knob.valueJson(i));
    return out;
}

// conv2d_NCHWc.x86's space (topi/x86/conv2d.py _create_tuning_space) for data 1x3x224x224, kernel 64x3x7x7,
// stride 2, padding 3: ow = 112. 2 * 7 * 11 * 2 = 308 configs.
ConfigSpace conv2dNchwcSpace()
{
    ConfigSpace space;
    EXPECT_TRUE(space.add(split(3, { .numOutputs = 2 }, "tile_ic")));
    EXPECT_TRUE(space.add(split(64, { .numOutputs = 2 }, "tile_oc")));
    EXPECT_TRUE(space.add(split(112,
        { .policy = SplitPolicy::Verbose,
            .numOutputs = 2,
            .filter = [](const SplitEntity& e) { return e.size.back() <= 64; } },
        "tile_ow")));
    EXPECT_TRUE(space.add(makeOtherKnob("unroll_kw", { "true", "false" }).value()));
    return space;
}

// tile_y (8 into 3: 10), tile_x (16 into 3: 15), ann (2 axes try_unroll_vec: 9 - 1 = 8), ord (4 axes all:
// 24), opt (3): 86400 configs.
ConfigSpace mixedSpace()
{
    ConfigSpace space;
    EXPECT_TRUE(space.add(split(8, { .numOutputs = 3 }, "tile_y")));
    EXPECT_TRUE(space.add(split(16, { .numOutputs = 3 }, "tile_x")));
    EXPECT_TRUE(space.add(makeAnnotateKnob("ann", 2, { .policy = "try_unroll_vec" }).value()));
    EXPECT_TRUE(space.add(makeReorderKnob("ord", 4, { .policy = ReorderPolicy::All }).value()));
    EXPECT_TRUE(space.add(makeOtherKnob("opt", { "0", "1", "\"auto\"" }).value()));
    return space;
}

} // namespace

TEST(AutotvmSplit, FactorsCountsOrderedFactorizations)
{
    // 64 = 2^6 into 3 parts: C(8, 2) = 28 ordered factorizations; the inner size varies slowest.
    Knob k = split(64, { .numOutputs = 3 });
    ASSERT_EQ(k.size(), 28u);
    EXPECT_EQ(k.valueJson(0), "[-1, 1, 1]");
    EXPECT_EQ(k.valueJson(1), "[-1, 2, 1]");
    EXPECT_EQ(k.valueJson(7), "[-1, 1, 2]");
    EXPECT_EQ(k.valueJson(27), "[-1, 1, 64]");
    EXPECT_EQ(k.policy(), "factors");
    EXPECT_EQ(split(128, { .numOutputs = 4 }).size(), 120u); // C(10, 3)
}

TEST(AutotvmSplit, PrimeExtent)
{
    EXPECT_EQ(sizes(split(7, { .numOutputs = 2 })), (std::vector<std::vector<int64_t>> { { -1, 1 }, { -1, 7 } }));
    EXPECT_EQ(sizes(split(7, { .numOutputs = 3 })),
        (std::vector<std::vector<int64_t>> { { -1, 1, 1 }, { -1, 7, 1 }, { -1, 1, 7 } }));
}

TEST(AutotvmSplit, Power2AllowsTailsUnlessNoTail)
{
    Knob k = split(64, { .policy = SplitPolicy::Power2, .numOutputs = 2 });
    EXPECT_EQ(values(k),
        (std::vector<std::string> { "[-1, 1]", "[-1, 2]", "[-1, 4]", "[-1, 8]", "[-1, 16]", "[-1, 32]", "[-1, 64]" }));
    // 100 into 3 with powers of two 1..64 and tails: the 28 pairs whose product is < 100 or divides it.
    EXPECT_EQ(split(100, { .policy = SplitPolicy::Power2, .numOutputs = 3 }).size(), 28u);
    // 30 with no_tail: only 1 and 2 divide it.
    EXPECT_EQ(split(30, { .policy = SplitPolicy::Power2, .numOutputs = 2, .noTail = true }).size(), 2u);
}

TEST(AutotvmSplit, MaxFactorLimitsEveryInnerSize)
{
    // Divisors of 64 up to 8 are 1, 2, 4, 8: 4 * 4 pairs, all dividing 64.
    Knob k = split(64, { .numOutputs = 3, .maxFactor = 8 });
    ASSERT_EQ(k.size(), 16u);
    EXPECT_EQ(k.valueJson(4), "[-1, 1, 2]");
    EXPECT_EQ(k.valueJson(15), "[-1, 8, 8]");
}

TEST(AutotvmSplit, VerboseFollowsPythonSetOrder)
{
    EXPECT_EQ(verboseSplitFactors(112), (std::vector<int64_t> { 32, 1, 2, 64, 4, 7, 8, 14, 16, 112, 56, 28 }));
    EXPECT_EQ(verboseSplitFactors(17), (std::vector<int64_t> { 16, 1, 17, 2, 4, 8 }));
    EXPECT_EQ(verboseSplitFactors(48), (std::vector<int64_t> { 32, 1, 2, 3, 4, 6, 8, 12, 16, 48, 24 }));
    EXPECT_EQ(verboseSplitFactors(1000),
        (std::vector<int64_t> {
            64, 1, 2, 128, 4, 5, 256, 512, 8, 200, 10, 16, 20, 25, 32, 100, 40, 1000, 50, 500, 250, 125 }));
    EXPECT_EQ(verboseSplitFactors(3600),
        (std::vector<int64_t> { 128, 1, 2, 3, 4, 5, 6, 900, 8, 9, 10, 1800, 12, 256, 15, 16, 144, 18, 400, 20, 3600,
            150, 512, 24, 25, 30, 32, 1024, 36, 40, 300, 45, 48, 1200, 50, 180, 60, 64, 2048, 450, 72, 200, 75, 80, 720,
            600, 90, 225, 100, 360, 240, 120 }));
    Knob k = split(48, { .policy = SplitPolicy::Verbose, .numOutputs = 4 });
    ASSERT_EQ(k.size(), 192u);
    EXPECT_EQ(k.valueJson(0), "[-1, 1, 1, 32]");
    EXPECT_EQ(k.valueJson(3), "[-1, 1, 1, 1]");
}

TEST(AutotvmSplit, CandidateAndFilter)
{
    Knob k = split(64, { .policy = SplitPolicy::Candidate, .numOutputs = 2, .candidate = { { 16, 4 }, { 8, 8 } } });
    EXPECT_EQ(values(k), (std::vector<std::string> { "[16, 4]", "[8, 8]" }));
    Knob f = split(
        64, { .numOutputs = 3, .filter = [](const SplitEntity& e) { return e.size.back() <= 4; } }); // inner 1, 2, 4
    EXPECT_EQ(f.size(), 7u + 6u + 5u);
}

TEST(AutotvmSplit, BadOptionsAreErrorsNamingTheKnob)
{
    auto noOutputs = makeSplitKnob("tile_k", 64, {});
    ASSERT_FALSE(noOutputs);
    EXPECT_EQ(noOutputs.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(noOutputs.error().message.find("tile_k"), std::string::npos);
    auto badCandidate
        = makeSplitKnob("tile_k", 64, { .policy = SplitPolicy::Candidate, .numOutputs = 3, .candidate = { { 8, 8 } } });
    ASSERT_FALSE(badCandidate);
    EXPECT_NE(badCandidate.error().message.find("2 sizes, num_outputs is 3"), std::string::npos);
    auto empty = makeSplitKnob("tile_k", 64, { .numOutputs = 2, .filter = [](const SplitEntity&) { return false; } });
    ASSERT_FALSE(empty);
    EXPECT_NE(empty.error().message.find("no split is left"), std::string::npos);
}

TEST(AutotvmReorder, Policies)
{
    Knob all = makeReorderKnob("r", 3, { .policy = ReorderPolicy::All }).value();
    EXPECT_EQ(values(all),
        (std::vector<std::string> { "[0, 1, 2]", "[0, 2, 1]", "[1, 0, 2]", "[1, 2, 0]", "[2, 0, 1]", "[2, 1, 0]" }));
    EXPECT_EQ(values(makeReorderKnob("r", 3, {}).value()), (std::vector<std::string> { "[0, 1, 2]" }));
    Knob interval = makeReorderKnob("r", 5, { .policy = ReorderPolicy::IntervalAll, .interval = { 1, 4 } }).value();
    ASSERT_EQ(interval.size(), 6u);
    EXPECT_EQ(interval.valueJson(1), "[0, 1, 3, 2, 4]");
    EXPECT_EQ(interval.valueJson(5), "[0, 3, 2, 1, 4]");
    Knob candidate
        = makeReorderKnob("r", 2, { .policy = ReorderPolicy::Candidate, .candidate = { { 0, 1 }, { 1, 0 } } }).value();
    EXPECT_EQ(values(candidate), (std::vector<std::string> { "[0, 1]", "[1, 0]" }));
    // TVM's merge only ever takes from the first chain with the most axes left: one order.
    ReorderOptions chains { .spatial = { { 0, 1, 2 }, { 3, 4 } }, .reduce = { { 5, 6 } } };
    chains.policy = ReorderPolicy::Interleave;
    EXPECT_EQ(values(makeReorderKnob("r", 7, chains).value()), (std::vector<std::string> { "[0, 1, 3, 5, 2, 4, 6]" }));
    chains.policy = ReorderPolicy::InterleaveCuda;
    EXPECT_EQ(values(makeReorderKnob("r", 7, chains).value()), (std::vector<std::string> { "[0, 1, 3, 5, 6, 2, 4]" }));
    auto bad = makeReorderKnob("ord", 3, { .policy = ReorderPolicy::Candidate, .candidate = { { 0, 3 } } });
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("reorder knob ord"), std::string::npos);
}

TEST(AutotvmAnnotate, Policies)
{
    Knob tryBoth = makeAnnotateKnob("a", 3, { .policy = "try_unroll_vec" }).value();
    ASSERT_EQ(tryBoth.size(), 20u); // 27 minus the 7 with two or three "vec"
    EXPECT_EQ(tryBoth.valueJson(0), "[\"none\", \"none\", \"none\"]");
    EXPECT_EQ(tryBoth.valueJson(2), "[\"none\", \"none\", \"vec\"]");
    EXPECT_EQ(tryBoth.valueJson(3), "[\"none\", \"unroll\", \"none\"]");
    Knob vecFirst = makeAnnotateKnob("a", 3, { .policy = "try_vec_unroll" }).value();
    EXPECT_EQ(vecFirst.valueJson(1), "[\"none\", \"none\", \"vec\"]");
    EXPECT_EQ(makeAnnotateKnob("a", 3, { .policy = "try_unroll" }).value().size(), 8u);
    EXPECT_EQ(makeAnnotateKnob("a", 3, { .policy = "unroll_vec" }).value().size(), 4u);
    EXPECT_EQ(values(makeAnnotateKnob("a", 3, { .policy = "unroll" }).value()),
        (std::vector<std::string> { "[\"unroll\", \"unroll\", \"unroll\"]" }));
    EXPECT_EQ(makeAnnotateKnob("a", 1, { .policy = "vec" }).value().size(), 1u);
    EXPECT_FALSE(makeAnnotateKnob("a", 2, { .policy = "vec" })); // two vectorised axes: nothing is left
    Knob cache = makeAnnotateKnob("a", 4, { .policy = "locate_cache", .numAnchor = 2 }).value();
    EXPECT_EQ(values(cache), (std::vector<std::string> { "[0, 1]", "[0, 2]", "[0, 3]", "[1, 2]", "[1, 3]", "[2, 3]" }));
    EXPECT_EQ(values(makeAnnotateKnob("a", 5, { .policy = "bind_gpu" }).value()),
        (std::vector<std::string> { "[\"fuse\", \"blockIdx.y\", \"blockIdx.x\", \"threadIdx.y\", \"threadIdx.x\"]" }));
    auto bad = makeAnnotateKnob("ann", 2, { .policy = "try_parallel" });
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("annotate knob ann: unknown policy 'try_parallel'"), std::string::npos);
}

TEST(AutotvmOther, CandidatesAreWrittenAsPython)
{
    Knob k = makeOtherKnob("o", { "true", "0", " \"auto\"", "[1,2]" }).value();
    EXPECT_EQ(values(k), (std::vector<std::string> { "true", "0", "\"auto\"", "[1, 2]" }));
    EXPECT_FALSE(makeOtherKnob("o", { "tru" }));
    EXPECT_FALSE(makeOtherKnob("o", {}));
}

TEST(AutotvmConfigSpace, SizeAndFirstKnobFastest)
{
    ConfigSpace space = mixedSpace();
    ASSERT_EQ(space.size(), 86400);
    EXPECT_EQ(space.knobIndexes(1), (std::vector<size_t> { 1, 0, 0, 0, 0 }));
    EXPECT_EQ(space.knobIndexes(10), (std::vector<size_t> { 0, 1, 0, 0, 0 }));
    EXPECT_EQ(space.knobIndexes(150), (std::vector<size_t> { 0, 0, 1, 0, 0 }));
    // Texts from TVM's ConfigSpace.get(i).to_json_dict()["entity"], json.dumps'd.
    EXPECT_EQ(space.entityJson(0),
        R"([["tile_y", "sp", [-1, 1, 1]], ["tile_x", "sp", [-1, 1, 1]], ["ann", "an", ["none", "none"]], )"
        R"(["ord", "re", [0, 1, 2, 3]], ["opt", "ot", 0]])");
    EXPECT_EQ(space.entityJson(1000),
        R"([["tile_y", "sp", [-1, 1, 1]], ["tile_x", "sp", [-1, 2, 4]], ["ann", "an", ["vec", "none"]], )"
        R"(["ord", "re", [0, 1, 2, 3]], ["opt", "ot", 0]])");
    EXPECT_EQ(space.entityJson(12345),
        R"([["tile_y", "sp", [-1, 2, 2]], ["tile_x", "sp", [-1, 16, 1]], ["ann", "an", ["none", "vec"]], )"
        R"(["ord", "re", [1, 3, 0, 2]], ["opt", "ot", 0]])");
    EXPECT_EQ(space.entityJson(86399),
        R"([["tile_y", "sp", [-1, 1, 8]], ["tile_x", "sp", [-1, 1, 16]], ["ann", "an", ["vec", "unroll"]], )"
        R"(["ord", "re", [3, 2, 1, 0]], ["opt", "ot", "auto"]])");
    EXPECT_EQ(space.configJson(5, "abc"),
        R"({"index": 5, "code_hash": "abc", "entity": [["tile_y", "sp", [-1, 2, 2]], ["tile_x", "sp", [-1, 1, 1]], )"
        R"(["ann", "an", ["none", "none"]], ["ord", "re", [0, 1, 2, 3]], ["opt", "ot", 0]]})");
}

TEST(AutotvmConfigSpace, IndexEntityRoundTripWholeSmallSpace)
{
    ConfigSpace space;
    ASSERT_TRUE(space.add(split(12, { .numOutputs = 2 }, "tile_x")));
    ASSERT_TRUE(space.add(makeReorderKnob("ord", 3, { .policy = ReorderPolicy::All }).value()));
    ASSERT_TRUE(space.add(makeAnnotateKnob("ann", 2, { .policy = "try_vec" }).value()));
    ASSERT_TRUE(space.add(makeOtherKnob("unroll", { "0", "16", "64" }).value()));
    ASSERT_EQ(space.size(), 6 * 6 * 3 * 3);
    std::set<std::string> texts;
    for (int64_t i = 0; i < space.size(); ++i) {
        EXPECT_EQ(space.indexOf(space.knobIndexes(i)), i);
        std::string text = space.entityJson(i);
        texts.insert(text);
        auto back = space.parseEntity(text);
        ASSERT_TRUE(back) << back.error().toString();
        EXPECT_EQ(*back, i) << text;
    }
    EXPECT_EQ(texts.size(), size_t(space.size()));
}

TEST(AutotvmConfigSpace, RandomIndexesOfALargeSpace)
{
    ConfigSpace space;
    ASSERT_TRUE(space.add(split(1024, { .numOutputs = 4 }, "tile_i")));
    ASSERT_TRUE(space.add(split(1000, { .policy = SplitPolicy::Verbose, .numOutputs = 3 }, "tile_j")));
    ASSERT_TRUE(space.add(split(768, { .numOutputs = 4 }, "tile_k")));
    ASSERT_TRUE(space.add(makeReorderKnob("ord", 6, { .policy = ReorderPolicy::All }).value()));
    ASSERT_TRUE(space.add(makeAnnotateKnob("ann", 4, { .policy = "try_unroll_vec" }).value()));
    int64_t expected = 1;
    for (const Knob& k : space.knobs())
        expected *= int64_t(k.size());
    ASSERT_EQ(space.size(), expected);
    ASSERT_GT(space.size(), int64_t(1) << 32);
    std::mt19937_64 rng(14);
    std::uniform_int_distribution<int64_t> pick(0, space.size() - 1);
    for (int n = 0; n < 500; ++n) {
        int64_t i = pick(rng);
        auto back = space.parseEntity(space.entityJson(i));
        ASSERT_TRUE(back) << back.error().toString();
        EXPECT_EQ(*back, i);
    }
}

TEST(AutotvmConfigSpace, ParseAcceptsCompactTextAndAnyOrder)
{
    ConfigSpace space = mixedSpace();
    auto compact = space.parseEntity(R"([["opt","ot","auto"],["ord","re",[3,2,1,0]],["ann","an",["vec","unroll"]],)"
                                     R"(["tile_x","sp",[-1,1,16]],["tile_y","sp",[-1,1,8]]])");
    ASSERT_TRUE(compact) << compact.error().toString();
    EXPECT_EQ(*compact, 86399);
}

TEST(AutotvmConfigSpace, OlderLogsWriteTheOuterSplitSize)
{
    // TVM's older logs write a split's outer size ([8, 1, 1] for tile_y of extent 8), newer ones -1.
    ConfigSpace space = mixedSpace();
    const std::string rest = R"(["ann", "an", ["vec", "unroll"]], ["ord", "re", [3, 2, 1, 0]], ["opt", "ot", "auto"]])";
    auto older = space.parseEntity(R"([["tile_y", "sp", [1, 1, 8]], ["tile_x", "sp", [1, 1, 16]], )" + rest);
    ASSERT_TRUE(older) << older.error().toString();
    EXPECT_EQ(*older, 86399);
    auto mixed = space.parseEntity(R"([["tile_y", "sp", [2, 2, 2]], ["tile_x", "sp", [-1, 16, 1]], )" + rest);
    ASSERT_TRUE(mixed) << mixed.error().toString();
    EXPECT_EQ(
        *mixed, space.parseEntity(R"([["tile_y", "sp", [-1, 2, 2]], ["tile_x", "sp", [-1, 16, 1]], )" + rest).value());
    // Sizes that do not make the extent are an error naming the knob.
    auto wrong = space.parseEntity(R"([["tile_y", "sp", [2, 1, 8]], ["tile_x", "sp", [1, 1, 16]], )" + rest);
    ASSERT_FALSE(wrong);
    EXPECT_EQ(wrong.error().kind, ErrorKind::InvalidArgument);
    EXPECT_NE(wrong.error().message.find("knob 'tile_y': split sizes [2, 1, 8] make 16, not the axis extent 8"),
        std::string::npos)
        << wrong.error().message;
    // A policy with tails: the outer count covers the extent (10 = 3 x 4 - 2).
    ConfigSpace verbose;
    ASSERT_TRUE(verbose.add(split(10, { .policy = SplitPolicy::Verbose, .numOutputs = 2 }, "tile_ow")));
    auto tail = verbose.parseEntity(R"([["tile_ow", "sp", [3, 4]]])");
    ASSERT_TRUE(tail) << tail.error().toString();
    EXPECT_EQ(*tail, verbose.parseEntity(R"([["tile_ow", "sp", [-1, 4]]])").value());
    EXPECT_FALSE(verbose.parseEntity(R"([["tile_ow", "sp", [2, 4]]])"));
}

TEST(AutotvmConfigSpace, BadEntitiesNameTheKnob)
{
    ConfigSpace space = mixedSpace();
    std::string rest = R"(["tile_x", "sp", [-1, 1, 1]], ["ann", "an", ["none", "none"]], ["ord", "re", [0, 1, 2, 3]], )"
                       R"(["opt", "ot", 0]])";
    auto expectError = [&](const std::string& text, ErrorKind kind, const std::string& message) {
        auto parsed = space.parseEntity(text);
        ASSERT_FALSE(parsed) << text;
        EXPECT_EQ(parsed.error().kind, kind) << parsed.error().toString();
        EXPECT_NE(parsed.error().message.find(message), std::string::npos) << parsed.error().message;
    };
    expectError(R"([["tile_z", "sp", [-1, 1, 1]], )" + rest, ErrorKind::NotFound, "knob 'tile_z' is not in the space");
    expectError(R"([["tile_y", "re", [-1, 1, 1]], )" + rest, ErrorKind::InvalidArgument,
        "knob 'tile_y' is \"sp\", the entity says \"re\"");
    expectError(R"([["tile_y", "xx", [-1, 1, 1]], )" + rest, ErrorKind::InvalidArgument, "(an unknown code)");
    expectError(R"([["tile_y", "sp", [-1, 3, 1]], )" + rest, ErrorKind::InvalidArgument,
        "knob 'tile_y' has no value [-1, 3, 1] (its 10 values come from policy factors)");
    expectError(R"([["tile_y", "sp", [-1, 1, 1]], ["tile_y", "sp", [-1, 1, 1]], )" + rest, ErrorKind::InvalidArgument,
        "knob 'tile_y' is given twice");
    expectError("[" + rest, ErrorKind::InvalidArgument, "knob 'tile_y' is missing");
    expectError(R"([["opt", "ot", 2]])", ErrorKind::InvalidArgument, "knob 'opt' has no value 2");
    expectError(R"([["ann", "an", ["vec", "vec"]]])", ErrorKind::InvalidArgument, "knob 'ann' has no value");
    expectError(R"([["tile_y", "sp"]])", ErrorKind::Parse, "expected [name, code, value]");
    expectError(R"({"tile_y": 1})", ErrorKind::Parse, "expected a list");
    expectError(R"([["tile_y", "sp", [-1, 1)", ErrorKind::Parse, "not JSON");
}

// The AutoTVM v0.2 log line quoted in docs (tuning-systems.md 1.2, from l1nkr/DL-Compiler-Navigation
// note/log.md): a conv2d_NCHWc.x86 config measured with TVM 0.10.0. No AutoTVM log is in tests/data yet.
TEST(AutotvmConfigSpace, RealLogLineParsesAndReserialisesToTheSameText)
{
    const std::string line
        = R"({"input": ["llvm -keys=cpu ", "conv2d_NCHWc.x86", [["TENSOR", [1, 3, 224, 224], "float32"], )"
          R"(["TENSOR", [64, 3, 7, 7], "float32"], [2, 2], [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"], {}], )"
          R"("config": {"index": 172, "code_hash": null, "entity": [["tile_ic", "sp", [-1, 1]], )"
          R"(["tile_oc", "sp", [-1, 4]], ["tile_ow", "sp", [-1, 1]], ["unroll_kw", "ot", false]]}, )"
          R"("result": [[0.0045656413], 0, 0.5309267044067383, 1676344759.520081], "version": 0.2, "tvm_version": "0.10.0"})";
    ConfigSpace space = conv2dNchwcSpace();
    ASSERT_EQ(space.size(), 308);
    auto record = nlohmann::json::parse(line);
    auto parsed = space.parseConfig(record["config"].dump());
    ASSERT_TRUE(parsed) << parsed.error().toString();
    // 172 = 0 + 2 * (2 + 7 * (1 + 11 * 1)): tile_ow's [-1, 1] is second only in CPython's set order.
    EXPECT_EQ(parsed->index, 172);
    EXPECT_EQ(parsed->loggedIndex, 172);
    EXPECT_FALSE(parsed->codeHash);
    size_t begin = line.find(R"({"index")");
    size_t end = line.find("]]}", begin) + 3;
    EXPECT_EQ(space.configJson(parsed->index), line.substr(begin, end - begin));
    EXPECT_EQ(space.entityJson(172),
        R"([["tile_ic", "sp", [-1, 1]], ["tile_oc", "sp", [-1, 4]], ["tile_ow", "sp", [-1, 1]], ["unroll_kw", "ot", false]])");
}
