// The loop IR: what a schedule lowers to and what code generation consumes.
//
// Statements are immutable shared nodes like expressions (one StmtNode struct, a kind tag). Loops run
// from 0 to a constant extent (bound inference makes every extent constant). Buffers are ir::BufferVar:
// kernel arguments, stage outputs, or regions allocated inside a loop; loads are ir::bufferLoad. Before
// storage flattening, buffer indices are multi-dimensional; after it, one flat index.
#pragma once

#include "core/ir/expr.h"
#include "core/ir/operation.h"

#include <memory>
#include <string>
#include <vector>

namespace ts::lower {

// ThreadBinding: the loop's iterations run on the GPU threads named by the loop's threadTag ("blockIdx.x",
// "threadIdx.y", "vthread"), one iteration each; only a GPU code generator emits it.
enum class ForKind { Serial, Parallel, Vectorized, Unrolled, ThreadBinding };
// "for", "parallel for", "vectorized for", "unrolled for", "thread binding for"
const char* toString(ForKind kind);

// Barrier: every thread of a GPU block waits here until all have arrived and their shared-memory writes
// are visible (__syncthreads); lowering places it around shared stages on GPU targets only.
// AllReduce: a cross-thread reduction (TVM's tvm_thread_allreduce). The threads of a block that differ only
// in `reduceThreads` (variables of enclosing threadIdx loops) combine their `value` with `reducer`, and
// every one of them stores the result to buffer[indices] (a local one-element buffer). Every thread of the
// block must reach it: the code generator may put barriers inside. GPU targets only.
enum class StmtKind { For, Store, Allocate, IfThenElse, Seq, Barrier, AllReduce };
// Every StmtKind, in order, as a list for code written once per kind (as LLVM's Instruction.def): the
// visitor and the mutator declare and dispatch their visitX methods from it. A kind missing here is a
// -Wswitch warning in their dispatch.
#define TS_STMT_KINDS(X) X(For) X(Store) X(Allocate) X(IfThenElse) X(Seq) X(Barrier) X(AllReduce)

struct StmtNode;
using Stmt = std::shared_ptr<const StmtNode>;

struct StmtNode {
    StmtKind kind = StmtKind::Seq;
    // For
    ir::Expr var;
    int64_t extent = 0;
    ForKind forKind = ForKind::Serial;
    int autoUnrollMaxStep = 0; // the stage's pragma, on its outermost loop
    std::string threadTag; // ThreadBinding: the thread the loop is bound to ("blockIdx.x", ...)
    // Store (buffer, indices, value); Allocate (buffer, body); AllReduce (buffer, indices, value and below)
    ir::BufferRef buffer;
    std::vector<ir::Expr> indices;
    ir::Expr value;
    // AllReduce
    ir::Reducer reducer = ir::Reducer::None;
    std::vector<ir::Expr> reduceThreads;
    // IfThenElse
    ir::Expr condition;
    Stmt body; // For, Allocate, IfThenElse (then)
    Stmt elseBody; // may be null
    // Seq
    std::vector<Stmt> seq;
};

// A ThreadBinding loop has a thread tag; other loops have none.
Stmt makeFor(
    ir::Expr var, int64_t extent, ForKind kind, Stmt body, int autoUnrollMaxStep = 0, std::string threadTag = {});
Stmt makeStore(ir::BufferRef buffer, std::vector<ir::Expr> indices, ir::Expr value);
Stmt makeAllocate(ir::BufferRef buffer, Stmt body);
Stmt makeIf(ir::Expr condition, Stmt thenBody, Stmt elseBody = nullptr);
// Flattens nested sequences; a sequence of one statement is that statement.
Stmt makeSeq(std::vector<Stmt> stmts);
Stmt makeBarrier();
// `reduceThreads`: at least one thread-loop variable.
Stmt makeAllReduce(ir::Reducer reducer, ir::BufferRef buffer, std::vector<ir::Expr> indices, ir::Expr value,
    std::vector<ir::Expr> reduceThreads);

// Passes walk and rewrite statements with StmtVisitor (stmt_visitor.h) and StmtMutator (stmt_mutator.h).

// A kernel: `void name(void** args)`, args = the placeholders then the outputs, in stage order; each
// argument buffer carries its dtype (what args[i] points to).
struct LoweredFunc {
    std::string name = "default_function";
    std::vector<ir::BufferRef> args;
    std::vector<int> argStages; // stage id of each argument in the state's DAG
    int numInputs = 0;
    Stmt body;
    // Run once before the body, outside any timing (layout_rewrite_option 2: weights packed before the program
    // runs); null when there is nothing to set up. It takes the same arguments. What it writes for the body lives
    // in "static" buffers, allocated once per loaded kernel.
    Stmt setup;
};

// C-like text: "parallel for (i.0@j.0@, 0, 128) {", "for (i.0, 0, 64) { // blockIdx.x",
// "out[((i*1024) + j)] = ...". Shown to users.
std::string toString(const Stmt& s, int indent = 0);
std::string toString(const LoweredFunc& f);

} // namespace ts::lower
