#include "core/measure/gpu_bundle.h"

#include "core/codegen/cuda_source.h"
#include "core/codegen/nvrtc.h"
#include "core/lower/lower.h"
#include "core/measure/reference.h"
#include "core/measure/runner_process.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

namespace ts::measure {

using Json = nlohmann::json;

GpuBuild buildGpuBundle(const sched::State& state, const target::Target& target, const Reference& reference,
    const std::string& id, const std::string& record, const GpuBundleOptions& options)
{
    GpuBuild out;
    auto failed = [&](record::MeasureStatus status, const std::string& message) {
        out.status = status;
        out.message = message;
        return out;
    };
    if (!target.isGpu())
        return failed(record::MeasureStatus::InstantiationError,
            std::string("GPU bundles are made for GPU targets, not ") + target::toString(target.kind));
    lower::LowerOptions lowering;
    lowering.target = target;
    auto func = lower::lower(state, lowering);
    if (!func)
        return failed(record::MeasureStatus::InstantiationError, func.error().message);
    auto program = codegen::emitCuda(*func, target);
    if (!program)
        return failed(record::MeasureStatus::CompileHostError, program.error().message);

    Json bundle;
    bundle["version"] = 1;
    bundle["id"] = id;
    bundle["record"] = record;
    bundle["target"] = target::toString(target);
    bundle["source"] = program->source;
    // PTX where NVRTC is here (for the target's architecture; the driver JIT-compiles it for newer GPUs).
    if (options.ptx && codegen::nvrtcVersion()) {
        auto ptx = codegen::compileToPtx(program->source, target.arch, func->name);
        if (!ptx)
            return failed(record::MeasureStatus::CompileDeviceError, ptx.error().message);
        bundle["ptx"] = ptx->ptx;
    }
    Json kernels = Json::array();
    for (const codegen::CudaLaunch& k : program->kernels)
        kernels.push_back(
            { { "name", k.name }, { "grid", k.grid }, { "block", k.block }, { "shared_bytes", k.sharedBytes } });
    bundle["kernels"] = kernels;
    Json buffers = Json::array();
    for (size_t i = 0; i < program->buffers.size(); ++i) {
        const ir::BufferVar& b = *program->buffers[i];
        const bool argument = static_cast<int>(i) < program->numArgs;
        const char* role = !argument ? "workspace" : static_cast<int>(i) < func->numInputs ? "input" : "output";
        buffers.push_back({ { "name", b.name }, { "elements", b.allocatedElements() },
            { "dtype", std::string(ir::toString(b.dtype)) }, { "role", role } });
    }
    bundle["buffers"] = buffers;
    bundle["seed"] = options.seed;
    Json expected = Json::array();
    for (size_t o = 0; o < reference.outputs.size(); ++o) {
        int index = -1;
        for (size_t i = static_cast<size_t>(func->numInputs); i < func->args.size(); ++i)
            if (func->args[i]->name == reference.outputs[o])
                index = static_cast<int>(i);
        if (index < 0)
            return failed(record::MeasureStatus::UnknownError,
                "the reference's output " + reference.outputs[o] + " is no argument of the kernel");
        // A reference evaluated whole (a small DAG) holds every element: the bundle carries `samples` of
        // them, evenly spread, corners included (a softmax of 196,608 outputs made 5 MB lines).
        const std::vector<int64_t>& offsets = reference.offsets[o];
        const std::vector<float>& values = reference.values[o];
        const size_t n = offsets.size(), keep = static_cast<size_t>(std::max(2, options.samples));
        if (n <= keep) {
            expected.push_back({ { "buffer", index }, { "offsets", offsets }, { "values", values } });
            continue;
        }
        std::vector<int64_t> someOffsets;
        std::vector<float> someValues;
        for (size_t k = 0; k < keep; ++k) {
            const size_t at = k * (n - 1) / (keep - 1);
            someOffsets.push_back(offsets[at]);
            someValues.push_back(values[at]);
        }
        expected.push_back({ { "buffer", index }, { "offsets", someOffsets }, { "values", someValues } });
    }
    bundle["expected"] = expected;
    bundle["rtol"] = options.rtol;
    bundle["atol"] = options.atol;
    bundle["timing"] = { { "warmup", options.timing.warmup }, { "number", options.timing.number },
        { "repeat", options.timing.repeat }, { "min_repeat_ms", options.timing.minRepeatMs },
        { "flush_l2", options.timing.flushCache }, { "timeout_ms", options.timeoutMs } };
    out.line = bundle.dump();
    return out;
}

Expected<std::string> makeGpuBundle(const ir::ComputeDAG& dag, const sched::State& state, const target::Target& target,
    const std::string& id, const std::string& record, const GpuBundleOptions& options)
{
    TS_TRY(const Reference reference, computeReference(dag, options.seed, options.samples));
    GpuBuild built = buildGpuBundle(state, target, reference, id, record, options);
    if (built.status != record::MeasureStatus::Ok)
        return makeError(built.status == record::MeasureStatus::InstantiationError ? ErrorKind::InvalidArgument
                                                                                   : ErrorKind::Unsupported,
            built.message);
    return std::move(built.line);
}

Expected<GpuResult> parseGpuResult(std::string_view line)
{
    const Json j = Json::parse(line, nullptr, false);
    auto bad = [](const std::string& why) {
        return makeError(ErrorKind::Parse, "a tunescope-gpu-runner result line: " + why);
    };
    if (!j.is_object())
        return bad("not a JSON object");
    for (const char* key : { "id", "record", "error_msg", "device" })
        if (!j.contains(key) || !j[key].is_string())
            return bad(std::string("\"") + key + "\" is missing or not a string");
    if (!j.contains("costs") || !j["costs"].is_array() || !j.contains("error_no") || !j["error_no"].is_number_integer()
        || !j.contains("all_cost") || !j["all_cost"].is_number())
        return bad("\"costs\", \"error_no\" or \"all_cost\" is missing or of the wrong type");
    const int error = j["error_no"].get<int>();
    if (error < 0 || error > 8)
        return bad("error_no " + std::to_string(error) + " is not one of TVM's (0..8)");
    GpuResult r;
    r.id = j["id"];
    r.record = j["record"];
    r.device = j["device"];
    const auto status = static_cast<record::MeasureStatus>(error);
    if (status == record::MeasureStatus::Ok) {
        r.result.status = status;
        for (const Json& c : j["costs"]) {
            if (!c.is_number() || c.get<double>() <= 0.0)
                return bad("a cost is not a positive number");
            r.result.costs.push_back(c.get<double>());
        }
        if (r.result.costs.empty())
            return bad("a successful result without costs");
        r.result.allCost = j["all_cost"];
        r.result.timestamp = record::unixNow();
    } else {
        r.result = record::failedResult(status, j["error_msg"].get<std::string>(), j["all_cost"].get<double>());
    }
    return r;
}

std::string defaultGpuRunnerPath()
{
    if (const char* env = std::getenv("TUNESCOPE_GPU_RUNNER"))
        return env;
    if (std::string found = findBesideThisProgram("tunescope-gpu-runner", { ".", "../gpu_runner", "../../gpu_runner" });
        !found.empty())
        return found;
#ifdef TS_GPU_RUNNER_BUILD_PATH
    return TS_GPU_RUNNER_BUILD_PATH;
#else
    return "tunescope-gpu-runner";
#endif
}

} // namespace ts::measure
