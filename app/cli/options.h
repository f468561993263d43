// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Options every measuring subcommand shares (compile, profile, quantize), and those of every
// subcommand that loads a model (--shape).

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace AotStudio::Cli {

/// `--threads N`: intra-op threads for eager and compiled alike, checked against the CPUs this
/// process may use (affinity and cgroup quota) before the engine starts; a value outside 1..usable
/// is a command-line error (exit 2). 0 (unset) leaves the engine's default: all usable CPUs.
void addThreadsOption(CLI::App *cmd, int &threads);
/// A size in bytes in IEC units for the CLI's tables ("1.5 MiB", "812 B").
std::string humanBytes(double bytes);

/// The check of a `--dynamic` value, INPUT:DIM[:MIN:MAX][=NAME] (the frontend checks that the
/// input and dimension exist): a malformed one is a command-line error (exit 2) before the
/// engine starts.
const CLI::Validator &dynamicSpec();

/// `--shape INPUT=AxB` (repeatable): the example input INPUT (an index or an input's name) rebuilt at
/// that shape (FORMAT.md "compile", `shapes`). The form is checked here (each size >= 1); whether
/// the input exists and has that rank is the engine's question (exit 1, naming the inputs).
void addShapeOption(CLI::App *cmd, std::vector<std::string> &shapes);
/// The `--shape` values as the request's `shapes` object ({"INPUT": [A, B]}) in `out`; returns ""
/// or the problem (exit 2): an input given twice.
std::string parseShapes(const std::vector<std::string> &shapes, nlohmann::json &out);
/// Put `shapes` into a request as `shapes` when any were given (checked by parseShapes() first).
void setShapes(nlohmann::json &request, const std::vector<std::string> &shapes);

/// The check of `--device`: cpu or cuda, the front end's names (whether the device exists is the
/// engine's question, exit 1).
const CLI::Validator &deviceName();

/// The check of `--dtype`: fp32, bf16 or fp16.
const CLI::Validator &dtypeName();

/// `--ray HOST:PORT`: run the command's independent trials as tasks on a Ray cluster (FORMAT.md
/// "Fan-out on a Ray cluster"); the form is checked here, whether it answers by the engine.
void addRayOption(CLI::App *cmd, std::string &address);
/// Put `address` into a request as `ray` when set.
void setRay(nlohmann::json &request, const std::string &address);

/// Put `threads` into a request when set.
void setThreads(nlohmann::json &request, int threads);

/// `v` printed with the printf `format` (one double conversion, e.g. "%.4f"); "-" when `v` is not
/// a number (a figure the job did not measure is never printed as 0).
std::string formatNumber(const nlohmann::json &v, const char *format);

/// A compile recipe (aotstudio-cli tune's OUT/recipe.json; FORMAT.md "recipe"), read and checked
/// without torch. `path` empty: nothing to do. Fills `recipe` with the file's `options`
/// ({freezing, max_autotune: bool; dtype: fp32|bf16|fp16; inductor: {key: scalar}}) and returns
/// "" or the problem for a usage error (exit 2): unreadable, not JSON, another `format`, an
/// unknown key (named), a wrong type. Inductor keys are checked by the engine against its torch.
std::string loadRecipe(const std::string &path, nlohmann::json &recipe);

/// `--recipe VALUE` of compile, export and quantize: a recipe name (auto, defaults or one of tune's
/// option sets: lower-case letters, digits, `_` and `+`; checked by the engine, which lists the
/// known ones) into `name`, or an existing recipe file read by loadRecipe() into `recipe`. A file
/// wins over a name when both could be meant (`./freezing` names the file in any case). Returns ""
/// or the usage error (exit 2).
std::string readRecipeArgument(const std::string &value, std::string &name, nlohmann::json &recipe);

/// Apply `recipe` (loadRecipe()'s) to a compile-like `request`: its freezing and max_autotune turn
/// those on (a flag on the command line stays on; a file's freezing is sent even when false, so the
/// engine's recipe chooser leaves the file's choice as it is), its dtype and inductor options are
/// set. Returns "" or the contradiction (exit 2): `--dtype` given as another dtype than the recipe's.
std::string applyRecipe(nlohmann::json &request, const nlohmann::json &recipe, bool dtypeGiven);

/// The one line a compile or export prints for its result's `recipe` (FORMAT.md "compile result"):
/// "freezing, chosen by rule: REASON; weights 46.8 MB inside each package, not shared". Empty when
/// `recipe` is not an object (an older engine, a regional compile).
std::string recipeLine(const nlohmann::json &recipe);

} // namespace AotStudio::Cli
