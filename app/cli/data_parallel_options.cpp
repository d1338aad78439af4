#include "app/cli/data_parallel_options.h"

#include "core/cost/data_parallel.h"
#include "core/cost/neural_model.h"
#include "core/cost/neural_models.h"
#include "core/support/assert.h"

#include <algorithm>
#include <cstdlib>

namespace ts::cli {

const std::vector<OptionSpec> kDataParallelOptions {
    { "world-size", "N", "train data-parallel in N processes, one per --rank (LibTorch models only; default 1)" },
    { "rank", "R", "this process's rank, 0..N-1; rank 0 hosts the rendezvous, writes the model, prints the metrics" },
    { "rendezvous", "tcp://HOST:PORT", "where rank 0 hosts the ranks' rendezvous (c10d TCPStore)" },
    { "rendezvous-timeout", "S", "seconds to wait for every rank to join (default 30)" },
};

Expected<std::shared_ptr<cost::DataParallelGroup>> joinDataParallel(
    const Arguments& args, const std::vector<std::string>& kinds)
{
    cost::DataParallel config;
    TS_TRY(const int64_t worldSize, args.intValue("world-size", 1));
    TS_TRY(const int64_t rank, args.intValue("rank", 0));
    config.worldSize = static_cast<int>(std::clamp<int64_t>(worldSize, -1, 100000));
    config.rank = static_cast<int>(std::clamp<int64_t>(rank, -1, 100000));
    config.rendezvous = args.value("rendezvous");
    if (args.has("rendezvous-timeout")) {
        const std::string text = args.value("rendezvous-timeout");
        char* end = nullptr;
        config.timeoutSeconds = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !(config.timeoutSeconds > 0.0))
            return makeError(
                ErrorKind::InvalidArgument, "--rendezvous-timeout must be a number of seconds > 0, got '" + text + "'");
    }
    if (config.worldSize > 1 && !args.has("rank"))
        return makeError(ErrorKind::InvalidArgument, "--world-size " + std::to_string(worldSize) + " needs --rank R");
    if (config.worldSize > 1 && !args.has("rendezvous"))
        return makeError(ErrorKind::InvalidArgument,
            "--world-size " + std::to_string(worldSize) + " needs --rendezvous tcp://HOST:PORT (rank 0 hosts it)");
    TS_CHECK(cost::validate(config));
    if (!config.enabled())
        return std::shared_ptr<cost::DataParallelGroup>();
    for (const std::string& kind : kinds)
        if (!cost::neuralSettingsOf(kind))
            return makeError(ErrorKind::Unsupported,
                "--world-size " + std::to_string(worldSize) + " trains the LibTorch models only (mlp, lstm, tlp, "
                    + "mtl-tlp, atformer, gtuner and their variants); '" + kind
                    + "' is not one: train it with --world-size 1");
    return cost::DataParallelGroup::connect(config);
}

void trainWith(cost::CostModel& model, const std::shared_ptr<cost::DataParallelGroup>& group)
{
    if (!group)
        return;
    auto* neural = dynamic_cast<cost::NeuralCostModel*>(&model);
    TS_ASSERT(neural != nullptr) << model.kind() << " is not a LibTorch model (joinDataParallel checks that)";
    neural->setDataParallel(group);
}

bool reports(const std::shared_ptr<cost::DataParallelGroup>& group) { return !group || group->rank() == 0; }

std::string rankName(const cost::DataParallelGroup& group)
{
    return "rank " + std::to_string(group.rank()) + " of " + std::to_string(group.worldSize());
}

} // namespace ts::cli
