// The arith simplifier as it was before its integer fast path (arith_simplify_linear.cpp): the plain bottom-up
// rewrite, kept verbatim as the reference the fast path must agree with, expression for expression.
// Ranges come from the Analyzer under test (bound() is shared); only simplification is re-implemented.
#pragma once

#include "core/lower/arith_analyzer.h"

#include <algorithm>

namespace ts::test {

using lower::arith::Interval;
using lower::arith::Linear;
using lower::arith::LinearTerm;

namespace reference_detail {
    using ir::Expr;
    using ir::ExprKind;

    inline int64_t floorDiv(int64_t a, int64_t b)
    {
        const int64_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    inline int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

    inline bool isInt(const Expr& e) { return ir::isInt(e->dtype); }
    inline bool isConst(const Expr& e, int64_t* v) { return ir::asConstInt(e, v); }

    inline void addTerm(Linear& form, const Expr& atom, int64_t coef)
    {
        if (coef == 0)
            return;
        for (LinearTerm& t : form.terms)
            if (ir::structuralEqual(t.atom, atom)) {
                t.coef += coef;
                return;
            }
        form.terms.push_back(LinearTerm { atom, coef });
    }

    inline void accumulate(Linear& into, const Linear& from, int64_t factor)
    {
        into.constant += from.constant * factor;
        for (const LinearTerm& t : from.terms)
            addTerm(into, t.atom, t.coef * factor);
    }

    // floordiv(x, c) * c * a + floormod(x, c) * a == x * a: what splitting then fusing leaves behind.
    inline void mergeDivMod(Linear& form)
    {
        std::vector<LinearTerm> merged; // appended after the scan: form.terms must not grow under it
        for (LinearTerm& div : form.terms) {
            int64_t c;
            if (div.coef == 0 || div.atom->kind != ExprKind::FloorDiv || !ir::asConstInt(div.atom->operands[1], &c)
                || c <= 0 || div.coef % c != 0)
                continue;
            for (LinearTerm& mod : form.terms) {
                if (mod.coef == 0 || mod.atom->kind != ExprKind::FloorMod || mod.coef * c != div.coef
                    || !ir::structuralEqual(mod.atom->operands[1], div.atom->operands[1])
                    || !ir::structuralEqual(mod.atom->operands[0], div.atom->operands[0]))
                    continue;
                const Expr x = div.atom->operands[0];
                const int64_t a = mod.coef;
                div.coef = 0;
                mod.coef = 0;
                merged.push_back(LinearTerm { x, a });
                break;
            }
        }
        for (const LinearTerm& t : merged)
            addTerm(form, t.atom, t.coef);
    }

    inline void dropZeros(Linear& form)
    {
        form.terms.erase(
            std::remove_if(form.terms.begin(), form.terms.end(), [](const LinearTerm& t) { return t.coef == 0; }),
            form.terms.end());
    }

    inline Expr boolImm(bool v) { return ir::intImm(v ? 1 : 0, ir::DType::Bool); }
    class ReferenceSimplifier {
    public:
        explicit ReferenceSimplifier(const lower::arith::Analyzer& analyzer)
            : m_analyzer(analyzer)
        {
        }

        Linear linear(const Expr& e) const
        {
            Linear form;
            const ir::ExprNode& n = *e;
            int64_t c;
            switch (n.kind) {
            case ExprKind::IntImm:
                form.constant = n.intValue;
                return form;
            case ExprKind::Add:
            case ExprKind::Sub:
                accumulate(form, linear(n.operands[0]), 1);
                accumulate(form, linear(n.operands[1]), n.kind == ExprKind::Add ? 1 : -1);
                dropZeros(form);
                return form;
            case ExprKind::Mul:
                if (isConst(n.operands[1], &c) || isConst(n.operands[0], &c)) {
                    const Expr& other = isConst(n.operands[1], &c) ? n.operands[0] : n.operands[1];
                    accumulate(form, linear(other), c);
                    dropZeros(form);
                    return form;
                }
                break;
            default:
                break;
            }
            addTerm(form, e, 1);
            return form;
        }

        static Expr fromLinear(const Linear& form)
        {
            Expr out;
            for (const LinearTerm& t : form.terms) {
                if (t.coef == 0)
                    continue;
                if (!out.defined()) {
                    out = t.coef == 1 ? t.atom : t.atom * ir::intImm(t.coef);
                    continue;
                }
                if (t.coef > 0)
                    out = out + (t.coef == 1 ? t.atom : t.atom * ir::intImm(t.coef));
                else
                    out = out - (t.coef == -1 ? t.atom : t.atom * ir::intImm(-t.coef));
            }
            if (!out.defined())
                return ir::intImm(form.constant);
            if (form.constant > 0)
                out = out + ir::intImm(form.constant);
            else if (form.constant < 0)
                out = out - ir::intImm(-form.constant);
            return out;
        }

        Expr simplify(const Expr& e) const
        {
            if (e->operands.empty())
                return e;
            std::vector<Expr> operands;
            bool changed = false;
            for (const Expr& operand : e->operands) {
                operands.push_back(simplify(operand));
                changed |= !operands.back().sameAs(operand);
            }
            return simplifyNode(changed ? ir::withOperands(e, std::move(operands)) : e);
        }

        Expr simplifyNode(const Expr& e) const
        {
            const ir::ExprNode& n = *e;
            const auto& ops = n.operands;
            int64_t a = 0, b = 0;
            const bool ca = !ops.empty() && isConst(ops[0], &a);
            const bool cb = ops.size() > 1 && isConst(ops[1], &b);

            if (isInt(e) && (n.kind == ExprKind::Add || n.kind == ExprKind::Sub || n.kind == ExprKind::Mul)) {
                if (n.kind == ExprKind::Mul && !ca && !cb)
                    return e;
                Linear form = linear(e);
                mergeDivMod(form);
                dropZeros(form);
                return fromLinear(form);
            }
            if (isInt(e) && (n.kind == ExprKind::FloorDiv || n.kind == ExprKind::FloorMod)) {
                if (ca && cb && b != 0)
                    return ir::intImm(n.kind == ExprKind::FloorDiv ? floorDiv(a, b) : floorMod(a, b));
                if (!cb || b <= 0)
                    return e;
                if (b == 1)
                    return n.kind == ExprKind::FloorDiv ? ops[0] : ir::intImm(0);
                // (b*q + r) splits into q and r; q's terms have coefficients divisible by b.
                const Linear form = linear(ops[0]);
                Linear q, r;
                q.constant = floorDiv(form.constant, b);
                r.constant = floorMod(form.constant, b);
                for (const LinearTerm& t : form.terms)
                    (t.coef % b == 0 ? q : r)
                        .terms.push_back(LinearTerm { t.atom, t.coef % b == 0 ? t.coef / b : t.coef });
                const Expr rest = fromLinear(r);
                const Interval range = m_analyzer.bound(rest);
                const bool oneBlock = range.bounded && floorDiv(range.lo, b) == floorDiv(range.hi, b);
                if (n.kind == ExprKind::FloorDiv) {
                    Linear out = q;
                    if (oneBlock)
                        out.constant += floorDiv(range.lo, b);
                    else if (!r.terms.empty() || r.constant != 0) {
                        // floordiv(floordiv(x, c), b) = floordiv(x, c * b)
                        int64_t inner;
                        if (r.constant == 0 && r.terms.size() == 1 && r.terms[0].coef == 1
                            && r.terms[0].atom->kind == ExprKind::FloorDiv
                            && isConst(r.terms[0].atom->operands[1], &inner) && inner > 0)
                            addTerm(out, ir::floorDiv(r.terms[0].atom->operands[0], ir::intImm(inner * b)), 1);
                        else
                            addTerm(out, ir::floorDiv(rest, ir::intImm(b)), 1);
                    }
                    return fromLinear(out);
                }
                if (oneBlock) {
                    Linear out = r;
                    out.constant -= floorDiv(range.lo, b) * b;
                    return fromLinear(out);
                }
                return ir::floorMod(rest, ir::intImm(b));
            }
            if (isInt(e) && (n.kind == ExprKind::Div || n.kind == ExprKind::Mod) && cb && b > 0) {
                const Interval range = m_analyzer.bound(ops[0]);
                if (range.bounded && range.lo >= 0) // C and floor semantics agree
                    return simplifyNode(
                        n.kind == ExprKind::Div ? ir::floorDiv(ops[0], ops[1]) : ir::floorMod(ops[0], ops[1]));
                return e;
            }
            if (isInt(e) && (n.kind == ExprKind::Min || n.kind == ExprKind::Max)) {
                const Interval x = m_analyzer.bound(ops[0]);
                const Interval y = m_analyzer.bound(ops[1]);
                if (x.bounded && y.bounded) {
                    if (n.kind == ExprKind::Min)
                        return x.hi <= y.lo ? ops[0] : y.hi <= x.lo ? ops[1] : e;
                    return x.lo >= y.hi ? ops[0] : y.lo >= x.hi ? ops[1] : e;
                }
                return e;
            }
            if (ir::isComparison(n.kind) && isInt(ops[0])) {
                const Interval d = m_analyzer.bound(simplify(ops[0] - ops[1]));
                if (d.bounded) {
                    switch (n.kind) {
                    case ExprKind::LT:
                        if (d.hi < 0 || d.lo >= 0)
                            return boolImm(d.hi < 0);
                        break;
                    case ExprKind::LE:
                        if (d.hi <= 0 || d.lo > 0)
                            return boolImm(d.hi <= 0);
                        break;
                    case ExprKind::GT:
                        if (d.lo > 0 || d.hi <= 0)
                            return boolImm(d.lo > 0);
                        break;
                    case ExprKind::GE:
                        if (d.lo >= 0 || d.hi < 0)
                            return boolImm(d.lo >= 0);
                        break;
                    case ExprKind::EQ:
                        if (d.lo == 0 && d.hi == 0)
                            return boolImm(true);
                        if (d.lo > 0 || d.hi < 0)
                            return boolImm(false);
                        break;
                    case ExprKind::NE:
                        if (d.lo > 0 || d.hi < 0)
                            return boolImm(true);
                        if (d.lo == 0 && d.hi == 0)
                            return boolImm(false);
                        break;
                    default:
                        break;
                    }
                }
                return e;
            }
            switch (n.kind) {
            case ExprKind::And:
            case ExprKind::Or: {
                // A constant operand equal to the operator's deciding value (false for &&, true for ||) is the
                // result; the other constant drops out, leaving the other operand.
                const bool deciding = n.kind == ExprKind::Or;
                if (ca)
                    return (a != 0) == deciding ? ops[0] : ops[1];
                if (cb)
                    return (b != 0) == deciding ? ops[1] : ops[0];
                return e;
            }
            case ExprKind::Not:
                if (ca)
                    return boolImm(a == 0);
                return e;
            case ExprKind::Select:
                if (ca)
                    return a ? ops[1] : ops[2];
                return e;
            default:
                break;
            }
            // Float arithmetic: fold constants and the identities x*1, x+0.
            if (ir::isFloat(e->dtype) && ops.size() == 2 && ir::isBinary(n.kind)) {
                const bool fa = ops[0]->kind == ExprKind::FloatImm;
                const bool fb = ops[1]->kind == ExprKind::FloatImm;
                const double x = fa ? ops[0]->floatValue : 0.0;
                const double y = fb ? ops[1]->floatValue : 0.0;
                if (fa && fb) {
                    switch (n.kind) {
                    case ExprKind::Add:
                        return ir::floatImm(x + y, e->dtype);
                    case ExprKind::Sub:
                        return ir::floatImm(x - y, e->dtype);
                    case ExprKind::Mul:
                        return ir::floatImm(x * y, e->dtype);
                    case ExprKind::Div:
                        return y != 0.0 ? ir::floatImm(x / y, e->dtype) : e;
                    case ExprKind::Min:
                        return ir::floatImm(std::min(x, y), e->dtype);
                    case ExprKind::Max:
                        return ir::floatImm(std::max(x, y), e->dtype);
                    default:
                        return e;
                    }
                }
                if (n.kind == ExprKind::Mul && ((fa && x == 1.0) || (fb && y == 1.0)))
                    return fa ? ops[1] : ops[0];
                if (n.kind == ExprKind::Add && fb && y == 0.0)
                    return ops[0];
            }
            return e;
        }

    private:
        const lower::arith::Analyzer& m_analyzer;
    };

} // namespace reference_detail

using reference_detail::ReferenceSimplifier;

} // namespace ts::test
