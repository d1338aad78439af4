#include "core/ir/dag_export.h"

#include "core/support/strings.h"

#include <nlohmann/json.hpp>

namespace ts::ir {

std::string analysisSummary(const ComputeDAG& dag, int op)
{
    if (dag.op(op).isPlaceholder())
        return "input";
    const AccessAnalyzer& a = dag.access();
    std::vector<std::string> facts;
    if (a.needsMultiLevelTiling(op))
        facts.push_back("multi-level-tiling");
    if (a.isStrictInlinable(op))
        facts.push_back("strict-inlinable");
    if (!a.isSimpleAccess(op))
        facts.push_back("complex-access");
    if (a.isOutput(op))
        facts.push_back("output");
    const int fusible = a.singleElementwiseMatchedConsumer(op);
    if (fusible >= 0)
        facts.push_back("fusible-into:" + dag.op(fusible).name());
    return facts.empty() ? "-" : join(facts, " ");
}

std::string toDot(const ComputeDAG& dag, const std::string& graphName)
{
    std::string out = "digraph " + jsonQuoted(graphName) + " {\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];\n";
    for (int i = 0; i < dag.numOps(); ++i) {
        const Operation& op = dag.op(i);
        std::string label = op.name() + "\\n[" + join(op.shape(), ", ") + "]";
        if (op.isPlaceholder()) {
            out += "  n" + std::to_string(i) + " [shape=ellipse, label=\"" + label + "\"];\n";
        } else {
            std::string body = op.toString();
            std::string escaped = jsonQuoted(body);
            escaped = escaped.substr(1, escaped.size() - 2);
            out += "  n" + std::to_string(i) + " [shape=box, label=\"" + label + "\\n" + escaped + "\"];\n";
        }
    }
    for (int i = 0; i < dag.numOps(); ++i)
        for (int consumer : dag.consumers(i))
            out += "  n" + std::to_string(i) + " -> n" + std::to_string(consumer) + ";\n";
    return out + "}\n";
}

std::string toJson(const ComputeDAG& dag, int indent)
{
    using nlohmann::json;
    json root;
    root["workload_key"] = dag.workloadKey();
    root["flops"] = dag.flopCount();
    root["bytes_read"] = dag.bytesRead();
    root["bytes_written"] = dag.bytesWritten();
    json ops = json::array();
    const AccessAnalyzer& a = dag.access();
    for (int i = 0; i < dag.numOps(); ++i) {
        const Operation& op = dag.op(i);
        json o;
        o["id"] = i;
        o["name"] = op.name();
        o["kind"] = op.isPlaceholder() ? "placeholder" : "compute";
        o["tag"] = op.tag();
        o["shape"] = op.shape();
        o["dtype"] = std::string(toString(op.dtype()));
        o["inputs"] = dag.producers(i);
        o["consumers"] = dag.consumers(i);
        if (!op.isPlaceholder()) {
            json axes = json::array();
            for (const IterVar& axis : op.axes())
                axes.push_back({ { "name", axis.var->name }, { "extent", axis.extent } });
            json reduceAxes = json::array();
            for (const IterVar& axis : op.reduceAxes())
                reduceAxes.push_back({ { "name", axis.var->name }, { "extent", axis.extent } });
            o["axes"] = axes;
            o["reduce_axes"] = reduceAxes;
            o["reducer"] = std::string(toString(op.reducer()));
            o["body"] = toString(op.body());
            o["flops"] = flopCount(op);
            o["analysis"] = {
                { "is_simple_access", a.isSimpleAccess(i) },
                { "is_strict_inlinable", a.isStrictInlinable(i) },
                { "needs_multi_level_tiling", a.needsMultiLevelTiling(i) },
                { "is_output", a.isOutput(i) },
                { "elementwise_matched_consumer", a.singleElementwiseMatchedConsumer(i) },
            };
        }
        ops.push_back(std::move(o));
    }
    root["ops"] = std::move(ops);
    return root.dump(indent) + "\n";
}

} // namespace ts::ir
