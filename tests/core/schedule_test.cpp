#include "core/ops/linear.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/schedule/step_printer.h"
#include "core/lower/lower.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace ts;

namespace {
ir::ComputeDAG matmulAddDag(int64_t n)
{
    auto tensors = ops::matmulAdd(n, n, n);
    return ir::ComputeDAG::create(tensors.value());
}

std::vector<sched::Step> tvmRecordSteps()
{
    const char* text = R"([["SP", 2, 0, 1024, [2, 1, 4], 1], ["SP", 2, 4, 1024, [1, 1, 8], 1], ["SP", 2, 8, 1024, [4], 1], ["RE", 2, [0, 4, 1, 5, 8, 2, 6, 9, 3, 7]], ["FSP", 4, 0, 0, 2], ["FSP", 4, 3, 1, 2], ["RE", 4, [0, 3, 1, 4, 2, 5]], ["CA", 2, 4, 3], ["FU", 4, [0, 1]], ["AN", 4, 0, 3], ["PR", 2, 0, "auto_unroll_max_step$8"], ["AN", 2, 9, 2], ["AN", 4, 4, 2]])";
    return sched::parseSteps(text).value();
}
} // namespace

TEST(Schedule, ReplaysTvmMatmulRecord)
{
    const ir::ComputeDAG dag = matmulAddDag(1024);
    auto state = sched::State::replay(dag, tvmRecordSteps());
    ASSERT_TRUE(state) << state.error().message;
    auto bound = lower::inferBound(*state);
    ASSERT_TRUE(bound) << bound.error().message;
    std::cout << bound->toString() << "\n";
    std::cout << sched::printStepsAsCalls(dag, tvmRecordSteps());
    auto func = lower::lower(*state);
    ASSERT_TRUE(func) << func.error().message;
    std::cout << lower::toString(*func);
}
