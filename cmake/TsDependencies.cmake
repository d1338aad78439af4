# Every third-party dependency of the product is found here, once, and reported by feature_summary.
# Each is linked PRIVATE by the one module that wraps it (see DESIGN.md); this file only makes targets.

# --- Qt 6.4: the GUI, item models, worker threads, the Qt SQL driver for GUI reads, SVG export, QtTest.
find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets PrintSupport Concurrent Sql Svg Test LinguistTools)
set_package_properties(Qt6 PROPERTIES TYPE REQUIRED PURPOSE "GUI, item models, worker threads")

# --- QCustomPlot 2.1, Qt 6 build. Its config does not find Qt6 itself, so it comes after Qt6.
find_package(QCustomPlotQt6 REQUIRED CONFIG)
set_package_properties(QCustomPlotQt6 PROPERTIES TYPE REQUIRED PURPOSE "tuning curves and model comparison plots")

# --- LibTorch 1.13 (CPU). Its imported targets have no namespace; we wrap them in ts::torch.
find_package(Torch REQUIRED CONFIG)
set_package_properties(Torch PROPERTIES TYPE REQUIRED PURPOSE "learned cost models (MLP, LSTM, TLP, ATFormer, GTuner)")
add_library(ts_torch INTERFACE)
add_library(ts::torch ALIAS ts_torch)
target_link_libraries(ts_torch INTERFACE ${TORCH_LIBRARIES})

# --- XGBoost 1.7 C API. Debian's xgboost-config.cmake fails unless the CLI package is installed,
#     so the imported target is made by hand.
find_path(XGBOOST_INCLUDE_DIR xgboost/c_api.h REQUIRED)
find_library(XGBOOST_LIBRARY xgboost REQUIRED)
add_library(xgboost::xgboost SHARED IMPORTED)
set_target_properties(xgboost::xgboost PROPERTIES IMPORTED_LOCATION "${XGBOOST_LIBRARY}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${XGBOOST_INCLUDE_DIR}")
add_feature_info(XGBoost XGBOOST_LIBRARY "gradient-boosted cost model (Ansor's default), ${XGBOOST_LIBRARY}")

# --- LLVM 15 (the dylib, whose symbols are versioned next to Mesa's copy).
set(TS_LLVM_MAJOR 15 CACHE STRING "LLVM major version")
find_package(LLVM ${TS_LLVM_MAJOR} REQUIRED CONFIG HINTS /usr/lib/llvm-${TS_LLVM_MAJOR}/lib/cmake/llvm)
set_package_properties(LLVM PROPERTIES TYPE REQUIRED PURPOSE "JIT code generation for the host CPU")
separate_arguments(TS_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_library(ts_llvm INTERFACE)
add_library(ts::llvm ALIAS ts_llvm)
target_link_libraries(ts_llvm INTERFACE LLVM)
target_include_directories(ts_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(ts_llvm INTERFACE ${TS_LLVM_DEFINITIONS})

# --- SQLite: the workspace record store.
find_package(SQLite3 REQUIRED)
set_package_properties(SQLite3 PROPERTIES TYPE REQUIRED PURPOSE "workspace record store")

# --- Graphviz cgraph + gvc (no CMake config; pkg-config): DAG layout.
find_package(PkgConfig REQUIRED)
pkg_check_modules(GVC REQUIRED IMPORTED_TARGET libgvc libcgraph)
# libpq (Debian libpq-dev): the PostgreSQL backend of the store, a team's shared workspace.
pkg_check_modules(LIBPQ REQUIRED IMPORTED_TARGET libpq)
add_feature_info(Graphviz GVC_FOUND "dot layout of compute DAGs (libgvc ${GVC_libgvc_VERSION})")

# --- JSON (header-only): TVM record logs, DAG export.
find_package(nlohmann_json 3.10 REQUIRED)
set_package_properties(nlohmann_json PROPERTIES TYPE REQUIRED PURPOSE "TVM log and DAG JSON")

# --- ONNX 1.12 (protobuf classes, checker): ONNX models in (core/graph). Its targets name protobuf's.
find_package(Protobuf REQUIRED)
find_package(ONNX REQUIRED CONFIG)
set_package_properties(ONNX PROPERTIES TYPE REQUIRED PURPOSE "ONNX model import (libonnx-dev)")

# --- CUDA toolkit: optional. Found when present; the build works without it.
find_package(CUDAToolkit QUIET)
set_package_properties(CUDAToolkit PROPERTIES TYPE OPTIONAL PURPOSE "NVIDIA GPU code generation through NVRTC")
set(TS_HAVE_CUDA ${CUDAToolkit_FOUND})

# --- Tests and benchmarks.
find_package(GTest REQUIRED)
set_package_properties(GTest PROPERTIES TYPE REQUIRED PURPOSE "unit tests of the core")
find_package(benchmark QUIET)
set_package_properties(benchmark PROPERTIES TYPE OPTIONAL PURPOSE "micro benchmarks under tests/benchmarks")
find_program(XVFB_RUN xvfb-run)
add_feature_info(xvfb-run XVFB_RUN "GUI test under a real X server")
