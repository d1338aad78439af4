#include "core/session/machine.h"

#include <nlohmann/json.hpp>

namespace ts::session {

namespace {
    constexpr const char* kKey = "machine_profile";
} // namespace

std::optional<store::Device> hostDevice(const std::vector<store::Device>& devices, const store::Device& here)
{
    std::optional<store::Device> found;
    for (const store::Device& d : devices) {
        if (d.target != here.target || !d.targetHost.empty())
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
    TS_TRY(std::vector<store::Device> devices, workspace.devices());
    if (!remeasure)
        for (const store::Device& d : devices)
            if (d.id == id)
                if (auto profile = storedProfile(d)) {
                    if (measured)
                        *measured = false;
                    return *profile;
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

} // namespace ts::session
