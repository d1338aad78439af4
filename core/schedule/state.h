// The loop state of a schedule: one Stage per op, each with its loop iterators, where it is computed, and
// how its iterators derive from the op's axes.
//
// As in TVM's auto_scheduler, the State is lightweight and separate from the DAG: it is rebuilt by replaying
// its steps (State::replay) and never edited except through apply() and withSplitLengths(). Steps that add
// stages (cache_read, cache_write, rfactor) rebuild the affected ops, keeping the axis vars that iterators
// refer to.
//
// Copy on write: the stages, the step history and the DAG tensors are shared between copies of a State;
// apply() copies only the list of stage pointers and the stages a step changes (as TVM's StateNode does), so
// copying a State costs a few reference counts and replay is linear in the number of steps.
//
// Sketches: a state whose splits have unfilled lengths (SplitStep) replays and prints ("(0,?)" for the
// extents they leave unknown) but does not lower (checkFilled); withSplitLengths fills them by editing the
// history and replaying it (Ansor's InitFillTileSize).
//
// Iterator graph: each stage keeps TVM's split/fuse relations. Nodes 0 .. axes-1 are the op's spatial axes,
// then its reduce axes; a multi-length split is a chain of binary splits (by factor or by nparts) whose
// intermediate nodes are not iterators; a fuse makes one node of several. Lowering passes extents down and
// index values up this graph (iter_graph.h).
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/step.h"
#include "core/support/error.h"

#include <memory>
#include <string>
#include <vector>

namespace ts::sched {

enum class IteratorKind { Spatial, Reduce, Mixed };
enum class ComputeAtKind { Root, Inlined, Iter };

struct Iterator {
    std::string name;
    int64_t extent = -1; // -1: unknown (after compute_at, until bound inference; below an unfilled split)
    IteratorKind kind = IteratorKind::Spatial;
    Annotation annotation = Annotation::None;
    int node = -1; // in the stage's iterator graph
    bool operator==(const Iterator&) const = default;
};

struct IterNode {
    std::string name;
    IteratorKind kind = IteratorKind::Spatial;
    int64_t extent = 1; // with the op's full axis extents; -1 below an unfilled split length
};

struct IterRelation {
    enum class Kind { Split, Fuse };
    Kind kind = Kind::Split;
    // Split: parent -> (outer, inner); by factor: inner extent = factor, else outer extent = factor (nparts).
    int parent = -1;
    int outer = -1;
    int inner = -1;
    SplitLength factor = 1; // std::nullopt: an unfilled length (a sketch)
    bool byFactor = true;
    // Fuse: fused (outer to inner) -> result.
    std::vector<int> fused;
    int result = -1;
};

struct StorageAlign {
    int axis = 0; // spatial axis of the op
    int factor = 1;
    int offset = 0;
};

struct Stage {
    ir::Tensor op;
    std::vector<Iterator> iters;
    ComputeAtKind computeAt = ComputeAtKind::Root;
    int attachStage = -1; // ComputeAtKind::Iter
    int attachIter = -1;
    int autoUnrollMaxStep = 0;
    // The memory its buffer lives in on a GPU: "shared" or "local" from cache_read/cache_write; empty: as TVM
    // decides by where the stage is computed (inside threadIdx: local, inside blockIdx only: shared, else
    // global). CPU targets ignore it.
    std::string scope;
    std::vector<StorageAlign> storageAligns;
    std::vector<IterNode> nodes;
    std::vector<IterRelation> relations;

    bool isPlaceholder() const { return op->isPlaceholder(); }
    int numRootNodes() const { return static_cast<int>(op->axes().size() + op->reduceAxes().size()); }
};

// A fill for State::withSplitLengths: the index of a split step in the history and its new lengths.
struct SplitFill {
    int stepIndex = 0;
    std::vector<int64_t> lengths;
};

class State {
public:
    // One stage per op of the DAG, iterators = the op's spatial then reduce axes.
    static State initial(const ir::ComputeDAG& dag);
    // Applies steps in order; the first that fails names its index and reason.
    static Expected<State> replay(const ir::ComputeDAG& dag, const std::vector<Step>& steps);
    // The same from a step list in TVM's JSON encoding (a record's `steps`); a parse error comes back as is.
    static Expected<State> replayJson(const ir::ComputeDAG& dag, std::string_view stepsJson);

    // Checks the step's preconditions against this state and applies it, or returns an InvalidArgument
    // error ("step 3 (SP): stage 2 (matmul) iterator 7 out of range (6 iterators)") and leaves the state as
    // it was.
    Expected<void> apply(const Step& step);

    // Sketches. The index of the first split step with an unfilled length, or -1 when every split is filled.
    int firstUnfilledSplit() const;
    // Nothing when every split is filled; otherwise an InvalidArgument error naming the first unfilled one:
    // "step 3 (SP): stage 2 (matmul): split length 1 of 3 is not filled ([?, 1, 4]); fill the sketch before
    // lowering" (lengths counted from 1; the stage id as in the step, its name as now).
    Expected<void> checkFilled() const;
    // The state with split step `stepIndex` given `lengths` (each >= 1, as many as the step has), its history
    // replayed from the initial state. Filled or not before, as Ansor's InitFillTileSize and tile-size
    // mutation do. Split steps after the first edited one record the extents they now see. Errors name the
    // step: out of range, not a split, a wrong count of lengths, a length < 1, or a later step that no
    // longer applies.
    Expected<State> withSplitLengths(int stepIndex, std::vector<int64_t> lengths) const;
    // Several splits at once, with one replay (every unfilled split of a sketch).
    Expected<State> withSplitLengths(const std::vector<SplitFill>& fills) const;

    const Stage& stage(int id) const { return *m_stages->at(static_cast<size_t>(id)); }
    int numStages() const { return static_cast<int>(m_stages->size()); }
    const std::vector<Step>& steps() const { return *m_steps; }
    // Stage id of the op named `name`, or -1.
    int stageIndex(const std::string& name) const;
    // The DAG after cache and rfactor steps (equals the original DAG without them).
    ir::ComputeDAG currentDag() const;
    // The tensors of the DAG this state was made from (initial / replay), as that DAG's tensors() gave them:
    // an AutoTVM config may compute on a DAG of its own (autotvm::Template::program).
    const std::vector<ir::Tensor>& originTensors() const { return *m_origin->dagTensors; }
    // Stages attached at (stage, iter), in stage order.
    std::vector<int> attachedAt(int stage, int iter) const;

    // Ansor's printout: "Placeholder: A, B" then each root stage's loop nest, attached stages inside their
    // loop, "parallel i.0@j.0@ (0,128)", "matmul = ...". Extents unknown until bound inference print
    // "(None)", as TVM prints them; extents unknown because of an unfilled split print "(0,?)".
    std::string toString() const;

    // For bound inference (core/lower): sets iterator extents.
    void setIteratorExtents(int stage, const std::vector<int64_t>& extents);

private:
    friend class StepApplier;
    using StageList = std::vector<std::shared_ptr<Stage>>;
    // What replay starts from: the stages and tensors of the DAG, shared by every state replayed from it.
    struct Origin {
        std::shared_ptr<StageList> stages;
        std::shared_ptr<std::vector<ir::Tensor>> dagTensors;
    };

    static State fromOrigin(const std::shared_ptr<const Origin>& origin);
    // Copy on write: the parts this state is about to change, copied first if another state shares them.
    StageList& mutableStages();
    Stage& mutableStage(int id);
    // The id now of the stage that was `stageId` when step `stepIndex` was applied.
    int currentStageId(int stepIndex, int stageId) const;

    std::shared_ptr<StageList> m_stages;
    std::shared_ptr<std::vector<Step>> m_steps;
    std::shared_ptr<std::vector<ir::Tensor>> m_dagTensors; // placeholders and outputs, current
    std::shared_ptr<const Origin> m_origin;
};

// Convenience for code that builds schedules (tests, hand schedules, search rules): apply or abort with
// the error, for steps the caller knows are valid.
void applyOrDie(State& state, const Step& step);

} // namespace ts::sched
