// SPDX-License-Identifier: GPL-3.0-or-later
// Reading guards (guards.h InputGuards::parse, the package's sidecar): the JSON checked field by
// field and every checkable expression compiled to postfix code for the checker (guards.cpp).
#include "bundle/guards.h"
#include "bundle/guards_p.h"

#include <algorithm>
#include <array>
#include <fstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

using namespace GuardsDetail;

namespace {

struct OpName {
    const char *name;
    Op op;
    int minArgs;
    int maxArgs;
};
constexpr OpName kOps[] = {
    {"+", Add, 1, 1 << 14},   {"*", Mul, 1, 1 << 14},   {"//", FloorDiv, 2, 2}, {"%", Mod, 2, 2},
    {"==", Eq, 2, 2},         {"!=", Ne, 2, 2},         {"<", Lt, 2, 2},        {"<=", Le, 2, 2},
    {">", Gt, 2, 2},          {">=", Ge, 2, 2},         {"and", And, 1, 1 << 14}, {"or", Or, 1, 1 << 14},
    {"not", Not, 1, 1},       {"max", Max, 1, 1 << 14}, {"min", Min, 1, 1 << 14},
};

std::string shortDump(const json &j)
{
    std::string s = j.dump(-1, ' ', true, json::error_handler_t::replace);
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

struct Compiler {
    const std::string &origin;
    const std::vector<std::string> &symbolIds;
    std::vector<InputGuards::Instr> code;
    std::uint64_t symbols = 0;
    std::size_t depth = 0; ///< stack depth now
    std::size_t maxDepth = 0;

    int symbolIndex(const std::string &id) const
    {
        const auto it = std::find(symbolIds.begin(), symbolIds.end(), id);
        return it == symbolIds.end() ? -1 : static_cast<int>(it - symbolIds.begin());
    }

    void push(InputGuards::Instr i, std::size_t popped)
    {
        depth = depth - popped + 1;
        maxDepth = std::max(maxDepth, depth);
        code.push_back(i);
    }

    void compile(const json &node, const std::string &where, int level)
    {
        if (level > kMaxDepth)
            fail(origin, where, "expression nested deeper than " + std::to_string(kMaxDepth) + " levels");
        if (code.size() >= kMaxNodes)
            fail(origin, where, "expression longer than " + std::to_string(kMaxNodes) + " nodes");
        if (node.is_boolean()) {
            push({Const, 0, node.get<bool>() ? 1 : 0}, 0);
        } else if (node.is_number_integer()) {
            if (node.is_number_unsigned() && node.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
                fail(origin, where, "constant out of range");
            push({Const, 0, node.get<std::int64_t>()}, 0);
        } else if (node.is_string()) {
            const int s = symbolIndex(node.get<std::string>());
            if (s < 0)
                fail(origin, where, "unknown symbol '" + node.get<std::string>() + "' (not in \"symbols\")");
            symbols |= std::uint64_t{1} << std::min(s, 63);
            push({Sym, 0, s}, 0);
        } else if (node.is_array() && !node.empty() && node.at(0).is_string()) {
            const std::string name = node.at(0).get<std::string>();
            const auto *op = std::find_if(std::begin(kOps), std::end(kOps), [&](const OpName &o) { return name == o.name; });
            if (op == std::end(kOps))
                fail(origin, where, "unknown operator '" + name + "'");
            const int argc = static_cast<int>(node.size()) - 1;
            if (argc < op->minArgs || argc > op->maxArgs)
                fail(origin, where, "operator '" + name + "' with " + std::to_string(argc) + " operands");
            for (int i = 1; i <= argc; ++i)
                compile(node.at(static_cast<std::size_t>(i)), where, level + 1);
            if ((op->op == FloorDiv || op->op == Mod) && (code.back().op != Const || code.back().value == 0))
                fail(origin, where, "'" + name + "' needs a non-zero constant divisor");
            push({op->op, static_cast<std::uint16_t>(argc), 0}, static_cast<std::size_t>(argc));
        } else {
            fail(origin, where, "not an expression: " + shortDump(node));
        }
        if (maxDepth > kMaxStack)
            fail(origin, where, "expression too wide to evaluate");
    }
};

} // namespace

InputGuards::Expr InputGuards::compileExpr(const json &tree, const std::string &where, const std::string &origin,
                                             const std::vector<std::string> &ids, std::string text, std::string source)
{
    Compiler c{origin, ids, {}, 0, 0, 0};
    c.compile(tree, where, 0);
    return Expr{std::move(c.code), c.symbols, std::move(text), std::move(source)};
}

std::vector<std::string> InputGuards::parseSymbols(const json &j, const std::string &origin)
{
    std::vector<std::string> ids;
    if (!j.contains("symbols"))
        return ids;
    const json &syms = j.at("symbols");
    if (!syms.is_array())
        fail(origin, "symbols", "must be an array of {symbol, min, max}");
    if (syms.size() > kMaxSymbols)
        fail(origin, "symbols", "more than " + std::to_string(kMaxSymbols) + " symbols");
    for (std::size_t i = 0; i < syms.size(); ++i) {
        const std::string where = "symbols[" + std::to_string(i) + "]";
        const json &s = syms.at(i);
        if (!s.is_object() || !s.contains("symbol") || !s.at("symbol").is_string() || s.at("symbol").get<std::string>().empty())
            fail(origin, where, "must be an object with a non-empty string \"symbol\"");
        Symbol sym;
        sym.id = s.at("symbol").get<std::string>();
        if (std::find(ids.begin(), ids.end(), sym.id) != ids.end())
            fail(origin, where, "symbol '" + sym.id + "' is listed twice");
        sym.min = optionalInt(s, "min", origin, where);
        sym.max = optionalInt(s, "max", origin, where);
        sym.declaredMin = optionalInt(s, "declared_min", origin, where);
        sym.declaredMax = optionalInt(s, "declared_max", origin, where);
        if (sym.min && sym.max && *sym.min > *sym.max)
            fail(origin, where, "min " + std::to_string(*sym.min) + " is above max " + std::to_string(*sym.max));
        const std::string name = optionalText(s, "name");
        const std::string label = optionalText(s, "label");
        sym.label = !name.empty() ? name : !label.empty() ? label : sym.id;
        ids.push_back(sym.id);
        m_symbols.push_back(std::move(sym));
    }
    return ids;
}

InputGuards::Dim InputGuards::parseDim(const json &dj, const std::string &dw, std::size_t d, const std::string &origin,
                                       const std::vector<std::string> &ids)
{
    if (!dj.is_object())
        fail(origin, dw, "must be an object");
    if (dj.contains("dim") && !(dj.at("dim").is_number_integer() && dj.at("dim").get<long long>() == static_cast<long long>(d)))
        fail(origin, dw + ".dim", "must be " + std::to_string(d) + " (dims are listed in order)");
    Dim dim;
    dim.text = optionalText(dj, "text");
    if (dj.contains("size")) {
        const auto size = optionalInt(dj, "size", origin, dw);
        if (!size || *size < 0)
            fail(origin, dw + ".size", "must be an integer >= 0");
        dim.kind = Dim::Static;
        dim.size = *size;
    } else if (dj.contains("symbol")) {
        if (!dj.at("symbol").is_string())
            fail(origin, dw + ".symbol", "must be a string");
        const auto it = std::find(ids.begin(), ids.end(), dj.at("symbol").get<std::string>());
        if (it == ids.end())
            fail(origin, dw + ".symbol", "unknown symbol '" + dj.at("symbol").get<std::string>() + "' (not in \"symbols\")");
        dim.kind = Dim::Affine;
        dim.symbol = static_cast<int>(it - ids.begin());
        dim.coeff = optionalInt(dj, "coeff", origin, dw).value_or(1);
        dim.offset = optionalInt(dj, "offset", origin, dw).value_or(0);
        if (dim.coeff == 0 || dim.coeff == INT64_MIN)
            fail(origin, dw + ".coeff", "must be a non-zero integer");
    } else if (dj.contains("expr") && dj.value("checkable", false) == true) {
        dim.kind = Dim::Expression;
        dim.expr = static_cast<int>(m_dimExprs.size());
        m_dimExprs.push_back(compileExpr(dj.at("expr"), dw + ".expr", origin, ids, dim.text, {}));
    } else {
        dim.kind = Dim::Free;
        ++m_unchecked;
    }
    return dim;
}

void InputGuards::parseStrides(const json &strides, const std::string &where, std::size_t rank, const std::string &origin,
                               const std::vector<std::string> &ids, Input &input)
{
    if (!strides.is_array() || strides.size() != rank)
        fail(origin, where + ".strides", "must be an array with one entry per dimension");
    for (std::size_t d = 0; d < strides.size(); ++d) {
        const std::string sw = where + ".strides[" + std::to_string(d) + "]";
        const json &sj = strides.at(d);
        Stride stride;
        if (sj.is_number_integer()) {
            if (sj.is_number_unsigned() && sj.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
                fail(origin, sw, "is out of range");
            stride.value = sj.get<std::int64_t>();
        } else if (sj.is_object() && sj.contains("expr") && sj.value("checkable", false) == true) {
            stride.kind = Stride::Expression;
            stride.expr = static_cast<int>(m_dimExprs.size());
            m_dimExprs.push_back(compileExpr(sj.at("expr"), sw + ".expr", origin, ids, optionalText(sj, "text"), {}));
        } else if (sj.is_object()) {
            stride.kind = Stride::Unchecked;
        } else {
            fail(origin, sw, "must be an integer or an object {expr, checkable, text}");
        }
        input.strides.push_back(stride);
    }
    input.staticStrides = std::all_of(input.strides.begin(), input.strides.end(),
                                      [](const Stride &s) { return s.kind == Stride::Static; });
    input.fallbackLayout = input.layout;
    if (!input.staticStrides && input.strides.size() <= kMaxRank) {
        std::array<std::int64_t, kMaxRank> sizes{}, probe{}; // only the name and the rank matter here
        input.namedSymbolic = namedLayoutStrides(input.layout, sizes.data(), input.strides.size(), probe.data());
    }
    m_recordsStrides = true;
}

InputGuards::Input InputGuards::parseInput(const json &in, const std::string &where, std::size_t i,
                                           const std::string &origin, const std::vector<std::string> &ids)
{
    if (!in.is_object())
        fail(origin, where, "must be an object");
    Input input;
    input.name = optionalText(in, "name");
    input.dtype = optionalText(in, "dtype");
    if (input.dtype.rfind("torch.", 0) == 0)
        input.dtype.erase(0, 6);
    if (input.name.empty())
        input.name = "input" + std::to_string(i);
    if (optionalText(in, "kind") == "constant") {
        input.constant = true;
        return input;
    }
    if (!in.contains("dims") || !in.at("dims").is_array())
        fail(origin, where + ".dims", "missing or not an array");
    const json &dims = in.at("dims");
    if (dims.size() > kMaxRank)
        fail(origin, where + ".dims", "more than " + std::to_string(kMaxRank) + " dimensions");
    if (in.contains("rank") && !(in.at("rank").is_number_integer() && in.at("rank").get<long long>() == static_cast<long long>(dims.size())))
        fail(origin, where + ".rank", "must equal the number of dims");
    for (std::size_t d = 0; d < dims.size(); ++d)
        input.dims.push_back(parseDim(dims.at(d), where + ".dims[" + std::to_string(d) + "]", d, origin, ids));
    input.layout = optionalText(in, "layout");
    if (in.contains("strides"))
        parseStrides(in.at("strides"), where, dims.size(), origin, ids, input);
    return input;
}

void InputGuards::parseChecks(const json &j, const std::string &origin, const std::vector<std::string> &ids)
{
    for (const char *section : {"checks", "assertions"}) {
        if (!j.contains(section))
            continue;
        const json &items = j.at(section);
        if (!items.is_array())
            fail(origin, section, "must be an array");
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string where = std::string(section) + "[" + std::to_string(i) + "]";
            const json &item = items.at(i);
            if (!item.is_object())
                fail(origin, where, "must be an object");
            if (item.contains("checkable") && !item.at("checkable").is_boolean())
                fail(origin, where + ".checkable", "must be true or false");
            if (!item.value("checkable", false) || !item.contains("expr")) {
                ++m_unchecked;
                continue;
            }
            std::string text = optionalText(item, "text");
            if (text.empty())
                text = optionalText(item, "message");
            m_checks.push_back(compileExpr(item.at("expr"), where + ".expr", origin, ids, text, optionalText(item, "source")));
        }
    }
}

InputGuards InputGuards::parse(const json &j, const std::string &origin)
{
    InputGuards g;
    if (!j.is_object())
        throw BundleError(origin + ": guards must be a JSON object");
    if (j.contains("format") && !(j.at("format").is_string() && j.at("format").get<std::string>() == kGuardsFormat))
        fail(origin, "format", "must be \"" + std::string(kGuardsFormat) + "\"");
    if (j.contains("version")) {
        if (!j.at("version").is_number_integer())
            fail(origin, "version", "must be an integer");
        if (j.at("version").get<long long>() > kGuardsVersion)
            fail(origin, "version", std::to_string(j.at("version").get<long long>()) + " is newer than this program reads (" +
                                        std::to_string(kGuardsVersion) + "); use a newer AOT Studio");
    }
    // Symbols first: dimensions and expressions refer to them by id.
    const std::vector<std::string> ids = g.parseSymbols(j, origin);
    if (!j.contains("inputs") || !j.at("inputs").is_array())
        fail(origin, "inputs", "missing or not an array");
    const json &inputs = j.at("inputs");
    if (inputs.size() > kMaxInputs)
        fail(origin, "inputs", "more than " + std::to_string(kMaxInputs) + " inputs");
    for (std::size_t i = 0; i < inputs.size(); ++i)
        g.m_inputs.push_back(g.parseInput(inputs.at(i), "inputs[" + std::to_string(i) + "]", i, origin, ids));
    g.parseChecks(j, origin, ids);
    g.m_json = j;
    return g;
}

fs::path InputGuards::sidecarPath(const fs::path &package)
{
    return package.parent_path() / (package.stem().string() + kGuardsSidecarSuffix);
}

std::optional<InputGuards> InputGuards::loadSidecar(const fs::path &package)
{
    const fs::path file = sidecarPath(package);
    std::error_code ec;
    if (!fs::exists(file, ec))
        return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw BundleError("cannot read the package's guards '" + file.string() + "'");
    json j;
    try {
        j = json::parse(in);
    } catch (const json::exception &e) {
        throw BundleError("the package's guards '" + file.string() + "' are not valid JSON: " + e.what());
    }
    return parse(j, file.string());
}

} // namespace AotStudio::Bundle
