// The loop state of a schedule: one Stage per op, each with its loop iterators, where it is computed, and
// how its iterators derive from the op's axes.
//
// As in TVM's auto_scheduler, the State is lightweight and separate from the DAG: it is rebuilt by replaying
// its steps (State::replay) and never edited except through apply(). Steps that add stages (cache_read,
// cache_write, rfactor) rebuild the affected ops, keeping the axis vars that iterators refer to.
//
// Iterator graph: each stage keeps TVM's split/fuse relations. Nodes 0 .. axes-1 are the op's spatial axes,
// then its reduce axes; a multi-length split is a chain of binary splits (by factor or by nparts) whose
// intermediate nodes are not iterators; a fuse makes one node of several. Lowering passes extents down and
// index values up this graph (iter_graph.h).
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/step.h"
#include "core/support/error.h"

#include <string>
#include <vector>

namespace ts::sched {

enum class IteratorKind { Spatial, Reduce, Mixed };
enum class ComputeAtKind { Root, Inlined, Iter };

struct Iterator {
    std::string name;
    int64_t extent = -1; // -1: unknown (after compute_at, until bound inference)
    IteratorKind kind = IteratorKind::Spatial;
    Annotation annotation = Annotation::None;
    int node = -1; // in the stage's iterator graph
    bool operator==(const Iterator&) const = default;
};

struct IterNode {
    std::string name;
    IteratorKind kind = IteratorKind::Spatial;
    int64_t extent = 1; // with the op's full axis extents
};

struct IterRelation {
    enum class Kind { Split, Fuse };
    Kind kind = Kind::Split;
    // Split: parent -> (outer, inner); by factor: inner extent = factor, else outer extent = factor (nparts).
    int parent = -1;
    int outer = -1;
    int inner = -1;
    int64_t factor = 1;
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
    std::vector<StorageAlign> storageAligns;
    std::vector<IterNode> nodes;
    std::vector<IterRelation> relations;

    bool isPlaceholder() const { return op->isPlaceholder(); }
    int numRootNodes() const { return static_cast<int>(op->axes().size() + op->reduceAxes().size()); }
};

class State {
public:
    // One stage per op of the DAG, iterators = the op's spatial then reduce axes.
    static State initial(const ir::ComputeDAG& dag);
    // Applies steps in order; the first that fails names its index and reason.
    static Expected<State> replay(const ir::ComputeDAG& dag, const std::vector<Step>& steps);

    // Checks the step's preconditions against this state and applies it, or returns an InvalidArgument
    // error ("step 3 (SP): stage 2 (matmul) iterator 7 out of range (6 iterators)") and leaves the state as
    // it was.
    Expected<void> apply(const Step& step);

    const std::vector<Stage>& stages() const { return m_stages; }
    const Stage& stage(int id) const { return m_stages.at(static_cast<size_t>(id)); }
    int numStages() const { return static_cast<int>(m_stages.size()); }
    const std::vector<Step>& steps() const { return m_steps; }
    // Stage id of the op named `name`, or -1.
    int stageIndex(const std::string& name) const;
    // The DAG after cache and rfactor steps (equals the original DAG without them).
    ir::ComputeDAG currentDag() const;
    // Stages attached at (stage, iter), in stage order.
    std::vector<int> attachedAt(int stage, int iter) const;

    // Ansor's printout: "Placeholder: A, B" then each root stage's loop nest, attached stages inside their
    // loop, "parallel i.0@j.0@ (0,128)", "matmul = ...".
    std::string toString() const;

    // For bound inference (core/lower): sets iterator extents.
    void setIteratorExtents(int stage, const std::vector<int64_t>& extents);

private:
    friend class StepApplier;
    std::vector<Stage> m_stages;
    std::vector<Step> m_steps;
    std::vector<ir::Tensor> m_dagTensors; // placeholders and outputs, current
};

// Convenience for code that builds schedules (tests, hand schedules, search rules): apply or abort with
// the error, for steps the caller knows are valid.
void applyOrDie(State& state, const Step& step);

} // namespace ts::sched
