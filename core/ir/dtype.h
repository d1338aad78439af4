// Element types of tensors and expressions. float32 is what every operator and kernel uses today; the
// others are representable so quantized and half-precision workloads can be described later.
#pragma once

#include <string_view>

namespace ts::ir {

enum class DType { Bool, Int8, Int32, Int64, Float16, Float32 };

inline bool isFloat(DType t) { return t == DType::Float16 || t == DType::Float32; }
inline bool isInt(DType t) { return t == DType::Int8 || t == DType::Int32 || t == DType::Int64; }

inline int bytesOf(DType t)
{
    switch (t) {
    case DType::Bool:
    case DType::Int8:
        return 1;
    case DType::Float16:
        return 2;
    case DType::Int32:
    case DType::Float32:
        return 4;
    case DType::Int64:
        return 8;
    }
    return 4;
}

inline std::string_view toString(DType t)
{
    switch (t) {
    case DType::Bool:
        return "bool";
    case DType::Int8:
        return "int8";
    case DType::Int32:
        return "int32";
    case DType::Int64:
        return "int64";
    case DType::Float16:
        return "float16";
    case DType::Float32:
        return "float32";
    }
    return "?";
}

} // namespace ts::ir
