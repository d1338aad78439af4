#include "core/codegen/cuda_source.h"

#include "core/ir/operation.h"
#include "core/lower/arith_analyzer.h"
#include "core/lower/stmt_visitor.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace ts::codegen {

using ir::Expr;
using ir::ExprKind;
using lower::ForKind;
using lower::Stmt;
using lower::StmtKind;
using lower::StmtNode;

namespace {
    constexpr const char* kFloorHelpers = R"(__device__ __forceinline__ int ts_floordiv(int a, int b)
{
    const int q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
__device__ __forceinline__ int ts_floormod(int a, int b)
{
    const int r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
)";

    Expected<std::string> cType(ir::DType t)
    {
        switch (t) {
        case ir::DType::Float32:
            return std::string("float");
        case ir::DType::Int32:
        case ir::DType::Int64: // indices: int32, as TVM's CUDA code
            return std::string("int");
        case ir::DType::Bool:
            return std::string("bool");
        case ir::DType::Int8:
            return std::string("signed char");
        case ir::DType::Float16:
            break;
        }
        return makeError(ErrorKind::Unsupported,
            std::string(ir::toString(t)) + " buffers are not generated for CUDA yet (float32 only)");
    }

    std::string floatLiteral(double v)
    {
        if (std::isinf(v))
            return v > 0 ? "__int_as_float(0x7f800000)" : "__int_as_float(0xff800000)";
        if (std::isnan(v))
            return "__int_as_float(0x7fc00000)";
        char text[64];
        std::snprintf(text, sizeof text, "%.9g", v);
        std::string s = text;
        if (s.find_first_of(".e") == std::string::npos)
            s += ".0";
        return s + "f";
    }

    std::string identifier(const std::string& name)
    {
        std::string out;
        for (char c : name)
            out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
        return out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) ? "b_" + out : out;
    }

    // `base`, or base_1, base_2, ... : the first not in `taken`, which then holds it.
    std::string uniqueIn(std::set<std::string>& taken, const std::string& base)
    {
        std::string name = base;
        for (int k = 1; !taken.insert(name).second; ++k)
            name = base + "_" + std::to_string(k);
        return name;
    }

    class CudaEmitter : public lower::StmtVisitor {
    public:
        CudaEmitter(const lower::GpuKernel& kernel, std::map<const ir::BufferVar*, std::string>& bufferNames,
            std::set<std::string> taken)
            : m_kernel(kernel)
            , m_bufferNames(bufferNames)
            , m_taken(std::move(taken))
        {
        }

        Expected<std::string> body()
        {
            m_indent = 1;
            visit(m_kernel.body);
            if (!m_error.empty())
                return makeError(ErrorKind::Unsupported, m_error);
            return m_os.str();
        }
        bool usesFloorHelpers() const { return m_floorHelpers; }

    private:
        std::string pad() const { return std::string(static_cast<size_t>(m_indent) * 4, ' '); }

        std::string varName(const ir::ExprNode* v)
        {
            auto it = m_varNames.find(v);
            if (it != m_varNames.end())
                return it->second;
            return m_varNames[v] = uniqueIn(m_taken, identifier(v->name));
        }

        const std::string& bufferName(const ir::BufferVar* b) { return m_bufferNames.at(b); }

        // C text for e, parenthesized when its operator binds less tightly than `context` (C's precedence:
        // 1 ||, 2 &&, 3 == !=, 4 < <= > >=, 5 + -, 6 * / %, 7 casts and !, 8 calls and names). Operators are
        // left-associative: a right operand of the same precedence keeps its parentheses (floats do not
        // reassociate).
        std::string expr(const Expr& e, int context = 0)
        {
            const ir::ExprNode& x = *e;
            auto wrap
                = [&](int precedence, std::string text) { return precedence < context ? "(" + text + ")" : text; };
            auto bin = [&](const char* op) {
                int p = 6;
                switch (x.kind) {
                case ExprKind::Add:
                case ExprKind::Sub:
                    p = 5;
                    break;
                case ExprKind::LT:
                case ExprKind::LE:
                case ExprKind::GT:
                case ExprKind::GE:
                    p = 4;
                    break;
                case ExprKind::EQ:
                case ExprKind::NE:
                    p = 3;
                    break;
                case ExprKind::And:
                    p = 2;
                    break;
                case ExprKind::Or:
                    p = 1;
                    break;
                default:
                    break;
                }
                return wrap(p, expr(x.operands[0], p) + " " + op + " " + expr(x.operands[1], p + 1));
            };
            switch (x.kind) {
            case ExprKind::IntImm:
                return x.intValue < 0 ? wrap(7, std::to_string(x.intValue)) : std::to_string(x.intValue);
            case ExprKind::FloatImm:
                return floatLiteral(x.floatValue);
            case ExprKind::Var: {
                auto lane = m_laneValues.find(e.get());
                if (lane != m_laneValues.end())
                    return std::to_string(lane->second);
                return varName(e.get());
            }
            case ExprKind::Add:
                return bin("+");
            case ExprKind::Sub:
                return bin("-");
            case ExprKind::Mul:
                return bin("*");
            case ExprKind::Div:
                return bin("/");
            case ExprKind::Mod:
                if (ir::isFloat(x.dtype))
                    return "fmodf(" + expr(x.operands[0]) + ", " + expr(x.operands[1]) + ")";
                return bin("%");
            case ExprKind::FloorDiv:
            case ExprKind::FloorMod: {
                const bool div = x.kind == ExprKind::FloorDiv;
                if (ir::isFloat(x.dtype))
                    return div ? "floorf(" + expr(x.operands[0], 6) + " / " + expr(x.operands[1], 7) + ")"
                               : wrap(5,
                                   expr(x.operands[0], 5) + " - floorf(" + expr(x.operands[0], 6) + " / "
                                       + expr(x.operands[1], 7) + ") * " + expr(x.operands[1], 7));
                int64_t divisor = 0;
                const lower::arith::Interval a = m_analyzer.bound(x.operands[0]);
                if (ir::asConstInt(x.operands[1], &divisor) && divisor > 0 && a.bounded && a.lo >= 0)
                    return bin(div ? "/" : "%");
                m_floorHelpers = true;
                return std::string(div ? "ts_floordiv(" : "ts_floormod(") + expr(x.operands[0]) + ", "
                    + expr(x.operands[1]) + ")";
            }
            case ExprKind::Min:
            case ExprKind::Max: {
                const bool isMin = x.kind == ExprKind::Min;
                const char* f = ir::isFloat(x.dtype) ? (isMin ? "fminf" : "fmaxf") : (isMin ? "min" : "max");
                return std::string(f) + "(" + expr(x.operands[0]) + ", " + expr(x.operands[1]) + ")";
            }
            case ExprKind::EQ:
                return bin("==");
            case ExprKind::NE:
                return bin("!=");
            case ExprKind::LT:
                return bin("<");
            case ExprKind::LE:
                return bin("<=");
            case ExprKind::GT:
                return bin(">");
            case ExprKind::GE:
                return bin(">=");
            case ExprKind::And:
                return bin("&&");
            case ExprKind::Or:
                return bin("||");
            case ExprKind::Not:
                return wrap(7, "!" + expr(x.operands[0], 7));
            case ExprKind::Select:
                return "(" + expr(x.operands[0], 1) + " ? " + expr(x.operands[1], 1) + " : " + expr(x.operands[2], 1)
                    + ")";
            case ExprKind::Cast: {
                auto type = cType(x.dtype);
                if (!type)
                    return fail(type.error().message);
                return wrap(7, "(" + *type + ")" + expr(x.operands[0], 7));
            }
            case ExprKind::Call:
                return call(x);
            case ExprKind::BufferLoad: {
                if (auto vec = m_vectorLoads.find(e.get()); vec != m_vectorLoads.end())
                    return vec->second + "." + "xyzw"[m_lane];
                return bufferName(x.buffer.get()) + "[" + expr(x.operands[0]) + "]";
            }
            case ExprKind::Load:
                return fail("a tensor load survived lowering (" + x.tensor->name() + ")");
            }
            return fail("unknown expression kind");
        }

        std::string call(const ir::ExprNode& x)
        {
            const std::string a = expr(x.operands[0]);
            switch (x.callOp) {
            case ir::CallOp::Exp:
                return "__expf(" + a + ")";
            case ir::CallOp::Log:
                return "__logf(" + a + ")";
            case ir::CallOp::Sqrt:
                return "sqrtf(" + a + ")";
            case ir::CallOp::Rsqrt:
                return "rsqrtf(" + a + ")";
            case ir::CallOp::Tanh:
                return "tanhf(" + a + ")";
            case ir::CallOp::Erf:
                return "erff(" + a + ")";
            case ir::CallOp::Sigmoid:
                return "(1.0f / (1.0f + __expf(-(" + a + "))))";
            case ir::CallOp::Abs:
                return "fabsf(" + a + ")";
            case ir::CallOp::Pow:
                return "powf(" + a + ", " + expr(x.operands[1]) + ")";
            }
            return fail("unknown call");
        }

        std::string fail(const std::string& why)
        {
            if (m_error.empty())
                m_error = why;
            return "0";
        }

        void visitFor(const StmtNode& s) override
        {
            const std::string v = varName(s.var.get());
            m_analyzer.bind(s.var, 0, s.extent - 1);
            const lower::GpuThreadTag tag = lower::threadTagOf(s.threadTag);
            if (s.forKind == ForKind::ThreadBinding && tag.dim >= 0) {
                m_threadLoops.push_back(&s);
                const auto d = static_cast<size_t>(tag.dim);
                const int64_t launch = tag.thread ? m_kernel.block[d] : m_kernel.grid[d];
                m_os << pad() << "{\n";
                ++m_indent;
                m_os << pad() << "const int " << v << " = (int)" << s.threadTag << ";\n";
                if (s.extent < launch) {
                    m_os << pad() << "if (" << v << " < " << s.extent << ") {\n";
                    ++m_indent;
                    visit(s.body);
                    --m_indent;
                    m_os << pad() << "}\n";
                } else {
                    visit(s.body);
                }
                --m_indent;
                m_os << pad() << "}\n";
                m_threadLoops.pop_back();
            } else if (s.forKind == ForKind::Vectorized && emitVector(s)) {
                // one vector access per buffer
            } else {
                if (s.forKind == ForKind::Unrolled || s.forKind == ForKind::Vectorized || s.threadTag == "vthread")
                    m_os << pad() << "#pragma unroll\n";
                m_os << pad() << "for (int " << v << " = 0; " << v << " < " << s.extent << "; ++" << v << ") {\n";
                ++m_indent;
                visit(s.body);
                --m_indent;
                m_os << pad() << "}\n";
            }
            m_analyzer.unbind(s.var);
        }

        // An index or value as emitted: fused-then-split indices taken apart (splitFusedDivMod), simplified.
        Expr prepared(const Expr& e) const { return m_analyzer.simplify(m_analyzer.splitFusedDivMod(e)); }

        // The index at lane 0: the vector's first element.
        Expr laneZero(const Expr& index, const Expr& v) const
        {
            return m_analyzer.simplify(ir::substitute(index, { { v, ir::intImm(0) } }));
        }

        // Whether index moves with v at stride 1 from a base `lanes` divides (the vector is aligned).
        bool alignedRamp(const Expr& index, const ir::ExprNode* v, int lanes) const
        {
            const lower::arith::Linear form = m_analyzer.linear(index);
            bool pure = true;
            if (form.coefficientOf(v, &pure) != 1 || !pure || form.constant % lanes != 0)
                return false;
            for (const lower::arith::LinearTerm& t : form.terms)
                if (t.atom.get() != v && t.coef % lanes != 0)
                    return false;
            return true;
        }

        // A vectorized loop of 2 or 4 float lanes whose body is one store: each access that moves with the
        // loop at stride 1 from an aligned base becomes one float2/float4 access, the rest stay per lane.
        bool emitVector(const StmtNode& s)
        {
            const Stmt& body = s.body;
            if ((s.extent != 2 && s.extent != 4) || !body || body->kind != StmtKind::Store
                || body->buffer->dtype != ir::DType::Float32 || body->indices.size() != 1)
                return false;
            const int lanes = static_cast<int>(s.extent);
            const ir::ExprNode* v = s.var.get();
            const Expr index = prepared(body->indices[0]);
            const Expr value = prepared(body->value);
            if (!alignedRamp(index, v, lanes))
                return false;
            std::map<const ir::ExprNode*, std::string> loads; // BufferLoad node -> its vector local
            bool ok = true;
            std::vector<std::pair<std::string, std::string>> loadLines; // local, address
            ir::postOrderVisit(value, [&](const ir::ExprNode& n) {
                if (n.kind != ExprKind::BufferLoad || !ok)
                    return;
                if (!ir::usesVar(n.operands[0], v))
                    return; // the same value in every lane
                if (n.dtype != ir::DType::Float32 || !alignedRamp(n.operands[0], v, lanes)) {
                    ok = false;
                    return;
                }
                if (loads.count(&n))
                    return;
                const std::string local = "vec" + std::to_string(m_vectors++);
                loads[&n] = local;
                loadLines.emplace_back(
                    local, bufferName(n.buffer.get()) + " + " + expr(laneZero(n.operands[0], s.var)));
            });
            if (!ok)
                return false;
            const std::string type = lanes == 4 ? "float4" : "float2";
            m_os << pad() << "{\n";
            ++m_indent;
            for (const auto& [local, address] : loadLines)
                m_os << pad() << "const " << type << " " << local << " = *(const " << type << "*)(" << address
                     << ");\n";
            std::vector<std::string> laneValues;
            m_vectorLoads = std::move(loads);
            for (m_lane = 0; m_lane < lanes; ++m_lane) {
                m_laneValues[v] = m_lane;
                laneValues.push_back(expr(value));
            }
            m_vectorLoads.clear();
            m_laneValues.erase(v);
            const std::string store = bufferName(body->buffer.get()) + " + " + expr(laneZero(index, s.var));
            m_os << pad() << "*(" << type << "*)(" << store << ") = make_" << type << "(";
            for (int l = 0; l < lanes; ++l)
                m_os << (l ? ", " : "") << laneValues[static_cast<size_t>(l)];
            m_os << ");\n";
            --m_indent;
            m_os << pad() << "}\n";
            return true;
        }

        void visitStore(const StmtNode& s) override
        {
            m_os << pad() << bufferName(s.buffer.get()) << "[" << expr(prepared(s.indices.at(0)))
                 << "] = " << expr(prepared(s.value)) << ";\n";
        }

        void visitAllocate(const StmtNode& s) override
        {
            const ir::BufferVar* b = s.buffer.get();
            const std::string unique = uniqueIn(m_taken, identifier(b->name));
            m_bufferNames[b] = unique;
            auto type = cType(b->dtype);
            if (!type) {
                fail(type.error().message);
                return;
            }
            m_os << pad() << (b->scope == "shared" ? "__shared__ " : "") << "__align__(16) " << *type << " " << unique
                 << "[" << b->allocatedElements() << "];\n";
            visit(s.body);
        }

        void visitIfThenElse(const StmtNode& s) override
        {
            m_os << pad() << "if (" << expr(prepared(s.condition)) << ") {\n";
            ++m_indent;
            visit(s.body);
            --m_indent;
            if (s.elseBody) {
                m_os << pad() << "} else {\n";
                ++m_indent;
                visit(s.elseBody);
                --m_indent;
            }
            m_os << pad() << "}\n";
        }

        void visitBarrier(const StmtNode&) override { m_os << pad() << "__syncthreads();\n"; }

        // The threads that differ only in the reduce thread combine their values (TVM's
        // LowerThreadAllreduce): warp shuffles within a warp when allReduceByWarpShuffle says so, else a tree
        // in a shared scratch array (lower/gpu_kernels.h, which counts its bytes). Every thread ends with
        // the result.
        void visitAllReduce(const StmtNode& s) override
        {
            const StmtNode* loop = lower::allReduceLoop(s, m_threadLoops);
            auto type = cType(s.buffer->dtype);
            if (!loop || !type) {
                fail(loop ? type.error().message : "a cross-thread reduction outside its thread loop");
                return;
            }
            const bool isFloat = ir::isFloat(s.buffer->dtype);
            auto combined = [&](const std::string& a, const std::string& b) {
                switch (s.reducer) {
                case ir::Reducer::Max:
                    return std::string(isFloat ? "fmaxf(" : "max(") + a + ", " + b + ")";
                case ir::Reducer::Min:
                    return std::string(isFloat ? "fminf(" : "min(") + a + ", " + b + ")";
                case ir::Reducer::Sum:
                case ir::Reducer::None:
                    break;
                }
                return a + " + " + b;
            };
            const lower::GpuThreadTag tag = lower::threadTagOf(loop->threadTag);
            const int64_t extent = loop->extent;
            const std::string result = bufferName(s.buffer.get()) + "[" + expr(prepared(s.indices.at(0))) + "]";
            const std::string value = expr(prepared(s.value));
            const std::string n = std::to_string(m_reductions++);
            m_os << pad() << "{ // all-reduce over " << loop->threadTag << " (" << extent << " threads)\n";
            ++m_indent;
            if (lower::allReduceByWarpShuffle(m_kernel, tag, extent)) {
                const std::string v = "red" + n;
                const std::string mask = "mask" + n;
                const std::string width = std::to_string(extent);
                m_os << pad() << *type << " " << v << " = " << value << ";\n";
                m_os << pad() << "const unsigned " << mask << " = __activemask();\n";
                for (int64_t offset = extent / 2; offset >= 1; offset /= 2)
                    m_os << pad() << v << " = "
                         << combined(v,
                                "__shfl_down_sync(" + mask + ", " + v + ", " + std::to_string(offset) + ", " + width
                                    + ")")
                         << ";\n";
                m_os << pad() << result << " = __shfl_sync(" << mask << ", " << v << ", 0, " << width << ");\n";
            } else {
                const auto& b = m_kernel.block;
                const std::string buf = "red_buf" + n;
                const std::string t = "red_t" + n;
                const std::string r = varName(loop->var.get());
                const int64_t stride = tag.dim == 0 ? 1 : tag.dim == 1 ? b[0] : b[0] * b[1];
                std::string linear = "(int)threadIdx.x";
                if (b[1] > 1 || b[2] > 1)
                    linear += " + " + std::to_string(b[0]) + " * (int)threadIdx.y";
                if (b[2] > 1)
                    linear += " + " + std::to_string(b[0] * b[1]) + " * (int)threadIdx.z";
                int64_t span = 1;
                while (span < extent)
                    span *= 2;
                m_os << pad() << "__shared__ " << *type << " " << buf << "[" << m_kernel.threads() << "];\n";
                m_os << pad() << "const int " << t << " = " << linear << ";\n";
                m_os << pad() << buf << "[" << t << "] = " << value << ";\n";
                m_os << pad() << "__syncthreads();\n";
                for (int64_t half = span / 2; half >= 1; half /= 2) {
                    const std::string other = t + " + " + std::to_string(half * stride);
                    m_os << pad() << "if (" << r << " < " << std::min(half, extent - half) << ") " << buf << "[" << t
                         << "] = " << combined(buf + "[" + t + "]", buf + "[" + other + "]") << ";\n";
                    m_os << pad() << "__syncthreads();\n";
                }
                m_os << pad() << result << " = " << buf << "[" << t << " - " << r
                     << (stride == 1 ? "" : " * " + std::to_string(stride)) << "];\n";
                m_os << pad() << "__syncthreads();\n";
            }
            --m_indent;
            m_os << pad() << "}\n";
        }

        const lower::GpuKernel& m_kernel;
        std::map<const ir::BufferVar*, std::string>& m_bufferNames;
        std::map<const ir::ExprNode*, std::string> m_varNames;
        std::set<std::string> m_taken;
        std::vector<const StmtNode*> m_threadLoops; // blockIdx/threadIdx loops around the statement emitted
        int m_reductions = 0;
        std::map<const ir::ExprNode*, int64_t> m_laneValues; // a vectorized loop's var, per lane
        std::map<const ir::ExprNode*, std::string> m_vectorLoads; // in a vector store: loads -> vector locals
        int m_lane = 0;
        int m_vectors = 0;
        lower::arith::Analyzer m_analyzer;
        std::ostringstream m_os;
        int m_indent = 0;
        bool m_floorHelpers = false;
        std::string m_error;
    };

} // namespace

Expected<CudaProgram> emitCuda(const lower::LoweredFunc& func, const target::Target& target)
{
    TS_TRY(const lower::GpuModule module, lower::gpuKernels(func, target));
    CudaProgram program;
    program.buffers = func.args;
    program.numArgs = static_cast<int>(func.args.size());
    for (const ir::BufferRef& w : module.workspaces)
        program.buffers.push_back(w);

    // Parameters: one C name per buffer, the same for every kernel.
    std::map<const ir::BufferVar*, std::string> names;
    std::set<std::string> paramNames;
    std::string params;
    for (size_t i = 0; i < program.buffers.size(); ++i) {
        const ir::BufferVar* b = program.buffers[i].get();
        if (b->numElements() >= std::numeric_limits<int32_t>::max())
            return makeError(ErrorKind::Unsupported,
                "buffer " + b->name + " has " + std::to_string(b->numElements())
                    + " elements: CUDA kernels index with int32 (fewer than 2^31 elements)");
        const std::string name = uniqueIn(paramNames, identifier(b->name));
        names[b] = name;
        TS_TRY(const std::string type, cType(b->dtype));
        const bool input = static_cast<int>(i) < func.numInputs;
        params += std::string(i ? ", " : "") + (input ? "const " : "") + type + "* __restrict__ " + name;
    }

    std::ostringstream kernels;
    bool floorHelpers = false;
    for (const lower::GpuKernel& k : module.kernels) {
        std::map<const ir::BufferVar*, std::string> kernelNames = names;
        CudaEmitter emitter(k, kernelNames, paramNames);
        TS_TRY(const std::string body, emitter.body());
        floorHelpers = floorHelpers || emitter.usesFloorHelpers();
        kernels << "\nextern \"C\" __global__ void __launch_bounds__(" << k.threads() << ") " << k.name << "(" << params
                << ")\n{\n"
                << body << "}\n";
        program.kernels.push_back(CudaLaunch { k.name, k.grid, k.block, k.sharedBytes });
    }
    std::ostringstream source;
    source << "// " << func.name << ": " << module.kernels.size() << " kernel"
           << (module.kernels.size() == 1 ? "" : "s") << ", generated by TuneScope for " << target::toString(target)
           << "\n";
    if (floorHelpers)
        source << kFloorHelpers;
    source << kernels.str();
    program.source = source.str();
    return program;
}

} // namespace ts::codegen
