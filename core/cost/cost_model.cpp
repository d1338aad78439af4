#include "core/cost/cost_model.h"

#include "core/cost/analytical_model.h"
#include "core/cost/random_model.h"
#include "core/cost/xgb_model.h"

#include <functional>
#include <mutex>

namespace ts::cost {

namespace {
    struct Registration {
        std::string kind;
        std::string description;
        CostModelFactory make;
    };

    std::mutex& registryMutex()
    {
        static std::mutex mutex;
        return mutex;
    }

    // The registry: one line per model, in the order the CLI lists them; registerCostModel appends.
    std::vector<Registration>& registry()
    {
        static std::vector<Registration> table {
            { "random", "uniform random scores in [0, 1) (Ansor's RandomModel); learns nothing",
                [](uint64_t seed) { return std::make_unique<RandomCostModel>(seed); } },
            { "xgb",
                "XGBoost on Ansor's 164 per-store features, pack-sum objective, retrained as data grows (Ansor's "
                "XGBModel)",
                [](uint64_t seed) { return std::make_unique<XgbCostModel>(seed); } },
            { "xgb-rank",
                "the xgb model with a pairwise rank loss per task instead of Ansor's squared error (TuneScope's)",
                [](uint64_t seed) {
                    XgbModelSettings settings;
                    settings.booster.objective = "pack-sum-rank";
                    settings.booster.numBoostRound = 200; // the rank loss keeps falling by more than 0.1% for long
                    settings.booster.earlyStoppingMinDelta = 0.005;
                    return std::make_unique<XgbCostModel>(seed, settings);
                } },
            { "analytical",
                "a roofline estimate from the per-store features (compute vs cache and memory traffic); learns "
                "nothing; also the search's optional pre-filter",
                [](uint64_t) { return std::make_unique<AnalyticalCostModel>(); } },
        };
        return table;
    }
} // namespace

void registerCostModel(CostModelKind kind, CostModelFactory make)
{
    const std::lock_guard lock(registryMutex());
    for (Registration& entry : registry())
        if (entry.kind == kind.kind) {
            entry = { std::move(kind.kind), std::move(kind.description), std::move(make) };
            return;
        }
    registry().push_back({ std::move(kind.kind), std::move(kind.description), std::move(make) });
}

std::vector<CostModelKind> costModelKinds()
{
    const std::lock_guard lock(registryMutex());
    std::vector<CostModelKind> kinds;
    for (const Registration& entry : registry())
        kinds.push_back({ entry.kind, entry.description });
    return kinds;
}

namespace {
    // The registration of `kind`, or the error naming the kinds there are. The registry's lock is held.
    Expected<const Registration*> findLocked(const std::string& kind)
    {
        std::string known;
        for (const Registration& entry : registry()) {
            if (kind == entry.kind)
                return &entry;
            known += (known.empty() ? "" : ", ") + entry.kind;
        }
        return makeError(ErrorKind::InvalidArgument, "unknown cost model \"" + kind + "\"; the kinds are: " + known);
    }
} // namespace

Expected<std::unique_ptr<CostModel>> makeCostModel(const std::string& kind, uint64_t seed)
{
    const std::lock_guard lock(registryMutex());
    TS_TRY(const Registration* entry, findLocked(kind));
    return entry->make(seed);
}

Expected<void> checkCostModelKind(const std::string& kind)
{
    const std::lock_guard lock(registryMutex());
    TS_CHECK(findLocked(kind));
    return {};
}

} // namespace ts::cost
