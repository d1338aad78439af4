// The Records view on real workspaces: a real short session (a 64^3 matmul measured for real) and one failed
// record added to it, shown by the lazily loaded RecordsModel (QAbstractItemModelTester), filtered to its
// failures, paged on a 200k-record workspace, followed live, clicked into the SelectionContext, and
// exported as a repro whose measure.sh re-measures the record with the built tunescope-cli.
#include "session_fixture.h"

#include "app/gui/records_view.h"
#include "app/gui/view_registry.h"
#include "core/engine/repro_export.h"
#include "core/schedule/state.h"
#include "core/schedule/step_json.h"
#include "core/store/store.h"
#include "core/store/tvm_log.h"
#include "widgets/models/records_model.h"
#include "widgets/selection_context.h"
#include "widgets/session_hub.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QLocale>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

using namespace ts;

namespace {

std::string readText(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Waits for the model's next page.
bool waitForPage(models::RecordsModel& model, int timeoutMs = 20000)
{
    QSignalSpy loaded(&model, &models::RecordsModel::pageLoaded);
    return loaded.wait(timeoutMs) || !loaded.isEmpty();
}

constexpr const char* kTimeoutMessage = "the kernel ran past its 10 s limit and the runner was restarted";

} // namespace

class RecordsViewTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_workspace;
    std::unique_ptr<widgets::SessionHub> m_hub;
    std::shared_ptr<const models::SessionSnapshot> m_session;
    std::vector<store::Record> m_records; // the session's, in order, with the failed one added last
    int m_failures = 0;
    double m_flops = 0.0; // the task's, as stored

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_workspace = m_dir.filePath(QStringLiteral("ws.tunescope"));
        m_hub = std::make_unique<widgets::SessionHub>();
        m_hub->openWorkspace(m_workspace);
        QVERIFY(testing::runToEnd(*m_hub, testing::smallMatmul(), testing::shortRun(32, 16)));
        m_session = m_hub->current();
        QVERIFY(m_session && m_session->trials.size() == 32);

        // One failure with its message, as the measurer records a run timeout: a copy of a real record of the
        // session (its steps, task and device) with the failed result.
        auto store = store::Store::open(m_workspace.toStdString());
        QVERIFY(store);
        store::RecordFilter ofSession;
        ofSession.sessionId = m_session->sessionId;
        m_records = store->records(ofSession).value();
        m_flops = store->tasks().value().at(0).flops;
        QVERIFY(m_flops > 0.0);
        QCOMPARE(m_records.size(), size_t { 32 });
        store::Record failed = m_records[5];
        failed.id = 0;
        failed.fingerprint.reset();
        failed.result = record::failedResult(record::MeasureStatus::RunTimeout, kTimeoutMessage, 10.5);
        QCOMPARE(store->addRecords(std::span(&failed, 1)).value(), int64_t { 1 });
        m_records.push_back(failed);
        for (const store::Record& r : m_records)
            m_failures += r.result.ok() ? 0 : 1;
        QVERIFY(m_failures >= 1);
    }

    void theModelShowsEveryRecordOfARealSession()
    {
        models::RecordsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        models::RecordsFilterModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setWorkspace(m_workspace);
        QVERIFY(waitForPage(model));
        QCOMPARE(model.rowCount(), 33);
        QCOMPARE(model.totalCount(), int64_t { 33 });
        QVERIFY(!model.canFetchMore({}));
        for (int row = 0; row < model.rowCount(); ++row) {
            const store::Record& r = m_records[static_cast<size_t>(row)];
            auto cell = [&](int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
            QCOMPARE(cell(models::RecordsModel::IdColumn).toLongLong(), r.id);
            QCOMPARE(cell(models::RecordsModel::TaskColumn).toString(), QStringLiteral("matmul"));
            QCOMPARE(cell(models::RecordsModel::SessionColumn).toLongLong(), m_session->sessionId);
            QCOMPARE(
                cell(models::RecordsModel::StatusColumn).toString(), models::RecordsModel::statusText(r.result.status));
            QCOMPARE(cell(models::RecordsModel::IdColumn, models::RecordsModel::FailedRole).toBool(), !r.result.ok());
            if (r.result.ok()) {
                const double seconds
                    = cell(models::RecordsModel::CostColumn, models::RecordsModel::SortRole).toDouble();
                QCOMPARE(seconds, r.result.meanCost());
                QCOMPARE(cell(models::RecordsModel::CostColumn).toString(),
                    QLocale().toString(r.result.meanCost() * 1e6, 'f', 2));
                const double gflops
                    = cell(models::RecordsModel::GflopsColumn, models::RecordsModel::SortRole).toDouble();
                QVERIFY(qAbs(gflops - m_flops / r.result.meanCost() / 1e9) < 1e-9 * gflops);
            } else {
                QVERIFY(cell(models::RecordsModel::CostColumn).toString().isEmpty());
            }
        }
        // The failure added last: its message in its own column and as the status tooltip.
        const int last = model.rowCount() - 1;
        QCOMPARE(
            model.index(last, models::RecordsModel::StatusColumn).data().toString(), QStringLiteral("run timeout"));
        QCOMPARE(model.index(last, models::RecordsModel::MessageColumn).data().toString(),
            QString::fromUtf8(kTimeoutMessage));
        QCOMPARE(model.index(last, models::RecordsModel::StatusColumn).data(Qt::ToolTipRole).toString(),
            QString::fromUtf8(kTimeoutMessage));
        // The session's predictions and batch ranks are shown where the session stored them.
        QCOMPARE(model.index(0, models::RecordsModel::BatchRankColumn).data().toString(),
            m_records[0].batchRank ? QString::number(*m_records[0].batchRank) : QString());

        // Sorting by cost puts the cheapest first and the failure last.
        proxy.sort(models::RecordsModel::CostColumn, Qt::AscendingOrder);
        double cheapest = 1e30;
        for (const store::Record& r : m_records)
            if (r.result.ok())
                cheapest = std::min(cheapest, r.result.meanCost());
        QCOMPARE(
            proxy.index(0, models::RecordsModel::CostColumn).data(models::RecordsModel::SortRole).toDouble(), cheapest);
        QCOMPARE(proxy.index(proxy.rowCount() - 1, 0).data(models::RecordsModel::FailedRole).toBool(), true);
        // The text filter: "timeout" is in the failure's status and message only (unless others timed out).
        proxy.setText(QStringLiteral("TIMEOUT"));
        int timeouts = 0;
        for (const store::Record& r : m_records)
            timeouts += models::RecordsModel::statusText(r.result.status).contains(QStringLiteral("timeout"))
                    || QString::fromStdString(r.result.message).contains(QStringLiteral("timeout"), Qt::CaseInsensitive)
                ? 1
                : 0;
        QVERIFY(timeouts >= 1);
        QCOMPARE(proxy.rowCount(), timeouts);
        proxy.setText(QStringLiteral("matmul"));
        QCOMPARE(proxy.rowCount(), 33);
    }

    void theFailuresFilterAndTheSessionFilterRunInTheStore()
    {
        models::RecordsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setWorkspace(m_workspace);
        QVERIFY(waitForPage(model));
        model.setFailuresOnly(true);
        QCOMPARE(model.rowCount(), 0); // reset, the failures load
        QVERIFY(waitForPage(model));
        QCOMPARE(model.rowCount(), m_failures);
        QCOMPARE(model.totalCount(), int64_t { m_failures });
        for (int row = 0; row < model.rowCount(); ++row)
            QVERIFY(model.index(row, 0).data(models::RecordsModel::FailedRole).toBool());
        QCOMPARE(model.index(model.rowCount() - 1, models::RecordsModel::MessageColumn).data().toString(),
            QString::fromUtf8(kTimeoutMessage));
        model.setFailuresOnly(false);
        model.setSession(m_session->sessionId + 1); // no such session: nothing
        QVERIFY(waitForPage(model));
        QCOMPARE(model.rowCount(), 0);
        model.setSession(m_session->sessionId);
        QVERIFY(waitForPage(model));
        QCOMPARE(model.rowCount(), 33);
    }

    void aBigWorkspaceOpensWithOnePageAndFetchesTheNext()
    {
        // 200k records of the real schema, added through the store (setting up a paging test, not a session).
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("big.tunescope")).toStdString();
        constexpr int kRecords = 200'000;
        {
            auto store = store::Store::open(path);
            QVERIFY(store);
            const int64_t device = store->addDevice(store::deviceOf(target::Target::host())).value();
            const int64_t task = store->addTask(store::taskInfoOf("matmul", "big", "", 2.0 * 64 * 64 * 64)).value();
            std::vector<store::Record> batch(10'000);
            for (int i = 0; i < kRecords; i += static_cast<int>(batch.size())) {
                for (size_t j = 0; j < batch.size(); ++j) {
                    store::Record& r = batch[j];
                    r = store::Record {};
                    r.taskId = task;
                    r.deviceId = device;
                    r.steps = m_records[j % 32].steps;
                    r.stepCount = m_records[j % 32].stepCount;
                    r.result = m_records[j % 32].result;
                    r.result.timestamp = 1.7e9 + i + static_cast<double>(j);
                }
                QCOMPARE(store->addRecords(batch).value(), static_cast<int64_t>(batch.size()));
            }
        }
        models::RecordsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setWorkspace(QString::fromStdString(path));
        QVERIFY(waitForPage(model));
        QCOMPARE(model.rowCount(), model.pageSize());
        QCOMPARE(model.totalCount(), int64_t { kRecords });
        QVERIFY(model.canFetchMore({}));
        const int64_t lastOfFirst
            = model.index(model.rowCount() - 1, 0).data(models::RecordsModel::RecordIdRole).toLongLong();
        model.fetchMore({});
        QVERIFY(!model.canFetchMore({})); // one page in flight at a time
        QVERIFY(waitForPage(model));
        QCOMPARE(model.rowCount(), 2 * model.pageSize());
        QCOMPARE(
            model.index(model.pageSize(), 0).data(models::RecordsModel::RecordIdRole).toLongLong(), lastOfFirst + 1);
        QCOMPARE(inserted.size(), 2); // a page is one insertion

        // A table view on it asks for no more than it shows.
        QTableView view;
        view.resize(800, 300);
        view.setModel(&model);
        view.show();
        QCoreApplication::processEvents();
        QTest::qWait(200);
        QVERIFY(model.rowCount() <= 3 * model.pageSize());
    }

    void newRecordsOfALiveSessionAreAppended()
    {
        // The finished session's workspace, then a record stored after the model loaded: appendNew adds it
        // as one insertion, never a reset.
        models::RecordsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setWorkspace(m_workspace);
        QVERIFY(waitForPage(model));
        const int before = model.rowCount();
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        {
            auto store = store::Store::open(m_workspace.toStdString());
            QVERIFY(store);
            store::Record more = *std::find_if(
                m_records.begin(), m_records.end(), [](const store::Record& r) { return r.result.ok(); });
            more.id = 0;
            more.fingerprint.reset();
            more.result.timestamp += 1000;
            QCOMPARE(store->addRecords(std::span(&more, 1)).value(), int64_t { 1 });
            m_records.push_back(more);
        }
        model.appendNew();
        model.appendNew(); // coalesced with the one in flight
        QVERIFY(waitForPage(model));
        QTest::qWait(100);
        QCOMPARE(model.rowCount(), before + 1);
        QCOMPARE(reset.size(), 0);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(model.index(before, 0).data(models::RecordsModel::RecordIdRole).toLongLong(), m_records.back().id);
    }

    void aClickedRowReachesTheSelectionAndTheSelectionIsFollowed()
    {
        widgets::SelectionContext selection;
        app::ViewContext context { selection, *m_hub };
        app::RecordsView view(context);
        view.resize(1400, 320);
        view.show();
        QTRY_VERIFY(view.model()->rowCount() >= 33);
        QTRY_VERIFY(m_hub->sessions().size() == 1 && view.sessionCombo()->count() == 2);

        // Click record 7 of the session (the table is sorted by id).
        const store::Record& picked = m_records[7];
        const QModelIndex index = view.proxy()->mapFromSource(view.model()->index(7, 2));
        QCOMPARE(index.data(models::RecordsModel::RecordIdRole).toLongLong(), picked.id);
        view.tableView()->setCurrentIndex(index);
        QCOMPARE(selection.recordId(), std::optional<int64_t>(picked.id));
        QVERIFY(selection.task());
        QCOMPARE(selection.task()->dag.workloadKey(), m_session->tasks[0].task->dag.workloadKey());
        QVERIFY(selection.state());
        auto steps = sched::parseSteps(picked.steps);
        QVERIFY(steps);
        auto replayed = sched::State::replay(m_session->tasks[0].task->dag, *steps);
        QVERIFY(replayed);
        QCOMPARE(QString::fromStdString(selection.state()->toString()), QString::fromStdString(replayed->toString()));
        QVERIFY(view.exportAction()->isEnabled());

        // The added failure is not in the snapshot's trials: found by its task row.
        const QModelIndex failure = view.proxy()->mapFromSource(view.model()->index(32, 0));
        view.tableView()->setCurrentIndex(failure);
        QCOMPARE(selection.recordId(), std::optional<int64_t>(m_records[32].id));
        QVERIFY(selection.state());

        // Selected elsewhere (a tuning curve's point): the table follows.
        const store::Record& other = m_records[20];
        auto otherState = sched::State::replay(m_session->tasks[0].task->dag, *sched::parseSteps(other.steps));
        QVERIFY(otherState);
        selection.selectMeasured(
            m_session->tasks[0].task, std::make_shared<const sched::State>(std::move(otherState).value()), other.id);
        const QModelIndex current = view.proxy()->mapToSource(view.tableView()->currentIndex());
        QCOMPARE(current.row(), 20);
        QCOMPARE(selection.recordId(), std::optional<int64_t>(other.id));

        // The filter bar drives the model and the proxy.
        view.failuresOnlyBox()->setChecked(true);
        QTRY_COMPARE(view.model()->rowCount(), m_failures);
        view.failuresOnlyBox()->setChecked(false);
        QTRY_VERIFY(view.model()->rowCount() >= 33);
        view.sessionCombo()->setCurrentIndex(1);
        QCOMPARE(view.model()->session(), std::optional<int64_t>(m_session->sessionId));
        QTRY_VERIFY(view.model()->rowCount() >= 33);
        view.filterEdit()->setText(QStringLiteral("run timeout"));
        QVERIFY(view.proxy()->rowCount() >= 1);
        QVERIFY(view.proxy()->rowCount() < 33);
        view.failuresOnlyBox()->setChecked(true);
        QTRY_COMPARE(view.model()->rowCount(), m_failures);
        view.filterEdit()->clear();

        view.failuresOnlyBox()->setChecked(false);
        QTRY_VERIFY(view.model()->rowCount() >= 33);
        view.tableView()->setCurrentIndex(view.proxy()->index(32, 0));
        QTest::qWait(50);
        const QString shot = QStringLiteral("/tmp/records.png");
        QVERIFY(view.grab().save(shot));
    }

    void aReproFolderReMeasuresItsRecord()
    {
        const store::Record& picked = m_records[9];
        QTemporaryDir out;
        const QString dir = out.filePath(QStringLiteral("repro"));
        {
            // The core function, on its own Store.
            store::OpenOptions readOnly;
            readOnly.readOnly = true;
            auto store = store::Store::open(m_workspace.toStdString(), readOnly);
            QVERIFY(store);
            auto exported = engine::exportRepro(*store, picked.id, dir.toStdString());
            QVERIFY2(exported, exported ? "" : exported.error().message.c_str());
            QCOMPARE(exported->files,
                (std::vector<std::string> { "steps.json", "record.json", "loop_ir.c", "measure.sh", "README.md" }));
            QCOMPARE(exported->measureArgs,
                (std::vector<std::string> { "--workload", "matmul:64,64,64", "--steps", "steps.json" }));
            QVERIFY(exported->notes.empty());
            QVERIFY(!engine::exportRepro(*store, 999'999, dir.toStdString()));
        }
        // steps.json: the record's steps.
        QVERIFY(nlohmann::json::parse(readText(dir + QStringLiteral("/steps.json")))
            == nlohmann::json::parse(picked.steps));
        // record.json: a TVM log line keyed by the registered workload, with the record's steps and costs.
        auto line = store::parseLogLine(readText(dir + QStringLiteral("/record.json")));
        QVERIFY2(line && *line, line ? "a comment" : line.error().message.c_str());
        QCOMPARE((*line)->workloadKey, std::string(R"(["matmul", 64, 64, 64, "float32"])"));
        QVERIFY(nlohmann::json::parse((*line)->steps) == nlohmann::json::parse(picked.steps));
        QCOMPARE((*line)->result.costs, picked.result.costs);
        // loop_ir.c: the lowered loops.
        const std::string ir = readText(dir + QStringLiteral("/loop_ir.c"));
        QVERIFY2(ir.find("for (") != std::string::npos || ir.find("for ") != std::string::npos, ir.c_str());
        QVERIFY(ir.find("// target: ") != std::string::npos);
        QVERIFY(ir.find("does not lower") == std::string::npos);
        const std::string readme = readText(dir + QStringLiteral("/README.md"));
        QVERIFY(readme.find("record " + std::to_string(picked.id)) != std::string::npos
            || readme.find("Record " + std::to_string(picked.id)) != std::string::npos);

        // measure.sh re-measures it with the built CLI.
        QProcess measure;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TUNESCOPE_CLI"), QStringLiteral(TS_CLI_PATH));
        measure.setProcessEnvironment(env);
        measure.start(QStringLiteral("sh"),
            { dir + QStringLiteral("/measure.sh"), QStringLiteral("--repeat"), QStringLiteral("2") });
        QVERIFY(measure.waitForFinished(120000));
        const QString output = QString::fromUtf8(measure.readAllStandardOutput() + measure.readAllStandardError());
        QVERIFY2(measure.exitCode() == 0, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("matmul:64,64,64")), qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("status:   0 (ok)")), qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("checked:  outputs match")), qPrintable(output));

        // The view's action runs the same export in a job; a failed record's README says why it failed.
        widgets::SelectionContext selection;
        app::ViewContext context { selection, *m_hub };
        app::RecordsView view(context);
        QSignalSpy exported(&view, &app::RecordsView::reproExported);
        const QString failedDir = out.filePath(QStringLiteral("failed"));
        view.exportRepro(m_records[32].id, failedDir);
        QVERIFY(exported.wait(20000));
        QCOMPARE(exported.first().at(1).toString(), QString());
        const std::string failedReadme = readText(failedDir + QStringLiteral("/README.md"));
        QVERIFY2(failedReadme.find(std::string("failed: run timeout (") + kTimeoutMessage + ")") != std::string::npos,
            failedReadme.c_str());
    }

    // Last: it adds a session's records to the workspace the tests above count.
    void aLiveSessionsRecordsAreAppendedWhileItRuns()
    {
        widgets::SelectionContext selection;
        app::ViewContext context { selection, *m_hub };
        app::RecordsView view(context);
        QTRY_VERIFY(view.model()->totalCount() >= 0 && !view.model()->isLoading());
        const int before = view.model()->rowCount();
        QSignalSpy reset(view.model(), &QAbstractItemModel::modelReset);
        int insertedWhileLive = 0;
        connect(view.model(), &QAbstractItemModel::rowsInserted, this, [&] {
            if (m_hub->isLive())
                ++insertedWhileLive;
        });
        // 16 more trials of the same task (the budget counts the earlier session's 32).
        QVERIFY(testing::runToEnd(*m_hub, testing::smallMatmul(), testing::shortRun(48, 8)));
        auto store = store::Store::open(m_workspace.toStdString());
        QVERIFY(store);
        const int64_t stored = store->recordCount().value();
        QVERIFY(stored > before);
        QTRY_COMPARE(static_cast<int64_t>(view.model()->rowCount()), stored);
        QVERIFY(insertedWhileLive >= 1); // appended while it ran, not only at the end
        QCOMPARE(reset.size(), 0);
    }
};

QTEST_MAIN(RecordsViewTest)
#include "records_view_test.moc"
