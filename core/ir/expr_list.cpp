// ExprList: Expr operands kept in place up to kInline (expr.h).
#include "core/ir/expr.h"

#include <new>

namespace ts::ir {

ExprList::ExprList(std::initializer_list<Expr> values)
{
    reserve(values.size());
    for (const Expr& v : values)
        new (data() + m_size++) Expr(v);
}

ExprList::ExprList(const std::vector<Expr>& values)
{
    reserve(values.size());
    for (const Expr& v : values)
        new (data() + m_size++) Expr(v);
}

ExprList::ExprList(std::vector<Expr>&& values) { assignMoved(values.begin(), values.size()); }

ExprList::ExprList(const ExprList& other)
{
    reserve(other.size());
    for (const Expr& v : other)
        new (data() + m_size++) Expr(v);
}

ExprList::ExprList(ExprList&& other) noexcept { takeFrom(other); }

// Into an empty list: other's heap block, or its elements moved one by one; other is left empty.
void ExprList::takeFrom(ExprList& other) noexcept
{
    if (other.m_heap) {
        m_heap = other.m_heap;
        m_size = other.m_size;
        m_capacity = other.m_capacity;
        other.m_heap = nullptr;
        other.m_size = 0;
        other.m_capacity = kInline;
        return;
    }
    Expr* from = other.data();
    for (uint32_t i = 0; i < other.m_size; ++i)
        new (data() + m_size++) Expr(std::move(from[i]));
    other.clear();
}

ExprList& ExprList::operator=(const ExprList& other)
{
    if (this != &other) {
        clear();
        reserve(other.size());
        for (const Expr& v : other)
            new (data() + m_size++) Expr(v);
    }
    return *this;
}

ExprList& ExprList::operator=(ExprList&& other) noexcept
{
    if (this != &other) {
        release();
        takeFrom(other);
    }
    return *this;
}

template <typename It> void ExprList::assignMoved(It first, size_t count)
{
    reserve(count);
    for (size_t i = 0; i < count; ++i, ++first)
        new (data() + m_size++) Expr(std::move(*first));
}

void ExprList::reserve(size_t capacity)
{
    if (capacity <= m_capacity)
        return;
    auto* grown = static_cast<Expr*>(::operator new(capacity * sizeof(Expr)));
    Expr* old = data();
    for (uint32_t i = 0; i < m_size; ++i) {
        new (grown + i) Expr(std::move(old[i]));
        old[i].~Expr();
    }
    if (m_heap)
        ::operator delete(m_heap);
    m_heap = grown;
    m_capacity = static_cast<uint32_t>(capacity);
}

void ExprList::push_back(Expr value)
{
    if (m_size == m_capacity)
        reserve(size_t { m_capacity } * 2);
    new (data() + m_size++) Expr(std::move(value));
}

void ExprList::clear()
{
    Expr* d = data();
    for (uint32_t i = 0; i < m_size; ++i)
        d[i].~Expr();
    m_size = 0;
}

void ExprList::release()
{
    clear();
    if (m_heap) {
        ::operator delete(m_heap);
        m_heap = nullptr;
    }
    m_capacity = kInline;
}

} // namespace ts::ir
