// The simplifier's integer arithmetic: sums, differences and products (one region at a time) and floordiv,
// floormod by a constant. See arith_analyzer.h ("Speed") and arith_form.h.
//
// The plain rewrite simplifies bottom up: each +, - or * node rebuilds its simplified operands, takes the
// result apart into a linear form (Analyzer::linear), merges floordiv/floormod pairs and builds fromLinear's
// expression, which its parent takes apart again. Here a node's form is combined from its operands' forms
// directly, which is the same form as long as linear() of fromLinear(form) gives the form back: true when
// every atom is one linear() keeps whole (checked: a merged floordiv/floormod operand may be a sum, and then
// the expression is built and taken apart as before). Only the region's root builds an expression.
#include "core/lower/arith_analyzer.h"
#include "core/lower/arith_form.h"

#include <algorithm>

namespace ts::lower::arith {

using detail::FormStack;
using detail::Simplified;
using ir::Expr;
using ir::ExprKind;

namespace {
    int64_t floorDiv(int64_t a, int64_t b)
    {
        const int64_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

    bool isLinearKind(const Expr& e)
    {
        const ExprKind k = e->kind;
        return ir::isInt(e->dtype) && (k == ExprKind::Add || k == ExprKind::Sub || k == ExprKind::Mul);
    }

    // Restores the stack and the keep-alive list to where they were.
    class StackMark {
    public:
        explicit StackMark(FormStack& st)
            : m_st(st)
            , m_terms(st.terms.size())
            , m_keep(st.keep.size())
        {
        }
        ~StackMark()
        {
            m_st.terms.resize(m_terms);
            m_st.keep.resize(m_keep);
        }
        size_t base() const { return m_terms; }

    private:
        FormStack& m_st;
        size_t m_terms;
        size_t m_keep;
    };
} // namespace

Expr Analyzer::simplifyLinear(const Expr& e) const
{
    FormStack& st = FormStack::local();
    const StackMark mark(st);
    const Simplified s = simplifyToForm(e, st);
    if (s.expr)
        return *s.expr;
    // x - 0, x + 0, 1 * x: the result may be an operand as it stands.
    const size_t base = mark.base();
    if (detail::matchesForm(e, st, base, st.size(), s.constant))
        return e;
    for (const Expr& operand : e->operands)
        if (detail::matchesForm(operand, st, base, st.size(), s.constant))
            return operand;
    return detail::buildForm(st, base, st.size(), s.constant);
}

// The form of simplify(e) for an operand e of a +, - or *: what the parent's linear() finds in it.
Simplified Analyzer::operandForm(const Expr& e, FormStack& st) const
{
    if (isLinearKind(e)) {
        const size_t base = st.size();
        Simplified s = simplifyToForm(e, st);
        if (!s.linearAtom)
            return s;
        const Expr* built = st.park(detail::buildForm(st, base, st.size(), s.constant));
        st.terms.resize(base);
        return Simplified { detail::linearOnto(st, *built), built, false };
    }
    if (e->kind == ExprKind::IntImm)
        return Simplified { e->intValue, &e, false };
    if (e->kind == ExprKind::Var && !hasValues()) { // simplify(v) is v, an atom
        st.terms.push_back(detail::Term { &e, 1 });
        return Simplified { 0, &e, false };
    }
    Expr simplified = simplify(e);
    const Expr* kept = simplified.sameAs(e) ? &e : st.park(std::move(simplified));
    return Simplified { detail::linearOnto(st, *kept), kept, false };
}

Simplified Analyzer::simplifyToForm(const Expr& e, FormStack& st) const
{
    const ir::ExprNode& n = *e;
    const size_t base = st.size();
    const Simplified a = operandForm(n.operands[0], st);
    const size_t mid = st.size();
    const Simplified b = operandForm(n.operands[1], st);
    int64_t constant = 0;
    if (n.kind == ExprKind::Mul) {
        const bool ca = a.expr ? (*a.expr)->kind == ExprKind::IntImm : mid == base;
        const bool cb = b.expr ? (*b.expr)->kind == ExprKind::IntImm : st.size() == mid;
        if (!ca && !cb) { // a product of two non-constants is an atom
            const Expr x = a.expr ? *a.expr : detail::buildOrKeep(n.operands[0], st, base, mid, a.constant);
            const Expr y = b.expr ? *b.expr : detail::buildOrKeep(n.operands[1], st, mid, st.size(), b.constant);
            st.terms.resize(base);
            const Expr* product
                = x.sameAs(n.operands[0]) && y.sameAs(n.operands[1]) ? &e : st.park(ir::withOperands(e, { x, y }));
            st.terms.push_back(detail::Term { product, 1 });
            return Simplified { 0, product, false };
        }
        // linear(): the right operand is the factor when both are constants. A constant's form is empty, so
        // the other operand's form starts at base either way.
        const int64_t factor = cb ? b.constant : a.constant;
        detail::scaleForm(st, base, factor);
        constant = (cb ? a.constant : b.constant) * factor;
    } else {
        const int64_t sign = n.kind == ExprKind::Add ? 1 : -1;
        detail::mergeAbove(st, base, mid, sign);
        constant = a.constant + b.constant * sign;
    }
    return Simplified { constant, nullptr, detail::mergeDivModForm(st, base) };
}

Interval Analyzer::boundOfDifference(const Expr& a, const Expr& b) const
{
    const Expr difference = a - b;
    FormStack& st = FormStack::local();
    const StackMark mark(st);
    const Simplified s = simplifyToForm(difference, st);
    return detail::boundOfForm(*this, st, mark.base(), st.size(), s.constant);
}

// floordiv(e0, divisor) or floormod(e0, divisor), divisor > 1: (divisor*q + r) splits into q and r, q's terms
// those whose coefficients divisor divides.
Expr Analyzer::simplifyDivMod(const Expr& e, int64_t divisor) const
{
    const ir::ExprNode& n = *e;
    const Expr& x = n.operands[0];
    FormStack& st = FormStack::local();
    const StackMark mark(st);
    const size_t base = mark.base();
    const int64_t constant = detail::linearOnto(st, x);
    // Stable partition: q's terms (divided) first, then r's.
    const size_t top = st.size();
    size_t qEnd = base;
    for (size_t i = base; i < top; ++i) {
        const detail::Term t = st.terms[i];
        if (t.coef % divisor == 0)
            st.terms[qEnd++] = detail::Term { t.atom, t.coef / divisor };
        else
            st.terms.push_back(t);
    }
    std::copy(st.terms.begin() + static_cast<long>(top), st.terms.end(), st.terms.begin() + static_cast<long>(qEnd));
    st.terms.resize(top);
    const size_t rEnd = top;
    const int64_t rConstant = floorMod(constant, divisor);
    const Interval range = detail::boundOfForm(*this, st, qEnd, rEnd, rConstant);
    const bool oneBlock = range.bounded && floorDiv(range.lo, divisor) == floorDiv(range.hi, divisor);
    // The expression of r's form, and whether dividing it again gives e back.
    auto rest = [&] { return detail::buildOrKeep(x, st, qEnd, rEnd, rConstant); };
    auto sameNode
        = [&](const Expr& r) { return r.sameAs(x) && n.dtype == x->dtype && n.operands[1]->dtype == x->dtype; };

    if (n.kind == ExprKind::FloorMod) {
        if (oneBlock)
            return detail::buildOrKeep(e, st, qEnd, rEnd, rConstant - floorDiv(range.lo, divisor) * divisor);
        const Expr r = rest();
        return sameNode(r) ? e : ir::floorMod(r, ir::intImm(divisor));
    }
    int64_t outConstant = floorDiv(constant, divisor);
    if (oneBlock) {
        outConstant += floorDiv(range.lo, divisor);
        st.terms.resize(qEnd);
    } else if (rEnd > qEnd || rConstant != 0) {
        Expr atom;
        int64_t inner = 0;
        const Expr* single = rEnd - qEnd == 1 ? st.terms[qEnd].atom : nullptr;
        if (rConstant == 0 && single && st.terms[qEnd].coef == 1 && (*single)->kind == ExprKind::FloorDiv
            && ir::asConstInt((*single)->operands[1], &inner) && inner > 0) {
            // floordiv(floordiv(y, c), divisor) = floordiv(y, c * divisor)
            atom = ir::floorDiv((*single)->operands[0], ir::intImm(inner * divisor));
        } else {
            const Expr r = rest();
            atom = sameNode(r) ? e : ir::floorDiv(r, ir::intImm(divisor));
        }
        st.terms.resize(qEnd);
        const Expr* kept = st.park(std::move(atom)); // addTerm(q, atom, 1)
        size_t j = base;
        while (j < qEnd && !ir::structuralEqual(*st.terms[j].atom, *kept))
            ++j;
        if (j < qEnd)
            st.terms[j].coef += 1;
        else
            st.terms.push_back(detail::Term { kept, 1 });
    }
    return detail::buildOrKeep(e, st, base, st.size(), outConstant);
}

} // namespace ts::lower::arith
