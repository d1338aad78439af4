// 200 random programs of ResNet-18's 3x3 conv2d (task 2: 64 -> 64 channels, 56x56, + bias + ReLU), measured on
// an AMD Zen 4 host with the cache flushed (tests/data/resnet18-task2-zen4.jsonl: each line the steps and the
// mean cost in seconds), replayed on the task's DAG: what the cost-model tests learn from.
#pragma once

#include "core/cost/cost_model.h"
#include "core/schedule/step_json.h"
#include "core/store/schedule_source.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace ts::testing {

struct Measured {
    ir::ComputeDAG dag;
    std::vector<sched::State> states;
    std::vector<record::MeasureResult> results;
};

inline const Measured& measured()
{
    static const Measured m = [] {
        Measured out;
        const graph::TaskSet set = store::loadNetworkTasks({ "resnet-18", 1, ops::Layout::NCHW }).value();
        out.dag = set.tasks[2].dag;
        std::ifstream in(std::string(TS_TEST_DATA_DIR) + "/resnet18-task2-zen4.jsonl");
        std::string line;
        while (std::getline(in, line)) {
            const auto j = nlohmann::json::parse(line);
            auto steps = sched::parseSteps(j["steps"].dump());
            auto state = sched::State::replay(out.dag, steps.value());
            if (!state)
                continue;
            record::MeasureResult r;
            r.status = record::MeasureStatus::Ok;
            r.costs = { j["cost"].get<double>() };
            out.states.push_back(std::move(state).value());
            out.results.push_back(r);
        }
        return out;
    }();
    return m;
}

inline cost::CostTask taskOf(const Measured& m) { return { &m.dag, m.dag.workloadKey(), m.dag.flopCount() }; }

} // namespace ts::testing
