// The values the record store keeps: devices, tasks (workloads), networks, sessions, records, cost models
// and imported sources. Plain data; store.h reads and writes them.
#pragma once

#include "core/record/measure_result.h"
#include "core/target/target.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts::store {

// What a record's `steps` column holds: an Ansor step list (TVM's JSON step encoding) or an AutoTVM
// config entity ({"index": ..., "code_hash": ..., "entity": [...]}).
enum class RecordKind { Ansor = 0, AutoTvm = 1 };
const char* toString(RecordKind kind);

// Ansor's hardware parameters, in its record order (core/target/target.h).
using target::HardwareParams;

struct Device {
    int64_t id = 0;
    std::string kind; // "cpu" or "gpu"
    std::string name; // for people: "cpu znver3", "cuda sm_86"
    std::string target; // TVM target string: "llvm -keys=cpu -mcpu=znver3"
    std::string targetHost; // "" when none
    std::optional<HardwareParams> hardwareParams; // absent in logs older than v0.3
    std::string properties = "{}"; // JSON: CPU model and features, or GPU properties
};

// Device kind from a TVM target string: "gpu" for cuda/nvptx/rocm/opencl/vulkan/metal, else "cpu".
std::string deviceKindOf(const std::string& target);
// A short name from a target string: "cpu core-avx2", "cuda sm_86", "cuda".
std::string deviceNameOf(const std::string& target);
// The device row of a target TuneScope itself measures on: its TVM target string, name and hardware
// parameters (what a tuning session records under, and where `best` looks). The host's device also records, in
// its properties' "cpu", what LLVM called the CPU, the name chosen (target/host_cpu.h) and the CPUID signature.
Device deviceOf(const target::Target& target);
// Whether the stored device row is the CPU `wanted` describes: the same target string, or (a host row, whose
// properties record the CPUID signature, target/host_cpu.h) the same signature and the same target string
// but for -mcpu, the model name another LLVM version gave the same CPU.
bool sameCpu(const Device& stored, const Device& wanted);
// The Target a device's records were measured for (its TVM target string and hardware parameters), which
// lowering, code generation and measurement take; an error names what of the target string is not understood.
Expected<target::Target> targetOf(const Device& device);

// A tuning task: one workload. Records of the same workload on different devices share it.
struct TaskInfo {
    int64_t id = 0;
    RecordKind kind = RecordKind::Ansor;
    // auto_scheduler: the workload key as TVM writes it ("[\"matmul_add\", 1024, ...]");
    // AutoTVM: the JSON text [task name, [args...], {kwargs}].
    std::string key;
    std::string name; // for people: "matmul_add", "conv2d_NCHWc.x86", "dag 1097323f"
    std::string dagText; // the compute DAG, printed, when TuneScope can rebuild it; "" otherwise
    double flops = 0.0; // of one run, when known
    // TuneScope can rebuild and measure the workload: the key names a registered workload or a matched model-zoo
    // task, or TuneScope built the task itself (taskInfoOf). False: a foreign task, imported from a TVM log.
    bool rebuildable = false;
};

// The task row of a DAG TuneScope tunes itself: keyed by the DAG's workload key (a hash of its
// name-independent text), named for people, with the DAG's text and FLOPs. Rebuildable (TuneScope's own, not
// foreign), though not from the key alone: the session, `best` and a dataset rebuild it from the network or
// operator they name (a session's origin, the networks table), `export` names it by what those build.
TaskInfo taskInfoOf(const std::string& name, const std::string& workloadKey, const std::string& dagText, double flops);
// Whether `key` is the key of a task TuneScope built itself (taskInfoOf): the DAG's hash, bare hex digits. Every
// key TVM writes is JSON text ("[\"matmul_add\", ...]", "[\"<md5>\", [1, 56, 56, 64], ...]", an AutoTVM task).
bool isOwnTaskKey(const std::string& key);

struct NetworkInfo {
    int64_t id = 0;
    std::string name;
    int64_t batch = 1;
    std::string layout;
    struct Member {
        int64_t taskId = 0;
        int weight = 1;
    };
    std::vector<Member> tasks;
};

struct SessionInfo {
    int64_t id = 0;
    std::string policy; // "ansor", "autotvm-xgb", "import", ...
    std::string costModel; // "xgboost", "random", ...
    int64_t seed = 0;
    std::string settings = "{}"; // JSON
    std::optional<int64_t> deviceId;
    double startedAt = 0.0; // Unix seconds
    std::optional<double> endedAt;
    std::string status = "running"; // running, finished, cancelled, failed
};

struct Record {
    int64_t id = 0; // assigned by the store; also the trial order
    int64_t taskId = 0;
    int64_t deviceId = 0;
    std::optional<int64_t> sessionId;
    std::optional<int64_t> sourceId; // the imported file it came from
    std::optional<int64_t> sourceLine; // 1-based line in that file
    RecordKind kind = RecordKind::Ansor;
    std::string steps = "[]"; // JSON, see RecordKind
    int stepCount = 0;
    record::MeasureResult result; // costs, status, all cost, timestamp, message (schema 3 on; "" before)
    std::optional<double> predictedScore;
    std::optional<int64_t> predictedBy; // cost model id
    std::optional<int> batchRank; // rank of the prediction within its measured batch, 0 = best
    std::string extra = "{}"; // JSON: what a log carried beyond these fields (version, layout option, ...)
    // Fingerprint of an imported record's content; two imports of the same line add one record.
    std::optional<int64_t> fingerprint;
};

struct CostModelInfo {
    int64_t id = 0;
    std::string kind; // "xgboost", "tlp", ...
    std::string name;
    std::string settings = "{}"; // JSON
    std::string trainingSummary = "{}"; // JSON: records, tasks, devices, loss...
    std::vector<uint8_t> weights; // serialized by the model itself
    double createdAt = 0.0;
};

struct SourceInfo {
    int64_t id = 0;
    std::string path;
    std::string format; // "auto_scheduler", "autotvm", "mixed"
    int64_t contentHash = 0;
    int64_t bytes = 0;
    int64_t lines = 0;
    int64_t comments = 0;
    int64_t records = 0; // added to the store
    int64_t duplicates = 0; // already in the store
    int64_t malformed = 0;
    double importedAt = 0.0;
};

// One row of "best per task": what a task's records on a device amount to.
struct TaskSummary {
    int64_t taskId = 0;
    int64_t deviceId = 0;
    int64_t records = 0;
    int64_t failures = 0;
    std::optional<int64_t> bestRecordId;
    std::optional<double> bestCost;
};

// One point of a tuning curve.
struct HistoryPoint {
    int64_t recordId = 0;
    std::optional<int64_t> sessionId;
    double meanCost = 0.0;
    record::MeasureStatus status = record::MeasureStatus::Ok;
    double timestamp = 0.0;
};

} // namespace ts::store
