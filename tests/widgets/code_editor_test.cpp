// The Code view's Edit tab (issue 41) on real schedules: TVM's matmul_add record (13 steps, from tests/data/tvm-logs)
// opened as a copy, edited by typing (a split length: after the debounce the loop nest shows the new extent), broken
// (an iterator id out of range: the error names the step and the field, marks the line, the panes keep the last good
// state), extended from the loop nest's context menu (Vectorize writes an "AN" step, undo takes it back), and
// measured and seeded into a real, paused session. The GUI thread is probed while it types. Also the Qt-free text
// model under it: parse errors by step, line and field, the loop nest's line map, where a new step goes.
#include "event_loop_probe.h"
#include "session_fixture.h"
#include "steering_helpers.h"

#include "app/gui/code_view.h"
#include "app/gui/schedule_editor.h"
#include "app/gui/view_registry.h"
#include "core/schedule/step_json.h"
#include "core/store/schedule_source.h"
#include "widgets/models/code_listing.h"
#include "widgets/models/schedule_edit.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAction>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include <algorithm>
#include <cstdio>

using namespace ts;
using app::CodeView;
using app::ScheduleEditor;
using Pane = ScheduleEditor::Pane;

namespace {

std::string dataPath(const std::string& name) { return std::string(TS_TEST_DATA_DIR) + "/" + name; }

struct Schedule {
    std::shared_ptr<const graph::Task> task;
    std::shared_ptr<const sched::State> state;
};

Schedule fromRecord(const std::string& log, int line)
{
    store::ScheduleSource source;
    source.what = store::RecordRef { dataPath(log), line };
    auto resolved = store::resolveSchedule(source);
    if (!resolved)
        qFatal("%s", resolved.error().message.c_str());
    auto task = std::make_shared<graph::Task>();
    task->name = resolved->name;
    task->dag = resolved->dag;
    task->flops = resolved->flops;
    return { task, std::make_shared<const sched::State>(resolved->state) };
}

// matmul_add 1024^3 from TVM's tutorial log: SP SP SP RE FSP FSP RE CA FU AN PR AN AN.
Schedule tvmMatmulAdd() { return fromRecord("tvm-logs/matmul.json", 2); }

void saveShot(QWidget& widget, const char* name)
{
    const QByteArray dir = qgetenv("TS_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget.grab().save(
            QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

} // namespace

class CodeEditorTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void textModelFindsStepsLinesAndFields()
    {
        const Schedule tvm = tvmMatmulAdd();
        const std::string text = models::editText(tvm.state->steps());
        QVERIFY(text.starts_with("[\n  [\"SP\", 2, 0, 1024, [2, 1, 4], 1],\n"));
        QVERIFY(text.ends_with("\n]\n"));
        const auto parsed = models::parseEditText(text);
        QVERIFY(!parsed.error);
        QCOMPARE(parsed.steps.size(), size_t { 13 });
        for (size_t i = 0; i < parsed.steps.size(); ++i) {
            QCOMPARE(parsed.steps[i].step, tvm.state->steps()[i]);
            QCOMPARE(parsed.steps[i].line, int(i) + 1);
        }
        // Field 4 of the first step is its lengths, as written.
        const models::TextSpan lengths = parsed.steps[0].fields[4];
        QCOMPARE(text.substr(size_t(lengths.start), size_t(lengths.length)), std::string("[2, 1, 4]"));
        // The same steps as one JSON line (a record's "steps" pasted in), and one per line without the brackets.
        QCOMPARE(models::parseEditText(sched::stepsToText(tvm.state->steps())).steps.size(), size_t { 13 });
        QCOMPARE(models::parseEditText("[\"CI\", 1]\n[\"CR\", 1],\n").steps.size(), size_t { 2 });
        QVERIFY(!models::parseEditText("[\n]\n").error);
        QVERIFY(!models::parseEditText("").error);

        // A string where the iterator goes: step 1, line 2, field 2.
        auto bad = models::parseEditText("[\n  [\"CI\", 1],\n  [\"SP\", 2, \"x\", 64, [4], 1]\n]\n");
        QVERIFY(bad.error);
        QCOMPARE(bad.error->step, 1);
        QCOMPARE(bad.error->line, 2);
        QCOMPARE(bad.error->field, 2);
        QCOMPARE(bad.error->fieldName, std::string("iterator"));
        QCOMPARE(bad.error->message, std::string("field 2 is not an integer"));
        QCOMPARE(bad.error->span, (models::TextSpan { 27, 3 }));
        // Not JSON inside one field; an unknown code; a step not closed; no closing bracket; junk between steps.
        bad = models::parseEditText("[[\"AN\", 2, 0, vec]]");
        QCOMPARE(bad.error->field, 3);
        QCOMPARE(bad.error->fieldName, std::string("annotation"));
        QCOMPARE(models::parseEditText("[[\"XX\", 2]]").error->field, 0);
        QVERIFY(models::parseEditText("[[\"XX\", 2]]").error->message.find("unknown step code") != std::string::npos);
        bad = models::parseEditText("[\n  [\"CI\", 1],\n  [\"CR\", 1\n");
        QCOMPARE(bad.error->step, 1);
        QCOMPARE(bad.error->line, 2);
        QVERIFY(bad.error->message.find("not closed") != std::string::npos);
        bad = models::parseEditText("[\n  [\"CI\", 1]\n");
        QCOMPARE(bad.error->step, -1);
        QVERIFY(bad.error->message.find("not closed") != std::string::npos);
        bad = models::parseEditText("[\n  [\"CI\", 1],\n  oops\n]");
        QCOMPARE(bad.error->step, 1);
        QCOMPARE(bad.error->line, 2);
        QCOMPARE(bad.error->field, -1);

        // The field a replay error names.
        using namespace sched;
        QCOMPARE(models::errorField(AnnotationStep { 2, 99, Annotation::Vectorize },
                     "step 3 (AN): stage 2 (matmul): iterator 99 out of range (6 iterators)"),
            2);
        QCOMPARE(
            models::errorField(ComputeAtStep { 2, 3, 9 }, "step 3 (CA): stage 3 (out): iterator 9 out of range"), 3);
        QCOMPARE(models::errorField(ComputeAtStep { 2, 7, 0 }, "step 3 (CA): stage 7: no such stage (4 stages)"), 2);
        QCOMPARE(models::errorField(SplitStep { 2, 0, 64, { 4 }, true },
                     "step 0 (SP): stage 2 (matmul): iterator i has extent 1024, the step says 64"),
            3);
        QCOMPARE(models::errorField(AnnotationStep { 2, 0, Annotation::Vectorize }, "something else"), -1);

        // Where a step goes: after the last one, into an empty list, or a new list.
        const Step an = AnnotationStep { 2, 5, Annotation::Vectorize };
        const std::string two = "[\n    [\"CI\", 1],\n    [\"CR\", 1]\n]\n";
        auto insertion = models::appendStepText(two, an);
        std::string appended = two;
        appended.insert(size_t(insertion.position), insertion.text);
        QCOMPARE(appended, std::string("[\n    [\"CI\", 1],\n    [\"CR\", 1],\n    [\"AN\", 2, 5, 2]\n]\n"));
        insertion = models::appendStepText("[\n]\n", an);
        appended = "[\n]\n";
        appended.insert(size_t(insertion.position), insertion.text);
        QCOMPARE(appended, std::string("[\n  [\"AN\", 2, 5, 2]\n]\n"));
        insertion = models::appendStepText("", an);
        QCOMPARE(insertion.text, std::string("[\n  [\"AN\", 2, 5, 2]\n]\n"));
    }

    // The loop nest's line map is the walk State::toString makes: the same text, and each loop line names the
    // iterator that prints there.
    void loopNestLinesNameTheirLoops()
    {
        for (const auto& [log, line] : { std::pair { "tvm-logs/matmul.json", 2 },
                 std::pair { "tvm-logs/conv2d_layer-ansor-spr.json", 1 }, std::pair { "tvm-logs/conv2d.json", 2 } }) {
            const Schedule s = fromRecord(log, line);
            const models::LoopNestListing listing = models::loopNestListing(*s.state);
            QCOMPARE(listing.text, models::loopNestText(*s.state));
            const QStringList lines = QString::fromStdString(listing.text).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QCOMPARE(size_t(lines.size()), listing.lines.size());
            int loops = 0;
            for (int i = 0; i < lines.size(); ++i) {
                const models::LoopNestLine at = listing.lines[size_t(i)];
                if (at.iter < 0)
                    continue;
                ++loops;
                const sched::Iterator& it = listing.shown->stage(at.stage).iters[size_t(at.iter)];
                QCOMPARE(lines[i].trimmed().section(QLatin1Char(' '), 1, 1), QString::fromStdString(it.name));
            }
            QVERIFY(loops >= 4);
        }
    }

    void editARecordAsYouType()
    {
        const Schedule tvm = tvmMatmulAdd();
        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        CodeView view(context);
        view.resize(1100, 640);
        view.show();
        ScheduleEditor* editor = view.editor();
        QSignalSpy replayed(editor, &ScheduleEditor::replayed);
        QSignalSpy listed(&view, &CodeView::listingReady);
        QVERIFY(!view.editAction()->isEnabled());
        selection.selectTask(nullptr, tvm.task);
        selection.selectState(tvm.state);
        QVERIFY(view.editAction()->isEnabled());
        QVERIFY(listed.wait(120000));
        const QString selectedLoopNest = view.text(CodeView::Tab::LoopNest);
        const QString selectedLoopIr = view.text(CodeView::Tab::LoopIr);

        view.editAction()->trigger();
        QCOMPARE(view.text(CodeView::Tab::Edit), QString::fromStdString(models::editText(tvm.state->steps())));
        QVERIFY(replayed.wait(60000));
        QVERIFY(editor->errorText().isEmpty());
        QCOMPARE(editor->paneText(Pane::LoopNest), selectedLoopNest);
        QVERIFY(editor->paneText(Pane::LoopIr).contains(QLatin1String("// analytical ")));
        QVERIFY(editor->scoreText().contains(QLatin1String("Estimated time of the analytical model")));
        QVERIFY(editor->paneText(Pane::Calls).startsWith(QLatin1String("s[matmul].split(i, [2, 1, 4])")));
        QVERIFY(editor->isCurrent());
        // Not live: Measure and Add to search say why they are off.
        QVERIFY(!editor->measureButton()->isEnabled());
        QVERIFY(editor->measureButton()->toolTip().contains(QLatin1String("No tuning session is running")));
        QVERIFY(!editor->addToSearchButton()->isEnabled());

        testing::EventLoopProbe probe;
        probe.start();
        double worst = 0.0;

        // 1. The first split's innermost length 4 -> 8, typed: nothing replays before a pause of kDebounceMs.
        QPlainTextEdit* text = editor->textEdit();
        const QString before = text->toPlainText();
        const int at = static_cast<int>(before.indexOf(QLatin1String("[2, 1, 4]")));
        QVERIFY(at > 0);
        replayed.clear();
        testing::typeOver(text, at + 7, at + 8, QStringLiteral("8"));
        QVERIFY(editor->isPending());
        QVERIFY(!editor->isCurrent());
        QTest::qWait(ScheduleEditor::kDebounceMs / 2);
        QCOMPARE(replayed.size(), 0);
        QVERIFY(replayed.wait(60000));
        QVERIFY2(editor->errorText().isEmpty(), qPrintable(editor->errorText()));
        std::vector<sched::Step> edited = tvm.state->steps();
        std::get<sched::SplitStep>(edited[0]).lengths = { 2, 1, 8 };
        const QString editedNest = testing::loopNestOf(tvm.task->dag, edited);
        QCOMPARE(editor->paneText(Pane::LoopNest), editedNest);
        QVERIFY(editedNest != selectedLoopNest);
        // i is 1024 = 64 x 2 x 1 x 8 now: the innermost tile i.3 has 8 iterations where it had 4, and the outermost
        // i.0 (fused with j.0's 128) 64 where it had 128.
        QVERIFY2(selectedLoopNest.contains(QLatin1String("for i.3 (0,4)\n")), qPrintable(selectedLoopNest));
        QVERIFY2(editedNest.contains(QLatin1String("for i.3 (0,8)\n")), qPrintable(editedNest));
        QVERIFY(selectedLoopNest.contains(QLatin1String("parallel i.0@j.0@ (0,16384)")));
        QVERIFY(editedNest.contains(QLatin1String("parallel i.0@j.0@ (0,8192)")));
        QVERIFY(editor->paneText(Pane::Calls).startsWith(QLatin1String("s[matmul].split(i, [2, 1, 8])")));
        // The view's own tabs still show the selection.
        QCOMPARE(view.text(CodeView::Tab::LoopNest), selectedLoopNest);
        const QString goodLoopIr = editor->paneText(Pane::LoopIr);
        QVERIFY(goodLoopIr != selectedLoopIr);

        // 2. A step with an iterator id that matmul does not have, typed at the end: the error names step 13, its
        //    line and the iterator field; the panes keep the last state that replayed.
        replayed.clear();
        const QString good = text->toPlainText();
        const int close = static_cast<int>(good.lastIndexOf(QLatin1Char(']')));
        const int lastStepEnd = static_cast<int>(good.lastIndexOf(QLatin1Char(']'), close - 1)) + 1;
        testing::typeOver(text, lastStepEnd, lastStepEnd, QStringLiteral(",\n  [\"AN\", 2, 42, 2]"));
        QVERIFY(replayed.wait(60000));
        const QString error = editor->errorText();
        QVERIFY2(error.startsWith(QLatin1String(
                     "Step 13 (line 15), field 2 (iterator): stage 2 (matmul): iterator 42 out of range")),
            qPrintable(error));
        QCOMPARE(editor->markedLines(), QList<int> { 14 });
        QCOMPARE(text->document()->findBlockByNumber(14).text(), QStringLiteral("  [\"AN\", 2, 42, 2]"));
        QCOMPARE(editor->paneText(Pane::LoopNest), editedNest);
        QCOMPARE(editor->paneText(Pane::LoopIr), goodLoopIr);
        QVERIFY(!editor->isCurrent());
        QVERIFY(editor->loopMenu(1)->actions().first()->text().contains(QLatin1String("not replayed")));
        view.showTab(CodeView::Tab::Edit);
        saveShot(view, "schedule-editor-error");

        // Fixed again by typing: the error goes.
        replayed.clear();
        const QString broken = text->toPlainText();
        const int bad = static_cast<int>(broken.indexOf(QLatin1String(", 42, 2]")));
        testing::typeOver(text, bad + 2, bad + 4, QStringLiteral("0"));
        QVERIFY(replayed.wait(60000));
        // Iterator 0 of matmul is not annotated yet: it replays (a loop of one iteration under the compute_at, which
        // the loop nest leaves out).
        QVERIFY2(editor->errorText().isEmpty(), qPrintable(editor->errorText()));
        QVERIFY(editor->markedLines().isEmpty());
        QCOMPARE(editor->shownState()->stage(2).iters[0].annotation, sched::Annotation::Vectorize);
        QCOMPARE(editor->shownState()->steps().size(), size_t { 14 });
        text->undo(); // typed over "42" in one go: one undo restores it
        replayed.clear();
        QVERIFY(replayed.wait(60000));
        QVERIFY(!editor->errorText().isEmpty());
        // Back to the good text: select all and type it would be slow; set it as a paste would.
        replayed.clear();
        text->selectAll();
        text->insertPlainText(good);
        QVERIFY(replayed.wait(60000));
        QVERIFY(editor->isCurrent());
        QCOMPARE(editor->paneText(Pane::LoopNest), editedNest);

        // 3. The loop nest's context menu on out's innermost loop: Vectorize writes ["AN", 3, k, 2] as the last step.
        const QString nest = editor->paneText(Pane::LoopNest);
        const auto shown = editor->shownState();
        QVERIFY(shown);
        const int outStage = shown->stageIndex("out");
        QVERIFY(outStage >= 0);
        // out's loops, inner to outer: the first that is not annotated and has no stage computed at it.
        int line = -1;
        int iter = -1;
        const auto listing = models::loopNestListing(*shown);
        for (int l = static_cast<int>(listing.lines.size()) - 1; l >= 0; --l) {
            const auto [stage, it] = listing.lines[size_t(l)];
            if (stage == outStage && it >= 0
                && shown->stage(stage).iters[size_t(it)].annotation == sched::Annotation::None
                && shown->attachedAt(stage, it).empty()) {
                line = l;
                iter = it;
                break;
            }
        }
        QVERIFY2(line > 0, qPrintable(nest));
        const auto menu = editor->loopMenu(line);
        QAction* vectorize = nullptr;
        for (QAction* action : menu->actions())
            if (action->text() == QLatin1String("Vectorize"))
                vectorize = action;
        QVERIFY(vectorize && vectorize->isEnabled());
        replayed.clear();
        vectorize->trigger();
        const QString step = QStringLiteral("[\"AN\", %1, %2, 2]").arg(outStage).arg(iter);
        QVERIFY2(text->toPlainText().contains(QStringLiteral("],\n  ") + step + QStringLiteral("\n]")),
            qPrintable(text->toPlainText()));
        QVERIFY(replayed.wait(60000));
        QVERIFY2(editor->errorText().isEmpty(), qPrintable(editor->errorText()));
        const QString vectorized = editor->paneText(Pane::LoopNest).split(QLatin1Char('\n'))[line];
        QVERIFY2(vectorized.trimmed().startsWith(QLatin1String("vectorize ")), qPrintable(vectorized));
        QVERIFY(editor->shownState()->steps().size() == 14);
        // The menu's step is one edit: undo takes it back.
        text->undo();
        QVERIFY(!text->toPlainText().contains(step));
        replayed.clear();
        QVERIFY(replayed.wait(60000));
        QCOMPARE(editor->paneText(Pane::LoopNest), editedNest);

        // Split by a factor from the menu's action (its dialog asks for the factor; here it is given).
        const auto splitMenu = editor->loopMenu(line);
        const QList<QAction*> splitActions = splitMenu->actions();
        QVERIFY(std::any_of(splitActions.begin(), splitActions.end(),
            [](QAction* a) { return a->text() == QString::fromUtf8("Split by…") && a->isEnabled(); }));
        replayed.clear();
        editor->splitLoop(line, 2);
        QVERIFY(replayed.wait(60000));
        QVERIFY2(editor->errorText().isEmpty(), qPrintable(editor->errorText()));
        const auto split = std::get_if<sched::SplitStep>(&editor->shownState()->steps().back());
        QVERIFY(split && split->stageId == outStage && split->iterId == iter && split->lengths.size() == 1);

        probe.stop();
        // The GUI thread's own work between two ticks (CPU time): on 2 cores busy compiling, a late tick is often
        // the thread waiting for a core, which no code of the window can help; the lateness has a looser bound.
        worst = probe.maxBusyMs();
        std::printf("schedule editor: worst GUI-thread block %.1f ms of its own work, %.1f ms late at worst over %zu "
                    "ticks (p99 %.1f ms)\n",
            worst, probe.maxBlockedMs(), probe.ticks(), probe.quantileMs(0.99));
        std::fflush(stdout);
        QVERIFY2(worst < 50.0, qPrintable(QStringLiteral("the GUI thread was busy %1 ms at once").arg(worst)));
        QVERIFY2(probe.maxBlockedMs() < 500.0, qPrintable(QString::number(probe.maxBlockedMs())));

        text->undo();
        QVERIFY(replayed.wait(60000));
        saveShot(view, "schedule-editor");
    }

    // "Move the cache stage here": on a loop of matmul, the menu computes its cache stage matmul.local at it.
    void computeTheCacheStageAtALoop()
    {
        store::ScheduleSource source;
        source.what = store::WorkloadRef { "matmul:64,64,64" };
        auto resolved = store::resolveSchedule(source);
        QVERIFY2(resolved, resolved ? "" : resolved.error().message.c_str());
        auto task = std::make_shared<graph::Task>();
        task->name = resolved->name;
        task->dag = resolved->dag;
        using namespace sched;
        // A B matmul.local matmul: matmul tiled 4 x 16, its cache stage still at the root.
        const std::vector<Step> steps = { CacheWriteStep { 2, "local" }, SplitStep { 3, 0, 64, { 4 }, true },
            SplitStep { 3, 2, 64, { 16 }, true }, ReorderStep { 3, { 0, 2, 1, 3 } } };
        auto state = State::replay(task->dag, steps);
        QVERIFY2(state, state ? "" : state.error().message.c_str());

        widgets::SelectionContext selection;
        widgets::SessionHub hub;
        app::ViewContext context { selection, hub };
        CodeView view(context);
        ScheduleEditor* editor = view.editor();
        QSignalSpy replayed(editor, &ScheduleEditor::replayed);
        selection.selectTask(nullptr, task);
        selection.selectState(std::make_shared<const State>(*state));
        view.editSelected();
        QVERIFY(replayed.wait(60000));
        QVERIFY(editor->isCurrent());
        // matmul's loop j.0 (iterator 1 after the reorder): the line that opens it.
        const QStringList lines = editor->paneText(Pane::LoopNest).split(QLatin1Char('\n'));
        const int line = static_cast<int>(lines.indexOf(QRegularExpression(QStringLiteral("^ *for j\\.0 \\(0,4\\)$"))));
        QVERIFY2(line > 0, qPrintable(editor->paneText(Pane::LoopNest)));
        const auto menu = editor->loopMenu(line);
        QMenu* computeAt = nullptr;
        for (QAction* action : menu->actions())
            if (action->menu() && action->text() == QLatin1String("Compute at This Loop"))
                computeAt = action->menu();
        QVERIFY(computeAt && computeAt->isEnabled());
        QStringList offered;
        for (QAction* action : computeAt->actions())
            offered << action->text();
        QCOMPARE(offered, QStringList { QStringLiteral("Compute matmul.local Here") }); // not matmul itself
        replayed.clear();
        computeAt->actions().first()->trigger();
        QVERIFY(editor->stepsText().contains(QLatin1String("[\"RE\", 3, [0, 2, 1, 3]],\n  [\"CA\", 2, 3, 1]\n]")));
        QVERIFY(replayed.wait(60000));
        QVERIFY2(editor->errorText().isEmpty(), qPrintable(editor->errorText()));
        const auto shown = editor->shownState();
        QCOMPARE(shown->stage(2).computeAt, ComputeAtKind::Iter);
        QCOMPARE(shown->stage(2).attachIter, 1);
        // The cache stage's body now prints inside matmul's j.0 loop, before matmul's own body.
        const QString nest = editor->paneText(Pane::LoopNest);
        QVERIFY2(nest.indexOf(QLatin1String("for j.0 (0,4)")) < nest.indexOf(QLatin1String("matmul.local = ...")),
            qPrintable(nest));
        QVERIFY(nest.indexOf(QLatin1String("matmul.local = ...")) < nest.indexOf(QLatin1String("matmul = ...")));
        QVERIFY(!editor->paneText(Pane::LoopIr).startsWith(QLatin1String("No loop IR")));
    }

    // Measure and Add to search post MeasureState and SeedStates to the live session (paused, so that it takes
    // them at once): a manual record comes back, and the task's seeds count one more.
    void measureAndSeedInTheLiveSession()
    {
        QTemporaryDir dir;
        widgets::SessionHub hub;
        hub.openWorkspace(dir.filePath(QStringLiteral("ws.tunescope")));
        widgets::SelectionContext selection;
        app::ViewContext context { selection, hub };
        CodeView view(context);
        ScheduleEditor* editor = view.editor();
        QSignalSpy replayed(editor, &ScheduleEditor::replayed);
        QSignalSpy done(&hub, &widgets::SessionHub::commandDone);
        QSignalSpy finished(&hub, &widgets::SessionHub::liveFinished);
        QVERIFY(hub.start(testing::smallMatmul(), testing::shortRun(256, 16)));
        QTRY_VERIFY_WITH_TIMEOUT(
            hub.live() && hub.live()->sessionId != 0 && !hub.live()->tasks.empty() && hub.live()->tasks[0].task,
            120000);
        hub.pause();
        const auto task = hub.live()->tasks[0].task;

        // A hand schedule of the session's task: matmul's j split by 16 and vectorized.
        std::vector<sched::Step> steps = { sched::SplitStep { 2, 1, 64, { 16 }, true },
            sched::AnnotationStep { 2, 2, sched::Annotation::Vectorize } };
        auto state = sched::State::replay(task->dag, steps);
        QVERIFY2(state, state ? "" : state.error().message.c_str());
        selection.selectTask(nullptr, task);
        selection.selectState(std::make_shared<const sched::State>(*state));
        view.editSelected();
        QVERIFY(replayed.wait(60000));
        QVERIFY2(editor->measureButton()->isEnabled(), qPrintable(editor->measureButton()->toolTip()));
        QVERIFY(editor->addToSearchButton()->isEnabled());

        QTest::mouseClick(editor->measureButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QVERIFY2(done.last().at(2).toString().isEmpty(), qPrintable(done.last().at(2).toString()));
        const qint64 record = done.last().at(3).toLongLong();
        QVERIFY(record > 0);
        QVERIFY2(
            editor->commandText().contains(QStringLiteral("record %1").arg(record)), qPrintable(editor->commandText()));

        done.clear();
        QTest::mouseClick(editor->addToSearchButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        QVERIFY2(done.last().at(2).toString().isEmpty(), qPrintable(done.last().at(2).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(!hub.live()->steering.seeds.empty() && hub.live()->steering.seeds[0] == 1, 30000);
        QVERIFY(editor->commandText().startsWith(QLatin1String("Done: ")));

        // Another task's state is not the session's: the buttons say so.
        const Schedule tvm = tvmMatmulAdd();
        selection.selectTask(nullptr, tvm.task);
        selection.selectState(tvm.state);
        view.editSelected();
        QVERIFY(replayed.wait(60000));
        QVERIFY(!editor->measureButton()->isEnabled());
        QVERIFY(editor->measureButton()->toolTip().contains(QLatin1String("does not tune this task")));

        // Once the session has ended, its own task's state cannot be measured either.
        selection.selectTask(nullptr, task);
        selection.selectState(std::make_shared<const sched::State>(*state));
        view.editSelected();
        QVERIFY(replayed.wait(60000));
        QVERIFY(editor->measureButton()->isEnabled());
        hub.cancel();
        hub.resumeLive();
        QVERIFY(finished.wait(240000) || !finished.isEmpty());
        QVERIFY(!editor->measureButton()->isEnabled());
        QVERIFY(editor->measureButton()->toolTip().contains(QLatin1String("No tuning session is running")));
    }
};

QTEST_MAIN(CodeEditorTest)
#include "code_editor_test.moc"
