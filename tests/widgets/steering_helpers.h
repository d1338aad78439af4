// Helpers the steering GUI tests share (issue 41): typing into the schedule editor as a person does, the loop nest a
// step list replays to, the lines of a list widget, and the shadow models' lines as a session stored them and as
// the Predicted vs measured view draws them. Used by code_editor_test, steering_view_test, shadow_models_view_test
// and steering_walkthrough_test.
#pragma once

#include "core/engine/shadow_models.h"
#include "core/schedule/state.h"
#include "core/store/store.h"
#include "widgets/models/code_listing.h"
#include "widgets/shadow_metrics_plot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTest>

#include <string>
#include <utility>
#include <vector>

namespace ts::testing {

// Selects `from`..`to` (character positions) of the editor and types `text` there, key by key, as a person does.
inline void typeOver(QPlainTextEdit* edit, int from, int to, const QString& text)
{
    QTextCursor cursor = edit->textCursor();
    cursor.setPosition(from);
    cursor.setPosition(to, QTextCursor::KeepAnchor);
    edit->setTextCursor(cursor);
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (i > 0)
            QTest::keyClick(edit, Qt::Key_Return);
        QTest::keyClicks(edit, lines[i]);
    }
}

// The loop nest of `steps` replayed on `dag`, as the Code view prints it.
inline QString loopNestOf(const ir::ComputeDAG& dag, const std::vector<sched::Step>& steps)
{
    auto state = sched::State::replay(dag, steps);
    if (!state)
        qFatal("%s", state.error().message.c_str());
    return QString::fromStdString(models::loopNestText(*state));
}

// The texts of a list widget's items, in order.
inline QStringList listLines(const QListWidget* list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

// The shadow models' lines the engine stored with a session (settings["shadow_models"]: every round's
// RoundDone::shadows); empty when there are none or the workspace cannot be read.
inline std::vector<engine::ShadowMetrics> storedShadowLines(const QString& workspace, int64_t sessionId)
{
    store::OpenOptions readOnly;
    readOnly.readOnly = true;
    auto store = store::Store::open(workspace.toStdString(), readOnly);
    if (!store)
        return {};
    auto sessions = store->sessions();
    if (!sessions)
        return {};
    for (const store::SessionInfo& s : *sessions)
        if (s.id == sessionId) {
            const QJsonObject settings = QJsonDocument::fromJson(QByteArray::fromStdString(s.settings)).object();
            if (!settings.contains(QStringLiteral("shadow_models")))
                return {};
            const QByteArray lines = QJsonDocument(settings.value(QStringLiteral("shadow_models")).toArray())
                                         .toJson(QJsonDocument::Compact);
            auto parsed = engine::shadowMetricsFromJson(lines.toStdString());
            return parsed ? std::move(parsed).value() : std::vector<engine::ShadowMetrics> {};
        }
    return {};
}

// A (kind, session) model's lines, in round order.
inline std::vector<engine::ShadowMetrics> shadowLinesOf(
    const std::vector<engine::ShadowMetrics>& lines, const std::string& kind, bool session)
{
    std::vector<engine::ShadowMetrics> out;
    for (const engine::ShadowMetrics& l : lines)
        if (l.kind == kind && l.session == session)
            out.push_back(l);
    return out;
}

// The plot draws each model's lines as (round, metric), one point per round, the session's model apart.
inline void checkShadowPlot(widgets::ShadowMetricsPlot* plot, const std::vector<engine::ShadowMetrics>& lines,
    const std::vector<std::pair<std::string, bool>>& models, int rounds, bool spearman)
{
    QCOMPARE(plot->series().size(), models.size());
    QCOMPARE(plot->graphCount(), static_cast<int>(models.size()));
    for (size_t m = 0; m < models.size(); ++m) {
        const widgets::ShadowMetricsPlot::Series& s = plot->series()[m];
        QCOMPARE(s.kind, models[m].first);
        QCOMPARE(s.session, models[m].second);
        QCOMPARE(s.graph->name(),
            s.session ? QStringLiteral("%1 (session)").arg(QString::fromStdString(s.kind))
                      : QString::fromStdString(s.kind));
        const std::vector<engine::ShadowMetrics> own = shadowLinesOf(lines, s.kind, s.session);
        QCOMPARE(static_cast<int>(own.size()), rounds);
        QCOMPARE(s.graph->dataCount(), rounds);
        for (int i = 0; i < rounds; ++i) {
            const auto point = s.graph->data()->at(i);
            QCOMPARE(point->key, static_cast<double>(own[static_cast<size_t>(i)].round));
            QCOMPARE(point->value,
                spearman ? own[static_cast<size_t>(i)].spearman : own[static_cast<size_t>(i)].pairwiseAccuracy);
        }
    }
    // The session's model stands apart: its own layer (drawn over the shadows), a thicker, darker line.
    QCOMPARE(plot->series().front().graph->layer()->name(), QStringLiteral("session"));
    QVERIFY(plot->series().front().graph->pen().widthF() > plot->series().back().graph->pen().widthF());
    QVERIFY(plot->legend->visible());
    QCOMPARE(plot->legend->itemCount(), static_cast<int>(models.size()));
}

// The means table holds engine::summarize of the lines, one row per model in the plot's order.
inline void checkShadowTable(QTableWidget* table, const std::vector<engine::ShadowMetrics>& lines)
{
    const std::vector<engine::ShadowSummary> summary = engine::summarize(lines);
    QCOMPARE(table->rowCount(), static_cast<int>(summary.size()));
    for (size_t i = 0; i < summary.size(); ++i) {
        const int row = static_cast<int>(i);
        const engine::ShadowSummary& m = summary[i];
        QVERIFY(table->item(row, 0)->text().startsWith(QString::fromStdString(m.kind)));
        QCOMPARE(table->item(row, 0)->text().endsWith(QStringLiteral("(session)")), m.session);
        QCOMPARE(table->item(row, 1)->text(), QString::number(m.rounds));
        QCOMPARE(table->item(row, 2)->text(), QString::number(m.meanPairwiseAccuracy, 'f', 3));
        QCOMPARE(table->item(row, 3)->text(), QString::number(m.meanSpearman, 'f', 3));
    }
}

} // namespace ts::testing
