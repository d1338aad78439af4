#include "core/cost/data_parallel.h"

#include "core/cost/data_parallel_tensors.h"

// Debian's LibTorch is built with Gloo; its c10d header exposes the Gloo process group only with this macro.
#ifndef USE_C10D_GLOO
#define USE_C10D_GLOO 1
#endif
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <dlfcn.h>
#include <limits>
#include <thread>
#include <vector>

namespace ts::cost {

namespace {
    constexpr const char* kScheme = "tcp://";

    // c10d's messages carry a C++ backtrace after the first line: keep the reason only.
    std::string reasonOf(const std::exception& e)
    {
        std::string text;
        if (const auto* c10 = dynamic_cast<const c10::Error*>(&e))
            text = c10->what_without_backtrace();
        else
            text = e.what();
        if (const size_t cut = text.find("\nException raised from"); cut != std::string::npos)
            text.resize(cut);
        while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
            text.pop_back();
        return text;
    }

    std::chrono::milliseconds millis(double seconds)
    {
        return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(seconds * 1000.0)));
    }

    bool isLoopback(const std::string& host) { return host == "localhost" || host.rfind("127.", 0) == 0; }

    std::string whoAmI(const DataParallel& c)
    {
        return "rank " + std::to_string(c.rank) + " of " + std::to_string(c.worldSize);
    }
} // namespace

struct DataParallelGroup::Impl {
    c10::intrusive_ptr<c10d::TCPStore> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

Expected<RendezvousAddress> parseRendezvous(const std::string& text)
{
    const std::string hint = " (expected tcp://HOST:PORT, e.g. tcp://127.0.0.1:29500)";
    if (text.rfind(kScheme, 0) != 0)
        return makeError(ErrorKind::InvalidArgument, "--rendezvous '" + text + "' is not a tcp:// address" + hint);
    const std::string rest = text.substr(std::char_traits<char>::length(kScheme));
    const size_t colon = rest.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size())
        return makeError(ErrorKind::InvalidArgument, "--rendezvous '" + text + "' needs a host and a port" + hint);
    const std::string portText = rest.substr(colon + 1);
    char* end = nullptr;
    const long port = std::strtol(portText.c_str(), &end, 10);
    if (*end != '\0' || port < 1 || port > 65535)
        return makeError(ErrorKind::InvalidArgument,
            "--rendezvous '" + text + "': the port must be 1..65535, got '" + portText + "'");
    return RendezvousAddress { rest.substr(0, colon), static_cast<uint16_t>(port) };
}

Expected<void> validate(const DataParallel& config)
{
    if (config.worldSize < 1 || config.worldSize > 1024)
        return makeError(
            ErrorKind::InvalidArgument, "--world-size must be 1..1024, got " + std::to_string(config.worldSize));
    if (config.rank < 0 || config.rank >= config.worldSize)
        return makeError(ErrorKind::InvalidArgument,
            "--rank must be 0.." + std::to_string(config.worldSize - 1) + " for --world-size "
                + std::to_string(config.worldSize) + ", got " + std::to_string(config.rank));
    if (!(config.timeoutSeconds > 0.0 && config.timeoutSeconds <= 86400.0))
        return makeError(ErrorKind::InvalidArgument, "the rendezvous timeout must be 0..86400 s");
    if (config.enabled())
        TS_CHECK(parseRendezvous(config.rendezvous));
    return {};
}

bool setBlasThreads(int threads)
{
    using SetThreads = void (*)(int);
    static const auto set = reinterpret_cast<SetThreads>(::dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (set != nullptr)
        set(std::max(1, threads));
    return set != nullptr;
}

DataParallelGroup::DataParallelGroup(DataParallel config, std::unique_ptr<Impl> impl)
    : m_config(std::move(config))
    , m_impl(std::move(impl))
{
}

DataParallelGroup::~DataParallelGroup() = default;

int DataParallelGroup::threads() const
{
    if (m_config.threads > 0)
        return m_config.threads;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return std::max(1, cores / m_config.worldSize);
}

Expected<std::shared_ptr<DataParallelGroup>> DataParallelGroup::connect(const DataParallel& config)
{
    TS_CHECK(validate(config));
    auto impl = std::make_unique<Impl>();
    if (!config.enabled())
        return std::shared_ptr<DataParallelGroup>(new DataParallelGroup(config, std::move(impl)));
    TS_TRY(const RendezvousAddress address, parseRendezvous(config.rendezvous));
    const std::string where = whoAmI(config) + ", rendezvous " + config.rendezvous;
    // 1. The store: rank 0 serves it, the others connect (retrying until the timeout).
    try {
        c10d::TCPStoreOptions options;
        options.port = address.port;
        options.isServer = config.rank == 0;
        options.numWorkers = static_cast<size_t>(config.worldSize);
        options.waitWorkers = false; // the join below waits, with a message that says who is missing
        options.timeout = millis(config.timeoutSeconds);
        impl->store = c10::make_intrusive<c10d::TCPStore>(address.host, options);
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io,
            where + ": cannot " + (config.rank == 0 ? "host" : "reach") + " the rendezvous within "
                + std::to_string(static_cast<int>(std::ceil(config.timeoutSeconds))) + " s: " + reasonOf(e));
    }
    // 2. Join: every rank announces itself and waits for all the others.
    std::vector<std::string> keys;
    for (int r = 0; r < config.worldSize; ++r)
        keys.push_back("tunescope/joined/" + std::to_string(r));
    try {
        impl->store->set(keys[static_cast<size_t>(config.rank)], std::vector<uint8_t> { 1 });
        impl->store->wait(keys, millis(config.timeoutSeconds));
    } catch (const std::exception& e) {
        std::string missing;
        for (const std::string& key : keys)
            try {
                if (!impl->store->check({ key }))
                    missing += (missing.empty() ? "" : ", ") + key.substr(key.rfind('/') + 1);
            } catch (const std::exception&) {
                break; // the store itself is gone: the reason below says so
            }
        return makeError(ErrorKind::Io,
            where + ": not every rank joined within " + std::to_string(static_cast<int>(config.timeoutSeconds)) + " s"
                + (missing.empty() ? std::string() : " (missing: rank " + missing + ")") + ": " + reasonOf(e));
    }
    // 3. The Gloo group, on the loopback device for a local rendezvous (every rank on this machine), else on the
    //    address this machine's hostname resolves to.
    try {
        auto options = c10d::ProcessGroupGloo::Options::create(millis(kCollectiveTimeoutSeconds));
        options->devices.push_back(isLoopback(address.host)
                ? c10d::ProcessGroupGloo::createDeviceForHostname(address.host)
                : c10d::ProcessGroupGloo::createDefaultDevice());
        options->threads = 1;
        impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl->store, config.rank, config.worldSize, options);
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io, where + ": the Gloo process group did not form: " + reasonOf(e));
    }
    return std::shared_ptr<DataParallelGroup>(new DataParallelGroup(config, std::move(impl)));
}

Expected<void> DataParallelGroup::allReduce(std::span<float> values, Reduce op)
{
    if (!m_impl->group || values.empty())
        return {};
    try {
        std::vector<at::Tensor> tensors { torch::from_blob(
            values.data(), { static_cast<int64_t>(values.size()) }, torch::kFloat32) };
        c10d::AllreduceOptions options;
        options.reduceOp = op == Reduce::Max ? c10d::ReduceOp::MAX : c10d::ReduceOp::SUM;
        m_impl->group->allreduce(tensors, options)->wait();
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io, whoAmI(m_config) + ": all-reduce failed (a peer stopped?): " + reasonOf(e));
    }
    return {};
}

Expected<void> DataParallelGroup::broadcast(std::span<float> values)
{
    if (!m_impl->group || values.empty())
        return {};
    try {
        std::vector<at::Tensor> tensors { torch::from_blob(
            values.data(), { static_cast<int64_t>(values.size()) }, torch::kFloat32) };
        c10d::BroadcastOptions options;
        options.rootRank = 0;
        m_impl->group->broadcast(tensors, options)->wait();
    } catch (const std::exception& e) {
        return makeError(ErrorKind::Io, whoAmI(m_config) + ": broadcast failed (a peer stopped?): " + reasonOf(e));
    }
    return {};
}

// --- on tensors (data_parallel_tensors.h) ------------------------------------------------------------------------

namespace {
    std::span<float> spanOf(at::Tensor& t) { return { t.data_ptr<float>(), static_cast<size_t>(t.numel()) }; }
} // namespace

Expected<void> allReduceTensor(DataParallelGroup& group, at::Tensor& tensor, DataParallelGroup::Reduce op)
{
    torch::NoGradGuard noGrad;
    at::Tensor buffer = tensor.contiguous().to(torch::kFloat32);
    TS_CHECK(group.allReduce(spanOf(buffer), op));
    if (!buffer.is_same(tensor))
        tensor.copy_(buffer);
    return {};
}

Expected<void> broadcastTensors(DataParallelGroup& group, const std::vector<at::Tensor>& tensors)
{
    if (tensors.empty())
        return {};
    torch::NoGradGuard noGrad;
    std::vector<at::Tensor> flat;
    for (const at::Tensor& t : tensors)
        flat.push_back(t.detach().reshape({ -1 }).to(torch::kFloat32));
    at::Tensor buffer = torch::cat(flat).contiguous();
    TS_CHECK(group.broadcast(spanOf(buffer)));
    int64_t offset = 0;
    for (const at::Tensor& t : tensors) {
        at::Tensor target = t; // shares t's storage
        target.copy_(buffer.slice(0, offset, offset + t.numel()).view_as(t));
        offset += t.numel();
    }
    return {};
}

Expected<void> allReduceGradients(DataParallelGroup& group, const std::vector<at::Tensor>& parameters)
{
    if (parameters.empty())
        return {};
    torch::NoGradGuard noGrad;
    std::vector<at::Tensor> flat;
    for (const at::Tensor& p : parameters)
        flat.push_back(p.grad().defined() ? p.grad().reshape({ -1 }).to(torch::kFloat32) : torch::zeros({ p.numel() }));
    for (const at::Tensor& p : parameters)
        flat.push_back(torch::full({ 1 }, p.grad().defined() ? 1.0f : 0.0f));
    at::Tensor buffer = torch::cat(flat).contiguous();
    TS_CHECK(group.allReduce(spanOf(buffer)));
    const float* reached = buffer.data_ptr<float>() + (buffer.numel() - static_cast<int64_t>(parameters.size()));
    int64_t offset = 0;
    for (size_t i = 0; i < parameters.size(); ++i) {
        at::Tensor p = parameters[i]; // shares the parameter's storage and gradient
        if (reached[i] > 0.0f) {
            if (!p.grad().defined())
                p.mutable_grad() = torch::zeros_like(p);
            p.mutable_grad().copy_(buffer.slice(0, offset, offset + p.numel()).view_as(p));
        }
        offset += p.numel();
    }
    return {};
}

} // namespace ts::cost
