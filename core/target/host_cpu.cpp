// The host CPU's model name when LLVM calls it generic (host_cpu.h).
#include "core/target/host_cpu.h"

#include "core/support/strings.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace ts::target {

namespace {
    // LLVM 15's x86 models of each vendor, in the order the rule tries them: newest first (for Intel the
    // AVX-512 server line, then the AVX-512 clients, then the rest), so the first that fits is the newest
    // whose features the host has all of.
    const std::vector<const char*> kAmdModels = { "znver3", "znver2", "znver1", "bdver4", "bdver3", "bdver2", "bdver1",
        "btver2", "btver1", "amdfam10", "k8-sse3" };
    const std::vector<const char*> kIntelModels = { "sapphirerapids", "icelake-server", "cooperlake", "cascadelake",
        "skylake-avx512", "tigerlake", "rocketlake", "icelake-client", "cannonlake", "alderlake", "skylake",
        "broadwell", "haswell", "ivybridge", "sandybridge", "westmere", "nehalem", "core2" };
    const std::vector<const char*> kLevels = { "x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64" };

    // The features compared: those generated code can use (vector, arithmetic and bit-manipulation
    // extensions). System instructions (mwaitx, pku, rdpru, wbnoinvd, invpcid, ...) are not: hypervisors hide
    // them (a Zen 4 guest reports no mwaitx), and no kernel uses them.
    const std::set<std::string> kCompared = { "sse", "sse2", "sse3", "ssse3", "sse4.1", "sse4.2", "sse4a", "avx",
        "avx2", "fma", "fma4", "xop", "tbm", "f16c", "bmi", "bmi2", "lzcnt", "popcnt", "movbe", "adx", "aes", "pclmul",
        "vaes", "vpclmulqdq", "gfni", "sha", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma",
        "avx512vbmi", "avx512vbmi2", "avx512vnni", "avx512bitalg", "avx512vpopcntdq", "avx512bf16", "avx512fp16",
        "avx512vp2intersect", "avx512er", "avx512pf", "prefetchwt1", "avxvnni", "amx-tile", "amx-int8", "amx-bf16" };

    const std::vector<const char*>* modelsOf(const std::string& vendor)
    {
        if (vendor == "AuthenticAMD" || vendor == "HygonGenuine") // Hygon's Dhyana is a Zen 1
            return &kAmdModels;
        if (vendor == "GenuineIntel")
            return &kIntelModels;
        return nullptr;
    }

    // Whether LLVM's model `cpu` has none of the `lacking` features ("-avx512f,-xop": the compared ones the
    // host lacks): taking them away changes nothing. (MCSubtargetInfo::checkFeatures would also test what
    // each feature implies: "-avx512f" fails on any model with AVX2.)
    bool hostHasAllOf(
        const llvm::Target& llvmTarget, const std::string& triple, const std::string& cpu, const std::string& lacking)
    {
        const std::unique_ptr<llvm::MCSubtargetInfo> model(llvmTarget.createMCSubtargetInfo(triple, cpu, ""));
        if (!model || !model->isCPUStringValid(cpu))
            return false;
        const std::unique_ptr<llvm::MCSubtargetInfo> without(llvmTarget.createMCSubtargetInfo(triple, cpu, lacking));
        return without && without->getFeatureBits() == model->getFeatureBits();
    }
} // namespace

CpuId readCpuId()
{
    CpuId id;
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
        return id;
    char vendor[13] = {};
    std::memcpy(vendor, &ebx, 4);
    std::memcpy(vendor + 4, &edx, 4);
    std::memcpy(vendor + 8, &ecx, 4);
    id.vendor = vendor;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return id;
    const int baseFamily = (eax >> 8) & 0xf;
    const int baseModel = (eax >> 4) & 0xf;
    id.family = baseFamily == 0xf ? baseFamily + static_cast<int>((eax >> 20) & 0xff) : baseFamily;
    id.model
        = baseFamily == 0x6 || baseFamily == 0xf ? baseModel + static_cast<int>(((eax >> 16) & 0xf) << 4) : baseModel;
#endif
    return id;
}

HostCpuName chooseCpuName(const std::string& llvmName, const CpuId& cpuid, const std::map<std::string, bool>& features,
    const std::string& triple)
{
    HostCpuName out;
    out.llvmName = llvmName;
    if (!llvmName.empty() && llvmName != "generic") {
        out.chosen = llvmName;
        out.rule = "llvm";
        return out;
    }
    static std::once_flag initialized;
    std::call_once(initialized, [] { llvm::InitializeNativeTarget(); });
    const std::string tripleText = triple.empty() ? llvm::sys::getProcessTriple() : triple;
    std::string error;
    const llvm::Target* llvmTarget = llvm::TargetRegistry::lookupTarget(tripleText, error);
    std::vector<std::string> lacking;
    for (const auto& [feature, present] : features)
        if (!present && kCompared.count(feature))
            lacking.push_back("-" + feature);
    const std::string lackingText = join(lacking, ",");
    if (llvmTarget) {
        if (const std::vector<const char*>* models = modelsOf(cpuid.vendor))
            for (const char* model : *models)
                if (hostHasAllOf(*llvmTarget, tripleText, model, lackingText)) {
                    out.chosen = model;
                    out.rule = "vendor-model";
                    return out;
                }
        for (const char* level : kLevels)
            if (hostHasAllOf(*llvmTarget, tripleText, level, lackingText)) {
                out.chosen = level;
                out.rule = "x86-64-level";
                return out;
            }
    }
    // Not x86, or LLVM has no target for it: LLVM's answer stands.
    out.chosen = llvmName;
    out.rule = "llvm";
    return out;
}

const CpuId& hostCpuId()
{
    static const CpuId id = readCpuId();
    return id;
}

const HostCpuName& hostCpuName()
{
    static const HostCpuName name = [] {
        std::map<std::string, bool> features;
        llvm::StringMap<bool> found;
        if (llvm::sys::getHostCPUFeatures(found))
            for (const auto& f : found)
                features[f.first().str()] = f.second;
        return chooseCpuName(llvm::sys::getHostCPUName().str(), hostCpuId(), features);
    }();
    return name;
}

} // namespace ts::target
