#include "widgets/code_highlighter.h"

#include <QFontDatabase>
#include <QPlainTextEdit>

namespace ts::widgets {

namespace {
    QTextCharFormat charFormat(QColor colour, bool bold = false, QColor background = {})
    {
        QTextCharFormat f;
        f.setForeground(colour);
        if (bold)
            f.setFontWeight(QFont::Bold);
        if (background.isValid())
            f.setBackground(background);
        return f;
    }

    const QRegularExpression& loopKeywords()
    {
        static const QRegularExpression re(
            QStringLiteral("\\b(for|parallel|vectorize|vectorized|unroll|unrolled|vthread|if|else|allocate|"
                           "blockIdx\\.[xyz]|threadIdx\\.[xyz]|max|min|select)\\b"));
        return re;
    }
    const QRegularExpression& numbers()
    {
        static const QRegularExpression re(QStringLiteral("\\b[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?f?\\b"));
        return re;
    }
    const QRegularExpression& llvmKeywords()
    {
        static const QRegularExpression re(QStringLiteral(
            "\\b(define|declare|call|ret|br|phi|load|store|getelementptr|inbounds|fadd|fmul|fsub|fdiv|add|mul|"
            "icmp|fcmp|select|shufflevector|insertelement|extractelement|alloca|tail|label|void|float|double|"
            "i1|i8|i32|i64|ptr|noalias|align)\\b"));
        return re;
    }
    const QRegularExpression& llvmNames()
    {
        static const QRegularExpression re(QStringLiteral("[%@][-a-zA-Z$._0-9]+"));
        return re;
    }
    const QRegularExpression& asmInstruction()
    {
        static const QRegularExpression re(QStringLiteral("^\\s+([a-z][a-z0-9]*)\\b"));
        return re;
    }
    const QRegularExpression& asmRegisters()
    {
        static const QRegularExpression re(QStringLiteral("%[a-z0-9]+"));
        return re;
    }
    const QRegularExpression& jsonStrings()
    {
        static const QRegularExpression re(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\""));
        return re;
    }
    // The first string of a step array: TVM's step codes ("SP", "AN", "FSP", ...).
    const QRegularExpression& stepCodes()
    {
        static const QRegularExpression re(
            QStringLiteral("\\[\\s*(\"(?:AN|FU|PR|RE|SP|FSP|FFSP|SA|CA|CI|CR|CHR|CHW|RF)\")"));
        return re;
    }
    const QRegularExpression& jsonLiterals()
    {
        static const QRegularExpression re(QStringLiteral("\\b(null|true|false)\\b"));
        return re;
    }
} // namespace

CodeHighlighter::CodeHighlighter(QTextDocument* document, Language language)
    : QSyntaxHighlighter(document)
    , m_language(language)
{
}

void CodeHighlighter::setLanguage(Language language)
{
    if (language == m_language)
        return;
    m_language = language;
    rehighlight();
}

void CodeHighlighter::colour(const QString& text, const QRegularExpression& pattern, const QTextCharFormat& f)
{
    for (auto it = pattern.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const int group = m.lastCapturedIndex() >= 1 ? 1 : 0;
        setFormat(static_cast<int>(m.capturedStart(group)), static_cast<int>(m.capturedLength(group)), f);
    }
}

void CodeHighlighter::highlightBlock(const QString& text)
{
    static const QTextCharFormat keyword = charFormat(QColor(0x1a, 0x56, 0xb0), true);
    static const QTextCharFormat number = charFormat(QColor(0x09, 0x86, 0x58));
    static const QTextCharFormat comment = charFormat(QColor(0x6a, 0x73, 0x7d));
    static const QTextCharFormat score = charFormat(QColor(0xb0, 0x60, 0x00), true);
    static const QTextCharFormat name = charFormat(QColor(0x80, 0x3a, 0xb0));
    static const QTextCharFormat label = charFormat(QColor(0x1a, 0x56, 0xb0), true);
    switch (m_language) {
    case Language::Plain:
        return;
    case Language::Diff:
        if (text.startsWith(QLatin1String("+++")) || text.startsWith(QLatin1String("---")))
            setFormat(0, static_cast<int>(text.size()), charFormat(QColor(0x20, 0x21, 0x24), true));
        else if (text.startsWith(QLatin1Char('+')))
            setFormat(0, static_cast<int>(text.size()),
                charFormat(QColor(0x0d, 0x65, 0x2d), false, QColor(0xe6, 0xf4, 0xea)));
        else if (text.startsWith(QLatin1Char('-')))
            setFormat(0, static_cast<int>(text.size()),
                charFormat(QColor(0xa5, 0x0e, 0x0e), false, QColor(0xfc, 0xe8, 0xe6)));
        else if (text.startsWith(QLatin1String("@@")))
            setFormat(0, static_cast<int>(text.size()), charFormat(QColor(0x1a, 0x56, 0xb0)));
        return;
    case Language::LoopIr: {
        colour(text, numbers(), number);
        colour(text, loopKeywords(), keyword);
        const auto commentAt = text.indexOf(QLatin1String("//"));
        if (commentAt >= 0) {
            static const QRegularExpression scoreComment(QStringLiteral("^// [a-z-]+ [-0-9.e+]+"));
            const bool isScore = text.mid(commentAt).contains(scoreComment);
            setFormat(
                static_cast<int>(commentAt), static_cast<int>(text.size() - commentAt), isScore ? score : comment);
        }
        return;
    }
    case Language::StepJson:
        colour(text, numbers(), number);
        colour(text, jsonLiterals(), comment);
        colour(text, jsonStrings(), name);
        colour(text, stepCodes(), keyword);
        return;
    case Language::LlvmIr: {
        colour(text, llvmKeywords(), keyword);
        colour(text, llvmNames(), name);
        const auto commentAt = text.indexOf(QLatin1Char(';'));
        if (commentAt >= 0)
            setFormat(static_cast<int>(commentAt), static_cast<int>(text.size() - commentAt), comment);
        return;
    }
    case Language::Assembly: {
        if (!text.startsWith(QLatin1Char(' ')) && !text.startsWith(QLatin1Char('\t'))
            && text.trimmed().endsWith(QLatin1Char(':'))) {
            setFormat(0, static_cast<int>(text.size()), label);
            return;
        }
        colour(text, asmInstruction(), keyword);
        colour(text, asmRegisters(), name);
        const auto commentAt = text.indexOf(QLatin1Char('#'));
        if (commentAt >= 0)
            setFormat(static_cast<int>(commentAt), static_cast<int>(text.size() - commentAt), comment);
        return;
    }
    }
}

QPlainTextEdit* makeCodeListing(QWidget* parent, CodeHighlighter::Language language)
{
    auto* edit = new QPlainTextEdit(parent);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    new CodeHighlighter(edit->document(), language);
    return edit;
}

} // namespace ts::widgets
