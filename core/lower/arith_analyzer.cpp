#include "core/lower/arith_analyzer.h"

#include "core/lower/arith_form.h"
#include "core/support/assert.h"

#include <algorithm>
#include <cmath>

namespace ts::lower::arith {

using ir::Expr;
using ir::ExprKind;

namespace {
    constexpr int64_t kLimit = int64_t(1) << 62;
    __extension__ typedef __int128 Wide; // products of two int64 bounds

    int64_t clampWide(Wide v) { return static_cast<int64_t>(std::clamp<Wide>(v, -kLimit, kLimit)); }

    int64_t floorDiv(int64_t a, int64_t b)
    {
        const int64_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    }
    int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

    Interval add(Interval a, Interval b) { return detail::addIntervals(a, b); }
    Interval scale(Interval a, int64_t c) { return detail::scaleInterval(a, c); }

    bool isInt(const Expr& e) { return ir::isInt(e->dtype); }
    bool isConst(const Expr& e, int64_t* v) { return ir::asConstInt(e, v); }

    Expr boolImm(bool v) { return ir::intImm(v ? 1 : 0, ir::DType::Bool); }
} // namespace

void Analyzer::bind(const Expr& v, int64_t lo, int64_t hi) { m_ranges.set(v.get(), Interval::of(lo, hi)); }

void Analyzer::bindValue(const Expr& v, Expr value)
{
    for (auto& [var, bound] : m_values)
        if (var == v.get()) {
            bound = std::move(value);
            return;
        }
    m_values.emplace_back(v.get(), std::move(value));
}

void Analyzer::unbind(const Expr& v)
{
    m_ranges.erase(v.get());
    std::erase_if(m_values, [&](const auto& entry) { return entry.first == v.get(); });
}

const Expr* Analyzer::valueOf(const ir::ExprNode* v) const
{
    for (const auto& [var, value] : m_values)
        if (var == v)
            return &value;
    return nullptr;
}

Interval Analyzer::bound(const Expr& e) const
{
    const ir::ExprNode& n = *e;
    switch (n.kind) {
    case ExprKind::IntImm:
        return Interval::point(n.intValue);
    case ExprKind::Var: {
        if (!m_values.empty())
            if (const Expr* value = valueOf(e.get()))
                return bound(*value);
        const Interval* range = m_ranges.find(e.get());
        return range ? *range : Interval::unknown();
    }
    case ExprKind::Add:
        return add(bound(n.operands[0]), bound(n.operands[1]));
    case ExprKind::Sub:
        return add(bound(n.operands[0]), scale(bound(n.operands[1]), -1));
    case ExprKind::Mul: {
        int64_t c;
        if (isConst(n.operands[1], &c))
            return scale(bound(n.operands[0]), c);
        if (isConst(n.operands[0], &c))
            return scale(bound(n.operands[1]), c);
        const Interval a = bound(n.operands[0]);
        const Interval b = bound(n.operands[1]);
        if (!a.bounded || !b.bounded)
            return Interval::unknown();
        const int64_t p[] = { clampWide(Wide(a.lo) * b.lo), clampWide(Wide(a.lo) * b.hi), clampWide(Wide(a.hi) * b.lo),
            clampWide(Wide(a.hi) * b.hi) };
        return Interval::of(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
    }
    case ExprKind::FloorDiv:
    case ExprKind::Div: {
        int64_t c;
        const Interval a = bound(n.operands[0]);
        if (!isConst(n.operands[1], &c) || c <= 0 || !a.bounded)
            return Interval::unknown();
        if (n.kind == ExprKind::Div && a.lo < 0)
            return Interval::unknown();
        return Interval::of(floorDiv(a.lo, c), floorDiv(a.hi, c));
    }
    case ExprKind::FloorMod:
    case ExprKind::Mod: {
        int64_t c;
        if (!isConst(n.operands[1], &c) || c <= 0)
            return Interval::unknown();
        const Interval a = bound(n.operands[0]);
        if (a.bounded && a.lo >= 0 && a.hi < c)
            return a;
        if (a.bounded && floorDiv(a.lo, c) == floorDiv(a.hi, c))
            return Interval::of(floorMod(a.lo, c), floorMod(a.hi, c));
        if (n.kind == ExprKind::Mod && (!a.bounded || a.lo < 0))
            return Interval::of(-(c - 1), c - 1);
        return Interval::of(0, c - 1);
    }
    case ExprKind::Min:
    case ExprKind::Max: {
        const Interval a = bound(n.operands[0]);
        const Interval b = bound(n.operands[1]);
        if (!a.bounded || !b.bounded)
            return Interval::unknown();
        return n.kind == ExprKind::Min ? Interval::of(std::min(a.lo, b.lo), std::min(a.hi, b.hi))
                                       : Interval::of(std::max(a.lo, b.lo), std::max(a.hi, b.hi));
    }
    case ExprKind::Select: {
        const Interval a = bound(n.operands[1]);
        const Interval b = bound(n.operands[2]);
        if (!a.bounded || !b.bounded)
            return Interval::unknown();
        return Interval::of(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
    }
    case ExprKind::Cast:
        return isInt(n.operands[0]) ? bound(n.operands[0]) : Interval::unknown();
    default:
        return Interval::unknown();
    }
}

bool Analyzer::canProve(const Expr& condition) const
{
    const Expr s = simplify(condition);
    int64_t v;
    return isConst(s, &v) && v != 0;
}

Interval Analyzer::boundScaled(const Expr& e, int64_t c) const { return scale(bound(e), c); }

Expr Analyzer::simplify(const Expr& e) const
{
    if (e->operands.empty()) {
        if (e->kind == ExprKind::Var && !m_values.empty())
            if (const Expr* value = valueOf(e.get()))
                return simplify(*value);
        return e;
    }
    if (isInt(e) && (e->kind == ExprKind::Add || e->kind == ExprKind::Sub || e->kind == ExprKind::Mul))
        return simplifyLinear(e); // arith_simplify_linear.cpp
    // The operands are copied into a new list only from the first one that changes.
    const ir::ExprList& in = e->operands;
    ir::ExprList operands;
    for (size_t i = 0; i < in.size(); ++i) {
        Expr simplified = simplify(in[i]);
        if (operands.empty() && simplified.sameAs(in[i]))
            continue;
        if (operands.empty()) {
            operands.reserve(in.size());
            for (size_t k = 0; k < i; ++k)
                operands.push_back(in[k]);
        }
        operands.push_back(std::move(simplified));
    }
    return simplifyNode(operands.empty() ? e : ir::withOperands(e, std::move(operands)));
}

Expr Analyzer::simplifyNode(const Expr& e) const
{
    const ir::ExprNode& n = *e;
    const auto& ops = n.operands;
    int64_t a = 0, b = 0;
    const bool ca = !ops.empty() && isConst(ops[0], &a);
    const bool cb = ops.size() > 1 && isConst(ops[1], &b);

    if (isInt(e) && (n.kind == ExprKind::FloorDiv || n.kind == ExprKind::FloorMod)) {
        if (ca && cb && b != 0)
            return ir::intImm(n.kind == ExprKind::FloorDiv ? floorDiv(a, b) : floorMod(a, b));
        if (!cb || b <= 0)
            return e;
        if (b == 1)
            return n.kind == ExprKind::FloorDiv ? ops[0] : ir::intImm(0);
        return simplifyDivMod(e, b); // arith_simplify_linear.cpp
    }
    if (isInt(e) && (n.kind == ExprKind::Div || n.kind == ExprKind::Mod) && cb && b > 0) {
        const Interval range = bound(ops[0]);
        if (range.bounded && range.lo >= 0) // C and floor semantics agree
            return simplifyNode(n.kind == ExprKind::Div ? ir::floorDiv(ops[0], ops[1]) : ir::floorMod(ops[0], ops[1]));
        return e;
    }
    if (isInt(e) && (n.kind == ExprKind::Min || n.kind == ExprKind::Max)) {
        const Interval x = bound(ops[0]);
        const Interval y = bound(ops[1]);
        if (x.bounded && y.bounded) {
            if (n.kind == ExprKind::Min)
                return x.hi <= y.lo ? ops[0] : y.hi <= x.lo ? ops[1] : e;
            return x.lo >= y.hi ? ops[0] : y.lo >= x.hi ? ops[1] : e;
        }
        return e;
    }
    if (ir::isComparison(n.kind) && isInt(ops[0])) {
        const Interval d = boundOfDifference(ops[0], ops[1]); // bound(simplify(ops[0] - ops[1]))
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

} // namespace ts::lower::arith
