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

double MachineProfile::peak(int threads) const { return at(peakGflops, threads); }
double MachineProfile::bandwidth(int threads) const { return at(triadGBps, threads); }
double MachineProfile::roof(double intensity, int threads) const
{
    return std::min(peak(threads), bandwidth(threads) * intensity);
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
    const int total = maxThreads + (maxThreads > 1 ? 2 : 1);
    int done = 0;
    auto step = [&]() { return !options.progress || options.progress(++done, total); };
    for (int t = 1; t <= maxThreads; ++t) {
        TS_TRY(ProfileKernel kernel, peakKernel(options.target, t));
        TS_TRY(double seconds, timeKernel(kernel, options, t));
        profile.peakGflops.push_back(kernel.flops / seconds / 1e9);
        if (!step())
            return makeError(ErrorKind::Internal, "machine profile cancelled");
    }
    TS_TRY(ProfileKernel triad, triadKernel(options.triadElements));
    std::vector<int> triadThreads { 1 };
    if (maxThreads > 1)
        triadThreads.push_back(maxThreads);
    for (int t : triadThreads) {
        TS_TRY(double seconds, timeKernel(triad, options, t));
        const double gbps = triad.bytes / seconds / 1e9;
        // Thread counts between 1 and the maximum are not measured: the ceiling grows to the last figure.
        while (static_cast<int>(profile.triadGBps.size()) < t - 1)
            profile.triadGBps.push_back(profile.triadGBps.empty() ? gbps : profile.triadGBps.back());
        profile.triadGBps.push_back(gbps);
        if (!step())
            return makeError(ErrorKind::Internal, "machine profile cancelled");
    }
    profile.measuredAt = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    profile.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return profile;
}

RooflinePoint rooflineAt(const MachineProfile& profile, double gflops, double intensity, int threads)
{
    RooflinePoint p;
    p.gflops = gflops;
    p.intensity = intensity;
    p.gbps = intensity > 0 ? gflops / intensity : 0;
    p.roof = intensity > 0 ? profile.roof(intensity, threads) : profile.peak(threads);
    p.ofPeak = profile.peak(threads) > 0 ? gflops / profile.peak(threads) : 0;
    p.ofRoof = p.roof > 0 ? gflops / p.roof : 0;
    p.memoryBound = intensity > 0 && profile.bandwidth(threads) * intensity < profile.peak(threads);
    return p;
}

RooflinePoint rooflinePoint(const MachineProfile& profile, double flops, double bytes, double seconds, int threads)
{
    if (seconds <= 0 || flops <= 0)
        return {};
    return rooflineAt(profile, flops / seconds / 1e9, bytes > 0 ? flops / bytes : 0, threads);
}

} // namespace ts::measure
