#include "widgets/models/line_diff.h"

#include <algorithm>

namespace ts::models {

namespace {
    // Myers' greedy forward search on a[0..n) and b[0..m), then a walk back through the saved frontiers.
    // Appends the middle's script to `out`; indices are offset by `base` (the trimmed common head).
    void myers(const std::vector<std::string>& a, const std::vector<std::string>& b, int base, int n, int m,
        std::vector<DiffLine>& out)
    {
        auto same = [&](int x, int y) { return a[size_t(base + x)] == b[size_t(base + y)]; };
        const int max = n + m;
        // v[k + offset]: the furthest x on diagonal k = x - y; trace[d] holds v for k in [-d, d] before step d.
        const int offset = max + 1;
        std::vector<int> v(size_t(2 * max + 3), 0);
        std::vector<std::vector<int>> trace;
        int found = -1;
        for (int d = 0; d <= std::min(max, kMaxDiffEdits) && found < 0; ++d) {
            trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
            for (int k = -d; k <= d; k += 2) {
                int x = (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                    ? v[size_t(offset + k + 1)]
                    : v[size_t(offset + k - 1)] + 1;
                int y = x - k;
                while (x < n && y < m && same(x, y))
                    ++x, ++y;
                v[size_t(offset + k)] = x;
                if (x >= n && y >= m) {
                    found = d;
                    break;
                }
            }
        }
        std::vector<DiffLine> middle;
        if (found < 0) {
            // Too different to search: all of the old middle removed, then all of the new one added.
            for (int x = 0; x < n; ++x)
                out.push_back({ DiffOp::Removed, base + x, -1, a[size_t(base + x)] });
            for (int y = 0; y < m; ++y)
                out.push_back({ DiffOp::Added, -1, base + y, b[size_t(base + y)] });
            return;
        }
        int x = n;
        int y = m;
        for (int d = found; d > 0; --d) {
            const std::vector<int>& frontier = trace[size_t(d)]; // v after step d - 1, for k in [-d, d]
            auto at = [&](int k) { return frontier[size_t(k + d)]; };
            const int k = x - y;
            const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
            const int prevK = down ? k + 1 : k - 1;
            const int prevX = at(prevK);
            const int prevY = prevX - prevK;
            while (x > prevX && y > prevY) { // the snake after the move
                --x, --y;
                middle.push_back({ DiffOp::Same, base + x, base + y, a[size_t(base + x)] });
            }
            if (down)
                middle.push_back({ DiffOp::Added, -1, base + prevY, b[size_t(base + prevY)] });
            else
                middle.push_back({ DiffOp::Removed, base + prevX, -1, a[size_t(base + prevX)] });
            x = prevX;
            y = prevY;
        }
        while (x > 0 && y > 0) {
            --x, --y;
            middle.push_back({ DiffOp::Same, base + x, base + y, a[size_t(base + x)] });
        }
        out.insert(out.end(), middle.rbegin(), middle.rend());
    }
} // namespace

std::vector<std::string> splitLines(std::string_view text)
{
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.emplace_back(text.substr(start));
            break;
        }
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::vector<DiffLine> diffLines(const std::vector<std::string>& before, const std::vector<std::string>& after)
{
    const size_t na = before.size();
    const size_t nb = after.size();
    size_t head = 0;
    while (head < na && head < nb && before[head] == after[head])
        ++head;
    size_t tail = 0;
    while (tail < na - head && tail < nb - head && before[na - 1 - tail] == after[nb - 1 - tail])
        ++tail;
    std::vector<DiffLine> out;
    out.reserve(std::max(na, nb) + 8);
    for (size_t i = 0; i < head; ++i)
        out.push_back({ DiffOp::Same, int(i), int(i), before[i] });
    myers(before, after, int(head), int(na - head - tail), int(nb - head - tail), out);
    for (size_t i = tail; i > 0; --i)
        out.push_back({ DiffOp::Same, int(na - i), int(nb - i), before[na - i] });
    return out;
}

std::string unifiedDiff(std::string_view before, std::string_view after, std::string_view beforeName,
    std::string_view afterName, int context)
{
    const std::vector<DiffLine> script = diffLines(splitLines(before), splitLines(after));
    std::vector<size_t> changes;
    for (size_t i = 0; i < script.size(); ++i)
        if (script[i].op != DiffOp::Same)
            changes.push_back(i);
    if (changes.empty())
        return {};
    // Lines of each text before script entry i.
    std::vector<int> oldPos(script.size() + 1, 0);
    std::vector<int> newPos(script.size() + 1, 0);
    for (size_t i = 0; i < script.size(); ++i) {
        oldPos[i + 1] = oldPos[i] + (script[i].op != DiffOp::Added ? 1 : 0);
        newPos[i + 1] = newPos[i] + (script[i].op != DiffOp::Removed ? 1 : 0);
    }
    std::string out = "--- " + std::string(beforeName) + "\n+++ " + std::string(afterName) + "\n";
    const size_t ctx = static_cast<size_t>(std::max(0, context));
    size_t c = 0;
    while (c < changes.size()) {
        // A hunk: changes closer than two contexts apart, with the context around them.
        size_t last = c;
        while (last + 1 < changes.size() && changes[last + 1] - changes[last] <= 2 * ctx + 1)
            ++last;
        const size_t from = changes[c] >= ctx ? changes[c] - ctx : 0;
        const size_t to = std::min(script.size(), changes[last] + ctx + 1);
        const int oldCount = oldPos[to] - oldPos[from];
        const int newCount = newPos[to] - newPos[from];
        out += "@@ -" + std::to_string(oldCount ? oldPos[from] + 1 : oldPos[from]) + "," + std::to_string(oldCount)
            + " +" + std::to_string(newCount ? newPos[from] + 1 : newPos[from]) + "," + std::to_string(newCount)
            + " @@\n";
        for (size_t i = from; i < to; ++i) {
            out += script[i].op == DiffOp::Same ? ' ' : script[i].op == DiffOp::Removed ? '-' : '+';
            out += script[i].text;
            out += '\n';
        }
        c = last + 1;
    }
    return out;
}

std::vector<int> addedLines(std::string_view before, std::string_view after)
{
    std::vector<int> added;
    for (const DiffLine& line : diffLines(splitLines(before), splitLines(after)))
        if (line.op == DiffOp::Added)
            added.push_back(line.after);
    return added;
}

} // namespace ts::models
