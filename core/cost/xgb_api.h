// Private to core/cost: the thin layer over XGBoost's C API that xgb_booster.cpp and xgb_booster_io.cpp
// share. This is the only header that includes xgboost/c_api.h; nothing outside core/cost includes it.
//
// XGBoost 1.7 facts it relies on (checked against v1.7.4's src/c_api and src/learner.cc):
// - every C call returns 0 or -1, and XGBGetLastError() (thread-local) says why; LOG(FATAL) inside throws
//   and is caught at the C boundary, so a call never aborts the process for bad arguments;
// - the global configuration (verbosity) is thread-local, so each thread silences XGBoost for itself;
// - in-place prediction and the model buffer return pointers into per-booster, per-thread storage that
//   the next call on the same booster and thread overwrites: copy them out at once.
#pragma once

#include "core/cost/xgb_booster.h"
#include "core/support/error.h"

#include <xgboost/c_api.h>

#include <cstddef>
#include <string>

namespace ts::cost {

namespace xgb {

    // Owns a BoosterHandle.
    class Booster {
    public:
        explicit Booster(BoosterHandle handle)
            : m_handle(handle)
        {
        }
        ~Booster();
        Booster(const Booster&) = delete;
        Booster& operator=(const Booster&) = delete;
        BoosterHandle get() const { return m_handle; }

    private:
        BoosterHandle m_handle = nullptr;
    };

    // Owns a DMatrixHandle.
    class DMatrix {
    public:
        DMatrix() = default;
        ~DMatrix();
        DMatrix(const DMatrix&) = delete;
        DMatrix& operator=(const DMatrix&) = delete;
        DMatrixHandle* out() { return &m_handle; }
        DMatrixHandle get() const { return m_handle; }

    private:
        DMatrixHandle m_handle = nullptr;
    };

    // Sets verbosity 0 for the calling thread, once per thread.
    Expected<void> silence();
    // rc == 0, or an Error of `kind`: "XGBoost <what> failed: <XGBGetLastError()>".
    Expected<void> check(int rc, const char* what, ErrorKind kind = ErrorKind::Internal);
    // The __array_interface__ JSON of a dense row-major float matrix, as XGBoost's dense entry points take.
    std::string arrayInterface(const float* data, size_t rows, size_t columns);
    // A new booster (optionally caching `train` for incremental predictions) with `settings` applied. A
    // loaded model gets only the run-time parameters (threads, seed, verbosity), not the model's own.
    Expected<std::unique_ptr<Booster>> createBooster(const PackSumSettings& settings, DMatrixHandle train);
    Expected<void> setTrainingParams(BoosterHandle booster, const PackSumSettings& settings);
    // Checks ranges and names; PackSumSettings::fromJson and train() both use it.
    Expected<void> validate(const PackSumSettings& settings);

} // namespace xgb

} // namespace ts::cost
