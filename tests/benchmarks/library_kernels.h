// Library baselines at their best on this CPU. A machine may set OPENBLAS_CORETYPE=Haswell (old OpenBLAS builds
// miscompute on some CPUs), and OpenBLAS reads that variable once, when it loads: on an AVX-512 CPU its sgemm then
// runs at half the speed of its AVX-512 kernel, and every "% of OpenBLAS" printed next to it is inflated. LibTorch
// (Debian's 1.13) calls the same OpenBLAS for mm, linear and bmm, so the same holds for it.
//
// selectOpenBlasKernel(argv), the first call in main() of every benchmark that prints a figure against OpenBLAS or
// LibTorch, makes the process run OpenBLAS's fastest kernel for this CPU:
//   1. TS_BENCH_OPENBLAS_CORETYPE set: that core type, no probe (`auto`: OPENBLAS_CORETYPE unset, OpenBLAS's own
//      detection; `keep`: the environment as inherited).
//   2. Otherwise a probe: each candidate core type the CPU can run (openBlasCoreTypeCandidates: SapphireRapids with
//      AMX, Cooperlake with AVX512-BF16, SkylakeX with AVX-512, Zen and Haswell with AVX2 + FMA, OpenBLAS's own
//      detection, and the inherited value) runs sgemm 1024^3 on 2 threads in a child process of its own (this
//      executable again, the value in the child's environment only), in two rounds, the second in reverse order
//      (a busy neighbour only ever slows a run down: the better round counts); a child whose product is wrong, or
//      whose OpenBLAS did not accept the name (openblas_get_corename() differs), is out. The fastest wins.
//   3. The process re-executes itself with the winner in OPENBLAS_CORETYPE (TS_BENCH_OPENBLAS_CHOSEN marks the
//      re-executed process, so it never probes again); unchanged when the environment already holds the winner.
// Printed: each candidate's GFLOP/s and the kernel it loaded next to the fp32 FMA peak measured in the same run, then
// "OpenBLAS kernel in this run: <openblas_get_corename()>". Tests and CI never call this: only benchmarks, at their
// own start, change these variables, and only for themselves.
#pragma once

#include <string>
#include <vector>

namespace ts::bench {

// What one candidate OPENBLAS_CORETYPE did in its child process.
struct CoreTypeProbe {
    std::string coreType; // the value of OPENBLAS_CORETYPE; empty: unset (OpenBLAS's own detection)
    std::string loaded; // openblas_get_corename() in the child; empty when the child failed
    double gflops = 0; // sgemm 1024^3, 2 threads: the best of its rounds, each the best of its repeats
    std::vector<double> rounds; // each round's figure, in order
    std::string error; // why the candidate is out; empty when it may win
};

// Names of the OpenBLAS core types this CPU can run, most specific first (OPENBLAS_CORETYPE values; Debian 12's
// OpenBLAS 0.3.21 accepts all but SapphireRapids, which newer releases add).
std::vector<std::string> openBlasCoreTypeCandidates();

// The kernel OpenBLAS loaded in this process (openblas_get_corename()).
std::string openBlasCoreName();

// Makes this process run OpenBLAS's fastest kernel (see the top of this file). May re-execute the process; returns
// in the process that runs the benchmark. Never returns in a probe child.
void selectOpenBlasKernel(char** argv);

} // namespace ts::bench
