// The interface in Simplified Chinese (issue 41): --lang codes and system locales map to the bundled
// translations; the zh_CN .qm loads from the resources and translates known strings; the main window renders
// under it with its menus and docks in Chinese; and, where a CJK font is installed (fonts-noto-cjk), the fonts
// the window lays Chinese text out with have the glyphs, so the picture shows characters and no boxes.
#include "app/gui/main_window.h"
#include "app/gui/ui_language.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGlyphRun>
#include <QImage>
#include <QLibraryInfo>
#include <QMenuBar>
#include <QRawFont>
#include <QSet>
#include <QSettings>
#include <QTest>
#include <QTextLayout>
#include <QTranslator>

using namespace ts;

namespace {

QStringList menuTitles(const QMainWindow& window)
{
    QStringList titles;
    for (const QAction* action : window.menuBar()->actions())
        if (action->menu())
            titles.append(action->text());
    return titles;
}

} // namespace

class UiLanguageTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("TuneScopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ui_language_test"));
        QSettings().clear();
    }

    void languageCodesAndLocales()
    {
        QCOMPARE(app::uiLanguageFor(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("zh-CN")), QStringLiteral("zh_CN"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("zh")), QStringLiteral("zh_CN"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("zh_Hans_CN")), QStringLiteral("zh_CN"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("zh_SG")), QStringLiteral("zh_CN"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("zh_TW")), QString()); // Traditional: not bundled
        QCOMPARE(app::uiLanguageFor(QStringLiteral("de")), QStringLiteral("de"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("de_AT")), QStringLiteral("de"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("en")), QStringLiteral("en"));
        QCOMPARE(app::uiLanguageFor(QStringLiteral("fr")), QString());
        QCOMPARE(app::uiLanguageFor(QStringLiteral("klingon")), QString());
        QCOMPARE(app::uiLanguageFor(QLocale(QLocale::Chinese, QLocale::SimplifiedHanScript, QLocale::China)),
            QStringLiteral("zh_CN"));
        QCOMPARE(app::uiLanguageFor(QLocale(QLocale::Chinese, QLocale::China)), QStringLiteral("zh_CN"));
        QCOMPARE(app::uiLanguageFor(QLocale(QLocale::Chinese, QLocale::Taiwan)), QString());
        QCOMPARE(app::uiLanguageFor(QLocale(QLocale::German, QLocale::Switzerland)), QStringLiteral("de"));
        // Every code --lang lists is one the mapping gives back.
        for (const QString& code : app::kUiLanguages)
            QCOMPARE(app::uiLanguageFor(code), code);
    }

    // The system's locale decides without --lang. Qt reads it from the environment at start, so CTest runs this
    // function again under LANG=zh_CN.UTF-8 (ui_language_test.system_zh_CN) and others, naming the expected
    // language in TS_EXPECTED_UI_LANGUAGE.
    void systemLocale()
    {
        const QString expected = qEnvironmentVariable("TS_EXPECTED_UI_LANGUAGE");
        if (expected.isEmpty())
            QSKIP("run with LANG and TS_EXPECTED_UI_LANGUAGE set (ctest -R ui_language_test.system)");
        QCOMPARE(app::systemUiLanguage(), expected);
    }

    void chineseQmTranslates()
    {
        QTranslator translator;
        QVERIFY(translator.load(QStringLiteral(":/i18n/tunescope_zh_CN")));
        QCOMPARE(translator.language(), QStringLiteral("zh_CN"));
        const auto tr = [&](const char* context, const char* source) { return translator.translate(context, source); };
        QCOMPARE(tr("ts::app::MainWindow", "&Session"), QStringLiteral("会话(&S)"));
        QCOMPARE(tr("ts::app::MainWindow", "&New session…"), QStringLiteral("新建会话(&N)…"));
        QCOMPARE(tr("ts::app::MainWindow", "&File"), QStringLiteral("文件(&F)"));
        QCOMPARE(tr("ts::app::MainWindow", "Tuning curves"), QStringLiteral("调优曲线"));
        QCOMPARE(tr("ts::models::RecordsModel", "wrong answer"), QStringLiteral("结果错误"));
        // Placeholders survive, and the plural has its one Chinese form.
        QCOMPARE(tr("ts::app::MainWindow", "%1 of %2 trials"), QStringLiteral("%1 / %2 次试验"));
        QCOMPARE(translator.translate("ts::app::SketchView", "%n measured state(s)", nullptr, 3),
            QStringLiteral("%n 个已测量状态"));
        QCOMPARE(translator.translate("ts::app::SketchView", "%n measured state(s)", nullptr, 1),
            QStringLiteral("%n 个已测量状态"));
        // The German one is bundled beside it.
        QTranslator german;
        QVERIFY(german.load(QStringLiteral(":/i18n/tunescope_de")));
        QCOMPARE(german.language(), QStringLiteral("de_DE"));
        QVERIFY(!german.translate("ts::app::MainWindow", "&Session").isEmpty());
    }

    void mainWindowRendersInChinese()
    {
        QVERIFY(app::installUiLanguage(*QCoreApplication::instance(), QStringLiteral("zh_CN")));
        app::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(menuTitles(window),
            (QStringList { QStringLiteral("文件(&F)"), QStringLiteral("编辑(&E)"), QStringLiteral("视图(&V)"),
                QStringLiteral("会话(&S)"), QStringLiteral("帮助(&H)") }));
        auto* newSession = window.findChild<QAction*>(QStringLiteral("newSession"));
        QVERIFY(newSession);
        QCOMPARE(newSession->text(), QStringLiteral("新建会话(&N)…"));
        auto* curves = window.findChild<QDockWidget*>(QStringLiteral("CurvesDock"));
        QVERIFY(curves);
        QCOMPARE(curves->windowTitle(), QStringLiteral("调优曲线"));
        QCOMPARE(QCoreApplication::translate("ts::app::SketchView", "%n measured state(s)", nullptr, 3),
            QStringLiteral("3 个已测量状态"));
        // Qt's own strings (a dialog's standard buttons) follow where the system has Qt's translations.
        if (QFileInfo::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath) + QStringLiteral("/qtbase_zh_CN.qm")))
            QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("取消"));
        else
            qInfo("no qtbase_zh_CN.qm (Debian: qt6-translations-l10n): Qt's standard buttons stay in English");
        QTRY_VERIFY(window.isExplorerReady());
        // The menu bar is drawn: its strip holds the titles' text, not one flat colour.
        const QImage strip = window.menuBar()->grab().toImage();
        QSet<QRgb> colours;
        for (int y = 0; y < strip.height(); ++y)
            for (int x = 0; x < strip.width(); ++x)
                colours.insert(strip.pixel(x, y));
        QVERIFY2(colours.size() > 2, qPrintable(QStringLiteral("%1 colours").arg(colours.size())));
        for (QTranslator* translator : QCoreApplication::instance()->findChildren<QTranslator*>())
            QCoreApplication::removeTranslator(translator);
    }

    void chineseTextHasGlyphs()
    {
        if (QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty())
            QSKIP("no font with Simplified Chinese glyphs on this machine (Debian: apt-get install fonts-noto-cjk); "
                  "Chinese text would show as boxes");
        QMenuBar bar;
        const QString text = QStringLiteral("会话(S) 新建会话 调优曲线 代价模型 屋顶线");
        QTextLayout layout(text, bar.font());
        layout.beginLayout();
        layout.createLine();
        layout.endLayout();
        const QList<QGlyphRun> runs = layout.glyphRuns();
        QVERIFY(!runs.isEmpty());
        int glyphs = 0;
        for (const QGlyphRun& run : runs) {
            for (const quint32 index : run.glyphIndexes())
                QVERIFY2(index != 0, qPrintable(run.rawFont().familyName() + QStringLiteral(" lacks a glyph")));
            glyphs += int(run.glyphIndexes().size());
        }
        QCOMPARE(glyphs, text.size()); // one glyph per character, none dropped
        for (const QChar c : QStringLiteral("会话新建调优曲线代价模型屋顶")) {
            bool covered = false;
            for (const QGlyphRun& run : runs)
                covered = covered || run.rawFont().supportsCharacter(c);
            QVERIFY2(covered, qPrintable(QStringLiteral("no font of the layout has %1").arg(c)));
        }
    }
};

QTEST_MAIN(UiLanguageTest)
#include "ui_language_test.moc"
