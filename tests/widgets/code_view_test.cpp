// The Code view on real schedules: TVM's matmul_add record (13 steps, from tests/data/tvm-logs) lowered,
// compiled to LLVM IR and assembly in a job; a fast reselect shows only the newest state; stepping through
// starts at the initial loop nest and ends at the Loop nest tab; the diff of two states and of a state with
// itself; per-stage scores from the analytical model, and from the XGBoost model a real short session saved.
// Also the Qt-free helpers the view is built on: the line diff (against an LCS computed by dynamic
// programming) and the stage marks the DAG view shows.
#include "session_fixture.h"

#include "app/gui/code_view.h"
#include "app/gui/task_dag_view.h"
#include "app/gui/view_registry.h"
#include "core/lower/lower.h"
#include "core/schedule/step_json.h"
#include "core/store/importer.h"
#include "core/store/schedule_source.h"
#include "core/store/store.h"
#include "widgets/models/code_listing.h"
#include "widgets/models/line_diff.h"
#include "widgets/models/stage_marks.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace ts;
using app::CodeView;

namespace {

std::string dataPath(const std::string& name) { return std::string(TS_TEST_DATA_DIR) + "/" + name; }

struct Schedule {
    std::shared_ptr<const graph::Task> task;
    std::shared_ptr<const sched::State> state;
};

Schedule fromResolved(store::ResolvedSchedule resolved)
{
    auto task = std::make_shared<graph::Task>();
    task->name = resolved.name;
    task->dag = resolved.dag;
    task->flops = resolved.flops;
    return { task, std::make_shared<const sched::State>(resolved.state) };
}

// matmul_add 1024^3 from TVM's tutorial log: SP SP SP RE FSP FSP RE CA FU AN PR AN AN.
Schedule tvmMatmulAdd()
{
    store::ScheduleSource source;
    source.what = store::RecordRef { dataPath("tvm-logs/matmul.json"), 2 };
    auto resolved = store::resolveSchedule(source);
    if (!resolved)
        qFatal("%s", resolved.error().message.c_str());
    return fromResolved(std::move(resolved).value());
}

// The same DAG and task with only the first `count` steps.
Schedule prefix(const Schedule& s, size_t count)
{
    std::vector<sched::Step> steps(s.state->steps().begin(), s.state->steps().begin() + long(count));
    auto state = sched::State::replay(s.task->dag, steps);
    if (!state)
        qFatal("%s", state.error().message.c_str());
    return { s.task, std::make_shared<const sched::State>(std::move(state).value()) };
}

// The length of a longest common subsequence, by dynamic programming.
size_t lcsLength(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j)
            t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    return t[a.size()][b.size()];
}

// Both texts read back from a script: the old one from its Same and Removed lines, the new one from its Same
// and Added lines, with the line numbers each entry claims.
bool scriptRebuilds(
    const std::vector<models::DiffLine>& script, const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    std::vector<std::string> ra;
    std::vector<std::string> rb;
    for (const models::DiffLine& line : script) {
        if (line.op != models::DiffOp::Added) {
            if (line.before != int(ra.size()))
                return false;
            ra.push_back(line.text);
        }
        if (line.op != models::DiffOp::Removed) {
            if (line.after != int(rb.size()))
                return false;
            rb.push_back(line.text);
        }
    }
    return ra == a && rb == b;
}

// Pictures for a person to look at, when TS_SCREENSHOT_DIR names a folder.
void saveShot(QWidget& widget, const char* name)
{
    const QByteArray dir = qgetenv("TS_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget.grab().save(
            QString::fromLocal8Bit(dir) + QStringLiteral("/code-") + QLatin1String(name) + QStringLiteral(".png"));
}

size_t sameCount(const std::vector<models::DiffLine>& script)
{
    return size_t(std::count_if(
        script.begin(), script.end(), [](const models::DiffLine& l) { return l.op == models::DiffOp::Same; }));
}

std::vector<std::string> marksOf(
    const ir::ComputeDAG& dag, const std::vector<models::StageMarkSet>& marks, const std::string& op)
{
    for (int i = 0; i < dag.numOps(); ++i)
        if (dag.op(i).name() == op)
            return models::markNames(marks[size_t(i)]);
    return { "no such op" };
}

} // namespace

class CodeViewTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lineDiffIsAShortestEditScript()
    {
        using models::DiffOp;
        // Myers' paper's example: ABCABBA -> CBABAC, D = 5.
        const std::vector<std::string> a = { "A", "B", "C", "A", "B", "B", "A" };
        const std::vector<std::string> b = { "C", "B", "A", "B", "A", "C" };
        const auto script = models::diffLines(a, b);
        QVERIFY(scriptRebuilds(script, a, b));
        QCOMPARE(script.size() - sameCount(script), size_t { 5 });
        QCOMPARE(sameCount(script), lcsLength(a, b));

        QVERIFY(models::diffLines({}, {}).empty());
        QCOMPARE(models::diffLines({ "x" }, {}).front(), (models::DiffLine { DiffOp::Removed, 0, -1, "x" }));
        QCOMPARE(models::diffLines({}, { "y" }).front(), (models::DiffLine { DiffOp::Added, -1, 0, "y" }));

        // Random texts over a small alphabet (many equal lines): the script keeps as many lines as an LCS.
        std::mt19937 rng(12);
        for (int round = 0; round < 200; ++round) {
            std::vector<std::string> x(rng() % 40);
            std::vector<std::string> y(rng() % 40);
            for (auto& s : x)
                s = std::string(1, char('a' + rng() % 4));
            for (auto& s : y)
                s = std::string(1, char('a' + rng() % 4));
            const auto d = models::diffLines(x, y);
            QVERIFY(scriptRebuilds(d, x, y));
            QCOMPARE(sameCount(d), lcsLength(x, y));
        }

        // Past kMaxDiffEdits the middle is replaced whole, still a valid script; the common head stays.
        std::vector<std::string> big1 = { "head" };
        std::vector<std::string> big2 = { "head" };
        for (int i = 0; i < 1500; ++i) {
            big1.push_back("old " + std::to_string(i));
            big2.push_back("new " + std::to_string(i));
        }
        const auto replaced = models::diffLines(big1, big2);
        QVERIFY(scriptRebuilds(replaced, big1, big2));
        QCOMPARE(sameCount(replaced), size_t { 1 });
    }

    void unifiedDiffHasHunksWithContext()
    {
        QCOMPARE(models::unifiedDiff("a\nb\n", "a\nb\n", "x", "y"), std::string());
        QCOMPARE(models::unifiedDiff("a\nb\nc\n", "a\nB\nc\nd\n", "old", "new", 1),
            std::string("--- old\n+++ new\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n c\n+d\n"));
        // Two changes far apart are two hunks.
        std::string before;
        for (int i = 1; i <= 20; ++i)
            before += std::to_string(i) + "\n";
        std::string after = before;
        after.replace(after.find("2\n"), 2, "two\n");
        after.replace(after.find("19\n"), 3, "nineteen\n");
        QCOMPARE(models::unifiedDiff(before, after, "a", "b", 1),
            std::string(
                "--- a\n+++ b\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n@@ -18,3 +18,3 @@\n 18\n-19\n+nineteen\n 20\n"));
        QCOMPARE(models::addedLines("a\nb\n", "a\nx\nb\ny\n"), (std::vector<int> { 1, 3 }));
    }

    void stageMarksNameTheOpsTheStepsTouch()
    {
        // TVM's matmul_add (A B matmul C out): tiles of matmul computed at out's loop; out fused, parallel,
        // vectorized.
        const Schedule tvm = tvmMatmulAdd();
        const auto marks = models::stageMarks(tvm.task->dag, tvm.state->steps());
        const ir::ComputeDAG& dag = tvm.task->dag;
        using Names = std::vector<std::string>;
        QCOMPARE(marksOf(dag, marks, "matmul"), (Names { "tile", "compute_at", "vectorize", "unroll" }));
        QCOMPARE(marksOf(dag, marks, "out"), (Names { "tile", "parallel", "vectorize" }));
        for (const char* input : { "A", "B", "C" })
            QCOMPARE(marksOf(dag, marks, input), Names {});

        // A cache_write matmul: the steps on matmul.local count for matmul.
        store::ScheduleSource source;
        source.what = store::WorkloadRef { "matmul:64,64,64" };
        auto resolved = store::resolveSchedule(source);
        QVERIFY2(resolved, resolved ? "" : resolved.error().message.c_str());
        using namespace sched;
        const std::vector<Step> cached = { CacheWriteStep { 2, "local" }, // A B matmul.local matmul
            SplitStep { 3, 0, 64, { 4 }, true }, SplitStep { 3, 2, 64, { 16 }, true },
            ReorderStep { 3, { 0, 2, 1, 3 } }, ComputeAtStep { 2, 3, 1 },
            AnnotationStep { 3, 0, Annotation::Parallel } };
        QVERIFY(State::replay(resolved->dag, cached));
        const auto cacheMarks = models::stageMarks(resolved->dag, cached);
        QCOMPARE(cacheMarks.size(), size_t(resolved->dag.numOps()));
        QCOMPARE(marksOf(resolved->dag, cacheMarks, "matmul"), (Names { "tile", "cache", "compute_at", "parallel" }));
        QCOMPARE(marksOf(resolved->dag, cacheMarks, "A"), Names {});

        // A conv2d layer whose bias add is inlined and whose padding is computed inside the conv's loop.
        store::ScheduleSource conv;
        conv.what = store::RecordRef { dataPath("tvm-logs/conv2d_layer-ansor-spr.json"), 1 };
        auto layer = store::resolveSchedule(conv);
        QVERIFY2(layer, layer ? "" : layer.error().message.c_str());
        const auto convMarks = models::stageMarks(layer->dag, layer->steps);
        QCOMPARE(marksOf(layer->dag, convMarks, "T_add"), Names { "inline" });
        QCOMPARE(marksOf(layer->dag, convMarks, "pad_temp"), (Names { "compute_at", "vectorize" }));
        QCOMPARE(marksOf(layer->dag, convMarks, "conv2d_nchw"), (Names { "tile", "parallel", "vectorize", "unroll" }));
        QCOMPARE(marksOf(layer->dag, convMarks, "T_relu"), Names { "parallel" });
        for (const char* input : { "data", "kernel", "bias" })
            QCOMPARE(marksOf(layer->dag, convMarks, input), Names {});
        // A step that does not replay ends the marks: nothing after it counts.
        const std::vector<Step> broken = { SplitStep { 2, 0, 64, { 4 }, true },
            AnnotationStep { 2, 99, Annotation::Parallel }, AnnotationStep { 2, 0, Annotation::Vectorize } };
        QCOMPARE(marksOf(resolved->dag, models::stageMarks(resolved->dag, broken), "matmul"), Names { "tile" });
    }

    void dagViewMarksFollowTheSelectedState()
    {
        const Schedule tvm = tvmMatmulAdd();
        widgets::SelectionContext selection;
        app::TaskDagView dag(selection);
        QSignalSpy laidOut(&dag, &widgets::DagView::layoutFinished);
        selection.selectTask(nullptr, tvm.task);
        QVERIFY(laidOut.wait(20000));
        QCOMPARE(dag.nodeItems().size(), tvm.task->dag.numOps());
        for (auto* node : dag.nodeItems())
            QCOMPARE(node->marks(), models::StageMarkSet { 0 });
        selection.selectState(tvm.state);
        const auto expected = models::stageMarks(tvm.task->dag, tvm.state->steps());
        int marked = 0;
        for (auto* node : dag.nodeItems()) {
            QCOMPARE(node->marks(), expected[size_t(node->stage())]);
            marked += node->marks() != 0;
        }
        QCOMPARE(marked, 2); // matmul and out
        dag.resize(700, 500);
        dag.show();
        dag.fitAll();
        saveShot(dag, "dag");
        selection.selectState(nullptr);
        for (auto* node : dag.nodeItems())
            QCOMPARE(node->marks(), models::StageMarkSet { 0 });
    }

    // A CUDA target's listing holds the CUDA C and the PTX (where NVRTC is) in the LLVM IR and assembly slots.
    void cudaTargetsListCudaCAndPtx()
    {
        store::ScheduleSource source;
        source.what = store::RecordRef { dataPath("tvm-logs/conv2d.json"), 2 };
        auto resolved = store::resolveSchedule(source);
        QVERIFY(resolved);
        const target::Target cuda = target::fromTvm(resolved->record->target).value();
        const Schedule conv = fromResolved(std::move(resolved).value());
        models::CodeRequest request;
        request.task = conv.task;
        request.state = conv.state;
        request.target = cuda;
        const models::CodeListing listing = models::buildCodeListing(request, {});
        QVERIFY(listing.gpu);
        QVERIFY2(listing.llvmIr.error.empty(), listing.llvmIr.error.c_str());
        QVERIFY(QString::fromStdString(listing.llvmIr.text).contains(QLatin1String("__global__ void")));
        QVERIFY(listing.assembly.error.empty() ? listing.assembly.text.find(".entry") != std::string::npos
                                               : listing.assembly.error.find("NVRTC") != std::string::npos);
    }

    // A record selected in a workspace lists for the device it was measured on: TVM's CUDA record of
    // conv2d_layer, imported, gives CUDA C without the request naming a target.
    void aRecordListsForItsDevice()
    {
        QTemporaryDir dir;
        const std::string ws = dir.filePath(QStringLiteral("ws.tunescope")).toStdString();
        {
            auto store = store::Store::open(ws);
            QVERIFY(store);
            auto report = store::importLog(*store, dataPath("tvm-logs/conv2d.json"));
            QVERIFY2(report, report ? "" : report.error().message.c_str());
        }
        store::ScheduleSource source;
        source.what = store::RecordRef { dataPath("tvm-logs/conv2d.json"), 2 };
        auto resolved = store::resolveSchedule(source);
        QVERIFY(resolved);
        const Schedule conv = fromResolved(std::move(resolved).value());
        const auto measured = models::recordLowering(ws, 1); // line 1 is a comment
        QVERIFY2(measured, measured ? "" : measured.error().message.c_str());
        QVERIFY(measured->target.isGpu());
        QCOMPARE(measured->layoutRewrite, 0);
        models::CodeRequest request;
        request.task = conv.task;
        request.state = conv.state;
        request.recordId = 1;
        request.workspace = ws;
        const models::CodeListing listing = models::buildCodeListing(request, {});
        QVERIFY(listing.gpu);
        QVERIFY(QString::fromStdString(listing.llvmIr.text).contains(QLatin1String("__global__ void")));
        QVERIFY(!models::recordLowering(ws, 999));
    }

    void aRecordIsListedWithItsLayoutRewriteOption()
    {
        // TVM's CPU records say layout_rewrite_option 1: the selected record's loop IR packs its kernel (weight),
        // as it was measured.
        QTemporaryDir dir;
        const std::string ws = dir.filePath(QStringLiteral("ws.tunescope")).toStdString();
        {
            auto store = store::Store::open(ws);
            QVERIFY(store);
            auto report = store::importLog(*store, dataPath("tvm-logs/conv2d_layer-ansor-spr.json"));
            QVERIFY2(report, report ? "" : report.error().message.c_str());
        }
        const auto measured = models::recordLowering(ws, 1);
        QVERIFY2(measured, measured ? "" : measured.error().message.c_str());
        QCOMPARE(measured->layoutRewrite, 1);
        store::ScheduleSource source;
        source.what = store::RecordRef { dataPath("tvm-logs/conv2d_layer-ansor-spr.json"), 1 };
        auto resolved = store::resolveSchedule(source);
        QVERIFY(resolved);
        const Schedule conv = fromResolved(std::move(resolved).value());
        models::CodeRequest request;
        request.task = conv.task;
        request.state = conv.state;
        QVERIFY(!QString::fromStdString(models::buildCodeListing(request, {}).loopIr.text)
                     .contains(QLatin1String("kernel_packed")));
        request.recordId = 1;
        request.workspace = ws;
        QVERIFY(QString::fromStdString(models::buildCodeListing(request, {}).loopIr.text)
                    .contains(QLatin1String("kernel_packed")));
    }

    void tabsFillFromAJob()
    {
        const Schedule tvm = tvmMatmulAdd();
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        CodeView view(context);
        QSignalSpy ready(&view, &CodeView::listingReady);
        selection.selectTask(nullptr, tvm.task);
        QVERIFY(!view.pinAction()->isEnabled());
        selection.selectState(tvm.state);
        QVERIFY(view.pinAction()->isEnabled());
        // The steps at once; the rest computing.
        QCOMPARE(view.text(CodeView::Tab::Steps).count(QLatin1Char('\n')), 13);
        QVERIFY(view.text(CodeView::Tab::Steps).startsWith(QLatin1String("  1  s[matmul].split(i, [2, 1, 4]) -> ")));
        QVERIFY(view.isComputing());
        QCOMPARE(view.text(CodeView::Tab::LlvmIr), QStringLiteral("computing…"));
        QVERIFY(ready.wait(120000));

        QCOMPARE(view.text(CodeView::Tab::LoopNest), QString::fromStdString(models::loopNestText(*tvm.state)));
        QVERIFY(view.text(CodeView::Tab::LoopNest).contains(QLatin1String("parallel i.0@j.0@")));
        const QString loopIr = view.text(CodeView::Tab::LoopIr);
        QVERIFY(loopIr.contains(QLatin1String("for (")));
        // The lowered program, with the analytical model's estimate on each stored buffer's first store.
        const auto plain = lower::lower(*tvm.state);
        QVERIFY(plain);
        QCOMPARE(loopIr.count(QLatin1String("// analytical ")), 2); // matmul and T_add
        QCOMPARE(loopIr.count(QLatin1Char('\n')),
            QString::fromStdString(lower::toString(*plain)).count(QLatin1Char('\n')) + 2);
        QVERIFY(loopIr.contains(
            QRegularExpression(QStringLiteral("\n *// analytical [0-9.e+-]+ us: matmul\n *matmul\\["))));
        QVERIFY(loopIr.contains(QRegularExpression(QStringLiteral("\n *// analytical [0-9.e+-]+ us: out\n *out\\["))));
        QVERIFY(view.scoreLabel().contains(QLatin1String("analytical")));
        QVERIFY(view.text(CodeView::Tab::LlvmIr).contains(QLatin1String("define ")));
        QVERIFY(view.text(CodeView::Tab::Assembly).contains(QLatin1String("ret")));

        // Step through: 0 is the initial state, N the Loop nest tab; each step highlights what it changed.
        QCOMPARE(view.stepCount(), 13);
        QCOMPARE(view.currentStep(), 13);
        QCOMPARE(view.text(CodeView::Tab::Step), view.text(CodeView::Tab::LoopNest));
        view.showStep(0);
        QCOMPARE(view.text(CodeView::Tab::Step),
            QString::fromStdString(models::loopNestText(sched::State::initial(tvm.task->dag))));
        QVERIFY(view.highlightedLines().isEmpty());
        view.showStep(1);
        QVERIFY(view.stepCall().contains(QLatin1String("s[matmul].split(i, [2, 1, 4])")));
        const auto first = prefix(tvm, 1);
        QCOMPARE(view.text(CodeView::Tab::Step), QString::fromStdString(models::loopNestText(*first.state)));
        const auto added = models::addedLines(
            models::loopNestText(sched::State::initial(tvm.task->dag)), models::loopNestText(*first.state));
        QCOMPARE(view.highlightedLines(), QList<int>(added.begin(), added.end()));
        // The split rewrites matmul's nest (lines 1..6: new loops over i, the rest indented deeper); out's
        // nest below it stays.
        QCOMPARE(view.highlightedLines(), (QList<int> { 1, 2, 3, 4, 5, 6 }));
        QVERIFY(
            view.text(CodeView::Tab::Step).split(QLatin1Char('\n'))[1].startsWith(QLatin1String("for i.0 (0,128)")));
        QVERIFY(view.stepSummary().contains(QString::fromUtf8("+6 −4 lines")));
        view.showStep(8); // compute_at moves out's inner loops under matmul's: lines go, none come
        QVERIFY(view.stepCall().contains(QLatin1String("s[matmul].compute_at(s[out], j.1)")));
        QVERIFY(view.highlightedLines().isEmpty());
        QVERIFY(view.stepSummary().contains(QString::fromUtf8("+0 −3 lines")));
        view.showStep(99);
        QCOMPARE(view.currentStep(), 13);

        view.resize(760, 560);
        view.showTab(CodeView::Tab::LoopIr);
        view.show();
        saveShot(view, "loopir");
        view.showStep(5);
        view.showTab(CodeView::Tab::Step);
        saveShot(view, "step");
    }

    void fastReselectShowsOnlyTheNewest()
    {
        const Schedule tvm = tvmMatmulAdd();
        const Schedule three = prefix(tvm, 3);
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        CodeView view(context);
        QSignalSpy ready(&view, &CodeView::listingReady);
        selection.selectTask(nullptr, tvm.task);
        selection.selectState(tvm.state);
        selection.selectState(three.state); // before the first job could finish
        QVERIFY(ready.wait(120000));
        QTest::qWait(1500); // the first job's result, had it not been dropped, would be here by now
        QCOMPARE(ready.size(), 1);
        QCOMPARE(view.stepCount(), 3);
        QCOMPARE(view.text(CodeView::Tab::LoopNest), QString::fromStdString(models::loopNestText(*three.state)));
        QVERIFY(!view.text(CodeView::Tab::LoopIr).contains(QLatin1String("parallel")));

        // No state: the job is dropped and the tabs clear.
        selection.selectState(tvm.state);
        selection.selectState(nullptr);
        QVERIFY(!view.isComputing());
        QTest::qWait(500);
        QCOMPARE(ready.size(), 1);
        QVERIFY(view.text(CodeView::Tab::LoopIr).isEmpty());
    }

    void diffOfTwoStates()
    {
        const Schedule tvm = tvmMatmulAdd();
        const Schedule three = prefix(tvm, 3);
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        CodeView view(context);
        QSignalSpy ready(&view, &CodeView::listingReady);
        QSignalSpy pinned(&view, &CodeView::pinReady);
        selection.selectTask(nullptr, tvm.task);
        selection.selectState(tvm.state);
        view.pinSelected(); // before its listing: the pin lowers on its own
        QVERIFY(view.hasPin());
        QVERIFY(pinned.wait(60000));
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, 120000);

        // The state with itself: no differences, in either representation.
        QCOMPARE(view.diffText(), QString());
        QCOMPARE(view.text(CodeView::Tab::Diff), QStringLiteral("No differences."));
        view.setDiffOf(CodeView::DiffOf::Steps);
        QCOMPARE(view.diffText(), QString());

        // Another state: its steps are a prefix, so the diff of the steps only removes lines.
        selection.selectState(three.state);
        const QStringList steps = view.diffText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(steps.filter(QRegularExpression(QStringLiteral("^-[^-]"))).size(), 10);
        QCOMPARE(steps.filter(QRegularExpression(QStringLiteral("^\\+[^+]"))).size(), 0);
        QVERIFY(steps.contains(QLatin1String("-s[out].parallel(i.0@j.0@)")));
        // The loop IR once the selected state's listing is here: lines go and come.
        view.setDiffOf(CodeView::DiffOf::LoopIr);
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 2, 120000);
        const QString loopIr = view.diffText();
        QVERIFY(loopIr.startsWith(QLatin1String("--- pinned\n+++ selected\n@@ ")));
        QVERIFY(loopIr.contains(QRegularExpression(QStringLiteral("\n-.*parallel"))));
        QVERIFY(loopIr.contains(QRegularExpression(QStringLiteral("\n\\+ *for \\("))));
        QCOMPARE(view.text(CodeView::Tab::Diff), loopIr);
        view.resize(760, 560);
        view.showTab(CodeView::Tab::Diff);
        view.show();
        saveShot(view, "diff");

        view.unpin();
        QCOMPARE(view.diffText(), QString());
        QVERIFY(!view.hasPin());
    }

    void scoresFromTheSessionsXgbModel()
    {
        QTemporaryDir dir;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        QVERIFY(testing::runToEnd(hub, testing::smallMatmul(), testing::shortRun(32, 16, "xgb")));
        const auto session = hub.current();
        QVERIFY(session && session->model == "xgb");
        const auto task = session->tasks.at(0).task;
        QVERIFY(task);
        // A measured state of the session, replayed from the store.
        auto store = store::Store::open(dir.filePath(QStringLiteral("ws.tunescope")).toStdString());
        QVERIFY(store);
        store::RecordFilter filter;
        filter.sessionId = session->sessionId;
        filter.okOnly = true;
        auto records = store->records(filter);
        QVERIFY(records && !records->empty());
        auto steps = sched::parseSteps(records->back().steps);
        QVERIFY(steps);
        auto state = sched::State::replay(task->dag, *steps);
        QVERIFY(state);

        widgets::SelectionContext selection;
        app::ViewContext context { selection, hub };
        CodeView view(context);
        QSignalSpy ready(&view, &CodeView::listingReady);
        selection.selectMeasured(task, std::make_shared<const sched::State>(*state), records->back().id);
        QVERIFY(ready.wait(120000));
        QVERIFY2(
            view.scoreLabel().contains(QLatin1String("of the xgb model, saved model")), qPrintable(view.scoreLabel()));
        QVERIFY(view.scoreLabel().contains(QLatin1String("session end")));
        QVERIFY(view.text(CodeView::Tab::LoopIr).contains(QLatin1String("// xgb ")));
        QVERIFY(!view.text(CodeView::Tab::LoopIr).contains(QLatin1String("// analytical")));
    }
};

QTEST_MAIN(CodeViewTest)
#include "code_view_test.moc"
