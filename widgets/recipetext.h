// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace AotStudio::Widgets {

/**
 * The words for a compile result's `recipe` (FORMAT.md "compile result"): which Inductor option set
 * the engine used, who chose it and why, and what freezing costs a bundle.
 */
class RecipeText
{
    Q_DECLARE_TR_FUNCTIONS(AotStudio::Widgets::RecipeText)

public:
    /**
     * `recipe` in the UI language: "freezing, chosen by the rule: REASON" (the engine's reason by
     * its message id, translated) and, with freezing, a second line "Cost: …"; empty for an object
     * without a name (older results, regional compiles).
     */
    static QString describe(const QJsonObject &recipe);
};

} // namespace AotStudio::Widgets
