#include "core/measure/reference.h"

#include "core/ir/reference_evaluator.h"
#include "core/support/rng.h"
#include "core/support/strings.h"

#include <cmath>

namespace ts::measure {

Expected<Reference> computeReference(const ir::ComputeDAG& dag, uint64_t seed, int samples, double wholeFlops)
{
    const std::vector<ir::Buffer> inputs = ir::randomInputs(dag, seed);
    Reference reference;
    const bool whole = dag.flopCount() <= wholeFlops;
    std::vector<ir::Buffer> all;
    if (whole) {
        TS_TRY(auto evaluated, ir::evaluate(dag, inputs));
        all = std::move(evaluated);
    }
    Rng rng(seed ^ 0x5eed);
    for (int stage : dag.outputs()) {
        const ir::Operation& op = dag.op(stage);
        reference.outputs.push_back(op.name());
        std::vector<int64_t> offsets;
        if (whole || op.numElements() <= samples) {
            for (int64_t i = 0; i < op.numElements(); ++i)
                offsets.push_back(i);
        } else {
            // Both corners and a random sample in between.
            offsets = { 0, op.numElements() - 1 };
            while (static_cast<int>(offsets.size()) < samples)
                offsets.push_back(rng.uniformInt(0, op.numElements() - 1));
        }
        std::vector<float> values;
        if (whole) {
            const ir::Buffer& out = all[static_cast<size_t>(stage)];
            values.assign(out.data(), out.data() + out.size());
        } else {
            TS_TRY(auto sampled, ir::evaluateAt(dag, inputs, stage, offsets));
            values = std::move(sampled);
        }
        reference.offsets.push_back(std::move(offsets));
        reference.values.push_back(std::move(values));
    }
    return reference;
}

std::optional<std::string> compareWithReference(const Reference& reference, const std::vector<std::string>& names,
    const std::vector<std::vector<float>>& outputs, double rtol, double atol)
{
    if (names.size() != reference.outputs.size() || outputs.size() != names.size())
        return "the kernel has " + std::to_string(outputs.size()) + " outputs, the task "
            + std::to_string(reference.outputs.size());
    for (size_t r = 0; r < reference.outputs.size(); ++r) {
        size_t k = 0;
        while (k < names.size() && names[k] != reference.outputs[r])
            ++k;
        if (k == names.size())
            return "the kernel does not write output " + reference.outputs[r];
        const std::vector<float>& got = outputs[k];
        for (size_t i = 0; i < reference.offsets[r].size(); ++i) {
            const int64_t offset = reference.offsets[r][i];
            if (offset >= static_cast<int64_t>(got.size()))
                return "output " + names[k] + " is too small";
            const double a = got[static_cast<size_t>(offset)];
            const double b = reference.values[r][i];
            if (!(std::fabs(a - b) <= atol + rtol * std::fabs(b)))
                return "wrong answer: " + names[k] + "[" + std::to_string(offset) + "] = " + formatFixed(a, 6)
                    + ", expected " + formatFixed(b, 6);
        }
    }
    return std::nullopt;
}

} // namespace ts::measure
