// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/jobrequest.h"

#include <QDialog>
#include <QJsonObject>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
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
    bool freezing = false;                   ///< Inductor freezing (constant-folds weights)
    bool maxAutotune = false;                ///< Inductor max-autotune (slow compile)
    /// Further Inductor options of a compile (the request's `inductor`: dotted config keys to JSON
    /// scalars, e.g. from a tune's recipe); empty: none.
    QJsonObject inductor;
    QStringList dynamic;                     ///< "INPUT:DIM[:MIN:MAX][=NAME]"
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

    /// All scheme words of FORMAT.md's quantize request, baseline first.
    static QStringList allSchemes();
    static QStringList defaultSchemes();
    static RunSettings load();
    void save() const;
    /**
     * Takes a recipe's `options` (FORMAT.md "Recipe": freezing, max_autotune, dtype, inductor) as
     * the next compile's settings; keys it does not give are reset (freezing and max-autotune off,
     * no Inductor options), the dtype stays when it gives none.
     */
    void applyRecipeOptions(const QJsonObject &options);
    /// Fields of a `compile`, `sweep`, `numerics` or `tune` request built from these settings (each
    /// type gets the fields FORMAT.md gives it); the caller adds model, device, out.
    QJsonObject requestFields(const QString &type) const;
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
    explicit RunSettingsDialog(const RunSettings &settings, QWidget *parent = nullptr);
    RunSettings settings() const;
    /// "5, 20, 50" as rates (requests/s); words that are not positive numbers are dropped.
    static QList<double> parseRates(const QString &text);

private:
    QComboBox *m_dtype;
    QCheckBox *m_freezing;
    QCheckBox *m_maxAutotune;
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
};

} // namespace AotStudio::Widgets
