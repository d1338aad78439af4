#include "core/target/target.h"

#include "core/support/assert.h"
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

    // An option of a TVM target string that changes the code, and the field it sets: text or a number.
    struct TvmOption {
        const char* name;
        std::string Target::*text = nullptr;
        int64_t Target::*number = nullptr;
        std::string (*normalize)(std::string_view) = nullptr; // applied to a text value when parsed
        bool printed = true; // false for another name TVM accepts for an option printed under its own
    };

    // A target kind: its name, TVM's name and keys for it, the defaults without hardware parameters, and
    // its options in the order toString prints them.
    struct KindInfo {
        TargetKind kind;
        const char* name;
        const char* tvmName;
        const char* tvmKeys;
        void (*defaults)(Target&);
        std::vector<TvmOption> options;
    };

    const std::vector<KindInfo>& kinds()
    {
        static const std::vector<KindInfo> table = {
            { TargetKind::Cpu, "cpu", "llvm", "cpu", nullptr,
                {
                    { .name = "mattr", .text = &Target::features, .normalize = llvmFeatures },
                    { .name = "mcpu", .text = &Target::cpuName },
                    { .name = "mtriple", .text = &Target::triple },
                    { .name = "num-cores", .number = &Target::cores },
                } },
            { TargetKind::Cuda, "cuda", "cuda", "cuda,gpu", cudaDefaults,
                {
                    { .name = "arch", .text = &Target::arch },
                    { .name = "max_num_threads", .number = &Target::maxThreadsPerBlock },
                    { .name = "max_threads_per_block", .number = &Target::maxThreadsPerBlock, .printed = false },
                    { .name = "max_shared_memory_per_block", .number = &Target::maxSharedMemoryPerBlock },
                    { .name = "thread_warp_size", .number = &Target::warpSize },
                } },
        };
        return table;
    }

    const KindInfo& kindInfo(TargetKind kind)
    {
        for (const KindInfo& info : kinds())
            if (info.kind == kind)
                return info;
        internalError(__FILE__, __LINE__,
            "target kind " + std::to_string(static_cast<int>(kind)) + " is missing from the kind table");
    }
} // namespace

const char* toString(TargetKind kind) { return kindInfo(kind).name; }

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
    const KindInfo* info = nullptr;
    for (const KindInfo& k : kinds())
        if (tokens[0] == k.tvmName)
            info = &k;
    if (!info)
        return targetError(tvmTarget, "kind \"" + tokens[0] + "\" is not supported (llvm for CPUs, cuda for GPUs)");
    Target t;
    t.kind = info->kind;
    if (info->defaults)
        info->defaults(t);
    for (size_t i = 1; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        if (token.size() < 2 || token[0] != '-')
            return targetError(tvmTarget, "\"" + token + "\" is not an option (-name=value)");
        const size_t eq = token.find('=');
        const std::string name = token.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
        const std::string value = eq == std::string::npos ? std::string() : token.substr(eq + 1);
        for (const TvmOption& option : info->options) {
            if (name != option.name)
                continue;
            if (option.text) {
                t.*option.text = option.normalize ? option.normalize(value) : value;
            } else {
                auto parsed = parseInt(value, "-" + name);
                if (!parsed)
                    return targetError(tvmTarget, parsed.error().message);
                t.*option.number = *parsed;
            }
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
    const KindInfo& info = kindInfo(t.kind);
    std::string out = std::string(info.tvmName) + " -keys=" + info.tvmKeys;
    for (const TvmOption& option : info.options) {
        if (!option.printed)
            continue;
        std::string value;
        if (option.text)
            value = t.*option.text;
        else if (t.*option.number > 0)
            value = std::to_string(t.*option.number);
        if (!value.empty())
            out += std::string(" -") + option.name + "=" + value;
    }
    return out;
}

} // namespace ts::target
