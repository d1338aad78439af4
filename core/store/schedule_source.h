// What a user names to look at, lower or measure a schedule, resolved into a compute DAG and a State.
//
// A schedule comes from one of:
//   a network task  resnet-18 (batch, layout) task 3: the task's DAG, the default schedule;
//   a workload      "matmul_add:1024,1024,1024" (workload_registry.h): its DAG, the default schedule;
//   a TVM record    line 2 of a log file: its workload rebuilt (a registered workload, or the model-zoo task
//                   a TVM DAG-hash key matches, network_match.h), its steps. Lines are read and counted as
//                   the importer does (1-based, comments included), so a stored record's sourceLine
//                   names the same line; every auto_scheduler record version the importer reads resolves;
//                   an AutoTVM record (v0.1 or v0.2) resolves when TuneScope has its template: the workload is
//                   rebuilt from the task's args and the config's entity instantiated as steps;
// and an optional steps file (a JSON step list, as in TVM records) replaces the steps. The steps are
// replayed on the DAG; the first that does not apply is the error.
//
// The CLI and the GUI both resolve here, so a task id out of range, a record line that is not a record
// or a workload that cannot be rebuilt reads the same everywhere. It lives in the store because a record
// is read with the store's TVM log parser (tvm_log.h); it needs graph and schedule, which the store
// links already. Errors name what was wrong and where ("log.json:3: ...", "steps.json: ...").
#pragma once

#include "core/graph/task_extraction.h"
#include "core/ir/compute_dag.h"
#include "core/ops/conv.h"
#include "core/schedule/state.h"
#include "core/store/tvm_log.h"
#include "core/support/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ts::store {

// A built-in network (model_zoo.h) at a batch size and layout.
struct NetworkRef {
    std::string name; // "resnet-18"
    int64_t batch = 1;
    ops::Layout layout = ops::Layout::NCHW;
};

// One task of a network, by its id in extractTasks order.
struct NetworkTaskRef {
    NetworkRef network;
    int64_t task = 0;
    // How errors name the task id: "task 18 is out of range"; a command line passes its option, "--task".
    std::string taskLabel = "task";
};

// A registered workload in the CLI's short form, "matmul_add:1024,1024,1024".
struct WorkloadRef {
    std::string spec;
};

// A line of a TVM log, 1-based.
struct RecordRef {
    std::string path;
    int64_t line = 0;
};

struct ScheduleSource {
    std::variant<NetworkTaskRef, WorkloadRef, RecordRef> what;
    // A file holding a JSON step list; replaces the record's steps (or the default schedule's none).
    std::optional<std::string> stepsFile;
};

struct ResolvedSchedule {
    // For people: "resnet-18 task 3 (conv2d_nchw_bias_add_relu)", "matmul_add:64,32,48",
    // "matmul_add from log.json:2".
    std::string title;
    std::string name; // the task's or workload's name: "conv2d_nchw_bias_add_relu", "matmul_add"
    ir::ComputeDAG dag;
    std::vector<sched::Step> steps;
    sched::State state; // the steps replayed on dag
    double flops = 0.0; // of one run of the DAG
    std::optional<graph::Task> task; // a network source's task, or a DAG-hash record's zoo task
    std::optional<LogRecord> record; // a record source's record: target, hardware params, measured costs
};

// The network's tasks.
Expected<graph::TaskSet> loadNetworkTasks(const NetworkRef& network);

// The task with this id, or "task 18 is out of range: resnet-18 has 18 tasks (0..17)" (with `label` in
// place of "task"). The one place a task id is checked.
Expected<const graph::Task*> findTask(const graph::TaskSet& tasks, int64_t id, std::string_view label = "task");

// The DAG, the steps and their replayed state.
Expected<ResolvedSchedule> resolveSchedule(const ScheduleSource& source);

// A stored record's state: its steps (TVM's JSON) replayed on the DAG they were made for, the task's or, for
// an AutoTVM config of a template with a program of its own (TVM's packed NCHW[x]c convolutions), that
// config's program (autotvm::recordDag, read from the record's extra). Every reader of stored records that
// replays them goes through here.
Expected<sched::State> replayStored(const ir::ComputeDAG& taskDag, std::string_view stepsJson, std::string_view extra);
// The same for steps already parsed.
Expected<sched::State> replayStored(
    const ir::ComputeDAG& taskDag, const std::vector<sched::Step>& steps, std::string_view extra);

} // namespace ts::store
