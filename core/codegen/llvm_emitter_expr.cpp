// Scalar expressions: one LLVM value per expression, integer arithmetic in the expression's own width,
// floor division and modulo as TVM defines them (unsigned where the operands are known non-negative).
#include "core/codegen/llvm_emitter_private.h"
#include "core/support/assert.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;

bool containsLoad(const Expr& e)
{
    bool found = false;
    ir::postOrderVisit(e, [&](const ExprNode& n) { found |= n.kind == ExprKind::BufferLoad; });
    return found;
}

llvm::Type* Emitter::typeOf(ir::DType t)
{
    switch (t) {
    case ir::DType::Bool:
        return llvm::Type::getInt1Ty(m_ctx);
    case ir::DType::Int8:
        return llvm::Type::getInt8Ty(m_ctx);
    case ir::DType::Int32:
        return llvm::Type::getInt32Ty(m_ctx);
    case ir::DType::Int64:
        return m_i64;
    case ir::DType::Float32:
        return m_f32;
    case ir::DType::Float16:
        unsupported("float16 code generation");
    }
    return m_i64;
}

llvm::Value* Emitter::scalar(const Expr& e)
{
    const ExprNode& n = *e;
    switch (n.kind) {
    case ExprKind::IntImm:
        return llvm::ConstantInt::get(typeOf(n.dtype), static_cast<uint64_t>(n.intValue), true);
    case ExprKind::FloatImm:
        return llvm::ConstantFP::get(typeOf(n.dtype), n.floatValue);
    case ExprKind::Var: {
        auto it = m_scope->vars.find(e.get());
        TS_ASSERT(it != m_scope->vars.end()) << "variable " << n.name << " not in scope";
        return it->second;
    }
    case ExprKind::BufferLoad: {
        if (n.operands.size() != 1)
            unsupported("load from " + n.buffer->name + " before storage flattening");
        return loadElements(*n.buffer, indexParts(n.operands[0]), typeOf(n.buffer->dtype), 1);
    }
    case ExprKind::Load:
        unsupported("tensor load " + ir::toString(e) + " in loop IR");
    case ExprKind::Select:
        return scalarSelect(n);
    case ExprKind::Cast:
        return castValue(scalar(n.operands[0]), n.operands[0]->dtype, n.dtype);
    case ExprKind::Not:
        return m_b.CreateNot(scalar(n.operands[0]));
    case ExprKind::Call: {
        std::vector<llvm::Value*> args;
        for (const Expr& a : n.operands)
            args.push_back(scalar(a));
        return mathCall(n.callOp, args, m_f32);
    }
    default:
        break;
    }
    llvm::Value* x = scalar(n.operands[0]);
    llvm::Value* y = scalar(n.operands[1]);
    const ir::DType t = n.operands[0]->dtype;
    if (ir::isComparison(n.kind))
        return compare(n.kind, ir::isFloat(t), x, y);
    if (ir::isFloat(t))
        return floatBinary(n.kind, x, y);
    return intBinary(n.kind, n.operands[0], n.operands[1], x, y);
}

llvm::Value* Emitter::index(const Expr& e) { return materialize(indexParts(e)); }

llvm::Value* Emitter::materialize(const IndexParts& at)
{
    llvm::Value* c = llvm::ConstantInt::get(at.type, static_cast<uint64_t>(at.constant), true);
    if (!at.sum)
        return c;
    return at.constant == 0 ? at.sum : intOp(llvm::Instruction::Add, at.sum, c, true);
}

IndexParts Emitter::indexParts(const Expr& e)
{
    llvm::Type* type = typeOf(e->dtype);
    const lower::arith::Linear form = m_scope->analyzer.linear(e);
    // Depth of a term: that of its innermost loop variable (-1 for none).
    struct Term {
        int depth;
        llvm::Value* value;
        int64_t coef;
    };
    std::vector<Term> terms;
    int64_t constant = form.constant;
    for (const lower::arith::LinearTerm& t : form.terms) {
        llvm::Value* v = scalar(t.atom);
        if (v->getType() != type)
            return { scalar(e), 0, type }; // mixed widths: emitted as written
        if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) { // an unrolled loop's term
            constant += c->getSExtValue() * t.coef;
            continue;
        }
        int depth = -1;
        ir::postOrderVisit(t.atom, [&](const ExprNode& n) {
            auto it = m_loopDepth.find(&n);
            if (it != m_loopDepth.end())
                depth = std::max(depth, it->second);
        });
        terms.push_back({ depth, v, t.coef });
    }
    std::stable_sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.depth < b.depth; });
    llvm::Value* sum = nullptr;
    for (const Term& t : terms) {
        llvm::Value* v = t.coef == 1 ? t.value
                                     : intOp(llvm::Instruction::Mul, t.value,
                                         llvm::ConstantInt::get(type, static_cast<uint64_t>(t.coef), true), true);
        sum = sum ? intOp(llvm::Instruction::Add, sum, v, true) : v;
    }
    return { sum, constant, type };
}

llvm::Value* Emitter::intOp(llvm::Instruction::BinaryOps op, llvm::Value* x, llvm::Value* y, bool nsw)
{
    if (llvm::isa<llvm::Constant>(x) && llvm::isa<llvm::Constant>(y))
        return m_b.CreateBinOp(op, x, y); // folded
    llvm::Value*& made = m_intOps[{ m_b.GetInsertBlock(), op, nsw, x, y }];
    if (!made) {
        made = m_b.CreateBinOp(op, x, y);
        if (nsw)
            if (auto* inst = llvm::dyn_cast<llvm::BinaryOperator>(made))
                inst->setHasNoSignedWrap(true);
    }
    return made;
}

llvm::Value* Emitter::scalarSelect(const ExprNode& n)
{
    llvm::Value* c = scalar(n.operands[0]);
    if (!containsLoad(n.operands[1]) && !containsLoad(n.operands[2]))
        return m_b.CreateSelect(c, scalar(n.operands[1]), scalar(n.operands[2]));
    // A load in a branch may be out of bounds when the branch is not taken (padding): branch. (Loading
    // element 0 instead and selecting kept an unrolled body one block, but it made LLVM vectorize a padded
    // copy with gathers where the branches become masked loads: ResNet-18 NHWC task 4 ran 0.58 -> 0.90 ms.)
    llvm::Function* fn = m_b.GetInsertBlock()->getParent();
    auto* thenBlock = llvm::BasicBlock::Create(m_ctx, "sel.then", fn);
    auto* elseBlock = llvm::BasicBlock::Create(m_ctx, "sel.else", fn);
    auto* done = llvm::BasicBlock::Create(m_ctx, "sel.end", fn);
    m_b.CreateCondBr(c, thenBlock, elseBlock);
    m_b.SetInsertPoint(thenBlock);
    llvm::Value* a = scalar(n.operands[1]);
    llvm::BasicBlock* aEnd = m_b.GetInsertBlock();
    m_b.CreateBr(done);
    m_b.SetInsertPoint(elseBlock);
    llvm::Value* b = scalar(n.operands[2]);
    llvm::BasicBlock* bEnd = m_b.GetInsertBlock();
    m_b.CreateBr(done);
    m_b.SetInsertPoint(done);
    llvm::PHINode* phi = m_b.CreatePHI(a->getType(), 2);
    phi->addIncoming(a, aEnd);
    phi->addIncoming(b, bEnd);
    return phi;
}

llvm::Value* Emitter::intBinary(ExprKind kind, const Expr& a, const Expr& b, llvm::Value* x, llvm::Value* y)
{
    switch (kind) {
    case ExprKind::Add:
        return intOp(llvm::Instruction::Add, x, y);
    case ExprKind::Sub:
        return intOp(llvm::Instruction::Sub, x, y);
    case ExprKind::Mul:
        return intOp(llvm::Instruction::Mul, x, y);
    case ExprKind::Div:
        return intOp(llvm::Instruction::SDiv, x, y);
    case ExprKind::Mod:
        return intOp(llvm::Instruction::SRem, x, y);
    case ExprKind::FloorDiv:
    case ExprKind::FloorMod: {
        const lower::arith::Interval ra = m_scope->analyzer.bound(a);
        const lower::arith::Interval rb = m_scope->analyzer.bound(b);
        if (ra.bounded && rb.bounded && ra.lo >= 0 && rb.lo > 0) // both non-negative: unsigned, shifts for 2^k
            return intOp(kind == ExprKind::FloorDiv ? llvm::Instruction::UDiv : llvm::Instruction::URem, x, y);
        llvm::Value* q = m_b.CreateSDiv(x, y);
        llvm::Value* r = m_b.CreateSRem(x, y);
        llvm::Value* zero = llvm::Constant::getNullValue(x->getType());
        llvm::Value* adjust = m_b.CreateAnd(
            m_b.CreateICmpNE(r, zero), m_b.CreateICmpNE(m_b.CreateICmpSLT(r, zero), m_b.CreateICmpSLT(y, zero)));
        if (kind == ExprKind::FloorDiv)
            return m_b.CreateSub(q, m_b.CreateZExt(adjust, x->getType()));
        return m_b.CreateSelect(adjust, m_b.CreateAdd(r, y), r);
    }
    case ExprKind::Min:
        return m_b.CreateSelect(m_b.CreateICmpSLT(x, y), x, y);
    case ExprKind::Max:
        return m_b.CreateSelect(m_b.CreateICmpSGT(x, y), x, y);
    case ExprKind::And:
        return m_b.CreateAnd(x, y);
    case ExprKind::Or:
        return m_b.CreateOr(x, y);
    default:
        unsupported(std::string("integer operator ") + std::string(ir::toString(kind)));
    }
}

llvm::Value* Emitter::floatBinary(ExprKind kind, llvm::Value* x, llvm::Value* y)
{
    switch (kind) {
    case ExprKind::Add:
        return m_b.CreateFAdd(x, y);
    case ExprKind::Sub:
        return m_b.CreateFSub(x, y);
    case ExprKind::Mul:
        return m_b.CreateFMul(x, y);
    case ExprKind::Div:
        return m_b.CreateFDiv(x, y);
    case ExprKind::Min:
        return m_b.CreateSelect(m_b.CreateFCmpOLT(x, y), x, y);
    case ExprKind::Max:
        return m_b.CreateSelect(m_b.CreateFCmpOGT(x, y), x, y);
    default:
        unsupported(std::string("float operator ") + std::string(ir::toString(kind)));
    }
}

llvm::Value* Emitter::compare(ExprKind kind, bool isFloat, llvm::Value* x, llvm::Value* y)
{
    using P = llvm::CmpInst::Predicate;
    P p = P::ICMP_EQ;
    switch (kind) {
    case ExprKind::EQ:
        p = isFloat ? P::FCMP_OEQ : P::ICMP_EQ;
        break;
    case ExprKind::NE:
        p = isFloat ? P::FCMP_UNE : P::ICMP_NE;
        break;
    case ExprKind::LT:
        p = isFloat ? P::FCMP_OLT : P::ICMP_SLT;
        break;
    case ExprKind::LE:
        p = isFloat ? P::FCMP_OLE : P::ICMP_SLE;
        break;
    case ExprKind::GT:
        p = isFloat ? P::FCMP_OGT : P::ICMP_SGT;
        break;
    case ExprKind::GE:
        p = isFloat ? P::FCMP_OGE : P::ICMP_SGE;
        break;
    default:
        break;
    }
    return isFloat ? m_b.CreateFCmp(p, x, y) : m_b.CreateICmp(p, x, y);
}

llvm::Value* Emitter::expOf(llvm::Value* x, llvm::Type* type)
{
    // llvm.exp on a vector becomes one libm call per lane, which kept softmax and sigmoid loops scalar. Instead:
    // x = n ln2 + r with |r| <= ln2 / 2 (ln2 in two parts, so n ln2 is exact to float32), e^r by a polynomial
    // fitted for this project (1 + r + r^2 (c2 + c3 r + ... + c6 r^4), within 8.2e-8 relative of exp in float32
    // evaluation), and 2^n as two exponent-field scalings, 2^(n/2) 2^(n - n/2), so neither leaves the normal
    // range: results underflow gradually to 0 below -103.97 and overflow to inf above 88.72 as exp does. The
    // clamp is two selects, and a NaN is passed through by a last one.
    static constexpr double kC[] = { 0.49999991, 0.166665426, 0.0416692079, 0.00836613663, 0.00137529769 };
    auto c = [&](double v) { return llvm::ConstantFP::get(type, v); };
    llvm::Type* intType = type->isVectorTy()
        ? static_cast<llvm::Type*>(llvm::FixedVectorType::get(m_b.getInt32Ty(), m_lanes))
        : static_cast<llvm::Type*>(m_b.getInt32Ty());
    auto i = [&](int64_t v) { return llvm::ConstantInt::get(intType, static_cast<uint64_t>(v), true); };
    llvm::Value* v = m_b.CreateSelect(m_b.CreateFCmpOGT(x, c(89.0)), c(89.0), x);
    v = m_b.CreateSelect(m_b.CreateFCmpOLT(v, c(-104.0)), c(-104.0), v);
    llvm::Value* n = m_b.CreateCall(llvm::Intrinsic::getDeclaration(&m_module, llvm::Intrinsic::floor, { type }),
        { m_b.CreateFAdd(m_b.CreateFMul(v, c(1.44269504)), c(0.5)) });
    llvm::Value* r = m_b.CreateFSub(v, m_b.CreateFMul(n, c(0.693359375)));
    r = m_b.CreateFSub(r, m_b.CreateFMul(n, c(-2.12194440e-4)));
    llvm::Value* p = c(kC[4]);
    for (int k = 3; k >= 0; --k)
        p = m_b.CreateFAdd(m_b.CreateFMul(p, r), c(kC[k]));
    p = m_b.CreateFAdd(m_b.CreateFAdd(m_b.CreateFMul(m_b.CreateFMul(p, r), r), r), c(1.0));
    llvm::Value* whole = m_b.CreateFPToSI(n, intType);
    llvm::Value* half = m_b.CreateAShr(whole, i(1));
    auto power = [&](llvm::Value* e) { // 2^e for -127 < e < 128
        return m_b.CreateBitCast(m_b.CreateShl(m_b.CreateAdd(e, i(127)), i(23)), type);
    };
    llvm::Value* out = m_b.CreateFMul(m_b.CreateFMul(p, power(half)), power(m_b.CreateSub(whole, half)));
    return m_b.CreateSelect(m_b.CreateFCmpUNO(x, x), x, out);
}

llvm::Value* Emitter::mathCall(ir::CallOp op, const std::vector<llvm::Value*>& args, llvm::Type* type)
{
    auto intrinsic = [&](llvm::Intrinsic::ID id) {
        return m_b.CreateCall(llvm::Intrinsic::getDeclaration(&m_module, id, { type }), args);
    };
    llvm::Value* one = llvm::ConstantFP::get(type, 1.0);
    switch (op) {
    case ir::CallOp::Exp:
        return expOf(args[0], type);
    case ir::CallOp::Log:
        return intrinsic(llvm::Intrinsic::log);
    case ir::CallOp::Sqrt:
        return intrinsic(llvm::Intrinsic::sqrt);
    case ir::CallOp::Rsqrt:
        return m_b.CreateFDiv(one, intrinsic(llvm::Intrinsic::sqrt));
    case ir::CallOp::Abs:
        return intrinsic(llvm::Intrinsic::fabs);
    case ir::CallOp::Pow:
        return intrinsic(llvm::Intrinsic::pow);
    case ir::CallOp::Sigmoid:
        return m_b.CreateFDiv(one, m_b.CreateFAdd(one, expOf(m_b.CreateFNeg(args[0]), type)));
    case ir::CallOp::Erf: {
        // No LLVM intrinsic, and libm's erff lane by lane kept GELU's vector loops scalar. A rational
        // approximation in x^2 instead, fitted for this project on |x| <= 3.925 (beyond, erf is +-1 in float32):
        // erf(x) = x P(x^2) / Q(x^2), evaluated in float32 within 4e-7 of erf (absolute and relative), and only
        // multiplies, adds and one divide, so it vectorizes. The clamp is two selects, which keep a NaN a NaN.
        static constexpr double kP[]
            = { 1.12837915, 0.193217739, 0.0496821895, 0.00342777119, 0.000136301092, -1.96214109e-06, 2.05359897e-08 };
        static constexpr double kQ[] = { 1.0, 0.504567086, 0.112224888, 0.0137851269, 0.000893048282 };
        llvm::Value* limit = llvm::ConstantFP::get(type, 3.925);
        llvm::Value* negLimit = llvm::ConstantFP::get(type, -3.925);
        llvm::Value* x = args[0];
        x = m_b.CreateSelect(m_b.CreateFCmpOGT(x, limit), limit, x);
        x = m_b.CreateSelect(m_b.CreateFCmpOLT(x, negLimit), negLimit, x);
        llvm::Value* z = m_b.CreateFMul(x, x);
        auto horner = [&](const double* c, int n) {
            llvm::Value* acc = llvm::ConstantFP::get(type, c[n - 1]);
            for (int k = n - 2; k >= 0; --k)
                acc = m_b.CreateFAdd(m_b.CreateFMul(acc, z), llvm::ConstantFP::get(type, c[k]));
            return acc;
        };
        return m_b.CreateFDiv(m_b.CreateFMul(x, horner(kP, 7)), horner(kQ, 5));
    }
    case ir::CallOp::Tanh: {
        // No LLVM intrinsic: libm, lane by lane.
        llvm::Function* f = runtimeFunction("tanhf", m_f32, { m_f32 });
        if (!type->isVectorTy())
            return m_b.CreateCall(f, args);
        llvm::Value* out = llvm::UndefValue::get(type);
        for (unsigned i = 0; i < m_lanes; ++i)
            out = m_b.CreateInsertElement(out, m_b.CreateCall(f, { m_b.CreateExtractElement(args[0], i) }), i);
        return out;
    }
    }
    unsupported("math function");
}

llvm::Value* Emitter::castValue(llvm::Value* v, ir::DType from, ir::DType to)
{
    llvm::Type* target = typeOf(to);
    if (v->getType()->isVectorTy())
        target = llvm::FixedVectorType::get(target, m_lanes);
    if (ir::isFloat(from) && ir::isFloat(to))
        return m_b.CreateFPCast(v, target);
    if (ir::isFloat(from))
        return m_b.CreateFPToSI(v, target);
    if (ir::isFloat(to))
        return from == ir::DType::Bool ? m_b.CreateUIToFP(v, target) : m_b.CreateSIToFP(v, target);
    return from == ir::DType::Bool ? m_b.CreateZExtOrTrunc(v, target) : m_b.CreateSExtOrTrunc(v, target);
}

} // namespace ts::codegen
