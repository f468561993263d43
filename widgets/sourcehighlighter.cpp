// SPDX-License-Identifier: GPL-3.0-or-later
#include "sourcehighlighter.h"

namespace AotStudio::Widgets {

SourceHighlighter::SourceHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    buildRules();
}

void SourceHighlighter::setLanguage(Language language)
{
    if (language == m_language)
        return;
    m_language = language;
    buildRules();
    rehighlight();
}

void SourceHighlighter::buildRules()
{
    m_rules.clear();
    QTextCharFormat keyword;
    keyword.setForeground(QColor(0x1f, 0x4e, 0xa8));
    keyword.setFontWeight(QFont::Bold);
    QTextCharFormat type;
    type.setForeground(QColor(0x6a, 0x1b, 0x9a));
    QTextCharFormat number;
    number.setForeground(QColor(0xad, 0x5b, 0x00));
    QTextCharFormat string;
    string.setForeground(QColor(0x2e, 0x7d, 0x32));
    QTextCharFormat comment;
    comment.setForeground(QColor(0x75, 0x75, 0x75));
    comment.setFontItalic(true);
    QTextCharFormat preprocessor;
    preprocessor.setForeground(QColor(0x8d, 0x6e, 0x63));

    const auto words = [](const char *list) {
        return QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(QLatin1String(list)));
    };
    if (m_language == Language::Cpp) {
        m_rules.append({words("if|else|for|while|do|return|break|continue|switch|case|default|auto|const|"
                              "constexpr|static|extern|inline|template|typename|namespace|using|struct|class|"
                              "static_cast|reinterpret_cast|nullptr|true|false|void"),
                        keyword});
        m_rules.append({words("int|int8_t|int16_t|int32_t|int64_t|uint8_t|uint32_t|uint64_t|float|double|bool|"
                              "char|half|bfloat16|size_t|Vectorized|VecMask"),
                        type});
        m_rules.append({QRegularExpression(QStringLiteral("\\b\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?[LlFfUu]*\\b")), number});
        m_rules.append({QRegularExpression(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"")), string});
        m_rules.append({QRegularExpression(QStringLiteral("^\\s*#.*$")), preprocessor});
        m_rules.append({QRegularExpression(QStringLiteral("//.*$")), comment});
    } else {
        m_rules.append({words("def|return|if|elif|else|for|while|in|not|and|or|import|from|as|with|None|True|"
                              "False|pass|lambda|yield|class"),
                        keyword});
        m_rules.append({QRegularExpression(QStringLiteral("\\b(?:tl|triton)\\.[A-Za-z_]+")), type});
        m_rules.append({QRegularExpression(QStringLiteral("@[A-Za-z_.]+")), preprocessor});
        m_rules.append({QRegularExpression(QStringLiteral("\\b\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?\\b")), number});
        m_rules.append({QRegularExpression(QStringLiteral("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"")), string});
        m_rules.append({QRegularExpression(QStringLiteral("#.*$")), comment});
    }
}

void SourceHighlighter::highlightBlock(const QString &text)
{
    for (const auto &rule : m_rules) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), rule.format);
        }
    }
}

} // namespace AotStudio::Widgets
