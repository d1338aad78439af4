// Transform steps: the schedule primitives of Ansor's record format, one struct per kind.
//
// A schedule is its step history (DESIGN.md): State::apply replays steps one by one on a ComputeDAG, and the
// JSON form of each step is exactly TVM auto_scheduler's (step_json.h), so records can be exchanged with
// TVM logs. Stage and iterator ids are positions in the State at the time the step is applied; steps that
// add stages (cache_read, cache_write, rfactor) shift the ids of the stages after them.
//
// How to add a step kind:
//   1. a struct here with its fields, kCode (the two- or three-letter JSON code) and operator==;
//   2. add it to the Step variant (the variant's order is free; codes identify kinds in JSON);
//   3. State::apply: a case in state_steps.cpp (loop steps) or state_dag_steps.cpp (steps that change the
//      compute location or the DAG), checking every precondition with a clear error before changing
//      anything, reading through m_state.stage() and writing through m_state.mutableStage() (copy on write);
//   4. step_json.cpp: encode and parse; step_printer.cpp: print as a schedule call;
//   5. lowering (core/lower) if the step changes more than iterators; a round-trip test in schedule_test.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ts::sched {

// TVM's IteratorAnnotation numbering (the integer in "AN" steps).
enum class Annotation {
    None = 0,
    Unroll = 1,
    Vectorize = 2,
    Parallel = 3,
    VThread = 4,
    BlockX = 5,
    ThreadX = 6,
    BlockY = 7,
    ThreadY = 8,
    BlockZ = 9,
    ThreadZ = 10,
    Tensorize = 11,
};
constexpr int kNumAnnotations = 12;
// "for", "unroll", "vectorize", "parallel", "vthread", "blockIdx.x", ...
const char* toString(Annotation annotation);

struct AnnotationStep {
    static constexpr const char* kCode = "AN";
    int stageId = 0;
    int iterId = 0;
    Annotation annotation = Annotation::None;
    bool operator==(const AnnotationStep&) const = default;
};

// Fuses consecutive iterators into one named "a@b@".
struct FuseStep {
    static constexpr const char* kCode = "FU";
    int stageId = 0;
    std::vector<int> fusedIds;
    bool operator==(const FuseStep&) const = default;
};

// Only "auto_unroll_max_step$N" changes code; "debug_skip_region" is accepted and ignored.
struct PragmaStep {
    static constexpr const char* kCode = "PR";
    int stageId = 0;
    int iterId = 0;
    std::string pragma;
    bool operator==(const PragmaStep&) const = default;
};

// afterIds: the old iterator ids in their new order (a permutation of all iterators).
struct ReorderStep {
    static constexpr const char* kCode = "RE";
    int stageId = 0;
    std::vector<int> afterIds;
    bool operator==(const ReorderStep&) const = default;
};

// One length of a split: std::nullopt while it is not chosen yet (a sketch; TVM's Optional<Integer>).
using SplitLength = std::optional<int64_t>;

// Splits iterator x into lengths.size() + 1 iterators x.0 (outermost) .. x.n. innerToOuter: lengths are the
// extents of x.1 .. x.n and x.0 gets the rest (TVM's split by factor); otherwise lengths are x.0 .. x.n-1
// and x.n gets the rest (split by nparts). extent is the iterator's extent when the step was made.
// A sketch leaves lengths unfilled (Ansor's multi-level tiling); the iterators they size, and the rest, have
// unknown extents until State::withSplitLengths fills them. A state with unfilled splits does not lower.
struct SplitStep {
    static constexpr const char* kCode = "SP";
    int stageId = 0;
    int iterId = 0;
    std::optional<int64_t> extent;
    std::vector<SplitLength> lengths;
    bool innerToOuter = true;
    bool operator==(const SplitStep&) const = default;

    // Every length chosen.
    bool filled() const;
};

// Splits like an earlier SplitStep: its first nSplit - 1 lengths, then the product of the rest (unfilled if
// any of them is).
struct FollowSplitStep {
    static constexpr const char* kCode = "FSP";
    int stageId = 0;
    int iterId = 0;
    int srcStepId = 0;
    int nSplit = 0;
    bool operator==(const FollowSplitStep&) const = default;
};

// Splits by one length: the product of lengths[level] of several earlier SplitSteps (the tile of an
// iterator that was fused from theirs; unfilled if any of them is). factorOrNparts: split by factor (true)
// or by nparts.
struct FollowFusedSplitStep {
    static constexpr const char* kCode = "FFSP";
    int stageId = 0;
    int iterId = 0;
    std::vector<int> srcStepIds;
    int level = 0;
    bool factorOrNparts = true;
    bool operator==(const FollowFusedSplitStep&) const = default;
};

// Pads the row stride of the stage's buffer at dimension iterId: stride % factor == offset.
struct StorageAlignStep {
    static constexpr const char* kCode = "SA";
    int stageId = 0;
    int iterId = 0;
    int factor = 0;
    int offset = 0;
    bool operator==(const StorageAlignStep&) const = default;
};

// Computes the stage inside the loop targetIterId of stage targetStageId, only the region it needs there.
// The target need not read the stage; the loop must enclose all its readers (checked by bound inference).
struct ComputeAtStep {
    static constexpr const char* kCode = "CA";
    int stageId = 0;
    int targetStageId = 0;
    int targetIterId = 0;
    bool operator==(const ComputeAtStep&) const = default;
};

struct ComputeInlineStep {
    static constexpr const char* kCode = "CI";
    int stageId = 0;
    bool operator==(const ComputeInlineStep&) const = default;
};

struct ComputeRootStep {
    static constexpr const char* kCode = "CR";
    int stageId = 0;
    bool operator==(const ComputeRootStep&) const = default;
};

// Adds stage "<name>.<scope>" (at stageId + 1) copying the stage's tensor; the readers read the copy.
struct CacheReadStep {
    static constexpr const char* kCode = "CHR";
    int stageId = 0;
    std::string scope;
    std::vector<int> readerStageIds;
    bool operator==(const CacheReadStep&) const = default;
};

// Adds stage "<name>.<scope>" (at stageId) computing the stage's body; the stage becomes a copy of it.
struct CacheWriteStep {
    static constexpr const char* kCode = "CHW";
    int stageId = 0;
    std::string scope;
    bool operator==(const CacheWriteStep&) const = default;
};

// Factors reduction iterator iterId out as a spatial axis (at position factorIterId) of a new stage
// "<name>.rf" (at stageId); the stage then reduces the partial results.
struct RfactorStep {
    static constexpr const char* kCode = "RF";
    int stageId = 0;
    int iterId = 0;
    int factorIterId = 0;
    bool operator==(const RfactorStep&) const = default;
};

using Step = std::variant<AnnotationStep, FuseStep, PragmaStep, ReorderStep, SplitStep, FollowSplitStep,
    FollowFusedSplitStep, StorageAlignStep, ComputeAtStep, ComputeInlineStep, ComputeRootStep, CacheReadStep,
    CacheWriteStep, RfactorStep>;

const char* stepCode(const Step& step);
// "2, ?, 4": the lengths of a split, "?" where unfilled.
std::string toString(const std::vector<SplitLength>& lengths);
int stepStageId(const Step& step);

} // namespace ts::sched
