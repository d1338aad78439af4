// Targets: the host as LLVM sees it, and the conversion from what the record store keeps for a device (a
// TVM target string and Ansor's hardware parameters) and back.
#include "core/support/strings.h"
#include "core/target/target.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ts;
using target::Target;
using target::TargetKind;

TEST(Target, HostIsThisCpuAsLlvmNamesIt)
{
    const Target& host = Target::host();
    EXPECT_EQ(&host, &Target::host()); // read once
    EXPECT_EQ(host.kind, TargetKind::Cpu);
    EXPECT_FALSE(host.isGpu());
    EXPECT_FALSE(host.cpuName.empty());
    EXPECT_NE(host.cpuName, "generic");
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
