// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/jobrequest.h"

#include <QDialog>
#include <QJsonObject>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace AotStudio::Widgets {

/**
 * What a compile, profile or quantize job is asked to do beyond model, device and output folder
 * (FORMAT.md, Requests): dtype and Inductor options, dynamic dimensions, measuring, quantization
 * schemes and data, profile extras. Persisted with QSettings under "run/".
 */
struct RunSettings
{
    QString dtype = QStringLiteral("fp32");  ///< fp32, bf16, fp16
    /// The compile's recipe (FORMAT.md "compile" `recipe`): "auto" (the engine chooses per model
    /// after export, PROFILE.md "Recipe choice"; not sent), "defaults" or a tune option set name.
    QString recipe = QStringLiteral("auto");
    /// Inductor freezing (constant-folds weights); a compile sends it only when on, so that "auto"
    /// decides it otherwise.
    bool freezing = false;
    bool maxAutotune = false;                ///< Inductor max-autotune (slow compile)
    /// A compile finds the model's repeated blocks and compiles each class once (FORMAT.md
    /// "Regional compile": `regional`); profile, quantize, export, tune, numerics and sweep
    /// requests never carry it.
    bool regional = false;
    /// With `regional`: also compile the whole model and time it against the blocks (`compare_whole`).
    bool compareWhole = false;
    /// Further Inductor options of a compile (the request's `inductor`: dotted config keys to JSON
    /// scalars, e.g. from a tune's recipe); empty: none.
    QJsonObject inductor;
    /// Dynamic dimensions per model spec (model -> ["INPUT:DIM[:MIN:MAX][=NAME]", ...]): INPUT names
    /// or numbers one model's inputs, so each model keeps its own; a compile or tune of a model
    /// carries its entry as `dynamic`.
    QJsonObject dynamicByModel;
    /// Example inputs at other shapes per model spec (model -> {input name: [d0, d1, ...]}), as the
    /// Inputs dialog leaves them; a request of a model carries its entry as `shapes`.
    QJsonObject shapesByModel;
    int warmup = 5;                          ///< untimed runs first
    int runs = 200;                          ///< most timed runs per variant
    double maxSeconds = 5;                   ///< measuring cap per variant, s
    QStringList schemes = defaultSchemes();  ///< quantization schemes to compare
    int calibrationSamples = 32;
    int evalSamples = 16;
    double maxError = 0;                     ///< 0: no "best within" pick
    QList<int> throughputRunners = {1, 2, 4};
    int coldStartRuns = 3;
    QList<double> replayRates;               ///< burst replay arrival rates, requests/s; empty: no replay
    double replaySeconds = 3;                ///< of arrivals per replay rate, s
    int threads = 0;                         ///< intra-op threads for eager and compiled; 0: all usable CPUs (the engine's default)
    /// HOST:PORT of a Ray cluster's head (FORMAT.md "Fan-out on a Ray cluster"): quantize schemes,
    /// export buckets, tune trials and sweep shards run there as Ray tasks; empty: everything runs
    /// in the engine, as without a cluster.
    QString ray;

    /// Whether `address` is a Ray head address the engine takes: HOST:PORT with a port 1-65535,
    /// HOST a name, an IPv4 address or a bracketed IPv6 one; no scheme (ray:// is not supported).
    static bool isRayAddress(const QString &address);

    /// All scheme words of FORMAT.md's quantize request, baseline first.
    static QStringList allSchemes();
    static QStringList defaultSchemes();
    static RunSettings load();
    void save() const;
    /**
     * Takes a recipe's `options` (FORMAT.md "Recipe": freezing, max_autotune, dtype, inductor) as
     * the next compile's settings; keys it does not give are reset (freezing and max-autotune off,
     * no Inductor options), the dtype stays when it gives none; the recipe becomes "defaults" so
     * that the engine's chooser leaves these options as they are.
     */
    void applyRecipeOptions(const QJsonObject &options);
    /// The shapes of `model`'s example inputs the user chose ({input name: [d0, d1, ...]}); empty:
    /// the model's own.
    QJsonObject shapes(const QString &model) const;
    /// Sets (empty: removes) the shapes of `model`'s example inputs.
    void setShapes(const QString &model, const QJsonObject &shapes);
    /// The dynamic dimensions of `model` ("INPUT:DIM[:MIN:MAX][=NAME]"); empty: all static.
    QStringList dynamic(const QString &model) const;
    /// Sets (empty: removes) the dynamic dimensions of `model`.
    void setDynamic(const QString &model, const QStringList &dynamic);
    /// `shapes` as "input_ids 2×128, attention_mask 2×128" for people; empty for none.
    static QString shapesText(const QJsonObject &shapes);
    /// Fields of a `compile`, `sweep`, `numerics` or `tune` request built from these settings (each
    /// type gets the fields FORMAT.md gives it); the caller adds model, device, out. With `model`,
    /// its shapes() go along as `shapes` (not for a sweep, which takes them from its package) and,
    /// for a compile or tune, its dynamic() as `dynamic`. Only a compile gets `regional` and
    /// `compare_whole`.
    QJsonObject requestFields(const QString &type, const QString &model = {}) const;
    /// A `profile` request of `compile`'s model, device and folder with these settings.
    Client::ProfileRequest profileRequest(const Client::CompileRequest &compile) const;
    /// A `quantize` request of `compile`'s model, device and folder with these settings.
    Client::QuantizeRequest quantizeRequest(const Client::CompileRequest &compile) const;
};

/// Edits RunSettings: device-independent options for compile, profile and quantize jobs.
class RunSettingsDialog : public QDialog
{
    Q_OBJECT
public:
    /// `model`: the toolbar's model, whose shapes() the dialog shows (with a button to reset them).
    explicit RunSettingsDialog(const RunSettings &settings, const QString &model = {}, QWidget *parent = nullptr);
    RunSettings settings() const;
    /// "5, 20, 50" as rates (requests/s); words that are not positive numbers are dropped.
    static QList<double> parseRates(const QString &text);

private:
    RunSettings m_original; ///< what the dialog opened with (fields it does not edit stay so)
    QString m_model;
    QJsonObject m_shapes; ///< m_model's shapes; a reset empties them
    QLabel *m_shapesLabel;
    QComboBox *m_dtype;
    QComboBox *m_recipe;
    QCheckBox *m_freezing;
    QCheckBox *m_maxAutotune;
    QCheckBox *m_regional;
    QCheckBox *m_compareWhole;
    QLineEdit *m_inductor;
    QLineEdit *m_dynamic;
    QSpinBox *m_warmup;
    QSpinBox *m_runs;
    QDoubleSpinBox *m_maxSeconds;
    QListWidget *m_schemes;
    QSpinBox *m_calibration;
    QSpinBox *m_eval;
    QDoubleSpinBox *m_maxError;
    QLineEdit *m_runners;
    QSpinBox *m_coldStart;
    QLineEdit *m_replayRates;
    QDoubleSpinBox *m_replaySeconds;
    QSpinBox *m_threads;
    QLineEdit *m_ray;
};

} // namespace AotStudio::Widgets
