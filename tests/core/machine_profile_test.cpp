// The machine profile: its micro kernels compute what they say, the measured peak is plausible for the CPU's
// clock, the profile is kept with the device and measured once, and roofline points are what the formula
// says.
#include "kernel_check.h"
#include "store_fixtures.h"

#include "core/engine/machine.h"
#include "core/measure/machine_profile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

using namespace ts;

namespace {

// The current clock of cpu0 in GHz from /proc/cpuinfo (0 when not reported).
double cpuGhz()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("cpu MHz", 0) == 0)
            return std::stod(line.substr(line.find(':') + 1)) / 1000.0;
    return 0.0;
}

measure::ProfileOptions quickOptions()
{
    measure::ProfileOptions options;
    options.maxThreads = 1;
    options.triadElements = int64_t(1) << 22; // 48 MiB in all: a test, not a benchmark
    return options;
}

} // namespace

TEST(MachineProfile, TheMicroKernelsComputeTheirResults)
{
    for (int threads : { 1, 2 }) {
        auto peak = measure::peakKernel(target::Target::host(), threads);
        ASSERT_TRUE(peak) << peak.error().message;
        EXPECT_DOUBLE_EQ(peak->flops, peak->dag.flopCount());
        ts::testing::expectMatchesReference(peak->dag, peak->state, "fma peak kernel");
    }
    auto triad = measure::triadKernel(4096);
    ASSERT_TRUE(triad) << triad.error().message;
    EXPECT_DOUBLE_EQ(triad->bytes, 12.0 * 4096);
    ts::testing::expectMatchesReference(triad->dag, triad->state, "triad");
    EXPECT_FALSE(measure::triadKernel(100)); // not a multiple of 16
    for (int threads : { 1, 2 }) {
        auto sweep = measure::cacheKernel(1536, threads, 3);
        ASSERT_TRUE(sweep) << sweep.error().message;
        EXPECT_DOUBLE_EQ(sweep->bytes, 16.0 * 1536 * 3);
        ts::testing::expectMatchesReference(sweep->dag, sweep->state, "cache kernel");
    }
    EXPECT_FALSE(measure::cacheKernel(96, 2, 3)); // not a multiple of 64 x threads
    EXPECT_FALSE(measure::cacheKernel(128, 2, 0));
}

TEST(MachineProfile, ThePeakIsPlausibleForTheClock)
{
    auto profile = measure::measureMachine(quickOptions());
    ASSERT_TRUE(profile) << profile.error().message;
    ASSERT_EQ(profile->peakGflops.size(), 1u);
    ASSERT_EQ(profile->triadGBps.size(), 1u);
    const double ghz = cpuGhz();
    if (ghz <= 0)
        GTEST_SKIP() << "no clock in /proc/cpuinfo";
    // x86 CPUs with AVX-512 retire 32 (one 512-bit FMA port, or two 256-bit ones as Zen 4) to 64 (two
    // 512-bit ports) fp32 FLOP per cycle; the measured peak is within 2x of that at the reported clock.
    EXPECT_GT(profile->peak(1), 32 * ghz / 2) << "clock " << ghz << " GHz";
    EXPECT_LT(profile->peak(1), 64 * ghz * 2) << "clock " << ghz << " GHz";
    EXPECT_GT(profile->bandwidth(1), 0.5); // GB/s: any memory system since the 1990s
    EXPECT_LT(profile->bandwidth(1), 2000);
    EXPECT_GT(profile->l1dBytes, 0);
    // Streams resident in the L2 run faster than from DRAM, on every CPU since caches.
    if (profile->l2Bytes > 0) {
        ASSERT_EQ(profile->l2GBps.size(), 1u);
        EXPECT_GT(profile->bandwidth(measure::MemoryLevel::L2, 1), profile->bandwidth(1));
        EXPECT_GT(profile->l2SetBytes, 0);
        EXPECT_LE(profile->l2SetBytes, profile->l2Bytes / 2);
    }
}

TEST(MachineProfile, IsMeasuredOnceAndKeptWithTheDevice)
{
    store::test::TempDir temp;
    store::Store store = store::test::openOrDie(temp.file("profile.tsdb"));
    bool measured = false;
    auto first = engine::workspaceProfile(store, quickOptions(), false, &measured);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_TRUE(measured);
    auto second = engine::workspaceProfile(store, quickOptions(), false, &measured);
    ASSERT_TRUE(second);
    EXPECT_FALSE(measured);
    EXPECT_EQ(second->peakGflops, first->peakGflops);
    EXPECT_EQ(second->toJson(), first->toJson());
    auto stored = engine::hostProfile(store);
    ASSERT_TRUE(stored);
    ASSERT_TRUE(stored->has_value());
    EXPECT_EQ((*stored)->triadGBps, first->triadGBps);

    // A corrupt profile is measured again, never trusted; the device's other properties stay.
    auto devices = store.devices();
    ASSERT_TRUE(devices);
    const int64_t id = devices->front().id;
    ASSERT_TRUE(store.setDeviceProperty(id, "cpu_model", "\"test\""));
    ASSERT_TRUE(store.setDeviceProperty(id, "machine_profile", "{\"peak_gflops\": \"fast\"}"));
    EXPECT_FALSE(engine::hostProfile(store)->has_value());
    auto third = engine::workspaceProfile(store, quickOptions(), false, &measured);
    ASSERT_TRUE(third);
    EXPECT_TRUE(measured);
    devices = store.devices();
    EXPECT_NE(devices->front().properties.find("\"cpu_model\":\"test\""), std::string::npos)
        << devices->front().properties;

    // A profile of older micro kernels (no version: 1) is not shown, and measured again.
    nlohmann::json old = nlohmann::json::parse(third->toJson());
    old.erase("version");
    ASSERT_TRUE(store.setDeviceProperty(id, "machine_profile", old.dump()));
    EXPECT_FALSE(engine::hostProfile(store)->has_value());
    auto fourth = engine::workspaceProfile(store, quickOptions(), false, &measured);
    ASSERT_TRUE(fourth);
    EXPECT_TRUE(measured);
    EXPECT_EQ(fourth->version, measure::MachineProfile::kVersion);
    EXPECT_TRUE(engine::hostProfile(store)->has_value());

    EXPECT_FALSE(store.setDeviceProperty(id + 100, "x", "1"));
    EXPECT_FALSE(store.setDeviceProperty(id, "x", "not json"));
}

TEST(MachineProfile, RooflinePoints)
{
    measure::MachineProfile p;
    p.peakGflops = { 100, 180 };
    p.triadGBps = { 20, 30 };
    EXPECT_DOUBLE_EQ(p.peak(2), 180);
    EXPECT_DOUBLE_EQ(p.peak(8), 180); // past the measured counts: the last
    EXPECT_DOUBLE_EQ(p.roof(1.0, 1), 20); // memory-bound
    EXPECT_DOUBLE_EQ(p.roof(10.0, 1), 100); // compute-bound
    // 2 GFLOP over 1 GB in 0.1 s on 2 threads: 20 GFLOP/s at 2 FLOP/byte, under a 60 GFLOP/s roof.
    const measure::RooflinePoint r = measure::rooflinePoint(p, 2e9, 1e9, 0.1, 2);
    EXPECT_DOUBLE_EQ(r.gflops, 20);
    EXPECT_DOUBLE_EQ(r.intensity, 2);
    EXPECT_DOUBLE_EQ(r.gbps, 10);
    EXPECT_DOUBLE_EQ(r.roof, 60);
    EXPECT_TRUE(r.memoryBound);
    EXPECT_NEAR(r.ofPeak, 20.0 / 180, 1e-12);
    EXPECT_NEAR(r.ofRoof, 20.0 / 60, 1e-12);
    auto back = measure::MachineProfile::fromJson(p.toJson());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->peakGflops, p.peakGflops);
    EXPECT_EQ(r.level, measure::MemoryLevel::Dram); // no cache level measured
    EXPECT_EQ(back->l2GBps, p.l2GBps);

    // With cache levels: a kernel's traffic that fits twice the resident set measured is bounded by that
    // level; the L2 set shrinks with fewer threads (fewer L2s); a level not measured falls to the next one out.
    p.l2GBps = { 200, 400 };
    p.l3GBps = { 60, 90 };
    p.l2SetBytes = 2 << 20; // 1 MiB a thread
    p.l3SetBytes = 16 << 20;
    EXPECT_EQ(p.levelOf(4 << 20, 2), measure::MemoryLevel::L2);
    EXPECT_EQ(p.levelOf(4 << 20, 1), measure::MemoryLevel::L3);
    EXPECT_EQ(p.levelOf(32 << 20, 2), measure::MemoryLevel::L3);
    EXPECT_EQ(p.levelOf((32 << 20) + 1, 2), measure::MemoryLevel::Dram);
    EXPECT_EQ(p.levelOf(0, 2), measure::MemoryLevel::Dram); // footprint not known
    const measure::RooflinePoint inL2 = measure::rooflinePoint(p, 4e6, 2e6, 1e-4, 2); // 40 GFLOP/s at 2 FLOP/byte
    EXPECT_EQ(inL2.level, measure::MemoryLevel::L2);
    EXPECT_DOUBLE_EQ(inL2.bandwidth, 400);
    EXPECT_DOUBLE_EQ(inL2.roof, 180); // 400 x 2 over the peak: compute-bound in the L2
    EXPECT_FALSE(inL2.memoryBound);
    const measure::RooflinePoint inL3 = measure::rooflinePoint(p, 10e6, 20e6, 1e-3, 2); // 10 GFLOP/s at 0.5
    EXPECT_EQ(inL3.level, measure::MemoryLevel::L3);
    EXPECT_DOUBLE_EQ(inL3.roof, 45);
    EXPECT_TRUE(inL3.memoryBound);
    p.l3GBps.clear();
    EXPECT_EQ(p.levelOf(32 << 20, 2), measure::MemoryLevel::Dram);
    EXPECT_DOUBLE_EQ(p.bandwidth(measure::MemoryLevel::L3, 2), 30);
    back = measure::MachineProfile::fromJson(p.toJson());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->l2GBps, p.l2GBps);
    EXPECT_EQ(back->l2SetBytes, p.l2SetBytes);
    EXPECT_STREQ(measure::toString(inL2.level), "L2");
    EXPECT_FALSE(measure::MachineProfile::fromJson("{}"));
    EXPECT_FALSE(measure::MachineProfile::fromJson("nonsense"));
}

// The analytical model's figures from a profile: the clock that makes the one-thread peak two FMA units of
// 16 lanes, bandwidths per cycle at that clock, DRAM on every thread, sysfs's cache sizes.
TEST(MachineProfile, GivesTheAnalyticalModelItsLimits)
{
    measure::MachineProfile p;
    p.peakGflops = { 200.0, 390.0 };
    p.triadGBps = { 15.0, 30.0 };
    p.l2GBps = { 150.0, 300.0 };
    p.l3GBps = { 25.0, 60.0 };
    p.l1dBytes = 48 * 1024;
    p.l2Bytes = 2 * 1024 * 1024;
    p.l3Bytes = 0; // not known: the default stays
    const cost::MachineLimits limits = engine::limitsOf(p, 64);
    EXPECT_TRUE(limits.measured);
    EXPECT_DOUBLE_EQ(limits.ghz, 200.0 / (2 * 2 * 16));
    EXPECT_DOUBLE_EQ(limits.l2BytesPerCycle, 150.0 / limits.ghz);
    EXPECT_DOUBLE_EQ(limits.l3BytesPerCycle, 25.0 / limits.ghz);
    EXPECT_DOUBLE_EQ(limits.dramGBps, 30.0);
    EXPECT_DOUBLE_EQ(limits.l2Bytes, 2.0 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(limits.l3Bytes, cost::MachineLimits {}.l3Bytes);
    // An L3 larger than the profile found resident (a guest seeing its host's) counts as twice that set.
    p.l3Bytes = int64_t(480) << 20;
    p.l3SetBytes = int64_t(32) << 20;
    EXPECT_DOUBLE_EQ(engine::limitsOf(p, 64).l3Bytes, 64.0 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(limits.l1BytesPerCycle, cost::MachineLimits {}.l1BytesPerCycle);
    // AVX2's 8 lanes: the same peak is a faster clock.
    EXPECT_DOUBLE_EQ(engine::limitsOf(p, 32).ghz, 200.0 / (2 * 2 * 8));
    // No cache figures: their defaults; no peak: nothing measured to use.
    p.l2GBps.clear();
    p.l3GBps.clear();
    EXPECT_DOUBLE_EQ(engine::limitsOf(p, 64).l2BytesPerCycle, cost::MachineLimits {}.l2BytesPerCycle);
    p.peakGflops.clear();
    EXPECT_FALSE(engine::limitsOf(p, 64).measured);
    EXPECT_DOUBLE_EQ(engine::limitsOf(p, 64).ghz, cost::MachineLimits {}.ghz);
}
