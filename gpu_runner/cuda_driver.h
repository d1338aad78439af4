// The CUDA driver API, opened at run time (dlopen of libcuda.so.1): the runner starts, reads and checks
// bundles on a machine without a GPU, and says so per bundle instead of failing to load. Types and
// prototypes come from the toolkit's cuda.h; each entry point is looked up under the versioned name cuda.h
// maps it to (cuMemAlloc -> cuMemAlloc_v2), then under its plain name, for older drivers.
#pragma once

#include "core/support/error.h"

#include <cuda.h>

namespace ts::gpurunner {

struct CudaDriver {
    decltype(&::cuInit) init = nullptr;
    decltype(&::cuGetErrorString) getErrorString = nullptr;
    decltype(&::cuDeviceGetCount) deviceGetCount = nullptr;
    decltype(&::cuDeviceGet) deviceGet = nullptr;
    decltype(&::cuDeviceGetName) deviceGetName = nullptr;
    decltype(&::cuDeviceGetAttribute) deviceGetAttribute = nullptr;
    decltype(&::cuDevicePrimaryCtxRetain) primaryCtxRetain = nullptr;
    decltype(&::cuCtxSetCurrent) ctxSetCurrent = nullptr;
    decltype(&::cuCtxSynchronize) ctxSynchronize = nullptr;
    decltype(&::cuModuleLoadDataEx) moduleLoadDataEx = nullptr;
    decltype(&::cuModuleGetFunction) moduleGetFunction = nullptr;
    decltype(&::cuModuleUnload) moduleUnload = nullptr;
    decltype(&::cuMemAlloc) memAlloc = nullptr;
    decltype(&::cuMemFree) memFree = nullptr;
    decltype(&::cuMemcpyHtoD) memcpyHtoD = nullptr;
    decltype(&::cuMemcpyDtoH) memcpyDtoH = nullptr;
    decltype(&::cuMemsetD32) memsetD32 = nullptr;
    decltype(&::cuLaunchKernel) launchKernel = nullptr;
    decltype(&::cuEventCreate) eventCreate = nullptr;
    decltype(&::cuEventRecord) eventRecord = nullptr;
    decltype(&::cuEventSynchronize) eventSynchronize = nullptr;
    decltype(&::cuEventElapsedTime) eventElapsedTime = nullptr;
    decltype(&::cuEventDestroy) eventDestroy = nullptr;

    // "cuLaunchKernel: an illegal memory access was encountered"
    std::string message(const char* call, CUresult r) const;
};

// The driver, opened and initialized once; Unsupported when this machine has none (no libcuda.so.1, or
// cuInit fails: no GPU, or a driver older than the runner needs).
Expected<const CudaDriver*> cudaDriver();

} // namespace ts::gpurunner
