#include "core/measure/machine_profile.h"

#include "core/ir/operation.h"
#include "core/schedule/step.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <optional>
#include <thread>

namespace ts::measure {

namespace {
    int64_t parseCacheSize(const std::string& text)
    {
        // "48K", "2048K", "32768K", "1M"
        int64_t value = 0;
        size_t i = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            value = value * 10 + (text[i++] - '0');
        if (i < text.size() && (text[i] == 'K' || text[i] == 'k'))
            value *= 1024;
        else if (i < text.size() && (text[i] == 'M' || text[i] == 'm'))
            value *= 1024 * 1024;
        return value;
    }

    std::string readLine(const std::string& path)
    {
        std::ifstream in(path);
        std::string line;
        std::getline(in, line);
        return line;
    }

    double at(const std::vector<double>& values, int threads)
    {
        if (values.empty())
            return 0;
        const size_t i = static_cast<size_t>(std::clamp(threads, 1, static_cast<int>(values.size())) - 1);
        return values[i];
    }

    void applyOrFail(sched::State& state, const sched::Step& step, std::optional<Error>& failure)
    {
        if (failure)
            return;
        if (auto applied = state.apply(step); !applied)
            failure = applied.error();
    }

    // Seconds per run of one kernel, TVM's way (mean over repeats), through tunescope-runner.
    Expected<double> timeKernel(const ProfileKernel& kernel, const ProfileOptions& options, int threads)
    {
        MeasureOptions m;
        m.target = options.target;
        m.kernelThreads = threads;
        m.checkCorrectness = false; // fixed kernels, checked by the tests
        m.timing.number = 1;
        m.timing.repeat = 5;
        m.timing.minRepeatMs = 100;
        m.runTimeoutMs = 30000;
        Measurer measurer(m);
        const std::vector<MeasureResult> results = measurer.measure(kernel.dag, { kernel.state });
        if (results.empty() || !results[0].ok())
            return makeError(ErrorKind::Internal,
                "the machine profile's kernel failed: "
                    + (results.empty() ? std::string("no result") : results[0].message));
        // The best repeat: the ceiling is what the machine can do, not what it did on average.
        return *std::min_element(results[0].costs.begin(), results[0].costs.end());
    }
} // namespace

const char* toString(MemoryLevel level)
{
    switch (level) {
    case MemoryLevel::L2:
        return "L2";
    case MemoryLevel::L3:
        return "L3";
    case MemoryLevel::Dram:
        break;
    }
    return "DRAM";
}

double MachineProfile::peak(int threads) const { return at(peakGflops, threads); }
double MachineProfile::bandwidth(int threads) const { return at(triadGBps, threads); }
double MachineProfile::bandwidth(MemoryLevel level, int threads) const
{
    if (level == MemoryLevel::L2 && measures(MemoryLevel::L2))
        return at(l2GBps, threads);
    if (level != MemoryLevel::Dram && measures(MemoryLevel::L3))
        return at(l3GBps, threads);
    return bandwidth(threads);
}

bool MachineProfile::measures(MemoryLevel level) const
{
    switch (level) {
    case MemoryLevel::L2:
        return !l2GBps.empty();
    case MemoryLevel::L3:
        return !l3GBps.empty();
    case MemoryLevel::Dram:
        break;
    }
    return true;
}

MemoryLevel MachineProfile::levelOf(double footprintBytes, int threads) const
{
    if (footprintBytes <= 0)
        return MemoryLevel::Dram;
    // The L2 set was measured with every thread of the profile's last count; fewer threads have fewer L2s.
    const int measured = std::max<int>(1, static_cast<int>(l2GBps.size()));
    const double l2Capacity
        = 2.0 * static_cast<double>(l2SetBytes) * std::clamp(threads, 1, measured) / static_cast<double>(measured);
    if (measures(MemoryLevel::L2) && footprintBytes <= l2Capacity)
        return MemoryLevel::L2;
    if (measures(MemoryLevel::L3) && footprintBytes <= 2.0 * static_cast<double>(l3SetBytes))
        return MemoryLevel::L3;
    return MemoryLevel::Dram;
}

double MachineProfile::roof(double intensity, int threads, MemoryLevel level) const
{
    return std::min(peak(threads), bandwidth(level, threads) * intensity);
}

std::string MachineProfile::toJson() const
{
    nlohmann::json j;
    j["version"] = version;
    j["cpu"] = cpu;
    j["target"] = target;
    j["peak_gflops"] = peakGflops;
    j["triad_gbps"] = triadGBps;
    j["l1d_bytes"] = l1dBytes;
    j["l2_bytes"] = l2Bytes;
    j["l3_bytes"] = l3Bytes;
    j["l2_gbps"] = l2GBps;
    j["l3_gbps"] = l3GBps;
    j["l2_set_bytes"] = l2SetBytes;
    j["l3_set_bytes"] = l3SetBytes;
    j["measured_at"] = measuredAt;
    j["seconds"] = seconds;
    return j.dump();
}

Expected<MachineProfile> MachineProfile::fromJson(const std::string& text)
{
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        MachineProfile p;
        p.version = j.value("version", 1);
        p.cpu = j.at("cpu").get<std::string>();
        p.target = j.value("target", std::string());
        p.peakGflops = j.at("peak_gflops").get<std::vector<double>>();
        p.triadGBps = j.at("triad_gbps").get<std::vector<double>>();
        p.l1dBytes = j.value("l1d_bytes", int64_t(0));
        p.l2Bytes = j.value("l2_bytes", int64_t(0));
        p.l3Bytes = j.value("l3_bytes", int64_t(0));
        p.l2GBps = j.value("l2_gbps", std::vector<double>());
        p.l3GBps = j.value("l3_gbps", std::vector<double>());
        p.l2SetBytes = j.value("l2_set_bytes", int64_t(0));
        p.l3SetBytes = j.value("l3_set_bytes", int64_t(0));
        p.measuredAt = j.value("measured_at", 0.0);
        p.seconds = j.value("seconds", 0.0);
        if (p.peakGflops.empty() || p.triadGBps.empty())
            return makeError(ErrorKind::InvalidArgument, "machine profile without peak or bandwidth figures");
        return p;
    } catch (const std::exception& e) {
        return makeError(ErrorKind::InvalidArgument, std::string("machine profile JSON: ") + e.what());
    }
}

std::string cpuModelName()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0)
            return line.substr(line.find(':') + 2);
    return "unknown CPU";
}

void readCacheSizes(MachineProfile& profile)
{
    for (int index = 0; index < 8; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const std::string level = readLine(dir + "level");
        if (level.empty())
            break;
        const std::string type = readLine(dir + "type");
        const int64_t size = parseCacheSize(readLine(dir + "size"));
        if (level == "1" && type == "Data")
            profile.l1dBytes = size;
        else if (level == "2")
            profile.l2Bytes = size;
        else if (level == "3")
            profile.l3Bytes = size;
    }
}

Expected<ProfileKernel> peakKernel(const target::Target& target, int threads)
{
    using namespace sched;
    // 12 accumulators with 32 vector registers (AVX-512), 6 with 16: two FMA pipes of 4-cycle latency need
    // 8 independent chains; the x row and the accumulators stay in registers, y[t, k] is one broadcast.
    const int64_t lanes = std::max<int64_t>(4, target.vectorBytes / 4);
    const int64_t accumulators = target.vectorBytes >= 64 ? 12 : 6;
    const int64_t width = lanes * accumulators;
    // Long enough (about 0.1 ms a run) that starting the parallel loop costs under 2%: with k = 4096 a run took
    // 7 us and 2 threads measured 78-86% of what the same FMAs reach without the dispatch.
    const int64_t k = 65536;
    ir::Tensor x = ir::placeholder("x", { threads, width });
    ir::Tensor y = ir::placeholder("y", { threads, k });
    ir::setNextAxisNames({ "t", "l" }, { "k" });
    ir::Tensor out = ir::computeReduce(
        "fma", { threads, width }, { k }, ir::Reducer::Sum,
        [&](const std::vector<ir::Expr>& i, const std::vector<ir::Expr>& r) {
            return ir::load(x, { i[0], i[1] }) * ir::load(y, { i[0], r[0] });
        },
        "fma_peak");
    ProfileKernel kernel { ir::ComputeDAG::create({ x, y, out }), {}, 0, 0 };
    State s = State::initial(kernel.dag);
    std::optional<Error> failure;
    applyOrFail(s, CacheWriteStep { 2, "local" }, failure); // x, y, fma.local(2), fma(3)
    applyOrFail(s, SplitStep { 2, 1, width, { lanes }, true }, failure); // t l.0 l.1 k
    applyOrFail(s, ReorderStep { 2, { 0, 3, 1, 2 } }, failure); // t k l.0 l.1
    applyOrFail(s, ComputeAtStep { 2, 3, 0 }, failure);
    applyOrFail(s, AnnotationStep { 3, 0, Annotation::Parallel }, failure);
    applyOrFail(s, AnnotationStep { 3, 1, Annotation::Vectorize }, failure);
    applyOrFail(s, AnnotationStep { 2, 2, Annotation::Unroll }, failure);
    applyOrFail(s, AnnotationStep { 2, 3, Annotation::Vectorize }, failure);
    if (failure)
        return *failure;
    kernel.state = std::move(s);
    kernel.flops = kernel.dag.flopCount();
    kernel.bytes = static_cast<double>(kernel.dag.bytesRead() + kernel.dag.bytesWritten());
    return kernel;
}

Expected<ProfileKernel> triadKernel(int64_t elements)
{
    using namespace sched;
    if (elements < 16 || elements % 16 != 0)
        return makeError(ErrorKind::InvalidArgument, "triad elements must be a positive multiple of 16");
    ir::Tensor b = ir::placeholder("b", { elements });
    ir::Tensor c = ir::placeholder("c", { elements });
    ir::Tensor a = ir::compute("triad", { elements }, [&](const std::vector<ir::Expr>& i) {
        return ir::load(b, { i[0] }) + ir::floatImm(3.0) * ir::load(c, { i[0] });
    });
    ProfileKernel kernel { ir::ComputeDAG::create({ b, c, a }), {}, 0, 0 };
    State s = State::initial(kernel.dag);
    std::optional<Error> failure;
    applyOrFail(s, SplitStep { 2, 0, elements, { 64 }, true }, failure); // i.0 i.1
    applyOrFail(s, AnnotationStep { 2, 0, Annotation::Parallel }, failure);
    applyOrFail(s, AnnotationStep { 2, 1, Annotation::Vectorize }, failure);
    if (failure)
        return *failure;
    kernel.state = std::move(s);
    kernel.flops = 2.0 * static_cast<double>(elements);
    kernel.bytes = 12.0 * static_cast<double>(elements); // STREAM counts b, c read and a written
    return kernel;
}

Expected<ProfileKernel> cacheKernel(int64_t elements, int threads, int64_t passes)
{
    using namespace sched;
    if (threads < 1 || passes < 1 || elements < 64 * threads || elements % (64 * threads) != 0)
        return makeError(
            ErrorKind::InvalidArgument, "cache kernel elements must be a positive multiple of 64 x threads");
    ir::Tensor b = ir::placeholder("b", { elements });
    ir::Tensor c = ir::placeholder("c", { elements });
    ir::setNextAxisNames({ "i" }, { "pass" });
    ir::Tensor a = ir::computeReduce(
        "cache_sweep", { elements }, { passes }, ir::Reducer::Sum,
        [&](const std::vector<ir::Expr>& i, const std::vector<ir::Expr>&) {
            return ir::load(b, { i[0] }) + ir::floatImm(3.0) * ir::load(c, { i[0] });
        },
        "cache_sweep");
    ProfileKernel kernel { ir::ComputeDAG::create({ b, c, a }), {}, 0, 0 };
    State s = State::initial(kernel.dag);
    std::optional<Error> failure;
    applyOrFail(s, SplitStep { 2, 0, elements, { elements / threads / 64, 64 }, true }, failure); // i.0 i.1 i.2 pass
    applyOrFail(s, ReorderStep { 2, { 0, 3, 1, 2 } }, failure); // i.0 pass i.1 i.2: each slice swept in turn
    applyOrFail(s, AnnotationStep { 2, 0, Annotation::Parallel }, failure);
    applyOrFail(s, AnnotationStep { 2, 3, Annotation::Vectorize }, failure);
    if (failure)
        return *failure;
    kernel.state = std::move(s);
    kernel.flops = kernel.dag.flopCount();
    kernel.bytes = 16.0 * static_cast<double>(elements) * static_cast<double>(passes);
    return kernel;
}

Expected<MachineProfile> measureMachine(const ProfileOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    MachineProfile profile;
    profile.cpu = cpuModelName();
    profile.target = target::toString(options.target);
    readCacheSizes(profile);
    int maxThreads = options.maxThreads;
    if (maxThreads <= 0)
        maxThreads = options.target.cores > 0 ? static_cast<int>(options.target.cores)
                                              : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // The cache kernel's resident sets: half of each thread's L2 (its slice), and half the L3 up to 32 MiB when
    // that is at least 4x the L2s together (else the L3 adds nothing to measure).
    const int64_t sliceAlign = 64 * 12; // a slice of whole vectors, 12 bytes an element (a, b, c)
    const int64_t l2Slice = profile.l2Bytes / 2 / sliceAlign * sliceAlign;
    const int64_t l3Set = std::min<int64_t>(profile.l3Bytes / 2, int64_t(32) << 20) / (sliceAlign * maxThreads)
        * (sliceAlign * maxThreads);
    const bool measureL2 = l2Slice > 0;
    const bool measureL3 = profile.l3Bytes > 0 && l3Set >= 4 * maxThreads * profile.l2Bytes;
    const int countsMeasured = maxThreads > 1 ? 2 : 1;
    const int total = maxThreads + countsMeasured * (1 + int(measureL2) + int(measureL3));
    int done = 0;
    auto step = [&]() { return !options.progress || options.progress(++done, total); };
    for (int t = 1; t <= maxThreads; ++t) {
        TS_TRY(ProfileKernel kernel, peakKernel(options.target, t));
        TS_TRY(double seconds, timeKernel(kernel, options, t));
        profile.peakGflops.push_back(kernel.flops / seconds / 1e9);
        if (!step())
            return makeError(ErrorKind::Internal, "machine profile cancelled");
    }
    std::vector<int> bandwidthThreads { 1 };
    if (maxThreads > 1)
        bandwidthThreads.push_back(maxThreads);
    // Thread counts between 1 and the maximum are not measured: the ceiling grows to the last figure.
    auto record = [](std::vector<double>& figures, int threads, double gbps) {
        while (static_cast<int>(figures.size()) < threads - 1)
            figures.push_back(figures.empty() ? gbps : figures.back());
        figures.push_back(gbps);
    };
    TS_TRY(ProfileKernel triad, triadKernel(options.triadElements));
    for (int t : bandwidthThreads) {
        TS_TRY(double seconds, timeKernel(triad, options, t));
        record(profile.triadGBps, t, triad.bytes / seconds / 1e9);
        if (!step())
            return makeError(ErrorKind::Internal, "machine profile cancelled");
    }
    // A cache level: `setBytes` resident over all `t` threads, swept until each thread has streamed 64 MiB.
    auto cacheLevel = [&](std::vector<double>& figures, int t, int64_t setBytes) -> Expected<void> {
        const int64_t elements = setBytes / 12;
        const int64_t passes = std::max<int64_t>(1, (int64_t(64) << 20) * t / (16 * elements));
        TS_TRY(ProfileKernel kernel, cacheKernel(elements, t, passes));
        TS_TRY(double seconds, timeKernel(kernel, options, t));
        record(figures, t, kernel.bytes / seconds / 1e9);
        if (!step())
            return makeError(ErrorKind::Internal, "machine profile cancelled");
        return {};
    };
    for (int t : bandwidthThreads) {
        if (measureL2)
            TS_CHECK(cacheLevel(profile.l2GBps, t, l2Slice * t));
        if (measureL3)
            TS_CHECK(cacheLevel(profile.l3GBps, t, l3Set));
    }
    if (measureL2)
        profile.l2SetBytes = l2Slice * maxThreads;
    if (measureL3)
        profile.l3SetBytes = l3Set;
    profile.measuredAt = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    profile.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return profile;
}

RooflinePoint rooflineAt(
    const MachineProfile& profile, double gflops, double intensity, int threads, double footprintBytes)
{
    RooflinePoint p;
    p.gflops = gflops;
    p.intensity = intensity;
    p.gbps = intensity > 0 ? gflops / intensity : 0;
    p.level = profile.levelOf(footprintBytes, threads);
    p.bandwidth = profile.bandwidth(p.level, threads);
    p.roof = intensity > 0 ? profile.roof(intensity, threads, p.level) : profile.peak(threads);
    p.ofPeak = profile.peak(threads) > 0 ? gflops / profile.peak(threads) : 0;
    p.ofRoof = p.roof > 0 ? gflops / p.roof : 0;
    p.memoryBound = intensity > 0 && p.bandwidth * intensity < profile.peak(threads);
    return p;
}

RooflinePoint rooflinePoint(const MachineProfile& profile, double flops, double bytes, double seconds, int threads)
{
    if (seconds <= 0 || flops <= 0)
        return {};
    return rooflineAt(profile, flops / seconds / 1e9, bytes > 0 ? flops / bytes : 0, threads, bytes);
}

} // namespace ts::measure
