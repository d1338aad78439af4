#include "app/gui/session_dialog.h"

#include "app/gui/settings_keys.h"
#include "core/cost/cost_model.h"
#include "core/graph/model_zoo.h"
#include "core/graph/op_tasks.h"
#include "core/search/task_policy.h"
#include "core/store/database.h"
#include "core/support/strings.h"
#include "core/target/target.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::app {

namespace {
    QSpinBox* spin(int lo, int hi, int value, QWidget* parent)
    {
        auto* box = new QSpinBox(parent);
        box->setRange(lo, hi);
        box->setValue(value);
        return box;
    }

    // "0, 3,5" -> {0, 3, 5}; false on anything else.
    bool parseIds(const QString& text, std::vector<int>& ids)
    {
        ids.clear();
        for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int id = part.trimmed().toInt(&ok);
            if (!ok || id < 0)
                return false;
            ids.push_back(id);
        }
        return true;
    }
} // namespace

SessionDialog::SessionDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("New tuning session"));
    setObjectName(QStringLiteral("SessionDialog"));

    // What to tune
    auto* what = new QGroupBox(tr("What to tune"), this);
    m_byNetwork = new QRadioButton(tr("&Network"), what);
    m_byOperator = new QRadioButton(tr("&Operator"), what);
    m_byNetwork->setChecked(true);
    m_network = new QComboBox(what);
    for (const graph::NetworkInfo& n : graph::networks())
        m_network->addItem(QString::fromStdString(n.name));
    m_batch = spin(1, 4096, 1, what);
    m_layout = new QComboBox(what);
    m_layout->addItems({ QStringLiteral("NCHW"), QStringLiteral("NHWC") });
    m_taskIds = new QLineEdit(what);
    m_taskIds->setPlaceholderText(tr("all tasks, or ids such as 0,3,5"));
    m_op = new QComboBox(what);
    for (const graph::OperatorInfo& o : graph::operators())
        m_op->addItem(QString::fromStdString(o.name), QString::fromStdString(o.shapeValues));
    m_shape = new QLineEdit(what);
    auto* whatForm = new QFormLayout(what);
    whatForm->addRow(m_byNetwork);
    whatForm->addRow(tr("Network:"), m_network);
    whatForm->addRow(tr("Batch:"), m_batch);
    whatForm->addRow(tr("Tasks:"), m_taskIds);
    whatForm->addRow(m_byOperator);
    whatForm->addRow(tr("Operator:"), m_op);
    whatForm->addRow(tr("Shape:"), m_shape);
    whatForm->addRow(tr("Layout:"), m_layout);

    // Shadow models: in the left column, under what to tune, where the taller right column leaves room.
    auto* shadows = new QGroupBox(tr("Shadow models"), this);
    shadows->setObjectName(QStringLiteral("shadowModels"));
    m_shadows = new QListWidget(shadows);
    m_shadows->setObjectName(QStringLiteral("shadowModelList"));
    for (const cost::CostModelKind& k : cost::costModelKinds()) {
        auto* item = new QListWidgetItem(QString::fromStdString(k.kind), m_shadows);
        item->setData(Qt::UserRole, QString::fromStdString(k.kind));
        item->setToolTip(QString::fromStdString(k.description));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    // Takes the height the column has; a few rows at least, scrolled beyond that.
    m_shadows->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    m_shadows->setMinimumHeight(m_shadows->fontMetrics().height() * 5);
    auto* shadowsHint = new QLabel(tr("Scored on every round's candidates, without steering; compared in "
                                      "Predicted vs measured."),
        shadows);
    shadowsHint->setWordWrap(true);
    auto* shadowsLayout = new QVBoxLayout(shadows);
    shadowsLayout->addWidget(shadowsHint);
    shadowsLayout->addWidget(m_shadows, 1);

    // How to search
    auto* how = new QGroupBox(tr("Search"), this);
    m_policy = new QComboBox(how);
    // Every registered policy (search::policies(), the order --help lists them), named as --policy spells it.
    for (const search::PolicyInfo& p : search::policies()) {
        m_policy->addItem(QStringLiteral("%1 (%2)").arg(QString::fromLatin1(p.name), QString::fromUtf8(p.description)),
            QString::fromLatin1(p.name));
        m_policy->setItemData(m_policy->count() - 1, QString::fromUtf8(p.description), Qt::ToolTipRole);
    }
    m_policy->setToolTip(tr("AutoTVM policies tune the tasks one of its hand-written templates fits; the cost "
                            "model below is Ansor's and is not used by them."));
    m_model = new QComboBox(how);
    for (const cost::CostModelKind& k : cost::costModelKinds())
        m_model->addItem(QString::fromStdString(k.kind), QString::fromStdString(k.kind));
    m_analyticalWarmup = new QCheckBox(tr("Rank the model's warm-up by the analytical estimate"), how);
    m_analyticalWarmup->setToolTip(tr("Until a learned model has trained (every task's first round), Ansor ranks the "
                                      "candidates at random; TuneScope ranks them by the roofline estimate, with "
                                      "the machine's measured limits when the Roofline view has measured them."));
    m_target = new QComboBox(how);
    m_target->setEditable(true);
    m_target->setInsertPolicy(QComboBox::NoInsert);
    m_target->addItem(tr("This machine's CPU (%1)").arg(QString::fromStdString(target::Target::host().cpuName)));
    for (const char* arch : { "sm_80", "sm_86", "sm_89", "sm_90" })
        m_target->addItem(QStringLiteral("cuda -arch=%1").arg(QLatin1String(arch)));
    m_target->setToolTip(tr("A CUDA target (or any TVM target string) searches with Ansor's GPU rules; its candidates "
                            "are measured by tunescope-gpu-runner on this machine's GPU, or on a GPU elsewhere "
                            "through the folder under Measurement."));
    m_trials = spin(1, 1000000, 200, how);
    m_perRound = spin(1, 1024, 64, how);
    m_seed = spin(0, 1 << 30, 1, how);
    m_threads = spin(0, 256, 0, how);
    m_threads->setSpecialValueText(tr("all cores (%1)").arg(QThread::idealThreadCount()));
    auto* howForm = new QFormLayout(how);
    howForm->addRow(tr("Policy:"), m_policy);
    howForm->addRow(tr("Cost model:"), m_model);
    howForm->addRow(m_analyticalWarmup);
    howForm->addRow(tr("Target:"), m_target);
    howForm->addRow(tr("Trials (all sessions of these tasks):"), m_trials);
    howForm->addRow(tr("Measures per round:"), m_perRound);
    howForm->addRow(tr("Seed:"), m_seed);
    howForm->addRow(tr("Threads:"), m_threads);

    // How to measure
    auto* measure = new QGroupBox(tr("Measurement"), this);
    m_number = spin(1, 1000, 3, measure);
    m_repeat = spin(1, 100, 1, measure);
    m_minRepeatMs = spin(0, 10000, 100, measure);
    m_flushCache = new QCheckBox(tr("Flush caches before each repeat"), measure);
    m_layoutRewrite = new QComboBox(measure);
    m_layoutRewrite->setObjectName(QStringLiteral("layoutRewrite"));
    m_layoutRewrite->addItem(tr("as TVM (2 for a network, 1 for an operator)"), -1);
    m_layoutRewrite->addItem(tr("none"), 0);
    m_layoutRewrite->addItem(tr("weights packed in the kernel (1)"), 1);
    m_layoutRewrite->addItem(tr("weights packed before the runs (2)"), 2);
    m_layoutRewrite->setToolTip(
        tr("Ansor's layout_rewrite_option (CPU targets): a conv2d's, dense's, matmul's or "
           "batch_matmul's weight packed into the layout the schedule's loops read, inside the timed "
           "kernel (1, TVM's default for an operator) or once before the timed runs (2, "
           "as a network's constant weights are). As TVM: 2 for a network's tasks, 1 for an operator, none for "
           "AutoTVM policies and GPU targets."));
    m_buildTimeout = new QDoubleSpinBox(measure);
    m_buildTimeout->setRange(0.5, 600);
    m_buildTimeout->setValue(15);
    m_buildTimeout->setSuffix(tr(" s"));
    m_runTimeout = new QDoubleSpinBox(measure);
    m_runTimeout->setRange(0.5, 600);
    m_runTimeout->setValue(10);
    m_runTimeout->setSuffix(tr(" s"));
    m_exchange = new QLineEdit(measure);
    m_exchange->setPlaceholderText(tr("empty: this machine's GPU"));
    m_exchange->setToolTip(
        tr("GPU targets measured on another machine: each batch is written to this folder as batch-PID-K.jsonl; "
           "run it there with tunescope-gpu-runner and move the output here as batch-PID-K.results.jsonl. The "
           "session waits for it (Stop ends the wait)."));
    auto* measureForm = new QFormLayout(measure);
    measureForm->addRow(tr("Number:"), m_number);
    measureForm->addRow(tr("Repeat:"), m_repeat);
    measureForm->addRow(tr("min_repeat_ms:"), m_minRepeatMs);
    measureForm->addRow(m_flushCache);
    measureForm->addRow(tr("Layout rewrite:"), m_layoutRewrite);
    measureForm->addRow(tr("Build timeout:"), m_buildTimeout);
    measureForm->addRow(tr("Run timeout:"), m_runTimeout);
    measureForm->addRow(tr("GPU elsewhere, through:"), m_exchange);
    m_measureOn = new QComboBox(measure);
    m_measureOn->setObjectName(QStringLiteral("measureOn"));
    m_measureOn->addItem(tr("This machine"), QStringLiteral("local"));
    m_measureOn->addItem(tr("Workers (PostgreSQL workspace)"), QStringLiteral("workers"));
    m_measureOn->setToolTip(tr("Workers: each batch is queued in the workspace and measured by tunescope-worker "
                               "processes on any machine (docs/workers.md); needs a postgresql:// workspace."));
    measureForm->addRow(tr("Measure on:"), m_measureOn);

    // Where
    m_workspace = new QLineEdit(this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Workspace"), m_workspace->text(),
            tr("TuneScope workspaces (*.tunescope);;All files (*)"), nullptr, QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty())
            m_workspace->setText(path);
    });
    auto* workspaceRow = new QHBoxLayout;
    workspaceRow->addWidget(new QLabel(tr("Workspace:"), this));
    workspaceRow->addWidget(m_workspace, 1);
    workspaceRow->addWidget(browse);

    m_error = new QLabel(this);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Start"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SessionDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SessionDialog::reject);

    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(what);
    left->addWidget(shadows, 1);
    auto* right = new QVBoxLayout;
    right->addWidget(how);
    right->addWidget(measure);
    columns->addLayout(left);
    columns->addLayout(right);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addLayout(workspaceRow);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_byNetwork, &QRadioButton::toggled, this, &SessionDialog::updateEnabled);
    connect(m_policy, &QComboBox::currentIndexChanged, this, &SessionDialog::updateEnabled);
    connect(m_op, &QComboBox::currentIndexChanged, this,
        [this] { m_shape->setPlaceholderText(m_op->currentData().toString()); });
    for (QLineEdit* edit : { m_taskIds, m_shape, m_workspace })
        connect(edit, &QLineEdit::textChanged, m_error, &QLabel::clear);
    restoreValues();
    m_shape->setPlaceholderText(m_op->currentData().toString());
    updateEnabled();
}

void SessionDialog::updateEnabled()
{
    const bool network = m_byNetwork->isChecked();
    for (QWidget* w : std::initializer_list<QWidget*> { m_network, m_batch, m_taskIds })
        w->setEnabled(network);
    for (QWidget* w : std::initializer_list<QWidget*> { m_op, m_shape })
        w->setEnabled(!network);
    // Shadow models score the candidates the session's model ranked: only Ansor's search ranks with it.
    const QString policy = m_policy->currentData().toString();
    const bool ansor = policy == QLatin1String(search::toString(search::PolicyKind::Ansor));
    QWidget* shadows = m_shadows->parentWidget();
    shadows->setEnabled(ansor);
    shadows->setToolTip(ansor ? tr("Extra cost models, trained on the same records as the session's model: each "
                                   "scores every round's candidates without steering the search, and the Predicted "
                                   "vs measured view draws each one's pairwise accuracy and Spearman per round.")
                              : tr("Shadow models score the candidates the session's model ranks; the %1 policy "
                                   "does not rank with the session's model (Ansor only).")
                                    .arg(policy));
}

void SessionDialog::setTask(const QString& network, int64_t batch, const QString& layout, int taskId)
{
    m_byNetwork->setChecked(true);
    m_network->setCurrentText(network);
    m_batch->setValue(static_cast<int>(batch));
    m_layout->setCurrentText(layout);
    m_taskIds->setText(QString::number(taskId));
}

void SessionDialog::addNetworks(const QStringList& names)
{
    for (const QString& name : names)
        if (m_network->findText(name) < 0)
            m_network->addItem(name);
}

void SessionDialog::setWorkspace(const QString& path) { m_workspace->setText(path); }

QString SessionDialog::workspace() const { return m_workspace->text().trimmed(); }

engine::TuneOrigin SessionDialog::origin() const
{
    engine::TuneOrigin origin;
    origin.layout = m_layout->currentText().toStdString();
    if (m_byNetwork->isChecked()) {
        origin.network = m_network->currentText().toStdString();
        origin.batch = m_batch->value();
        parseIds(m_taskIds->text(), origin.taskIds);
    } else {
        origin.op = m_op->currentText().toStdString();
        origin.shape = m_shape->text().remove(QLatin1Char(' ')).toStdString();
    }
    return origin;
}

engine::TuneOptions SessionDialog::options() const
{
    engine::TuneOptions o;
    if (auto policy = search::policyKindFromString(m_policy->currentData().toString().toStdString()))
        o.policy = *policy;
    o.model = m_model->currentData().toString().toStdString();
    o.search.analyticalWarmup = m_analyticalWarmup->isChecked();
    if (o.policy == search::PolicyKind::Ansor) // the engine refuses shadows for the others
        for (int i = 0; i < m_shadows->count(); ++i)
            if (m_shadows->item(i)->checkState() == Qt::Checked)
                o.shadowModels.push_back(m_shadows->item(i)->data(Qt::UserRole).toString().toStdString());
    o.trials = m_trials->value();
    o.measuresPerRound = m_perRound->value();
    o.seed = static_cast<uint64_t>(m_seed->value());
    o.searchThreads = m_threads->value();
    o.measure.buildParallelism = m_threads->value();
    o.measure.timing.number = m_number->value();
    o.measure.timing.repeat = m_repeat->value();
    o.measure.timing.minRepeatMs = m_minRepeatMs->value();
    o.measure.timing.flushCache = m_flushCache->isChecked();
    o.measure.layoutRewrite = m_layoutRewrite->currentData().toInt();
    o.measure.buildTimeoutMs = static_cast<int>(m_buildTimeout->value() * 1000);
    o.measure.runTimeoutMs = static_cast<int>(m_runTimeout->value() * 1000);
    o.workspace = workspace().toStdString();
    o.measureOnWorkers = m_measureOn->currentData().toString() == QLatin1String("workers");
    if (auto t = target())
        o.measure.target = *t;
    if (o.measure.layoutRewrite < 0)
        o.measure.layoutRewrite = engine::defaultLayoutRewrite(o.policy, m_byNetwork->isChecked(), o.measure.target);
    if (o.measure.target.isGpu()) {
        o.measure.layoutRewrite = 0; // Ansor rewrites no layout on a GPU
        o.measure.gpuExchangeDir = m_exchange->text().trimmed().toStdString();
    }
    return o;
}

Expected<target::Target> SessionDialog::target() const
{
    if (m_target->currentText() == m_target->itemText(0))
        return target::Target::host();
    return target::fromTvm(m_target->currentText().trimmed().toStdString());
}

QString SessionDialog::validate() const
{
    const Expected<target::Target> t = target();
    if (!t)
        return tr("Target: %1").arg(QString::fromStdString(t.error().message));
    const auto policy = search::policyKindFromString(m_policy->currentData().toString().toStdString());
    if (policy && t->isGpu() && search::isAutotvm(*policy))
        return tr("Policy: AutoTVM's templates here are CPU templates; tune a GPU target with Ansor or random "
                  "sampling.");
    if (m_measureOn->currentData().toString() == QLatin1String("workers")
        && !store::isPostgresUrl(workspace().toStdString()))
        return tr("Measurement: workers measure a PostgreSQL workspace's queue; give a postgresql:// workspace, "
                  "or measure on this machine.");
    if (const QString exchange = m_exchange->text().trimmed(); !exchange.isEmpty()) {
        if (!t->isGpu())
            return tr("Measurement: a folder for a GPU elsewhere needs a GPU target.");
        if (!QDir().mkpath(exchange))
            return tr("Measurement: cannot make the folder %1.").arg(exchange);
    }
    std::vector<int> ids;
    if (m_byNetwork->isChecked() && !parseIds(m_taskIds->text(), ids))
        return tr("Tasks: give task ids separated by commas (such as 0,3,5), or nothing for all tasks.");
    if (m_byOperator->isChecked()) {
        auto shape = graph::parseShapeValues(m_shape->text().remove(QLatin1Char(' ')).toStdString());
        if (m_shape->text().trimmed().isEmpty() || !shape)
            return tr("Shape: %1 takes %2.").arg(m_op->currentText(), m_op->currentData().toString());
        std::vector<int64_t> values = std::move(shape).value();
        auto layout = ops::layoutFromString(m_layout->currentText().toStdString());
        auto task = graph::operatorTask(m_op->currentText().toStdString(), values, *layout);
        if (!task)
            return QString::fromStdString(task.error().message);
        if (policy)
            if (auto supported = search::policySupports(*policy, task->dag, *t); !supported)
                return tr("Policy: %1").arg(QString::fromStdString(supported.error().message));
    }
    if (workspace().isEmpty())
        return tr("Choose a workspace file.");
    return {};
}

void SessionDialog::accept()
{
    const QString problem = validate();
    if (!problem.isEmpty()) {
        m_error->setText(problem);
        return;
    }
    saveValues();
    QDialog::accept();
}

void SessionDialog::restoreValues()
{
    QSettings settings;
    settings.beginGroup(settings::kSessionDialogGroup);
    m_byOperator->setChecked(settings.value(QStringLiteral("byOperator"), false).toBool());
    m_network->setCurrentText(settings.value(QStringLiteral("network"), m_network->currentText()).toString());
    m_batch->setValue(settings.value(QStringLiteral("batch"), 1).toInt());
    m_layout->setCurrentText(settings.value(QStringLiteral("layout"), QStringLiteral("NCHW")).toString());
    m_taskIds->setText(settings.value(QStringLiteral("tasks")).toString());
    m_op->setCurrentText(settings.value(QStringLiteral("op"), m_op->currentText()).toString());
    m_shape->setText(settings.value(QStringLiteral("shape")).toString());
    m_policy->setCurrentIndex(m_policy->findData(settings.value(QStringLiteral("policy"), QStringLiteral("ansor"))));
    m_model->setCurrentIndex(
        std::max(0, m_model->findData(settings.value(QStringLiteral("model"), QStringLiteral("xgb")))));
    const QString target = settings.value(QStringLiteral("target")).toString(); // empty: this machine's CPU
    m_target->setCurrentText(target.isEmpty() ? m_target->itemText(0) : target);
    m_trials->setValue(settings.value(QStringLiteral("trials"), 200).toInt());
    m_perRound->setValue(settings.value(QStringLiteral("perRound"), 64).toInt());
    m_seed->setValue(settings.value(QStringLiteral("seed"), 1).toInt());
    m_threads->setValue(settings.value(QStringLiteral("threads"), 0).toInt());
    m_number->setValue(settings.value(QStringLiteral("number"), 3).toInt());
    m_repeat->setValue(settings.value(QStringLiteral("repeat"), 1).toInt());
    m_minRepeatMs->setValue(settings.value(QStringLiteral("minRepeatMs"), 100).toInt());
    m_flushCache->setChecked(settings.value(QStringLiteral("flushCache"), false).toBool());
    m_analyticalWarmup->setChecked(settings.value(QStringLiteral("analyticalWarmup"), true).toBool());
    const QStringList shadows = settings.value(QStringLiteral("shadowModels")).toStringList();
    for (int i = 0; i < m_shadows->count(); ++i)
        m_shadows->item(i)->setCheckState(
            shadows.contains(m_shadows->item(i)->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    m_layoutRewrite->setCurrentIndex(
        std::max(0, m_layoutRewrite->findData(settings.value(QStringLiteral("layoutRewrite"), -1).toInt())));
    m_buildTimeout->setValue(settings.value(QStringLiteral("buildTimeout"), 15.0).toDouble());
    m_runTimeout->setValue(settings.value(QStringLiteral("runTimeout"), 10.0).toDouble());
    m_exchange->setText(settings.value(QStringLiteral("gpuExchange")).toString());
}

void SessionDialog::saveValues() const
{
    QSettings settings;
    settings.beginGroup(settings::kSessionDialogGroup);
    settings.setValue(QStringLiteral("byOperator"), m_byOperator->isChecked());
    settings.setValue(QStringLiteral("network"), m_network->currentText());
    settings.setValue(QStringLiteral("batch"), m_batch->value());
    settings.setValue(QStringLiteral("layout"), m_layout->currentText());
    settings.setValue(QStringLiteral("tasks"), m_taskIds->text());
    settings.setValue(QStringLiteral("op"), m_op->currentText());
    settings.setValue(QStringLiteral("shape"), m_shape->text());
    settings.setValue(QStringLiteral("policy"), m_policy->currentData());
    settings.setValue(QStringLiteral("model"), m_model->currentData());
    settings.setValue(QStringLiteral("target"),
        m_target->currentText() == m_target->itemText(0) ? QString() : m_target->currentText());
    settings.setValue(QStringLiteral("trials"), m_trials->value());
    settings.setValue(QStringLiteral("perRound"), m_perRound->value());
    settings.setValue(QStringLiteral("seed"), m_seed->value());
    settings.setValue(QStringLiteral("threads"), m_threads->value());
    settings.setValue(QStringLiteral("number"), m_number->value());
    settings.setValue(QStringLiteral("repeat"), m_repeat->value());
    settings.setValue(QStringLiteral("minRepeatMs"), m_minRepeatMs->value());
    settings.setValue(QStringLiteral("flushCache"), m_flushCache->isChecked());
    settings.setValue(QStringLiteral("analyticalWarmup"), m_analyticalWarmup->isChecked());
    QStringList shadows;
    for (int i = 0; i < m_shadows->count(); ++i)
        if (m_shadows->item(i)->checkState() == Qt::Checked)
            shadows.push_back(m_shadows->item(i)->data(Qt::UserRole).toString());
    settings.setValue(QStringLiteral("shadowModels"), shadows);
    settings.setValue(QStringLiteral("layoutRewrite"), m_layoutRewrite->currentData());
    settings.setValue(QStringLiteral("buildTimeout"), m_buildTimeout->value());
    settings.setValue(QStringLiteral("gpuExchange"), m_exchange->text().trimmed());
    settings.setValue(QStringLiteral("runTimeout"), m_runTimeout->value());
}

} // namespace ts::app
