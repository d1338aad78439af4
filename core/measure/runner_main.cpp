// tunescope-runner's loop: link the kernel into this process's JIT, fill the arguments, time it, send the
// costs and outputs back. A kernel that crashes takes only this process down; the engine restarts it.
#include "core/codegen/runtime.h"
#include "core/measure/kernel_buffers.h"
#include "core/measure/runner_process.h"
#include "core/measure/timing.h"
#include "core/record/measure_status.h"

#include <thread>

namespace ts::measure {

RunReply runRequest(const RunRequest& request)
{
    RunReply reply;
    codegen::setKernelThreads(request.threads);
    auto kernel = codegen::loadObject(codegen::ObjectCode { request.object, request.symbol, request.hasSetup });
    if (!kernel) {
        reply.status = record::MeasureStatus::RuntimeDeviceError;
        reply.message = kernel.error().message;
        return reply;
    }
    KernelBuffers buffers(request.argElements, request.numInputs, request.seed);
    // The kernel runs on a thread of its own, never on the process's main thread. On the main thread one
    // state's time followed the main stack's address: separate processes measured 0.076 or 0.13 ms (1
    // thread), each steady within itself, and with address randomization off the mode followed the
    // environment's size and an alloca before the call in 64-byte steps; on a fresh thread every placement
    // tried measured 0.076 (docs/codegen-investigation.md, section 11). A candidate's rank must not depend on
    // where the runner's stack landed.
    std::thread timing([&] {
        (*kernel)->runSetup(buffers.args()); // once, untimed: the weights packed before the program runs
        // How long the threads waited for a CPU while timed: a thread the pool starts in between counts from its
        // start, and the pool's threads outlive the timing.
        const auto before = schedulerTimes();
        reply.costs = timeKernel((*kernel)->entry(), buffers, request.timing, (*kernel)->statics());
        if (const auto after = schedulerTimes(); before && after)
            reply.waited = cpuWait(*before, *after);
    });
    timing.join();
    reply.status = record::MeasureStatus::Ok;
    for (size_t i = static_cast<size_t>(request.numInputs); i < buffers.size(); ++i)
        reply.outputs.emplace_back(buffers.data(i), buffers.data(i) + buffers.elements(i));
    return reply;
}

int runnerMain(int fd)
{
    std::vector<char> message;
    for (;;) {
        const ReadStatus status = readMessage(fd, message, -1);
        if (status == ReadStatus::Closed)
            return 0;
        if (status != ReadStatus::Ok)
            return 2;
        RunReply reply;
        if (auto request = decodeRequest(message)) {
            reply = runRequest(*request);
        } else {
            reply.status = record::MeasureStatus::UnknownError;
            reply.message = request.error().message;
        }
        if (!writeMessage(fd, encode(reply)))
            return 3;
    }
}

} // namespace ts::measure
