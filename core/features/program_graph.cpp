#include "core/features/program_graph.h"

#include <algorithm>
#include <cmath>

namespace ts::features {

namespace {
    float log2p1(double x) { return static_cast<float>(std::log2(1.0 + std::max(0.0, x))); }
} // namespace

const std::vector<std::string>& nodeFeatureNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out { "op.placeholder", "op.compute", "op.reduction" };
        for (int d = 0; d < 6; ++d)
            out.push_back("shape" + std::to_string(d));
        for (const char* name :
            { "elements", "spatial_axes", "reduce_axes", "reduce_extent", "reducer.sum", "reducer.max_min",
                "simple_access", "strict_inlinable", "needs_multi_level_tiling", "output", "consumers", "producers" })
            out.push_back(name);
        for (const std::string& name : perStoreFeatureNames())
            out.push_back("stats." + name);
        return out;
    }();
    return names;
}

ProgramGraph programGraph(const ir::ComputeDAG& dag, const ProgramFeatures* rows)
{
    ProgramGraph graph;
    graph.nodes = dag.numOps();
    graph.x.assign(static_cast<size_t>(graph.nodes) * kNodeFeatures, 0.0f);
    const ir::AccessAnalyzer& access = dag.access();
    for (int i = 0; i < graph.nodes; ++i) {
        const ir::Operation& op = dag.op(i);
        float* x = graph.x.data() + static_cast<size_t>(i) * kNodeFeatures;
        const bool reduces = !op.reduceAxes().empty();
        x[op.isPlaceholder() ? 0 : reduces ? 2 : 1] = 1.0f;
        const auto& shape = op.shape();
        for (size_t d = 0; d < shape.size() && d < 6; ++d)
            x[3 + d] = log2p1(static_cast<double>(shape[d]));
        x[9] = log2p1(static_cast<double>(op.numElements()));
        if (!op.isPlaceholder()) {
            x[10] = static_cast<float>(op.axes().size());
            x[11] = static_cast<float>(op.reduceAxes().size());
            double reduceExtent = 1.0;
            for (const ir::IterVar& axis : op.reduceAxes())
                reduceExtent *= static_cast<double>(axis.extent);
            x[12] = reduces ? log2p1(reduceExtent) : 0.0f;
            x[13] = op.reducer() == ir::Reducer::Sum ? 1.0f : 0.0f;
            x[14] = op.reducer() == ir::Reducer::Max || op.reducer() == ir::Reducer::Min ? 1.0f : 0.0f;
            x[15] = access.isSimpleAccess(i) ? 1.0f : 0.0f;
            x[16] = access.isStrictInlinable(i) ? 1.0f : 0.0f;
            x[17] = access.needsMultiLevelTiling(i) ? 1.0f : 0.0f;
            x[18] = access.isOutput(i) ? 1.0f : 0.0f;
        }
        x[19] = log2p1(static_cast<double>(dag.consumers(i).size()));
        x[20] = log2p1(static_cast<double>(dag.producers(i).size()));
        for (int p : dag.producers(i))
            graph.edges.emplace_back(p, i);
        if (!rows)
            continue;
        for (int r = 0; r < rows->rows(); ++r) {
            const std::string& buffer = rows->rowBuffers[static_cast<size_t>(r)];
            if (buffer != op.name() && !buffer.starts_with(op.name() + "."))
                continue;
            const auto row = rows->row(r);
            for (int c = 0; c < kPerStoreFeatures; ++c)
                x[kNodeStatic + c] += row[static_cast<size_t>(c)];
        }
    }
    return graph;
}

} // namespace ts::features
