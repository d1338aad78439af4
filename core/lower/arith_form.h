// Private to the arith analyzer (arith_analyzer.cpp, arith_form.cpp, arith_simplify_linear.cpp): linear forms
// without allocation. Linear and LinearTerm (arith_analyzer.h) own their atoms; these borrow them.
//
// A form is a range of one per-thread stack of terms, each `coef * *atom`, plus a constant the caller keeps.
// The atoms are borrowed: each points at an Expr handle inside a tree that outlives the form (the
// expression being analysed, whose operands never move, or an Expr parked on the thread's keep-alive list).
// Forms nest as the recursion does: a callee pushes its form on top and the caller merges it into its own
// range below and pops it; every function leaves the stack and the keep-alive list as high as it found
// them plus what it says it pushed. One stack per thread, so analyzers on different threads never share.
//
// Each function here reproduces, term for term and in the same order, what the Linear-based code it
// replaced computed (Analyzer::linear, addTerm, dropZeros, mergeDivMod, fromLinear), so simplified
// expressions are unchanged.
#pragma once

#include "core/ir/expr.h"
#include "core/lower/arith_analyzer.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ts::lower::arith::detail {

struct Term {
    const ir::Expr* atom;
    int64_t coef;
};

struct FormStack {
    std::vector<Term> terms;
    std::deque<ir::Expr> keep; // expressions built while forms point into them; popped with the forms

    // The calling thread's stack.
    static FormStack& local();
    size_t size() const { return terms.size(); }
    // Parks e and returns a handle that stays put until the keep-alive list is cut below it.
    const ir::Expr* park(ir::Expr e);
};

// What Analyzer::simplifyToForm leaves: the form of simplify(e) on the stack, as a parent's linear() sees it.
struct Simplified {
    int64_t constant = 0;
    const ir::Expr* expr = nullptr; // simplify(e) when it is not buildForm of the form (a product of two non-constants)
    bool linearAtom = false; // mergeDivModForm merged an atom that a parent's linear() would take apart
};

// Appends Analyzer::linear(e)'s terms (no zero coefficient, no two atoms structurally equal) and returns its
// constant. `e` must outlive the terms.
int64_t linearOnto(FormStack& st, const ir::Expr& e);

// Adds the terms above `mid`, times `factor` (non-zero), into the form [base, mid) by addTerm's rule (a
// structurally equal atom adds up, a new one goes last) and pops them; then drops zero terms.
void mergeAbove(FormStack& st, size_t base, size_t mid, int64_t factor);
// Multiplies the form [base, top) by factor (zero empties it).
void scaleForm(FormStack& st, size_t base, int64_t factor);
// floordiv(x, c) * c * a + floormod(x, c) * a -> x * a, then drops zero terms. Returns whether it merged an atom
// x that Analyzer::linear would take apart (a sum, a product with a constant, a constant).
bool mergeDivModForm(FormStack& st, size_t base);
void dropZeroTerms(FormStack& st, size_t base);

// Analyzer::fromLinear of the form [begin, end) and `constant`.
ir::Expr buildForm(const FormStack& st, size_t begin, size_t end, int64_t constant);
// Whether e is structurally equal to buildForm(st, begin, end, constant), without building it.
bool matchesForm(const ir::Expr& e, const FormStack& st, size_t begin, size_t end, int64_t constant);
// buildForm's expression when e does not match it, else e itself (what a caller that keeps e unchanged wants).
ir::Expr buildOrKeep(const ir::Expr& e, const FormStack& st, size_t begin, size_t end, int64_t constant);
// Analyzer::bound(buildForm(st, begin, end, constant)), without building it.
Interval boundOfForm(const Analyzer& analyzer, const FormStack& st, size_t begin, size_t end, int64_t constant);

// Whether Analyzer::linear(e) is the single term 1 * e.
bool isAtom(const ir::Expr& e);

// Interval arithmetic, clamped to +-2^62.
Interval addIntervals(Interval a, Interval b);
Interval scaleInterval(Interval a, int64_t c);

} // namespace ts::lower::arith::detail
