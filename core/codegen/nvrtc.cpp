#include "core/codegen/nvrtc.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace ts::codegen {

namespace {
    // NVRTC's C API, declared here so the build needs no CUDA header (nvrtc.h; the ABI is stable).
    using nvrtcResult = int;
    using nvrtcProgram = struct NvrtcProgramImpl*;
    constexpr nvrtcResult kNvrtcSuccess = 0;

    struct Nvrtc {
        void* handle = nullptr;
        std::string error;
        const char* (*getErrorString)(nvrtcResult) = nullptr;
        nvrtcResult (*version)(int*, int*) = nullptr;
        nvrtcResult (*createProgram)(
            nvrtcProgram*, const char*, const char*, int, const char* const*, const char* const*)
            = nullptr;
        nvrtcResult (*compileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
        nvrtcResult (*getPtxSize)(nvrtcProgram, size_t*) = nullptr;
        nvrtcResult (*getPtx)(nvrtcProgram, char*) = nullptr;
        nvrtcResult (*getCubinSize)(nvrtcProgram, size_t*) = nullptr; // CUDA 11.1 on; null before
        nvrtcResult (*getCubin)(nvrtcProgram, char*) = nullptr;
        nvrtcResult (*getProgramLogSize)(nvrtcProgram, size_t*) = nullptr;
        nvrtcResult (*getProgramLog)(nvrtcProgram, char*) = nullptr;
        nvrtcResult (*destroyProgram)(nvrtcProgram*) = nullptr;
    };

    template <typename F> bool bind(void* handle, const char* symbol, F& f)
    {
        f = reinterpret_cast<F>(dlsym(handle, symbol));
        return f != nullptr;
    }

    const Nvrtc& nvrtc()
    {
        static const Nvrtc lib = [] {
            Nvrtc n;
            std::vector<std::string> names;
            const char* path = std::getenv("TS_NVRTC_LIBRARY");
            if (path && std::string(path) == "none") {
                n.error = "NVRTC is switched off (TS_NVRTC_LIBRARY=none): CUDA code cannot be compiled";
                return n;
            }
            if (path && *path)
                names.emplace_back(path);
            for (const char* name : { "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so",
                     "/usr/local/cuda/lib64/libnvrtc.so" })
                names.emplace_back(name);
            std::string tried;
            for (const std::string& name : names) {
                n.handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
                if (n.handle)
                    break;
                tried += (tried.empty() ? "" : ", ") + name;
            }
            if (!n.handle) {
                n.error = "NVRTC is not installed (looked for " + tried
                    + "; set TS_NVRTC_LIBRARY to its path): CUDA code cannot be compiled on this machine";
                return n;
            }
            const bool ok = bind(n.handle, "nvrtcGetErrorString", n.getErrorString)
                && bind(n.handle, "nvrtcVersion", n.version) && bind(n.handle, "nvrtcCreateProgram", n.createProgram)
                && bind(n.handle, "nvrtcCompileProgram", n.compileProgram)
                && bind(n.handle, "nvrtcGetPTXSize", n.getPtxSize) && bind(n.handle, "nvrtcGetPTX", n.getPtx)
                && bind(n.handle, "nvrtcGetProgramLogSize", n.getProgramLogSize)
                && bind(n.handle, "nvrtcGetProgramLog", n.getProgramLog)
                && bind(n.handle, "nvrtcDestroyProgram", n.destroyProgram);
            if (!ok) {
                n.error = "the NVRTC library found lacks a function TuneScope calls (too old?)";
                n.handle = nullptr;
            } else if (!bind(n.handle, "nvrtcGetCUBINSize", n.getCubinSize)
                || !bind(n.handle, "nvrtcGetCUBIN", n.getCubin)) {
                n.getCubinSize = nullptr;
                n.getCubin = nullptr;
            }
            return n;
        }();
        return lib;
    }

    std::string computeArch(const std::string& arch)
    {
        if (arch.rfind("sm_", 0) == 0)
            return "compute_" + arch.substr(3);
        if (arch.rfind("compute_", 0) == 0)
            return arch;
        return "compute_75";
    }
} // namespace

Expected<std::string> nvrtcVersion()
{
    const Nvrtc& n = nvrtc();
    if (!n.handle)
        return makeError(ErrorKind::Unsupported, n.error);
    int major = 0, minor = 0;
    n.version(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
}

namespace {
    enum class Output { Ptx, Cubin };

    Expected<PtxResult> compile(
        const std::string& source, const std::string& arch, const std::string& name, Output output)
    {
        const Nvrtc& n = nvrtc();
        if (!n.handle)
            return makeError(ErrorKind::Unsupported, n.error);
        if (output == Output::Cubin && (!n.getCubin || arch.rfind("sm_", 0) != 0))
            return makeError(ErrorKind::Unsupported,
                n.getCubin ? "a cubin needs a real architecture (sm_XX), not '" + arch + "'"
                           : std::string("this NVRTC cannot write cubins (older than CUDA 11.1)"));
        nvrtcProgram program = nullptr;
        if (nvrtcResult r = n.createProgram(&program, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr);
            r != kNvrtcSuccess)
            return makeError(ErrorKind::Internal, std::string("nvrtcCreateProgram: ") + n.getErrorString(r));
        struct Destroy {
            const Nvrtc& n;
            nvrtcProgram& p;
            ~Destroy() { n.destroyProgram(&p); }
        } destroy { n, program };
        // PTX for the virtual architecture (the driver's JIT finishes it); a cubin for the real one.
        const std::string archOption = "--gpu-architecture=" + (output == Output::Cubin ? arch : computeArch(arch));
        const char* options[] = { archOption.c_str(), "--std=c++17", "-default-device" };
        const nvrtcResult compiled = n.compileProgram(program, 3, options);
        size_t logSize = 0;
        std::string log;
        if (n.getProgramLogSize(program, &logSize) == kNvrtcSuccess && logSize > 1) {
            log.resize(logSize);
            n.getProgramLog(program, log.data());
            log.resize(logSize - 1);
        }
        if (compiled != kNvrtcSuccess)
            return makeError(ErrorKind::InvalidArgument,
                std::string("NVRTC could not compile ") + name + " (" + n.getErrorString(compiled) + "):\n" + log);
        size_t size = 0;
        PtxResult out;
        if (output == Output::Cubin) {
            n.getCubinSize(program, &size);
            out.ptx.resize(size);
            n.getCubin(program, out.ptx.data());
        } else {
            n.getPtxSize(program, &size);
            out.ptx.resize(size);
            n.getPtx(program, out.ptx.data());
            while (!out.ptx.empty() && out.ptx.back() == '\0') // the size counts the NUL (ptxas rejects it)
                out.ptx.pop_back();
        }
        out.log = std::move(log);
        return out;
    }
} // namespace

Expected<PtxResult> compileToPtx(const std::string& source, const std::string& arch, const std::string& name)
{
    return compile(source, arch, name, Output::Ptx);
}

Expected<PtxResult> compileToCubin(const std::string& source, const std::string& arch, const std::string& name)
{
    return compile(source, arch, name, Output::Cubin);
}

} // namespace ts::codegen
