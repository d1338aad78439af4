// Arithmetic analysis: what the simplifier folds given the ranges of the bound loop variables.
#include "core/lower/arith_analyzer.h"

#include <gtest/gtest.h>

using namespace ts;

TEST(ArithAnalyzer, AConstantOperandOfAndOrDecidesOrDropsOut)
{
    const ir::Expr i = ir::var("i");
    const ir::Expr j = ir::var("j");
    lower::arith::Analyzer analyzer;
    analyzer.bind(i, 0, 3);
    const ir::Expr yes = i < ir::intImm(10); // always true for i in [0, 3]
    const ir::Expr no = i > ir::intImm(10); // always false
    const ir::Expr unknown = j < ir::intImm(2); // j is not bound
    auto simplified = [&](const ir::Expr& e) { return ir::toString(analyzer.simplify(e)); };
    const std::string t = simplified(yes);
    const std::string f = simplified(no);
    EXPECT_NE(t, f);
    EXPECT_EQ(simplified(yes && unknown), "j < 2");
    EXPECT_EQ(simplified(unknown && yes), "j < 2");
    EXPECT_EQ(simplified(no && unknown), f);
    EXPECT_EQ(simplified(unknown && no), f);
    EXPECT_EQ(simplified(yes || unknown), t);
    EXPECT_EQ(simplified(unknown || yes), t);
    EXPECT_EQ(simplified(no || unknown), "j < 2");
    EXPECT_EQ(simplified(unknown || no), "j < 2");
    EXPECT_EQ(simplified(unknown && unknown), "j < 2 && j < 2");
}
