// A flat open-addressing hash map keyed by node pointer, for the Analyzer's variable ranges (arith_analyzer.h):
// binding a loop variable allocates nothing (the table grows by doubling) and a
// lookup is a multiply and a probe or two. Linear probing; erase shifts the following entries back, so
// there are no tombstones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ts::lower::arith {

template <typename Key, typename Value> class PointerMap {
public:
    Value* find(const Key* key)
    {
        if (m_size == 0)
            return nullptr;
        for (size_t i = slot(key);; i = next(i)) {
            if (m_slots[i].key == key)
                return &m_slots[i].value;
            if (m_slots[i].key == nullptr)
                return nullptr;
        }
    }
    const Value* find(const Key* key) const { return const_cast<PointerMap*>(this)->find(key); }

    void set(const Key* key, const Value& value)
    {
        if ((m_size + 1) * 4 > m_slots.size() * 3)
            grow();
        size_t i = slot(key);
        while (m_slots[i].key != nullptr && m_slots[i].key != key)
            i = next(i);
        if (m_slots[i].key == nullptr)
            ++m_size;
        m_slots[i] = Slot { key, value };
    }

    void erase(const Key* key)
    {
        if (m_size == 0)
            return;
        size_t i = slot(key);
        while (m_slots[i].key != key) {
            if (m_slots[i].key == nullptr)
                return;
            i = next(i);
        }
        // Backward-shift deletion: move up each later entry of the cluster that may sit at i.
        for (size_t j = next(i);; j = next(j)) {
            if (m_slots[j].key == nullptr)
                break;
            const size_t home = slot(m_slots[j].key);
            const bool between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (between)
                continue;
            m_slots[i] = m_slots[j];
            i = j;
        }
        m_slots[i] = Slot {};
        --m_size;
    }

    size_t size() const { return m_size; }

private:
    struct Slot {
        const Key* key = nullptr;
        Value value {};
    };

    size_t slot(const Key* key) const
    {
        const auto bits = reinterpret_cast<uintptr_t>(key);
        return static_cast<size_t>((bits >> 4) * 0x9E3779B97F4A7C15ull >> 32) & (m_slots.size() - 1);
    }
    size_t next(size_t i) const { return (i + 1) & (m_slots.size() - 1); }

    void grow()
    {
        std::vector<Slot> old = std::move(m_slots);
        m_slots.assign(old.empty() ? 32 : old.size() * 2, Slot {});
        m_size = 0;
        for (const Slot& s : old)
            if (s.key != nullptr)
                set(s.key, s.value);
    }

    std::vector<Slot> m_slots; // size a power of two, at most three quarters full
    size_t m_size = 0;
};

} // namespace ts::lower::arith
