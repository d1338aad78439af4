// Targets: the host as LLVM sees it, and the conversion from what the record store keeps for a device (a
// TVM target string and Ansor's hardware parameters) and back.
#include "core/support/strings.h"
#include "core/target/host_cpu.h"
#include "core/target/target.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace ts;
using target::Target;
using target::TargetKind;

TEST(Target, HostIsThisCpuNamedAsLlvmKnowsIt)
{
    const Target& host = Target::host();
    EXPECT_EQ(&host, &Target::host()); // read once
    EXPECT_EQ(host.kind, TargetKind::Cpu);
    EXPECT_FALSE(host.isGpu());
    // LLVM's name, or (LLVM 15 says "generic" for a CPU newer than itself) the closest model it knows.
    const target::HostCpuName& name = target::hostCpuName();
    EXPECT_EQ(host.cpuName, name.chosen);
    EXPECT_FALSE(host.cpuName.empty());
    EXPECT_NE(host.cpuName, "generic") << "LLVM said " << name.llvmName;
    if (name.llvmName != "generic")
        EXPECT_EQ(name.chosen, name.llvmName);
    else
        EXPECT_NE(name.rule, "llvm");
    EXPECT_NE(host.triple.find("x86_64"), std::string::npos) << host.triple;
    EXPECT_GE(host.cores, 1);
    EXPECT_GE(host.cacheLineBytes, 32);
    // The vector width follows the features: 64 bytes with AVX-512, 32 with AVX, 16 with SSE only.
    const std::vector<std::string> features = split(host.features, ',');
    auto has = [&](const char* f) { return std::find(features.begin(), features.end(), f) != features.end(); };
    EXPECT_EQ(host.vectorBytes, has("+avx512f") ? 64 : has("+avx") ? 32 : 16) << host.features;
    EXPECT_TRUE(has("+sse2")) << host.features;
    // Its TVM string says what it is.
    const std::string text = target::toString(host);
    EXPECT_EQ(text.rfind("llvm -keys=cpu -mattr=", 0), 0u) << text;
    EXPECT_NE(text.find(" -mcpu=" + host.cpuName + " "), std::string::npos) << text;
    auto back = target::fromTvm(text, target::hardwareParams(host));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, host);
}

namespace {
// getHostCPUFeatures() on an AMD EPYC Zen 4 KVM guest (LLVM 15 named it znver3); the guest hides mwaitx,
// pku, rdpru and wbnoinvd, which every Zen model of LLVM's has.
constexpr const char* kZen4Guest = "+64bit,+adx,+aes,-amx-bf16,-amx-int8,-amx-tile,+avx,+avx2,+avx512bf16,"
                                   "+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,-avx512er,+avx512f,-avx512fp16,"
                                   "+avx512ifma,-avx512pf,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,"
                                   "-avx512vp2intersect,+avx512vpopcntdq,-avxvnni,+bmi,+bmi2,-cldemote,+clflushopt,"
                                   "+clwb,+clzero,+cmov,+crc32,+cx16,+cx8,-enqcmd,+f16c,+fma,-fma4,+fsgsbase,+fxsr,"
                                   "+gfni,-hreset,+invpcid,-kl,-lwp,+lzcnt,+mmx,+movbe,-movdir64b,-movdiri,-mwaitx,"
                                   "+pclmul,-pconfig,-pku,+popcnt,-prefetchwt1,+prfchw,-ptwrite,+rdpid,-rdpru,+rdrnd,"
                                   "+rdseed,-rtm,+sahf,-serialize,-sgx,+sha,+shstk,+sse,+sse2,+sse3,+sse4.1,+sse4.2,"
                                   "+sse4a,+ssse3,-tbm,-tsxldtrk,-uintr,+vaes,+vpclmulqdq,-waitpkg,-wbnoinvd,-widekl,"
                                   "-xop,+xsave,+xsavec,+xsaveopt,+xsaves";

// kZen4Guest with `changes` ("+avxvnni,-avx512f") applied.
std::map<std::string, bool> featuresWith(const std::string& changes)
{
    std::map<std::string, bool> features;
    for (const std::string& list : { std::string(kZen4Guest), changes })
        for (const std::string& f : split(list, ','))
            if (!f.empty())
                features[f.substr(1)] = f[0] == '+';
    return features;
}

constexpr const char* kNoAvx512 = "-avx512f,-avx512cd,-avx512bw,-avx512dq,-avx512vl,-avx512ifma,-avx512vbmi,"
                                  "-avx512vbmi2,-avx512vnni,-avx512bitalg,-avx512vpopcntdq,-avx512bf16";
} // namespace

TEST(Target, AnUnknownCpuIsNamedByTheClosestModelLlvmKnows)
{
    // LLVM's own name always wins.
    auto known = target::chooseCpuName("znver3", { "AuthenticAMD", 25, 17 }, featuresWith(""));
    EXPECT_EQ(known.chosen, "znver3");
    EXPECT_EQ(known.rule, "llvm");

    // A Zen 5 (family 26): LLVM 15 says generic; its features are Zen 4's and AVX-VNNI, MOVDIRI, MOVDIR64B,
    // VP2INTERSECT. The newest AMD model LLVM 15 knows is Zen 3, and the system features the guest hides do
    // not count against it.
    auto zen5 = target::chooseCpuName(
        "generic", { "AuthenticAMD", 26, 2 }, featuresWith("+avxvnni,+movdiri,+movdir64b,+avx512vp2intersect"));
    EXPECT_EQ(zen5.llvmName, "generic");
    EXPECT_EQ(zen5.chosen, "znver3");
    EXPECT_EQ(zen5.rule, "vendor-model");
    // Without AVX-512 nor VAES (a Zen 2-like feature set): the newest model that has no more than that.
    EXPECT_EQ(target::chooseCpuName(
                  "generic", { "AuthenticAMD", 26, 2 }, featuresWith(std::string(kNoAvx512) + ",-vaes,-vpclmulqdq"))
                  .chosen,
        "znver2");
    // Hygon's CPUs are Zens.
    EXPECT_EQ(target::chooseCpuName("generic", { "HygonGenuine", 24, 0 }, featuresWith("")).chosen, "znver3");

    // An unknown Intel: with AMX and AVX512-FP16, Sapphire Rapids; with Ice Lake's AVX-512 but no SSE4a (an
    // AMD extension), Ice Lake server; without AVX-512, the client line (Skylake: no AVX-VNNI for Alder Lake).
    const std::string intel = "-sse4a,-clzero";
    EXPECT_EQ(target::chooseCpuName("generic", { "GenuineIntel", 19, 1 },
                  featuresWith(intel + ",+amx-tile,+amx-int8,+amx-bf16,+avxvnni,+avx512fp16,+serialize"))
                  .chosen,
        "sapphirerapids");
    EXPECT_EQ(
        target::chooseCpuName("generic", { "GenuineIntel", 19, 1 }, featuresWith(intel)).chosen, "icelake-server");
    EXPECT_EQ(target::chooseCpuName("generic", { "GenuineIntel", 19, 1 },
                  featuresWith(intel + "," + kNoAvx512 + ",-gfni,-vaes,-vpclmulqdq,-sha"))
                  .chosen,
        "skylake");

    // Another vendor: the x86-64 level.
    auto other = target::chooseCpuName("generic", { "CentaurHauls", 7, 0 }, featuresWith(""));
    EXPECT_EQ(other.chosen, "x86-64-v4");
    EXPECT_EQ(other.rule, "x86-64-level");
    EXPECT_EQ(target::chooseCpuName("generic", { "CentaurHauls", 7, 0 }, featuresWith(kNoAvx512)).chosen, "x86-64-v3");
    EXPECT_EQ(
        target::chooseCpuName("generic", { "CentaurHauls", 7, 0 }, featuresWith(std::string(kNoAvx512) + ",-avx2"))
            .chosen,
        "x86-64-v2");

    // The same features give the same name, whatever the model number: one device for such hosts.
    EXPECT_EQ(target::chooseCpuName("generic", { "AuthenticAMD", 26, 68 }, featuresWith("")).chosen,
        target::chooseCpuName("generic", { "AuthenticAMD", 26, 2 }, featuresWith("")).chosen);
}

TEST(Target, CpuFromATvmStringAndHardwareParams)
{
    // What the store keeps for an Ansor record made on a Zen 3 machine with 8 cores.
    auto t = target::fromTvm("llvm -keys=cpu -link-params=0 -mcpu=znver3 -mattr=avx2,+fma,-avx512f -num-cores=4",
        target::HardwareParams { 8, 32, 64, 0, 0, 0, 0, 0 });
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->kind, TargetKind::Cpu);
    EXPECT_EQ(t->cpuName, "znver3");
    EXPECT_EQ(t->features, "+avx2,+fma,-avx512f");
    EXPECT_EQ(t->triple, "");
    EXPECT_EQ(t->cores, 8); // the hardware params win over -num-cores
    EXPECT_EQ(t->vectorBytes, 32);
    EXPECT_EQ(t->cacheLineBytes, 64);
    EXPECT_EQ(t->maxThreadsPerBlock, 0);
    EXPECT_EQ(target::toString(*t), "llvm -keys=cpu -mattr=+avx2,+fma,-avx512f -mcpu=znver3 -num-cores=8");
    EXPECT_EQ(target::hardwareParams(*t), (target::HardwareParams { 8, 32, 64, 0, 0, 0, 0, 0 }));

    // A log older than v0.3 has no hardware params: TVM's defaults, cores from the string or unknown.
    auto old = target::fromTvm("llvm -mcpu=skylake-avx512 -num-cores=16");
    ASSERT_TRUE(old) << old.error().message;
    EXPECT_EQ(old->cores, 16);
    EXPECT_EQ(old->vectorBytes, 64);
    EXPECT_EQ(old->cacheLineBytes, 64);
    auto bare = target::fromTvm("llvm");
    ASSERT_TRUE(bare) << bare.error().message;
    EXPECT_EQ(bare->cpuName, "");
    EXPECT_EQ(bare->cores, -1);
    EXPECT_EQ(target::toString(*bare), "llvm -keys=cpu");
}

TEST(Target, CudaFromATvmStringAndHardwareParams)
{
    auto t = target::fromTvm("cuda -keys=cuda,gpu -arch=sm_86 -max_num_threads=1024 -thread_warp_size=32",
        target::HardwareParams { -1, 16, 64, 49152, 2147483647, 1024, 8, 32 });
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->kind, TargetKind::Cuda);
    EXPECT_TRUE(t->isGpu());
    EXPECT_EQ(t->arch, "sm_86");
    EXPECT_EQ(t->maxThreadsPerBlock, 1024);
    EXPECT_EQ(t->maxSharedMemoryPerBlock, 49152);
    EXPECT_EQ(t->maxLocalMemoryPerBlock, 2147483647);
    EXPECT_EQ(t->maxVThreadExtent, 8);
    EXPECT_EQ(t->warpSize, 32);
    EXPECT_EQ(t->cores, -1);
    EXPECT_EQ(target::toString(*t),
        "cuda -keys=cuda,gpu -arch=sm_86 -max_num_threads=1024 -max_shared_memory_per_block=49152 "
        "-thread_warp_size=32");
    auto back = target::fromTvm(target::toString(*t), target::hardwareParams(*t));
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, *t);
    // Without hardware params: TVM's CUDA values, options on top.
    auto plain = target::fromTvm("cuda -max_num_threads=512");
    ASSERT_TRUE(plain) << plain.error().message;
    EXPECT_EQ(plain->maxThreadsPerBlock, 512);
    EXPECT_EQ(plain->warpSize, 32);
    EXPECT_EQ(plain->maxSharedMemoryPerBlock, 49152);
}

TEST(Target, WhatIsNotUnderstoodIsNamed)
{
    auto kind = target::fromTvm("rocm -mcpu=gfx908");
    ASSERT_FALSE(kind);
    EXPECT_EQ(kind.error().kind, ErrorKind::InvalidArgument);
    EXPECT_EQ(kind.error().message,
        "TVM target \"rocm -mcpu=gfx908\": kind \"rocm\" is not supported (llvm for CPUs, cuda for GPUs)");
    auto option = target::fromTvm("llvm znver3");
    ASSERT_FALSE(option);
    EXPECT_EQ(option.error().message, "TVM target \"llvm znver3\": \"znver3\" is not an option (-name=value)");
    auto number = target::fromTvm("llvm -num-cores=many");
    ASSERT_FALSE(number);
    EXPECT_NE(number.error().message.find("-num-cores"), std::string::npos) << number.error().message;
    EXPECT_FALSE(target::fromTvm(""));
    auto json = target::fromTvm(R"({"kind": "llvm"})");
    ASSERT_FALSE(json);
    EXPECT_NE(json.error().message.find("JSON"), std::string::npos) << json.error().message;
}

TEST(Target, KindNamesAndOptionAliases)
{
    EXPECT_STREQ(target::toString(TargetKind::Cpu), "cpu");
    EXPECT_STREQ(target::toString(TargetKind::Cuda), "cuda");
    // TVM also accepts -max_threads_per_block; it is printed under its own name, -max_num_threads.
    auto t = target::fromTvm("cuda -max_threads_per_block=256 -mcpu=znver3");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->maxThreadsPerBlock, 256);
    EXPECT_EQ(t->cpuName, ""); // a CPU option on a GPU target changes nothing
    EXPECT_EQ(target::toString(*t),
        "cuda -keys=cuda,gpu -max_num_threads=256 -max_shared_memory_per_block=49152 -thread_warp_size=32");
}
