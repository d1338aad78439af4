// BERT encoder layers (Devlin et al.), post-layer-norm, exact GELU, on [batch * sequence, hidden] activations.
#include "core/graph/models/models.h"

#include <cmath>

namespace ts::graph::models {

Graph bert(const std::string& name, int64_t batch, int64_t sequence, int64_t layers, int64_t hidden, int64_t heads,
    int64_t intermediate)
{
    Graph g(name, ops::Layout::NCHW, batch);
    const int64_t tokens = batch * sequence;
    const int64_t headDim = hidden / heads;
    int x = g.input("hidden_states", { tokens, hidden });

    // [tokens, hidden] -> [batch * heads, sequence, headDim]
    auto splitHeads = [&](int t) {
        int r = g.reshape(t, { batch, sequence, heads, headDim });
        r = g.transpose(r, { 0, 2, 1, 3 });
        return g.reshape(r, { batch * heads, sequence, headDim });
    };
    for (int64_t layer = 0; layer < layers; ++layer) {
        int q = splitHeads(g.biasAdd(g.dense(x, hidden, "query")));
        int k = splitHeads(g.biasAdd(g.dense(x, hidden, "key")));
        int v = splitHeads(g.biasAdd(g.dense(x, hidden, "value")));
        int scores = g.scale(g.batchMatmul(q, k, true, "attention_scores"), 1.0 / std::sqrt(double(headDim)));
        int probs = g.softmax(scores);
        int context = g.batchMatmul(probs, v, false, "attention_context");
        context = g.reshape(context, { batch, heads, sequence, headDim });
        context = g.transpose(context, { 0, 2, 1, 3 });
        context = g.reshape(context, { tokens, hidden });
        int attention = g.add(g.biasAdd(g.dense(context, hidden, "attention_output")), x);
        attention = g.layerNorm(attention);
        int ffn = g.gelu(g.biasAdd(g.dense(attention, intermediate, "intermediate")));
        ffn = g.add(g.biasAdd(g.dense(ffn, hidden, "output")), attention);
        x = g.layerNorm(ffn);
    }
    return g;
}

} // namespace ts::graph::models
