// import, export, stats: the workspace's record store from a shell (TVM logs in and out, per-task summary).
#include "app/cli/commands.h"
#include "core/engine/export_keys.h"
#include "core/measure/gpu_bundle.h"
#include "core/store/importer.h"
#include "core/store/log_export.h"
#include "core/store/tvm_log.h"
#include "core/store/work_queue.h"
#include "core/support/strings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace ts::cli {

const OptionSpec kWorkspaceOption { "workspace", "PATH",
    "the workspace: an SQLite file (default " + store::Store::defaultWorkspacePath()
        + ") or a PostgreSQL URL, postgresql://user@host[:port]/db" };

Expected<store::Store> openWorkspace(const Arguments& args, bool readOnly)
{
    store::OpenOptions options;
    options.readOnly = readOnly;
    return store::Store::open(args.value("workspace", store::Store::defaultWorkspacePath()), options);
}

Expected<std::vector<int64_t>> parseIds(const std::string& text, const std::string& what)
{
    std::vector<int64_t> ids;
    for (const std::string& part : split(text, ',')) {
        TS_TRY(int64_t id, parseInt(part, what));
        ids.push_back(id);
    }
    return ids;
}

namespace {

    int runImport(const Arguments& args)
    {
        if (args.positional().empty())
            return fail("import needs at least one log file\nusage: tunescope-cli import FILE... [--workspace PATH]",
                kExitUsage);
        auto workspace = openWorkspace(args, false);
        if (!workspace)
            return fail(workspace.error().message);
        constexpr size_t kIssueLinesShown = 20;
        int status = 0;
        for (const std::string& file : args.positional()) {
            auto report = store::importLog(*workspace, file);
            if (!report) {
                std::cerr << "tunescope-cli: " << report.error().message << "\n";
                status = kExitFailure;
                continue;
            }
            // A file that adds nothing because every line was rejected is a failure: said on stderr, exit 1.
            if (report->failed()) {
                std::cerr << "tunescope-cli: " << report->summary() << "\n";
                status = kExitFailure;
            } else {
                std::cout << report->summary() << "\n";
            }
            for (const std::string& line : report->issueLines(kIssueLinesShown))
                std::cerr << line << "\n";
            for (const std::string& line : report->dataLines())
                std::cout << line << "\n";
            for (const std::string& note : report->notes)
                std::cout << "  note: " << note << "\n";
        }
        return status;
    }

    // A tunescope-gpu-runner results file: each result completes the TVM record its bundle carried. The
    // records are written as a TVM log next to it (FILE.tvm.json, a log TVM reads too) and imported from
    // there, so the store sees what an imported TVM log gives it, and names that file as their source.
    int runImportResults(const Arguments& args)
    {
        if (args.positional().size() != 1)
            return fail("import-results needs one results file\nusage: tunescope-cli import-results FILE "
                        "[--workspace PATH]",
                kExitUsage);
        const std::string path = args.positional().front();
        std::ifstream in(path);
        if (!in)
            return fail("cannot read " + path);
        std::ostringstream log;
        int lineNumber = 0, records = 0, unrecorded = 0;
        std::string line;
        while (std::getline(in, line)) {
            ++lineNumber;
            if (line.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            auto result = measure::parseGpuResult(line);
            if (!result)
                return fail(path + ":" + std::to_string(lineNumber) + ": " + result.error().message);
            if (result->record.empty()) {
                ++unrecorded;
                continue;
            }
            auto record = store::parseLogLine(result->record);
            if (!record || !*record)
                return fail(path + ":" + std::to_string(lineNumber) + ": the result's record is not a TVM log line"
                    + (record ? std::string() : ": " + record.error().message));
            store::LogRecord r = **record;
            r.result = result->result;
            log << store::formatLogLine(r) << "\n";
            ++records;
        }
        if (records == 0)
            return fail(path + ": no result carries a record to import"
                + (unrecorded ? " (" + std::to_string(unrecorded) + " from bundles made without one)" : std::string()));
        auto workspace = openWorkspace(args, false);
        if (!workspace)
            return fail(workspace.error().message);
        const std::string tvmLog = path + ".tvm.json";
        {
            std::ofstream out(tvmLog);
            if (!(out << log.str()))
                return fail("cannot write " + tvmLog);
        }
        auto report = store::importLog(*workspace, tvmLog);
        if (!report)
            return fail(report.error().message);
        std::cout << report->summary() << "\n";
        if (unrecorded)
            std::cout << "  note: " << unrecorded << " results came from bundles made without a record; not imported\n";
        return report->failed() ? kExitFailure : 0;
    }

    int runExport(const Arguments& args)
    {
        if (!args.has("out"))
            return fail("--out FILE is required");
        auto workspace = openWorkspace(args, true);
        if (!workspace)
            return fail(workspace.error().message);
        store::RecordFilter filter;
        filter.okOnly = args.has("ok-only");
        if (args.has("task")) {
            auto ids = parseIds(args.value("task"), "--task");
            if (!ids)
                return fail(ids.error().message);
            filter.taskIds = *ids;
            auto tasks = workspace->tasks();
            if (!tasks)
                return fail(tasks.error().message);
            for (int64_t id : filter.taskIds)
                if (std::none_of(tasks->begin(), tasks->end(), [&](const store::TaskInfo& t) { return t.id == id; }))
                    return fail("--task " + std::to_string(id) + ": no such task in " + workspace->path()
                        + " (see 'tunescope-cli stats')");
        }
        for (const char* name : { "device", "session" }) {
            if (!args.has(name))
                continue;
            auto id = args.intValue(name, 0);
            if (!id)
                return fail(id.error().message);
            (std::string(name) == "device" ? filter.deviceId : filter.sessionId) = *id;
        }
        // Written next to the target and renamed into place, so a failed export leaves no half file.
        const std::string out = args.value("out");
        const std::string partial = out + ".partial";
        int64_t written = 0;
        {
            std::ofstream file(partial, std::ios::binary | std::ios::trunc);
            if (!file)
                return fail("cannot write " + partial);
            auto keys = engine::exportKeys(*workspace);
            if (!keys)
                return fail(keys.error().message);
            auto exported = store::exportLog(*workspace, filter, file, *keys);
            if (!exported) {
                std::filesystem::remove(partial);
                return fail(exported.error().message);
            }
            written = *exported;
            file.close();
            if (!file) {
                std::filesystem::remove(partial);
                return fail("writing " + partial + " failed");
            }
        }
        std::error_code ec;
        std::filesystem::rename(partial, out, ec);
        if (ec)
            return fail("cannot move " + partial + " to " + out + ": " + ec.message());
        std::cout << "exported " << written << " record" << (written == 1 ? "" : "s") << " to " << out << "\n";
        return 0;
    }

    int runStats(const Arguments& args)
    {
        auto workspace = openWorkspace(args, true);
        if (!workspace)
            return fail(workspace.error().message);
        if (args.has("check")) {
            auto verified = workspace->verify();
            if (!verified)
                return fail(verified.error().message);
            std::cout << workspace->path() << ": integrity check ok\n";
        }
        auto tasks = workspace->tasks();
        auto devices = workspace->devices();
        auto summaries = workspace->bestPerTask();
        auto sources = workspace->sources();
        for (const Error* e : { tasks ? nullptr : &tasks.error(), devices ? nullptr : &devices.error(),
                 summaries ? nullptr : &summaries.error(), sources ? nullptr : &sources.error() })
            if (e)
                return fail(e->message);
        std::map<int64_t, const store::TaskInfo*> taskById;
        std::map<int64_t, const store::Device*> deviceById;
        for (const store::TaskInfo& t : *tasks)
            taskById[t.id] = &t;
        for (const store::Device& d : *devices)
            deviceById[d.id] = &d;
        int64_t records = 0;
        int64_t failures = 0;
        for (const store::TaskSummary& s : *summaries) {
            records += s.records;
            failures += s.failures;
        }
        std::cout << "workspace " << workspace->path() << " (schema " << workspace->schemaVersion() << "): " << records
                  << " records, " << failures << " failed, " << tasks->size() << " tasks, " << devices->size()
                  << " devices, " << sources->size() << " imported files\n\n";
        auto clip = [](std::string text, size_t width) { // to width - 1 characters at most
            if (text.size() >= width)
                text = text.substr(0, width - 4) + "...";
            return text;
        };
        auto pad = [&](std::string text, size_t width) { // always at least one space after
            text = clip(std::move(text), width);
            text.resize(width, ' ');
            return text;
        };
        std::cout << pad("task", 6) << pad("workload", 40) << pad("device", 16) << pad("records", 9) << pad("failed", 8)
                  << pad("best ms", 12) << "GFLOP/s\n";
        for (const store::TaskSummary& s : *summaries) {
            const store::TaskInfo& task = *taskById.at(s.taskId);
            const std::string best = s.bestCost ? formatFixed(*s.bestCost * 1e3, 4) : "-";
            const std::string gflops
                = s.bestCost && task.flops > 0 ? formatFixed(task.flops / *s.bestCost / 1e9, 1) : "-";
            // A long name is clipped before the mark, so that a foreign task always says so.
            const std::string foreign = task.rebuildable ? "" : " (foreign)";
            std::cout << pad(std::to_string(task.id), 6) << pad(clip(task.name, 40 - foreign.size()) + foreign, 40)
                      << pad(deviceById.at(s.deviceId)->name, 16) << pad(std::to_string(s.records), 9)
                      << pad(std::to_string(s.failures), 8) << pad(best, 12) << gflops << "\n";
        }
        return 0;
    }

    // A whole workspace into a new one, SQLite to PostgreSQL or back: ids kept, then both sides checked.
    int runCopyWorkspace(const Arguments& args)
    {
        if (args.positional().size() != 2)
            return fail("copy-workspace needs FROM and TO\nusage: tunescope-cli copy-workspace FROM TO", kExitUsage);
        const std::string& fromName = args.positional()[0];
        const std::string& toName = args.positional()[1];
        // FROM is only read; an older schema is refused by copyFrom (any other command migrates it first).
        auto from = store::Store::open(fromName, store::OpenOptions { .readOnly = true });
        if (!from)
            return fail(from.error().message);
        auto to = store::Store::open(toName);
        if (!to)
            return fail(to.error().message);
        auto copied = to->copyFrom(*from);
        if (!copied)
            return fail(copied.error().message);
        std::cout << "copied " << from->path() << " -> " << to->path() << ":";
        for (const auto& [table, rows] : *copied)
            std::cout << " " << rows << " " << table;
        std::cout << "\n";
        // What stats --check runs, on both sides, and the summaries compared.
        for (store::Store* side : { &*from, &*to }) {
            auto verified = side->verify();
            if (!verified)
                return fail(verified.error().message);
        }
        auto a = from->bestPerTask();
        auto b = to->bestPerTask();
        if (!a || !b)
            return fail(!a ? a.error().message : b.error().message);
        const bool same = a->size() == b->size() && std::equal(a->begin(), a->end(), b->begin(), [](auto& x, auto& y) {
            return x.taskId == y.taskId && x.deviceId == y.deviceId && x.records == y.records
                && x.failures == y.failures && x.bestRecordId == y.bestRecordId && x.bestCost == y.bestCost;
        });
        if (!same)
            return fail("the copy's per-task summary differs from the original's");
        std::cout << "integrity check ok on both; " << b->size() << " (task, device) summaries equal\n";
        return 0;
    }

    // The workers of a PostgreSQL workspace: what each measures now and its throughput.
    int runWorkers(const Arguments& args)
    {
        auto queue = store::WorkQueue::open(args.value("workspace", store::Store::defaultWorkspacePath()));
        if (!queue)
            return fail(queue.error().message);
        if (args.has("prune")) {
            const auto hours = args.intValue("prune", 0);
            if (!hours)
                return fail(hours.error().message);
            if (*hours < 0)
                return fail("--prune: hours must be 0 or more, not " + std::to_string(*hours));
            auto pruned = queue->prune(static_cast<double>(*hours) * 3600.0);
            if (!pruned)
                return fail(pruned.error().message);
            std::cout << "pruned " << pruned->rows << " finished queue rows and " << pruned->workers
                      << " workers not seen for " << *hours << " h\n";
        }
        auto workers = queue->workers();
        if (!workers)
            return fail(workers.error().message);
        std::cout << workers->size() << " workers on " << queue->path() << "\n";
        const double now = record::unixNow();
        for (const store::WorkerInfo& w : *workers) {
            const double seconds = std::max(1e-3, w.lastSeen - w.startedAt);
            std::cout << "  " << w.id << "  " << w.name << "  " << w.state << "  " << w.measured << " measured ("
                      << w.failed << " failed), " << formatFixed(60.0 * static_cast<double>(w.measured) / seconds, 1)
                      << "/min, seen " << formatFixed(now - w.lastSeen, 0) << " s ago"
                      << (w.current.empty() ? "" : ", now: " + w.current) << "\n";
        }
        return 0;
    }

} // namespace

std::vector<Command> storeCommands()
{
    return {
        { "import", "import TVM auto_scheduler / AutoTVM logs into the workspace",
            "tunescope-cli import FILE... [--workspace PATH]", { kWorkspaceOption, kHelpOption }, runImport, true },
        { "import-results", "import tunescope-gpu-runner results (their bundles' records) into the workspace",
            "tunescope-cli import-results FILE [--workspace PATH]", { kWorkspaceOption, kHelpOption }, runImportResults,
            true },
        { "export", "export records as TVM logs (auto_scheduler v0.6, AutoTVM v0.2)",
            "tunescope-cli export --out FILE [--task ID[,ID...]] [--device ID] [--session ID] [--ok-only] "
            "[--workspace PATH]",
            { { "out", "FILE", "the log file to write" },
                { "task", "IDS", "only these tasks (ids from 'tunescope-cli stats')" },
                { "device", "ID", "only this device" }, { "session", "ID", "only this tuning session" },
                { "ok-only", "", "only successful measurements" }, kWorkspaceOption, kHelpOption },
            runExport },
        { "stats", "per task: records, failures, best cost and GFLOP/s, device",
            "tunescope-cli stats [--check] [--workspace PATH]",
            { { "check", "", "also run the integrity check (SQLite's quick_check; on PostgreSQL, the summaries)" },
                kWorkspaceOption, kHelpOption },
            runStats },
        { "workers", "the measurement workers of a PostgreSQL workspace: state, what each measures, throughput",
            "tunescope-cli workers [--prune HOURS] --workspace postgresql://...",
            { { "prune", "HOURS",
                  "first delete the queue rows that no session needs any more, and the workers not seen, older than "
                  "this" },
                kWorkspaceOption, kHelpOption },
            runWorkers },
        { "copy-workspace", "copy a workspace into a new one: SQLite file <-> postgresql:// URL, ids kept",
            "tunescope-cli copy-workspace FROM TO", { kHelpOption }, runCopyWorkspace, true },
    };
}

} // namespace ts::cli
