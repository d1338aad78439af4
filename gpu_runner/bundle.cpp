#include "gpu_runner/bundle.h"

#include "core/support/strings.h"

#include <cmath>
#include <cstdio>

namespace ts::gpurunner {

namespace {
    Error fieldError(const std::string& field, const std::string& why)
    {
        return makeError(ErrorKind::InvalidArgument, "bundle field \"" + field + "\": " + why);
    }

    Expected<const Json*> member(const Json& object, const std::string& key, Json::Kind kind, bool required = true)
    {
        const Json* v = object.find(key);
        if (!v) {
            if (required)
                return fieldError(key, "missing");
            return static_cast<const Json*>(nullptr);
        }
        if (v->kind != kind)
            return fieldError(key, "has the wrong type");
        return v;
    }

    Expected<int64_t> integer(const Json& v, const std::string& field, int64_t lo, int64_t hi)
    {
        if (v.kind != Json::Kind::Number || std::floor(v.number) != v.number || v.number < static_cast<double>(lo)
            || v.number > static_cast<double>(hi))
            return fieldError(field, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return static_cast<int64_t>(v.number);
    }

    Expected<std::array<unsigned, 3>> dims(const Json& v, const std::string& field)
    {
        if (v.kind != Json::Kind::Array || v.array.size() != 3)
            return fieldError(field, "must be [x, y, z]");
        std::array<unsigned, 3> out {};
        for (size_t d = 0; d < 3; ++d) {
            TS_TRY(const int64_t x, integer(v.array[d], field, 1, 2147483647));
            out[d] = static_cast<unsigned>(x);
        }
        return out;
    }

    std::string number(double x)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", x);
        return text;
    }
} // namespace

Expected<Bundle> parseBundle(std::string_view line)
{
    TS_TRY(const Json doc, parseJson(line));
    if (doc.kind != Json::Kind::Object)
        return makeError(ErrorKind::InvalidArgument, "a bundle must be a JSON object");
    Bundle b;
    TS_TRY(const Json* version, member(doc, "version", Json::Kind::Number));
    if (version->number != kBundleVersion)
        return fieldError("version",
            "is " + number(version->number) + "; this runner reads version " + std::to_string(kBundleVersion));
    TS_TRY(const Json* id, member(doc, "id", Json::Kind::String));
    b.id = id->string;
    TS_TRY(const Json* record, member(doc, "record", Json::Kind::String, false));
    if (record)
        b.record = record->string;
    TS_TRY(const Json* ptx, member(doc, "ptx", Json::Kind::String, false));
    TS_TRY(const Json* source, member(doc, "source", Json::Kind::String, false));
    if (!ptx && !source)
        return fieldError("ptx", "missing, and so is \"source\": a bundle carries PTX or CUDA C");
    if (ptx)
        b.ptx = ptx->string;
    if (source)
        b.source = source->string;

    TS_TRY(const Json* kernels, member(doc, "kernels", Json::Kind::Array));
    if (kernels->array.empty())
        return fieldError("kernels", "is empty");
    for (const Json& k : kernels->array) {
        BundleKernel kernel;
        TS_TRY(const Json* name, member(k, "name", Json::Kind::String));
        kernel.name = name->string;
        TS_TRY(const Json* grid, member(k, "grid", Json::Kind::Array));
        TS_TRY(kernel.grid, dims(*grid, "grid"));
        TS_TRY(const Json* block, member(k, "block", Json::Kind::Array));
        TS_TRY(kernel.block, dims(*block, "block"));
        b.kernels.push_back(std::move(kernel));
    }
    TS_TRY(const Json* buffers, member(doc, "buffers", Json::Kind::Array));
    for (const Json& x : buffers->array) {
        BundleBuffer buffer;
        TS_TRY(const Json* name, member(x, "name", Json::Kind::String));
        buffer.name = name->string;
        TS_TRY(const Json* elements, member(x, "elements", Json::Kind::Number));
        TS_TRY(buffer.elements, integer(*elements, "elements", 1, int64_t(1) << 34));
        TS_TRY(const Json* role, member(x, "role", Json::Kind::String));
        if (role->string != "input" && role->string != "output" && role->string != "workspace")
            return fieldError("role", "must be input, output or workspace, not " + role->string);
        buffer.role = role->string;
        TS_TRY(const Json* dtype, member(x, "dtype", Json::Kind::String));
        if (dtype->string != "float32")
            return fieldError("dtype", dtype->string + " buffers are not run yet (float32 only)");
        b.buffers.push_back(std::move(buffer));
    }
    TS_TRY(const Json* seed, member(doc, "seed", Json::Kind::Number));
    TS_TRY(const int64_t s, integer(*seed, "seed", 0, int64_t(1) << 53));
    b.seed = static_cast<uint64_t>(s);
    TS_TRY(const Json* expected, member(doc, "expected", Json::Kind::Array));
    for (const Json& e : expected->array) {
        ExpectedValues values;
        TS_TRY(const Json* buffer, member(e, "buffer", Json::Kind::Number));
        TS_TRY(const int64_t index, integer(*buffer, "buffer", 0, static_cast<int64_t>(b.buffers.size()) - 1));
        values.buffer = static_cast<int>(index);
        if (b.buffers[static_cast<size_t>(index)].role != "output")
            return fieldError("expected", "buffer " + std::to_string(index) + " is not an output");
        TS_TRY(const Json* offsets, member(e, "offsets", Json::Kind::Array));
        TS_TRY(const Json* vals, member(e, "values", Json::Kind::Array));
        if (offsets->array.size() != vals->array.size())
            return fieldError("expected", "offsets and values differ in length");
        for (size_t i = 0; i < offsets->array.size(); ++i) {
            TS_TRY(const int64_t offset,
                integer(offsets->array[i], "offsets", 0, b.buffers[static_cast<size_t>(index)].elements - 1));
            if (vals->array[i].kind != Json::Kind::Number)
                return fieldError("values", "must be numbers");
            values.offsets.push_back(offset);
            values.values.push_back(static_cast<float>(vals->array[i].number));
        }
        b.expected.push_back(std::move(values));
    }
    if (const Json* rtol = doc.find("rtol"); rtol && rtol->kind == Json::Kind::Number)
        b.rtol = rtol->number;
    if (const Json* atol = doc.find("atol"); atol && atol->kind == Json::Kind::Number)
        b.atol = atol->number;
    TS_TRY(const Json* timing, member(doc, "timing", Json::Kind::Object, false));
    if (timing) {
        struct Field {
            const char* name;
            int* out;
            int lo, hi;
        };
        for (const Field& f : { Field { "warmup", &b.timing.warmup, 0, 100 },
                 Field { "number", &b.timing.number, 1, 1000000 }, Field { "repeat", &b.timing.repeat, 1, 1000 },
                 Field { "min_repeat_ms", &b.timing.minRepeatMs, 0, 60000 },
                 Field { "timeout_ms", &b.timing.timeoutMs, 1, 3600000 } })
            if (const Json* v = timing->find(f.name)) {
                TS_TRY(const int64_t x, integer(*v, f.name, f.lo, f.hi));
                *f.out = static_cast<int>(x);
            }
        if (const Json* flush = timing->find("flush_l2"); flush && flush->kind == Json::Kind::Bool)
            b.timing.flushL2 = flush->boolean;
    }
    return b;
}

std::string toJsonLine(const RunResult& r)
{
    std::string line = "{\"id\": " + jsonQuoted(r.id) + ", \"record\": " + jsonQuoted(r.record) + ", \"costs\": [";
    for (size_t i = 0; i < r.costs.size(); ++i)
        line += (i ? ", " : "") + number(r.costs[i]);
    line += "], \"error_no\": " + std::to_string(static_cast<int>(r.error))
        + ", \"error_msg\": " + jsonQuoted(r.message) + ", \"all_cost\": " + number(r.allCost)
        + ", \"device\": " + jsonQuoted(r.device) + "}";
    return line;
}

} // namespace ts::gpurunner
