// The LibTorch cost models' kinds (neural_model.h): registerNeuralModels() adds them to the cost-model registry
// (cost_model.h). Programs that offer them (the CLI, the workbench) call it once at start; everything else
// links without LibTorch.
#pragma once

#include "core/cost/neural_network.h"

#include <optional>
#include <string>

namespace ts::cost {

// Adds mlp, lstm, tlp, tlp-mse, mtl-tlp, atformer, atformer-nomask, atformer-mse and gtuner. Idempotent.
void registerNeuralModels();

// The settings a registered neural kind starts from; none for another kind.
std::optional<NeuralSettings> neuralSettingsOf(const std::string& kind);

} // namespace ts::cost
