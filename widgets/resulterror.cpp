// SPDX-License-Identifier: GPL-3.0-or-later
// ResultPanel's error box: why the job shown failed (or that it was cancelled), the engine's hint,
// where in the user's code (whereHtml), and a failed verification's outputs. The result itself is
// in resultpanel.cpp.
#include "resultpanel.h"

#include "tableutil.h"
#include "verifyoutputmodel.h"
#include "verifytext.h"

#include "client/stagenames.h"

#include <QFileInfo>
#include <QFrame>
#include <QJsonArray>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

void ResultPanel::createErrorBox()
{
    m_errorFrame = new QFrame(this);
    m_errorFrame->setObjectName(QStringLiteral("resultError"));
    m_errorFrame->setFrameShape(QFrame::StyledPanel);
    m_errorFrame->setStyleSheet(QStringLiteral(
        "#resultError { background: #fdecea; border: 1px solid #e0a4a0; border-radius: 4px; }"
        "#resultError QLabel { color: #611a15; }"
        "#resultError[cancelled=\"true\"] { background: #eeeeee; border: 1px solid #bdbdbd; }"
        "#resultError[cancelled=\"true\"] QLabel { color: #424242; }"));
    m_errorText = new QLabel(m_errorFrame);
    m_errorText->setObjectName(QStringLiteral("resultErrorText"));
    m_errorText->setWordWrap(true);
    m_errorText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorVerifyTable = new QTableView(m_errorFrame);
    m_errorVerifyTable->setObjectName(QStringLiteral("resultErrorVerifyTable"));
    setUpTableView(m_errorVerifyTable, m_errorVerifyModel);
    m_errorVerifyTable->setSortingEnabled(false);
    m_errorVerifyTable->hide();
    connect(m_errorVerifyTable->horizontalScrollBar(), &QScrollBar::rangeChanged, this,
            [view = m_errorVerifyTable] { fitTableHeight(view); });
    auto *errorLayout = new QVBoxLayout(m_errorFrame);
    errorLayout->addWidget(m_errorText);
    errorLayout->addWidget(m_errorVerifyTable);
    m_errorFrame->hide();
}

void ResultPanel::showError(const QString &model, const Client::EngineError &e,
                            const Client::VerifyFailure &failure)
{
    setErrorText(e.isCancellation() ? tr("<b>%1 was cancelled.</b>").arg(model.toHtmlEscaped())
                                    : tr("<b>Compiling %1 failed</b>").arg(model.toHtmlEscaped()),
                 Client::StageNames::displayName(e.stage), e);
    const QString failed = VerifyText::failure(failure);
    if (!failed.isEmpty())
        m_errorText->setText(m_errorText->text() + QStringLiteral("<br><b>%1</b>").arg(failed.toHtmlEscaped()));
    m_errorVerifyModel->setOutputs(failure.outputs);
    m_errorVerifyTable->setVisible(!failure.outputs.isEmpty());
    if (!failure.outputs.isEmpty()) {
        m_errorVerifyTable->resizeColumnsToContents();
        fitTableHeight(m_errorVerifyTable);
    }
}

void ResultPanel::showExportError(const QString &bundle, const Client::EngineError &e)
{
    // The engine names its bundle-level failures "export", which for a compile means
    // torch.export: say what it is here.
    const QString stage = e.stage == QLatin1String("export") ? tr("Writing the bundle")
                                                             : Client::StageNames::displayName(e.stage);
    setErrorText(e.isCancellation()
                     ? tr("<b>Exporting %1 was cancelled.</b>").arg(bundle.toHtmlEscaped())
                     : tr("<b>Exporting %1 failed</b>").arg(bundle.toHtmlEscaped()),
                 stage, e);
}

QString ResultPanel::whereHtml(const QJsonObject &where)
{
    const QJsonArray frames = where.value(QLatin1String("frames")).toArray();
    if (frames.isEmpty())
        return {};
    constexpr int kMaxCode = 110; // a long line must not widen the panel past the view
    const auto clip = [](QString line) {
        if (line.size() > kMaxCode)
            line = line.left(kMaxCode - 1) + QChar(0x2026);
        return line;
    };
    // The user's frames only (the engine left out torch and the studio's own), innermost last.
    QString html = QStringLiteral("<br><b>%1</b>").arg(tr("In your code (innermost last):").toHtmlEscaped());
    for (const auto &value : frames) {
        const QJsonObject f = value.toObject();
        const QString file = f.value(QLatin1String("file")).toString();
        //: a traceback frame: %1 file name, %2 line, %3 function
        QString line = tr("%1:%2, in %3").arg(QFileInfo(file).fileName()).arg(f.value(QLatin1String("line")).toInt())
                           .arg(f.value(QLatin1String("function")).toString());
        const QString code = f.value(QLatin1String("code")).toString();
        html += QStringLiteral("<br>&nbsp;&nbsp;") + line.toHtmlEscaped();
        if (!code.isEmpty())
            html += QStringLiteral(": <code>%1</code>").arg(clip(code).toHtmlEscaped());
    }
    const QJsonObject excerpt = where.value(QLatin1String("excerpt")).toObject();
    const QJsonArray lines = excerpt.value(QLatin1String("lines")).toArray();
    if (!lines.isEmpty()) {
        const int first = excerpt.value(QLatin1String("first")).toInt(1);
        const int failing = excerpt.value(QLatin1String("line")).toInt();
        const int column = excerpt.value(QLatin1String("column")).toInt();
        const int width = int(QString::number(first + lines.size() - 1).size());
        html += QStringLiteral("<br><b>%1</b>")
                    .arg(tr("%1, line %2:").arg(excerpt.value(QLatin1String("file")).toString()).arg(failing).toHtmlEscaped());
        QStringList rows;
        for (int i = 0; i < lines.size(); ++i) {
            const int number = first + i;
            const QString row = QStringLiteral("%1 %2 %3")
                                    .arg(number == failing ? QStringLiteral("→") : QStringLiteral(" "))
                                    .arg(number, width)
                                    .arg(clip(lines.at(i).toString()));
            rows << (number == failing ? QStringLiteral("<b>%1</b>").arg(row.toHtmlEscaped()) : row.toHtmlEscaped());
            if (number == failing && column > 0 && column <= kMaxCode) // a syntax error's column
                rows << QString(width + 3 + column - 1, QLatin1Char(' ')) + QLatin1Char('^');
        }
        html += QStringLiteral("<pre style=\"margin:2px 0\">%1</pre>").arg(rows.join(QLatin1Char('\n')));
    }
    return html;
}

void ResultPanel::setErrorText(QString text, const QString &stageName, const Client::EngineError &e)
{
    if (!e.stage.isEmpty() && !e.isCancellation())
        text += QLatin1Char(' ')
                + tr("in stage <i>%1</i> (%2).").arg(stageName.toHtmlEscaped(), e.code);
    if (!e.message.isEmpty())
        text += QStringLiteral("<br>") + e.message.toHtmlEscaped();
    if (!e.hint.isEmpty())
        text += QStringLiteral("<br>") + tr("Hint: %1").arg(e.hint.toHtmlEscaped());
    text += whereHtml(e.where);
    m_errorText->setText(text);
    // A cancel the user asked for is not drawn as a failure.
    m_errorFrame->setProperty("cancelled", e.isCancellation());
    m_errorFrame->setStyleSheet(m_errorFrame->styleSheet());
    m_errorVerifyModel->clear(); // showError() fills it for a failed verification
    m_errorVerifyTable->hide();
    m_errorFrame->show();
}

void ResultPanel::clearError()
{
    m_errorFrame->hide();
    m_errorText->clear();
    m_errorVerifyModel->clear();
    m_errorVerifyTable->hide();
}

} // namespace AotStudio::Widgets
