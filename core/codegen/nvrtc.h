// NVRTC, loaded at run time: CUDA C -> PTX for a GPU architecture.
//
// The library is opened with dlopen on first use (libnvrtc.so.13, .12, .11.2, libnvrtc.so, or the path in
// TS_NVRTC_LIBRARY; TS_NVRTC_LIBRARY=none acts as a machine without it), never linked: a TuneScope built on a machine
// with the CUDA toolkit still starts on one without it, and the package depends on no CUDA package. Without it,
// compiling is an Unsupported error that says what was looked for; tests that need it skip.
#pragma once

#include "core/support/error.h"

#include <string>

namespace ts::codegen {

// Whether NVRTC could be opened, and its version ("13.0"), or why not.
Expected<std::string> nvrtcVersion();

struct PtxResult {
    std::string ptx; // without the terminating NUL
    std::string log; // NVRTC's warnings
};

// Compiles `source` (self-contained CUDA C, no #include) to PTX for `arch` ("sm_90" -> compute_90; empty:
// compute_75, which every GPU CUDA 13 supports runs through the driver's JIT). A compile error is
// ErrorKind::InvalidArgument with NVRTC's log (a measurement records it as status 3, compile device).
Expected<PtxResult> compileToPtx(const std::string& source, const std::string& arch, const std::string& name);

// The same source compiled to a cubin (ELF, in PtxResult::ptx) for the real architecture `arch` ("sm_90"):
// the driver loads it without a JIT step. Unsupported where NVRTC is older than CUDA 11.1 or `arch` is not sm_XX.
// NVRTC compiles programs on several threads at once (the runner compiles a file of bundles that way).
Expected<PtxResult> compileToCubin(const std::string& source, const std::string& arch, const std::string& name);

} // namespace ts::codegen
