#include "core/cost/neural_models.h"

#include "core/cost/cost_model.h"
#include "core/cost/neural_model.h"

#include <vector>

namespace ts::cost {

namespace {
    struct NeuralKind {
        const char* kind;
        const char* description;
        NeuralSettings settings;
    };

    NeuralSettings with(NeuralArch arch, int epochs, NeuralLoss loss = NeuralLoss::LambdaRank, bool mask = true)
    {
        NeuralSettings s;
        s.arch = arch;
        s.epochs = epochs;
        s.loss = loss;
        s.attentionMask = mask;
        return s;
    }

    // The table: one line per kind, in the order the CLI lists them.
    const std::vector<NeuralKind>& table()
    {
        static const std::vector<NeuralKind> kinds {
            { "mlp", "TenSet's MLP: per-store rows through 164-256-256, summed per program, residual layers (LibTorch)",
                with(NeuralArch::Mlp, 30) },
            { "lstm", "an LSTM over TLP's step tokens (TLP's recurrent variant; LibTorch)",
                with(NeuralArch::Lstm, 10) },
            { "tlp",
                "TLP: schedule-step tokens, MLP encoder, 8-head self-attention, residual blocks, LambdaRank "
                "(LibTorch)",
                with(NeuralArch::Tlp, 10) },
            { "tlp-mse", "TLP trained with squared error instead of LambdaRank (the loss ablation)",
                with(NeuralArch::Tlp, 10, NeuralLoss::Mse) },
            { "mtl-tlp", "MTL-TLP: the TLP backbone with one head per device, for cross-device transfer (LibTorch)",
                with(NeuralArch::MtlTlp, 10) },
            { "atformer",
                "ATFormer: coarse attention over the steps, fine attention over per-store rows, light MLP, "
                "rank loss; pre-train then transfer (LibTorch)",
                with(NeuralArch::AtFormer, 15) },
            { "atformer-nomask", "ATFormer without the padding mask (the mask ablation)",
                with(NeuralArch::AtFormer, 15, NeuralLoss::LambdaRank, false) },
            { "atformer-mse", "ATFormer trained with squared error (RMSE) instead of the rank loss",
                with(NeuralArch::AtFormer, 15, NeuralLoss::Mse) },
            { "gtuner",
                "GTuner: WL-GCN over the DAG with per-stage statistics, mean-pooled, self-attention with the "
                "per-store rows, MLP (LibTorch)",
                with(NeuralArch::GTuner, 15) },
        };
        return kinds;
    }
} // namespace

void registerNeuralModels()
{
    static const bool registered = [] {
        for (const NeuralKind& k : table()) {
            const std::string kind = k.kind;
            const NeuralSettings settings = k.settings;
            registerCostModel({ kind, k.description },
                [kind, settings](uint64_t seed) { return std::make_unique<NeuralCostModel>(kind, settings, seed); });
        }
        return true;
    }();
    (void)registered;
}

std::optional<NeuralSettings> neuralSettingsOf(const std::string& kind)
{
    for (const NeuralKind& k : table())
        if (kind == k.kind)
            return k.settings;
    return std::nullopt;
}

} // namespace ts::cost
