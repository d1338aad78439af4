// Graph layout with Graphviz `dot` (through the cgraph C API), behind a std-typed interface.
//
// Input: nodes with a size in points and directed edges. Output: each node's centre and each edge's
// spline (cubic Bezier control points), in points with y growing downwards, plus the bounding box. A GVC
// context is not thread-safe; layoutGraph() serializes calls with a mutex.
#pragma once

#include "core/support/error.h"

#include <string>
#include <vector>

namespace ts::widgets {

struct LayoutPoint {
    double x = 0.0;
    double y = 0.0;
};

struct LayoutInput {
    struct Node {
        double width = 72.0; // points
        double height = 36.0;
    };
    std::vector<Node> nodes;
    std::vector<std::pair<int, int>> edges; // (from, to) node indices
};

struct LayoutEdge {
    std::vector<LayoutPoint> bezier; // start point, then (control, control, end) triples
    bool hasArrow = false;
    LayoutPoint arrowTip; // where the arrowhead points, past the last bezier point
};

struct LayoutResult {
    std::vector<LayoutPoint> centres; // per node
    std::vector<LayoutEdge> edges; // per input edge
    double width = 0.0;
    double height = 0.0;
};

Expected<LayoutResult> layoutGraph(const LayoutInput& input);

} // namespace ts::widgets
