// Importing files as a new user drops them in: formats TuneScope does not import (MetaSchedule databases,
// compressed logs, databases) named in one line; files whose every line is rejected; malformed lines and
// foreign tasks grouped by reason; the summary's breakdown of what was added; two imports racing to create
// one workspace; export built from stored fields without re-parsing.
#include "tests/core/store_fixtures.h"

#include "core/store/file_format.h"
#include "core/store/importer.h"
#include "core/store/log_export.h"
#include "core/store/store.h"
#include "core/support/strings.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

namespace ts::store {
namespace {

    using namespace ts::store::test;
    using Json = nlohmann::json;

    const fs::path kData = fs::path(TS_TEST_DATA_DIR);
    const std::string kNotSupported = "; not supported: TuneScope imports auto_scheduler and AutoTVM logs";

    // The matmul log's record with another timestamp: a distinct record of a rebuildable task.
    std::string matmulLine(int64_t timestamp)
    {
        Json json = Json::parse(split(readAll((kLogs / "matmul.json").string()), '\n')[1]);
        json["r"][3] = timestamp;
        return json.dump();
    }

    std::string autoTvmLine(const std::string& task, const std::string& dataShape, double cost)
    {
        return R"({"input": ["llvm -keys=cpu", ")" + task + R"(", [["TENSOR", )" + dataShape
            + R"(, "float32"]], {}], "config": {"index": 1, "code_hash": null, "entity": [["tile_x", "sp", [-1, 4]]]}, )"
              R"("result": [[)"
            + std::to_string(cost) + R"(], 0, 0.5, 1676344759.5], "version": 0.2, "tvm_version": "0.10.0"})";
    }

    void expectStoreEmpty(Store& store)
    {
        EXPECT_EQ(store.recordCount().value(), 0);
        EXPECT_TRUE(store.tasks().value().empty());
        EXPECT_TRUE(store.devices().value().empty());
        EXPECT_TRUE(store.sources().value().empty());
    }

    // --- formats TuneScope does not import -------------------------------------------------------------------

    TEST(ImportFormats, MetaScheduleDatabasesAreNamedInOneLine)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const std::string records = (kData / "metaschedule" / "database_tuning_record.json").string();
        auto imported = importLog(store, records);
        ASSERT_FALSE(imported);
        EXPECT_EQ(imported.error().kind, ErrorKind::Unsupported);
        EXPECT_EQ(
            imported.error().message, records + ": a MetaSchedule tuning-record database (5 records)" + kNotSupported);

        const std::string workloads = (kData / "metaschedule" / "database_workload.json").string();
        imported = importLog(store, workloads);
        ASSERT_FALSE(imported);
        EXPECT_EQ(
            imported.error().message, workloads + ": a MetaSchedule workload database (3 workloads)" + kNotSupported);
        expectStoreEmpty(store);

        // One record of each, alone in a file, still says what it is (singular).
        const std::string one = dir.file("one_record.json");
        writeAll(one, split(readAll(records), '\n')[2] + "\n");
        EXPECT_EQ(importLog(store, one).error().message,
            one + ": a MetaSchedule tuning-record database (1 record)" + kNotSupported);
    }

    TEST(ImportFormats, CompressedFilesSayHowToOpenThem)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const std::string gz = dir.file("matmul.json.gz");
        writeAll(gz, readAll((kData / "matmul.json.gz").string()));
        auto imported = importLog(store, gz);
        ASSERT_FALSE(imported);
        EXPECT_EQ(imported.error().kind, ErrorKind::Unsupported);
        EXPECT_EQ(imported.error().message,
            gz + ": gzip-compressed; decompress it first (gunzip " + gz + ") and import " + dir.file("matmul.json"));
        // Without the .gz suffix there is no file name to suggest.
        const std::string renamed = dir.file("matmul.log");
        writeAll(renamed, readAll(gz));
        EXPECT_EQ(importLog(store, renamed).error().message,
            renamed + ": gzip-compressed; decompress it first (gunzip) and import the log inside");
        // xz, by its magic number.
        const std::string xz = dir.file("log.json.xz");
        writeAll(xz,
            std::string("\xfd"
                        "7zXZ\0\0\x04\xe6\xd6\xb4\x46",
                12));
        EXPECT_EQ(importLog(store, xz).error().message,
            xz + ": xz-compressed; decompress it first (unxz " + xz + ") and import " + dir.file("log.json"));
        expectStoreEmpty(store);
    }

    TEST(ImportFormats, SniffingTellsFilesApartByTheirFirstBytes)
    {
        auto format = [](std::string_view head, bool complete = true) { return sniffHead(head, complete).format; };
        EXPECT_EQ(format(""), FileFormat::Empty);
        EXPECT_EQ(format(std::string_view("\x1f\x8b\x08\x00", 4)), FileFormat::Gzip);
        EXPECT_EQ(format("PK\x03\x04rest"), FileFormat::Zip);
        EXPECT_EQ(format("BZh91AY&SY"), FileFormat::Bzip2);
        EXPECT_EQ(format("\x28\xb5\x2f\xfd\x04\x00"), FileFormat::Zstd);
        EXPECT_EQ(format(std::string_view("SQLite format 3\0 and more", 25)), FileFormat::Sqlite);
        // A TuneScope workspace is an SQLite database with application_id "TSdb".
        TempDir dir;
        {
            Store store = openOrDie(dir.file("w.tunescope"));
            ASSERT_TRUE(store.addDevice(Device { 0, "", "", "llvm", "", {}, "{}" }));
        }
        const std::string workspace = dir.file("w.tunescope");
        EXPECT_EQ(sniffFile(workspace).value().format, FileFormat::Workspace);
        Store store = openOrDie(dir.file("other.tunescope"));
        auto imported = importLog(store, workspace);
        ASSERT_FALSE(imported);
        EXPECT_NE(
            imported.error().message.find(workspace + ": a TuneScope workspace, not a TVM log"), std::string::npos)
            << imported.error().message;

        // TVM logs and text: TextLog; binary bytes say so.
        for (const std::string& name : kLogFiles) {
            const FileSniff log = sniffFile((kLogs / name).string()).value();
            EXPECT_EQ(log.format, FileFormat::TextLog) << name;
            EXPECT_FALSE(log.binary) << name;
        }
        EXPECT_EQ(format("[1, 2]\n[3, 4]\n"), FileFormat::TextLog);
        EXPECT_EQ(format("\n\n[\"123\",\"not base64!\"]\n"), FileFormat::TextLog);
        EXPECT_TRUE(sniffHead(std::string_view("\x7f"
                                               "ELF\x02\x01\x01\0\0\0",
                                  10),
            true)
                        .binary);
        EXPECT_FALSE(sniffHead("plain text\twith a tab\r\n", true).binary);

        // MetaSchedule lines after blank lines, and a first line longer than the head read.
        EXPECT_EQ(format("\n[\"4562872158423712035\",\"ewogICJyb290IjogMSwg\"]\n"), FileFormat::MetaScheduleWorkloads);
        const std::string longWorkload = "[\"4562872158423712035\",\"" + std::string(5000, 'Q');
        EXPECT_EQ(format(longWorkload, false), FileFormat::MetaScheduleWorkloads);
        EXPECT_EQ(format(longWorkload, true), FileFormat::TextLog); // the whole file: not valid JSON
        EXPECT_EQ(
            format("[12,[[[[\"GetBlock\",[],[\"C\",\"main\"],[\"b0\"]]", false), FileFormat::MetaScheduleTuningRecords);
        EXPECT_EQ(format("[0,[[[],[]],null,null,null]]"), FileFormat::MetaScheduleTuningRecords);
        EXPECT_EQ(format("[0,[[[],[]],null,null]]"), FileFormat::TextLog); // three fields, not four
    }

    // --- files whose every line is rejected ------------------------------------------------------------------

    TEST(ImportReports, AFileWhoseEveryLineIsRejectedFailsAndGroupsItsReasons)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        std::string text;
        for (int i = 0; i < 292; ++i)
            text += "[" + std::to_string(i) + ", 2]\n";
        const std::string lists = dir.file("lists.json");
        writeAll(lists, text);
        const ImportReport report = importOrDie(store, lists);
        EXPECT_TRUE(report.failed());
        EXPECT_EQ(report.malformed, 292);
        EXPECT_EQ(report.added, 0);
        EXPECT_EQ(report.summary(), lists + ": not a TVM log: none of its 292 lines is a record; nothing imported");
        ASSERT_EQ(report.issueGroups.size(), 1u);
        EXPECT_EQ(report.issueGroups[0].count, 292);
        EXPECT_EQ(report.issueLines(20),
            std::vector<std::string> {
                lists + ": 292 lines: a record must be a JSON object, got a list of 2 (lines 1-292)" });
        EXPECT_EQ(report.issues.size(), 292u); // one by one, as before
        expectStoreEmpty(store);

        // Binary data: one line says what it is; its lines' reasons are not listed.
        std::string binary = std::string("\x7f"
                                         "ELF\x02\x01\x01\0\0\0",
                                 10)
            + "\x01\x02\x03\n\xff\xfe\0garbage";
        const std::string junk = dir.file("junk.bin");
        writeAll(junk, binary);
        const ImportReport junkReport = importOrDie(store, junk);
        EXPECT_TRUE(junkReport.failed());
        EXPECT_EQ(junkReport.malformed, 2);
        EXPECT_EQ(
            junkReport.summary(), junk + ": binary data, not a TVM log (2 lines, none a record); nothing imported");
        EXPECT_TRUE(junkReport.issueLines(20).empty());

        // Comments and only malformed records.
        const std::string broken = dir.file("broken.json");
        writeAll(broken, "# a log\n{\"i\": 1}\n{\"i\": 2}\n");
        const ImportReport brokenReport = importOrDie(store, broken);
        EXPECT_TRUE(brokenReport.failed());
        EXPECT_EQ(
            brokenReport.summary(), broken + ": nothing imported: all 2 record lines are malformed (1 comment line)");

        // Not failures: an empty file, a file of comments, a file with one good record among bad lines, a file
        // of duplicates.
        const std::string empty = dir.file("empty.json");
        writeAll(empty, "");
        const ImportReport emptyReport = importOrDie(store, empty);
        EXPECT_FALSE(emptyReport.failed());
        EXPECT_EQ(emptyReport.summary(), empty + ": empty file, nothing to import");
        const std::string comments = dir.file("comments.json");
        writeAll(comments, "# nothing yet\n\n");
        EXPECT_FALSE(importOrDie(store, comments).failed());
        const std::string mixed = dir.file("mixed.json");
        writeAll(mixed, "[1, 2]\n" + matmulLine(1600000001) + "\n[3, 4]\n");
        const ImportReport mixedReport = importOrDie(store, mixed);
        EXPECT_FALSE(mixedReport.failed());
        EXPECT_EQ(mixedReport.added, 1);
        EXPECT_EQ(mixedReport.issueLines(20),
            std::vector<std::string> {
                mixed + ": 2 lines: a record must be a JSON object, got a list of 2 (lines 1, 3)" });
        const ImportReport again = importOrDie(store, mixed);
        EXPECT_EQ(again.added, 0);
        EXPECT_FALSE(again.failed());
    }

    TEST(ImportReports, IssueGroupsKeepRunsOfLinesAndTheListIsBounded)
    {
        IssueGroup group;
        for (int64_t line : { 1, 2, 3, 5, 7, 8 })
            group.add(line);
        EXPECT_EQ(group.count, 6);
        EXPECT_EQ(group.lineList(), "1-3, 5, 7-8");
        for (int64_t line : { 10, 12, 14, 16, 18 })
            group.add(line);
        EXPECT_EQ(group.count, 11);
        EXPECT_EQ(group.lineList(), "1-3, 5, 7-8, 10, 12, 14, ...");

        ImportReport report;
        report.path = "logs/a.json";
        report.lines = 30;
        report.records = 5;
        for (int i = 0; i < 5; ++i) {
            IssueGroup g;
            g.reason = "reason " + std::to_string(i);
            for (int64_t line = 1 + i * 5; line <= 5 + i * 5; ++line)
                g.add(line);
            report.issueGroups.push_back(g);
            report.malformed += g.count;
        }
        report.issueGroups[0].count = 1; // a reason met once is one line with its number
        report.issueGroups[0].ranges = { { 1, 1 } };
        report.malformed -= 4;
        const auto lines = report.issueLines(3);
        ASSERT_EQ(lines.size(), 3u);
        EXPECT_EQ(lines[0], "logs/a.json:1: reason 0");
        EXPECT_EQ(lines[1], "logs/a.json: 5 lines: reason 1 (lines 6-10)");
        EXPECT_EQ(lines[2], "logs/a.json: ... and 15 more malformed lines");
        EXPECT_EQ(report.issueLines(5).size(), 5u);
        EXPECT_EQ(report.issueLines(5).back(), "logs/a.json: 5 lines: reason 4 (lines 21-25)");
    }

    TEST(ImportReports, TooManyDistinctReasonsAreCountedNotKept)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        std::string text;
        for (int i = 0; i < 10; ++i)
            text += "{\"i\": [], \"x" + std::to_string(i) + "\": 1}\n"; // ten different unknown keys
        const std::string path = dir.file("keys.json");
        writeAll(path, text);
        ImportOptions options;
        options.maxIssuesKept = 4;
        const ImportReport report = importOrDie(store, path, options);
        EXPECT_EQ(report.malformed, 10);
        EXPECT_EQ(report.issues.size(), 4u);
        EXPECT_EQ(report.issueGroups.size(), 4u);
        const auto lines = report.issueLines(20);
        ASSERT_EQ(lines.size(), 5u);
        EXPECT_EQ(lines[0], path + ":1: unknown key \"x0\" (an auto_scheduler record has i, r, v)");
        EXPECT_EQ(lines[4], path + ": ... and 6 more malformed lines");
    }

    // --- what a successful import says -----------------------------------------------------------------------

    TEST(ImportReports, TheBreakdownCountsWhatWasAddedAndNamesTheFileByItsPath)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        const std::string resnet = (kLogs / "resnet-18-NHWC-B1.json").string();
        importOrDie(store, resnet);
        importOrDie(store, (kLogs / "matmul.json").string());
        // The 24 ResNet records and the matmul record again, and one new matmul record.
        const std::string matmul = split(readAll((kLogs / "matmul.json").string()), '\n')[1];
        fs::create_directories(dir.file("again"));
        const std::string path = dir.file("again/matmul.json");
        writeAll(path, readAll(resnet) + matmul + "\n" + matmulLine(1600000001) + "\n");
        const ImportReport report = importOrDie(store, path);
        EXPECT_EQ(report.added, 1);
        EXPECT_EQ(report.duplicates, 25);
        EXPECT_EQ(report.linked, 1);
        EXPECT_EQ(report.foreign, 0);
        EXPECT_EQ(report.summary(),
            path
                + ": 1 record added (1 linked to rebuildable tasks, 0 foreign), 25 tasks, 25 duplicates skipped, 2 "
                  "comment lines");
        // Two files of the same name in different folders are told apart.
        EXPECT_NE(report.summary().rfind(dir.file("again/"), 0), std::string::npos);
    }

    TEST(ImportReports, ForeignTaskNotesAreGroupedByReason)
    {
        TempDir dir;
        Store store = openOrDie(dir.file("w.tunescope"));
        std::string text;
        const std::vector<std::string> unknown
            = { "conv2d_winograd.cuda", "depthwise_conv2d_nchw.cuda", "batch_matmul.cuda", "pool.cuda", "softmax.x86" };
        for (size_t i = 0; i < unknown.size(); ++i)
            text += autoTvmLine(unknown[i], "[1, 64, 56, 56]", 0.001 * static_cast<double>(i + 1)) + "\n";
        // Two auto_scheduler tasks refused for their dtype, one for its argument count.
        Json ansor = Json::parse(matmulLine(1600000001));
        for (const char* key : { R"(["matmul_add", 8, 8, 8, "float16"])", R"(["matmul_add", 16, 16, 16, "float16"])",
                 R"(["matmul_add", 8, 8, "float32"])" }) {
            ansor["i"][0][0] = key;
            text += ansor.dump() + "\n";
        }
        const std::string path = dir.file("foreign.json");
        writeAll(path, text);
        const ImportReport report = importOrDie(store, path);
        EXPECT_EQ(report.added, 8);
        EXPECT_EQ(report.foreign, 8);
        EXPECT_EQ(report.format, "mixed");
        ASSERT_EQ(report.notes.size(), 3u) << join(report.notes, "\n");
        EXPECT_EQ(report.notes[0].rfind("5 tasks kept as foreign (conv2d_winograd.cuda, depthwise_conv2d_nchw.cuda, "
                                        "batch_matmul.cuda and 2 more): unknown workload '<name>' (known: matmul_add",
                      0),
            0u)
            << report.notes[0];
        EXPECT_EQ(report.notes[1],
            "2 tasks kept as foreign (matmul_add, matmul_add): workload <name>: dtype float16 "
            "(only float32)");
        EXPECT_EQ(report.notes[2], "matmul_add: kept as a foreign task: workload matmul_add takes 3 arguments, got 2");
    }

    // --- two imports racing to create one workspace ----------------------------------------------------------

    TEST(Workspace, TwoImportsStartedTogetherOnANewPathBothSucceed)
    {
        TempDir dir;
        const std::string log = (kLogs / "matmul.json").string();
        constexpr int kIterations = 40;
        for (int iteration = 0; iteration < kIterations; ++iteration) {
            const std::string path = dir.file("race" + std::to_string(iteration) + "/w.tunescope");
            int go[2];
            int errors[2];
            ASSERT_EQ(pipe(go), 0);
            ASSERT_EQ(pipe(errors), 0);
            pid_t children[2];
            for (pid_t& child : children) {
                child = fork();
                ASSERT_GE(child, 0);
                if (child == 0) {
                    // Both wait for the same byte-less signal (the write end closing), then open and import.
                    close(go[1]);
                    close(errors[0]);
                    char byte = 0;
                    (void)!read(go[0], &byte, 1);
                    auto report = [&]() -> Expected<ImportReport> {
                        TS_TRY(Store store, Store::open(path));
                        return importLog(store, log);
                    }();
                    if (!report) {
                        const std::string message = report.error().message + "\n";
                        (void)!write(errors[1], message.data(), message.size());
                        _exit(1);
                    }
                    _exit(report->added + report->duplicates == 1 ? 0 : 2);
                }
            }
            close(go[0]);
            close(errors[1]);
            close(go[1]); // start both
            std::string messages;
            char buffer[512];
            for (ssize_t n; (n = read(errors[0], buffer, sizeof(buffer))) > 0;)
                messages.append(buffer, static_cast<size_t>(n));
            close(errors[0]);
            for (pid_t child : children) {
                int status = 0;
                ASSERT_EQ(waitpid(child, &status, 0), child);
                ASSERT_TRUE(WIFEXITED(status));
                EXPECT_EQ(WEXITSTATUS(status), 0) << "iteration " << iteration << ": " << messages;
            }
            Store store = openOrDie(path);
            EXPECT_EQ(store.recordCount().value(), 1) << "iteration " << iteration;
            EXPECT_EQ(store.sources().value().size(), 1u);
            EXPECT_EQ(store.schemaVersion(), kSchemaVersion);
            ASSERT_TRUE(store.verify());
        }
    }

    // --- export from stored fields ---------------------------------------------------------------------------

    TEST(LogExport, AutoTvmArgsComeBackFromTheTaskKeyAsParsed)
    {
        // Floats in both of Python's spellings, nested lists, null, strings and kwargs.
        const std::string line
            = R"({"input": ["llvm -keys=cpu", "dense_pack.x86", [["TENSOR", [1, 512], "float32"], ["TENSOR", [1000, 512], "float32"], null, "float32", 0.5, 1e-07, [1.0, 2.25]], {"alpha": 1.5, "name": "x"}], )"
              R"("config": {"index": 3, "code_hash": null, "entity": [["tile_y", "sp", [-1, 1]]]}, "result": [[0.001], 0, 0.1, 1676344759.5], "version": 0.2})";
        const LogRecord parsed = parseLogLine(line).value().value();
        const AutoTvmTaskKey key = parseAutoTvmKey(parsed.workloadKey).value();
        EXPECT_EQ(key.name, "dense_pack.x86");
        EXPECT_EQ(key.args, parsed.autoTvmArgs);
        EXPECT_EQ(key.kwargs, parsed.autoTvmKwargs);
        EXPECT_NE(key.args.find("0.5, 1e-07, [1.0, 2.25]"), std::string::npos) << key.args;

        // Stored, exported, byte for byte.
        TempDir dir;
        const std::string path = dir.file("dense.log");
        writeAll(path, line + "\n");
        Store store = openOrDie(dir.file("w.tunescope"));
        ASSERT_EQ(importOrDie(store, path).added, 1);
        std::ostringstream out;
        ASSERT_EQ(exportLog(store, {}, out).value(), 1);
        EXPECT_EQ(out.str(), formatLogLine(parsed) + "\n");

        // A damaged key is reported with the record, not guessed at.
        TaskInfo task;
        task.key = R"(["dense_pack.x86", {"not": "a list"}, {}])";
        Record record;
        record.id = 7;
        record.kind = RecordKind::AutoTvm;
        auto rebuilt = toLogRecord(record, task, Device {});
        ASSERT_FALSE(rebuilt);
        EXPECT_EQ(rebuilt.error().message, "record 7: an AutoTVM task key must be [name, [args...], {kwargs}]");
    }

} // namespace
} // namespace ts::store
