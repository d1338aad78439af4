#include "core/features/per_store_features.h"

#include "core/lower/arith_analyzer.h"
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

    constexpr int kCurvePoints = 10;
    constexpr int kPositions = 8; // kPosNone .. kPosMixed
    constexpr int kPosMixed = 7;

    enum class AccessType { Read = 0, Write = 1, ReadWrite = 2, Unknown = 3 };
    enum class ReuseType { LoopMultipleRead = 0, SerialMultipleReadWrite = 1, NoReuse = 2 };

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
        auto binary = [&](Op op) {
            (ir::isFloat(n.operands[0]->dtype) ? c.flt : c.integer)[op] += 1.0;
        };
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

    struct AccessFeature {
        AccessType type = AccessType::Unknown;
        double bytes = 0, uniqueBytes = 0, lines = 0, uniqueLines = 0;
        ReuseType reuse = ReuseType::NoReuse;
        double reuseDisIter = 0, reuseDisBytes = 0, reuseCt = 0;
        double bytesDReuseCt = 0, uniqueBytesDReuseCt = 0, linesDReuseCt = 0, uniqueLinesDReuseCt = 0;
        double stride = 0;
    };

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

    struct Loop {
        Expr var;
        int64_t extent = 1;
        ForKind kind = ForKind::Serial;
        const StmtNode* node = nullptr;
    };

    // Every buffer access of one store: the buffer, how, and each access's indices.
    struct Access {
        const ir::BufferVar* buffer = nullptr;
        AccessType type = AccessType::Unknown;
        std::vector<std::vector<Expr>> indices;
        uint64_t loopMask = 0; // loops (by depth) whose variable an index uses
    };

    // What one loop's body touched, per buffer, in visiting order (Ansor's for_touch_regions).
    struct Touch {
        AccessType type;
        int64_t elements;
        int bytes;
    };
    using TouchMap = std::vector<std::pair<const ir::BufferVar*, std::vector<Touch>>>;

    std::vector<Touch>& touchesOf(TouchMap& map, const ir::BufferVar* buffer)
    {
        for (auto& [b, touches] : map)
            if (b == buffer)
                return touches;
        return map.emplace_back(buffer, std::vector<Touch> {}).second;
    }

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
        void collectReads(const Expr& e, std::vector<Access>& accesses) const;
        uint64_t loopMaskOf(const Expr& e) const;
        Annotation annotation(const std::vector<int>& stack) const;
        int64_t computeStride(const Access& access, const Expr& var) const;
        void computeReuse(const Access& access, AccessFeature& f) const;

        int m_cacheLine;
        std::vector<Loop> m_loops;
        std::vector<int> m_vec, m_unroll, m_parallel; // depths of annotated loops
        double m_outerProd = 1.0;
        int m_autoUnroll = 0;
        bool m_isGpu = false;
        std::array<double, 7> m_gpu { 1, 1, 1, 1, 1, 1, 1 };
        std::unordered_map<const StmtNode*, TouchMap> m_touch;
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
            : s.forKind == ForKind::Unrolled                          ? &m_unroll
            : s.forKind == ForKind::Parallel                          ? &m_parallel
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

    uint64_t Extractor::loopMaskOf(const Expr& e) const
    {
        uint64_t mask = 0;
        for (size_t d = 0; d < m_loops.size() && d < 64; ++d)
            if (ir::usesVar(e, m_loops[d].var.get()))
                mask |= uint64_t { 1 } << d;
        return mask;
    }

    // Reads in pre-order; a buffer read after it was written is ReadWrite and keeps the write's indices.
    void Extractor::collectReads(const Expr& e, std::vector<Access>& accesses) const
    {
        const ExprNode& n = *e;
        if (n.kind == ExprKind::BufferLoad) {
            auto it = std::find_if(
                accesses.begin(), accesses.end(), [&](const Access& a) { return a.buffer == n.buffer.get(); });
            if (it == accesses.end()) {
                accesses.push_back({ n.buffer.get(), AccessType::Read, {}, 0 });
                it = accesses.end() - 1;
            } else if (it->type == AccessType::Write) {
                it->type = AccessType::ReadWrite;
            }
            if (it->type != AccessType::ReadWrite)
                it->indices.push_back(n.operands);
        }
        for (const Expr& operand : n.operands)
            collectReads(operand, accesses);
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

    // The smallest distance in elements between consecutive values of `var` over the access's indices, 0 when
    // no index uses it. Exact coefficients from the linear form (Ansor approximates them by pattern).
    int64_t Extractor::computeStride(const Access& access, const Expr& var) const
    {
        const std::vector<int64_t>& shape = access.buffer->shape;
        if (shape.empty())
            return 1;
        lower::arith::Analyzer plain;
        int64_t best = std::numeric_limits<int64_t>::max();
        bool found = false;
        for (const std::vector<Expr>& index : access.indices) {
            int64_t shapeStride = 1;
            for (int d = static_cast<int>(index.size()) - 1; d >= 0; --d) {
                if (!ir::usesVar(index[static_cast<size_t>(d)], var.get())) {
                    shapeStride *= d < static_cast<int>(shape.size()) ? shape[static_cast<size_t>(d)] : 1;
                    continue;
                }
                bool pure = true;
                const int64_t coef = plain.linear(index[static_cast<size_t>(d)]).coefficientOf(var.get(), &pure);
                const int64_t c = pure && coef != 0 ? std::abs(coef) : 1; // inside floordiv/floormod: 1
                best = std::min(best, c * shapeStride);
                found = true;
                break;
            }
        }
        return found ? best : 0;
    }

    void Extractor::computeReuse(const Access& access, AccessFeature& f) const
    {
        double disIter = 1.0;
        double disBytes = -1.0;
        for (int i = static_cast<int>(m_loops.size()) - 1; i >= 0; --i) {
            const Loop& loop = m_loops[static_cast<size_t>(i)];
            const TouchMap& touched = m_touch.at(loop.node);
            const auto extent = static_cast<double>(loop.extent);
            auto sumBytes = [&](bool perElement) {
                double sum = 0.0;
                for (const auto& [buffer, touches] : touched)
                    for (const Touch& t : touches)
                        sum += (perElement ? static_cast<double>(t.elements) : 1.0) * t.bytes;
                return sum;
            };
            if (i < 64 && (access.loopMask >> i & 1) != 0) {
                disIter *= extent;
                disBytes = sumBytes(true);
            } else { // the loop does not move the access: each iteration reads it again
                if (disBytes < 0)
                    disBytes = sumBytes(false);
                f.reuse = ReuseType::LoopMultipleRead;
                f.reuseDisIter = disIter;
                f.reuseDisBytes = disBytes;
                f.reuseCt = extent;
                return;
            }
            const auto& mine = std::find_if(touched.begin(), touched.end(), [&](const auto& entry) {
                return entry.first == access.buffer;
            })->second;
            const int serial = static_cast<int>(mine.size()) - 1;
            if (serial > 0) { // earlier statements in this loop touched it too
                double least = std::numeric_limits<double>::max();
                for (const Touch& t : mine)
                    least = std::min(least, static_cast<double>(t.elements));
                f.reuse = ReuseType::SerialMultipleReadWrite;
                f.reuseDisIter = least / extent;
                f.reuseDisBytes = sumBytes(true) / extent;
                f.reuseCt = serial;
                return;
            }
        }
        f.reuse = ReuseType::NoReuse;
        f.reuseDisIter = f.reuseDisBytes = f.reuseCt = 0.0;
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

        // Group 2: the accesses, then what each loop level touches (innermost loop first).
        std::vector<Access> accesses;
        accesses.push_back({ s.buffer.get(), AccessType::Write, { s.indices }, 0 });
        collectReads(s.value, accesses);
        for (Access& a : accesses)
            for (const auto& index : a.indices)
                for (const Expr& e : index)
                    a.loopMask |= loopMaskOf(e);

        double computeOps = ops.floatOps();
        std::vector<double> computeList;
        std::vector<double> bytesList;
        std::vector<std::vector<int64_t>> outerRegion(accesses.size());
        lower::arith::Analyzer level; // loops inside level i over their range, loops outside at 0
        for (const Loop& loop : m_loops)
            level.bind(loop.var, 0, 0);
        for (int i = depth - 1; i >= 0; --i) {
            const Loop& loop = m_loops[static_cast<size_t>(i)];
            level.bind(loop.var, 0, loop.extent - 1);
            TouchMap& touched = m_touch[loop.node];
            double memBytes = 0.0;
            for (size_t a = 0; a < accesses.size(); ++a) {
                const Access& access = accesses[a];
                const size_t dims = access.indices.front().size();
                std::vector<int64_t> region(dims, 0);
                for (size_t d = 0; d < dims; ++d) {
                    int64_t lo = std::numeric_limits<int64_t>::max();
                    int64_t hi = std::numeric_limits<int64_t>::min();
                    for (const auto& index : access.indices) {
                        const lower::arith::Interval b = level.bound(index[d]);
                        const int64_t full = d < access.buffer->shape.size() ? access.buffer->shape[d] : 1;
                        lo = std::min(lo, b.bounded ? b.lo : 0);
                        hi = std::max(hi, b.bounded ? b.hi : full - 1);
                    }
                    region[d] = hi - lo + 1;
                }
                int64_t elements = 1;
                for (int64_t r : region)
                    elements *= r;
                elements = std::max<int64_t>(0, elements);
                const int bytes = ir::bytesOf(access.buffer->dtype);
                touchesOf(touched, access.buffer).push_back({ access.type, elements, bytes });
                memBytes += static_cast<double>(elements) * bytes;
                if (i == 0)
                    outerRegion[a] = std::move(region);
            }
            bytesList.push_back(memBytes);
            computeOps *= static_cast<double>(loop.extent);
            computeList.push_back(computeOps);
        }

        row.access.clear();
        for (size_t a = 0; a < accesses.size(); ++a) {
            const Access& access = accesses[a];
            const std::vector<int64_t>& shape = access.buffer->shape;
            const int elementBytes = ir::bytesOf(access.buffer->dtype);
            AccessFeature f;
            f.type = access.type;
            f.bytes = m_outerProd * elementBytes;
            if (depth == 0) {
                f.uniqueBytes = elementBytes;
                f.lines = f.uniqueLines = 1.0;
            } else {
                const TouchMap& outer = m_touch.at(m_loops.front().node);
                const auto mine = std::find_if(
                    outer.begin(), outer.end(), [&](const auto& entry) { return entry.first == access.buffer; });
                f.uniqueBytes = static_cast<double>(mine->second.front().elements) * elementBytes;
                int64_t stride = 0;
                double reduceRatio = 1.0; // iterations of the loops inside the first one that moves the access
                int i = depth - 1;
                for (; i >= 0; --i) {
                    stride = computeStride(access, m_loops[static_cast<size_t>(i)].var);
                    if (stride != 0)
                        break;
                    reduceRatio *= static_cast<double>(m_loops[static_cast<size_t>(i)].extent);
                }
                f.lines = std::max(1.0,
                    m_outerProd / reduceRatio
                        * std::min(1.0, static_cast<double>(stride) * elementBytes / m_cacheLine));
                f.stride = i == depth - 1 ? static_cast<double>(stride) : 0.0;
                double continuous = elementBytes;
                const std::vector<int64_t>& region = outerRegion[a];
                for (int d = static_cast<int>(std::min(region.size(), shape.size())) - 1; d >= 0; --d) {
                    if (region[static_cast<size_t>(d)] == shape[static_cast<size_t>(d)]) {
                        continuous *= static_cast<double>(region[static_cast<size_t>(d)]);
                        break;
                    }
                }
                f.uniqueLines = std::max(1.0, f.uniqueBytes / std::min(continuous, double(m_cacheLine)));
            }
            computeReuse(access, f);
            const double divisor = f.reuseCt > 0.5 ? f.reuseCt : 0.5; // no reuse: Ansor's factor of two
            f.bytesDReuseCt = f.bytes / divisor;
            f.uniqueBytesDReuseCt = f.uniqueBytes / divisor;
            f.linesDReuseCt = f.lines / divisor;
            f.uniqueLinesDReuseCt = f.uniqueLines / divisor;
            row.access.push_back(f);
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
            for (const char* field : { "acc_type.kRead", "acc_type.kWrite", "acc_type.kReadWrite", "bytes",
                     "unique_bytes", "lines", "unique_lines", "reuse_type.kLoopMultipleRead",
                     "reuse_type.kSerialMultipleReadWrite", "reuse_type.kNoReuse", "reuse_dis_iter",
                     "reuse_dis_bytes", "reuse_ct", "bytes_d_reuse_ct", "unique_bytes_d_reuse_ct",
                     "lines_d_reuse_ct", "unique_lines_d_reuse_ct", "stride" })
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

Expected<ProgramFeatures> perStoreFeatures(const sched::State& state, const target::Target& target)
{
    TS_CHECK(state.checkFilled());
    TS_TRY(lower::LoweredFunc func, lower::scheduleOps(state, target));
    func.body = lower::simplify(func.body);
    return perStoreFeatures(func, FeatureOptions { static_cast<int>(target.cacheLineBytes), true });
}

std::vector<Expected<ProgramFeatures>> perStoreFeatures(
    std::span<const sched::State> states, const target::Target& target, ThreadPool* pool)
{
    std::vector<Expected<ProgramFeatures>> out(states.size(), Expected<ProgramFeatures>(ProgramFeatures {}));
    auto body = [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            out[static_cast<size_t>(i)] = perStoreFeatures(states[static_cast<size_t>(i)], target);
    };
    if (pool)
        pool->parallelFor(static_cast<int64_t>(states.size()), body);
    else
        body(0, static_cast<int64_t>(states.size()));
    return out;
}

} // namespace ts::features
