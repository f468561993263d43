// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelspanel.h"

#include "kerneltablemodel.h"
#include "selectionhub.h"
#include "sourcehighlighter.h"
#include "tableutil.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace AotStudio::Widgets {

KernelsPanel::KernelsPanel(SelectionHub *hub, QWidget *parent)
    : QWidget(parent)
    , m_hub(hub)
    , m_model(new KernelTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTableView(this))
    , m_sourceTitle(new QLabel(this))
    , m_source(new QPlainTextEdit(this))
    , m_highlighter(new SourceHighlighter(m_source->document()))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(KernelTableModel::SortRole);
    m_proxy->setFilterRole(KernelTableModel::FilterRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    setUpTableView(m_view, m_proxy);
    m_view->horizontalHeader()->resizeSection(KernelTableModel::NameColumn, 260);
    m_view->sortByColumn(KernelTableModel::TotalColumn, Qt::DescendingOrder);

    m_filter->setPlaceholderText(tr("Filter by kernel, kind or node…"));
    m_filter->setClearButtonEnabled(true);
    m_source->setReadOnly(true);
    m_source->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_source->setPlaceholderText(tr("Select a kernel to see its generated source."));

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_sourceTitle);
    bottomLayout->addWidget(m_source, 1);
    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_filter);
    topLayout->addWidget(m_view, 1);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(splitter);

    connect(m_filter, &QLineEdit::textChanged, this, &KernelsPanel::setFilterText);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (!current.isValid())
            return;
        const QString id = current.data(KernelTableModel::IdRole).toString();
        showKernel(id);
        m_hub->selectKernel(id);
    });
    hub->addViewer(this, this);
    reload();
}

QString KernelsPanel::sourceText() const
{
    return m_source->toPlainText();
}

void KernelsPanel::setFilterText(const QString &text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    m_proxy->setFilterFixedString(text);
}

void KernelsPanel::reload()
{
    const auto catalog = m_hub->kernels();
    if (catalog != m_model->catalog())
        m_model->setCatalog(catalog);
    m_view->setColumnHidden(KernelTableModel::CallsColumn, !catalog || !catalog->hasMeasurements());
    if (!catalog) {
        m_sourceTitle->setText(tr("No kernels: compile a model first."));
        m_source->clear();
    } else if (!m_hub->currentKernel().isEmpty()) {
        showKernel(m_hub->currentKernel());
    } else {
        m_sourceTitle->setText(tr("%n kernel(s) and library call(s)", nullptr, int(catalog->kernels().size())));
    }
}

void KernelsPanel::showKernel(const QString &nameOrId)
{
    const auto catalog = m_model->catalog();
    const auto *k = catalog ? catalog->find(nameOrId) : nullptr;
    if (!k)
        return;
    const int sourceRow = m_model->rowOf(nameOrId);
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (proxyIndex.isValid() && m_view->currentIndex().row() != proxyIndex.row()) {
        QSignalBlocker block(m_view->selectionModel());
        m_view->setCurrentIndex(proxyIndex);
        m_view->selectRow(proxyIndex.row());
        m_view->scrollTo(proxyIndex);
    }
    m_highlighter->setLanguage(k->kind == QLatin1String("triton") ? SourceHighlighter::Language::Python
                                                                   : SourceHighlighter::Language::Cpp);
    if (k->source.isEmpty()) {
        m_sourceTitle->setText(tr("%1 — a library call, no generated source").arg(k->name));
        m_source->setPlainText(k->libraryOp.isEmpty() ? QString() : tr("Calls %1").arg(k->libraryOp));
    } else {
        m_sourceTitle->setText(tr("%1 — generated %2 source").arg(k->name, k->kind));
        m_source->setPlainText(k->source);
    }
}

void KernelsPanel::followNode(const QString &node)
{
    const auto catalog = m_model->catalog();
    if (!catalog || node.isEmpty())
        return;
    const auto kernels = catalog->kernelsForNode(node);
    if (!kernels.isEmpty())
        showKernel(kernels.first()->id);
}

} // namespace AotStudio::Widgets
