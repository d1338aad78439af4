// Export a repro: one stored record as a self-contained folder a colleague (or a bug report) can use
// without the workspace:
//
//   steps.json   the record's step list (TVM's JSON step encoding)
//   record.json  the record as one TVM auto_scheduler log line (log_export.h)
//   loop_ir.c    the loop IR its steps lower to, printed as `tunescope-cli lower` prints it
//   measure.sh   a `tunescope-cli measure ...` command that re-measures it here
//   README.md    what the files are, the record's measured result and what could not be written
//
// How the record's task is rebuilt, and so how measure.sh names it:
// - a record of a session TuneScope tuned: the session's origin (engine::TuneOrigin, in its settings)
//   rebuilds its tasks; the one whose workload key is the record's task key is it. A network origin is named
//   `--network N --batch B --layout L --task ID --steps steps.json`; an operator as the registered workload
//   it is exported as (export_keys.h), `--workload matmul:64,64,64` or `--workload
//   tunescope_conv2d_nhwc:1,56,56,64,64,3,3,1,1`, with `--steps steps.json`.
// - an imported record (a TVM key): record.json itself, `--record record.json:1`, rebuilt as the CLI does
//   (a registered workload, or the model-zoo task a TVM DAG hash matches).
// TuneScope's own task keys are a hash of its DAG text: record.json carries the key export_keys.h gives the
// task (a registered workload's TVM key, or the hash with the tensors' shapes, which `measure --record` reads).
//
// Qt-free; runs wherever a Store is open (a job's own read-only Store in the GUI).
#pragma once

#include "core/store/store.h"
#include "core/support/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::engine {

struct ReproExport {
    std::string dir;
    std::vector<std::string> files; // the file names written, in the order above
    std::string title; // "matmul 64,64,64, record 17"
    // `tunescope-cli measure` arguments that re-measure the record from inside `dir`; empty when no CLI
    // source names its task.
    std::vector<std::string> measureArgs;
    // What could not be written or rebuilt, one line each (also in README.md).
    std::vector<std::string> notes;
};

// Writes the repro of record `recordId` into `dir` (created if missing; files of the same names are
// replaced). Errors: no such record, a folder that cannot be written, a record whose steps do not parse.
// What works is written even when the task cannot be rebuilt (then without loop_ir.c's IR; notes say why).
Expected<ReproExport> exportRepro(store::Store& store, int64_t recordId, const std::string& dir);

} // namespace ts::engine
