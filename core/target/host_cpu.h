// The host CPU's model name when LLVM does not know it. LLVM 15 (Debian 12's) names the CPUs that existed when
// it was released; on a newer one (AMD Zen 5, CPUID family 26) getHostCPUName() answers "generic", although
// getHostCPUFeatures() reads every feature (AVX-512 included) from CPUID. A target named "generic" would make
// every record, device and exported log say "cpu generic" and lose LLVM's scheduling model for the CPU.
//
// The rule (docs/architecture.md, "The host CPU's name"):
//   1. LLVM's own name wins whenever it is not "generic" (or empty).
//   2. Otherwise: the first model of the CPUID vendor's list below, newest first, whose instruction-set
//      features the host has all of, as LLVM 15's own CPU table defines the model's features. Only the
//      features generated code can use are compared (vector, arithmetic and bit-manipulation extensions);
//      system instructions a hypervisor hides (mwaitx, pku, rdpru: a Zen 4 guest reports none) and tuning
//      flags are not.
//   3. Otherwise (another vendor, or no model fits): the highest x86-64 micro-architecture level the host
//      has all of (x86-64-v4, -v3, -v2, x86-64).
// The host's feature list is kept as LLVM read it, so the code generator still sees every feature (the
// chosen model only supplies the scheduling model and tuning). The answer depends only on the vendor, the
// feature set and LLVM's CPU table: two hosts with the same CPUID features get the same name, hence the
// same TVM target string and the same workspace device. A later LLVM that knows the CPU would name it
// itself; the store then matches the device by the CPUID signature it records (store::Store::addDevice).
#pragma once

#include <map>
#include <string>

namespace ts::target {

// What CPUID says of the processor: the vendor string and the display family and model (base plus
// extended fields, as the manuals combine them).
struct CpuId {
    std::string vendor; // "AuthenticAMD", "GenuineIntel", "HygonGenuine", ...
    int family = 0;
    int model = 0;

    bool operator==(const CpuId&) const = default;
};

// This machine's CPUID answer (x86 only; an empty vendor elsewhere).
CpuId readCpuId();

// The host's name as recorded on its device row: what LLVM said, what was chosen and why.
struct HostCpuName {
    std::string llvmName; // llvm::sys::getHostCPUName(), e.g. "generic"
    std::string chosen; // the name the Target carries, e.g. "znver3"
    std::string rule; // "llvm" (LLVM's own name), "vendor-model" or "x86-64-level"
};

// The rule above. `features` is getHostCPUFeatures()'s map (LLVM's feature names, true when present).
// `triple` picks LLVM's CPU table (empty: this process's triple).
HostCpuName chooseCpuName(const std::string& llvmName, const CpuId& cpuid, const std::map<std::string, bool>& features,
    const std::string& triple = {});

// This machine's answer, read once (Target::host().cpuName is its `chosen`).
const HostCpuName& hostCpuName();
const CpuId& hostCpuId();

} // namespace ts::target
