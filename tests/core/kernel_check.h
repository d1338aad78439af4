// For codegen tests: compile a state in this process, run it once and compare every output with the
// reference evaluator (every output up to `wholeFlops` of work, 512 sampled outputs above).
#pragma once

#include "core/codegen/codegen.h"
#include "core/lower/lower.h"
#include "core/measure/kernel_buffers.h"
#include "core/measure/reference.h"
#include "core/schedule/step_json.h"

#include <gtest/gtest.h>

namespace ts::testing {

// Compiles and runs `state` once and compares its outputs with a reference computed before (one reference
// serves every schedule of the same DAG).
inline void expectMatches(const measure::Reference& reference, const sched::State& state, const std::string& what = "",
    const target::Target& target = target::Target::host(), const lower::LowerOptions& options = {})
{
    auto func = lower::lower(state, options);
    ASSERT_TRUE(func) << what << ": " << func.error().message;
    auto kernel = codegen::compile(*func, target);
    ASSERT_TRUE(kernel) << what << ": " << kernel.error().message << "\n" << lower::toString(*func);
    std::vector<int64_t> elements;
    for (const ir::BufferRef& arg : func->args)
        elements.push_back(arg->allocatedElements());
    measure::KernelBuffers buffers(elements, func->numInputs, 11);
    (*kernel)->runSetup(buffers.args());
    (*kernel)->run(buffers.args());
    std::vector<std::string> names;
    std::vector<std::vector<float>> outputs;
    for (size_t i = static_cast<size_t>(func->numInputs); i < func->args.size(); ++i) {
        names.push_back(func->args[i]->name);
        outputs.emplace_back(buffers.data(i), buffers.data(i) + buffers.elements(i));
    }
    auto wrong = measure::compareWithReference(reference, names, outputs, 1e-4, 1e-4);
    EXPECT_FALSE(wrong) << what << ": " << *wrong << "\n"
                        << sched::stepsToText(state.steps()) << "\n"
                        << lower::toString(*func);
}

inline void expectMatchesReference(const ir::ComputeDAG& dag, const sched::State& state, const std::string& what = "",
    const target::Target& target = target::Target::host(), double wholeFlops = 1e9)
{
    auto reference = measure::computeReference(dag, 11, 512, wholeFlops);
    ASSERT_TRUE(reference) << reference.error().message;
    expectMatches(*reference, state, what, target);
}

} // namespace ts::testing
