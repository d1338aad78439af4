#include "gpu_runner/run_bundle.h"

#include "gpu_runner/cuda_driver.h"

#include "core/codegen/nvrtc.h"
#include "core/support/rng.h"
#include "core/support/strings.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace ts::gpurunner {

namespace {
    struct Device {
        CUdevice device = 0;
        CUcontext context = nullptr;
        std::string name;
        int major = 0, minor = 0, sms = 0, l2Bytes = 0, sharedPerBlock = 0, maxThreads = 0, warp = 0;
    };

    Expected<const Device*> device()
    {
        static const Expected<Device> dev = []() -> Expected<Device> {
            TS_TRY(const CudaDriver* d, cudaDriver());
            Device out;
            if (CUresult r = d->deviceGet(&out.device, 0); r != CUDA_SUCCESS)
                return makeError(ErrorKind::Unsupported, d->message("cuDeviceGet", r));
            char name[256] = {};
            d->deviceGetName(name, sizeof name, out.device);
            out.name = name;
            d->deviceGetAttribute(&out.major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, out.device);
            d->deviceGetAttribute(&out.minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, out.device);
            d->deviceGetAttribute(&out.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, out.device);
            d->deviceGetAttribute(&out.l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, out.device);
            d->deviceGetAttribute(&out.sharedPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, out.device);
            d->deviceGetAttribute(&out.maxThreads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, out.device);
            d->deviceGetAttribute(&out.warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, out.device);
            if (CUresult r = d->primaryCtxRetain(&out.context, out.device); r != CUDA_SUCCESS)
                return makeError(ErrorKind::Unsupported, d->message("cuDevicePrimaryCtxRetain", r));
            if (CUresult r = d->ctxSetCurrent(out.context); r != CUDA_SUCCESS)
                return makeError(ErrorKind::Unsupported, d->message("cuCtxSetCurrent", r));
            return out;
        }();
        if (!dev)
            return dev.error();
        return &dev.value();
    }

    std::string archOf(const Device& dev) { return "sm_" + std::to_string(dev.major) + std::to_string(dev.minor); }

    // Device memory freed with the run, whatever happens.
    struct Buffers {
        const CudaDriver* d = nullptr;
        std::vector<CUdeviceptr> ptrs;
        ~Buffers()
        {
            for (CUdeviceptr p : ptrs)
                if (p)
                    d->memFree(p);
        }
    };

    struct Events {
        const CudaDriver* d = nullptr;
        CUevent start = nullptr, stop = nullptr;
        ~Events()
        {
            if (start)
                d->eventDestroy(start);
            if (stop)
                d->eventDestroy(stop);
        }
    };
} // namespace

Expected<std::string> deviceArch()
{
    TS_TRY(const Device* dev, device());
    return archOf(*dev);
}

Expected<std::string> deviceInfoJson()
{
    TS_TRY(const Device* dev, device());
    return "{\"name\": " + jsonQuoted(dev->name) + ", \"arch\": " + jsonQuoted(archOf(*dev))
        + ", \"multiprocessors\": " + std::to_string(dev->sms) + ", \"l2_bytes\": " + std::to_string(dev->l2Bytes)
        + ", \"max_shared_memory_per_block\": " + std::to_string(dev->sharedPerBlock) + ", \"max_threads_per_block\": "
        + std::to_string(dev->maxThreads) + ", \"warp_size\": " + std::to_string(dev->warp) + "}";
}

Outcome runBundle(const Bundle& b)
{
    const auto began = std::chrono::steady_clock::now();
    Outcome out;
    RunResult& r = out.result;
    r.id = b.id;
    r.record = b.record;
    auto finish = [&](RunError error, std::string message, bool lost = false) {
        r.error = error;
        r.message = std::move(message);
        out.contextLost = lost;
        r.allCost = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        return out;
    };
    if (!b.compileError.empty()) // compiled ahead (main.cpp): the code's own error, whatever the machine
        return finish(RunError::CompileDevice, b.compileError);
    auto dev = device();
    if (!dev)
        return finish(RunError::RuntimeDevice, dev.error().message);
    const CudaDriver* d = cudaDriver().value();
    r.device = (*dev)->name + " (" + archOf(**dev) + ")";

    // Code: a cubin compiled ahead for this GPU; else PTX through the driver's JIT; else (or where the driver
    // is older than the NVRTC that wrote the PTX) CUDA C through NVRTC for this very GPU.
    CUmodule module = nullptr;
    std::string loadError;
    auto load = [&](const std::string& image, const char* what) {
        const CUresult e = d->moduleLoadDataEx(&module, image.c_str(), 0, nullptr, nullptr);
        if (e != CUDA_SUCCESS)
            loadError = d->message("cuModuleLoadDataEx", e) + " (" + what + ")";
        return e == CUDA_SUCCESS;
    };
    bool loaded = !b.cubin.empty() && load(b.cubin, "the cubin compiled ahead");
    if (!loaded && !b.ptx.empty())
        loaded = load(b.ptx, "the bundle's PTX");
    if (!loaded && !b.source.empty()) {
        auto compiled = codegen::compileToPtx(b.source, archOf(**dev), b.id.empty() ? "bundle" : b.id);
        if (!compiled)
            return finish(RunError::CompileDevice, compiled.error().message);
        loaded = load(compiled->ptx, "PTX compiled here");
    }
    if (!loaded)
        return finish(RunError::CompileDevice, loadError.empty() ? "the bundle has no code" : loadError);
    struct Unload {
        const CudaDriver* d;
        CUmodule m;
        ~Unload() { d->moduleUnload(m); }
    } unload { d, module };
    std::vector<CUfunction> functions;
    for (const BundleKernel& k : b.kernels) {
        CUfunction f = nullptr;
        if (CUresult e = d->moduleGetFunction(&f, module, k.name.c_str()); e != CUDA_SUCCESS)
            return finish(RunError::CompileDevice, d->message("cuModuleGetFunction", e) + " (" + k.name + ")");
        functions.push_back(f);
    }

    // Buffers: inputs from the seed (as the host's reference), the rest NaN so an unwritten element fails.
    Buffers buffers { d, {} };
    int ordinal = 0;
    for (const BundleBuffer& buffer : b.buffers) {
        CUdeviceptr p = 0;
        const size_t bytes = static_cast<size_t>(buffer.elements) * sizeof(float);
        if (CUresult e = d->memAlloc(&p, bytes); e != CUDA_SUCCESS)
            return finish(RunError::RuntimeDevice, d->message("cuMemAlloc", e) + " (" + buffer.name + ")");
        buffers.ptrs.push_back(p);
        if (buffer.role == "input") {
            std::vector<float> host(static_cast<size_t>(buffer.elements));
            fillRandomInputValues(host.data(), buffer.elements, b.seed, ordinal++);
            d->memcpyHtoD(p, host.data(), bytes);
        } else {
            d->memsetD32(p, 0x7fc00000u, static_cast<size_t>(buffer.elements));
        }
    }
    std::vector<void*> params;
    for (CUdeviceptr& p : buffers.ptrs)
        params.push_back(&p);
    auto launchAll = [&]() -> CUresult {
        for (size_t k = 0; k < functions.size(); ++k) {
            const BundleKernel& kernel = b.kernels[k];
            if (CUresult e = d->launchKernel(functions[k], kernel.grid[0], kernel.grid[1], kernel.grid[2],
                    kernel.block[0], kernel.block[1], kernel.block[2], 0, nullptr, params.data(), nullptr);
                e != CUDA_SUCCESS)
                return e;
        }
        return CUDA_SUCCESS;
    };

    // One run, then the check.
    if (CUresult e = launchAll(); e != CUDA_SUCCESS)
        return finish(RunError::RuntimeDevice, d->message("cuLaunchKernel", e));
    if (CUresult e = d->ctxSynchronize(); e != CUDA_SUCCESS)
        return finish(RunError::RuntimeDevice, d->message("running the kernels", e), true);
    for (const ExpectedValues& expected : b.expected) {
        const BundleBuffer& buffer = b.buffers[static_cast<size_t>(expected.buffer)];
        std::vector<float> host(static_cast<size_t>(buffer.elements));
        d->memcpyDtoH(host.data(), buffers.ptrs[static_cast<size_t>(expected.buffer)], host.size() * sizeof(float));
        for (size_t i = 0; i < expected.offsets.size(); ++i) {
            const float got = host[static_cast<size_t>(expected.offsets[i])];
            const float want = expected.values[i];
            if (std::isnan(got) || std::fabs(got - want) > b.atol + b.rtol * std::fabs(want))
                return finish(RunError::WrongAnswer,
                    buffer.name + "[" + std::to_string(expected.offsets[i]) + "] = " + std::to_string(got)
                        + ", expected " + std::to_string(want));
        }
    }

    // Timing.
    Events events { d };
    d->eventCreate(&events.start, CU_EVENT_DEFAULT);
    d->eventCreate(&events.stop, CU_EVENT_DEFAULT);
    CUdeviceptr flush = 0;
    if (b.timing.flushL2 && (*dev)->l2Bytes > 0) {
        if (d->memAlloc(&flush, static_cast<size_t>((*dev)->l2Bytes)) == CUDA_SUCCESS)
            buffers.ptrs.push_back(flush);
        else
            flush = 0;
    }
    // Seconds per run over `number` runs.
    auto measure = [&](int number, double* seconds) -> CUresult {
        double total = 0.0;
        const int batches = flush ? number : 1;
        const int perBatch = flush ? 1 : number;
        for (int batch = 0; batch < batches; ++batch) {
            if (flush)
                d->memsetD32(flush, static_cast<unsigned>(batch), static_cast<size_t>((*dev)->l2Bytes) / 4);
            d->eventRecord(events.start, nullptr);
            for (int i = 0; i < perBatch; ++i)
                if (CUresult e = launchAll(); e != CUDA_SUCCESS)
                    return e;
            d->eventRecord(events.stop, nullptr);
            if (CUresult e = d->eventSynchronize(events.stop); e != CUDA_SUCCESS)
                return e;
            float ms = 0.0f;
            d->eventElapsedTime(&ms, events.start, events.stop);
            total += ms * 1e-3;
        }
        *seconds = total / number;
        return CUDA_SUCCESS;
    };
    double warm = 0.0;
    for (int i = 0; i < b.timing.warmup; ++i)
        if (CUresult e = measure(1, &warm); e != CUDA_SUCCESS)
            return finish(RunError::RuntimeDevice, d->message("warm-up", e), true);
    // As the CPU's timing (TimingOptions::shrinkSlow): a kernel whose warm-up run alone lasts min_repeat_ms
    // is timed once per repeat. A search's slow candidates (seconds each) then cost a few runs, not number x.
    const bool slow = b.timing.warmup > 0 && b.timing.minRepeatMs > 0 && warm * 1e3 >= b.timing.minRepeatMs;
    for (int rep = 0; rep < b.timing.repeat; ++rep) {
        int number = slow ? 1 : b.timing.number;
        double seconds = 0.0;
        while (true) {
            if (CUresult e = measure(number, &seconds); e != CUDA_SUCCESS)
                return finish(RunError::RuntimeDevice, d->message("timing", e), true);
            if (seconds * number * 1e3 >= b.timing.minRepeatMs || number >= 1000000)
                break;
            // As TVM: aim past min_repeat_ms with a margin, at least doubling.
            const double wanted = b.timing.minRepeatMs * 1.618 / std::max(seconds * 1e3, 1e-6);
            number = static_cast<int>(std::min(1e6, std::max(wanted, number * 2.0)));
        }
        r.costs.push_back(seconds);
    }
    return finish(RunError::None, "");
}

} // namespace ts::gpurunner
