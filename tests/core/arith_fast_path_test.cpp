// The arith simplifier's integer fast path (arith_simplify_linear.cpp, arith_form.cpp) against the plain
// bottom-up rewrite it replaced (arith_reference.h): the same expression, node for node, on random index
// expressions built to hit what the fast path special-cases: cancelling terms, floordiv/floormod pairs that
// merge (also around a sum), products of two non-constants, constants on either side, int32 and int64.
#include "arith_reference.h"

#include "core/lower/arith_analyzer.h"
#include "core/lower/pointer_map.h"
#include "core/support/rng.h"

#include <gtest/gtest.h>

#include <unordered_map>

using namespace ts;

namespace {

class RandomIndex {
public:
    RandomIndex(Rng& rng, ir::DType dtype)
        : m_rng(rng)
        , m_dtype(dtype)
    {
        for (int v = 0; v < 5; ++v)
            m_vars.push_back(ir::var("v" + std::to_string(v), dtype));
    }

    const std::vector<ir::Expr>& vars() const { return m_vars; }

    ir::Expr imm(int64_t value) const { return ir::intImm(value, m_dtype); }

    ir::Expr expr(int depth)
    {
        if (depth == 0 || m_rng.bernoulli(0.2))
            return leaf();
        ir::Expr out;
        switch (m_rng.uniformInt(0, 11)) {
        case 0:
        case 1:
            out = expr(depth - 1) + expr(depth - 1);
            break;
        case 2:
            out = expr(depth - 1) - expr(depth - 1);
            break;
        case 3: { // x - x and x + y - x: terms that cancel
            const ir::Expr x = expr(depth - 1);
            out = m_rng.bernoulli(0.5) ? (x - x) + expr(depth - 1) : (x + expr(depth - 1)) - x;
            break;
        }
        case 4:
            out = expr(depth - 1) * imm(m_rng.uniformInt(-3, 8));
            break;
        case 5:
            out = imm(m_rng.uniformInt(-2, 4)) * expr(depth - 1);
            break;
        case 6:
            out = expr(depth - 1) * expr(depth - 1);
            break;
        case 7:
            out = ir::floorDiv(expr(depth - 1), imm(m_rng.uniformInt(1, 9)));
            break;
        case 8:
            out = ir::floorMod(expr(depth - 1), imm(m_rng.uniformInt(1, 9)));
            break;
        case 9: { // floordiv(x, c) * c * a + floormod(x, c) * a, x a sum or not, maybe more terms between
            const ir::Expr x = expr(depth - 1);
            const int64_t c = m_rng.uniformInt(2, 8);
            const int64_t a = m_rng.uniformInt(1, 3);
            out = ir::floorDiv(x, imm(c)) * imm(c * a) + (m_rng.bernoulli(0.5) ? expr(depth - 1) : imm(0))
                + ir::floorMod(x, imm(c)) * imm(a);
            break;
        }
        case 10:
            out = m_rng.bernoulli(0.5) ? ir::min(expr(depth - 1), expr(depth - 1))
                                       : ir::max(expr(depth - 1), expr(depth - 1));
            break;
        default:
            out = m_rng.bernoulli(0.5) ? expr(depth - 1) / imm(m_rng.uniformInt(1, 5))
                                       : expr(depth - 1) % imm(m_rng.uniformInt(1, 5));
            break;
        }
        if (m_rng.bernoulli(0.3))
            m_pool.push_back(out);
        return out;
    }

private:
    ir::Expr leaf()
    {
        if (!m_pool.empty() && m_rng.bernoulli(0.2)) // shared subexpressions
            return m_pool[static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(m_pool.size()) - 1))];
        if (m_rng.bernoulli(0.25))
            return imm(m_rng.uniformInt(-3, 9));
        return m_vars[static_cast<size_t>(m_rng.uniformInt(0, static_cast<int64_t>(m_vars.size()) - 1))];
    }

    Rng& m_rng;
    ir::DType m_dtype;
    std::vector<ir::Expr> m_vars;
    std::vector<ir::Expr> m_pool;
};

void expectSame(const ir::Expr& fast, const ir::Expr& reference, const ir::Expr& input)
{
    ASSERT_TRUE(ir::structuralEqual(fast, reference))
        << "input " << ir::toString(input) << "\n fast " << ir::toString(fast) << "\n reference "
        << ir::toString(reference) << " (types " << ir::toString(fast->dtype) << ", " << ir::toString(reference->dtype)
        << ")";
}

} // namespace

TEST(ArithFastPath, SimplifyAgreesWithThePlainRewriteOnRandomIndices)
{
    Rng rng(11);
    int changed = 0;
    for (int round = 0; round < 3000; ++round) {
        RandomIndex gen(rng, round % 5 == 0 ? ir::DType::Int32 : ir::DType::Int64);
        lower::arith::Analyzer analyzer;
        for (size_t v = 0; v + 1 < gen.vars().size(); ++v) // the last var stays unbound
            analyzer.bind(gen.vars()[v], 0, rng.uniformInt(0, 12));
        const test::ReferenceSimplifier reference(analyzer);
        const ir::Expr e = gen.expr(5);
        const ir::Expr fast = analyzer.simplify(e);
        expectSame(fast, reference.simplify(e), e);
        changed += ir::toString(fast) != ir::toString(e);
        // Comparisons simplify through bound(simplify(a - b)).
        const ir::Expr condition = gen.expr(3) < gen.expr(3);
        expectSame(analyzer.simplify(condition), reference.simplify(condition), condition);
        // Linear forms: same atoms (by identity), coefficients and order.
        const lower::arith::Linear a = analyzer.linear(e);
        const lower::arith::Linear b = reference.linear(e);
        ASSERT_EQ(a.constant, b.constant) << ir::toString(e);
        ASSERT_EQ(a.terms.size(), b.terms.size()) << ir::toString(e);
        for (size_t t = 0; t < a.terms.size(); ++t) {
            EXPECT_TRUE(a.terms[t].atom.sameAs(b.terms[t].atom)) << ir::toString(e);
            EXPECT_EQ(a.terms[t].coef, b.terms[t].coef) << ir::toString(e);
        }
    }
    EXPECT_GT(changed, 1500); // the expressions were not already simple
}

TEST(ArithFastPath, AnAlreadySimpleIndexComesBackAsTheSameNode)
{
    const ir::Expr i = ir::var("i");
    const ir::Expr j = ir::var("j");
    const ir::Expr f = ir::var("f");
    lower::arith::Analyzer analyzer;
    analyzer.bind(i, 0, 7);
    analyzer.bind(j, 0, 3);
    analyzer.bind(f, 0, 97);
    for (const ir::Expr& e : { i * 4 + j, i * 4 - j + 5, ir::floorDiv(f, ir::intImm(49)) * 32 + j,
             ir::floorMod(ir::floorDiv(f, ir::intImm(7)), ir::intImm(7)) * 8 + i - 1 }) {
        const ir::Expr s = analyzer.simplify(e);
        EXPECT_TRUE(s.sameAs(e)) << ir::toString(e) << " -> " << ir::toString(s);
    }
    // Not simple: rebuilt.
    const ir::Expr e = i * 4 + j - i * 4;
    EXPECT_EQ(ir::toString(analyzer.simplify(e)), "j");
}

TEST(ArithFastPath, BindValueIsSimplifyAfterSubstitution)
{
    Rng rng(5);
    for (int round = 0; round < 1000; ++round) {
        RandomIndex gen(rng, ir::DType::Int64);
        lower::arith::Analyzer analyzer;
        for (size_t v = 1; v < gen.vars().size(); ++v)
            analyzer.bind(gen.vars()[v], 0, rng.uniformInt(1, 9));
        const ir::Expr e = gen.expr(5);
        const ir::Expr zero = ir::intImm(0);
        const ir::Expr substituted = ir::substitute(e, { { gen.vars()[0], zero } });
        const ir::Expr expected = analyzer.simplify(substituted);
        analyzer.bindValue(gen.vars()[0], zero);
        expectSame(analyzer.simplify(e), expected, e);
        EXPECT_EQ(analyzer.bound(gen.vars()[0]).hi, 0);
        analyzer.unbind(gen.vars()[0]);
        expectSame(analyzer.simplify(substituted), expected, substituted);
        EXPECT_FALSE(analyzer.bound(gen.vars()[0]).bounded);
    }
}

TEST(ArithFastPath, PointerMapAgreesWithAStandardMapUnderInsertAndErase)
{
    // Keys 16 bytes apart collide in clusters; erasing from the middle of a cluster must keep the rest found.
    std::vector<int64_t> storage(512);
    lower::arith::PointerMap<int64_t, int> map;
    std::unordered_map<const int64_t*, int> expected;
    Rng rng(3);
    for (int step = 0; step < 20000; ++step) {
        const int64_t* key = &storage[static_cast<size_t>(rng.uniformInt(0, 511))];
        if (rng.bernoulli(0.4)) {
            map.erase(key);
            expected.erase(key);
        } else {
            const int value = static_cast<int>(rng.uniformInt(0, 1000));
            map.set(key, value);
            expected[key] = value;
        }
        ASSERT_EQ(map.size(), expected.size());
    }
    for (const int64_t& slot : storage) {
        const int* found = map.find(&slot);
        const auto it = expected.find(&slot);
        ASSERT_EQ(found != nullptr, it != expected.end());
        if (found) {
            EXPECT_EQ(*found, it->second);
        }
    }
}
