// Store: the devices table. A device is found by its identity (target, target host, hardware params) or added.
#include "core/store/store.h"
#include "core/store/store_rows.h"
#include "core/support/strings.h"
#include "core/target/host_cpu.h"

#include <nlohmann/json.hpp>

namespace ts::store {

namespace {

    std::string hardwareParamsText(const std::optional<HardwareParams>& params)
    {
        return params ? nlohmann::json(*params).dump() : std::string();
    }

    std::optional<HardwareParams> parseHardwareParams(const std::string& text)
    {
        if (text.empty())
            return std::nullopt;
        const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
        if (!json.is_array() || json.size() != 8)
            return std::nullopt;
        HardwareParams params {};
        for (size_t i = 0; i < 8; ++i)
            params[i] = json[i].is_number_integer() ? json[i].get<int64_t>() : 0;
        return params;
    }

    // The CPUID signature a host device row records (properties.cpu), or null.
    nlohmann::json cpuSignature(const std::string& properties)
    {
        const nlohmann::json json = nlohmann::json::parse(properties, nullptr, false);
        if (!json.is_object() || !json.contains("cpu") || !json["cpu"].is_object())
            return nullptr;
        const nlohmann::json& cpu = json["cpu"];
        if (!cpu.contains("vendor") || !cpu.contains("family") || !cpu.contains("model"))
            return nullptr;
        return nlohmann::json { cpu["vendor"], cpu["family"], cpu["model"] };
    }

    // A target string without its -mcpu option: two hosts whose names differ only by what LLVM knew.
    std::string withoutCpuName(const std::string& target)
    {
        std::vector<std::string> kept;
        for (std::string& word : split(target, ' '))
            if (word.rfind("-mcpu=", 0) != 0)
                kept.push_back(std::move(word));
        return join(kept, " ");
    }

} // namespace

Device deviceOf(const target::Target& target)
{
    Device device;
    device.target = target::toString(target);
    device.kind = deviceKindOf(device.target);
    device.name = deviceNameOf(device.target);
    device.hardwareParams = target::hardwareParams(target);
    if (target == target::Target::host()) {
        // What LLVM called this CPU, what the target names it, and the CPUID signature the name came from
        // (target/host_cpu.h): a later LLVM's name for the same CPU finds this row again (addDevice).
        const target::HostCpuName& name = target::hostCpuName();
        const target::CpuId& id = target::hostCpuId();
        device.properties = nlohmann::json {
            { "cpu",
                { { "llvm_name", name.llvmName }, { "name", name.chosen }, { "rule", name.rule },
                    { "vendor", id.vendor }, { "family", id.family }, { "model", id.model } } }
        }.dump();
    }
    return device;
}

bool sameCpu(const Device& stored, const Device& wanted)
{
    if (stored.target == wanted.target)
        return true;
    const nlohmann::json signature = cpuSignature(wanted.properties);
    return !signature.is_null() && cpuSignature(stored.properties) == signature
        && withoutCpuName(stored.target) == withoutCpuName(wanted.target);
}

Expected<target::Target> targetOf(const Device& device)
{
    auto target = target::fromTvm(device.target, device.hardwareParams);
    if (!target)
        return makeError(target.error().kind, "device " + device.name + ": " + target.error().message);
    return target;
}

std::string deviceKindOf(const std::string& target)
{
    const std::string first = target.substr(0, target.find(' '));
    for (const char* gpu : { "cuda", "nvptx", "rocm", "opencl", "vulkan", "metal" })
        if (first == gpu)
            return "gpu";
    return "cpu";
}

std::string deviceNameOf(const std::string& target)
{
    const std::vector<std::string> words = split(target, ' ');
    const std::string kind = deviceKindOf(target);
    std::string name = kind == "gpu" ? (words.empty() ? target : words.front()) : "cpu";
    for (const std::string& w : words)
        for (const char* option : { "-mcpu=", "-arch=", "-model=" })
            if (w.rfind(option, 0) == 0)
                return name + " " + w.substr(std::string_view(option).size());
    return name;
}

Expected<int64_t> Store::addDevice(const Device& device)
{
    const std::string params = hardwareParamsText(device.hardwareParams);
    TS_TRY(Statement * find,
        cached("SELECT id FROM devices WHERE target = ? AND target_host = ? AND hardware_params = ?"));
    find->bindAll(device.target, device.targetHost, params);
    TS_TRY(bool found, find->step());
    if (found) {
        const int64_t id = find->getInt(0);
        // A cached statement left on a row keeps its read transaction open: this connection's later writes
        // would then fail (SQLITE_BUSY_SNAPSHOT) once another connection commits.
        find->reset();
        return id;
    }
    // The same CPU named otherwise by another LLVM (sameCpu): the same device.
    if (!cpuSignature(device.properties).is_null()) {
        TS_TRY(Statement same,
            m_db.prepare("SELECT id, target, properties FROM devices WHERE target_host = ? AND hardware_params = ?"));
        same.bindAll(device.targetHost, params);
        while (true) {
            TS_TRY(bool row, same.step());
            if (!row)
                break;
            Device stored;
            stored.target = same.getText(1);
            stored.properties = same.getText(2);
            if (sameCpu(stored, device))
                return same.getInt(0);
        }
    }
    TS_TRY(Statement * insert,
        cached("INSERT INTO devices (kind, name, target, target_host, hardware_params, properties) "
               "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (target, target_host, hardware_params) DO NOTHING RETURNING id"));
    insert->bindAll(device.kind.empty() ? deviceKindOf(device.target) : device.kind,
        device.name.empty() ? deviceNameOf(device.target) : device.name, device.target, device.targetHost, params,
        device.properties);
    find->bindAll(device.target, device.targetHost, params);
    return detail::insertedOrFound(*insert, *find, path() + ": device " + device.target);
}

Expected<void> Store::setDeviceProperty(int64_t deviceId, const std::string& key, const std::string& value)
{
    const nlohmann::json parsed = nlohmann::json::parse(value, nullptr, false);
    if (parsed.is_discarded())
        return makeError(ErrorKind::InvalidArgument, "device property " + key + ": not JSON");
    // One statement, so it is atomic without a transaction (and works inside the caller's); a corrupt
    // properties text is replaced, not kept.
    TS_TRY(Statement update,
        m_db.prepare(m_db.backend() == Backend::Postgres
                ? schema::kPostgresSetDeviceProperty
                : "UPDATE devices SET properties = json_set(CASE WHEN json_valid(properties) AND "
                  "json_type(properties) = 'object' THEN properties ELSE '{}' END, '$.' || ?, json(?)) "
                  "WHERE id = ?"));
    update.bindAll(key, parsed.dump(), deviceId);
    TS_CHECK(update.run());
    if (m_db.changes() == 0)
        return makeError(ErrorKind::NotFound, path() + ": no device " + std::to_string(deviceId));
    return {};
}

Expected<std::vector<Device>> Store::devices()
{
    TS_TRY(Statement s,
        m_db.prepare(
            "SELECT id, kind, name, target, target_host, hardware_params, properties FROM devices ORDER BY id"));
    return detail::collect(s, [](const Statement& row) {
        return Device { row.getInt(0), row.getText(1), row.getText(2), row.getText(3), row.getText(4),
            parseHardwareParams(row.getText(5)), row.getText(6) };
    });
}

} // namespace ts::store
