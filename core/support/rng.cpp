#include "core/support/rng.h"

#include "core/support/assert.h"

#include <cmath>
#include <numbers>

namespace ts {

namespace {
    uint64_t splitMix64(uint64_t& x)
    {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
} // namespace

Rng::Rng(uint64_t seed)
{
    for (uint64_t& word : m_state)
        word = splitMix64(seed);
}

uint64_t Rng::next()
{
    const uint64_t result = rotl(m_state[1] * 5, 7) * 9;
    const uint64_t t = m_state[1] << 17;
    m_state[2] ^= m_state[0];
    m_state[3] ^= m_state[1];
    m_state[1] ^= m_state[2];
    m_state[0] ^= m_state[3];
    m_state[2] ^= t;
    m_state[3] = rotl(m_state[3], 45);
    return result;
}

int64_t Rng::uniformInt(int64_t lo, int64_t hi)
{
    TS_ASSERT(lo <= hi) << "empty range [" << lo << ", " << hi << "]";
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    if (span == 0) // the whole 64-bit range
        return static_cast<int64_t>(next());
    // Rejection sampling removes the modulo bias.
    const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t r;
    do {
        r = next();
    } while (r >= limit);
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + r % span);
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Rng::normal(double mean, double stddev)
{
    double u1 = uniform();
    while (u1 <= 0.0)
        u1 = uniform();
    const double u2 = uniform();
    return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

size_t Rng::weightedChoice(const std::vector<double>& weights)
{
    double total = 0.0;
    for (double w : weights) {
        TS_ASSERT(w >= 0.0) << "negative weight " << w;
        total += w;
    }
    TS_ASSERT(total > 0.0) << "all weights are zero";
    double x = uniform() * total;
    for (size_t i = 0; i < weights.size(); ++i) {
        if (x < weights[i])
            return i;
        x -= weights[i];
    }
    for (size_t i = weights.size(); i-- > 0;)
        if (weights[i] > 0.0)
            return i;
    return 0;
}

void Rng::setState(const std::array<uint64_t, 4>& state)
{
    TS_ASSERT(state[0] != 0 || state[1] != 0 || state[2] != 0 || state[3] != 0) << "all-zero xoshiro state";
    for (size_t i = 0; i < 4; ++i)
        m_state[i] = state[i];
}

Rng Rng::fork() { return Rng(next() ^ 0x5851f42d4c957f2dULL); }

void fillRandomInputValues(float* data, int64_t size, uint64_t seed, int ordinal)
{
    Rng rng(seed);
    Rng stream = rng.fork();
    for (int k = 0; k < ordinal; ++k)
        stream = rng.fork();
    for (int64_t k = 0; k < size; ++k)
        data[k] = static_cast<float>(stream.uniform(-1.0, 1.0));
}

} // namespace ts
