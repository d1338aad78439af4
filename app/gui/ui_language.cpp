#include "app/gui/ui_language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace ts::app {

QString uiLanguageFor(const QLocale& locale)
{
    switch (locale.language()) {
    case QLocale::English:
        return QStringLiteral("en");
    case QLocale::German:
        return QStringLiteral("de");
    case QLocale::Chinese:
        // zh_CN and zh_SG write Simplified Chinese; zh_TW and zh_HK Traditional, which has no translation.
        return locale.script() == QLocale::TraditionalHanScript ? QString() : QStringLiteral("zh_CN");
    default:
        return {};
    }
}

QString uiLanguageFor(const QString& code)
{
    QString name = code.trimmed();
    name.replace(QLatin1Char('-'), QLatin1Char('_'));
    if (name.isEmpty())
        return {};
    const QLocale locale(name);
    // QLocale falls back to the C locale for a name it does not know.
    if (locale.language() == QLocale::C)
        return {};
    return uiLanguageFor(locale);
}

QString systemUiLanguage()
{
    for (const QString& name : QLocale::system().uiLanguages()) {
        const QString language = uiLanguageFor(name);
        if (!language.isEmpty())
            return language;
    }
    return QStringLiteral("en");
}

bool installUiLanguage(QCoreApplication& app, const QString& language)
{
    if (language == QLatin1String("en"))
        return true;
    auto* translator = new QTranslator(&app);
    if (!translator->load(QStringLiteral(":/i18n/tunescope_") + language)) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    // Qt's own strings (a file dialog's buttons, a message box's Yes and No), where the system has them.
    auto* qt = new QTranslator(&app);
    if (qt->load(QStringLiteral("qtbase_") + language, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return true;
}

} // namespace ts::app
