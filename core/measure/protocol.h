// The engine <-> tunescope-runner protocol: length-prefixed binary messages over a Unix socket pair.
// A request carries one compiled kernel (an object file) and how to run it; the reply carries the costs
// and the output buffers for the correctness check.
#pragma once

#include "core/measure/timing.h"
#include "core/record/measure_status.h"
#include "core/support/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::measure {

struct RunRequest {
    std::vector<char> object;
    std::string symbol;
    bool hasSetup = false; // run codegen::setupSymbol(symbol) once, untimed, before timing
    std::vector<int64_t> argElements; // per kernel argument
    int numInputs = 0;
    uint64_t seed = 0;
    int threads = 0;
    TimingOptions timing;
};

struct RunReply {
    record::MeasureStatus status = record::MeasureStatus::Ok;
    std::vector<double> costs;
    std::string message;
    std::vector<std::vector<float>> outputs; // one per output argument
    double waited = -1; // cpuWait over the timed runs (timing.h); -1: not known
};

std::vector<char> encode(const RunRequest& request);
std::vector<char> encode(const RunReply& reply);
Expected<RunRequest> decodeRequest(const std::vector<char>& bytes);
Expected<RunReply> decodeReply(const std::vector<char>& bytes);

// Framing: [magic u32][length u64][payload]. writeMessage returns false when the peer is gone.
bool writeMessage(int fd, const std::vector<char>& payload);
enum class ReadStatus { Ok, Closed, TimedOut, Malformed, Cancelled };
// deadlineMs < 0: wait forever. Cancelled as soon as cancelFd (when >= 0) becomes readable.
ReadStatus readMessage(int fd, std::vector<char>& payload, int64_t deadlineMs, int cancelFd = -1);

} // namespace ts::measure
