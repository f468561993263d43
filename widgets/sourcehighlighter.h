// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace AotStudio::Widgets {

/**
 * Syntax highlighting for generated kernels: C++ (Inductor's CPU backend) or Triton (Python).
 * Keywords, types, numbers, strings, comments and preprocessor lines; single-line rules only,
 * which is all generated code needs (no block comments in Inductor's output).
 */
class SourceHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    enum class Language { Cpp, Python };
    explicit SourceHighlighter(QTextDocument *document);
    /// Switches the rules and re-highlights.
    void setLanguage(Language language);
    Language language() const { return m_language; }

protected:
    void highlightBlock(const QString &text) override;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
    };
    void buildRules();

    Language m_language = Language::Cpp;
    QList<Rule> m_rules;
};

} // namespace AotStudio::Widgets
