// The machine profile of a workspace's device (measure/machine_profile.h), measured once and kept with the
// device row (its properties' "machine_profile"), so every view of the workspace draws the same roofline.
#pragma once

#include "core/cost/machine_limits.h"
#include "core/measure/machine_profile.h"
#include "core/store/store.h"

#include <optional>

namespace ts::engine {

// The device row a session on this machine records under, among `devices`: the same target string (or the
// same CPU under another LLVM's name for it, store::sameCpu) and no target host, the same hardware parameters preferred
// (`here` is store::deviceOf(the host target)).
std::optional<store::Device> hostDevice(const std::vector<store::Device>& devices, const store::Device& here);

// The stored profile of a device; nullopt when none was measured (or it is unreadable: it is then
// measured again, never trusted).
std::optional<measure::MachineProfile> storedProfile(const store::Device& device);

// The profile of the device for `options.target` in this workspace: the stored one, or (none stored, or
// `remeasure`) measured now and stored. `measured`, when given, says which.
Expected<measure::MachineProfile> workspaceProfile(
    store::Store& workspace, const measure::ProfileOptions& options, bool remeasure = false, bool* measured = nullptr);

// The stored profile for the host device of a workspace, if any (what `best` and the views read).
Expected<std::optional<measure::MachineProfile>> hostProfile(store::Store& workspace);
// The stored profile of the device row `deviceId` of a workspace, if any.
Expected<std::optional<measure::MachineProfile>> deviceProfile(store::Store& workspace, int64_t deviceId);

// The analytical cost model's figures from a measured profile, for a target of `vectorBytes`-wide vectors:
// the clock that makes the one-thread FMA peak two FMA units' worth, the one-thread L2 and L3 bandwidths per
// cycle, DRAM's on every thread, the cache sizes sysfs gave (a figure the profile lacks keeps its default;
// the L1's bandwidth is not measured: two 64-byte loads a cycle).
cost::MachineLimits limitsOf(const measure::MachineProfile& profile, int64_t vectorBytes);

} // namespace ts::engine
