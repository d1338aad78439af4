// CodeHighlighter: light syntax colouring for the code view's listings: loop IR and Ansor's loop nests
// (loop kinds, comments, numbers), LLVM IR and assembly (comments, labels, instructions), unified diffs
// (added, removed, hunk lines), and schedule steps as TVM JSON (step codes, other strings, numbers, null). Colours are
// fixed shades readable on a light background; the text stays the document's own, only formats change. GUI thread only.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPlainTextEdit;
class QWidget;

namespace ts::widgets {

class CodeHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Language { LoopIr, LlvmIr, Assembly, Diff, Plain, StepJson };

    CodeHighlighter(QTextDocument* document, Language language);
    Language language() const { return m_language; }
    void setLanguage(Language language);

protected:
    void highlightBlock(const QString& text) override;

private:
    void colour(const QString& text, const QRegularExpression& pattern, const QTextCharFormat& format);

    Language m_language;
};

// A read-only, unwrapped, fixed-font listing coloured as `language` (the Code view's panes and the editor's).
QPlainTextEdit* makeCodeListing(QWidget* parent, CodeHighlighter::Language language);

} // namespace ts::widgets
