// Target::host(): the one place that reads what this machine is.
#include "core/support/strings.h"
#include "core/target/host_cpu.h"
#include "core/target/target.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/MC/SubtargetFeature.h>
#include <llvm/Support/Host.h>

#include <algorithm>
#include <thread>
#include <unistd.h>

namespace ts::target {

namespace {
    Target readHost()
    {
        Target t;
        t.kind = TargetKind::Cpu;
        t.triple = llvm::sys::getProcessTriple();
        t.cpuName = hostCpuName().chosen; // LLVM's name, or the closest model it knows (host_cpu.h)
        llvm::SubtargetFeatures features;
        llvm::StringMap<bool> found;
        if (llvm::sys::getHostCPUFeatures(found))
            for (const auto& f : found)
                features.AddFeature(f.first(), f.second);
        t.features = features.getString();
        t.cores = std::max(1u, std::thread::hardware_concurrency());
        const std::vector<std::string> list = split(t.features, ',');
        auto has = [&](const char* feature) { return std::find(list.begin(), list.end(), feature) != list.end(); };
        t.vectorBytes = has("+avx512f") ? 64 : has("+avx") ? 32 : 16;
        const long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
        t.cacheLineBytes = line > 0 ? line : 64;
        return t;
    }
} // namespace

const Target& Target::host()
{
    static const Target host = readHost();
    return host;
}

} // namespace ts::target
