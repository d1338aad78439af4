// The machine figures the analytical cost model (analytical_model.h) estimates with. Defaults are typical
// per-core figures of the x86 servers TuneScope runs on; a workspace's measured profile replaces them
// (engine::limitsOf, machine.h): its FMA peak on one thread sets the clock, its L2, L3 and DRAM bandwidths
// the bytes per cycle, sysfs the cache sizes.
#pragma once

namespace ts::cost {

struct MachineLimits {
    double ghz = 3.0;
    double fmaUnits = 2.0; // per core
    double l1Bytes = 48.0 * 1024, l2Bytes = 1024.0 * 1024, l3Bytes = 16.0 * 1024 * 1024;
    double l1BytesPerCycle = 128.0, l2BytesPerCycle = 48.0, l3BytesPerCycle = 16.0; // per core
    double dramGBps = 20.0; // the whole socket's share a small machine sees
    bool measured = false; // from a measured profile (else the defaults above)
};

} // namespace ts::cost
