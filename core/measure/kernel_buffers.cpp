#include "core/measure/kernel_buffers.h"

#include "core/ir/reference_evaluator.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace ts::measure {

void KernelBuffers::Free::operator()(float* p) const { std::free(p); }

KernelBuffers::KernelBuffers(const std::vector<int64_t>& elements, int numInputs, uint64_t seed)
    : m_elements(elements)
{
    for (size_t i = 0; i < elements.size(); ++i) {
        const size_t bytes = (static_cast<size_t>(std::max<int64_t>(elements[i], 1)) * sizeof(float) + 63) / 64 * 64;
        auto* p = static_cast<float*>(std::aligned_alloc(64, bytes));
        m_storage.emplace_back(p);
        m_pointers.push_back(p);
        m_args.push_back(p);
        if (static_cast<int>(i) < numInputs)
            ir::fillRandomInput(p, elements[i], seed, static_cast<int>(i));
        else
            std::fill(p, p + elements[i], std::numeric_limits<float>::quiet_NaN());
    }
}

void KernelBuffers::flushCaches(const std::vector<codegen::MemoryRegion>& also) const
{
    auto flush = [](const void* data, size_t bytes) {
        const char* p = static_cast<const char*>(data);
        for (size_t offset = 0; offset < bytes; offset += 64)
            __builtin_ia32_clflush(p + offset);
    };
    for (size_t i = 0; i < m_pointers.size(); ++i)
        flush(m_pointers[i], static_cast<size_t>(m_elements[i]) * sizeof(float));
    for (const codegen::MemoryRegion& r : also)
        flush(r.data, r.bytes);
    __builtin_ia32_mfence();
}

} // namespace ts::measure
