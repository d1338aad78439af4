// AutoTVM templates (template.h): the registry and what the templates share (template_builder.h).
#include "core/search/autotvm/template.h"

#include "core/search/autotvm/template_builder.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

namespace ts::autotvm {

namespace detail {

    Error instantiationError(const std::string& name, const std::string& why)
    {
        return makeError(ErrorKind::InvalidArgument, "instantiation error: " + name + ": " + why);
    }

    Expected<Anchored> findAnchor(const std::string& name, const ir::ComputeDAG& dag, const std::string& tag,
        size_t numAxes, size_t numReduceAxes)
    {
        Anchored a;
        for (int i = 0; i < dag.numOps(); ++i) {
            const ir::Operation& op = dag.op(i);
            if (op.isPlaceholder() || op.tag() != tag)
                continue;
            if (a.anchor >= 0)
                return makeError(ErrorKind::InvalidArgument, name + ": the DAG has more than one " + tag + " op");
            a.anchor = i;
        }
        if (a.anchor < 0)
            return makeError(
                ErrorKind::InvalidArgument, name + ": the DAG has no " + tag + " op (tag \"" + tag + "\")");
        const ir::Operation& anchor = dag.op(a.anchor);
        if (anchor.axes().size() != numAxes || anchor.reduceAxes().size() != numReduceAxes)
            return makeError(ErrorKind::InvalidArgument,
                name + ": op " + anchor.name() + " has " + std::to_string(anchor.axes().size()) + " axes and "
                    + std::to_string(anchor.reduceAxes().size()) + " reduce axes, expected " + std::to_string(numAxes)
                    + " and " + std::to_string(numReduceAxes));
        const std::vector<int> outputs = dag.outputs();
        if (outputs.size() != 1)
            return makeError(ErrorKind::InvalidArgument,
                name + ": the DAG has " + std::to_string(outputs.size()) + " outputs; a template schedules one");
        a.output = outputs[0];
        for (int i = 0; i < dag.numOps(); ++i) {
            const ir::Operation& op = dag.op(i);
            if (op.isPlaceholder() || i == a.anchor)
                continue;
            if (!op.reduceAxes().empty())
                return makeError(ErrorKind::InvalidArgument,
                    name + ": op " + op.name() + " is a second reduction; the template fuses element-wise ops only");
            if (i < a.anchor) {
                a.producers.push_back(op.name());
                continue;
            }
            // After the anchor: element-wise over the anchor's output shape.
            bool sameShape = op.axes().size() == anchor.axes().size();
            for (size_t k = 0; sameShape && k < op.axes().size(); ++k)
                sameShape = op.axes()[k].extent == anchor.axes()[k].extent;
            if (!sameShape)
                return makeError(ErrorKind::InvalidArgument,
                    name + ": op " + op.name() + " after " + anchor.name()
                        + " does not have its shape; the template fuses element-wise epilogues only");
            if (i != a.output)
                a.inlined.push_back(op.name());
        }
        return a;
    }

    Expected<void> addFactorsSplit(ConfigSpace& space, const std::string& knob, int64_t extent, int numOutputs)
    {
        SplitOptions options;
        options.numOutputs = numOutputs;
        auto split = makeSplitKnob(knob, extent, options);
        if (!split)
            return split.error();
        return space.add(std::move(split).value());
    }

    Expected<void> checkIndex(const std::string& name, const ConfigSpace& space, int64_t index)
    {
        if (index < 0 || index >= space.size())
            return instantiationError(name,
                "config index " + std::to_string(index) + " out of range [0, " + std::to_string(space.size()) + ")");
        return {};
    }

    namespace {
        // The knob named `knob` of kind `kind` and its entity position in config `index`.
        Expected<std::pair<const Knob*, size_t>> knobAt(
            const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob, KnobKind kind)
        {
            const auto& knobs = space.knobs();
            for (size_t i = 0; i < knobs.size(); ++i) {
                if (knobs[i].name() != knob)
                    continue;
                if (knobs[i].kind() != kind)
                    return instantiationError(name, knob + " is not a " + knobCode(kind) + " knob");
                return std::make_pair(&knobs[i], space.knobIndexes(index)[i]);
            }
            const char* what = kind == KnobKind::Split ? "split knob " : "knob ";
            return instantiationError(name, std::string("the space has no ") + what + knob);
        }
    } // namespace

    Expected<std::vector<int64_t>> splitLengths(const std::string& name, const ConfigSpace& space, int64_t index,
        const std::string& knob, int64_t extent, bool exact)
    {
        TS_TRY(const auto found, knobAt(name, space, index, knob, KnobKind::Split));
        const auto& entity = std::get<SplitEntity>(found.first->entity(found.second));
        const std::string text = knob + " " + found.first->valueJson(found.second);
        if (entity.size.size() < 2)
            return instantiationError(name, text + " is not a split in two or more");
        std::vector<int64_t> lengths(entity.size.begin() + 1, entity.size.end());
        int64_t product = 1;
        for (int64_t l : lengths) {
            if (l < 1)
                return instantiationError(name, text + " has a length below 1");
            product *= l;
        }
        if (!exact)
            return lengths;
        if (extent % product != 0)
            return instantiationError(name, text + " does not divide the extent " + std::to_string(extent));
        const int64_t outer = entity.size[0];
        if (outer != -1 && outer * product != extent)
            return instantiationError(name,
                text + " has product " + std::to_string(outer * product) + ", not the extent "
                    + std::to_string(extent));
        return lengths;
    }

    Expected<int64_t> innerFactor(const std::string& name, const ConfigSpace& space, int64_t index,
        const std::string& knob, int64_t extent, bool exact)
    {
        TS_TRY(const auto found, knobAt(name, space, index, knob, KnobKind::Split));
        if (std::get<SplitEntity>(found.first->entity(found.second)).size.size() != 2)
            return instantiationError(
                name, knob + " " + found.first->valueJson(found.second) + " is not a two-way split");
        TS_TRY(const std::vector<int64_t> lengths, splitLengths(name, space, index, knob, extent, exact));
        return lengths[0];
    }

    Expected<std::string> otherValue(
        const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob)
    {
        TS_TRY(const auto found, knobAt(name, space, index, knob, KnobKind::Other));
        return found.first->valueJson(found.second);
    }

    Expected<std::vector<int>> reorderValue(
        const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob)
    {
        TS_TRY(const auto found, knobAt(name, space, index, knob, KnobKind::Reorder));
        return std::get<ReorderEntity>(found.first->entity(found.second)).perm;
    }

    Expected<std::vector<std::string>> annotateValue(
        const std::string& name, const ConfigSpace& space, int64_t index, const std::string& knob)
    {
        TS_TRY(const auto found, knobAt(name, space, index, knob, KnobKind::Annotate));
        return std::get<AnnotateEntity>(found.first->entity(found.second)).anns;
    }

    Expected<void> inlineFused(StepBuilder& b, const Anchored& a, bool producersToo)
    {
        for (const std::string& op : a.inlined)
            TS_CHECK(b.add(sched::ComputeInlineStep { b.stage(op) }));
        if (producersToo)
            for (const std::string& op : a.producers)
                TS_CHECK(b.add(sched::ComputeInlineStep { b.stage(op) }));
        return {};
    }

    Expected<void> applyAnnotations(StepBuilder& b, int stage, const std::vector<int>& axes,
        const std::vector<int64_t>& lengths, const std::vector<std::string>& anns, int64_t maxUnroll)
    {
        if (anns.size() != axes.size())
            return instantiationError(
                b.name(), std::to_string(anns.size()) + " annotations for " + std::to_string(axes.size()) + " axes");
        for (size_t i = 0; i < axes.size(); ++i) {
            if (anns[i] == "none")
                continue;
            if (anns[i] == "unroll") {
                if (lengths[i] > maxUnroll)
                    return instantiationError(b.name(),
                        "too large factor for unrolling: " + std::to_string(lengths[i]) + " > "
                            + std::to_string(maxUnroll));
                TS_CHECK(b.add(sched::AnnotationStep { stage, axes[i], sched::Annotation::Unroll }));
            } else if (anns[i] == "vec") {
                TS_CHECK(b.add(sched::AnnotationStep { stage, axes[i], sched::Annotation::Vectorize }));
            } else {
                return instantiationError(b.name(), "annotation \"" + anns[i] + "\" is not built on CPU");
            }
        }
        return {};
    }

} // namespace detail

const std::vector<Template>& templates()
{
    static const std::vector<Template> all {
        // TVM's x86 dense strategy prefers dense_pack (plevel 10) to dense_nopack (plevel 5); TuneScope puts
        // dense_nopack first: the races of docs/autotvm-vs-ansor.md were run with dense_nopack, when our dense_pack
        // read the plain weight with stride K (it computes on TVM's packed weight since issue 39; the two have not
        // been raced against each other since).
        { "dense_nopack.x86", "dense", detail::denseNopackSpace, detail::denseNopackApply, detail::denseNopackProgram },
        { "dense_pack.x86", "dense", detail::densePackSpace, detail::densePackApply, detail::densePackProgram },
        { "batch_matmul.x86", "batch_matmul", detail::batchMatmulSpace, detail::batchMatmulApply },
        { "conv2d_NCHWc.x86", "conv2d_nchw", detail::conv2dNchwcSpace, detail::conv2dNchwcPackedApply,
            detail::conv2dNchwcProgram },
        { "depthwise_conv2d_NCHWc.x86", "depthwise_conv2d_nchw", detail::depthwiseNchwcSpace,
            detail::depthwiseNchwcPackedApply, detail::depthwiseNchwcProgram },
        // TuneScope's own templates (template_conv.cpp): NHWC (TVM has no AutoTVM template for it on x86), and
        // the plain NCHW variants of the two NCHWc templates above.
        { "conv2d_nhwc_spatial_pack.tunescope", "conv2d_nhwc", detail::conv2dNhwcSpace, detail::conv2dNhwcApply,
            nullptr, true },
        { "conv2d_nchw_blocked.tunescope", "conv2d_nchw", detail::conv2dNchwcSpace, detail::conv2dNchwcApply, nullptr,
            true },
        { "depthwise_conv2d_nchw_blocked.tunescope", "depthwise_conv2d_nchw", detail::depthwiseNchwcSpace,
            detail::depthwiseNchwcApply, nullptr, true },
    };
    return all;
}

Expected<Instance> instantiate(
    const Template& t, const ir::ComputeDAG& taskDag, const ConfigSpace& space, int64_t index)
{
    Instance out { taskDag, {} };
    if (t.program) {
        TS_TRY(out.dag, t.program(taskDag, space, index));
    }
    TS_TRY(out.steps, t.apply(out.dag, space, index));
    return out;
}

std::string_view currentTemplateName(std::string_view name)
{
    // conv2d_nhwc.x86 (until issue 39): a relay strategy name of TVM's, never an AutoTVM template (template_conv.cpp).
    static const std::pair<std::string_view, std::string_view> kFormer[] {
        { "conv2d_nhwc.x86", "conv2d_nhwc_spatial_pack.tunescope" },
    };
    for (const auto& [former, current] : kFormer)
        if (name == former)
            return current;
    return name;
}

Expected<ir::ComputeDAG> recordDag(const ir::ComputeDAG& taskDag, std::string_view extra)
{
    const nlohmann::json j = nlohmann::json::parse(extra, nullptr, false);
    if (!j.is_object() || !j.contains("autotvm") || !j["autotvm"].is_object())
        return taskDag;
    const std::string name = j["autotvm"].value("template", "");
    const Template* t = findTemplate(currentTemplateName(name));
    if (t == nullptr)
        return makeError(
            ErrorKind::NotFound, "record of AutoTVM template '" + name + "', which TuneScope does not have");
    if (!t->program)
        return taskDag;
    TS_TRY(const ConfigSpace space, t->space(taskDag));
    const nlohmann::json& config = j["autotvm"].value("config", nlohmann::json::object());
    int64_t index = -1;
    if (config.is_object() && config.contains("entity")) {
        TS_TRY(index, space.parseEntity(config["entity"].dump()));
    } else if (config.is_object() && config.contains("index") && config["index"].is_number_integer()) {
        index = config["index"].get<int64_t>();
    } else {
        return makeError(ErrorKind::InvalidArgument, name + " record: its extra has no config");
    }
    return t->program(taskDag, space, index);
}

const Template* findTemplate(std::string_view name)
{
    for (const Template& t : templates())
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace ts::autotvm
