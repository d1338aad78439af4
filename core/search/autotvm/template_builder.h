// Private to core/search/autotvm: what the templates (template.h) share. The anchor of a fused task, reading
// a config's knob values with instantiation errors, and StepBuilder, which builds a step list while replaying
// it. The templates themselves are in template_dense.cpp (dense_pack, dense_nopack, batch_matmul) and
// template_conv.cpp (conv2d_NCHWc's and depthwise_conv2d_NCHWc's spaces, our plain NCHW and NHWC templates),
// template_nchwc.cpp (TVM's NCHWc programs); template.cpp holds the registry.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/ops/conv.h"
#include "core/schedule/state.h"
#include "core/schedule/step.h"
#include "core/search/autotvm/config_space.h"
#include "core/support/error.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ts::autotvm::detail {

// The step kinds the templates build (template_conv.cpp, template_dense.cpp, template_nchwc.cpp).
using sched::Annotation;
using sched::AnnotationStep;
using sched::CacheWriteStep;
using sched::ComputeAtStep;
using sched::ComputeInlineStep;
using sched::FuseStep;
using sched::PragmaStep;
using sched::ReorderStep;
using sched::RfactorStep;
using sched::SplitStep;

// InvalidArgument "instantiation error: <template>: <why>" (TVM's InstantiationError, status 1).
Error instantiationError(const std::string& name, const std::string& why);

// The op a template schedules (its anchor, tagged `tag`), the injective ops before it (a pad) and the
// element-wise epilogue after it (bias, residual add, activation) ending in the DAG's only output, as TVM
// fuses them into the anchor's kernel (relay's fusion: an anchor with injective producers and an
// element-wise tail).
struct Anchored {
    int anchor = -1;
    int output = -1; // == anchor when there is no epilogue
    std::vector<std::string> producers; // compute ops before the anchor (a pad), by name
    std::vector<std::string> inlined; // epilogue ops between the anchor and the output, by name

    bool fused() const { return output != anchor; }
};

// Fails (InvalidArgument, naming `name`) when the DAG has no op tagged `tag` or more than one, when it has
// other axis counts, more than one output, a second reduction, or an op after it of another shape.
Expected<Anchored> findAnchor(const std::string& name, const ir::ComputeDAG& dag, const std::string& tag,
    size_t numAxes, size_t numReduceAxes = 1);

// define_split(knob, extent, num_outputs=numOutputs) with policy "factors".
Expected<void> addFactorsSplit(ConfigSpace& space, const std::string& knob, int64_t extent, int numOutputs = 2);

Expected<void> checkIndex(const std::string& name, const ConfigSpace& space, int64_t index);

// The split knob's sizes after the first in config `index` (the inner lengths, outer to inner: [-1, a, b] ->
// {a, b}). exact: they must divide `extent` (and multiply to it with the first size when that is not -1), as
// TVM's factors policy always gives; otherwise (policies with a tail) each must only be >= 1. Anything else is
// an instantiation error naming the knob and its value.
Expected<std::vector<int64_t>> splitLengths(const std::string& name, const ConfigSpace& space, int64_t index,
    const std::string& knob, int64_t extent, bool exact = true);
// The inner factor of a two-way split knob (splitLengths' only length).
Expected<int64_t> innerFactor(const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob,
    int64_t extent, bool exact = true);
// The value of an "other" knob, as its JSON text ("true", "2").
Expected<std::string> otherValue(
    const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob);
// The permutation of a reorder knob and the annotations of an annotate knob.
Expected<std::vector<int>> reorderValue(
    const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob);
Expected<std::vector<std::string>> annotateValue(
    const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob);

// Builds a step list while replaying it, so that a step that does not apply fails at once, naming the
// template; and so that stage ids can be looked up by name as the cache and rfactor steps shift them.
class StepBuilder {
public:
    StepBuilder(std::string name, const ir::ComputeDAG& dag)
        : m_name(std::move(name))
        , m_state(sched::State::initial(dag))
    {
    }

    Expected<void> add(const sched::Step& step)
    {
        if (auto ok = m_state.apply(step); !ok)
            return instantiationError(m_name, ok.error().message);
        m_steps.push_back(step);
        return {};
    }

    const std::string& name() const { return m_name; }
    int stage(const std::string& opName) const { return m_state.stageIndex(opName); }
    std::vector<sched::Step> take() { return std::move(m_steps); }

private:
    std::string m_name;
    sched::State m_state;
    std::vector<sched::Step> m_steps;
};

// Inlines the epilogue ops between the anchor and the output (and, when asked, the anchor's producers), as
// TVM's fused kernels compute them inside the output's loop.
Expected<void> inlineFused(StepBuilder& b, const Anchored& a, bool producersToo);

// TVM's AnnotateEntity.apply on `axes` (iterator ids of `stage`, with extents `lengths`): "unroll" and "vec"
// annotate, "none" leaves the axis; unrolling an axis longer than maxUnroll is TVM's "Too large factor for
// unrolling" instantiation error.
Expected<void> applyAnnotations(StepBuilder& b, int stage, const std::vector<int>& axes,
    const std::vector<int64_t>& lengths, const std::vector<std::string>& anns, int64_t maxUnroll);

// A convolution task as TVM's args give it: data and kernel shapes (NCHW / OIHW, or NHWC / HWIO), strides,
// padding, dilation (task_args.cpp). Errors name the argument that cannot be read.
struct ConvWorkload {
    std::vector<int64_t> data;
    std::vector<int64_t> weight;
    ops::Conv2dParams params;
};
Expected<ConvWorkload> convWorkload(const std::string& name, std::string_view argsJson, bool nhwc = false);

// The templates (each a space and an apply function; template.cpp registers them under TVM's task names).
Expected<ConfigSpace> denseNopackSpace(const ir::ComputeDAG& dag);
Expected<ir::ComputeDAG> denseNopackProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index);
Expected<std::vector<sched::Step>> denseNopackApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);
Expected<ConfigSpace> densePackSpace(const ir::ComputeDAG& dag);
Expected<ir::ComputeDAG> densePackProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index);
Expected<std::vector<sched::Step>> densePackApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);
Expected<ConfigSpace> batchMatmulSpace(const ir::ComputeDAG& dag);
Expected<std::vector<sched::Step>> batchMatmulApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);
Expected<ConfigSpace> conv2dNchwcSpace(const ir::ComputeDAG& dag);
Expected<std::vector<sched::Step>> conv2dNchwcApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);
Expected<ConfigSpace> depthwiseNchwcSpace(const ir::ComputeDAG& dag);
Expected<std::vector<sched::Step>> depthwiseNchwcApply(
    const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);
// TVM's own NCHW[x]c programs (template_nchwc.cpp): the compute for a config, on data and weights blocked by
// its tile_ic / tile_oc, and the schedule on it. The spaces are conv2dNchwcSpace and depthwiseNchwcSpace.
Expected<ir::ComputeDAG> conv2dNchwcProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index);
Expected<std::vector<sched::Step>> conv2dNchwcPackedApply(
    const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);
Expected<ir::ComputeDAG> depthwiseNchwcProgram(const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index);
Expected<std::vector<sched::Step>> depthwiseNchwcPackedApply(
    const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);
Expected<ConfigSpace> conv2dNhwcSpace(const ir::ComputeDAG& dag);
Expected<std::vector<sched::Step>> conv2dNhwcApply(const ir::ComputeDAG& dag, const ConfigSpace& space, int64_t index);

} // namespace ts::autotvm::detail
