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
#pragma once

#include "core/ir/expr.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ts::lower::arith {

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
    void unbind(const ir::Expr& v);

    Interval bound(const ir::Expr& e) const;
    ir::Expr simplify(const ir::Expr& e) const;
    // True when `condition` holds for every value of the bound vars (false when unknown).
    bool canProve(const ir::Expr& condition) const;

    // Integer expression as a linear form (atoms simplified).
    Linear linear(const ir::Expr& e) const;
    static ir::Expr fromLinear(const Linear& form);

private:
    ir::Expr simplifyNode(const ir::Expr& e) const;
    std::unordered_map<const ir::ExprNode*, Interval> m_ranges;
};

} // namespace ts::lower::arith
