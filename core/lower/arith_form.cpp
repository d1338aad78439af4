// Linear forms: Analyzer::linear and fromLinear, and their allocation-free versions on the form stack.
#include "core/lower/arith_form.h"

#include <algorithm>
#include <numeric>

namespace ts::lower::arith {

using ir::Expr;
using ir::ExprKind;

namespace detail {

    namespace {
        constexpr int64_t kLimit = int64_t(1) << 62;
        __extension__ typedef __int128 Wide; // products of two int64 bounds

        int64_t clampWide(Wide v) { return static_cast<int64_t>(std::clamp<Wide>(v, -kLimit, kLimit)); }

        // The constant operand of a product Analyzer::linear takes apart (the right one first), or null.
        const Expr* constantFactor(const ir::ExprNode& n, const Expr** other)
        {
            if (n.operands[1]->kind == ExprKind::IntImm) {
                *other = &n.operands[0];
                return &n.operands[1];
            }
            if (n.operands[0]->kind == ExprKind::IntImm) {
                *other = &n.operands[1];
                return &n.operands[0];
            }
            return nullptr;
        }

        // The term as fromLinear writes it: atom, or atom * |coef| (coef itself for the first term).
        bool matchesTerm(const Expr& e, const Expr& atom, int64_t coef)
        {
            if (coef == 1)
                return ir::structuralEqual(e, atom);
            const ir::ExprNode& n = *e;
            return n.kind == ExprKind::Mul && n.dtype == atom->dtype && n.operands.size() == 2
                && n.operands[1]->kind == ExprKind::IntImm && n.operands[1]->dtype == atom->dtype
                && n.operands[1]->intValue == coef && ir::structuralEqual(n.operands[0], atom);
        }

        bool isImm(const Expr& e, int64_t value, ir::DType dtype)
        {
            return e->kind == ExprKind::IntImm && e->intValue == value && e->dtype == dtype;
        }
    } // namespace

    FormStack& FormStack::local()
    {
        thread_local FormStack stack;
        return stack;
    }

    const Expr* FormStack::park(Expr e)
    {
        keep.push_back(std::move(e));
        return &keep.back();
    }

    bool isAtom(const Expr& e)
    {
        const ir::ExprNode& n = *e;
        if (n.kind == ExprKind::IntImm || n.kind == ExprKind::Add || n.kind == ExprKind::Sub)
            return false;
        const Expr* other;
        return n.kind != ExprKind::Mul || constantFactor(n, &other) == nullptr;
    }

    void dropZeroTerms(FormStack& st, size_t base)
    {
        auto& t = st.terms;
        t.erase(std::remove_if(t.begin() + static_cast<long>(base), t.end(), [](const Term& x) { return x.coef == 0; }),
            t.end());
    }

    void scaleForm(FormStack& st, size_t base, int64_t factor)
    {
        if (factor == 0) { // addTerm skips zero coefficients
            st.terms.resize(base);
            return;
        }
        for (size_t i = base; i < st.terms.size(); ++i)
            st.terms[i].coef *= factor;
    }

    void mergeAbove(FormStack& st, size_t base, size_t mid, int64_t factor)
    {
        auto& t = st.terms;
        size_t top = mid; // new atoms move down to here; never above the term being read
        for (size_t i = mid; i < t.size(); ++i) {
            const Term term { t[i].atom, t[i].coef * factor };
            size_t j = base;
            while (j < top && !ir::structuralEqual(*t[j].atom, *term.atom))
                ++j;
            if (j < top)
                t[j].coef += term.coef;
            else
                t[top++] = term;
        }
        t.resize(top);
        dropZeroTerms(st, base);
    }

    int64_t linearOnto(FormStack& st, const Expr& e)
    {
        const ir::ExprNode& n = *e;
        switch (n.kind) {
        case ExprKind::IntImm:
            return n.intValue;
        case ExprKind::Add:
        case ExprKind::Sub: {
            const size_t base = st.size();
            const int64_t a = linearOnto(st, n.operands[0]); // added to an empty form: itself
            const size_t mid = st.size();
            const int64_t b = linearOnto(st, n.operands[1]);
            const int64_t sign = n.kind == ExprKind::Add ? 1 : -1;
            mergeAbove(st, base, mid, sign);
            return a + b * sign;
        }
        case ExprKind::Mul: {
            const Expr* other;
            if (const Expr* c = constantFactor(n, &other)) {
                const size_t base = st.size();
                const int64_t constant = linearOnto(st, *other);
                scaleForm(st, base, (*c)->intValue);
                return constant * (*c)->intValue;
            }
            break;
        }
        default:
            break;
        }
        st.terms.push_back(Term { &e, 1 });
        return 0;
    }

    bool mergeDivModForm(FormStack& st, size_t base)
    {
        auto& t = st.terms;
        const size_t top = t.size();
        Term merged[8];
        size_t count = 0;
        std::vector<Term> more; // past eight merges
        for (size_t i = base; i < top; ++i) {
            Term& div = t[i];
            const ir::ExprNode& d = **div.atom;
            int64_t c;
            if (div.coef == 0 || d.kind != ExprKind::FloorDiv || !ir::asConstInt(d.operands[1], &c) || c <= 0
                || div.coef % c != 0)
                continue;
            for (size_t j = base; j < top; ++j) {
                Term& mod = t[j];
                const ir::ExprNode& m = **mod.atom;
                if (mod.coef == 0 || m.kind != ExprKind::FloorMod || mod.coef * c != div.coef
                    || !ir::structuralEqual(m.operands[1], d.operands[1])
                    || !ir::structuralEqual(m.operands[0], d.operands[0]))
                    continue;
                const Term x { &d.operands[0], mod.coef };
                div.coef = 0;
                mod.coef = 0;
                if (count < 8)
                    merged[count++] = x;
                else
                    more.push_back(x);
                break;
            }
        }
        bool linearAtom = false;
        auto add = [&](const Term& x) { // addTerm: the zeroed terms still match
            linearAtom |= !isAtom(*x.atom);
            for (size_t j = base; j < t.size(); ++j)
                if (ir::structuralEqual(*t[j].atom, *x.atom)) {
                    t[j].coef += x.coef;
                    return;
                }
            t.push_back(x);
        };
        for (size_t k = 0; k < count; ++k)
            add(merged[k]);
        for (const Term& x : more)
            add(x);
        if (count > 0)
            dropZeroTerms(st, base);
        return linearAtom;
    }

    Expr buildForm(const FormStack& st, size_t begin, size_t end, int64_t constant)
    {
        Expr out;
        for (size_t i = begin; i < end; ++i) {
            const Term& t = st.terms[i];
            if (t.coef == 0)
                continue;
            const Expr& atom = *t.atom;
            if (!out.defined()) {
                out = t.coef == 1 ? atom : atom * ir::intImm(t.coef);
                continue;
            }
            if (t.coef > 0)
                out = out + (t.coef == 1 ? atom : atom * ir::intImm(t.coef));
            else
                out = out - (t.coef == -1 ? atom : atom * ir::intImm(-t.coef));
        }
        if (!out.defined())
            return ir::intImm(constant);
        if (constant > 0)
            out = out + ir::intImm(constant);
        else if (constant < 0)
            out = out - ir::intImm(-constant);
        return out;
    }

    bool matchesForm(const Expr& e, const FormStack& st, size_t begin, size_t end, int64_t constant)
    {
        size_t top = end;
        while (top > begin && st.terms[top - 1].coef == 0)
            --top;
        size_t first = begin;
        while (first < top && st.terms[first].coef == 0)
            ++first;
        if (first == top)
            return isImm(e, constant, ir::DType::Int64);
        const ir::DType dtype = (*st.terms[first].atom)->dtype; // every node buildForm makes has it
        const Expr* x = &e;
        if (constant != 0) {
            const ir::ExprNode& n = **x;
            if (n.kind != (constant > 0 ? ExprKind::Add : ExprKind::Sub) || n.dtype != dtype || n.operands.size() != 2
                || !isImm(n.operands[1], constant > 0 ? constant : -constant, dtype))
                return false;
            x = &n.operands[0];
        }
        for (size_t i = top; i-- > first + 1;) { // right to left down the chain of + and -
            const Term& t = st.terms[i];
            if (t.coef == 0)
                continue;
            const ir::ExprNode& n = **x;
            if (n.kind != (t.coef > 0 ? ExprKind::Add : ExprKind::Sub) || n.dtype != dtype || n.operands.size() != 2
                || !matchesTerm(n.operands[1], *t.atom, t.coef > 0 ? t.coef : -t.coef))
                return false;
            x = &n.operands[0];
        }
        return matchesTerm(*x, *st.terms[first].atom, st.terms[first].coef);
    }

    Expr buildOrKeep(const Expr& e, const FormStack& st, size_t begin, size_t end, int64_t constant)
    {
        return matchesForm(e, st, begin, end, constant) ? e : buildForm(st, begin, end, constant);
    }

    Interval addIntervals(Interval a, Interval b)
    {
        if (!a.bounded || !b.bounded)
            return Interval::unknown();
        return Interval::of(clampWide(Wide(a.lo) + b.lo), clampWide(Wide(a.hi) + b.hi));
    }

    Interval scaleInterval(Interval a, int64_t c)
    {
        if (!a.bounded)
            return a;
        const int64_t x = clampWide(Wide(a.lo) * c);
        const int64_t y = clampWide(Wide(a.hi) * c);
        return Interval::of(std::min(x, y), std::max(x, y));
    }

    Interval boundOfForm(const Analyzer& analyzer, const FormStack& st, size_t begin, size_t end, int64_t constant)
    {
        Interval out;
        bool any = false;
        for (size_t i = begin; i < end; ++i) {
            const Term& t = st.terms[i];
            if (t.coef == 0)
                continue;
            const Interval atom = analyzer.bound(*t.atom);
            if (!any) {
                out = t.coef == 1 ? atom : scaleInterval(atom, t.coef);
                any = true;
            } else if (t.coef > 0) {
                out = addIntervals(out, t.coef == 1 ? atom : scaleInterval(atom, t.coef));
            } else {
                out = addIntervals(out, scaleInterval(t.coef == -1 ? atom : scaleInterval(atom, -t.coef), -1));
            }
        }
        if (!any)
            return Interval::point(constant);
        if (constant > 0)
            out = addIntervals(out, Interval::point(constant));
        else if (constant < 0)
            out = addIntervals(out, scaleInterval(Interval::point(-constant), -1));
        return out;
    }

} // namespace detail

int64_t Linear::coefficientOf(const ir::ExprNode* var, bool* pure) const
{
    int64_t coef = 0;
    *pure = true;
    for (const LinearTerm& t : terms) {
        if (t.atom.get() == var)
            coef += t.coef;
        else if (ir::usesVar(t.atom, var))
            *pure = false;
    }
    return coef;
}

Linear Analyzer::linear(const Expr& e) const
{
    detail::FormStack& st = detail::FormStack::local();
    const size_t base = st.size();
    Linear form;
    form.constant = detail::linearOnto(st, e);
    form.terms.reserve(st.size() - base);
    for (size_t i = base; i < st.size(); ++i)
        form.terms.push_back(LinearTerm { *st.terms[i].atom, st.terms[i].coef });
    st.terms.resize(base);
    return form;
}

Expr Analyzer::fromLinear(const Linear& form)
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

} // namespace ts::lower::arith

namespace ts::lower::arith {

Expr Analyzer::splitFusedDivMod(const Expr& e) const
{
    return ir::rewrite(e, [&](const Expr& x) -> Expr {
        int64_t d = 0;
        if ((x->kind != ExprKind::FloorDiv && x->kind != ExprKind::FloorMod) || !ir::isInt(x->dtype)
            || !ir::asConstInt(x->operands[1], &d) || d <= 1)
            return Expr();
        const Expr inner = splitFusedDivMod(x->operands[0]);
        const Linear form = linear(inner);
        auto floorDivOf = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
        Linear q, r;
        q.constant = floorDivOf(form.constant, d);
        r.constant = form.constant - q.constant * d;
        for (const LinearTerm& t : form.terms)
            (t.coef % d == 0 ? q : r).terms.push_back(LinearTerm { t.atom, t.coef % d == 0 ? t.coef / d : t.coef });
        for (const LinearTerm& candidate : r.terms) {
            const int64_t c = std::gcd(candidate.coef < 0 ? -candidate.coef : candidate.coef, d);
            if (c <= 1)
                continue;
            Linear a, b;
            a.constant = floorDivOf(r.constant, c);
            b.constant = r.constant - a.constant * c;
            for (const LinearTerm& t : r.terms)
                (t.coef % c == 0 ? a : b).terms.push_back(LinearTerm { t.atom, t.coef % c == 0 ? t.coef / c : t.coef });
            const Interval range = bound(fromLinear(b));
            if (!range.bounded || range.lo < 0 || range.hi >= c)
                continue;
            const Expr split = x->kind == ExprKind::FloorDiv
                ? fromLinear(q) + ir::floorDiv(fromLinear(a), ir::intImm(d / c))
                : ir::floorMod(fromLinear(a), ir::intImm(d / c)) * ir::intImm(c) + fromLinear(b);
            return simplify(splitFusedDivMod(split));
        }
        return inner.sameAs(x->operands[0]) ? x : ir::withOperands(x, { inner, x->operands[1] });
    });
}

} // namespace ts::lower::arith
