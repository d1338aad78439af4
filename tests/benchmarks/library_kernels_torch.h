// LibTorch's side of library_kernels.h, for the benchmarks that include LibTorch (header only, so that no other
// translation unit pays for its headers): which backends run LibTorch's matmul and conv2d in this process, and on how
// many threads. Debian's LibTorch 1.13 is built against the generic BLAS interface (BLAS_INFO=generic) and runs fp32
// mm, linear and bmm through whatever libblas.so.3 resolves to at run time: on Debian with OpenBLAS installed, the
// same OpenBLAS as the cblas figures (hence the same kernel choice); conv2d runs through oneDNN (MKLDNN) where it is
// built and enabled, else through im2col and that BLAS.
#pragma once

#include "library_kernels.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

namespace ts::bench {

// The file that provides the Fortran sgemm_ LibTorch calls (the process's global binding), real path.
inline std::string blasLibraryFile()
{
    Dl_info info {};
    void* symbol = dlsym(RTLD_DEFAULT, "sgemm_");
    if (!symbol || !dladdr(symbol, &info) || !info.dli_fname)
        return "(no sgemm_ in the process)";
    char resolved[PATH_MAX];
    return realpath(info.dli_fname, resolved) ? std::string(resolved) : std::string(info.dli_fname);
}

// One line: LibTorch's BLAS (and OpenBLAS's kernel), oneDNN built and enabled, ATen's own vector code, threads.
inline std::string libTorchBackends()
{
    const std::string config = at::show_config();
    auto setting = [&](const std::string& key, const char* stops) {
        const size_t found = config.find(key);
        if (found == std::string::npos)
            return std::string("?");
        const size_t begin = found + key.size();
        return config.substr(begin, config.find_first_of(stops, begin) - begin);
    };
    const std::string blas = setting("BLAS_INFO=", ",\n");
    const std::string capability = setting("CPU capability usage: ", "\n");
    const std::string file = blasLibraryFile();
    const bool openBlas = file.find("openblas") != std::string::npos;
    return "fp32 matmul/linear/bmm through BLAS_INFO=" + blas + ", sgemm_ from " + file
        + (openBlas ? " (OpenBLAS, kernel " + openBlasCoreName() + ")" : "")
        + "; conv2d through oneDNN (MKLDNN): built " + (at::hasMKLDNN() ? "yes" : "no") + ", enabled "
        + (at::globalContext().userEnabledMkldnn() ? "yes" : "no") + "; ATen vector code " + capability
        + "; intra-op threads by default " + std::to_string(at::get_num_threads())
        + " (at::get_num_threads(); each figure sets its own)";
}

// selectOpenBlasKernel, then LibTorch's line: the first call in main() of a benchmark with LibTorch figures.
inline void selectLibraryKernels(char** argv)
{
    selectOpenBlasKernel(argv);
    std::printf("LibTorch: %s\n", libTorchBackends().c_str());
    std::fflush(stdout);
}

} // namespace ts::bench
