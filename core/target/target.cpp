#include "core/target/target.h"

#include "core/support/strings.h"

#include <vector>

namespace ts::target {

namespace {
    Error targetError(std::string_view tvmTarget, const std::string& why)
    {
        return makeError(ErrorKind::InvalidArgument, "TVM target \"" + std::string(tvmTarget) + "\": " + why);
    }

    std::vector<std::string> words(std::string_view text)
    {
        std::vector<std::string> out;
        std::string word;
        for (const char c : text) {
            if (c == ' ' || c == '\t' || c == '\n') {
                if (!word.empty())
                    out.push_back(std::move(word));
                word.clear();
            } else {
                word += c;
            }
        }
        if (!word.empty())
            out.push_back(std::move(word));
        return out;
    }

    // "avx2,+fma,-avx512f" -> "+avx2,+fma,-avx512f": LLVM wants a sign on every feature.
    std::string llvmFeatures(std::string_view mattr)
    {
        std::vector<std::string> out;
        for (std::string& f : split(mattr, ','))
            if (!f.empty())
                out.push_back(f[0] == '+' || f[0] == '-' ? f : "+" + f);
        return join(out, ",");
    }

    // TVM's values for a CUDA device when the record has no hardware parameters (its log format's
    // example: [-1, 16, 64, 49152, 2147483647, 1024, 8, 32]).
    void cudaDefaults(Target& t)
    {
        t.vectorBytes = 16;
        t.maxSharedMemoryPerBlock = 49152;
        t.maxLocalMemoryPerBlock = 2147483647;
        t.maxThreadsPerBlock = 1024;
        t.maxVThreadExtent = 8;
        t.warpSize = 32;
    }
} // namespace

const char* toString(TargetKind kind)
{
    switch (kind) {
    case TargetKind::Cpu:
        return "cpu";
    case TargetKind::Cuda:
        return "cuda";
    }
    return "?";
}

HardwareParams hardwareParams(const Target& t)
{
    return { t.cores, t.vectorBytes, t.cacheLineBytes, t.maxSharedMemoryPerBlock, t.maxLocalMemoryPerBlock,
        t.maxThreadsPerBlock, t.maxVThreadExtent, t.warpSize };
}

Expected<Target> fromTvm(std::string_view tvmTarget, const std::optional<HardwareParams>& params)
{
    const std::vector<std::string> tokens = words(tvmTarget);
    if (tokens.empty())
        return targetError(tvmTarget, "empty");
    if (tokens[0].front() == '{')
        return targetError(tvmTarget, "the JSON form of a target is not supported; give its string form");
    Target t;
    if (tokens[0] == "llvm") {
        t.kind = TargetKind::Cpu;
    } else if (tokens[0] == "cuda") {
        t.kind = TargetKind::Cuda;
        cudaDefaults(t);
    } else {
        return targetError(tvmTarget, "kind \"" + tokens[0] + "\" is not supported (llvm for CPUs, cuda for GPUs)");
    }
    for (size_t i = 1; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        if (token.size() < 2 || token[0] != '-')
            return targetError(tvmTarget, "\"" + token + "\" is not an option (-name=value)");
        const size_t eq = token.find('=');
        const std::string name = token.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
        const std::string value = eq == std::string::npos ? std::string() : token.substr(eq + 1);
        auto number = [&](int64_t& field) -> Expected<void> {
            auto parsed = parseInt(value, "-" + name);
            if (!parsed)
                return targetError(tvmTarget, parsed.error().message);
            field = *parsed;
            return {};
        };
        if (t.kind == TargetKind::Cpu) {
            if (name == "mcpu")
                t.cpuName = value;
            else if (name == "mattr")
                t.features = llvmFeatures(value);
            else if (name == "mtriple")
                t.triple = value;
            else if (name == "num-cores")
                TS_CHECK(number(t.cores));
        } else {
            if (name == "arch")
                t.arch = value;
            else if (name == "max_num_threads" || name == "max_threads_per_block")
                TS_CHECK(number(t.maxThreadsPerBlock));
            else if (name == "max_shared_memory_per_block")
                TS_CHECK(number(t.maxSharedMemoryPerBlock));
            else if (name == "thread_warp_size")
                TS_CHECK(number(t.warpSize));
        }
    }
    if (params) {
        const HardwareParams& p = *params;
        t.cores = p[0];
        t.vectorBytes = p[1];
        t.cacheLineBytes = p[2];
        t.maxSharedMemoryPerBlock = p[3];
        t.maxLocalMemoryPerBlock = p[4];
        t.maxThreadsPerBlock = p[5];
        t.maxVThreadExtent = p[6];
        t.warpSize = p[7];
    }
    return t;
}

std::string toString(const Target& t)
{
    std::string out;
    auto option = [&](const char* name, const std::string& value) {
        if (!value.empty())
            out += std::string(" -") + name + "=" + value;
    };
    auto positive = [&](const char* name, int64_t value) {
        if (value > 0)
            option(name, std::to_string(value));
    };
    switch (t.kind) {
    case TargetKind::Cpu:
        out = "llvm -keys=cpu";
        option("mattr", t.features);
        option("mcpu", t.cpuName);
        option("mtriple", t.triple);
        positive("num-cores", t.cores);
        break;
    case TargetKind::Cuda:
        out = "cuda -keys=cuda,gpu";
        option("arch", t.arch);
        positive("max_num_threads", t.maxThreadsPerBlock);
        positive("max_shared_memory_per_block", t.maxSharedMemoryPerBlock);
        positive("thread_warp_size", t.warpSize);
        break;
    }
    return out;
}

} // namespace ts::target
