#include "core/graph/workload_registry.h"

#include "core/ops/linear.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

namespace ts::graph {

Expected<WorkloadKey> parseWorkloadKey(const std::string& text)
{
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_array() || json.empty() || !json[0].is_string())
        return makeError(ErrorKind::Parse, "workload key " + text.substr(0, 80) + " is not [\"name\", args...]");
    WorkloadKey key;
    key.name = json[0].get<std::string>();
    for (size_t i = 1; i < json.size(); ++i) {
        if (json[i].is_number_integer())
            key.args.push_back(json[i].get<int64_t>());
        else if (json[i].is_string())
            key.dtype = json[i].get<std::string>();
        else
            return makeError(ErrorKind::Parse,
                "workload key " + text.substr(0, 80) + ": argument " + std::to_string(i)
                    + " is neither an integer nor a dtype");
    }
    return key;
}

Expected<WorkloadKey> parseWorkloadSpec(const std::string& text)
{
    const size_t colon = text.find(':');
    WorkloadKey key;
    key.name = text.substr(0, colon);
    if (colon != std::string::npos)
        for (const std::string& part : split(text.substr(colon + 1), ',')) {
            TS_TRY(int64_t value, parseInt(part, "workload argument"));
            key.args.push_back(value);
        }
    return key;
}

Expected<ir::ComputeDAG> buildWorkload(const WorkloadKey& key)
{
    if (key.dtype != "float32")
        return makeError(ErrorKind::Unsupported, "workload " + key.name + ": dtype " + key.dtype + " (only float32)");
    auto need = [&](size_t n) -> Expected<void> {
        if (key.args.size() != n)
            return makeError(ErrorKind::InvalidArgument,
                "workload " + key.name + " takes " + std::to_string(n) + " arguments, got "
                    + std::to_string(key.args.size()));
        return {};
    };
    if (key.name == "matmul_add") {
        TS_CHECK(need(3));
        TS_TRY(auto tensors, ops::matmulAdd(key.args[0], key.args[1], key.args[2]));
        return ir::ComputeDAG::create(tensors);
    }
    if (key.name == "matmul") {
        TS_CHECK(need(3));
        if (key.args[0] < 1 || key.args[1] < 1 || key.args[2] < 1)
            return makeError(ErrorKind::InvalidArgument, "workload matmul: extents must be >= 1");
        ir::Tensor a = ir::placeholder("A", { key.args[0], key.args[1] });
        ir::Tensor b = ir::placeholder("B", { key.args[1], key.args[2] });
        ir::setNextAxisNames({ "i", "j" }, { "k" });
        TS_TRY(ir::Tensor c, ops::matmul(a, b));
        return ir::ComputeDAG::create({ a, b, c });
    }
    return makeError(ErrorKind::NotFound, "unknown workload '" + key.name + "' (known: matmul_add, matmul)");
}

} // namespace ts::graph
