// RooflinePlot: measured kernels against the machine's limits, log-log. The roofs are the machine profile's
// (measure/machine_profile.h): for each thread count, DRAM bandwidth x intensity up to the ridge, then the FMA
// peak; on the most threads, dotted, the L2's and L3's bandwidth up to their ridges (a task whose compulsory traffic
// fits a level is bounded by that level's roof). Points are kernels at their arithmetic intensity (FLOP per byte of
// compulsory traffic) and achieved GFLOP/s: the selected task's records as a column (every schedule of one task has the
// same compulsory traffic; better schedules climb towards the roof), its best as a star, and the best of the network's
// other tasks as grey diamonds. Hovering a point names it. GUI thread.
#pragma once

#include "core/measure/machine_profile.h"
#include "widgets/qcustomplot_shim.h"

#include <optional>
#include <vector>

namespace ts::widgets {

class RooflinePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit RooflinePlot(QWidget* parent = nullptr);

    struct Point {
        double intensity = 0; // FLOP per byte
        double gflops = 0;
        int64_t recordId = 0;
        int task = -1; // the task's id in its network
        bool selectedTask = false; // one of the selected task's records
        bool best = false; // the best record of its task
        double bytes = 0; // its task's compulsory traffic: the memory level whose roof bounds it
    };

    // Draws the roofs of `profile` for 1..its thread counts (none: no roofs, only points) and the points.
    void setData(std::optional<measure::MachineProfile> profile, std::vector<Point> points);
    const std::vector<Point>& points() const { return m_points; }
    const std::optional<measure::MachineProfile>& profile() const { return m_profile; }
    // Graphs drawn for the roofs (one per thread count) and for the cache levels' roofs (the L2's and L3's on the
    // most threads, where measured), for tests.
    int roofCount() const { return m_roofs; }
    int cacheRoofCount() const { return m_cacheRoofs; }

protected:
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    std::optional<measure::MachineProfile> m_profile;
    std::vector<Point> m_points;
    int m_roofs = 0;
    int m_cacheRoofs = 0;
};

} // namespace ts::widgets
