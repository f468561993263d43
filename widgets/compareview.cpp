// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview.h"

#include "charthelpers.h"
#include "comparemodels.h"
#include "graphview/graphdiffview.h"
#include "graphview/jobtracker.h"
#include "graphview/snapshotcache.h"
#include "numberformat.h"
#include "tableutil.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QSyntaxHighlighter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

/// Colours a unified diff: added lines green, removed red, hunk headers blue.
class DiffHighlighter : public QSyntaxHighlighter
{
public:
    explicit DiffHighlighter(QTextDocument *document)
        : QSyntaxHighlighter(document)
    {
        m_added.setBackground(QColor(220, 245, 224));
        m_added.setForeground(QColor(20, 70, 30));
        m_removed.setBackground(QColor(253, 224, 224));
        m_removed.setForeground(QColor(110, 20, 20));
        m_hunk.setForeground(QColor(21, 101, 192));
        m_hunk.setFontWeight(QFont::Bold);
    }

protected:
    void highlightBlock(const QString &text) override
    {
        if (text.startsWith(QLatin1String("+++")) || text.startsWith(QLatin1String("---"))
            || text.startsWith(QLatin1String("@@")))
            setFormat(0, int(text.size()), m_hunk);
        else if (text.startsWith(QLatin1Char('+')))
            setFormat(0, int(text.size()), m_added);
        else if (text.startsWith(QLatin1Char('-')))
            setFormat(0, int(text.size()), m_removed);
    }

private:
    QTextCharFormat m_added, m_removed, m_hunk;
};

QString kindText(Compare::JobKind kind)
{
    switch (kind) {
    case Compare::JobKind::Compile:
        return CompareView::tr("compile");
    case Compare::JobKind::Profile:
        return CompareView::tr("profile");
    case Compare::JobKind::QuantizeScheme:
        return CompareView::tr("quantize scheme");
    case Compare::JobKind::Bundle:
        return CompareView::tr("bundle");
    }
    return {};
}

QString latencyText(const std::optional<Compare::Latency> &l)
{
    if (!l)
        return CompareView::tr("not measured");
    return CompareView::tr("%1 ms (p10–p90 %2–%3, %4 runs)")
        .arg(formatNumber(l->medianMs, 'f', 4), formatNumber(l->p10Ms, 'f', 4), formatNumber(l->p90Ms, 'f', 4))
        .arg(l->runs);
}

QString estimateText(const std::optional<Compare::Estimate> &e)
{
    if (!e)
        return CompareView::tr("not given");
    if (e->hasInterval())
        return CompareView::tr("%1× (95% CI %2–%3)")
            .arg(formatNumber(e->estimate, 'f', 2), formatNumber(*e->low, 'f', 2), formatNumber(*e->high, 'f', 2));
    return CompareView::tr("%1× (no interval)").arg(formatNumber(e->estimate, 'f', 2));
}

QString sourceText(const Compare::SideTime &t)
{
    if (t.source == "profile")
        return t.profiled ? CompareView::tr("profile (kernels timed)") : CompareView::tr("profile");
    if (t.source == "compile")
        return CompareView::tr("the compile's measure stage (no kernel times)");
    return CompareView::tr("not measured");
}

QString nodeList(const std::vector<Compare::NodeRef> &nodes, int most = 5)
{
    QStringList out;
    for (std::size_t i = 0; i < nodes.size() && int(i) < most; ++i)
        out << QStringLiteral("%1 (%2)").arg(qs(nodes[i].id), qs(nodes[i].target));
    if (int(nodes.size()) > most)
        out << CompareView::tr("+%1 more").arg(int(nodes.size()) - most);
    return out.join(QStringLiteral(", "));
}

} // namespace

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_refusalLabel(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_fields(new CompareFieldModel(this))
    , m_fieldView(new QTableView(this))
    , m_time(new QTextBrowser(this))
    , m_kernels(new CompareKernelModel(this))
    , m_kernelProxy(new QSortFilterProxyModel(this))
    , m_kernelView(new QTableView(this))
    , m_kernelSummary(new QLabel(this))
    , m_diffTitle(new QLabel(this))
    , m_diff(new QPlainTextEdit(this))
    , m_stage(new QComboBox(this))
    , m_stageSummary(new QLabel(this))
    , m_graph(new GraphDiffView(this))
    , m_memoryChart(new ChartBox(createChart(QStringLiteral("compareMemoryChart"), tr("Peak memory of A and B")), this))
    , m_memory(new QTextBrowser(this))
    , m_compareJob(new JobTracker(this))
    , m_stageJob(new JobTracker(this))
    , m_snapshots(std::make_shared<SnapshotCache>(8))
{
    setObjectName(QStringLiteral("compareView"));
    m_header->setObjectName(QStringLiteral("compareHeader"));
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refusalLabel->setObjectName(QStringLiteral("compareRefusal"));
    m_refusalLabel->setWordWrap(true);
    m_refusalLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refusalLabel->setStyleSheet(QStringLiteral("QLabel { background: #fdecea; color: #611a15; border: 1px solid "
                                                 "#f5c2c0; border-radius: 4px; padding: 8px; }"));
    m_refusalLabel->hide();

    // Summary: the fields of both jobs, then what each measured and the verdict.
    setUpTableView(m_fieldView, m_fields);
    m_fieldView->setSortingEnabled(false);
    m_fieldView->setObjectName(QStringLiteral("compareFields"));
    m_fieldView->horizontalHeader()->setSectionResizeMode(CompareFieldModel::FieldColumn, QHeaderView::ResizeToContents);
    m_fieldView->horizontalHeader()->setSectionResizeMode(CompareFieldModel::AColumn, QHeaderView::Stretch);
    m_fieldView->horizontalHeader()->setSectionResizeMode(CompareFieldModel::BColumn, QHeaderView::Stretch);
    m_time->setObjectName(QStringLiteral("compareTime"));
    m_time->setOpenLinks(false);
    auto *summary = new QSplitter(Qt::Vertical, this);
    summary->addWidget(m_fieldView);
    summary->addWidget(m_time);
    summary->setStretchFactor(0, 1);
    summary->setStretchFactor(1, 1);

    // Kernels: the table, the selected kernel's source diff below.
    m_kernelProxy->setSourceModel(m_kernels);
    m_kernelProxy->setSortRole(CompareKernelModel::SortRole);
    setUpTableView(m_kernelView, m_kernelProxy);
    m_kernelView->setObjectName(QStringLiteral("compareKernels"));
    m_kernelView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_kernelView->horizontalHeader()->setSectionResizeMode(CompareKernelModel::NameColumn, QHeaderView::Stretch);
    m_kernelView->horizontalHeader()->setStretchLastSection(false);
    m_kernelView->sortByColumn(CompareKernelModel::StatusColumn, Qt::AscendingOrder);
    m_kernelSummary->setWordWrap(true);
    m_diff->setObjectName(QStringLiteral("compareSourceDiff"));
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setPlaceholderText(tr("Select a changed kernel to see how its source differs."));
    new DiffHighlighter(m_diff->document());
    auto *kernelTop = new QWidget(this);
    auto *kernelTopLayout = new QVBoxLayout(kernelTop);
    kernelTopLayout->setContentsMargins(0, 0, 0, 0);
    kernelTopLayout->addWidget(m_kernelSummary);
    kernelTopLayout->addWidget(m_kernelView, 1);
    auto *kernelBottom = new QWidget(this);
    auto *kernelBottomLayout = new QVBoxLayout(kernelBottom);
    kernelBottomLayout->setContentsMargins(0, 0, 0, 0);
    kernelBottomLayout->addWidget(m_diffTitle);
    kernelBottomLayout->addWidget(m_diff, 1);
    auto *kernels = new QSplitter(Qt::Vertical, this);
    kernels->addWidget(kernelTop);
    kernels->addWidget(kernelBottom);
    kernels->setStretchFactor(0, 3);
    kernels->setStretchFactor(1, 2);

    // Graph: one stage at a time, A's snapshot on the left, B's on the right.
    m_stage->setObjectName(QStringLiteral("compareStage"));
    m_stage->setToolTip(tr("A stage both jobs have: its last snapshot in A against the one in B"));
    m_stageSummary->setObjectName(QStringLiteral("compareStageSummary"));
    m_stageSummary->setWordWrap(true);
    m_stageSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_graph->setPassButtonsVisible(false);
    auto *graph = new QWidget(this);
    auto *stageBar = new QHBoxLayout;
    stageBar->addWidget(new QLabel(tr("Stage:"), graph));
    stageBar->addWidget(m_stage);
    stageBar->addStretch(1);
    auto *graphLayout = new QVBoxLayout(graph);
    graphLayout->setContentsMargins(0, 0, 0, 0);
    graphLayout->addLayout(stageBar);
    graphLayout->addWidget(m_stageSummary);
    graphLayout->addWidget(m_graph, 1);

    // Memory: the peaks of both plans as bars, then what differs in the plans and the fusions.
    m_memory->setObjectName(QStringLiteral("compareMemory"));
    m_memory->setOpenLinks(false);
    auto *memory = new QSplitter(Qt::Vertical, this);
    memory->addWidget(m_memoryChart);
    memory->addWidget(m_memory);
    memory->setStretchFactor(0, 2);
    memory->setStretchFactor(1, 3);

    m_tabs->setObjectName(QStringLiteral("compareTabs"));
    m_tabs->addTab(summary, tr("Summary"));
    m_tabs->addTab(kernels, tr("Kernels"));
    m_tabs->addTab(graph, tr("Graph"));
    m_tabs->addTab(memory, tr("Memory"));
    m_tabs->setTabToolTip(MemoryTab, tr("The two compiles' memory plans and fusion decisions (memory.json, fusion.json)"));
    m_tabs->setEnabled(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_refusalLabel);
    layout->addWidget(m_tabs, 1);
    layout->addStretch(); // keeps a refusal at the top while the tabs are hidden

    connect(m_kernelView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    showKernelRow(m_kernelProxy->mapToSource(current).row());
            });
    connect(m_stage, &QComboBox::currentIndexChanged, this, &CompareView::showStage);
    m_header->setText(tr("Pick two job folders to compare."));
}

CompareView::~CompareView() = default;

void CompareView::compareFolders(const QString &a, const QString &b)
{
    struct Outcome {
        std::shared_ptr<const Compare::Comparison> comparison;
        QString error;
    };
    m_header->setText(tr("Comparing %1 with %2…").arg(a.toHtmlEscaped(), b.toHtmlEscaped()));
    m_compareJob->start(
        [a = a.toStdString(), b = b.toStdString()] {
            Outcome out;
            try {
                out.comparison = std::make_shared<const Compare::Comparison>(Compare::compareFolders(a, b));
            } catch (const std::exception &e) {
                out.error = QString::fromStdString(e.what());
            }
            return out;
        },
        [this](Outcome out) {
            if (out.comparison)
                setComparison(std::move(out.comparison));
            else
                showRefusal(out.error);
        });
}

void CompareView::showRefusal(const QString &message)
{
    m_refusal = message;
    setComparison(nullptr);
    m_refusal = message;
    m_refusalLabel->setText(tr("These two jobs cannot be compared: %1").arg(message));
    m_refusalLabel->show();
    m_tabs->hide(); // empty tables under the reason would only suggest something is missing
    m_header->setText(tr("No comparison."));
    Q_EMIT comparisonChanged();
}

void CompareView::setComparison(std::shared_ptr<const Compare::Comparison> comparison)
{
    m_comparison = std::move(comparison);
    m_refusal.clear();
    m_refusalLabel->hide();
    m_stageJob->cancel();
    m_fields->setComparison(m_comparison);
    m_kernels->setComparison(m_comparison);
    m_diff->clear();
    m_diffTitle->clear();
    m_tabs->setEnabled(m_comparison != nullptr);
    if (m_comparison)
        m_tabs->show();
    {
        const QSignalBlocker block(m_stage);
        m_stage->clear();
        if (m_comparison)
            for (const auto &s : m_comparison->stages)
                m_stage->addItem(qs(s.stage));
    }
    m_time->setHtml(m_comparison ? timeHtml() : QString());
    m_memory->setHtml(m_comparison ? memoryHtml() : QString());
    drawMemoryPeaks();
    if (m_comparison) {
        const Compare::KernelDiff &k = m_comparison->kernels;
        m_kernelSummary->setText(
            k.compared ? tr("%1 kernels in A, %2 in B: %3 only in A, %4 only in B, %5 changed, %6 unchanged.")
                             .arg(k.countA)
                             .arg(k.countB)
                             .arg(k.onlyA.size())
                             .arg(k.onlyB.size())
                             .arg(k.changed.size())
                             .arg(k.unchanged.size())
                       : tr("Kernels not compared: %1").arg(qs(k.why)));
        // Time columns only where there are times: "not profiled" in every row says nothing.
        const bool a = m_kernels->profiledA(), b = m_kernels->profiledB();
        m_kernelView->setColumnHidden(CompareKernelModel::TimeAColumn, !a && !b);
        m_kernelView->setColumnHidden(CompareKernelModel::TimeBColumn, !a && !b);
        m_kernelView->setColumnHidden(CompareKernelModel::DeltaColumn, !(a && b));
        m_kernelView->setColumnHidden(CompareKernelModel::RatioColumn, !(a && b));
        // The source diff pane only when some kernel changed.
        m_diff->parentWidget()->setVisible(!k.changed.empty());
        if (!a || !b)
            m_kernelSummary->setText(
                m_kernelSummary->text() + QLatin1Char(' ')
                + (!a && !b ? tr("Neither job was profiled: no time per kernel (aotstudio-cli profile --package "
                                 "DIR/model.pt2 --out DIR on each).")
                            : tr("Only %1 was profiled: no time differences.").arg(a ? tr("A") : tr("B"))));
    } else {
        m_kernelSummary->clear();
    }
    updateHeader();
    showStage(m_stage->currentIndex());
    if (m_comparison)
        Q_EMIT comparisonChanged();
}

void CompareView::updateHeader()
{
    if (!m_comparison) {
        m_header->clear();
        return;
    }
    const auto side = [](const QString &letter, const Compare::JobFolder &j) {
        QStringList what{kindText(j.kind), qs(j.model), qs(j.device)};
        if (!j.scheme.empty())
            what << qs(j.scheme);
        what.removeAll(QString());
        return QStringLiteral("<b>%1</b> %2 <span style=\"color:gray\">(%3)</span>")
            .arg(letter, QString::fromStdString(j.dir.string()).toHtmlEscaped(),
                 what.join(QStringLiteral(", ")).toHtmlEscaped());
    };
    m_header->setText(side(tr("A:"), m_comparison->a) + QStringLiteral("<br>") + side(tr("B:"), m_comparison->b));
}

QString CompareView::memoryText() const
{
    return m_memory->toPlainText();
}

void CompareView::drawMemoryPeaks()
{
    const Compare::MemoryDiff *m = m_comparison ? &m_comparison->memory : nullptr;
    if (!m || !m->compared) {
        m_memoryChart->showNote(m ? tr("Memory plans not compared: %1").arg(qs(m->why))
                                  : tr("No comparison."));
        return;
    }
    const auto bytes = [](const nlohmann::json &side, const char *key) {
        const auto v = side.value(key, nlohmann::json());
        return v.is_number() ? v.get<double>() : qQNaN();
    };
    const char *keys[] = {"predicted_bytes", "planned_bytes", "measured_bytes", "constants_bytes"};
    const QStringList categories{tr("Predicted peak"), tr("Planned peak"), tr("Measured peak"), tr("Weights")};
    QVector<double> a, b;
    double largest = 0;
    for (const char *k : keys) {
        a << bytes(m->a, k);
        b << bytes(m->b, k);
        largest = std::max({largest, qIsNaN(a.back()) ? 0.0 : a.back(), qIsNaN(b.back()) ? 0.0 : b.back()});
    }
    const ByteUnit unit = byteUnitFor(largest);
    QStringList notes;
    for (int i = 0; i < a.size(); ++i) {
        notes << (qIsNaN(a[i]) && qIsNaN(b[i]) ? tr("neither measured (no profile.json)") : QString());
        a[i] /= unit.divisor;
        b[i] /= unit.divisor;
    }
    drawHorizontalBars(m_memoryChart->plot(), categories,
                       {{tr("A"), QColor(0x4c, 0x78, 0xa8), a}, {tr("B"), QColor(0xf5, 0x85, 0x18), b}},
                       tr("Bytes (%1)").arg(unit.name), notes,
                       [unit](double v) { return QStringLiteral("%1 %2").arg(formatNumber(v, 'g', 3), unit.name); });
    m_memoryChart->showChart();
    m_memoryChart->plot()->replot();
}

QString CompareView::memoryHtml() const
{
    QString html;
    const Compare::MemoryDiff &m = m_comparison->memory;
    const auto cell = [](const QString &text) { return QStringLiteral("<td>%1</td>").arg(text.toHtmlEscaped()); };
    if (!m.compared) {
        html += QStringLiteral("<p>%1</p>").arg(tr("Memory plans not compared: %1").arg(qs(m.why)).toHtmlEscaped());
    } else {
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("Buffers: %1 paired by the nodes they hold, %2 only in A, %3 only in B.")
                             .arg(m.paired)
                             .arg(m.onlyA.size())
                             .arg(m.onlyB.size())
                             .toHtmlEscaped());
        const auto only = [&](const QString &title, const std::vector<nlohmann::json> &buffers) {
            if (buffers.empty())
                return QString();
            QString t = QStringLiteral("<p><b>%1</b></p><table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">%2</th>"
                                       "<th align=\"right\">%3</th><th align=\"left\">%4</th><th align=\"left\">%5</th></tr>")
                            .arg(title.toHtmlEscaped(), tr("Buffer"), tr("Size"), tr("Shape"), tr("Nodes"));
            for (std::size_t i = 0; i < buffers.size() && i < 20; ++i) {
                const auto &b = buffers[i];
                QStringList nodes, shape;
                for (const auto &n : b.value("nodes", nlohmann::json::array()))
                    if (n.is_string())
                        nodes << qs(n.get<std::string>());
                for (const auto &d : b.value("shape", nlohmann::json::array()))
                    shape << (d.is_number() ? QString::number(d.get<long long>()) : qs(d.dump()));
                const auto bytes = b.value("bytes", nlohmann::json());
                t += QStringLiteral("<tr>") + cell(qs(b.value("name", std::string())))
                    + QStringLiteral("<td align=\"right\">%1</td>")
                          .arg(formatBytes(bytes.is_number() ? bytes.get<double>() : qQNaN()).toHtmlEscaped())
                    + cell(qs(b.value("dtype", nlohmann::json()).is_string() ? b["dtype"].get<std::string>() : std::string())
                           + QStringLiteral("[") + shape.join(QLatin1Char(',')) + QStringLiteral("]"))
                    + cell(nodes.join(QStringLiteral(", "))) + QStringLiteral("</tr>");
            }
            if (buffers.size() > 20)
                t += QStringLiteral("<tr><td colspan=\"4\">%1</td></tr>")
                         .arg(tr("… and %n more", nullptr, int(buffers.size() - 20)).toHtmlEscaped());
            return t + QStringLiteral("</table>");
        };
        html += only(tr("Only in A"), m.onlyA);
        html += only(tr("Only in B"), m.onlyB);
    }
    const Compare::FusionDiff &f = m_comparison->fusion;
    if (!f.compared) {
        html += QStringLiteral("<p>%1</p>").arg(tr("Fusion decisions not compared: %1").arg(qs(f.why)).toHtmlEscaped());
        return html;
    }
    html += QStringLiteral("<p><b>%1</b> %2</p>")
                .arg(tr("Fusion decisions").toHtmlEscaped(),
                     tr("%1 refused pairs and %2 fused kernels in A; %3 and %4 in B.")
                         .arg(f.refusedA)
                         .arg(f.fusedKernelsA)
                         .arg(f.refusedB)
                         .arg(f.fusedKernelsB)
                         .toHtmlEscaped());
    if (!f.completeA || !f.completeB)
        html += QStringLiteral("<p style=\"color:#b26a00\">%1</p>")
                    .arg(tr("Partial: %1's decision log is incomplete.")
                             .arg(!f.completeA && !f.completeB ? tr("A and B") : !f.completeA ? tr("A") : tr("B"))
                             .toHtmlEscaped());
    const auto counts = [&](const QString &head, const std::vector<Compare::FusionDiff::Count> &rows) {
        QString t = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">%1</th>"
                                   "<th align=\"right\">%2</th><th align=\"right\">%3</th></tr>")
                        .arg(head.toHtmlEscaped(), tr("A"), tr("B"));
        for (const auto &r : rows)
            t += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td></tr>")
                     .arg(qs(r.name).toHtmlEscaped())
                     .arg(r.a)
                     .arg(r.b);
        return t + QStringLiteral("</table>");
    };
    if (!f.categories.empty())
        html += counts(tr("Refused because (Inductor's reason)"), f.categories);
    html += counts(tr("Nodes by fusion status"), f.statuses);
    return html;
}

QString CompareView::timeHtml() const
{
    const Compare::TimeDiff &t = m_comparison->time;
    const auto row = [](const QString &what, const QString &a, const QString &b) {
        return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
            .arg(what.toHtmlEscaped(), a.toHtmlEscaped(), b.toHtmlEscaped());
    };
    const auto threads = [](const Compare::SideTime &s) {
        return s.threads ? QString::number(*s.threads) : CompareView::tr("not recorded");
    };
    const auto verdict = [](const Compare::SideTime &s) {
        return s.verdict.empty() ? CompareView::tr("not recorded") : qs(s.verdict);
    };
    // An unreliable or noisy run is shown as such (DESIGN.md §5), in the colour of a warning.
    const auto verdictCell = [&](const Compare::SideTime &s) {
        const QString text = verdict(s).toHtmlEscaped();
        return s.verdict == "unreliable" || s.verdict == "noisy"
            ? QStringLiteral("<span style=\"color:#b26a00\"><b>%1</b></span>").arg(text)
            : text;
    };
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th></th><th align=\"left\">%1</th>"
                                  "<th align=\"left\">%2</th></tr>")
                       .arg(tr("A"), tr("B"));
    html += row(tr("Measured by"), sourceText(t.a), sourceText(t.b));
    html += row(tr("Compiled"), latencyText(t.a.compiled), latencyText(t.b.compiled));
    html += row(tr("Eager"), latencyText(t.a.eager), latencyText(t.b.eager));
    html += row(tr("Speedup over eager"), estimateText(t.a.speedup), estimateText(t.b.speedup));
    html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                .arg(tr("Machine verdict").toHtmlEscaped(), verdictCell(t.a), verdictCell(t.b));
    html += row(tr("Threads"), threads(t.a), threads(t.b));
    html += QStringLiteral("</table>");
    html += QStringLiteral("<p><b>%1</b> %2</p>")
                .arg(tr("Latency B / A:").toHtmlEscaped(),
                     t.latencyRatio ? estimateText(t.latencyRatio).toHtmlEscaped()
                                    : tr("not given: both runs need a speedup with its interval.").toHtmlEscaped());
    if (!t.paired)
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("The two jobs were measured in different runs: the ratio goes through each run's own "
                            "eager.")
                             .toHtmlEscaped());
    if (t.eagerMoved)
        html += QStringLiteral("<p style=\"color:#b26a00\">%1</p>")
                    .arg(tr("Eager itself moved between the runs (its p10–p90 ranges do not overlap): another "
                            "machine, torch or load. Read the ratio as one of speedups, not of latency.")
                             .toHtmlEscaped());
    const auto list = [](const QString &title, const std::vector<std::string> &lines) {
        if (lines.empty())
            return QString();
        QString out = QStringLiteral("<p><b>%1</b></p><ul>").arg(title.toHtmlEscaped());
        for (const auto &l : lines)
            out += QStringLiteral("<li>%1</li>").arg(qs(l).toHtmlEscaped());
        return out + QStringLiteral("</ul>");
    };
    html += list(tr("Verdict"), t.verdict);
    html += list(tr("Notes"), t.notes);
    html += list(tr("Missing in A"), m_comparison->a.notes);
    html += list(tr("Missing in B"), m_comparison->b.notes);
    return html;
}

QString CompareView::timeSummaryText() const
{
    return m_time->toPlainText();
}

QString CompareView::sourceDiffText() const
{
    return m_diff->toPlainText();
}

QString CompareView::stageSummaryText() const
{
    return m_stageSummary->text();
}

void CompareView::showKernelRow(int sourceRow)
{
    if (sourceRow < 0 || sourceRow >= m_kernels->rowCount())
        return;
    const CompareKernelModel::Row &r = m_kernels->row(sourceRow);
    const QString name = r.nameA.isEmpty() ? r.nameB : r.nameA;
    QStringList nodes;
    if (!r.nodesOnlyA.isEmpty())
        nodes << tr("nodes only in A: %1").arg(r.nodesOnlyA.join(QStringLiteral(", ")));
    if (!r.nodesOnlyB.isEmpty())
        nodes << tr("nodes only in B: %1").arg(r.nodesOnlyB.join(QStringLiteral(", ")));
    QString title = tr("%1 — %2").arg(name, CompareKernelModel::statusText(r.status));
    if (!nodes.isEmpty())
        title += QStringLiteral(" · ") + nodes.join(QStringLiteral(" · "));
    m_diffTitle->setText(title);
    if (!r.sourceDiff.isEmpty())
        m_diff->setPlainText(r.sourceDiff);
    else if (r.status == CompareKernelModel::Status::Renamed)
        m_diff->setPlainText(tr("Same source once each job's own kernel name is replaced."));
    else if (r.status == CompareKernelModel::Status::Changed)
        m_diff->setPlainText(tr("The source is the same; the covered nodes or call sites differ."));
    else
        m_diff->clear();
}

bool CompareView::selectKernel(const QString &name)
{
    const int row = m_kernels->rowOf(name);
    if (row < 0)
        return false;
    const QModelIndex index = m_kernelProxy->mapFromSource(m_kernels->index(row, 0));
    m_kernelView->setCurrentIndex(index);
    m_kernelView->scrollTo(index);
    showKernelRow(row);
    return true;
}

void CompareView::setCurrentTab(Tab tab)
{
    m_tabs->setCurrentIndex(int(tab));
}

bool CompareView::selectStage(const QString &stage)
{
    const int index = m_stage->findText(stage);
    if (index < 0)
        return false;
    if (index == m_stage->currentIndex())
        showStage(index);
    else
        m_stage->setCurrentIndex(index);
    return true;
}

QString CompareView::currentStage() const
{
    return m_stage->currentText();
}

void CompareView::showStage(int index)
{
    m_stageJob->cancel();
    if (!m_comparison || index < 0 || index >= int(m_comparison->stages.size())) {
        QStringList only;
        if (m_comparison && m_comparison->stages.empty())
            only << tr("The two jobs have no graph stage in common.");
        m_stageSummary->setText(only.join(QLatin1Char(' ')));
        m_graph->setSnapshots(nullptr, nullptr);
        return;
    }
    const Compare::StageDiff &s = m_comparison->stages[std::size_t(index)];
    QStringList lines;
    const auto passText = [](const Compare::StageSnapshot &snap, std::size_t nodes) {
        return snap.pass.empty() ? CompareView::tr("%1 nodes").arg(nodes)
                                 : CompareView::tr("after %1, %2 nodes").arg(qs(snap.pass)).arg(nodes);
    };
    if (!s.error.empty()) {
        lines << tr("Cannot diff this stage: %1").arg(qs(s.error));
    } else {
        lines << tr("A: %1 · B: %2 — %3 only in A, %4 only in B, %5 changed, %6 unchanged.")
                     .arg(passText(s.a, s.nodesA), passText(s.b, s.nodesB))
                     .arg(s.removed.size())
                     .arg(s.added.size())
                     .arg(s.diff.changed.size())
                     .arg(s.diff.unchanged);
        if (!s.removed.empty())
            lines << tr("Only in A: %1").arg(nodeList(s.removed));
        if (!s.added.empty())
            lines << tr("Only in B: %1").arg(nodeList(s.added));
        QStringList counts;
        for (std::size_t i = 0; i < s.targets.size() && i < 6; ++i)
            counts << tr("%1 %2 → %3").arg(qs(s.targets[i].target)).arg(s.targets[i].a).arg(s.targets[i].b);
        if (!counts.isEmpty())
            lines << tr("Op counts: %1").arg(counts.join(QStringLiteral(", ")));
    }
    if (!m_comparison->stagesOnlyA.empty() || !m_comparison->stagesOnlyB.empty()) {
        QStringList a, b;
        for (const auto &x : m_comparison->stagesOnlyA)
            a << qs(x);
        for (const auto &x : m_comparison->stagesOnlyB)
            b << qs(x);
        lines << tr("Stages only in A: %1; only in B: %2")
                     .arg(a.isEmpty() ? tr("none") : a.join(QStringLiteral(", ")),
                          b.isEmpty() ? tr("none") : b.join(QStringLiteral(", ")));
    }
    m_stageSummary->setText(lines.join(QLatin1Char('\n')));
    if (!s.error.empty()) {
        m_graph->setSnapshots(nullptr, nullptr);
        return;
    }
    struct Pair {
        SnapshotCache::Loaded a, b;
    };
    m_stageJob->start(
        [cache = m_snapshots, a = QString::fromStdString(s.a.file.string()),
         b = QString::fromStdString(s.b.file.string())] { return Pair{cache->load(a), cache->load(b)}; },
        [this](Pair pair) { m_graph->setSnapshots(pair.a.snapshot, pair.b.snapshot); });
}

} // namespace AotStudio::Widgets
