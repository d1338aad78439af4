#include "app/gui/constraint_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace ts::app {

namespace {
    // The parts of a split a person means most often: its innermost tiles, then its outermost lengths.
    struct PartChoice {
        const char* text;
        int part;
    };
    constexpr PartChoice kParts[] = {
        { QT_TRANSLATE_NOOP("ts::app::ConstraintDialog", "innermost tile"), -1 },
        { QT_TRANSLATE_NOOP("ts::app::ConstraintDialog", "second innermost"), -2 },
        { QT_TRANSLATE_NOOP("ts::app::ConstraintDialog", "third innermost"), -3 },
        { QT_TRANSLATE_NOOP("ts::app::ConstraintDialog", "outermost"), 0 },
        { QT_TRANSLATE_NOOP("ts::app::ConstraintDialog", "second outermost"), 1 },
    };

    QString joined(const std::vector<int64_t>& values)
    {
        QStringList parts;
        for (int64_t v : values)
            parts << QString::number(v);
        return parts.join(QStringLiteral(", "));
    }
} // namespace

ConstraintDialog::ConstraintDialog(const QString& taskName, ir::ComputeDAG dag, QWidget* parent)
    : QDialog(parent)
    , m_dag(std::move(dag))
    , m_stages(models::splitStages(m_dag))
    , m_kind(new QComboBox(this))
    , m_form(new QFormLayout)
    , m_splitRow(new QWidget(this))
    , m_boundRow(new QWidget(this))
    , m_sketchRow(new QWidget(this))
    , m_stage(new QComboBox(m_splitRow))
    , m_loop(new QComboBox(m_splitRow))
    , m_part(new QComboBox(m_splitRow))
    , m_boundKind(new QComboBox(m_boundRow))
    , m_value(new QLineEdit(m_boundRow))
    , m_ruleMode(new QComboBox(m_sketchRow))
    , m_rule(new QComboBox(m_sketchRow))
    , m_hint(new QLabel(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Add a constraint to %1").arg(taskName));
    m_kind->setObjectName(QStringLiteral("constraintKind"));
    m_stage->setObjectName(QStringLiteral("constraintStage"));
    m_loop->setObjectName(QStringLiteral("constraintLoop"));
    m_part->setObjectName(QStringLiteral("constraintPart"));
    m_boundKind->setObjectName(QStringLiteral("constraintBound"));
    m_value->setObjectName(QStringLiteral("constraintValue"));
    m_ruleMode->setObjectName(QStringLiteral("constraintRuleMode"));
    m_rule->setObjectName(QStringLiteral("constraintRule"));

    m_kind->addItem(tr("split factor"), static_cast<int>(Kind::Split));
    m_kind->addItem(tr("unroll limit"), static_cast<int>(Kind::Unroll));
    m_kind->addItem(tr("vector length"), static_cast<int>(Kind::Vectorize));
    m_kind->addItem(tr("parallel extent"), static_cast<int>(Kind::Parallel));
    m_kind->addItem(tr("sketch rule"), static_cast<int>(Kind::Sketch));
    for (const models::SplitStage& stage : m_stages)
        m_stage->addItem(QString::fromStdString(stage.name));
    for (const PartChoice& p : kParts)
        m_part->addItem(tr(p.text), p.part);
    m_boundKind->addItem(tr("equals"), static_cast<int>(BoundKind::Equals));
    m_boundKind->addItem(tr("at least"), static_cast<int>(BoundKind::Min));
    m_boundKind->addItem(tr("at most"), static_cast<int>(BoundKind::Max));
    m_boundKind->addItem(tr("one of"), static_cast<int>(BoundKind::In));
    m_value->setPlaceholderText(tr("a number; for \"one of\": 0, 16, 64"));
    m_ruleMode->addItem(tr("forbid"), true);
    m_ruleMode->addItem(tr("require"), false);
    for (const char* rule : search::kSketchRules)
        m_rule->addItem(QString::fromLatin1(rule));
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->hide();

    auto row = [](QWidget* owner, std::initializer_list<QWidget*> widgets) {
        auto* layout = new QHBoxLayout(owner);
        layout->setContentsMargins(0, 0, 0, 0);
        for (QWidget* w : widgets)
            layout->addWidget(w, 1);
    };
    row(m_splitRow, { m_stage, m_loop, m_part });
    row(m_boundRow, { m_boundKind, m_value });
    row(m_sketchRow, { m_ruleMode, m_rule });

    m_form->addRow(tr("Task:"), new QLabel(taskName, this));
    m_form->addRow(tr("Kind:"), m_kind);
    m_form->addRow(tr("Split:"), m_splitRow);
    m_form->addRow(tr("Bound:"), m_boundRow);
    m_form->addRow(tr("Sketch rule:"), m_sketchRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addWidget(m_hint);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &ConstraintDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConstraintDialog::reject);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ConstraintDialog::onKindChanged);
    connect(m_stage, &QComboBox::currentIndexChanged, this, &ConstraintDialog::onStageChanged);
    for (QComboBox* box : { m_loop, m_part, m_boundKind })
        connect(box, &QComboBox::currentIndexChanged, this, &ConstraintDialog::updateHint);
    for (QComboBox* box : { m_kind, m_stage, m_loop, m_part, m_boundKind, m_ruleMode, m_rule })
        connect(box, &QComboBox::currentIndexChanged, m_error, &QWidget::hide);
    connect(m_value, &QLineEdit::textChanged, m_error, &QWidget::hide);
    onStageChanged();
    onKindChanged();
}

void ConstraintDialog::onKindChanged()
{
    const auto kind = static_cast<Kind>(m_kind->currentData().toInt());
    // A row's label goes with its field.
    m_form->setRowVisible(m_splitRow, kind == Kind::Split);
    m_form->setRowVisible(m_boundRow, kind != Kind::Sketch);
    m_form->setRowVisible(m_sketchRow, kind == Kind::Sketch);
    updateHint();
}

void ConstraintDialog::onStageChanged()
{
    m_loop->clear();
    const int stage = m_stage->currentIndex();
    if (stage >= 0)
        for (const models::SplitLoop& loop : m_stages[static_cast<size_t>(stage)].loops)
            m_loop->addItem(QString::fromStdString(loop.name), QVariant::fromValue<qint64>(loop.extent));
    updateHint();
}

void ConstraintDialog::updateHint()
{
    QString hint;
    switch (static_cast<Kind>(m_kind->currentData().toInt())) {
    case Kind::Split: {
        const qint64 extent = m_loop->currentData().toLongLong();
        if (extent > 0)
            hint = tr("%1.%2 has extent %3. A split of it can pin its %4 to one of its divisors: %5.")
                       .arg(m_stage->currentText(), m_loop->currentText())
                       .arg(extent)
                       .arg(m_part->currentText())
                       .arg(joined(models::divisors(extent)));
        break;
    }
    case Kind::Unroll:
        hint = tr("Bounds every auto_unroll_max_step the search picks (Ansor picks among 0, 16, 64 and 512 on a CPU).");
        break;
    case Kind::Vectorize:
        hint = tr("Bounds the extent of every vectorised loop.");
        break;
    case Kind::Parallel:
        hint = tr("Bounds, per stage, the product of its parallel loops' extents: the work the threads share.");
        break;
    case Kind::Sketch:
        hint = tr("Sketches that break the rule are not sampled at all.");
        break;
    }
    m_hint->setText(hint);
}

Expected<search::Bound> ConstraintDialog::bound() const
{
    std::vector<int64_t> values;
    for (const QString& part :
        m_value->text().split(QRegularExpression(QStringLiteral("[,\\s{}]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 value = part.toLongLong(&ok);
        if (!ok)
            return makeError(ErrorKind::InvalidArgument, tr("\"%1\" is not a whole number").arg(part).toStdString());
        values.push_back(value);
    }
    const auto kind = static_cast<BoundKind>(m_boundKind->currentData().toInt());
    if (values.empty())
        return makeError(ErrorKind::InvalidArgument, tr("give a value for the bound").toStdString());
    if (kind != BoundKind::In && values.size() > 1)
        return makeError(ErrorKind::InvalidArgument, tr("one value, or choose \"one of\" for a list").toStdString());
    search::Bound bound;
    switch (kind) {
    case BoundKind::Equals:
        bound.equals = values.front();
        break;
    case BoundKind::Min:
        bound.min = values.front();
        break;
    case BoundKind::Max:
        bound.max = values.front();
        break;
    case BoundKind::In:
        bound.in = values;
        break;
    }
    return bound;
}

Expected<search::Constraints> ConstraintDialog::constraint() const
{
    search::Constraints c;
    const auto kind = static_cast<Kind>(m_kind->currentData().toInt());
    if (kind == Kind::Sketch) {
        (m_ruleMode->currentData().toBool() ? c.forbid : c.require).push_back(m_rule->currentText().toStdString());
    } else {
        TS_TRY(search::Bound b, bound());
        switch (kind) {
        case Kind::Split:
            if (m_stage->currentIndex() < 0 || m_loop->currentIndex() < 0)
                return makeError(ErrorKind::InvalidArgument, tr("the task has no loop to split").toStdString());
            c.splits.push_back(search::SplitConstraint { m_stage->currentText().toStdString(),
                m_loop->currentText().toStdString(), m_part->currentData().toInt(), b });
            break;
        case Kind::Unroll:
            c.unroll = b;
            break;
        case Kind::Vectorize:
            c.vectorize = b;
            break;
        case Kind::Parallel:
            c.parallel = b;
            break;
        case Kind::Sketch:
            break;
        }
    }
    TS_CHECK(search::checkConstraints(c, m_dag));
    return c;
}

void ConstraintDialog::setKind(Kind kind) { m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(kind))); }

bool ConstraintDialog::setSplit(const QString& stage, const QString& loop, int part)
{
    const int stageIndex = m_stage->findText(stage);
    if (stageIndex < 0)
        return false;
    m_stage->setCurrentIndex(stageIndex);
    const int loopIndex = m_loop->findText(loop);
    const int partIndex = m_part->findData(part);
    if (loopIndex < 0 || partIndex < 0)
        return false;
    m_loop->setCurrentIndex(loopIndex);
    m_part->setCurrentIndex(partIndex);
    return true;
}

void ConstraintDialog::setBound(BoundKind kind, const QString& value)
{
    m_boundKind->setCurrentIndex(m_boundKind->findData(static_cast<int>(kind)));
    m_value->setText(value);
}

void ConstraintDialog::setSketchRule(bool forbid, const QString& rule)
{
    m_ruleMode->setCurrentIndex(m_ruleMode->findData(forbid));
    m_rule->setCurrentIndex(m_rule->findText(rule));
}

QString ConstraintDialog::errorText() const { return m_error->isHidden() ? QString() : m_error->text(); }

void ConstraintDialog::accept()
{
    if (auto c = constraint(); !c) {
        m_error->setText(QString::fromStdString(c.error().message));
        m_error->show();
        return;
    }
    QDialog::accept();
}

} // namespace ts::app
