#include "core/runtime/torch_reference.h"

#include <torch/script.h>

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace ts::runtime {

Expected<TorchRun> runTorchScript(
    const std::string& path, const std::vector<ir::Buffer>& inputs, int repeat, int threads)
{
    try {
        torch::jit::Module module = torch::jit::load(path);
        module.eval();
        TorchRun run;
        // All cores unless told otherwise, as the graph executor's kernels use them (LibTorch's own default can
        // be 1 in a process that has set it before, e.g. for a cost model).
        at::set_num_threads(
            threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
        run.threads = at::get_num_threads();
        std::vector<torch::jit::IValue> args;
        for (const ir::Buffer& b : inputs) {
            torch::Tensor t = torch::empty(b.shape(), torch::kFloat32);
            std::memcpy(t.data_ptr<float>(), b.data(), static_cast<size_t>(b.size()) * sizeof(float));
            args.emplace_back(t);
        }
        torch::NoGradGuard noGrad;
        torch::Tensor out;
        auto forward = [&] {
            torch::jit::IValue result = module.forward(args);
            out = result.isTuple() ? result.toTuple()->elements()[0].toTensor() : result.toTensor();
        };
        for (int i = 0; i < 3; ++i)
            forward();
        for (int i = 0; i < repeat; ++i) {
            const auto start = std::chrono::steady_clock::now();
            forward();
            run.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        out = out.contiguous().to(torch::kFloat32);
        run.output = ir::Buffer(std::vector<int64_t>(out.sizes().begin(), out.sizes().end()));
        std::memcpy(run.output.data(), out.data_ptr<float>(), static_cast<size_t>(run.output.size()) * sizeof(float));
        run.backends = std::string("oneDNN (MKLDNN) built ") + (at::hasMKLDNN() ? "yes" : "no") + ", enabled "
            + (at::globalContext().userEnabledMkldnn() ? "yes" : "no");
        return run;
    } catch (const std::exception& e) {
        std::string message = e.what();
        const size_t newline = message.find('\n');
        if (newline != std::string::npos)
            message = message.substr(0, newline);
        return makeError(ErrorKind::InvalidArgument, path + ": LibTorch cannot run it: " + message);
    }
}

} // namespace ts::runtime
