#include "core/lower/lower.h"

#include "core/lower/bound_inference.h"
#include "core/lower/gpu_kernels.h"

namespace ts::lower {

Expected<LoweredFunc> lower(const sched::State& state, const LowerOptions& options)
{
    TS_CHECK(state.checkFilled()); // a sketch (unfilled split lengths) has no loops to lower yet
    TS_TRY(LoweredFunc func, scheduleOps(state, options.target));
    func.name = options.functionName;
    auto after = [&](const char* pass) {
        if (options.onPass)
            options.onPass(pass, func);
    };
    after("scheduleOps");
    func.body = simplify(func.body);
    after("simplify");
    if (options.layoutRewrite < 0 || options.layoutRewrite > 2)
        return makeError(ErrorKind::InvalidArgument,
            "layout_rewrite_option must be 0, 1 or 2, got " + std::to_string(options.layoutRewrite));
    if (options.layoutRewrite > 0 && !options.target.isGpu()) {
        func = rewriteLayout(func, state, options.layoutRewrite == 2);
        after("rewriteLayout");
    }
    func.body = hoistGuards(func.body);
    after("hoistGuards");
    func.body = partitionTails(func.body);
    after("partitionTails");
    func.body = unrollLoops(func.body);
    after("unrollLoops");
    func = flattenStorage(func);
    after("flattenStorage");
    if (options.target.isGpu()) {
        func.body = injectVirtualThreads(func.body);
        after("injectVirtualThreads");
    }
    func.body = simplify(func.body);
    if (func.setup)
        func.setup = simplify(func.setup);
    after("simplify");
    if (options.target.isGpu())
        TS_CHECK(gpuKernels(func, options.target)); // the device's limits: an instantiation error, not a crash
    return func;
}

Expected<sched::State> inferBound(const sched::State& state)
{
    TS_CHECK(state.checkFilled());
    TS_TRY(const Bounds bounds, inferBounds(state));
    sched::State out = state;
    for (int s = 0; s < out.numStages(); ++s)
        if (!out.stage(s).isPlaceholder())
            out.setIteratorExtents(s, bounds[s].iterExtents);
    return out;
}

} // namespace ts::lower
