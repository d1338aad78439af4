// Matching TVM's DAG-hash workload keys to tasks of the built-in model zoo, so that records TVM tuned on
// whole networks (keyed ["<md5 of TVM's DAG text>", shapes...]) get a DAG TuneScope can replay, lower and
// measure.
//
// What TVM puts in the key (python/tvm/auto_scheduler/relay_integration.py, compute_dag.py): the task's
// tensors are its placeholders, in the order a depth-first walk from the output meets them (each op's
// inputs in the order its body reads them), then its outputs; the key is the hash followed by their
// shapes. Three spellings exist:
//   nested   ["1097...", [1, 14, 14, 256], [4, 4, 256, 256], [1, 14, 14, 256]]   TVM 0.8 and later (#8862)
//   flat     ["1097...", 1, 14, 14, 256, 4, 4, 256, 256, 1, 14, 14, 256]         TVM 0.8.dev, Jan-Aug 2021
//   hash     ["b32ed43fb351136894c322ee49097a1a"]                                 before (logs v0.3): no shapes
// TuneScope writes a fourth when it exports a task it tuned itself (session/export_keys.h): its own hash of
// the DAG (ComputeDAG::workloadKey, 16 hex digits) in the nested form, ["cfcb72736ba8385a", [1, 64, 56, 56],
// ...]. TVM cannot read it (its hash is of its own DAG text); TuneScope reads it like TVM's, except that the
// hash itself names the task: a candidate must be the very DAG the hash was made from, so an own key is never
// ambiguous. Exports made before shapes were added (["cfcb72736ba8385a"]) find their task at batch 1.
//
// The rule (NetworkMatcher::match):
//   1. Candidates: every task of every zoo network, in both layouts where the network has image layouts,
//      at the batch the key implies (the key's first dimension over the first dimension the network's task
//      has at batch 1), whose tensors, taken in TVM's key order, have the key's shapes: the same number of
//      tensors and equal shapes (flat: equal concatenations). Shapes equal exactly are preferred; failing
//      those, shapes equal once unit dimensions are dropped ([1, 1, 1, 256] holds what [256] holds: TVM's
//      folded batch-norm bias against TuneScope's 1-D bias). Tasks with the same computation in several
//      networks are one candidate (by ComputeDAG::workloadKey), the first in zoo order naming it.
//      The number of placeholders is part of the shapes: conv2d+bias+relu (4 tensors) and
//      conv2d+bias+add+relu (5, the residual) never share a key.
//   2. Replay: the record's steps must replay on the candidate's DAG (sched::State::replay, which checks
//      stage and iterator ids and split extents) and its bounds must infer (lower::inferBound).
//   3. Exactly one candidate left: matched. None: not matched (no task with the shapes; the steps do not
//      replay). Several (tasks with equal shapes whose steps all apply, e.g. a relu and a relu6 epilogue):
//      ambiguous, not matched: TuneScope never guesses which computation TVM measured.
// A key with no shapes (the hash alone) has every zoo task at batch 1, both layouts, as candidates, and the
// steps decide alone: matched only when they replay on exactly one distinct DAG. Steps pin a DAG down well
// (stage ids, iterator counts, split extents): on TVM's ResNet-18 logs, the hash-only log's steps pick the
// same zoo tasks the shape-keyed log's keys do, and a global average pool, the same in NCHW and NHWC up to
// its loops, is left ambiguous.
// Only the zoo is searched: a DAG-hash key of an operator TuneScope has no network for stays foreign.
#pragma once

#include "core/graph/task_extraction.h"
#include "core/ir/compute_dag.h"
#include "core/ops/conv.h"
#include "core/schedule/state.h"
#include "core/store/records.h"
#include "core/support/error.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ts::store {

// A DAG-hash workload key, split.
struct DagHashKey {
    enum class Form { Hash, Flat, Nested };
    std::string hash; // 32 hex digits
    Form form = Form::Hash;
    std::vector<std::vector<int64_t>> shapes; // Nested: one shape per tensor; Flat: one list of every dimension

    // TuneScope's own hash (ComputeDAG::workloadKey), not TVM's.
    bool own() const { return hash.size() == kOwnHashDigits; }
    static constexpr size_t kOwnHashDigits = 16;
};

// True when the key's first element is TVM's 32-hex-digit DAG hash or TuneScope's own 16-digit one.
bool isDagHashKey(const std::string& key);
// std::nullopt when the key is not a DAG-hash key; an error when it is one but its shapes are malformed.
Expected<std::optional<DagHashKey>> parseDagHashKey(const std::string& key);
// "[1, 14, 14, 256], [4, 4, 256, 256]" (nested), "1, 14, 14, 256, 4, 4" (flat), "" (hash).
std::string shapesText(const DagHashKey& key);

// The DAG's tensors in the order TVM writes their shapes into a workload key: placeholders as a depth-first
// walk from the outputs meets them, then the outputs.
std::vector<ir::Tensor> tvmKeyTensors(const ir::ComputeDAG& dag);

// One task of a zoo network, as a candidate.
struct ZooTask {
    std::string network; // "resnet-18"
    int64_t batch = 1;
    ops::Layout layout = ops::Layout::NCHW;
    graph::Task task; // its id, name, DAG, FLOPs

    // "resnet-18 NHWC batch 1 task 4"
    std::string label() const;
};

// The steps replayed on the DAG, and their bounds inferred: the check a record passes to be training data.
Expected<sched::State> replayAndInferBound(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps);

struct NetworkMatch {
    enum class Outcome { Matched, NoShapes, NoShapeMatch, NoReplay, Ambiguous };
    Outcome outcome = Outcome::NoShapeMatch;
    std::optional<ZooTask> task; // Matched
    bool stepsAlone = false; // a key without shapes: the steps alone decided
    std::vector<std::string> candidates; // labels and names of the tasks with the key's shapes (none without)
    // Not matched: why, in words that do not depend on the key ("no model-zoo task has the key's tensor
    // shapes"), and the particulars ("" for a key without shapes; its shapes; the candidates that replay; the
    // first candidate and its replay error).
    std::string reason;
    std::string detail;
};

class NetworkMatcher {
public:
    // The built-in networks (model_zoo.h); their tasks are extracted on first use, per batch and layout.
    NetworkMatcher() = default;
    // A given set of tasks instead of the zoo (a test's, or one network's), searched at whatever batch
    // they have.
    explicit NetworkMatcher(std::vector<ZooTask> tasks);

    // The distinct tasks whose tensors have the key's shapes (step 1 of the rule), in zoo order; for a key
    // without shapes, every distinct task at batch 1. For TuneScope's own hash, only the DAG it names.
    Expected<std::vector<const ZooTask*>> candidates(const DagHashKey& key);
    // The rule: candidates, then the replay check with `steps`.
    Expected<NetworkMatch> match(const DagHashKey& key, const std::vector<sched::Step>& steps);

private:
    // The zoo's tasks at a network, layout and batch, extracted once.
    Expected<const std::vector<ZooTask>*> zooTasks(const std::string& network, ops::Layout layout, int64_t batch);
    Expected<std::vector<const ZooTask*>> tasksForKey(const DagHashKey& key);

    bool m_fixed = false;
    std::vector<ZooTask> m_fixedTasks;
    std::map<std::tuple<std::string, int, int64_t>, std::vector<ZooTask>> m_zoo;
};

// The compute DAG of a stored rebuildable task: a registered workload rebuilt from its key, or the zoo task
// its DAG-hash key was matched to on import (the candidate whose printed DAG is the stored dag_text). A task
// TuneScope tuned itself (isOwnTaskKey) is not rebuilt from its key: a NotFound error says so (its session's
// origin, session/tune_origin.h, or its network in the networks table builds it).
Expected<ir::ComputeDAG> rebuildTask(const TaskInfo& task);

} // namespace ts::store
