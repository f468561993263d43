// SPDX-License-Identifier: GPL-3.0-or-later
#include "recipetext.h"

#include "client/enginetext.h"

namespace AotStudio::Widgets {

QString RecipeText::describe(const QJsonObject &recipe)
{
    const QString name = recipe.value(QLatin1String("name")).toString();
    if (name.isEmpty())
        return {};
    const QString by = recipe.value(QLatin1String("chosen_by")).toString();
    const QString who = by == QLatin1String("rule")    ? tr("chosen by the rule")
        : by == QLatin1String("probe")                 ? tr("chosen by a timed probe")
        : by == QLatin1String("user")                  ? tr("as requested")
                                                       : by;
    QString text = tr("%1, %2: %3").arg(name, who, Client::EngineText::field(recipe, QStringLiteral("reason")));
    const QJsonObject cost = recipe.value(QLatin1String("cost")).toObject();
    if (!cost.isEmpty())
        text += QLatin1Char('\n') + tr("Cost: %1").arg(Client::EngineText::field(cost, QStringLiteral("reason")));
    return text;
}

} // namespace AotStudio::Widgets
