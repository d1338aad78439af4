#include "core/search/task_policy.h"

#include "core/search/autotvm_policy.h"
#include "core/search/sketch_policy.h"
#include "core/support/assert.h"

namespace ts::search {

namespace {
    Expected<std::unique_ptr<TaskPolicy>> makeSketchPolicy(PolicyKind kind, PolicyContext c)
    {
        if (c.model == nullptr)
            return makeError(ErrorKind::InvalidArgument, std::string(toString(kind)) + " needs a cost model");
        return std::unique_ptr<TaskPolicy>(
            std::make_unique<SketchPolicy>(std::move(c.task), kind, std::move(c.params), *c.model, c.seed, c.pool));
    }

    Expected<std::unique_ptr<TaskPolicy>> makeAutotvm(PolicyKind kind, PolicyContext c)
    {
        if (c.task.target.isGpu())
            return makeError(ErrorKind::Unsupported,
                "AutoTVM's templates here are its x86 CPU templates; tune a GPU target with the ansor or random "
                "policy");
        TS_TRY(std::unique_ptr<AutotvmPolicy> policy, AutotvmPolicy::make(kind, std::move(c)));
        return std::unique_ptr<TaskPolicy>(std::move(policy));
    }

    template <PolicyKind Kind> Expected<std::unique_ptr<TaskPolicy>> sketchFactory(PolicyContext c)
    {
        return makeSketchPolicy(Kind, std::move(c));
    }
    template <PolicyKind Kind> Expected<std::unique_ptr<TaskPolicy>> autotvmFactory(PolicyContext c)
    {
        return makeAutotvm(Kind, std::move(c));
    }
} // namespace

const std::vector<PolicyInfo>& policies()
{
    static const std::vector<PolicyInfo> all {
        { PolicyKind::Ansor, "ansor", "ansor", "Ansor: sketches, evolutionary search ranked by the cost model",
            sketchFactory<PolicyKind::Ansor> },
        { PolicyKind::Random, "random", "ansor", "random annotations of Ansor's sketches (the baseline)",
            sketchFactory<PolicyKind::Random> },
        { PolicyKind::AutotvmXgb, "autotvm-xgb", "autotvm",
            "AutoTVM: a template's configs, XGBoost model + simulated annealing",
            autotvmFactory<PolicyKind::AutotvmXgb> },
        { PolicyKind::AutotvmGa, "autotvm-ga", "autotvm", "AutoTVM: a template's configs, genetic algorithm",
            autotvmFactory<PolicyKind::AutotvmGa> },
        { PolicyKind::AutotvmRandom, "autotvm-random", "autotvm", "AutoTVM: a template's configs, uniformly at random",
            autotvmFactory<PolicyKind::AutotvmRandom> },
        { PolicyKind::AutotvmGrid, "autotvm-grid", "autotvm", "AutoTVM: a template's configs in index order",
            autotvmFactory<PolicyKind::AutotvmGrid> },
    };
    return all;
}

const PolicyInfo& policyInfo(PolicyKind kind)
{
    for (const PolicyInfo& info : policies())
        if (info.kind == kind)
            return info;
    TS_ASSERT(false) << "PolicyKind " << static_cast<int>(kind) << " has no registry entry";
    return policies().front();
}

const char* toString(PolicyKind kind) { return policyInfo(kind).name; }

bool isAutotvm(PolicyKind kind) { return std::string_view(policyInfo(kind).family) == "autotvm"; }

Expected<PolicyKind> policyKindFromString(const std::string& text)
{
    std::string names;
    for (const PolicyInfo& info : policies()) {
        if (text == info.name)
            return info.kind;
        names += (names.empty() ? "" : ", ") + std::string(info.name);
    }
    return makeError(ErrorKind::InvalidArgument, "unknown policy '" + text + "' (policies: " + names + ")");
}

Expected<std::unique_ptr<TaskPolicy>> makeTaskPolicy(PolicyKind kind, PolicyContext context)
{
    return policyInfo(kind).make(std::move(context));
}

Expected<void> policySupports(PolicyKind kind, const ir::ComputeDAG& dag, const target::Target& target)
{
    if (!isAutotvm(kind))
        return {};
    PolicyContext probe;
    probe.task.dag = dag;
    probe.task.target = target;
    probe.task.flops = dag.flopCount();
    TS_CHECK(makeTaskPolicy(kind, std::move(probe)));
    return {};
}

} // namespace ts::search
