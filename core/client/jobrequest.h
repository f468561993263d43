// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compilerequest.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace AotStudio::Client {

/// Parameters of a `profile` request (FORMAT.md, Requests; core/profiler/PROFILE.md).
struct ProfileRequest {
    CompileRequest compile; ///< model, device, out, warmup, runs, tolerance
    double maxSeconds = 5; ///< measuring cap per variant, s
    int threads = 0; ///< intra-op threads; 0: the engine's default (every usable CPU), not sent
    QString dtype = QStringLiteral("fp32");
    bool freezing = false;
    bool maxAutotune = false;
    QList<int> throughputRunners; ///< runner counts of the throughput sweep
    int coldStartRuns = 3;
    /// Burst replay arrival rates, requests/s (the request's `replay.rates`); empty: no replay, not sent.
    QList<double> replayRates;
    double replaySeconds = 3; ///< of arrivals per rate (`replay.seconds`)
    QString package; ///< profile this package instead of compiling the model again (empty: compile)

    /// The request line's object, with the given request id.
    QJsonObject toJson(qint64 id) const;
};

/// Parameters of a `quantize` request (FORMAT.md "quantize result").
struct QuantizeRequest {
    CompileRequest compile; ///< model, device, out, warmup, runs (its tolerance is not sent: per scheme)
    double maxSeconds = 5;
    int threads = 0; ///< 0: not sent
    QStringList schemes;
    int calibrationSamples = 32;
    int evalSamples = 16;
    double maxError = 0; ///< 0: no "best within" pick, not sent
    QString ray; ///< HOST:PORT of a Ray cluster's head: each scheme a Ray task (FORMAT.md); empty: run here, not sent

    QJsonObject toJson(qint64 id) const;
};

} // namespace AotStudio::Client
