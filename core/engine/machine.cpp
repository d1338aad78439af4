#include "core/engine/machine.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ts::engine {

namespace {
    constexpr const char* kKey = "machine_profile";
} // namespace

std::optional<store::Device> hostDevice(const std::vector<store::Device>& devices, const store::Device& here)
{
    std::optional<store::Device> found;
    for (const store::Device& d : devices) {
        if (!store::sameCpu(d, here) || !d.targetHost.empty())
            continue;
        if (d.hardwareParams == here.hardwareParams)
            return d;
        if (!found)
            found = d;
    }
    return found;
}

std::optional<measure::MachineProfile> storedProfile(const store::Device& device)
{
    const nlohmann::json properties = nlohmann::json::parse(device.properties, nullptr, false);
    if (!properties.is_object() || !properties.contains(kKey))
        return std::nullopt;
    auto profile = measure::MachineProfile::fromJson(properties[kKey].dump());
    if (!profile || profile->version < measure::MachineProfile::kVersion)
        return std::nullopt; // corrupt, or measured by older micro kernels: measured again
    return *profile;
}

Expected<measure::MachineProfile> workspaceProfile(
    store::Store& workspace, const measure::ProfileOptions& options, bool remeasure, bool* measured)
{
    const store::Device here = store::deviceOf(options.target);
    TS_TRY(int64_t id, workspace.addDevice(here));
    if (!remeasure) {
        TS_TRY(std::optional<measure::MachineProfile> stored, deviceProfile(workspace, id));
        if (stored) {
            if (measured)
                *measured = false;
            return *stored;
        }
    }
    TS_TRY(measure::MachineProfile profile, measure::measureMachine(options));
    TS_CHECK(workspace.setDeviceProperty(id, kKey, profile.toJson()));
    if (measured)
        *measured = true;
    return profile;
}

Expected<std::optional<measure::MachineProfile>> hostProfile(store::Store& workspace)
{
    TS_TRY(std::vector<store::Device> devices, workspace.devices());
    const std::optional<store::Device> device = hostDevice(devices, store::deviceOf(target::Target::host()));
    if (!device)
        return std::optional<measure::MachineProfile>();
    return storedProfile(*device);
}

Expected<std::optional<measure::MachineProfile>> deviceProfile(store::Store& workspace, int64_t deviceId)
{
    TS_TRY(std::vector<store::Device> devices, workspace.devices());
    for (const store::Device& d : devices)
        if (d.id == deviceId)
            return storedProfile(d);
    return std::optional<measure::MachineProfile>();
}

cost::MachineLimits limitsOf(const measure::MachineProfile& profile, int64_t vectorBytes)
{
    cost::MachineLimits limits;
    const double lanes = std::max<double>(1.0, static_cast<double>(vectorBytes) / 4.0);
    const double peak = profile.peak(1); // GFLOP/s of one core
    if (!(peak > 0.0))
        return limits;
    limits.ghz = peak / (limits.fmaUnits * 2.0 * lanes);
    if (profile.l1dBytes > 0)
        limits.l1Bytes = static_cast<double>(profile.l1dBytes);
    if (profile.l2Bytes > 0)
        limits.l2Bytes = static_cast<double>(profile.l2Bytes);
    if (profile.l3Bytes > 0) // a guest may see its host's whole L3: no more than the profile found resident
        limits.l3Bytes = static_cast<double>(
            profile.l3SetBytes > 0 ? std::min(profile.l3Bytes, 2 * profile.l3SetBytes) : profile.l3Bytes);
    if (profile.measures(measure::MemoryLevel::L2))
        limits.l2BytesPerCycle = profile.bandwidth(measure::MemoryLevel::L2, 1) / limits.ghz;
    if (profile.measures(measure::MemoryLevel::L3))
        limits.l3BytesPerCycle = profile.bandwidth(measure::MemoryLevel::L3, 1) / limits.ghz;
    const int threads = static_cast<int>(std::max<size_t>(1, profile.triadGBps.size()));
    if (const double dram = profile.bandwidth(threads); dram > 0.0)
        limits.dramGBps = dram;
    limits.measured = true;
    return limits;
}

} // namespace ts::engine
