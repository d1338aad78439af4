// The workload key under which a task TuneScope tuned itself is exported (`tunescope-cli export`, a repro's
// record.json). Its stored key is TuneScope's hash of the DAG (ComputeDAG::workloadKey): it names the DAG
// but does not say how to build it. The session that tuned it does (its origin, tune_origin.h):
// - an operator whose DAG is also a registered workload (workload_registry.h: matmul 64,64,64) is exported
//   as that workload's TVM key, ["matmul", 64, 64, 64, "float32"], which TVM and `measure --record` read;
// - any other task as TuneScope's hash followed by its tensors' shapes in TVM's nested form
//   (network_match.h), which `measure --record`, `import` and `best` match to the model-zoo task it is. An
//   operator that is no registered workload and no zoo task is exported so too, but nothing rebuilds it yet.
// A task of a dataset `collect` measured (whose sessions name no origin) is a network task of the workspace's
// networks table and is exported as one. A task neither names keeps the hash alone; read back, it is looked for
// among the zoo's tasks at batch 1.
#pragma once

#include "core/engine/tune_origin.h"
#include "core/graph/task_extraction.h"
#include "core/store/store.h"
#include "core/support/error.h"

#include <cstdint>
#include <map>
#include <string>

namespace ts::engine {

// The key `task` (built from `origin`) is exported under.
std::string exportKey(const TuneOrigin& origin, const graph::Task& task);

// Stored task id -> exported key, for every task of the store whose key is TuneScope's own hash and which a
// stored session's origin or a stored network still builds. Errors: the store cannot be read. An origin or
// network that no longer builds (a network removed from the zoo) is skipped: its tasks keep the hash alone.
Expected<std::map<int64_t, std::string>> exportKeys(store::Store& store);

} // namespace ts::engine
