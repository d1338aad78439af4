// AutoTVM templates on TuneScope's ComputeDAG: a template declares a ConfigSpace for a DAG and turns one
// config of it into a step list (sched::Step), so an AutoTVM config replays, lowers, compiles and is measured
// exactly like an Ansor state (State::replay -> lower -> codegen -> measure).
//
// Re-created from TVM's topi x86 schedules (v0.13.0, checked against v0.19.0: python/tvm/topi/x86/dense.py,
// batch_matmul.py, conv2d.py, conv2d_avx_common.py, conv2d_avx_1x1.py, depthwise_conv2d.py), with TVM's task
// names and knob names, order and policies, so a config index or entity from a TVM log means the same config here:
//   dense_pack.x86 and dense_nopack.x86 (dense), batch_matmul.x86, conv2d_NCHWc.x86 (conv2d NCHW),
//   depthwise_conv2d_NCHWc.x86 (depthwise NCHW, multiplier 1).
// Each builds the program TVM's template builds for a config. Where TVM's compute depends on the config, the
// template has a program of its own, a DAG per config (Template::program): conv2d_NCHWc.x86 and
// depthwise_conv2d_NCHWc.x86 compute in the NCHW[x]c layout on data and weights packed outside the task
// (template_nchwc.cpp); dense_pack.x86 on the weight packed by tile_x's inner size; dense_nopack.x86 through a
// partial sum as wide as tile_k's inner size (template_dense.cpp). batch_matmul.x86 schedules the plain
// batch_matmul of core/ops, TVM's compute. A task with a fused epilogue is tuned, as TVM tunes it, on the anchor
// alone where the program is the template's own; batch_matmul.x86 keeps the epilogue, as TVM's schedule does.
// TuneScope's own templates carry names ending in ".tunescope" (ownVariant): conv2d_nhwc_spatial_pack.tunescope
// (conv2d NHWC: TVM has no AutoTVM template for it on x86, where "conv2d_nhwc.x86" is a strategy without knobs;
// ours takes the knobs of TVM's arm_cpu spatial-pack NHWC template; it was registered as conv2d_nhwc.x86 until
// issue 39), and the earlier variants of the NCHWc templates, which keep the plain NCHW DAG and block it with
// splits (the oc block is then not contiguous, so they vectorise output columns): conv2d_nchw_blocked.tunescope
// and depthwise_conv2d_nchw_blocked.tunescope. Each template's comment (template_dense.cpp, template_conv.cpp,
// template_nchwc.cpp) says how it differs from TVM's.
//
// Fused tasks: every template takes a DAG whose anchor op (the tagged op) is followed by an element-wise
// chain to the single output (bias, residual add, activation) and preceded by injective producers (the pad).
// The epilogue's intermediates are inlined and the output is tiled like the anchor with the anchor computed
// at it, as TVM's `C != O` branches do; the pad is inlined (dense, batch_matmul have none) or kept at root,
// parallel, as TVM's convolution schedules keep their data_vec / data_pad.
//
// Errors: space() fails with InvalidArgument when the DAG is not the template's workload (no such op, or
// more than one output). apply() fails with InvalidArgument "instantiation error: ..." for an index outside
// the space or a config the template cannot instantiate for this DAG (a split whose sizes do not match the
// axis extent, a space declared for another shape); that is TVM's InstantiationError, recorded as
// measurement status 1, never run.
//
// How to add a template:
//   1. a space function declaring the knobs as TVM's compute/schedule does (same names, order, policies);
//   2. an apply function that builds the steps (and, when TVM's compute depends on the config, a program
//      function that builds that compute: apply then receives its DAG) with StepBuilder (template_builder.h): it
//      applies each step to a State as it goes, so a step that does not fit fails with the template and the step named;
//   3. a comment above it listing what differs from TVM's schedule;
//   4. an entry in templates() (template.cpp) under TVM's task name, in TVM's x86 strategy's preference order;
//   5. its args both ways in task_args.cpp (taskArgs, dagFromTaskArgs);
//   6. in autotvm_template_test: the space size for a known shape, the sampled configs computing the
//      reference result with and without an epilogue, and the args round trip.
#pragma once

#include "core/ir/compute_dag.h"
#include "core/schedule/step.h"
#include "core/search/autotvm/config_space.h"
#include "core/support/error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::autotvm {

struct Template {
    std::string name; // TVM's task name, e.g. "dense_nopack.x86"
    std::string opTag; // the tag of the DAG op it schedules (core/ops): "dense", "batch_matmul"
    // The space of a task's DAG.
    std::function<Expected<ConfigSpace>(const ir::ComputeDAG&)> space;
    // The steps of a config, on the program's DAG (below).
    std::function<Expected<std::vector<sched::Step>>(const ir::ComputeDAG&, const ConfigSpace&, int64_t index)> apply;
    // The compute a config's program runs, when it is not the task's DAG: TVM's conv2d_NCHWc and
    // depthwise_conv2d_NCHWc compute on data and weights already blocked by the config's tile_ic / tile_oc (as
    // TVM's tuner measures them, the packing outside the task), so each config has a DAG of its own. Empty: the
    // task's DAG.
    std::function<Expected<ir::ComputeDAG>(const ir::ComputeDAG& taskDag, const ConfigSpace&, int64_t index)> program;
    // A template of TuneScope's own (not a TVM template; its name ends in ".tunescope"): found by name; task
    // extraction offers it only for a DAG that no TVM template fits (the NHWC convolution).
    bool ownVariant = false;
};

// One config of a template made concrete: the DAG its steps replay on, and the steps.
struct Instance {
    ir::ComputeDAG dag;
    std::vector<sched::Step> steps;
};
// Template::program (or the task's DAG) and Template::apply on it. Errors are apply's instantiation errors.
Expected<Instance> instantiate(
    const Template& t, const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index);

// The DAG a stored record's steps replay on: for an AutoTVM record of a template with a program of its own
// (its extra's {"autotvm": {"template", "config"}}), that config's program; the task's DAG otherwise. Errors
// name the template or the config that cannot be read.
Expected<ir::ComputeDAG> recordDag(const ir::ComputeDAG& taskDag, std::string_view extra);

// The name a template has now for a name it carried before, as records stored earlier name it
// ("conv2d_nhwc.x86" -> "conv2d_nhwc_spatial_pack.tunescope"); any other name unchanged. recordDag reads it;
// findTemplate does not, so a TVM log's record under such a name is not taken for a TVM template.
std::string_view currentTemplateName(std::string_view name);

// Every template, in registration order.
const std::vector<Template>& templates();
// The template named `name`, or nullptr.
const Template* findTemplate(std::string_view name);

// AutoTVM's task extraction for one DAG: TVM's templates whose anchor op it has and whose space() fits it (the
// epilogue element-wise, one output), in preference order (registration order, TVM's x86 strategy's, except
// dense_nopack before dense_pack; see template.cpp); when none fits, our own templates that do (NHWC convolutions:
// conv2d_nhwc_spatial_pack.tunescope).
std::vector<const Template*> templatesFor(const ir::ComputeDAG& dag);

// TVM's task args for the DAG's anchor, as a log's "input"[2] spells them (Python's json spacing), e.g. for
// conv2d_NCHWc.x86 [["TENSOR", [1, 3, 224, 224], "float32"], ["TENSOR", [64, 3, 7, 7], "float32"], [2, 2],
// [3, 3, 3, 3], [1, 1], "NCHW", "NCHW", "float32"]; dense: [data, weight, null, "float32"]; our NHWC template as
// TVM's spatial-pack NHWC task: [data, kernel, strides, padding, dilation, "float32"]. A conv's stride comes from its
// shapes, its padding is split evenly (odd totals: the extra row at the bottom / right) and its dilation is taken as 1,
// which holds for every model-zoo convolution (task_args.cpp).
Expected<std::string> taskArgs(const Template& t, const ir::ComputeDAG& dag);
// The reverse, for replaying a TVM log's record: the anchor op alone (no epilogue), built with core/ops from
// the task's args. Errors name the argument that cannot be read (count, shapes, layout, dtype).
Expected<ir::ComputeDAG> dagFromTaskArgs(std::string_view templateName, std::string_view argsJson);

} // namespace ts::autotvm
