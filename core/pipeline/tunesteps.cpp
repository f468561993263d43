// SPDX-License-Identifier: GPL-3.0-or-later
// The row steps of a tune (tunesteps.h): a trial's row, the Pareto front, the recipe's choice and
// the files. runTune (tunejob.cpp) is the table that orders them.
#include "pipeline/tunesteps.h"
#include "pipeline/fanout.h"
#include "pipeline/jobutil.h"

#include "profiler/statistics.h"
#include "profiler/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace AotStudio::Pipeline::TuneSteps {

using Protocol::Json;
namespace fs = std::filesystem;

namespace {

/// A number as tune.csv writes it: 6 significant digits; a string as it is; null empty.
std::string num(const Json &v)
{
    if (v.is_null())
        return {};
    if (v.is_string())
        return v.get<std::string>();
    std::ostringstream s;
    s.precision(6);
    s << v.get<double>();
    return s.str();
}

/// `row[k]` as a double, NaN when it is not a number.
double value(const Json &row, const char *k)
{
    const Json v = row.value(k, Json());
    return v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

/// Whether the row's speedup over defaults has an interval holding 1 (as fast as defaults).
bool tiedWithDefaults(const Json &row)
{
    const Json iv = row.value("speedup_vs_defaults_interval", Json());
    return iv.is_object() && iv.value("low", Json()).is_number() && iv.value("high", Json()).is_number()
        && iv["low"].get<double>() <= 1.0 && 1.0 <= iv["high"].get<double>();
}

} // namespace

void fillTrialRow(Json &row, const Json &compiled, const Json &trialRequest)
{
    row["package"] = compiled.value("package", "");
    row["package_bytes"] = compiled.value("package_bytes", Json());
    // The error axis compares like with like: an fp32 trial against fp32 eager, a
    // bf16/fp16 trial against verify's high-precision reference (not against eager in
    // its own dtype, which would hide the precision it gave up).
    row["max_abs_error"] = compiled.value("max_abs_error", Json());
    row["error_against"] = "eager " + trialRequest["dtype"].get<std::string>();
    const Json v = compiled.value("verify", Json());
    if (v.is_object() && v.value("mode", "") == "reduced_precision") {
        double worst = 0;
        bool any = false;
        for (const auto &o : v.value("outputs", Json::array()))
            if (o.value("compiled_reference_error", Json()).is_number()) {
                worst = std::max(worst, o["compiled_reference_error"].get<double>());
                any = true;
            }
        if (any) {
            row["max_abs_error"] = worst;
            row["error_against"]
                = v.value("reference", Json::object()).value("dtype", std::string("float64")) + " reference";
        }
    }
    row["verify"] = v.is_object() ? v.value("verdict", Json()) : Json();
    row["dtype"] = trialRequest["dtype"];
    row["options_recorded"] = compiled.value("options", Json());
}

void writeTuneFiles(const fs::path &out, const Json &result)
{
    writeJsonAtomic(out / "tune.json", result);
    Profiler::CsvTable csv({"name", "kind", "status", "median_ms", "speedup_vs_defaults", "speedup_vs_defaults_low",
                            "speedup_vs_defaults_high", "speedup_vs_torch_compile", "max_abs_error", "compile_seconds",
                            "package_bytes", "pareto", "reason"});
    for (const auto &row : result.value("rows", Json::array())) {
        const Json vd = row.value("speedup_vs_defaults_interval", Json());
        csv.addRow({row.value("name", ""), row.value("kind", ""), row.value("status", ""),
                    num(row.value("median_ms", Json())), num(row.value("speedup_vs_defaults", Json())),
                    vd.is_object() ? num(vd.value("low", Json())) : "",
                    vd.is_object() ? num(vd.value("high", Json())) : "",
                    num(row.value("speedup_vs_torch_compile", Json())), num(row.value("max_abs_error", Json())),
                    num(row.value("compile_seconds", Json())), num(row.value("package_bytes", Json())),
                    row.value("pareto", false) ? "true" : "false", row.value("reason", "")});
    }
    writeFileAtomic(out / "tune.csv", csv.text());
}

Front paretoFront(Json &rows, bool defaultsTimed, bool jitTimed, const WarnFn &warn)
{
    Front f;
    std::vector<std::vector<double>> points;
    double defaultsMs = std::numeric_limits<double>::quiet_NaN();
    for (const auto &row : rows)
        if (row.value("name", "") == "defaults")
            defaultsMs = value(row, "median_ms");
    // Compile times of two machines do not compare: with trials compiled on several hosts the
    // front leaves compile time out (latencies and errors were all taken here).
    Json compiledRows = Json::array();
    for (const auto &row : rows)
        if (row.contains("median_ms"))
            compiledRows.push_back(row);
    f.severalHosts = severalHosts(compiledRows);
    if (f.severalHosts)
        warn("the trials compiled on several hosts: compile time is left out of the Pareto front (compile "
             "times of two machines do not compare); latency and error were measured here for all of them");
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].contains("median_ms")) {
            f.measured.push_back(i);
            const double latency
                = tiedWithDefaults(rows[i]) && !std::isnan(defaultsMs) ? defaultsMs : value(rows[i], "median_ms");
            std::vector<double> point{latency, value(rows[i], "max_abs_error"), value(rows[i], "package_bytes")};
            if (!f.severalHosts)
                point.push_back(value(rows[i], "compile_seconds"));
            points.push_back(std::move(point));
        }
    for (const auto k : Profiler::paretoFront(points)) {
        rows[f.measured[k]]["pareto"] = true;
        f.names.push_back(rows[f.measured[k]]["name"]);
    }
    if (std::find(f.names.begin(), f.names.end(), "defaults") == f.names.end() && defaultsTimed)
        f.names.push_back("defaults");
    if (jitTimed)
        f.names.push_back("torch.compile");
    return f;
}

Json chooseRecipe(const Json &rows, const std::vector<std::size_t> &measured, const Json &maxError, const WarnFn &warn)
{
    Json chosen;
    for (const auto i : measured) {
        const Json &row = rows[i];
        const double err = value(row, "max_abs_error");
        if (maxError.is_number() && !(err <= maxError.get<double>()))
            continue;
        if (chosen.is_null() || value(row, "median_ms") < value(chosen, "median_ms"))
            chosen = row;
    }
    // Defaults stay the recipe unless the fastest trial is faster beyond the interval.
    if (chosen.is_object() && chosen.value("name", "") != "defaults") {
        const Json iv = chosen.value("speedup_vs_defaults_interval", Json());
        const bool beyond = iv.is_object() && iv.value("low", Json()).is_number() && iv["low"].get<double>() > 1.0;
        for (const auto i : measured) {
            const Json &row = rows[i];
            const bool withinError = !maxError.is_number() || value(row, "max_abs_error") <= maxError.get<double>();
            if (!beyond && row.value("name", "") == "defaults" && withinError) {
                warn("the fastest trial, " + chosen["name"].get<std::string>()
                     + ", is not faster than AOTInductor's defaults beyond the 95% interval: the recipe keeps the "
                       "defaults");
                chosen = row;
            }
        }
    }
    return chosen;
}

Json recipeJson(const Json &chosen, const Json &result, const Json &verdict)
{
    Json recipeOptions = chosen.value("options", Json::object());
    if (!recipeOptions.contains("dtype"))
        recipeOptions["dtype"] = result["dtype"];
    return Json{{"format", "aotstudio.recipe"},
                {"format_version", 1},
                {"name", chosen["name"]},
                {"model", result["model"]},
                {"device", result["device"]},
                {"torch_version", result["torch_version"]},
                {"created", isoNow()},
                {"options", recipeOptions},
                {"measured",
                 {{"median_ms", chosen.value("median_ms", Json())},
                  {"speedup_vs_defaults", chosen.value("speedup_vs_defaults_interval", Json())},
                  {"speedup_vs_torch_compile", chosen.value("speedup_vs_torch_compile_interval", Json())},
                  {"max_abs_error", chosen.value("max_abs_error", Json())},
                  {"measurement", verdict}}}};
}

} // namespace AotStudio::Pipeline::TuneSteps
