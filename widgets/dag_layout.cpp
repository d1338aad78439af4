#include "widgets/dag_layout.h"

#include <graphviz/gvc.h>

#include <memory>
#include <mutex>
#include <string>

namespace ts::widgets {

namespace {
    std::mutex g_gvcMutex;

    GVC_t* context()
    {
        static GVC_t* gvc = gvContext(); // lives for the process: plugins load once
        return gvc;
    }

    void setAttribute(void* object, const char* name, const std::string& value)
    {
        agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
    }

    struct GraphCloser {
        void operator()(Agraph_t* g) const { agclose(g); }
    };
} // namespace

Expected<LayoutResult> layoutGraph(const LayoutInput& input)
{
    std::lock_guard lock(g_gvcMutex);
    GVC_t* gvc = context();
    if (!gvc)
        return makeError(ErrorKind::Unsupported, "Graphviz could not create a layout context");
    char graphName[] = "dag";
    std::unique_ptr<Agraph_t, GraphCloser> graph(agopen(graphName, Agdirected, nullptr));
    setAttribute(graph.get(), "rankdir", "TB");
    setAttribute(graph.get(), "nodesep", "0.35");
    setAttribute(graph.get(), "ranksep", "0.45");
    setAttribute(graph.get(), "splines", "spline");

    std::vector<Agnode_t*> nodes;
    for (size_t i = 0; i < input.nodes.size(); ++i) {
        std::string name = "n" + std::to_string(i);
        Agnode_t* node = agnode(graph.get(), name.data(), 1);
        setAttribute(node, "shape", "box");
        setAttribute(node, "fixedsize", "true");
        setAttribute(node, "width", std::to_string(input.nodes[i].width / 72.0));
        setAttribute(node, "height", std::to_string(input.nodes[i].height / 72.0));
        nodes.push_back(node);
    }
    std::vector<Agedge_t*> edges;
    for (const auto& [from, to] : input.edges) {
        if (from < 0 || to < 0 || static_cast<size_t>(from) >= nodes.size() || static_cast<size_t>(to) >= nodes.size())
            return makeError(ErrorKind::InvalidArgument, "layout: edge refers to a missing node");
        edges.push_back(
            agedge(graph.get(), nodes[static_cast<size_t>(from)], nodes[static_cast<size_t>(to)], nullptr, 1));
    }
    if (gvLayout(gvc, graph.get(), "dot") != 0)
        return makeError(ErrorKind::Internal, "Graphviz dot layout failed");

    LayoutResult result;
    const boxf bb = GD_bb(graph.get());
    result.width = bb.UR.x - bb.LL.x;
    result.height = bb.UR.y - bb.LL.y;
    // Graphviz's y axis points up; flip it for Qt.
    auto toQt = [&](pointf p) { return LayoutPoint { p.x - bb.LL.x, bb.UR.y - p.y }; };
    for (Agnode_t* node : nodes)
        result.centres.push_back(toQt(ND_coord(node)));
    for (Agedge_t* edge : edges) {
        LayoutEdge out;
        const splines* spl = ED_spl(edge);
        if (spl && spl->size > 0) {
            const bezier& bz = spl->list[0];
            for (int k = 0; k < bz.size; ++k)
                out.bezier.push_back(toQt(bz.list[k]));
            out.hasArrow = bz.eflag != 0;
            if (out.hasArrow)
                out.arrowTip = toQt(bz.ep);
        }
        result.edges.push_back(std::move(out));
    }
    gvFreeLayout(gvc, graph.get());
    return result;
}

} // namespace ts::widgets
