// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "client/engineerror.h"

#include <QMessageBox>

namespace AotStudio::Widgets {

/**
 * The studio's side of "who may load a bundle" (issue 19, BUNDLE.md "Who may load a bundle"): the
 * engine refused a bundle under its trust policy (error code `untrusted`: unsigned, or signed by a
 * key outside its $AOTSTUDIO_TRUST) and the user decides. The dialog names what will be loaded
 * (the bundle's path, on which machine), what loading means (the native code of its packages
 * runs inside the engine), and who signed it, in the engine's own words (the key id, or that
 * nobody did). "Load Anyway" sends the same request with `allow_unsigned`; Cancel (the default
 * button, also Escape) ends the job as refused. An invalid signature never gets here: the engine
 * refuses it with `load_failed`.
 */
class TrustDialog : public QMessageBox
{
    Q_OBJECT
public:
    /// `bundle`: the path the request named; `engineHost`: where the engine runs ("this
    /// computer" or the remote host); `refusal`: the engine's error event.
    TrustDialog(const QString &bundle, const QString &engineHost, const Client::EngineError &refusal,
                QWidget *parent = nullptr);

    /// True when the engine's error is one this dialog answers (code `untrusted`).
    static bool answers(const Client::EngineError &error);
    /// True once the user chose "Load Anyway".
    bool loadAnyway() const;

private:
    QAbstractButton *m_load = nullptr;
};

} // namespace AotStudio::Widgets
