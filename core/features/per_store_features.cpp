#include "core/features/per_store_features.h"

#include "core/features/store_access.h"
#include "core/lower/lower.h"
#include "core/support/thread_pool.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace ts::features {

namespace {

    using ir::Expr;
    using ir::ExprKind;
    using ir::ExprNode;
    using lower::ForKind;
    using lower::Stmt;
    using lower::StmtKind;
    using lower::StmtNode;
    using namespace detail;

    constexpr int kCurvePoints = 10;
    constexpr int kPositions = 8; // kPosNone .. kPosMixed
    constexpr int kPosMixed = 7;

    // Op counts of one expression, in the order of the first sixteen columns.
    enum Op { kMad, kAddSub, kMul, kDivMod, kCmp, kMathFunc, kOtherFunc, kOpKinds };
    struct OpCounts {
        std::array<double, kOpKinds> flt {};
        std::array<double, kOpKinds> integer {};
        double boolOp = 0.0;
        double selectOp = 0.0;

        double floatOps() const { return std::accumulate(flt.begin(), flt.end(), 0.0); }
    };

    void countOps(const Expr& e, OpCounts& c)
    {
        const ExprNode& n = *e;
        auto binary = [&](Op op) { (ir::isFloat(n.operands[0]->dtype) ? c.flt : c.integer)[op] += 1.0; };
        switch (n.kind) {
        case ExprKind::Add:
        case ExprKind::Sub:
            binary(kAddSub);
            break;
        case ExprKind::Mul:
            binary(kMul);
            break;
        case ExprKind::Div:
        case ExprKind::Mod:
        case ExprKind::FloorDiv:
        case ExprKind::FloorMod:
            binary(kDivMod);
            break;
        case ExprKind::Min:
        case ExprKind::Max:
        case ExprKind::EQ:
        case ExprKind::NE:
        case ExprKind::LT:
        case ExprKind::LE:
        case ExprKind::GT:
        case ExprKind::GE:
            binary(kCmp);
            break;
        case ExprKind::And:
        case ExprKind::Or:
        case ExprKind::Not:
            c.boolOp += 1.0;
            break;
        case ExprKind::Select:
            c.selectOp += 1.0;
            break;
        case ExprKind::Call: // every call TuneScope has is a pure math function
            (ir::isFloat(n.dtype) ? c.flt : c.integer)[kMathFunc] += 1.0;
            break;
        default:
            break;
        }
        for (const Expr& operand : n.operands)
            countOps(operand, c);
    }

    struct Annotation { // vectorize, unroll or parallel loops around a store
        double num = 0, prod = 0, len = 0;
        int position = 0; // kPosNone, or kPosMixed when annotated (Ansor's)
    };

    // Ansor's FeatureSet: what one buffer's stores add up to.
    struct Row {
        const ir::BufferVar* buffer = nullptr;
        OpCounts ops;
        Annotation vec, unroll, parallel;
        double isGpu = 0;
        std::array<double, 7> gpu { 1, 1, 1, 1, 1, 1, 1 }; // blockIdx.xyz, threadIdx.xyz, vthread
        std::vector<AccessFeature> access;
        std::array<double, kCurvePoints> curve {};
        double allocSize = 0, allocProd = 0, allocOuterProd = 0, allocInnerProd = 0;
        double outerProd = 0, numLoops = 0, autoUnroll = 0;
    };

    class Extractor {
    public:
        explicit Extractor(int cacheLineBytes)
            : m_cacheLine(cacheLineBytes)
        {
        }

        void visit(const Stmt& s);
        std::vector<Row> takeRows() { return std::move(m_rows); }

    private:
        Row& rowOf(const ir::BufferVar* buffer);
        void visitFor(const StmtNode& s);
        void visitStore(const StmtNode& s);
        Annotation annotation(const std::vector<int>& stack) const;

        int m_cacheLine;
        std::vector<Loop> m_loops;
        std::vector<int> m_vec, m_unroll, m_parallel; // depths of annotated loops
        double m_outerProd = 1.0;
        int m_autoUnroll = 0;
        bool m_isGpu = false;
        std::array<double, 7> m_gpu { 1, 1, 1, 1, 1, 1, 1 };
        TouchMaps m_touch;
        std::vector<Row> m_rows;
    };

    Row& Extractor::rowOf(const ir::BufferVar* buffer)
    {
        for (Row& r : m_rows)
            if (r.buffer == buffer)
                return r;
        m_rows.push_back(Row {});
        m_rows.back().buffer = buffer;
        return m_rows.back();
    }

    void Extractor::visit(const Stmt& s)
    {
        if (!s)
            return;
        switch (s->kind) {
        case StmtKind::For:
            visitFor(*s);
            break;
        case StmtKind::Store:
        case StmtKind::AllReduce: // a store of the reduced value
            visitStore(*s);
            break;
        case StmtKind::Allocate: {
            visit(s->body);
            Row& row = rowOf(s->buffer.get());
            const auto elements = static_cast<double>(s->buffer->numElements());
            row.allocSize = elements * ir::bytesOf(s->buffer->dtype);
            row.allocProd = elements * m_outerProd;
            row.allocOuterProd = m_outerProd;
            row.allocInnerProd = row.outerProd / m_outerProd;
            break;
        }
        case StmtKind::IfThenElse: // both branches, as Ansor
            visit(s->body);
            visit(s->elseBody);
            break;
        case StmtKind::Seq:
            for (const Stmt& child : s->seq)
                visit(child);
            break;
        case StmtKind::Barrier:
            break;
        }
    }

    void Extractor::visitFor(const StmtNode& s)
    {
        const int depth = static_cast<int>(m_loops.size());
        const std::array<double, 7> gpuBefore = m_gpu;
        const int unrollBefore = m_autoUnroll;
        if (s.forKind == ForKind::ThreadBinding) {
            static const char* const kTags[]
                = { "blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z" };
            const auto* tag = std::find(std::begin(kTags), std::end(kTags), s.threadTag);
            if (tag != std::end(kTags))
                m_gpu[static_cast<size_t>(tag - std::begin(kTags))] = static_cast<double>(s.extent);
            else // vthread: nested virtual threads multiply
                m_gpu[6] *= static_cast<double>(s.extent);
            m_isGpu = true;
        }
        if (s.autoUnrollMaxStep > 0)
            m_autoUnroll = s.autoUnrollMaxStep;
        std::vector<int>* annotated = s.forKind == ForKind::Vectorized ? &m_vec
            : s.forKind == ForKind::Unrolled                           ? &m_unroll
            : s.forKind == ForKind::Parallel                           ? &m_parallel
                                                                       : nullptr;
        if (annotated)
            annotated->push_back(depth);
        m_loops.push_back({ s.var, std::max<int64_t>(1, s.extent), s.forKind, &s });
        m_outerProd *= static_cast<double>(m_loops.back().extent);
        visit(s.body);
        m_outerProd /= static_cast<double>(m_loops.back().extent);
        m_loops.pop_back();
        if (annotated)
            annotated->pop_back();
        m_autoUnroll = unrollBefore;
        m_gpu = gpuBefore;
    }

    Annotation Extractor::annotation(const std::vector<int>& stack) const
    {
        Annotation a;
        a.num = static_cast<double>(stack.size());
        if (stack.empty())
            return a;
        a.len = static_cast<double>(m_loops[static_cast<size_t>(stack.back())].extent);
        a.prod = 1.0;
        for (int d : stack)
            a.prod *= static_cast<double>(m_loops[static_cast<size_t>(d)].extent);
        a.position = kPosMixed;
        return a;
    }

    void Extractor::visitStore(const StmtNode& s)
    {
        const int depth = static_cast<int>(m_loops.size());
        OpCounts ops;
        countOps(s.value, ops);

        // Group 1
        Row& row = rowOf(s.buffer.get());
        for (int k = 0; k < kOpKinds; ++k) {
            row.ops.flt[static_cast<size_t>(k)] += m_outerProd * ops.flt[static_cast<size_t>(k)];
            row.ops.integer[static_cast<size_t>(k)] += m_outerProd * ops.integer[static_cast<size_t>(k)];
        }
        row.ops.boolOp += m_outerProd * ops.boolOp;
        row.ops.selectOp += m_outerProd * ops.selectOp;
        row.vec = annotation(m_vec);
        row.unroll = annotation(m_unroll);
        row.parallel = annotation(m_parallel);
        row.isGpu = m_isGpu ? 1.0 : 0.0;
        row.gpu = m_gpu;

        // Group 2: the accesses, and what each loop level touches (store_access.cpp).
        StoreAccesses accesses = storeAccesses(s, m_loops, m_outerProd, m_cacheLine, m_touch);
        row.access = std::move(accesses.features);
        const std::vector<double>& bytesList = accesses.bytesPerLevel; // innermost loop first
        double computeOps = ops.floatOps();
        std::vector<double> computeList;
        for (int i = depth - 1; i >= 0; --i) {
            computeOps *= static_cast<double>(m_loops[static_cast<size_t>(i)].extent);
            computeList.push_back(computeOps);
        }

        // Group 3: float ops per touched byte along the loop nest, at ten points of the op count.
        row.curve.fill(0.0);
        if (computeOps > 0.0 && !computeList.empty()) {
            size_t pt = 0;
            for (int k = 0; k < kCurvePoints; ++k) {
                const double target = computeList.back() * (k + 1) / kCurvePoints;
                while (pt + 1 < computeList.size() && computeList[pt] < target - 1e-4)
                    ++pt;
                const double here = computeList[pt] / bytesList[pt];
                if (pt == 0) {
                    row.curve[static_cast<size_t>(k)] = here;
                } else {
                    const double before = computeList[pt - 1] / bytesList[pt - 1];
                    const double slope = (here - before) / (computeList[pt] - computeList[pt - 1]);
                    row.curve[static_cast<size_t>(k)] = before + slope * (target - computeList[pt - 1]);
                }
            }
        }

        // Group 5
        row.outerProd = m_outerProd;
        row.numLoops = depth;
        row.autoUnroll = m_autoUnroll;
    }

    void write(const Row& row, bool logScale, std::vector<float>& out)
    {
        auto slog = [&](double x) {
            if (!logScale)
                return static_cast<float>(x);
            return static_cast<float>(x < 0 ? -std::log2(-x + 1) : std::log2(x + 1));
        };
        auto oneHot = [&](int value, int n) {
            for (int k = 0; k < n; ++k)
                out.push_back(k == value ? 1.0f : 0.0f);
        };
        for (double v : row.ops.flt)
            out.push_back(slog(v));
        for (double v : row.ops.integer)
            out.push_back(slog(v));
        out.push_back(slog(row.ops.boolOp));
        out.push_back(slog(row.ops.selectOp));
        for (const Annotation* a : { &row.vec, &row.unroll, &row.parallel }) {
            out.push_back(slog(a->num));
            out.push_back(slog(a->prod));
            out.push_back(slog(a->len));
            oneHot(a->position, kPositions);
        }
        out.push_back(static_cast<float>(row.isGpu));
        for (double v : row.gpu)
            out.push_back(slog(v));

        std::vector<size_t> order(row.access.size());
        std::iota(order.begin(), order.end(), size_t { 0 });
        std::stable_sort(order.begin(), order.end(), [&](size_t l, size_t r) {
            const AccessFeature& a = row.access[l];
            const AccessFeature& b = row.access[r];
            return a.lines > b.lines || (a.lines == b.lines && a.bytes > b.bytes);
        });
        order.resize(std::min<size_t>(order.size(), kMaxBuffers));
        for (size_t index : order) {
            const AccessFeature& f = row.access[index];
            oneHot(static_cast<int>(f.type), 3);
            for (double v : { f.bytes, f.uniqueBytes, f.lines, f.uniqueLines })
                out.push_back(slog(v));
            oneHot(static_cast<int>(f.reuse), 3);
            for (double v : { f.reuseDisIter, f.reuseDisBytes, f.reuseCt, f.bytesDReuseCt, f.uniqueBytesDReuseCt,
                     f.linesDReuseCt, f.uniqueLinesDReuseCt, f.stride })
                out.push_back(slog(v));
        }
        out.insert(out.end(), static_cast<size_t>(kMaxBuffers - static_cast<int>(order.size())) * 18, 0.0f);
        for (double v : row.curve)
            out.push_back(slog(v));
        for (double v : { row.allocSize, row.allocProd, row.allocOuterProd, row.allocInnerProd, row.outerProd,
                 row.numLoops, row.autoUnroll })
            out.push_back(slog(v));
    }

    std::vector<std::string> makeNames()
    {
        std::vector<std::string> names;
        for (const char* kind : { "float", "int" })
            for (const char* op : { "mad", "addsub", "mul", "divmod", "cmp", "mathfunc", "otherfunc" })
                names.push_back(std::string(kind) + "_" + op);
        names.push_back("bool_op");
        names.push_back("select_op");
        static const char* const kPositionNames[] = { "kPosNone", "kPosInnerSpatial", "kPosMiddleSpatial",
            "kPosOuterSpatial", "kPosInnerReduce", "kPosMiddleReduce", "kPosOuterReduce", "kPosMixed" };
        for (const std::string a : { "vec", "unroll", "parallel" }) {
            for (const char* field : { "_num", "_prod", "_len" })
                names.push_back(a + field);
            for (const char* p : kPositionNames)
                names.push_back(a + "_type." + p);
        }
        for (const char* g : { "is_gpu", "blockIdx_x_len", "blockIdx_y_len", "blockIdx_z_len", "threadIdx_x_len",
                 "threadIdx_y_len", "threadIdx_z_len", "vthread_len" })
            names.push_back(g);
        for (int b = 0; b < kMaxBuffers; ++b) {
            const std::string prefix = "B" + std::to_string(b) + ".";
            for (const char* field :
                { "acc_type.kRead", "acc_type.kWrite", "acc_type.kReadWrite", "bytes", "unique_bytes", "lines",
                    "unique_lines", "reuse_type.kLoopMultipleRead", "reuse_type.kSerialMultipleReadWrite",
                    "reuse_type.kNoReuse", "reuse_dis_iter", "reuse_dis_bytes", "reuse_ct", "bytes_d_reuse_ct",
                    "unique_bytes_d_reuse_ct", "lines_d_reuse_ct", "unique_lines_d_reuse_ct", "stride" })
                names.push_back(prefix + field);
        }
        for (int k = 0; k < kCurvePoints; ++k)
            names.push_back("arith_intensity_curve_" + std::to_string(k));
        for (const char* f : { "alloc_size", "alloc_prod", "alloc_outer_prod", "alloc_inner_prod", "outer_prod",
                 "num_loops", "auto_unroll_max_step" })
            names.push_back(f);
        return names;
    }

} // namespace

const std::vector<std::string>& perStoreFeatureNames()
{
    static const std::vector<std::string> names = makeNames();
    return names;
}

ProgramFeatures perStoreFeatures(const lower::LoweredFunc& func, const FeatureOptions& options)
{
    Extractor extractor(std::max(1, options.cacheLineBytes));
    extractor.visit(func.body);
    ProgramFeatures out;
    for (const Row& row : extractor.takeRows()) {
        write(row, options.logScale, out.values);
        out.rowBuffers.push_back(row.buffer->name);
    }
    return out;
}

Expected<ProgramFeatures> perStoreFeatures(const sched::State& state, const target::Target& target, bool packedWeights)
{
    TS_CHECK(state.checkFilled());
    TS_TRY(lower::LoweredFunc func, lower::scheduleOps(state, target));
    func.body = lower::simplify(func.body);
    if (packedWeights && !target.isGpu())
        func = lower::rewriteLayout(func, state, true); // the body reads the packed weight; packing is setup
    return perStoreFeatures(func, FeatureOptions { static_cast<int>(target.cacheLineBytes), true });
}

std::vector<Expected<ProgramFeatures>> perStoreFeatures(
    std::span<const sched::State> states, const target::Target& target, ThreadPool* pool, bool packedWeights)
{
    std::vector<Expected<ProgramFeatures>> out(states.size(), Expected<ProgramFeatures>(ProgramFeatures {}));
    auto body = [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            out[static_cast<size_t>(i)] = perStoreFeatures(states[static_cast<size_t>(i)], target, packedWeights);
    };
    if (pool)
        pool->parallelFor(static_cast<int64_t>(states.size()), body);
    else
        body(0, static_cast<int64_t>(states.size()));
    return out;
}

} // namespace ts::features
