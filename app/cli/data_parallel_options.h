// The options of data-parallel training for `train` and `compare-models` (issue 42, part 3): --world-size N
// --rank R --rendezvous tcp://HOST:PORT [--rendezvous-timeout S]. N processes (on one machine or several) train
// the same LibTorch model, each on its shard of the training set (core/cost/neural_model.h says which), with
// gradients all-reduced by c10d/Gloo (core/cost/data_parallel.h); rank 0 hosts the rendezvous, writes the model
// and prints the metrics. Without the options, or with --world-size 1, a command runs alone, as always.
#pragma once

#include "app/cli/arguments.h"
#include "core/cost/cost_model.h"

#include <memory>
#include <string>
#include <vector>

namespace ts::cost {
class DataParallelGroup;
}

namespace ts::cli {

extern const std::vector<OptionSpec> kDataParallelOptions;

// Joins the group the options describe, for training `kinds`: null without the options or with --world-size 1.
// Errors: a bad value, a kind that is not a LibTorch model, a rendezvous that cannot be hosted or reached, or
// ranks that do not all join within --rendezvous-timeout.
Expected<std::shared_ptr<cost::DataParallelGroup>> joinDataParallel(
    const Arguments& args, const std::vector<std::string>& kinds);

// Makes `model` (a LibTorch model, as joinDataParallel checked) train with `group`; nothing for a null group.
void trainWith(cost::CostModel& model, const std::shared_ptr<cost::DataParallelGroup>& group);

// Whether this process reports (prints the metrics, writes the model): alone, or rank 0.
bool reports(const std::shared_ptr<cost::DataParallelGroup>& group);

// "rank 1 of 2" (for a rank's one-line summary).
std::string rankName(const cost::DataParallelGroup& group);

} // namespace ts::cli
