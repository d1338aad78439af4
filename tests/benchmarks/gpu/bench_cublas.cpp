// tunescope-gpu-bench: the library figure TuneScope's GPU kernels are held against, measured in the same
// run. cuBLAS SGEMM (fp32, pedantic math: no TF32, no tensor cores) on an M x N x K matmul, timed with CUDA
// events as tunescope-gpu-runner times a bundle (warm-up, then the median of repeated runs). With
// --results, the best result line of tunescope-gpu-runner in that file (the tuned kernels of the same
// matmul) is printed next to it, as GFLOP/s and as a fraction of cuBLAS.
//
//   tunescope-gpu-bench [--m 4096] [--n 4096] [--k 4096] [--repeat 20] [--results results.jsonl]
//
// Builds with the CUDA toolkit alone (gpu_runner/CMakeLists.txt, where the toolkit has cuBLAS). Without a
// GPU it says so and exits with status 2.
#include "gpu_runner/mini_json.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {
bool cudaOk(cudaError_t e, const char* what)
{
    if (e == cudaSuccess)
        return true;
    std::fprintf(stderr, "tunescope-gpu-bench: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

bool cublasOk(cublasStatus_t s, const char* what)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return true;
    std::fprintf(stderr, "tunescope-gpu-bench: %s: cuBLAS status %d\n", what, static_cast<int>(s));
    return false;
}

struct Options {
    long m = 4096, n = 4096, k = 4096;
    int repeat = 20;
    std::string results;
};

bool parse(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc)
            return false;
        const char* v = argv[++i];
        if (a == "--m")
            o.m = std::atol(v);
        else if (a == "--n")
            o.n = std::atol(v);
        else if (a == "--k")
            o.k = std::atol(v);
        else if (a == "--repeat")
            o.repeat = std::atoi(v);
        else if (a == "--results")
            o.results = v;
        else
            return false;
    }
    return o.m > 0 && o.n > 0 && o.k > 0 && o.repeat > 0;
}

// The fastest successful result (mean of its costs) in a tunescope-gpu-runner output file, in seconds;
// 0 when there is none.
double bestResult(const std::string& path, int& lines, int& ok)
{
    std::ifstream in(path);
    double best = 0.0;
    lines = ok = 0;
    for (std::string line; std::getline(in, line);) {
        auto json = ts::gpurunner::parseJson(line);
        if (!json)
            continue;
        ++lines;
        const auto* error = json->find("error_no");
        const auto* costs = json->find("costs");
        if (!error || error->number != 0 || !costs || costs->array.empty())
            continue;
        double sum = 0.0;
        for (const auto& c : costs->array)
            sum += c.number;
        const double mean = sum / static_cast<double>(costs->array.size());
        ++ok;
        if (best == 0.0 || mean < best)
            best = mean;
    }
    return best;
}
} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr, "usage: tunescope-gpu-bench [--m M] [--n N] [--k K] [--repeat R] [--results FILE]\n");
        return 1;
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("no CUDA device on this machine: nothing to measure\n");
        return 2;
    }
    cudaDeviceProp prop {};
    if (!cudaOk(cudaGetDeviceProperties(&prop, 0), "device properties"))
        return 2;

    const size_t a = static_cast<size_t>(o.m * o.k), b = static_cast<size_t>(o.k * o.n),
                 c = static_cast<size_t>(o.m * o.n);
    std::vector<float> host(std::max({ a, b }));
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (float& x : host)
        x = dist(rng);
    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    if (!cudaOk(cudaMalloc(&dA, a * sizeof(float)), "cudaMalloc")
        || !cudaOk(cudaMalloc(&dB, b * sizeof(float)), "cudaMalloc")
        || !cudaOk(cudaMalloc(&dC, c * sizeof(float)), "cudaMalloc"))
        return 2;
    cudaMemcpy(dA, host.data(), a * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, host.data(), b * sizeof(float), cudaMemcpyHostToDevice);

    cublasHandle_t handle = nullptr;
    if (!cublasOk(cublasCreate(&handle), "cublasCreate")
        || !cublasOk(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH), "pedantic math (no TF32)"))
        return 2;
    const float alpha = 1.0f, beta = 0.0f;
    // Row-major C[m][n] = A[m][k] B[k][n] is column-major C^T = B^T A^T.
    auto gemm = [&] {
        return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(o.n), static_cast<int>(o.m),
            static_cast<int>(o.k), &alpha, dB, static_cast<int>(o.n), dA, static_cast<int>(o.k), &beta, dC,
            static_cast<int>(o.n));
    };
    for (int i = 0; i < 3; ++i)
        if (!cublasOk(gemm(), "sgemm"))
            return 2;
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::vector<float> ms;
    for (int r = 0; r < o.repeat; ++r) {
        cudaEventRecord(start);
        gemm();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float t = 0.0f;
        cudaEventElapsedTime(&t, start, stop);
        ms.push_back(t);
    }
    if (!cudaOk(cudaGetLastError(), "sgemm runs"))
        return 2;
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2] * 1e-3;
    const double flops = 2.0 * static_cast<double>(o.m) * static_cast<double>(o.n) * static_cast<double>(o.k);
    const double cublasGflops = flops / median / 1e9;
    std::printf("device:  %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
    std::printf("cuBLAS SGEMM %ldx%ldx%ld (fp32, pedantic: no TF32): %.3f ms, %.0f GFLOP/s (median of %d)\n", o.m, o.n,
        o.k, median * 1e3, cublasGflops, o.repeat);
    if (!o.results.empty()) {
        int lines = 0, ok = 0;
        const double best = bestResult(o.results, lines, ok);
        if (best <= 0.0) {
            std::printf("TuneScope: no successful result among %d lines of %s\n", lines, o.results.c_str());
        } else {
            const double ours = flops / best / 1e9;
            std::printf("TuneScope: %.3f ms, %.0f GFLOP/s (best of %d successful of %d in %s): %.1f%% of cuBLAS\n",
                best * 1e3, ours, ok, lines, o.results.c_str(), 100.0 * ours / cublasGflops);
        }
    }
    cublasDestroy(handle);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return 0;
}
