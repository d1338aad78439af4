// Seeded random numbers that are identical on every platform and standard library.
//
// std::uniform_int_distribution and friends are implementation-defined, so a session seed would not
// reproduce a search across compilers. Rng uses SplitMix64 to seed xoshiro256** and derives every
// distribution itself. One Rng per worker; fork() derives independent child streams deterministically.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ts {

// The values a kernel's input `ordinal` (its placeholder's position) gets for `seed`: uniform in [-1, 1),
// drawn from the seed's ordinal-th forked stream. ir::fillRandomInput and tunescope-gpu-runner (which links
// nothing but core/support) both fill inputs with it, so a GPU sees the inputs the host's reference saw.
void fillRandomInputValues(float* data, int64_t size, uint64_t seed, int ordinal);

class Rng {
public:
    explicit Rng(uint64_t seed = 0);

    uint64_t next();
    // Uniform integer in [lo, hi] (inclusive), unbiased.
    int64_t uniformInt(int64_t lo, int64_t hi);
    // Uniform double in [0, 1).
    double uniform();
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    // Standard normal (Box-Muller, one value per call).
    double normal(double mean = 0.0, double stddev = 1.0);
    bool bernoulli(double p) { return uniform() < p; }
    // Index drawn with probability proportional to weights (all >= 0, at least one > 0).
    size_t weightedChoice(const std::vector<double>& weights);
    // A child generator whose stream is independent of this one's continuation.
    Rng fork();

    // The generator's position, to save with a session and set again on resume: after setState(s) the
    // stream continues exactly where the Rng that gave s was. An all-zero state is xoshiro's one fixed point
    // and is rejected (TS_ASSERT); state() never returns it.
    std::array<uint64_t, 4> state() const { return { m_state[0], m_state[1], m_state[2], m_state[3] }; }
    void setState(const std::array<uint64_t, 4>& state);

    template <typename T> void shuffle(std::vector<T>& values)
    {
        for (size_t i = values.size(); i > 1; --i) {
            size_t j = static_cast<size_t>(uniformInt(0, static_cast<int64_t>(i - 1)));
            std::swap(values[i - 1], values[j]);
        }
    }

private:
    uint64_t m_state[4];
};

} // namespace ts
