// NeuralCostModel's data-parallel fit (neural_model.h, "Data-parallel training"): the shard rule and the
// programs dropped on every rank. The gradients are summed in the network (neural_network.cpp).
#include "core/cost/data_parallel.h"
#include "core/cost/neural_model.h"

#include <limits>

namespace ts::cost {

void NeuralCostModel::setDataParallel(std::shared_ptr<DataParallelGroup> group)
{
    m_group = group && group->worldSize() > 1 ? std::move(group) : nullptr;
    m_network->setDataParallel(m_group);
    if (m_group)
        return;
    for (auto& [key, samples] : m_samples) // alone again: what other ranks held is not here
        std::erase_if(samples, [this](const Sample& s) {
            if (s.held)
                return false;
            --m_held;
            return true;
        });
}

Expected<void> NeuralCostModel::fitSharded(std::span<const Batch> batches)
{
    const bool transfer = m_trained; // a loaded (pre-trained) model: fine-tune it
    const DataParallelGroup& group = *m_group;
    // Per program of this fit, in order: 1 where its rank could not extract its inputs. Summed over the ranks,
    // it tells every rank which programs to drop.
    std::vector<float> failed;
    std::vector<std::pair<std::vector<Sample>*, size_t>> where; // each program's sample
    for (const Batch& b : batches) {
        const bool steps = !b.steps.empty();
        if (steps ? b.steps.size() != b.results.size() : b.states.size() != b.results.size())
            return makeError(ErrorKind::InvalidArgument, "fit: a result per state (or step list) is needed");
        if (steps && !readsStepsOnly())
            continue;
        const size_t n = b.results.size();
        const auto first = static_cast<int64_t>(failed.size());
        const int head = deviceHead(b.task, true);
        std::vector<sched::State> mine; // the states this rank holds
        if (!steps)
            for (size_t i = 0; i < n; ++i)
                if (group.holds(first + static_cast<int64_t>(i)))
                    mine.push_back(b.states[i]);
        std::vector<Expected<NeuralInput>> inputs = inputsOf(b.task, mine);
        std::vector<Sample>& samples = m_samples[b.task.key + "\n" + target::toString(b.task.target)];
        size_t k = 0;
        for (size_t i = 0; i < n; ++i) {
            const auto index = first + static_cast<int64_t>(i);
            const record::MeasureResult& result = b.results[i];
            Sample sample;
            sample.cost = result.ok() ? result.meanCost() : std::numeric_limits<double>::infinity();
            sample.held = group.holds(index);
            failed.push_back(0.0f);
            if (sample.held && steps) {
                sample.input.tokens = features::stepTokens(b.steps[i], m_settings.tokens);
            } else if (sample.held) {
                Expected<NeuralInput>& input = inputs[k++];
                if (input)
                    sample.input = std::move(input).value();
                else
                    failed.back() = 1.0f;
            }
            sample.input.device = head;
            where.emplace_back(&samples, samples.size());
            samples.push_back(std::move(sample));
            ++m_seen;
            ++m_held;
        }
    }
    TS_CHECK(m_group->allReduce(failed));
    // Drop the failed programs, from the back so that the positions still hold.
    for (size_t i = where.size(); i-- > 0;)
        if (failed[i] > 0.0f) {
            auto& [samples, position] = where[i];
            samples->erase(samples->begin() + static_cast<std::ptrdiff_t>(position));
            --m_held;
        }
    if (m_held == 0)
        return makeError(ErrorKind::InvalidArgument, m_kind + ": none of the programs gave features to train on");
    trainOnHeld(m_settings.epochs, transfer);
    if (!m_lastStats.error.empty())
        return makeError(ErrorKind::Io,
            m_kind + ": data-parallel training stopped at epoch " + std::to_string(m_lastStats.epochs + 1) + ": "
                + m_lastStats.error);
    return {};
}

} // namespace ts::cost
