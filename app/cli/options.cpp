// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.h"

#include "profiler/machine.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

namespace AotStudio::Cli {

void addThreadsOption(CLI::App *cmd, int &threads)
{
    const auto cpus = Profiler::usableCpus();
    cmd->add_option("--threads", threads,
                    "Intra-op threads for eager and compiled alike (1 to " + std::to_string(cpus.usable) +
                        ", the CPUs this process may use by its " + cpus.source + "; default: all of them). Recorded in the result")
        ->check(CLI::Range(1, cpus.usable));
}

const CLI::Validator &dynamicSpec()
{
    static const CLI::Validator v(
        [](std::string &value) -> std::string {
            // INPUT: an index or an input's name as the front end gives it (x, cfg.scale, images[0]).
            static const std::regex form(R"(^(\d+|[A-Za-z_][A-Za-z0-9_.\[\]']*):\d+(:\d+:\d+)?(=[A-Za-z_][A-Za-z0-9_]*)?$)");
            if (!std::regex_match(value, form))
                return "cannot read '" + value + "': write INPUT:DIM[:MIN:MAX][=NAME] (INPUT an index or an input's name), "
                       "e.g. 0:0, 0:0:1:64, attention_mask:1 or 0:0=batch";
            return {};
        },
        "INPUT:DIM[:MIN:MAX][=NAME]");
    return v;
}

void addShapeOption(CLI::App *cmd, std::vector<std::string> &shapes)
{
    cmd->add_option("--shape", shapes,
                    "Example input at another shape, INPUT=AxB (repeatable), INPUT an index or an input's name, e.g. "
                    "input_ids=2x128: the example's values repeated or cut along each dimension (token ids stay in "
                    "its range, masks 0/1). Inputs that share a dimension (ids and their attention mask) are changed "
                    "together by giving each; aotstudio-cli inputs lists the names and shapes")
        ->check(CLI::Validator(
            [](std::string &value) -> std::string {
                static const std::regex form(R"(^(\d+|[A-Za-z_][A-Za-z0-9_.\[\]']*)=(\d+)(x\d+)*$)");
                if (!std::regex_match(value, form))
                    return "cannot read '" + value
                        + "': write INPUT=AxB (INPUT an index or an input's name), e.g. "
                          "x=4x64 or input_ids=2x128";
                static const std::regex zero(R"((=|x)0+(x|$))");
                if (std::regex_search(value.substr(value.rfind('=')), zero))
                    return "'" + value + "': every dimension must be at least 1";
                return {};
            },
            "INPUT=AxB"));
}

std::string parseShapes(const std::vector<std::string> &shapes, nlohmann::json &out)
{
    out = nlohmann::json::object();
    for (const std::string &value : shapes) {
        const auto eq = value.rfind('=');
        const std::string input = value.substr(0, eq);
        if (out.contains(input))
            return "--shape gives input '" + input + "' twice";
        nlohmann::json sizes = nlohmann::json::array();
        std::size_t start = eq + 1;
        while (start <= value.size()) {
            const auto x = value.find('x', start);
            const std::string part = value.substr(start, x == std::string::npos ? std::string::npos : x - start);
            try {
                sizes.push_back(std::stoll(part));
            } catch (const std::exception &) {
                return "--shape '" + value + "': cannot read the size '" + part + "'";
            }
            if (x == std::string::npos)
                break;
            start = x + 1;
        }
        out[input] = sizes;
    }
    return {};
}

void setShapes(nlohmann::json &request, const std::vector<std::string> &shapes)
{
    nlohmann::json parsed;
    if (!shapes.empty() && parseShapes(shapes, parsed).empty())
        request["shapes"] = parsed;
}

const CLI::Validator &deviceName()
{
    static const CLI::Validator v(
        [](std::string &value) -> std::string {
            // The front end's DEVICES (options.py); whether the device is there is the engine's question.
            return value == "cpu" || value == "cuda" ? std::string()
                                                     : "'" + value + "' is not a device: write cpu or cuda";
        },
        "cpu|cuda");
    return v;
}

const CLI::Validator &dtypeName()
{
    static const CLI::Validator v(CLI::IsMember({"fp32", "bf16", "fp16"}));
    return v;
}

void addRayOption(CLI::App *cmd, std::string &address)
{
    cmd->add_option(
           "--ray", address,
           "Run the independent trials as tasks on the Ray cluster whose head is at HOST:PORT (the address "
           "`ray start --head` printed), each in aotstudio-engine on a worker node; results and files come back "
           "into --out, rows labelled with the worker's host and device. Workers need this studio at the same "
           "path and the same torch. Needs Ray in the engine's Python (tools/requirements.txt)")
        ->check(CLI::Validator(
            [](std::string &v) -> std::string {
                static const std::regex form(R"(^\[?[A-Za-z0-9_.:-]+\]?:[0-9]{1,5}$)");
                return std::regex_match(v, form) && v.find("://") == std::string::npos
                    ? std::string()
                    : "'" + v + "' is not a Ray head address: write HOST:PORT, e.g. 10.0.0.5:6379";
            },
            "HOST:PORT"));
}

void setRay(nlohmann::json &request, const std::string &address)
{
    if (!address.empty())
        request["ray"] = address;
}

void setThreads(nlohmann::json &request, int threads)
{
    if (threads > 0)
        request["threads"] = threads;
}

std::string formatNumber(const nlohmann::json &v, const char *format)
{
    if (!v.is_number())
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v.get<double>());
    return buf;
}

std::string loadRecipe(const std::string &path, nlohmann::json &recipe)
{
    recipe = nlohmann::json();
    if (path.empty())
        return {};
    std::ifstream in(path);
    if (!in)
        return "--recipe: cannot read '" + path + "'";
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object())
        return "--recipe: '" + path + "' is not a JSON object";
    if (j.value("format", std::string()) != "aotstudio.recipe")
        return "--recipe: '" + path
            + "' is not a recipe (its \"format\" is not \"aotstudio.recipe\"; aotstudio-cli tune writes "
              "OUT/recipe.json)";
    static const std::set<std::string> topKeys{"format",        "format_version", "name",    "model",    "device",
                                               "torch_version", "created",        "options", "measured", "note"};
    for (const auto &[key, value] : j.items())
        if (!topKeys.count(key))
            return "--recipe: unknown key '" + key + "' in '" + path + "'";
    const nlohmann::json options = j.value("options", nlohmann::json::object());
    if (!options.is_object())
        return "--recipe: 'options' must be an object in '" + path + "'";
    for (const auto &[key, value] : options.items()) {
        if (key == "freezing" || key == "max_autotune") {
            if (!value.is_boolean())
                return "--recipe: options." + key + " must be true or false";
        } else if (key == "dtype") {
            if (!value.is_string() || (value != "fp32" && value != "bf16" && value != "fp16"))
                return "--recipe: options.dtype must be fp32, bf16 or fp16";
        } else if (key == "inductor") {
            if (!value.is_object())
                return "--recipe: options.inductor must be an object of Inductor options";
        } else {
            return "--recipe: unknown option '" + key + "' in '" + path
                + "' (known: freezing, max_autotune, dtype, inductor)";
        }
    }
    recipe = options;
    return {};
}

std::string readRecipeArgument(const std::string &value, std::string &name, nlohmann::json &recipe)
{
    name.clear();
    recipe = nlohmann::json();
    if (value.empty())
        return {};
    std::error_code ec;
    if (std::filesystem::is_regular_file(value, ec))
        return loadRecipe(value, recipe);
    const bool isName = std::all_of(value.begin(), value.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '+';
    });
    if (!isName)
        return "--recipe: '" + value
            + "' is neither a recipe name (auto, defaults, freezing, max_autotune, ...) nor an existing recipe file";
    name = value;
    return {};
}

std::string applyRecipe(nlohmann::json &request, const nlohmann::json &recipe, bool dtypeGiven)
{
    if (!recipe.is_object())
        return {};
    if (recipe.contains("dtype")) {
        const std::string dtype = recipe["dtype"].get<std::string>();
        if (dtypeGiven && request.value("dtype", dtype) != dtype)
            return "--dtype " + request.value("dtype", std::string()) + " contradicts the recipe's dtype " + dtype
                + "; drop one of them";
        request["dtype"] = dtype;
    }
    for (const char *flag : {"freezing", "max_autotune"})
        if (recipe.value(flag, false))
            request[flag] = true;
    // The file's choice of freezing stands: without the field the engine's chooser (recipe "auto")
    // would decide it again.
    if (recipe.contains("freezing") && !request.contains("freezing"))
        request["freezing"] = false;
    if (recipe.contains("inductor"))
        request["inductor"] = recipe["inductor"];
    return {};
}

std::string recipeLine(const nlohmann::json &recipe)
{
    if (!recipe.is_object())
        return {};
    std::string line = recipe.value("name", std::string("?")) + ", chosen by "
        + recipe.value("chosen_by", std::string("?")) + ": " + recipe.value("reason", std::string());
    const nlohmann::json cost = recipe.value("cost", nlohmann::json());
    if (cost.is_object()) {
        const double weights = cost.value("weight_bytes", 0.0), extra = cost.value("extra_bytes", 0.0);
        line += "; weights " + humanBytes(weights) + " inside each package, not shared";
        if (extra > 0)
            line += " (" + humanBytes(extra) + " more over " + std::to_string(cost.value("buckets", 1)) + " buckets)";
    }
    return line;
}

std::string humanBytes(double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

} // namespace AotStudio::Cli
