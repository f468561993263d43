// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/quantizeresult.h"
#include "hubviewer.h"

#include <QList>
#include <QPointF>
#include <QWidget>

class QCPItemText;
class QComboBox;
class QCustomPlot;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace AotStudio::Widgets {

class ChartBox;
class LayerErrorModel;
class SchemeTableModel;
class SelectionHub;

/**
 * A `quantize` result (core/protocol/FORMAT.md): the sortable scheme comparison table, a latency
 * against accuracy scatter, bars of latency (ms), peak memory and package size (bytes) per scheme,
 * and the per-layer error table of the selected scheme. Schemes that did not run are listed with
 * their reason and left out of the charts' bars.
 */
class QuantizationPanel : public QWidget, public HubViewer
{
    Q_OBJECT
public:
    /// The accuracy axis of the scatter.
    enum class AccuracyMetric { MaxAbsError, OneMinusCosine };

    explicit QuantizationPanel(QWidget *parent = nullptr);

    /// Shows the hub's quantize() result from now on (HubViewer).
    void follow(SelectionHub *hub);
    /// Shows @p result (null: clear()) and selects its best scheme, or its first `ok` one.
    void setQuantization(std::shared_ptr<const Client::QuantizeResult> result);
    /// The result shown (null when none).
    std::shared_ptr<const Client::QuantizeResult> quantization() const { return m_shown; }
    void onResultsChanged() override;
    /// Back to the empty state ("no quantization result").
    void clear();

    /// The charts with data, for reports (each saved as a PNG; objectName names it).
    QList<QCustomPlot *> charts() const;

    /// The scheme whose per-layer table is shown; empty when none.
    QString selectedScheme() const { return m_selectedScheme; }
    /// Selects @p scheme in the table (and so its per-layer table); false when it is not listed.
    bool selectScheme(const QString &scheme);
    /// The accuracy metric of the scatter.
    void setAccuracyMetric(AccuracyMetric metric);

    SchemeTableModel *schemeModel() const { return m_schemeModel; }
    LayerErrorModel *layerModel() const { return m_layerModel; }
    QTableView *schemeView() const { return m_schemeView; }
    QTableView *layerView() const { return m_layerView; }

Q_SIGNALS:
    /// The user (or selectScheme()) selected @p scheme in the table.
    void schemeSelected(const QString &scheme);

private:
    void rebuildCharts();
    void rebuildScatter();
    void onCurrentRowChanged();
    void placeScatterLabels();

    struct ScatterLabel {
        QCPItemText *text;
        QPointF coords; ///< the point, in plot coordinates
    };

    SelectionHub *m_hub = nullptr;
    std::shared_ptr<const Client::QuantizeResult> m_shown;
    SchemeTableModel *m_schemeModel;
    QSortFilterProxyModel *m_schemeProxy;
    LayerErrorModel *m_layerModel;
    QSortFilterProxyModel *m_layerProxy;
    QLabel *m_summary;
    QTableView *m_schemeView;
    QTableView *m_layerView;
    QLabel *m_layerTitle;
    QComboBox *m_metricBox;
    ChartBox *m_scatter;
    ChartBox *m_latency;
    ChartBox *m_memory;
    ChartBox *m_size;
    QList<ScatterLabel> m_scatterLabels;
    QCPItemText *m_maxErrorLabel = nullptr;
    QString m_selectedScheme;
    QString m_peakMethod;
    AccuracyMetric m_metric = AccuracyMetric::MaxAbsError;
};

} // namespace AotStudio::Widgets
