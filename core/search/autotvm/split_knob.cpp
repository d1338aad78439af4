// makeSplitKnob: SplitSpace of TVM's space.py, with the factor lists it tries (get_factors, get_pow2s and
// their union for "verbose" in CPython's set iteration order).
#include "core/search/autotvm/knob.h"

#include <algorithm>
#include <cmath>

namespace ts::autotvm {

namespace {

    // A CPython (3.7 to 3.12) set of positive ints, enough of Objects/setobject.c to iterate in the same order:
    // hash(i) == i, linear probing over 9 slots then perturbed open addressing, growth when 3/5 full, and
    // set_merge's pre-sizing and clean insertion into an empty set (what set_copy does).
    class PythonIntSet {
    public:
        PythonIntSet()
            : m_table(kMinSize, 0)
        {
        }

        void add(int64_t key)
        {
            size_t mask = m_table.size() - 1;
            size_t i = size_t(key) & mask;
            size_t perturb = size_t(key);
            while (true) {
                size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
                for (size_t j = i; j <= i + probes; ++j) {
                    if (m_table[j] == key)
                        return;
                    if (m_table[j] == 0) {
                        m_table[j] = key;
                        ++m_used;
                        if (m_used * 5 >= mask * 3) // fill == used: nothing is ever deleted here
                            resize(m_used > 50000 ? m_used * 2 : m_used * 4);
                        return;
                    }
                }
                perturb >>= kPerturbShift;
                i = (i * 5 + 1 + perturb) & mask;
            }
        }

        // set_merge(this, other): `set(a) | set(b)` is a copy of a (a merge into an empty set) merged with b.
        void merge(const PythonIntSet& other)
        {
            if (other.m_used == 0)
                return;
            size_t mask = m_table.size() - 1;
            if ((m_used + other.m_used) * 5 >= mask * 3)
                resize((m_used + other.m_used) * 2);
            if (m_used == 0) {
                if (m_table.size() == other.m_table.size()) {
                    m_table = other.m_table;
                } else {
                    for (int64_t key : other.m_table)
                        if (key != 0)
                            insertClean(key);
                }
                m_used = other.m_used;
                return;
            }
            for (int64_t key : other.m_table)
                if (key != 0)
                    add(key);
        }

        std::vector<int64_t> items() const
        {
            std::vector<int64_t> out;
            for (int64_t key : m_table)
                if (key != 0)
                    out.push_back(key);
            return out;
        }

    private:
        static constexpr size_t kMinSize = 8;
        static constexpr size_t kLinearProbes = 9;
        static constexpr size_t kPerturbShift = 5;

        void resize(size_t minUsed)
        {
            size_t size = kMinSize;
            while (size <= minUsed)
                size <<= 1;
            std::vector<int64_t> old = std::move(m_table);
            m_table.assign(size, 0);
            for (int64_t key : old)
                if (key != 0)
                    insertClean(key);
        }

        void insertClean(int64_t key)
        {
            size_t mask = m_table.size() - 1;
            size_t i = size_t(key) & mask;
            size_t perturb = size_t(key);
            while (true) {
                size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
                for (size_t j = i; j <= i + probes; ++j) {
                    if (m_table[j] == 0) {
                        m_table[j] = key;
                        return;
                    }
                }
                perturb >>= kPerturbShift;
                i = (i * 5 + 1 + perturb) & mask;
            }
        }

        std::vector<int64_t> m_table; // 0 = empty slot (keys are >= 1)
        size_t m_used = 0;
    };

    struct SplitEnumeration {
        const std::vector<int64_t>& factors;
        int64_t product;
        bool noTail;
        std::vector<int64_t> stack;
        std::vector<KnobEntity> entities;

        // SplitSpace._generate_space: stack[0] is the innermost size and varies slowest.
        void generate(size_t now)
        {
            if (now == stack.size()) {
                int64_t prod = 1;
                for (int64_t f : stack) {
                    prod *= f;
                    if (prod > product)
                        return;
                }
                if (product % prod == 0 || (!noTail && prod < product)) {
                    SplitEntity entity { { -1 } };
                    entity.size.insert(entity.size.end(), stack.rbegin(), stack.rend());
                    entities.push_back(std::move(entity));
                }
                return;
            }
            for (int64_t factor : factors) {
                stack[now] = factor;
                generate(now + 1);
            }
        }
    };

} // namespace

const char* toString(SplitPolicy policy)
{
    switch (policy) {
    case SplitPolicy::Factors:
        return "factors";
    case SplitPolicy::Power2:
        return "power2";
    case SplitPolicy::Verbose:
        return "verbose";
    case SplitPolicy::Candidate:
        return "candidate";
    }
    return "?";
}

std::vector<int64_t> splitFactors(int64_t extent)
{
    std::vector<int64_t> out;
    for (int64_t i = 1; i * i <= extent; ++i) {
        if (extent % i != 0)
            continue;
        out.push_back(i);
        if (i != extent / i)
            out.push_back(extent / i);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<int64_t> splitPow2s(int64_t extent)
{
    std::vector<int64_t> out;
    for (int64_t p = 1; p <= extent; p *= 2)
        out.push_back(p);
    return out;
}

std::vector<int64_t> verboseSplitFactors(int64_t extent)
{
    PythonIntSet divisors;
    for (int64_t f : splitFactors(extent))
        divisors.add(f);
    PythonIntSet pow2s;
    for (int64_t p : splitPow2s(extent))
        pow2s.add(p);
    PythonIntSet result;
    result.merge(divisors);
    result.merge(pow2s);
    return result.items();
}

Expected<Knob> makeSplitKnob(std::string name, int64_t extent, const SplitOptions& options)
{
    auto fail = [&](const std::string& what) {
        return makeError(ErrorKind::InvalidArgument, "split knob " + name + ": " + what);
    };
    if (options.numOutputs < 1)
        return fail("num_outputs must be >= 1, got " + std::to_string(options.numOutputs));
    std::vector<KnobEntity> entities;
    if (options.policy == SplitPolicy::Candidate) {
        for (const auto& size : options.candidate) {
            if (size.size() != size_t(options.numOutputs))
                return fail("a candidate has " + std::to_string(size.size()) + " sizes, num_outputs is "
                    + std::to_string(options.numOutputs));
            entities.push_back(SplitEntity { size });
        }
    } else {
        if (extent < 1)
            return fail("the axis extent must be >= 1, got " + std::to_string(extent));
        if (options.numOutputs < 2) // TVM's reduce over an empty stack raises
            return fail(std::string("policy ") + toString(options.policy) + " needs num_outputs >= 2");
        std::vector<int64_t> factors = options.policy == SplitPolicy::Factors ? splitFactors(extent)
            : options.policy == SplitPolicy::Power2                           ? splitPow2s(extent)
                                                                              : verboseSplitFactors(extent);
        std::erase_if(factors, [&](int64_t f) { return f > options.maxFactor; });
        bool noTail = options.noTail.value_or(options.policy == SplitPolicy::Factors);
        SplitEnumeration enumeration { factors, extent, noTail, std::vector<int64_t>(options.numOutputs - 1), {} };
        enumeration.generate(0);
        entities = std::move(enumeration.entities);
    }
    if (options.filter)
        std::erase_if(entities, [&](const KnobEntity& e) { return !options.filter(std::get<SplitEntity>(e)); });
    if (entities.empty())
        return fail(
            "no split is left (extent " + std::to_string(extent) + ", policy " + toString(options.policy) + ")");
    return Knob(std::move(name), KnobKind::Split, toString(options.policy), std::move(entities),
        options.policy == SplitPolicy::Candidate ? 0 : extent);
}

} // namespace ts::autotvm
