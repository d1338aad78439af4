#include "gpu_runner/cuda_driver.h"

#include <dlfcn.h>
#include <initializer_list>

#define TS_CU_NAME_(x) #x
#define TS_CU_NAME(x) TS_CU_NAME_(x) // the name after cuda.h's macros: "cuMemAlloc_v2"

namespace ts::gpurunner {

namespace {
    template <typename F> bool bind(void* handle, F& f, std::initializer_list<const char*> names)
    {
        for (const char* name : names) {
            f = reinterpret_cast<F>(dlsym(handle, name));
            if (f)
                return true;
        }
        return false;
    }

    Expected<CudaDriver> open()
    {
        void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!handle)
            return makeError(ErrorKind::Unsupported, "no CUDA driver on this machine (libcuda.so.1 not found)");
        CudaDriver d;
        std::string missing;
#define TS_BIND(field, fn)                                                                                             \
    if (!bind(handle, d.field, { TS_CU_NAME(fn), #fn }))                                                               \
        missing += std::string(missing.empty() ? "" : ", ") + #fn;
        TS_BIND(init, cuInit)
        TS_BIND(getErrorString, cuGetErrorString)
        TS_BIND(deviceGetCount, cuDeviceGetCount)
        TS_BIND(deviceGet, cuDeviceGet)
        TS_BIND(deviceGetName, cuDeviceGetName)
        TS_BIND(deviceGetAttribute, cuDeviceGetAttribute)
        TS_BIND(primaryCtxRetain, cuDevicePrimaryCtxRetain)
        TS_BIND(ctxSetCurrent, cuCtxSetCurrent)
        TS_BIND(ctxSynchronize, cuCtxSynchronize)
        TS_BIND(moduleLoadDataEx, cuModuleLoadDataEx)
        TS_BIND(moduleGetFunction, cuModuleGetFunction)
        TS_BIND(moduleUnload, cuModuleUnload)
        TS_BIND(memAlloc, cuMemAlloc)
        TS_BIND(memFree, cuMemFree)
        TS_BIND(memcpyHtoD, cuMemcpyHtoD)
        TS_BIND(memcpyDtoH, cuMemcpyDtoH)
        TS_BIND(memsetD32, cuMemsetD32)
        TS_BIND(launchKernel, cuLaunchKernel)
        TS_BIND(eventCreate, cuEventCreate)
        TS_BIND(eventRecord, cuEventRecord)
        TS_BIND(eventSynchronize, cuEventSynchronize)
        TS_BIND(eventElapsedTime, cuEventElapsedTime)
        TS_BIND(eventDestroy, cuEventDestroy)
#undef TS_BIND
        if (!missing.empty())
            return makeError(ErrorKind::Unsupported, "the CUDA driver lacks " + missing + " (too old?)");
        if (CUresult r = d.init(0); r != CUDA_SUCCESS)
            return makeError(ErrorKind::Unsupported, d.message("cuInit", r) + " (is there a GPU?)");
        int count = 0;
        if (CUresult r = d.deviceGetCount(&count); r != CUDA_SUCCESS || count == 0)
            return makeError(ErrorKind::Unsupported, "the CUDA driver sees no GPU");
        return d;
    }
} // namespace

std::string CudaDriver::message(const char* call, CUresult r) const
{
    const char* text = nullptr;
    if (getErrorString)
        getErrorString(r, &text);
    return std::string(call) + ": " + (text ? text : "CUDA error " + std::to_string(static_cast<int>(r)));
}

Expected<const CudaDriver*> cudaDriver()
{
    static const Expected<CudaDriver> driver = open();
    if (!driver)
        return driver.error();
    return &driver.value();
}

} // namespace ts::gpurunner
