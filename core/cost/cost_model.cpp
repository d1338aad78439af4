#include "core/cost/cost_model.h"

#include "core/cost/analytical_model.h"
#include "core/cost/random_model.h"
#include "core/cost/xgb_model.h"

#include <functional>

namespace ts::cost {

namespace {
    struct Registration {
        const char* kind;
        const char* description;
        std::function<std::unique_ptr<CostModel>(uint64_t seed)> make;
    };

    // The registry: one line per model, in the order the CLI lists them.
    const std::vector<Registration>& registry()
    {
        static const std::vector<Registration> table {
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

std::vector<CostModelKind> costModelKinds()
{
    std::vector<CostModelKind> kinds;
    for (const Registration& entry : registry())
        kinds.push_back({ entry.kind, entry.description });
    return kinds;
}

Expected<std::unique_ptr<CostModel>> makeCostModel(const std::string& kind, uint64_t seed)
{
    std::string known;
    for (const Registration& entry : registry()) {
        if (kind == entry.kind)
            return entry.make(seed);
        known += (known.empty() ? "" : ", ") + std::string(entry.kind);
    }
    return makeError(ErrorKind::InvalidArgument, "unknown cost model \"" + kind + "\"; the kinds are: " + known);
}

} // namespace ts::cost
