// Arithmetic analysis (ts::lower::arith, TVM's arith::Analyzer: the parts lowering needs). Not to be confused
// with ir/access_analyzer, which says how compute ops read tensors.
//
// Integer analysis for lowering: the value range of an index expression given the ranges of the loop
// variables in scope, and a simplifier that folds constants, cancels terms and removes floordiv/floormod
// whose operand range makes them trivial (TVM's arith::Analyzer, the parts lowering needs).
//
// Index expressions are normalized to a linear form: constant + sum of coef * atom, where an atom is a var
// or an expression that is not linear (floordiv, floormod, a product of vars, min/max). Atoms compare by
// structure, so i.0*8 + i.1 - (i.0*8) simplifies to i.1.
//
// Speed (lowering simplifies every index of every candidate the search scores): an integer sum is
// simplified as one region (arith_simplify_linear.cpp): the forms of its inner sums are combined on a
// per-thread stack of borrowed terms (arith_form.h) instead of being built as expressions and taken apart
// again, and a result structurally equal to its input is the input itself, so simplifying an already simple
// expression allocates nothing. The results are the same expressions, term for term, as the plain
// bottom-up rewrite gives (arith_analyzer_test checks both on random indices).
#pragma once

#include "core/ir/expr.h"
#include "core/lower/pointer_map.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ts::lower::arith {

namespace detail {
    struct FormStack;
    struct Simplified;
} // namespace detail

struct Interval {
    int64_t lo = 0;
    int64_t hi = 0;
    bool bounded = false; // false: nothing known
    static Interval point(int64_t v) { return { v, v, true }; }
    static Interval of(int64_t lo, int64_t hi) { return { lo, hi, true }; }
    static Interval unknown() { return {}; }
};

struct LinearTerm {
    ir::Expr atom;
    int64_t coef = 0;
};

struct Linear {
    int64_t constant = 0;
    std::vector<LinearTerm> terms;
    // Coefficient of a var that appears only as an atom; `pure` false when it also appears inside an atom.
    int64_t coefficientOf(const ir::ExprNode* var, bool* pure) const;
};

class Analyzer {
public:
    // Loop variable v takes values in [lo, hi].
    void bind(const ir::Expr& v, int64_t lo, int64_t hi);
    // v stands for `value` (TVM's Analyzer::Bind with an expression): simplify(e) is simplify(substitute(e,
    // v -> value)) and bound(v) is bound(value); value must not use v. How the simplify pass drops a loop of
    // extent one.
    void bindValue(const ir::Expr& v, ir::Expr value);
    // Forgets v's range and value.
    void unbind(const ir::Expr& v);

    Interval bound(const ir::Expr& e) const;
    // bound(e * c), without building the product.
    Interval boundScaled(const ir::Expr& e, int64_t c) const;
    ir::Expr simplify(const ir::Expr& e) const;
    // True when `condition` holds for every value of the bound vars (false when unknown).
    bool canProve(const ir::Expr& condition) const;

    // floordiv(c*a + b, d) -> floordiv(a, d/c) and floormod(c*a + b, d) -> floormod(a, d/c)*c + b wherever c
    // divides d and b provably lies in [0, c): an index fused from (a, b) and split again at a multiple of
    // b's extent (TVM's rewrite rule), e.g. floormod(t*2 + v, 32) -> floormod(t, 16)*2 + v for v in [0, 2).
    // Kept out of simplify() (whose forms it would change everywhere); the CUDA code generator applies it
    // so that cooperative fetches show their contiguous, vectorizable accesses.
    ir::Expr splitFusedDivMod(const ir::Expr& e) const;

    // Integer expression as a linear form (atoms simplified).
    Linear linear(const ir::Expr& e) const;
    static ir::Expr fromLinear(const Linear& form);

private:
    ir::Expr simplifyNode(const ir::Expr& e) const;
    // arith_simplify_linear.cpp: integer +, -, * (simplifyLinear), floordiv and floormod by a constant.
    ir::Expr simplifyLinear(const ir::Expr& e) const;
    detail::Simplified simplifyToForm(const ir::Expr& e, detail::FormStack& st) const;
    detail::Simplified operandForm(const ir::Expr& e, detail::FormStack& st) const;
    ir::Expr simplifyDivMod(const ir::Expr& e, int64_t divisor) const;
    Interval boundOfDifference(const ir::Expr& a, const ir::Expr& b) const;
    const ir::Expr* valueOf(const ir::ExprNode* v) const;
    bool hasValues() const { return !m_values.empty(); }

    PointerMap<ir::ExprNode, Interval> m_ranges;
    std::vector<std::pair<const ir::ExprNode*, ir::Expr>> m_values; // bindValue's, few at a time
};

} // namespace ts::lower::arith
