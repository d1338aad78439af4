// Private to core/codegen: the loop IR -> LLVM IR emitter, split by concern across
//   llvm_emitter.cpp           the kernel entry, statements, serial loops, allocations, guards;
//   llvm_emitter_expr.cpp      scalar expressions: arithmetic, comparisons, casts, math calls;
//   llvm_emitter_parallel.cpp  parallel loops outlined into functions run by ts_parallel_for;
//   llvm_emitter_vector.cpp    vectorized loops: one lane per iteration, explicit vector instructions.
//   llvm_emitter_transpose.cpp nests that read across their rows: square blocks transposed in registers.
// Failures the loop IR can cause (a construct code generation does not support) unwind to emitModule as a
// CodegenFailure and come back as an Unsupported error.
#pragma once

#include "core/lower/arith_analyzer.h"
#include "core/lower/stmt_visitor.h"
#include "core/support/error.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ts::codegen {

struct CodegenFailure {
    Error error;
};
[[noreturn]] void unsupported(const std::string& what);

bool containsLoad(const ir::Expr& e);
// Buffers of other dtypes than float32 are refused (Unsupported) until the measurement side has them.
void checkGenerated(const ir::BufferVar& buffer);

// Vars and buffers a statement uses but does not define (loop vars, allocations), in first-use order.
struct FreeSymbols {
    std::vector<const ir::ExprNode*> vars;
    std::vector<const ir::BufferVar*> buffers;
};
// `boundVars` and `boundBuffers` are defined outside s (a parallel loop's own variable, the kernel's
// arguments).
FreeSymbols freeSymbols(
    const lower::Stmt& s, std::set<const ir::ExprNode*> boundVars, std::set<const ir::BufferVar*> boundBuffers);

// A value in a vectorized loop: one scalar for all lanes, or a vector.
struct Lanes {
    llvm::Value* value = nullptr;
    bool uniform = true;
};

// A vectorized loop of at most kMaxLanes iterations is one vector; a longer one runs in chunks of
// kChunkLanes (one 512-bit register of float32), the last chunk masked.
inline constexpr int64_t kMaxLanes = 64;
inline constexpr int64_t kChunkLanes = 16;
// A vector load whose address moves by at most kMaxLoadStride elements per lane, spanning at most
// kMaxStridedLoadElements elements, is one wide contiguous load and a permute; a larger stride is a gather.
inline constexpr int64_t kMaxLoadStride = 4;
inline constexpr int64_t kMaxStridedLoadElements = 128;

// A buffer index as the emitter builds it: the variable part (terms of outer loops first; null when there
// is none) plus a constant. Two indices with the same variable part differ by their constants.
struct IndexParts {
    llvm::Value* sum = nullptr;
    int64_t constant = 0;
    llvm::Type* type = nullptr;
};

// A store of a vectorized loop's body and the guards around it (conjuncts; none for a plain store).
struct GuardedStore {
    const lower::StmtNode* store = nullptr;
    std::vector<ir::Expr> guards;
};

class Emitter : public lower::StmtVisitor {
public:
    Emitter(llvm::Module& module, const std::string& symbol);

    void emitKernel(const lower::LoweredFunc& func);

private:
    // What a function being emitted sees: the LLVM values of the loop variables and buffers in scope, and
    // the ranges of the loop variables (for unsigned division and the vectorizer's index analysis).
    struct Scope {
        llvm::Function* function = nullptr;
        std::unordered_map<const ir::ExprNode*, llvm::Value*> vars;
        std::unordered_map<const ir::BufferVar*, llvm::Value*> buffers;
        lower::arith::Analyzer analyzer;
    };

    // --- functions (llvm_emitter.cpp)
    llvm::Function* makeImpl(const std::string& name, const FreeSymbols& free, int extraInts);
    void bindImplParams(llvm::Function* impl, const FreeSymbols& free);
    llvm::Function* runtimeFunction(const char* name, llvm::Type* result, std::vector<llvm::Type*> params);

    // --- statements (llvm_emitter.cpp)
    void visitFor(const lower::StmtNode& s) override;
    void visitStore(const lower::StmtNode& s) override;
    void visitAllocate(const lower::StmtNode& s) override;
    void visitIfThenElse(const lower::StmtNode& s) override;
    void visitAllReduce(const lower::StmtNode& s) override;
    void emitSerialLoop(const lower::StmtNode& s, llvm::Value* begin, llvm::Value* end);
    // for (i, 0, count) { body(i) } with count >= 1: the loops the emitter makes of its own (a vectorized
    // loop's chunks, transposed blocks); `name` names the counter and the blocks.
    void emitCountedLoop(const std::string& name, int64_t count, const std::function<void(llvm::Value*)>& body);
    // Buffer elements are of the buffer's dtype.
    llvm::Value* elementPtr(const ir::BufferVar* buffer, llvm::Value* index);
    // Loads and stores of whole elements at a known index, forwarded within a block: a load of what the
    // block last stored or loaded at that index is that value, and a store overwritten whole before anything
    // read it is removed. An unrolled reduction then loads and stores each accumulator once per block instead
    // of once per statement, which is what GVN and DSE would otherwise find at a cost quadratic in the
    // block's accesses (a 128-statement unrolled matmul tile: a third of its compile time in DSE). Different
    // buffers never alias (the kernel's arguments are noalias, workspaces are fresh memory).
    llvm::Value* loadElements(const ir::BufferVar& buffer, const IndexParts& at, llvm::Type* type, int64_t elements);
    void storeElements(const ir::BufferVar& buffer, const IndexParts& at, llvm::Value* value, int64_t elements);
    // A read or write the forwarding cannot place (masked, gathered, strided, chunked): a read keeps every
    // earlier store of the buffer, a write forgets what the block knew of it. A call that may touch any
    // buffer forgets everything.
    void readUnknown(const ir::BufferVar& buffer);
    void writeUnknown(const ir::BufferVar& buffer);
    void forgetMemory();
    llvm::Align elementAlign(const ir::BufferVar& buffer);

    // --- parallel loops (llvm_emitter_parallel.cpp)
    void emitParallel(const lower::StmtNode& s);

    // --- vectorized loops (llvm_emitter_vector.cpp)
    bool emitVectorized(const lower::StmtNode& s);
    void emitVectorStores(const std::vector<GuardedStore>& stores, llvm::Value* first, llvm::Value* tail);
    Lanes vec(const ir::Expr& e, llvm::Value* mask);
    llvm::Value* widen(const Lanes& l);
    ir::Expr laneZero(const ir::Expr& e) const; // e at lane 0 (the vector variable replaced by 0)
    llvm::Value* vecLoad(const ir::ExprNode& n, llvm::Value* mask);
    llvm::Value* stridedLoad(const ir::ExprNode& n, unsigned stride, llvm::Value* mask);

    // --- transposing loop nests (llvm_emitter_transpose.cpp)
    // A load read across its rows: its address moves by 1 along the nest's outer loop and by `stride` (>= 2)
    // along the innermost.
    struct TransposedLoad {
        const ir::ExprNode* load = nullptr;
        int64_t stride = 0;
    };
    // A serial nest `outer` .. `inner` around one float32 store that moves by 1 along `inner`, and the loads
    // it transposes in blocks of `width` x `width` (`outer`'s extent a multiple of `width`).
    struct TransposePlan {
        const lower::StmtNode* outer = nullptr;
        const lower::StmtNode* inner = nullptr;
        unsigned width = 0;
        std::vector<TransposedLoad> loads;
    };
    std::optional<TransposePlan> planTranspose(const lower::StmtNode& outer);
    bool emitTransposed(const lower::StmtNode& outer);
    void emitTransposedInner(const lower::StmtNode& inner);
    void emitTransposedBlock(const lower::StmtNode& inner, llvm::Value* first, int64_t rows);

    // --- expressions (llvm_emitter_expr.cpp)
    llvm::Value* scalar(const ir::Expr& e);
    // A buffer index in canonical order: the analyzer's linear form, terms of outer loops first, the
    // constant (with every unrolled loop's contribution folded in) last. Addresses that differ only in an
    // unrolled loop then share one SSA prefix and differ by a constant, which is what LLVM's alias analysis
    // can compare (and what lets it keep a tile written straight to a buffer in registers).
    llvm::Value* index(const ir::Expr& e);
    IndexParts indexParts(const ir::Expr& e);
    llvm::Value* materialize(const IndexParts& at);
    llvm::Value* scalarSelect(const ir::ExprNode& n);
    llvm::Value* intBinary(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b, llvm::Value* x, llvm::Value* y);
    // x op y for an integer binary operator, made once per block: an unrolled body's copies compute the same
    // address prefixes and floordiv/floormod of the same loop variables, and emitting them once each keeps
    // the IR LLVM optimizes small (a 512-step unrolled matmul: 9,700 multiplies otherwise, most redundant).
    llvm::Value* intOp(llvm::Instruction::BinaryOps op, llvm::Value* x, llvm::Value* y, bool nsw = false);
    llvm::Value* floatBinary(ir::ExprKind kind, llvm::Value* x, llvm::Value* y);
    llvm::Value* compare(ir::ExprKind kind, bool isFloat, llvm::Value* x, llvm::Value* y);
    llvm::Value* mathCall(ir::CallOp op, const std::vector<llvm::Value*>& args, llvm::Type* type);
    // e^x in float32 arithmetic that vectorizes (no libm call per lane).
    llvm::Value* expOf(llvm::Value* x, llvm::Type* type);
    llvm::Value* castValue(llvm::Value* v, ir::DType from, ir::DType to);
    llvm::Type* typeOf(ir::DType t);

    llvm::Module& m_module;
    llvm::LLVMContext& m_ctx;
    llvm::IRBuilder<> m_b;
    std::string m_symbol;
    llvm::Type* m_i64;
    llvm::Type* m_f32;
    llvm::PointerType* m_ptr;
    Scope* m_scope = nullptr;
    int m_outlined = 0;
    // Nesting depth of every loop variable seen so far (outermost 0), for index().
    std::unordered_map<const ir::ExprNode*, int> m_loopDepth;
    int m_depth = 0;
    // Vectorization context.
    const ir::ExprNode* m_vecVar = nullptr;
    unsigned m_lanes = 0;
    llvm::Value* m_laneBase = nullptr; // the first lane's iteration in a chunked loop, else null (0)
    int m_selectDepth = 0;
    // Transposing context: the nest being emitted in blocks, its outer loop's first row in the block, and
    // the vectors its transposed loads stand for in the column being stored.
    std::optional<TransposePlan> m_transpose;
    llvm::Value* m_transposeBase = nullptr;
    std::unordered_map<const ir::ExprNode*, llvm::Value*> m_laneValues;
    // What the current block has loaded or stored, per buffer (loadElements).
    struct Known {
        IndexParts at;
        int64_t elements = 1;
        llvm::Value* value = nullptr;
        llvm::StoreInst* store = nullptr; // the store that wrote it, while nothing may have read it
    };
    std::vector<Known>& knownOf(const ir::BufferVar& buffer);
    llvm::BasicBlock* m_knownBlock = nullptr;
    std::unordered_map<const ir::BufferVar*, std::vector<Known>> m_known;
    // intOp's values: (block, opcode, nsw, x, y) -> the instruction in that block.
    std::map<std::tuple<llvm::BasicBlock*, unsigned, bool, llvm::Value*, llvm::Value*>, llvm::Value*> m_intOps;
};

} // namespace ts::codegen
