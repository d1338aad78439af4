// Line diffs for the code view: what changed between two listings (two states' loop IR or steps, or a loop
// nest before and after one more step). Myers' O((N+M)D) algorithm ("An O(ND) Difference Algorithm and Its
// Variations", 1986) on whole lines, after the common head and tail are trimmed; it finds a shortest edit
// script, so a line that is in both texts is never reported as removed and added. Plain data, no Qt.
//
// Edit distances above kMaxDiffEdits (two listings that share almost nothing) are not searched: the middle
// is reported as all removed, then all added, which is still a correct (if not minimal) script.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ts::models {

inline constexpr int kMaxDiffEdits = 2000;

enum class DiffOp { Same, Removed, Added };

struct DiffLine {
    DiffOp op = DiffOp::Same;
    int before = -1; // 0-based line in the old text; -1 for an added line
    int after = -1; // 0-based line in the new text; -1 for a removed line
    std::string text;
    bool operator==(const DiffLine&) const = default;
};

// "a\nb\n" -> {"a", "b"}; a last line without '\n' counts; "" -> {}.
std::vector<std::string> splitLines(std::string_view text);

// The edit script from `before` to `after`, in order: every line of both, Same lines once.
std::vector<DiffLine> diffLines(const std::vector<std::string>& before, const std::vector<std::string>& after);

// A unified diff ("--- name\n+++ name\n@@ -1,4 +1,5 @@\n a\n-b\n+c\n") with `context` unchanged lines
// around each change; "" when the texts have the same lines.
std::string unifiedDiff(std::string_view before, std::string_view after, std::string_view beforeName,
    std::string_view afterName, int context = 3);

// The 0-based lines of `after` that are not in `before` (its added lines).
std::vector<int> addedLines(std::string_view before, std::string_view after);

} // namespace ts::models
