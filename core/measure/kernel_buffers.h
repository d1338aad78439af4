// Argument buffers for one kernel run, float32 (the only dtype kernels are generated for yet): 64-byte
// aligned, inputs filled with the values ir::randomInputs gives for the same seed (placeholder ordinal k
// gets stream k), outputs filled with NaN so that an element the kernel never writes cannot pass the
// correctness check.
#pragma once

#include "core/codegen/codegen.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ts::measure {

class KernelBuffers {
public:
    KernelBuffers(const std::vector<int64_t>& elements, int numInputs, uint64_t seed);
    // The kernel's argument array (codegen.h's `void(void** args)`).
    void** args() { return m_args.data(); }
    const float* data(size_t i) const { return m_pointers[i]; }
    int64_t elements(size_t i) const { return m_elements[i]; }
    size_t size() const { return m_pointers.size(); }
    // Evicts every buffer from the CPU caches (clflush), for measurements with cache flushing.
    // Evicts every buffer, and `also` (memory the kernel reads besides them), from every cache level.
    void flushCaches(const std::vector<codegen::MemoryRegion>& also = {}) const;

private:
    struct Free {
        void operator()(float* p) const;
    };
    std::vector<std::unique_ptr<float, Free>> m_storage;
    std::vector<float*> m_pointers;
    std::vector<void*> m_args; // the same pointers, as the kernel ABI takes them
    std::vector<int64_t> m_elements;
};

} // namespace ts::measure
