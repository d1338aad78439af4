// Data-parallel training of the LibTorch cost models over several processes (issue 42, part 3): the one adapter
// around LibTorch's c10d (a TCPStore for the rendezvous, ProcessGroupGloo for the collectives). This header is
// free of Qt and LibTorch; only data_parallel.cpp includes c10d.
//
// - Rendezvous: "tcp://HOST:PORT". Rank 0 hosts the c10d TCPStore on PORT; the other ranks connect to it. Every
//   rank then waits, up to DataParallel::timeoutSeconds, until all ranks have joined: a rank that cannot reach
//   the rendezvous, or a rank 0 that the others never join, fails with an error naming the address, never hangs.
// - Collectives work on float buffers, in place, in the same order on every rank (c10d's rule). A peer that
//   dies or stalls makes them fail after kCollectiveTimeoutSeconds; exceptions from c10d/Gloo become Errors.
// - Which programs a rank holds (its shard) and how a step's gradient is combined is NeuralCostModel's and
//   NeuralNetwork's business (neural_model.h, neural_network.h); this module only moves numbers.
#pragma once

#include "core/support/error.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace ts::cost {

struct DataParallel {
    int worldSize = 1;
    int rank = 0;
    std::string rendezvous; // tcp://host:port
    double timeoutSeconds = 30.0; // how long joining may take
    int threads = 0; // LibTorch intra-op threads of this rank; 0: the machine's cores / worldSize, at least 1

    bool enabled() const { return worldSize > 1; }
};

// A collective that waits longer than this for a peer fails (a dead peer is usually seen at once).
constexpr double kCollectiveTimeoutSeconds = 1800.0;

struct RendezvousAddress {
    std::string host;
    uint16_t port = 0;
};

// "tcp://127.0.0.1:29500" -> {127.0.0.1, 29500}. Errors name what is wrong.
Expected<RendezvousAddress> parseRendezvous(const std::string& text);

// Checks world size (1..1024), rank (0..N-1), the address (when N > 1) and the timeout.
Expected<void> validate(const DataParallel& config);

// Sets the threads of OpenBLAS, when it is the BLAS LibTorch calls (Debian's is), found at run time; otherwise
// nothing. OpenBLAS keeps its own pool, one thread per core, whose idle threads spin in sched_yield, so two ranks
// on one machine would fight over every core. Returns whether OpenBLAS was found.
bool setBlasThreads(int threads);

class DataParallelGroup {
public:
    enum class Reduce { Sum, Max };

    // Joins the group (rank 0 hosts the rendezvous). Returns when all ranks joined, or an error after the timeout.
    static Expected<std::shared_ptr<DataParallelGroup>> connect(const DataParallel& config);
    ~DataParallelGroup();
    DataParallelGroup(const DataParallelGroup&) = delete;
    DataParallelGroup& operator=(const DataParallelGroup&) = delete;

    int rank() const { return m_config.rank; }
    int worldSize() const { return m_config.worldSize; }
    // The intra-op threads this rank's LibTorch should use.
    int threads() const;
    // The shard rule: program `index` (its position in the training set, the same order on every rank) is held
    // by rank index mod worldSize.
    bool holds(int64_t index) const { return index % m_config.worldSize == m_config.rank; }

    // Every rank passes a buffer of the same size; afterwards each holds the element-wise sum (or max).
    Expected<void> allReduce(std::span<float> values, Reduce op = Reduce::Sum);
    // Rank 0's values to every rank.
    Expected<void> broadcast(std::span<float> values);

private:
    struct Impl;
    DataParallelGroup(DataParallel config, std::unique_ptr<Impl> impl);

    DataParallel m_config;
    std::unique_ptr<Impl> m_impl;
};

} // namespace ts::cost
