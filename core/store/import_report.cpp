#include "core/store/import_report.h"

#include "core/support/strings.h"

namespace ts::store {

namespace {

    std::string plural(int64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

} // namespace

void IssueGroup::add(int64_t line)
{
    ++count;
    if (!ranges.empty() && ranges.back().second + 1 == line) {
        ranges.back().second = line;
        return;
    }
    if (ranges.size() < kMaxRanges && !moreRanges)
        ranges.emplace_back(line, line);
    else
        moreRanges = true;
}

std::string IssueGroup::lineList() const
{
    std::string out = join(ranges, ", ", [](const std::pair<int64_t, int64_t>& r) {
        return r.first == r.second ? std::to_string(r.first) : std::to_string(r.first) + "-" + std::to_string(r.second);
    });
    return moreRanges ? out + ", ..." : out;
}

bool ImportReport::failed() const { return !cancelled && records == 0 && malformed > 0; }

std::string ImportReport::summary() const
{
    if (cancelled)
        return path + ": cancelled, nothing imported";
    if (lines == 0)
        return path + ": empty file, nothing to import";
    if (failed()) {
        if (binary)
            return path + ": binary data, not a TVM log (" + plural(lines, "line")
                + ", none a record); nothing imported";
        if (comments == 0)
            return path + ": not a TVM log: none of its " + plural(lines, "line") + " is a record; nothing imported";
        return path + ": nothing imported: all " + plural(malformed, "record line") + " are malformed ("
            + plural(comments, "comment line") + ")";
    }
    std::string out = path + ": " + plural(added, "record") + " added";
    if (added > 0)
        out += " (" + std::to_string(linked) + " linked to rebuildable tasks, " + std::to_string(foreign) + " foreign)";
    out += ", " + plural(tasks, "task");
    if (duplicates > 0)
        out += ", " + plural(duplicates, "duplicate") + " skipped";
    if (malformed > 0)
        out += ", " + plural(malformed, "malformed line");
    if (comments > 0)
        out += ", " + plural(comments, "comment line");
    return out;
}

std::vector<std::string> ImportReport::issueLines(size_t maxLines) const
{
    std::vector<std::string> out;
    if ((failed() && binary) || maxLines == 0)
        return out;
    int64_t shown = 0;
    for (const IssueGroup& group : issueGroups) {
        if (out.size() + 1 == maxLines && group.count < malformed - shown)
            break; // keep the last line for "... and N more"
        if (group.count == 1)
            out.push_back(path + ":" + std::to_string(group.ranges.front().first) + ": " + group.reason);
        else
            out.push_back(path + ": " + std::to_string(group.count) + " lines: " + group.reason + " (lines "
                + group.lineList() + ")");
        shown += group.count;
        if (out.size() == maxLines)
            break;
    }
    if (shown < malformed)
        out.push_back(path + ": ... and " + plural(malformed - shown, "more malformed line"));
    return out;
}

std::vector<std::string> ImportReport::dataLines() const
{
    std::vector<std::string> out;
    if (added == 0)
        return out;
    std::string line = path + ": training data: " + std::to_string(replayed) + " of " + plural(added, "record")
        + (replayed == 1 ? " replays" : " replay") + " (" + plural(tasks, "task");
    if (hashTasks > 0)
        line += ", " + std::to_string(matchedTasks) + " of " + plural(hashTasks, "DAG-hash task")
            + " matched to model-zoo tasks";
    out.push_back(line + ")");
    for (const DataReason& r : notData)
        out.push_back(path + ":   " + plural(r.records, "record") + " (" + plural(r.tasks, "task") + "): " + r.reason
            + " (first: " + r.example + ")");
    return out;
}

} // namespace ts::store
