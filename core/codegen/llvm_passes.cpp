#include "core/codegen/llvm_passes.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace ts::codegen {

namespace {
    // A vector that is only loaded: the load and the single-use lane operations that make it (a broadcast:
    // insertelement into poison then shufflevector; a lane selection of a wider load), all in one block.
    struct Loaded {
        llvm::LoadInst* load = nullptr;
        std::vector<llvm::Instruction*> steps;
        llvm::Instruction* value() const { return steps.empty() ? load : steps.back(); }
    };

    Loaded loadedValue(llvm::LoadInst& load)
    {
        Loaded loaded { &load, {} };
        llvm::Instruction* at = &load;
        while (at->hasOneUse()) {
            auto* user = llvm::dyn_cast<llvm::Instruction>(*at->user_begin());
            if (!user || user->getParent() != load.getParent())
                break;
            const bool broadcastStep = llvm::isa<llvm::InsertElementInst>(user) && user->getOperand(1) == at
                && llvm::isa<llvm::UndefValue>(user->getOperand(0)) && llvm::isa<llvm::Constant>(user->getOperand(2));
            const bool laneStep = llvm::isa<llvm::ShuffleVectorInst>(user) && user->getOperand(0) == at
                && llvm::isa<llvm::UndefValue>(user->getOperand(1));
            if (!broadcastStep && !laneStep)
                break;
            loaded.steps.push_back(user);
            at = user;
        }
        return loaded;
    }

    // A copy of the load and its steps, placed before `before`.
    llvm::Instruction* reload(const Loaded& loaded, llvm::Instruction* before)
    {
        llvm::Instruction* copy = loaded.load->clone();
        copy->insertBefore(before);
        for (llvm::Instruction* step : loaded.steps) {
            llvm::Instruction* next = step->clone();
            next->replaceUsesOfWith(step->getOperand(llvm::isa<llvm::InsertElementInst>(step) ? 1 : 0), copy);
            next->insertBefore(before);
            copy = next;
        }
        return copy;
    }

    void erase(const Loaded& loaded)
    {
        for (auto it = loaded.steps.rbegin(); it != loaded.steps.rend(); ++it)
            (*it)->eraseFromParent();
        loaded.load->eraseFromParent();
    }

    class Rematerializer {
    public:
        Rematerializer(llvm::AAResults& aa, unsigned registers, uint64_t registerBits)
            : m_aa(aa)
            , m_registers(registers)
            , m_registerBits(registerBits)
        {
        }

        // Within a block: a use more than m_registers vector instructions after the previous one re-loads.
        bool splitLongRanges(llvm::BasicBlock& block)
        {
            std::unordered_map<const llvm::Instruction*, size_t> position; // vector instructions before it
            std::unordered_map<const llvm::Instruction*, size_t> order; // instructions before it
            std::vector<llvm::LoadInst*> loads;
            size_t vectorOps = 0;
            for (llvm::Instruction& i : block) {
                position[&i] = vectorOps;
                order[&i] = order.size();
                vectorOps += i.getType()->isVectorTy();
                if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i); load && load->isSimple())
                    loads.push_back(load);
            }
            bool changed = false;
            for (llvm::LoadInst* load : loads) {
                const Loaded loaded = loadedValue(*load);
                llvm::Instruction* value = loaded.value();
                if (!value->getType()->isVectorTy())
                    continue;
                std::vector<llvm::Use*> uses;
                bool local = true;
                for (llvm::Use& use : value->uses()) {
                    auto* user = llvm::cast<llvm::Instruction>(use.getUser());
                    local &= user->getParent() == &block && !llvm::isa<llvm::PHINode>(user);
                    uses.push_back(&use);
                }
                if (!local || uses.size() < 2)
                    continue;
                // In block order: `position` ties for users with no vector instruction between them, and a
                // reload made for the later one must not reach the earlier one (a use before its definition).
                std::sort(uses.begin(), uses.end(), [&](llvm::Use* a, llvm::Use* b) {
                    return order.at(llvm::cast<llvm::Instruction>(a->getUser()))
                        < order.at(llvm::cast<llvm::Instruction>(b->getUser()));
                });
                llvm::Value* current = value;
                size_t last = position.at(value);
                for (llvm::Use* use : uses) {
                    auto* user = llvm::cast<llvm::Instruction>(use->getUser());
                    const size_t at = position.at(user);
                    if (at - last > m_registers && unwrittenBetween(*load, user)) {
                        current = reload(loaded, user);
                        changed = true;
                    }
                    use->set(current);
                    last = at;
                }
            }
            return changed;
        }

        // Vectors loaded in the preheader and used only in the loop, re-loaded in each block that uses them
        // when together they hold more than a quarter of the vector registers.
        bool sinkHoisted(llvm::Loop& loop)
        {
            llvm::BasicBlock* preheader = loop.getLoopPreheader();
            if (!preheader)
                return false;
            std::vector<Loaded> hoisted;
            uint64_t registersHeld = 0;
            for (llvm::Instruction& i : *preheader) {
                auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
                if (!load || !load->isSimple())
                    continue;
                const Loaded loaded = loadedValue(*load);
                if (!loaded.value()->getType()->isVectorTy() || !usedOnlyIn(*loaded.value(), loop))
                    continue;
                hoisted.push_back(loaded);
                const uint64_t bits = loaded.value()->getType()->getPrimitiveSizeInBits().getFixedSize();
                registersHeld += (bits + m_registerBits - 1) / m_registerBits;
            }
            if (registersHeld * 4 <= m_registers)
                return false;
            size_t vectorOps = 0; // a small body keeps its hoisted loads: there they are the saving
            for (llvm::BasicBlock* block : loop.blocks())
                for (llvm::Instruction& i : *block)
                    vectorOps += i.getType()->isVectorTy();
            if (vectorOps < 8 * hoisted.size())
                return false;
            bool changed = false;
            for (const Loaded& loaded : hoisted) {
                if (!unwrittenBetween(*loaded.load, preheader->getTerminator()) || writtenIn(*loaded.load, loop))
                    continue;
                std::map<llvm::BasicBlock*, std::vector<llvm::Use*>> usesByBlock;
                for (llvm::Use& use : loaded.value()->uses())
                    usesByBlock[llvm::cast<llvm::Instruction>(use.getUser())->getParent()].push_back(&use);
                for (auto& [block, uses] : usesByBlock) {
                    llvm::Instruction* first = nullptr;
                    for (llvm::Instruction& i : *block)
                        if (std::any_of(uses.begin(), uses.end(), [&](llvm::Use* u) { return u->getUser() == &i; })) {
                            first = &i;
                            break;
                        }
                    llvm::Instruction* copy = reload(loaded, first);
                    for (llvm::Use* use : uses)
                        use->set(copy);
                }
                erase(loaded);
                changed = true;
            }
            return changed;
        }

        // SelectionDAG makes one node of two loads of one address on one chain: with no store between them,
        // the loads of a block share the chain, so the backend merges what splitLongRanges re-loaded (or what
        // the IR loads twice on purpose: the overlapping taps of an unrolled convolution window) and keeps
        // the value live across the block, spilling accumulators. An empty asm with side effects ends the
        // chain (it emits no instruction): a load of an address last loaded more than a register file's worth
        // of vector instructions before gets one in front of it, so it stays a load of its own. Only scalar
        // loads (broadcasts): a broadcast re-loaded folds into its FMA and needs no register, while re-loaded
        // vectors each take one, and separating them made TVM's matmul_add record 3 spill more (175 -> 126
        // GFLOP/s: the rows of B were re-loaded for every row of its tile, then spilled anyway).
        bool separateReloads(llvm::BasicBlock& block)
        {
            std::unordered_map<const llvm::Value*, size_t> loadedAt; // address -> vector instructions before
            size_t vectorOps = 0;
            std::vector<llvm::LoadInst*> split;
            for (llvm::Instruction& i : block) {
                if (i.mayWriteToMemory())
                    loadedAt.clear();
                if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
                    load && load->isSimple() && !load->getType()->isVectorTy()) {
                    const llvm::Value* address = load->getPointerOperand();
                    auto it = loadedAt.find(address);
                    if (it != loadedAt.end() && vectorOps - it->second > m_registers) {
                        split.push_back(load);
                        loadedAt.clear();
                    }
                    loadedAt[address] = vectorOps;
                }
                vectorOps += i.getType()->isVectorTy();
            }
            if (split.empty())
                return false;
            auto* barrierType = llvm::FunctionType::get(llvm::Type::getVoidTy(block.getContext()), false);
            llvm::InlineAsm* barrier = llvm::InlineAsm::get(barrierType, "", "", /*hasSideEffects=*/true);
            for (llvm::LoadInst* load : split)
                llvm::CallInst::Create(barrierType, barrier, "", load);
            return true;
        }

    private:
        static bool usedOnlyIn(const llvm::Instruction& value, const llvm::Loop& loop)
        {
            for (const llvm::User* user : value.users()) {
                const auto* i = llvm::dyn_cast<llvm::Instruction>(user);
                if (!i || !loop.contains(i->getParent()) || llvm::isa<llvm::PHINode>(i))
                    return false;
            }
            return !value.use_empty();
        }

        bool writes(llvm::Instruction& i, const llvm::MemoryLocation& where)
        {
            return i.mayWriteToMemory() && llvm::isModSet(m_aa.getModRefInfo(&i, where));
        }

        // Nothing after `load` and before `end` (same block) may write the memory it reads.
        bool unwrittenBetween(llvm::LoadInst& load, llvm::Instruction* end)
        {
            const llvm::MemoryLocation where = llvm::MemoryLocation::get(&load);
            for (llvm::Instruction* i = load.getNextNode(); i && i != end; i = i->getNextNode())
                if (writes(*i, where))
                    return false;
            return true;
        }

        bool writtenIn(llvm::LoadInst& load, const llvm::Loop& loop)
        {
            const llvm::MemoryLocation where = llvm::MemoryLocation::get(&load);
            for (llvm::BasicBlock* block : loop.blocks())
                for (llvm::Instruction& i : *block)
                    if (writes(i, where))
                        return true;
            return false;
        }

        llvm::AAResults& m_aa;
        unsigned m_registers;
        uint64_t m_registerBits;
    };
} // namespace

llvm::PreservedAnalyses RematerializeLoads::run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses)
{
    const llvm::TargetTransformInfo& tti = analyses.getResult<llvm::TargetIRAnalysis>(function);
    const unsigned registers = tti.getNumberOfRegisters(tti.getRegisterClassForType(true));
    const uint64_t registerBits
        = tti.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector).getFixedSize();
    if (registers == 0 || registerBits == 0)
        return llvm::PreservedAnalyses::all();
    Rematerializer rematerializer(analyses.getResult<llvm::AAManager>(function), registers, registerBits);
    bool changed = false;
    for (llvm::Loop* loop : analyses.getResult<llvm::LoopAnalysis>(function).getLoopsInPreorder())
        changed |= rematerializer.sinkHoisted(*loop);
    for (llvm::BasicBlock& block : function)
        changed |= rematerializer.splitLongRanges(block);
    for (llvm::BasicBlock& block : function)
        changed |= rematerializer.separateReloads(block);
    if (!changed)
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

namespace {
    // Whether `i` may read what `store` writes. Loads of another identified object (an alloca, a noalias
    // argument) cannot; anything else asks alias analysis. Instructions that touch no memory do not.
    bool mayRead(llvm::Instruction& i, llvm::StoreInst& store, const llvm::Value* object, llvm::AAResults& aa)
    {
        if (!i.mayReadFromMemory())
            return false;
        if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
            const llvm::Value* other = llvm::getUnderlyingObject(load->getPointerOperand());
            if (other != object && llvm::isIdentifiedObject(other) && llvm::isIdentifiedObject(object))
                return false;
        }
        if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
            if (intrinsic->isAssumeLikeIntrinsic()) // noalias.scope.decl, lifetime markers, assume
                return false;
        return llvm::isRefSet(aa.getModRefInfo(&i, llvm::MemoryLocation::get(&store)));
    }

    // No instruction after `first` (in its block) and before `last` (in its block), on any path from one to the
    // other, may read what `first` writes. `last`'s block post-dominates `first`'s.
    bool unreadBetween(llvm::StoreInst& first, llvm::StoreInst& last, llvm::AAResults& aa)
    {
        const llvm::Value* object = llvm::getUnderlyingObject(first.getPointerOperand());
        for (llvm::Instruction* i = first.getNextNode(); i; i = i->getNextNode())
            if (mayRead(*i, first, object, aa))
                return false;
        for (llvm::Instruction& i : *last.getParent()) {
            if (&i == &last)
                break;
            if (mayRead(i, first, object, aa))
                return false;
        }
        // The blocks a path from `first` reaches before `last`'s block.
        std::vector<llvm::BasicBlock*> work(llvm::succ_begin(first.getParent()), llvm::succ_end(first.getParent()));
        std::set<llvm::BasicBlock*> seen;
        while (!work.empty()) {
            llvm::BasicBlock* block = work.back();
            work.pop_back();
            if (block == last.getParent() || !seen.insert(block).second)
                continue;
            for (llvm::Instruction& i : *block)
                if (&i != &first && mayRead(i, first, object, aa))
                    return false;
            work.insert(work.end(), llvm::succ_begin(block), llvm::succ_end(block));
        }
        return true;
    }
} // namespace

llvm::PreservedAnalyses EraseOverwrittenStores::run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses)
{
    // Stores by pointer value, in the blocks they are in.
    std::map<llvm::Value*, std::vector<llvm::StoreInst*>> stores;
    for (llvm::BasicBlock& block : function)
        for (llvm::Instruction& i : block)
            if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&i); store && store->isSimple())
                stores[store->getPointerOperand()].push_back(store);
    std::vector<llvm::StoreInst*> dead;
    llvm::PostDominatorTree* postDominators = nullptr;
    llvm::AAResults* aa = nullptr;
    for (auto& [pointer, list] : stores) {
        if (list.size() < 2)
            continue;
        for (llvm::StoreInst* first : list) {
            for (llvm::StoreInst* last : list) {
                if (last->getParent() == first->getParent()
                    || last->getValueOperand()->getType() != first->getValueOperand()->getType())
                    continue;
                if (!postDominators) {
                    postDominators = &analyses.getResult<llvm::PostDominatorTreeAnalysis>(function);
                    aa = &analyses.getResult<llvm::AAManager>(function);
                }
                if (postDominators->dominates(last->getParent(), first->getParent())
                    && unreadBetween(*first, *last, *aa)) {
                    dead.push_back(first);
                    break;
                }
            }
        }
    }
    if (dead.empty())
        return llvm::PreservedAnalyses::all();
    for (llvm::StoreInst* store : dead)
        store->eraseFromParent();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

llvm::PreservedAnalyses WidenOddVectorPhis::run(llvm::Function& function, llvm::FunctionAnalysisManager&)
{
    std::vector<llvm::PHINode*> odd;
    for (llvm::BasicBlock& block : function)
        for (llvm::PHINode& phi : block.phis())
            if (auto* type = llvm::dyn_cast<llvm::FixedVectorType>(phi.getType());
                type && type->getNumElements() > 2 && !llvm::isPowerOf2_32(type->getNumElements()))
                odd.push_back(&phi);
    if (odd.empty())
        return llvm::PreservedAnalyses::all();
    auto lanes = [](unsigned count, unsigned size) {
        std::vector<int> order(size, -1);
        for (unsigned i = 0; i < count && i < size; ++i)
            order[i] = static_cast<int>(i);
        return order;
    };
    std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> widened;
    for (llvm::PHINode* phi : odd) {
        auto* type = llvm::cast<llvm::FixedVectorType>(phi->getType());
        const unsigned count = type->getNumElements();
        auto* wideType
            = llvm::FixedVectorType::get(type->getElementType(), static_cast<unsigned>(llvm::PowerOf2Ceil(count)));
        llvm::PHINode* wide
            = llvm::PHINode::Create(wideType, phi->getNumIncomingValues(), phi->getName() + ".wide", phi);
        widened.emplace_back(phi, wide);
        llvm::IRBuilder<> b(phi->getParent(), phi->getParent()->getFirstInsertionPt());
        phi->replaceAllUsesWith(b.CreateShuffleVector(wide, lanes(count, count)));
    }
    // Incoming values, widened at the end of their block (after every phi is replaced, so a phi feeding
    // another is read through its narrow form).
    for (auto& [phi, wide] : widened) {
        const unsigned count = llvm::cast<llvm::FixedVectorType>(phi->getType())->getNumElements();
        const unsigned size = llvm::cast<llvm::FixedVectorType>(wide->getType())->getNumElements();
        for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
            llvm::IRBuilder<> b(phi->getIncomingBlock(i)->getTerminator());
            wide->addIncoming(
                b.CreateShuffleVector(phi->getIncomingValue(i), lanes(count, size)), phi->getIncomingBlock(i));
        }
    }
    for (auto& entry : widened)
        entry.first->eraseFromParent();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

} // namespace ts::codegen
