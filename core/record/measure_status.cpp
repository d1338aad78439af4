#include "core/record/measure_status.h"

#include <string>

namespace ts::record {

const char* toString(MeasureStatus status)
{
    switch (status) {
    case MeasureStatus::Ok:
        return "ok";
    case MeasureStatus::InstantiationError:
        return "instantiation error";
    case MeasureStatus::CompileHostError:
        return "compile error";
    case MeasureStatus::CompileDeviceError:
        return "device compile error";
    case MeasureStatus::RuntimeDeviceError:
        return "runtime error";
    case MeasureStatus::WrongAnswer:
        return "wrong answer";
    case MeasureStatus::BuildTimeout:
        return "build timeout";
    case MeasureStatus::RunTimeout:
        return "run timeout";
    case MeasureStatus::UnknownError:
        return "unknown error";
    }
    return "?";
}

Expected<MeasureStatus> measureStatusFromInt(int64_t value, std::string_view what)
{
    if (value < kMinMeasureStatus || value > kMaxMeasureStatus)
        return makeError(ErrorKind::Parse,
            std::string(what) + " is " + std::to_string(value) + ", outside " + std::to_string(kMinMeasureStatus) + ".."
                + std::to_string(kMaxMeasureStatus));
    return static_cast<MeasureStatus>(value);
}

} // namespace ts::record
