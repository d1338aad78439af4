// Which of the bundled interface translations the workbench loads: English (the source strings), German
// (tunescope_de) or Simplified Chinese (tunescope_zh_CN), compiled from translations/*.ts into the resources
// under :/i18n. `--lang CODE` names one; otherwise the system's UI languages decide (the first one bundled,
// so LANGUAGE=zh_CN:en and LANG=zh_CN.UTF-8 both give Chinese). Traditional Chinese has no translation of
// its own and falls back to English.
//
// How to add a language: translate translations/tunescope_<code>.ts (lupdate, see translations/README.md),
// add it to qt_add_translations in app/gui/CMakeLists.txt, map its locales in uiLanguageFor() and list it in
// kUiLanguages.
#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace ts::app {

// The codes --lang accepts, as its help lists them.
inline const QStringList kUiLanguages = { QStringLiteral("en"), QStringLiteral("de"), QStringLiteral("zh_CN") };

// The bundled language for a locale: "en", "de", "zh_CN", or an empty string when none is bundled for it.
QString uiLanguageFor(const QLocale& locale);

// The bundled language for a --lang code (en, de, zh_CN; also de_DE, zh, zh-CN, zh_Hans): as above.
QString uiLanguageFor(const QString& code);

// The bundled language for the system's UI languages, in their order of preference; "en" when none is bundled.
QString systemUiLanguage();

// Installs the translation of `language` (one of kUiLanguages) in the application, with Qt's own for the
// standard buttons and dialogs where the system has it (qt6-translations-l10n). Returns false when the
// workbench's translation does not load; "en" installs nothing and returns true.
bool installUiLanguage(QCoreApplication& app, const QString& language);

} // namespace ts::app
