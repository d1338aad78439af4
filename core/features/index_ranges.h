// Private to the features module (store_access.cpp): the ranges of one store's indices at each loop level
// around it, as the Analyzer's bound() gives them with the loops inside the level over their extents and
// the loops outside at 0 (Ansor's touched regions).
//
// Fast path, and what it assumes: each index is taken apart once into leaves joined by +, - and products
// with a constant, exactly as bound() recurses, so its range is the sum of the leaves' ranges times their
// coefficients, which is what bound()'s interval arithmetic adds up, in another order: the same while no
// partial sum reaches the Analyzer's clamp at 2^62, so a leaf term whose range could pass 2^55 (or an index
// of 64 leaves or more) sends the index to bound() as a whole. A leaf (a loop variable, or floordiv,
// floormod, min, ... of them) is bounded by the Analyzer at the start and again only at the levels of the
// loops whose variables it uses; an index's range is recomputed only at those levels too.
// features_test checks it against the Analyzer on random indices and loop nests.
#pragma once

#include "core/features/store_access.h"
#include "core/lower/arith_analyzer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace ts::features::detail {

class IndexRanges {
public:
    using Expr = ir::Expr;
    using Interval = lower::arith::Interval;
    static constexpr int64_t kExactLimit = int64_t(1) << 55; // leaf terms below it never reach the clamp (2^62)

    explicit IndexRanges(const std::vector<Loop>& loops)
        : m_loops(loops)
    {
        for (const Loop& loop : loops) // every loop at 0 until its level is reached
            m_level.bind(loop.var, 0, 0);
    }

    // Registers an index; returns its id.
    size_t add(const Expr& e)
    {
        Index index { &e, 0, static_cast<uint32_t>(m_leaves.size()), 0, true };
        decompose(e, 1, index);
        index.numLeaves = static_cast<uint32_t>(m_leaves.size()) - index.firstLeaf;
        index.exact = index.exact && index.numLeaves < 64; // so that no partial sum reaches 2^61
        loopsOf(e, index.mask, index.everyLevel); // all of e (decompose stops early when e is not exact)
        m_indices.push_back(index);
        return m_indices.size() - 1;
    }
    // Loops (by depth, below 64) whose variable index `id` uses.
    uint64_t loopMask(size_t id) const { return m_indices[id].mask; }
    // Whether index `id`'s range may change at level `depth` (it uses that loop's variable).
    bool movesAt(size_t id, size_t depth) const
    {
        const Index& index = m_indices[id];
        return index.everyLevel || depth >= 64 || (index.mask >> depth & 1) != 0;
    }
    const Expr& expr(size_t id) const { return *m_indices[id].expr; }
    size_t size() const { return m_indices.size(); }

    // Bounds every leaf and index with all loops at 0.
    void start()
    {
        for (Atom& atom : m_atoms)
            atom.range = m_level.bound(*atom.expr);
        for (Index& index : m_indices)
            index.range = compute(index);
    }
    // Loop `depth` (and the loops inside it, entered before) now runs over its extent.
    void enterLevel(size_t depth)
    {
        m_level.bind(m_loops[depth].var, 0, m_loops[depth].extent - 1);
        for (Atom& atom : m_atoms)
            if (atom.everyLevel || depth >= 64 || (atom.mask >> depth & 1) != 0)
                atom.range = m_level.bound(*atom.expr);
        for (size_t id = 0; id < m_indices.size(); ++id)
            if (movesAt(id, depth))
                m_indices[id].range = compute(m_indices[id]);
    }
    // The Analyzer's bound of index `id` at the current level.
    const Interval& bound(size_t id) const { return m_indices[id].range; }

private:
    struct Atom {
        const Expr* expr;
        uint64_t mask = 0; // loops (by depth) whose variable it uses
        bool everyLevel = false; // uses a loop at depth 64 or more
        Interval range;
    };
    struct Leaf {
        uint32_t atom;
        int64_t coef;
        int64_t limit; // the largest |range| whose term stays below kExactLimit
    };
    struct Index {
        const Expr* expr;
        int64_t constant;
        uint32_t firstLeaf, numLeaves;
        bool exact; // false: bounded by the Analyzer as a whole
        uint64_t mask = 0; // loops (by depth) whose variable it uses
        bool everyLevel = false;
        Interval range;
    };

    Interval compute(const Index& index) const
    {
        if (!index.exact)
            return m_level.bound(*index.expr);
        int64_t lo = index.constant, hi = index.constant;
        for (uint32_t l = index.firstLeaf; l < index.firstLeaf + index.numLeaves; ++l) {
            const Leaf& leaf = m_leaves[l];
            const Interval& r = m_atoms[leaf.atom].range;
            if (!r.bounded)
                return Interval::unknown();
            if (r.lo < -leaf.limit || r.lo > leaf.limit || r.hi < -leaf.limit || r.hi > leaf.limit)
                return m_level.bound(*index.expr); // could reach the clamp: the Analyzer's own order
            const int64_t x = r.lo * leaf.coef;
            const int64_t y = r.hi * leaf.coef;
            lo += std::min(x, y);
            hi += std::max(x, y);
        }
        return Interval::of(lo, hi);
    }

    // bound()'s recursion: Add and Sub add, a product with a constant (the right operand first) scales.
    void decompose(const Expr& e, int64_t coef, Index& index)
    {
        const ir::ExprNode& n = *e;
        switch (n.kind) {
        case ir::ExprKind::IntImm:
            if (std::abs(n.intValue) > kExactLimit / std::max<int64_t>(1, std::abs(coef)))
                index.exact = false;
            else
                index.constant += n.intValue * coef;
            return;
        case ir::ExprKind::Add:
        case ir::ExprKind::Sub:
            decompose(n.operands[0], coef, index);
            decompose(n.operands[1], n.kind == ir::ExprKind::Add ? coef : -coef, index);
            return;
        case ir::ExprKind::Mul: {
            const int c = n.operands[1]->kind == ir::ExprKind::IntImm ? 1
                : n.operands[0]->kind == ir::ExprKind::IntImm         ? 0
                                                                      : -1;
            if (c < 0)
                break;
            const int64_t factor = n.operands[static_cast<size_t>(c)]->intValue;
            if (std::abs(factor) > kExactLimit / std::max<int64_t>(1, std::abs(coef))) {
                index.exact = false;
                return;
            }
            decompose(n.operands[static_cast<size_t>(1 - c)], coef * factor, index);
            return;
        }
        default:
            break;
        }
        m_leaves.push_back(Leaf { atomOf(e), coef, kExactLimit / std::max<int64_t>(1, std::abs(coef)) });
    }

    uint32_t atomOf(const Expr& e)
    {
        for (uint32_t a = 0; a < m_atoms.size(); ++a)
            if (m_atoms[a].expr->get() == e.get())
                return a;
        Atom atom { &e };
        loopsOf(e, atom.mask, atom.everyLevel);
        m_atoms.push_back(atom);
        return static_cast<uint32_t>(m_atoms.size() - 1);
    }

    // The loops (by depth) whose variables e uses; everyLevel for those at depth 64 or more.
    void loopsOf(const Expr& e, uint64_t& mask, bool& everyLevel) const
    {
        ir::postOrderVisit(e, [&](const ir::ExprNode& x) {
            if (x.kind != ir::ExprKind::Var)
                return;
            for (size_t d = 0; d < m_loops.size(); ++d)
                if (m_loops[d].var.get() == &x) {
                    if (d < 64)
                        mask |= uint64_t { 1 } << d;
                    else
                        everyLevel = true;
                }
        });
    }

    const std::vector<Loop>& m_loops;
    lower::arith::Analyzer m_level; // loops inside the current level over their range, loops outside at 0
    std::vector<Atom> m_atoms;
    std::vector<Leaf> m_leaves;
    std::vector<Index> m_indices;
};

} // namespace ts::features::detail
