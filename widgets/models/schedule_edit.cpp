#include "widgets/models/schedule_edit.h"

#include "core/lower/lower.h"
#include "core/schedule/step_json.h"
#include "core/schedule/step_printer.h"
#include "core/support/strings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <sstream>

namespace ts::models {

namespace {
    using Json = nlohmann::json;
    constexpr size_t kNone = std::string_view::npos;

    bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

    size_t skipSpace(std::string_view text, size_t pos)
    {
        while (pos < text.size() && isSpace(text[pos]))
            ++pos;
        return pos;
    }

    int lineAt(std::string_view text, size_t pos)
    {
        return static_cast<int>(std::count(text.begin(), text.begin() + long(std::min(pos, text.size())), '\n'));
    }

    TextSpan lineSpan(std::string_view text, size_t pos)
    {
        pos = std::min(pos, text.size());
        const size_t begin = pos == 0 ? 0 : text.rfind('\n', pos - 1) + 1; // npos + 1 is 0
        size_t end = text.find('\n', pos);
        if (end == kNone)
            end = text.size();
        return { int(begin), int(end - begin) };
    }

    TextSpan trimmed(std::string_view text, size_t begin, size_t end)
    {
        while (begin < end && isSpace(text[begin]))
            ++begin;
        while (end > begin && isSpace(text[end - 1]))
            --end;
        return { int(begin), int(end - begin) };
    }

    // The end (one past its `]`) of the array that opens at `open`, with its top-level elements; kNone when it is
    // not closed. Brackets inside strings do not count.
    size_t matchArray(std::string_view text, size_t open, std::vector<TextSpan>& fields)
    {
        int depth = 0;
        bool inString = false;
        size_t elementStart = open + 1;
        for (size_t i = open; i < text.size(); ++i) {
            const char c = text[i];
            if (inString) {
                if (c == '\\')
                    ++i;
                else if (c == '"')
                    inString = false;
                continue;
            }
            if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                ++depth;
            } else if (c == ']' || c == '}') {
                if (--depth == 0) {
                    if (const TextSpan last = trimmed(text, elementStart, i); last.length > 0 || !fields.empty())
                        fields.push_back(last);
                    return i + 1;
                }
            } else if (c == ',' && depth == 1) {
                fields.push_back(trimmed(text, elementStart, i));
                elementStart = i + 1;
            }
        }
        return kNone;
    }

    // The JSON as a person writes it: `["SP", 2, 0, 64, [4, 16], 1]` (nlohmann's dump has no spaces).
    std::string format(const Json& json)
    {
        if (!json.is_array())
            return json.dump();
        std::string out = "[";
        for (size_t i = 0; i < json.size(); ++i)
            out += (i ? ", " : "") + format(json[i]);
        return out + "]";
    }

    // The field a step parse error names ("... field 3 is not an integer"), the code for an unknown one, or -1.
    int parseErrorField(const std::string& message)
    {
        static const std::regex field("field ([0-9]+)");
        std::smatch m;
        if (std::regex_search(message, m, field))
            return std::stoi(m[1].str());
        if (message.find("unknown step code") != std::string::npos
            || message.find("is not [\"CODE\"") != std::string::npos)
            return 0;
        return -1;
    }

    std::optional<int> numberAfter(const std::string& message, const char* pattern)
    {
        const std::regex re(pattern);
        std::smatch m;
        if (std::regex_search(message, m, re))
            return std::stoi(m[1].str());
        return std::nullopt;
    }

    // The code in a step's first field ("SP"), or "" when it is not a string.
    std::string codeOf(std::string_view text, const std::vector<TextSpan>& fields)
    {
        if (fields.empty())
            return {};
        const Json code = Json::parse(text.substr(size_t(fields[0].start), size_t(fields[0].length)), nullptr, false);
        return code.is_string() ? code.get<std::string>() : std::string();
    }

    void printStage(std::ostringstream& os, std::vector<LoopNestLine>& lines, const sched::State& state, int stageId,
        size_t baseIndent)
    {
        // The same walk and text as State::toString's (schedule/state.cpp), remembering each line's loop.
        const sched::Stage& stage = state.stage(stageId);
        if (stage.autoUnrollMaxStep != 0) {
            os << std::string(baseIndent, ' ') << stage.op->name() << " auto_unroll: " << stage.autoUnrollMaxStep
               << "\n";
            lines.push_back({ stageId, -1 });
        }
        for (const sched::StorageAlign& align : stage.storageAligns) {
            os << std::string(baseIndent, ' ') << stage.op->name() << " storage_align: axis " << align.axis
               << " factor " << align.factor << " offset " << align.offset << "\n";
            lines.push_back({ stageId, -1 });
        }
        size_t indent = 0;
        for (size_t i = 0; i < stage.iters.size(); ++i) {
            const sched::Iterator& it = stage.iters[i];
            if (it.extent != 1) {
                os << std::string(baseIndent + indent, ' ') << sched::toString(it.annotation) << ' ' << it.name;
                if (it.extent >= 0)
                    os << " (0," << it.extent << ")\n";
                else if (stage.nodes[static_cast<size_t>(it.node)].extent < 0)
                    os << " (0,?)\n";
                else
                    os << " (None)\n";
                lines.push_back({ stageId, static_cast<int>(i) });
                indent += 2;
            }
            for (int attached : state.attachedAt(stageId, static_cast<int>(i)))
                printStage(os, lines, state, attached, baseIndent + indent);
        }
        os << std::string(baseIndent + indent, ' ') << stage.op->name() << " = ...\n";
        lines.push_back({ stageId, -1 });
    }
} // namespace

std::string editText(const std::vector<sched::Step>& steps)
{
    std::string out = "[\n";
    for (size_t i = 0; i < steps.size(); ++i)
        out += "  " + format(sched::stepToJson(steps[i])) + (i + 1 < steps.size() ? ",\n" : "\n");
    return out + "]\n";
}

ParsedEdit parseEditText(std::string_view text)
{
    ParsedEdit out;
    auto fail = [&](int step, size_t at, std::string message) {
        EditError error;
        error.step = step;
        error.line = lineAt(text, at);
        error.span = lineSpan(text, at);
        error.message = std::move(message);
        out.error = std::move(error);
    };
    size_t pos = skipSpace(text, 0);
    bool wrapped = false;
    if (pos < text.size() && text[pos] == '[') {
        const size_t next = skipSpace(text, pos + 1);
        if (next >= text.size() || text[next] == '[' || text[next] == ']') {
            wrapped = true;
            pos = next;
        }
    }
    bool closed = false;
    for (;;) {
        pos = skipSpace(text, pos);
        if (pos >= text.size()) {
            if (wrapped && !closed)
                fail(-1, text.empty() ? 0 : text.size() - 1,
                    "the list of steps is not closed: a last line ] is missing");
            break;
        }
        const char c = text[pos];
        if (closed) {
            fail(-1, pos, "text after the list's closing ]");
            break;
        }
        if (c == ']' && wrapped) {
            closed = true;
            ++pos;
            continue;
        }
        if (c == ',' && !out.steps.empty()) { // between steps
            ++pos;
            continue;
        }
        const int index = static_cast<int>(out.steps.size());
        if (c != '[') {
            fail(index, pos,
                std::string("expected a step such as [\"SP\", 2, 0, 64, [4, 16], 1] here, found '") + c + "'");
            break;
        }
        StepText step;
        const size_t end = matchArray(text, pos, step.fields);
        if (end == kNone) {
            fail(index, pos, "the step is not closed: a ] is missing");
            break;
        }
        step.line = lineAt(text, pos);
        step.span = { int(pos), int(end - pos) };
        const Json json = Json::parse(text.substr(pos, end - pos), nullptr, false);
        if (json.is_discarded()) {
            fail(index, pos, "the step is not valid JSON");
            out.error->span = step.span;
            for (size_t f = 0; f < step.fields.size(); ++f) {
                const TextSpan& span = step.fields[f];
                if (Json::parse(text.substr(size_t(span.start), size_t(span.length)), nullptr, false).is_discarded()) {
                    out.error->field = static_cast<int>(f);
                    out.error->fieldName = fieldName(codeOf(text, step.fields), out.error->field);
                    out.error->span = span;
                    out.error->message = "field " + std::to_string(f) + " is not valid JSON";
                    break;
                }
            }
            break;
        }
        auto parsed = sched::stepFromJson(json);
        if (!parsed) {
            std::string message = parsed.error().message;
            // The parser's own message starts with the step's JSON, which the editor shows anyway.
            const std::string prefix = "step " + json.dump().substr(0, 120) + ": ";
            if (message.starts_with(prefix))
                message.erase(0, prefix.size());
            fail(index, pos, message);
            out.error->span = step.span;
            const int field = parseErrorField(parsed.error().message);
            if (field >= 0 && field < static_cast<int>(step.fields.size())) {
                out.error->field = field;
                out.error->fieldName = fieldName(codeOf(text, step.fields), field);
                out.error->span = step.fields[size_t(field)];
            }
            break;
        }
        step.step = std::move(parsed).value();
        out.steps.push_back(std::move(step));
        pos = end;
    }
    return out;
}

std::string fieldName(std::string_view code, int field)
{
    static const std::vector<std::pair<std::string_view, std::vector<const char*>>> names = {
        { "AN", { "stage", "iterator", "annotation" } },
        { "FU", { "stage", "fused iterators" } },
        { "PR", { "stage", "iterator", "pragma" } },
        { "RE", { "stage", "iterator order" } },
        { "SP", { "stage", "iterator", "extent", "lengths", "inner_to_outer" } },
        { "FSP", { "stage", "iterator", "source step", "n_split" } },
        { "FFSP", { "stage", "iterator", "source steps", "level", "factor_or_nparts" } },
        { "SA", { "stage", "iterator", "factor", "offset" } },
        { "CA", { "stage", "target stage", "target iterator" } },
        { "CI", { "stage" } },
        { "CR", { "stage" } },
        { "CHR", { "stage", "scope", "reader stages" } },
        { "CHW", { "stage", "scope" } },
        { "RF", { "stage", "iterator", "factor iterator" } },
    };
    if (field == 0)
        return "code";
    for (const auto& [name, fields] : names)
        if (name == code && field >= 1 && field <= static_cast<int>(fields.size()))
            return fields[size_t(field - 1)];
    return {};
}

int errorField(const sched::Step& step, const std::string& message)
{
    const std::string_view code = sched::stepCode(step);
    const auto has = [&](const char* what) { return message.find(what) != std::string::npos; };
    if (const auto iter = numberAfter(message, "iterator (-?[0-9]+) out of range")) {
        if (std::holds_alternative<sched::ComputeAtStep>(step))
            return 3;
        if (const auto* rf = std::get_if<sched::RfactorStep>(&step))
            return rf->iterId != *iter && rf->factorIterId == *iter ? 3 : 2;
        return 2; // every other step names its iterator (or its list of them) in field 2
    }
    if (has("no such stage") || has("is a placeholder")) {
        const auto stage = numberAfter(message, "\\): stage (-?[0-9]+)");
        if (const auto* ca = std::get_if<sched::ComputeAtStep>(&step))
            return stage && *stage == ca->targetStageId && *stage != ca->stageId ? 2 : 1;
        return 1;
    }
    if (code == "SP" && has("the step says"))
        return 3;
    if (code == "SP" && (has("split length") || has("without lengths")))
        return 4;
    if ((code == "FSP" || code == "FFSP") && has("source step"))
        return 3;
    if (code == "AN" && (has("unknown annotation") || has("cannot parallelize") || has("already annotated")))
        return 3;
    if (code == "FU" && has("fused iterators"))
        return 2;
    if (code == "PR" && has("pragma"))
        return 3;
    if (code == "CA" && (has("at itself") || has("the target stage")))
        return 2;
    return -1;
}

LoopNestListing loopNestListing(const sched::State& state)
{
    LoopNestListing out;
    auto bound = lower::inferBound(state);
    out.shown = std::make_shared<const sched::State>(bound ? std::move(bound).value() : state);
    const sched::State& shown = *out.shown;
    std::ostringstream os;
    std::vector<std::string> placeholders;
    for (int i = 0; i < shown.numStages(); ++i)
        if (shown.stage(i).isPlaceholder())
            placeholders.push_back(shown.stage(i).op->name());
    os << "Placeholder: " << join(placeholders, ", ") << "\n";
    out.lines.push_back({});
    for (int i = 0; i < shown.numStages(); ++i)
        if (!shown.stage(i).isPlaceholder() && shown.stage(i).computeAt == sched::ComputeAtKind::Root)
            printStage(os, out.lines, shown, i, 0);
    out.text = os.str();
    return out;
}

TextInsertion appendStepText(std::string_view text, const sched::Step& step)
{
    const std::string json = format(sched::stepToJson(step));
    const ParsedEdit parsed = parseEditText(text);
    if (!parsed.steps.empty()) {
        const StepText& last = parsed.steps.back();
        const TextSpan line = lineSpan(text, size_t(last.span.start));
        const size_t indent
            = skipSpace(text.substr(0, size_t(last.span.start)), size_t(line.start)) - size_t(line.start);
        return { last.span.start + last.span.length, ",\n" + std::string(indent, ' ') + json };
    }
    const size_t open = skipSpace(text, 0);
    if (open < text.size() && text[open] == '[')
        return { int(open + 1), "\n  " + json };
    return { int(text.size()), "[\n  " + json + "\n]\n" };
}

EditOutcome replayEdit(const EditRequest& request, const std::stop_token& stop)
{
    EditOutcome out;
    out.text = request.text;
    out.parsed = parseEditText(request.text);
    if (out.parsed.error) {
        out.error = out.parsed.error;
        return out;
    }
    const graph::Task& task = *request.task;
    sched::State state = sched::State::initial(task.dag);
    for (size_t i = 0; i < out.parsed.steps.size(); ++i) {
        if (stop.stop_requested())
            return out;
        const StepText& step = out.parsed.steps[i];
        if (auto applied = state.apply(step.step); !applied) {
            EditError error;
            error.step = static_cast<int>(i);
            error.line = step.line;
            error.message = applied.error().message;
            error.field = errorField(step.step, error.message);
            // "step 13 (AN): stage 2 ...": the editor names the step and its line itself.
            const std::string prefix = "step " + std::to_string(i) + " (" + sched::stepCode(step.step) + "): ";
            if (error.message.starts_with(prefix))
                error.message.erase(0, prefix.size());
            error.span = step.span;
            if (error.field >= 0 && error.field < static_cast<int>(step.fields.size())) {
                error.fieldName = fieldName(sched::stepCode(step.step), error.field);
                error.span = step.fields[size_t(error.field)];
            } else {
                error.field = -1;
            }
            out.error = std::move(error);
            return out;
        }
    }
    out.state = std::make_shared<const sched::State>(state);
    out.loopNest = loopNestListing(state);
    out.calls = sched::printStepsAsCalls(task.dag, state.steps());
    if (stop.stop_requested())
        return out;
    const RecordLowering lowering = loweringFor(request.target, request.recordId, request.workspace);
    const target::Target& target = lowering.target;
    lower::LowerOptions options;
    options.target = target;
    options.layoutRewrite = lowering.layoutRewrite;
    auto func = lower::lower(state, options);
    if (!func) {
        out.loopIr.error = func.error().message;
        out.scores.note = "the state does not lower";
        return out;
    }
    out.loopIr.text = lower::toString(*func);
    out.scores = scoreStages(task, state, target, request.scoreSource);
    out.loopIrScored = annotateScores(out.loopIr.text, out.scores);
    return out;
}

} // namespace ts::models
