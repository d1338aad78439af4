#include "core/cost/random_model.h"

#include "core/cost/byte_io.h"

#include <algorithm>
#include <array>
#include <string>

namespace ts::cost {

namespace {
    // Layout of save(): the magic, a version byte, then the four Rng words and the record count, each
    // 8 bytes little-endian. 45 bytes in all.
    constexpr std::array<uint8_t, 4> kMagic { 'T', 'S', 'R', 'M' };
    constexpr uint8_t kVersion = 1;
    constexpr size_t kSavedSize = kMagic.size() + 1 + 5 * 8;
} // namespace

RandomCostModel::RandomCostModel(uint64_t seed)
    : m_seed(seed)
    , m_rng(seed)
{
}

std::string RandomCostModel::settings() const { return "{\"seed\":" + std::to_string(m_seed) + "}"; }

Expected<void> RandomCostModel::update(
    const CostTask& task, std::span<const sched::State> states, std::span<const record::MeasureResult> results)
{
    (void)task;
    if (states.size() != results.size())
        return makeError(ErrorKind::InvalidArgument,
            "random cost model: update got " + std::to_string(states.size()) + " states and "
                + std::to_string(results.size()) + " results; they must pair up");
    m_trainedOn += static_cast<int64_t>(results.size());
    return {};
}

std::vector<double> RandomCostModel::predict(const CostTask& task, std::span<const sched::State> states)
{
    (void)task;
    std::vector<double> scores;
    scores.reserve(states.size());
    for (size_t i = 0; i < states.size(); ++i)
        scores.push_back(m_rng.uniform());
    return scores;
}

Expected<std::vector<uint8_t>> RandomCostModel::save() const
{
    std::vector<uint8_t> bytes(kMagic.begin(), kMagic.end());
    bytes.push_back(kVersion);
    for (uint64_t word : m_rng.state())
        le::put(bytes, word);
    le::put(bytes, static_cast<uint64_t>(m_trainedOn));
    return bytes;
}

Expected<void> RandomCostModel::load(std::span<const uint8_t> bytes)
{
    if (bytes.size() != kSavedSize)
        return makeError(ErrorKind::Parse,
            "random cost model: saved weights are " + std::to_string(bytes.size()) + " bytes, expected "
                + std::to_string(kSavedSize));
    if (!std::equal(kMagic.begin(), kMagic.end(), bytes.begin()))
        return makeError(ErrorKind::Parse, "random cost model: saved weights do not start with \"TSRM\"");
    if (bytes[kMagic.size()] != kVersion)
        return makeError(ErrorKind::Parse,
            "random cost model: saved weights have version " + std::to_string(bytes[kMagic.size()]) + ", expected "
                + std::to_string(kVersion));
    std::array<uint64_t, 4> state {};
    size_t offset = kMagic.size() + 1;
    for (uint64_t& word : state) {
        word = le::get(bytes, offset);
        offset += 8;
    }
    if (state == std::array<uint64_t, 4> {})
        return makeError(ErrorKind::Parse, "random cost model: saved RNG state is all zero");
    const auto trainedOn = static_cast<int64_t>(le::get(bytes, offset));
    if (trainedOn < 0)
        return makeError(ErrorKind::Parse, "random cost model: saved record count is negative");
    m_rng.setState(state);
    m_trainedOn = trainedOn;
    return {};
}

} // namespace ts::cost
