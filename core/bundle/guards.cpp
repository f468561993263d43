// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/guards.h"
#include "bundle/bundle.h"
#include "bundle/guards_p.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>

namespace fs = std::filesystem;
using nlohmann::json;

namespace AotStudio::Bundle {

using namespace GuardsDetail;

namespace {

/// Evaluate `code` on `values`; false when arithmetic overflows.
bool evaluate(const std::vector<InputGuards::Instr> &code, const std::int64_t *values, std::int64_t &result)
{
    std::array<std::int64_t, kMaxStack + 1> stack;
    std::size_t top = 0;
    for (const auto &in : code) {
        if (in.op == Const) {
            stack[top++] = in.value;
            continue;
        }
        if (in.op == Sym) {
            stack[top++] = values[in.value];
            continue;
        }
        const std::size_t n = in.argc;
        std::int64_t *a = &stack[top - n];
        std::int64_t r = a[0];
        switch (in.op) {
        case Add:
            for (std::size_t i = 1; i < n; ++i)
                if (__builtin_add_overflow(r, a[i], &r))
                    return false;
            break;
        case Mul:
            for (std::size_t i = 1; i < n; ++i)
                if (__builtin_mul_overflow(r, a[i], &r))
                    return false;
            break;
        case FloorDiv: {
            const std::int64_t d = a[1];
            if (d == 0 || (a[0] == INT64_MIN && d == -1))
                return false;
            r = a[0] / d;
            if (a[0] % d != 0 && ((a[0] < 0) != (d < 0)))
                --r;
            break;
        }
        case Mod: {
            const std::int64_t d = a[1];
            if (d == 0 || (a[0] == INT64_MIN && d == -1))
                return false;
            r = a[0] % d;
            if (r != 0 && ((r < 0) != (d < 0)))
                r += d;
            break;
        }
        case Eq: r = a[0] == a[1]; break;
        case Ne: r = a[0] != a[1]; break;
        case Lt: r = a[0] < a[1]; break;
        case Le: r = a[0] <= a[1]; break;
        case Gt: r = a[0] > a[1]; break;
        case Ge: r = a[0] >= a[1]; break;
        case And:
            r = 1;
            for (std::size_t i = 0; i < n; ++i)
                r = r && a[i];
            break;
        case Or:
            r = 0;
            for (std::size_t i = 0; i < n; ++i)
                r = r || a[i];
            break;
        case Not: r = !a[0]; break;
        case Max:
            for (std::size_t i = 1; i < n; ++i)
                r = std::max(r, a[i]);
            break;
        case Min:
            for (std::size_t i = 1; i < n; ++i)
                r = std::min(r, a[i]);
            break;
        default: return false;
        }
        top -= n;
        stack[top++] = r;
    }
    if (top != 1)
        return false;
    result = stack[0];
    return true;
}

std::string rangeText(const std::optional<std::int64_t> &lo, const std::optional<std::int64_t> &hi)
{
    return (lo ? std::to_string(*lo) : std::string("-inf")) + ".." + (hi ? std::to_string(*hi) : std::string("inf"));
}

std::string form(std::int64_t coeff, std::int64_t offset, const std::string &symbol)
{
    std::string s = coeff == 1 ? symbol : std::to_string(coeff) + "*" + symbol;
    if (offset > 0)
        s += " + " + std::to_string(offset);
    else if (offset < 0)
        s += " - " + std::to_string(-offset);
    return s;
}

/// Contiguous (row-major) strides of `sizes`, as torch computes them (a size of 0 counts as 1).
void contiguousStrides(const std::int64_t *sizes, std::size_t rank, std::int64_t *out)
{
    std::int64_t step = 1;
    for (std::size_t d = rank; d-- > 0;) {
        out[d] = step;
        if (__builtin_mul_overflow(step, std::max<std::int64_t>(sizes[d], 1), &step))
            step = INT64_MAX;
    }
}

/// Whether `strides` equal `want` on every dimension that reaches more than one element.
bool sameLayout(const std::int64_t *sizes, std::size_t rank, const std::int64_t *strides, const std::int64_t *want)
{
    for (std::size_t d = 0; d < rank; ++d)
        if (sizes[d] > 1 && strides[d] != want[d])
            return false;
    return true;
}

std::string intList(const std::int64_t *v, std::size_t n)
{
    std::string s = "(";
    for (std::size_t i = 0; i < n && i < 16; ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + (n > 16 ? ", ...)" : ")");
}

/// A violation of the guards at input `input`, dimension `dim` (-1: the call or the input as a
/// whole), whose size or stride is `value`.
std::optional<GuardViolation> violation(int input, int dim, std::int64_t value, std::string rule, std::string message)
{
    return std::optional<GuardViolation>(GuardViolation{input, dim, value, std::move(rule), std::move(message)});
}

} // namespace

bool GuardsDetail::namedLayoutStrides(const std::string &layout, const std::int64_t *sizes, std::size_t rank,
                                      std::int64_t *out)
{
    if (layout == "contiguous") {
        contiguousStrides(sizes, rank, out);
        return true;
    }
    std::array<std::size_t, 5> order{}; // outermost first; the channel dimension innermost
    if (layout == "channels_last" && rank == 4)
        order = {0, 2, 3, 1, 0};
    else if (layout == "channels_last_3d" && rank == 5)
        order = {0, 2, 3, 4, 1};
    else
        return false;
    std::int64_t step = 1;
    for (std::size_t k = rank; k-- > 0;) {
        out[order[k]] = step;
        step *= std::max<std::int64_t>(sizes[order[k]], 1);
    }
    return true;
}

namespace {

/// A name for the layout of an input's `strides`: contiguous, channels_last(_3d), a permuted dense
/// layout, expanded (a stride of 0), or a strided view (sliced, overlapping or with gaps).
std::string layoutName(const std::int64_t *sizes, std::size_t rank, const std::int64_t *strides)
{
    std::array<std::int64_t, 64> want{};
    for (const char *name : {"contiguous", "channels_last", "channels_last_3d"})
        if (namedLayoutStrides(name, sizes, rank, want.data()) && sameLayout(sizes, rank, strides, want.data()))
            return name;
    for (std::size_t d = 0; d < rank; ++d)
        if (sizes[d] > 1 && strides[d] == 0)
            return "expanded (a stride of 0)";
    for (std::size_t d = 0; d < rank; ++d)
        if (sizes[d] > 1 && strides[d] < 0)
            return "a negative stride";
    // Dense in another order: sorted by stride, each stride the product of the sizes inside it.
    std::array<std::size_t, 64> idx{};
    std::size_t m = 0;
    for (std::size_t d = 0; d < rank; ++d)
        if (sizes[d] > 1)
            idx[m++] = d;
    std::sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(m), [&](std::size_t a, std::size_t b) { return strides[a] < strides[b]; });
    std::int64_t step = 1;
    bool dense = true;
    for (std::size_t k = 0; k < m && dense; ++k) {
        dense = strides[idx[k]] == step;
        step *= sizes[idx[k]];
    }
    return dense ? "a permuted layout (e.g. a transpose)" : "a strided view (sliced, overlapping or with gaps)";
}

} // namespace

std::string InputGuards::where(int input, int dim) const
{
    const auto &in = m_inputs[static_cast<std::size_t>(input)];
    return "input " + std::to_string(input) + " (" + in.name + ") dimension " + std::to_string(dim);
}

std::string InputGuards::symbolRange(int symbol) const
{
    const auto &s = m_symbols[static_cast<std::size_t>(symbol)];
    return rangeText(s.min, s.max);
}

bool InputGuards::bound(const Expr &e, std::uint64_t boundMask, const std::int32_t *binder, std::size_t symbolCount)
{
    if ((e.symbols & boundMask) != e.symbols)
        return false;
    if (symbolCount <= 63)
        return true;
    for (const auto &in : e.code) // symbols past 63 share a bit: look at each
        if (in.op == Sym && binder[in.value] < 0)
            return false;
    return true;
}

std::optional<GuardViolation> InputGuards::check(std::span<const ShapeRef> inputs) const
{
    if (inputs.size() != m_inputs.size())
        return violation(-1, -1, static_cast<std::int64_t>(inputs.size()), std::to_string(m_inputs.size()) + " inputs",
                         "the package takes " + std::to_string(m_inputs.size()) + " inputs; the call has " +
                             std::to_string(inputs.size()));

    // Symbol values, and where each was bound (to name the other side of a relation).
    const std::size_t n = m_symbols.size();
    std::array<std::int64_t, kStackSymbols> valuesSmall;
    std::array<std::int32_t, kStackSymbols> binderSmall; // input * kMaxRank + dim, -1 unbound
    std::vector<std::int64_t> valuesLarge;
    std::vector<std::int32_t> binderLarge;
    std::int64_t *values = valuesSmall.data();
    std::int32_t *binder = binderSmall.data();
    if (n > kStackSymbols) {
        valuesLarge.assign(n, 0);
        binderLarge.assign(n, -1);
        values = valuesLarge.data();
        binder = binderLarge.data();
    } else {
        std::fill_n(binder, n, -1);
    }
    std::uint64_t boundMask = 0;
    if (auto v = checkDims(inputs, values, binder, boundMask))
        return v;
    if (auto v = checkExpressions(inputs, values, binder, boundMask))
        return v;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].strides && !m_inputs[i].constant)
            if (auto v = checkStrides(i, inputs[i], values, boundMask, binder))
                return v;
    return std::nullopt;
}

std::optional<GuardViolation> InputGuards::checkDims(std::span<const ShapeRef> inputs, std::int64_t *values,
                                                     std::int32_t *binder, std::uint64_t &boundMask) const
{
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Input &spec = m_inputs[i];
        if (spec.constant)
            continue;
        const ShapeRef &shape = inputs[i];
        const int ii = static_cast<int>(i);
        if (shape.rank != spec.dims.size()) {
            std::string dims = "[";
            for (std::size_t d = 0; d < shape.rank && d < 16; ++d)
                dims += (d ? ", " : "") + std::to_string(shape.sizes[d]);
            dims += shape.rank > 16 ? ", ...]" : "]";
            return violation(ii, -1, static_cast<std::int64_t>(shape.rank), "rank " + std::to_string(spec.dims.size()),
                             "input " + std::to_string(i) + " (" + spec.name + ") has " + std::to_string(shape.rank) +
                                 " dimensions " + dims + "; the package takes " + std::to_string(spec.dims.size()));
        }
        for (std::size_t d = 0; d < spec.dims.size(); ++d) {
            const Dim &dim = spec.dims[d];
            const std::int64_t v = shape.sizes[d];
            const int dd = static_cast<int>(d);
            if (dim.kind == Dim::Static) {
                if (v != dim.size)
                    return violation(ii, dd, v, "== " + std::to_string(dim.size) + " (static)",
                                     where(ii, dd) + " is " + std::to_string(v) + "; the package takes only " +
                                         std::to_string(dim.size) + " there (a static dimension)");
                continue;
            }
            if (dim.kind != Dim::Affine)
                continue;
            const Symbol &sym = m_symbols[static_cast<std::size_t>(dim.symbol)];
            const bool plain = dim.coeff == 1 && dim.offset == 0;
            const std::string rule = dim.text.empty() ? form(dim.coeff, dim.offset, sym.label) : dim.text;
            std::int64_t diff = 0;
            if (__builtin_sub_overflow(v, dim.offset, &diff) || diff % dim.coeff != 0)
                return violation(ii, dd, v, rule,
                                 where(ii, dd) + " is " + std::to_string(v) + ", which is not " +
                                     form(dim.coeff, dim.offset, sym.label) + " for a whole " + sym.label + " (" + rule + ")");
            const std::int64_t s = diff / dim.coeff;
            const auto si = static_cast<std::size_t>(dim.symbol);
            if (binder[si] >= 0) {
                if (values[si] != s) {
                    const int bi = binder[si] / static_cast<std::int32_t>(kMaxRank), bd = binder[si] % static_cast<std::int32_t>(kMaxRank);
                    const std::string other = where(bi, bd) + " (" + std::to_string(inputs[static_cast<std::size_t>(bi)].sizes[bd]) + ")";
                    std::string expect;
                    std::int64_t want = 0;
                    if (!__builtin_mul_overflow(values[si], dim.coeff, &want) && !__builtin_add_overflow(want, dim.offset, &want))
                        expect = std::to_string(want);
                    // "equal to" only when both sides are the symbol itself (x = 2*n and y = n: y must be x / 2).
                    const Dim &bound = m_inputs[static_cast<std::size_t>(bi)].dims[static_cast<std::size_t>(bd)];
                    const bool same = plain && bound.coeff == 1 && bound.offset == 0;
                    return violation(ii, dd, v, rule,
                                     where(ii, dd) + " is " + std::to_string(v) + " but must be " +
                                         (same ? "equal to " + other : expect + " (" + sym.label + " = " + std::to_string(values[si]) +
                                                                           " from " + other + ")") +
                                         ": they are one dimension (" + sym.label + (rule == sym.label ? "" : ", " + rule) + ")");
                }
                continue;
            }
            if ((sym.min && s < *sym.min) || (sym.max && s > *sym.max))
                return violation(ii, dd, v, sym.label + " in " + symbolRange(dim.symbol),
                                 where(ii, dd) + " is " + std::to_string(v) +
                                     (plain ? "" : " (" + sym.label + " = " + std::to_string(s) + ")") + ", outside " +
                                     (plain ? "the range " + symbolRange(dim.symbol) + " of " + sym.label
                                            : sym.label + "'s range " + symbolRange(dim.symbol) + " (" + rule + ")"));
            values[si] = s;
            binder[si] = static_cast<std::int32_t>(i * kMaxRank + d);
            boundMask |= std::uint64_t{1} << std::min<std::size_t>(si, 63);
        }
    }

    return std::nullopt;
}

std::optional<GuardViolation> InputGuards::checkExpressions(std::span<const ShapeRef> inputs, const std::int64_t *values,
                                                            const std::int32_t *binder, std::uint64_t boundMask) const
{
    const auto allBound = [&](const Expr &e) { return bound(e, boundMask, binder, m_symbols.size()); };
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Input &spec = m_inputs[i];
        for (std::size_t d = 0; d < spec.dims.size(); ++d) {
            const Dim &dim = spec.dims[d];
            if (dim.kind != Dim::Expression)
                continue;
            const Expr &e = m_dimExprs[static_cast<std::size_t>(dim.expr)];
            std::int64_t want = 0;
            if (!allBound(e))
                continue;
            const std::int64_t v = inputs[i].sizes[d];
            const int ii = static_cast<int>(i), dd = static_cast<int>(d);
            if (!evaluate(e.code, values, want))
                return violation(ii, dd, v, e.text, where(ii, dd) + " is " + std::to_string(v) + ": " + e.text +
                                                        " cannot be evaluated for these sizes (overflow)");
            if (want != v)
                return violation(ii, dd, v, e.text,
                                 where(ii, dd) + " is " + std::to_string(v) + " but must be " + std::to_string(want) + " (" +
                                     e.text + ")");
        }
    }
    for (const Expr &e : m_checks) {
        if (!allBound(e))
            continue;
        std::int64_t r = 0;
        const bool ok = evaluate(e.code, values, r);
        if (ok && r != 0)
            continue;
        // Name the first size the guard reads.
        int ii = -1, dd = -1;
        std::int64_t v = 0;
        std::string sizes;
        for (const auto &in : e.code) {
            if (in.op != Sym)
                continue;
            const std::int32_t b = binder[in.value];
            const int bi = b / static_cast<std::int32_t>(kMaxRank), bd = b % static_cast<std::int32_t>(kMaxRank);
            const std::string part = where(bi, bd) + " is " + std::to_string(inputs[static_cast<std::size_t>(bi)].sizes[bd]);
            if (sizes.find(part) != std::string::npos)
                continue;
            if (ii < 0) {
                ii = bi;
                dd = bd;
                v = inputs[static_cast<std::size_t>(bi)].sizes[bd];
            }
            sizes += (sizes.empty() ? "" : ", ") + part;
        }
        return violation(ii, dd, v, e.text,
                         sizes + ", which violates the guard " + e.text + (e.source.empty() ? "" : " (" + e.source + ")") +
                             (ok ? "" : " (cannot be evaluated: overflow)"));
    }
    return std::nullopt;
}

std::optional<GuardViolation> InputGuards::checkStrides(std::size_t i, const ShapeRef &shape, const std::int64_t *values,
                                                        std::uint64_t boundMask, const std::int32_t *binder) const
{
    const Input &spec = m_inputs[i];
    const std::size_t rank = shape.rank; // equal to spec.dims.size(): the shape check passed
    // The per-call fast path (bench_guards): every stride recorded as a constant, all equal.
    if (spec.staticStrides) {
        bool same = true;
        for (std::size_t d = 0; d < rank && same; ++d)
            same = shape.sizes[d] <= 1 || shape.strides[d] == spec.strides[d].value;
        if (same)
            return std::nullopt;
    }
    for (std::size_t d = 0; d < rank; ++d)
        if (shape.sizes[d] == 0)
            return std::nullopt; // no elements: nothing is read
    std::array<std::int64_t, kMaxRank> want;
    // Symbolic strides of a named dense layout: that layout's strides at these sizes.
    if (spec.namedSymbolic && namedLayoutStrides(spec.layout, shape.sizes, rank, want.data())) {
        bool same = true;
        for (std::size_t d = 0; d < rank && same; ++d)
            same = shape.sizes[d] <= 1 || shape.strides[d] == want[d];
        if (same)
            return std::nullopt;
    }
    // What the package indexes with: the recorded strides, evaluated at these sizes; where one
    // cannot be evaluated, the strides of the recorded layout when it has a name, else the
    // call's own (not compared). No record: contiguous.
    const bool hasNamed = !spec.staticStrides && namedLayoutStrides(spec.fallbackLayout, shape.sizes, rank, want.data());
    for (std::size_t d = 0; d < rank; ++d) {
        if (!hasNamed)
            want[d] = shape.strides[d];
        if (d >= spec.strides.size())
            continue;
        const Stride &s = spec.strides[d];
        std::int64_t r = 0;
        if (s.kind == Stride::Static)
            want[d] = s.value;
        else if (s.kind == Stride::Expression && bound(m_dimExprs[static_cast<std::size_t>(s.expr)], boundMask, binder, m_symbols.size()) &&
                 evaluate(m_dimExprs[static_cast<std::size_t>(s.expr)].code, values, r))
            want[d] = r;
    }
    for (std::size_t d = 0; d < rank; ++d) {
        if (shape.sizes[d] <= 1 || shape.strides[d] == want[d])
            continue;
        GuardViolation v;
        v.input = static_cast<int>(i);
        v.dim = static_cast<int>(d);
        v.value = shape.strides[d];
        v.layout = true;
        v.expected.assign(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(rank));
        const std::string layout = inputLayout(i);
        v.rule = "strides " + intList(want.data(), rank) + " (" + layout + ")";
        v.message = "input " + std::to_string(i) + " (" + spec.name + ") has strides " + intList(shape.strides, rank) + " (" +
            layoutName(shape.sizes, rank, shape.strides) + "); the package was compiled for strides " +
            intList(want.data(), rank) + " (" + layout + ") at shape " + intList(shape.sizes, rank) +
            " and would read the wrong elements";
        return v;
    }
    return std::nullopt;
}

std::string InputGuards::inputLayout(std::size_t i) const
{
    const Input &in = m_inputs.at(i);
    if (in.strides.empty())
        return "contiguous (assumed: these guards record no strides)";
    return in.layout.empty() ? std::string("as exported") : in.layout;
}

std::optional<GuardViolation> InputGuards::check(const std::vector<std::vector<std::int64_t>> &shapes) const
{
    std::vector<ShapeRef> refs;
    refs.reserve(shapes.size());
    for (const auto &s : shapes)
        refs.push_back({s.data(), s.size()});
    return check(std::span<const ShapeRef>(refs));
}

std::string InputGuards::describe() const
{
    std::string out;
    for (const auto &in : m_inputs) {
        out += (out.empty() ? "" : ", ") + in.name;
        if (in.constant) {
            out += " (constant)";
            continue;
        }
        out += "[";
        for (std::size_t d = 0; d < in.dims.size(); ++d) {
            const Dim &dim = in.dims[d];
            out += d ? ", " : "";
            if (dim.kind == Dim::Static)
                out += std::to_string(dim.size);
            else if (dim.kind == Dim::Affine) {
                const auto &s = m_symbols[static_cast<std::size_t>(dim.symbol)];
                const bool named = s.label.find(".shape[") == std::string::npos;
                if (dim.coeff == 1 && dim.offset == 0)
                    out += (named ? s.label + " " : std::string()) + rangeText(s.min, s.max);
                else
                    out += form(dim.coeff, dim.offset, s.label) + " (" + s.label + " " + rangeText(s.min, s.max) + ")";
            } else
                out += "?";
        }
        out += "]";
    }
    for (const auto &e : m_checks)
        out += "; " + e.text;
    return out;
}

std::vector<InputGuards::SymbolInfo> InputGuards::symbols() const
{
    std::vector<SymbolInfo> out;
    out.reserve(m_symbols.size());
    for (const auto &s : m_symbols)
        out.push_back({s.id, s.label, s.min, s.max, s.declaredMin, s.declaredMax});
    return out;
}

std::optional<std::int64_t> InputGuards::exampleValue(std::size_t symbol, const std::vector<std::vector<std::int64_t>> &example) const
{
    for (std::size_t i = 0; i < m_inputs.size() && i < example.size(); ++i) {
        const Input &in = m_inputs[i];
        if (in.constant || in.dims.size() != example[i].size())
            continue;
        for (std::size_t d = 0; d < in.dims.size(); ++d) {
            const Dim &dim = in.dims[d];
            if (dim.kind != Dim::Affine || static_cast<std::size_t>(dim.symbol) != symbol)
                continue;
            std::int64_t diff = 0;
            if (__builtin_sub_overflow(example[i][d], dim.offset, &diff) || diff % dim.coeff != 0)
                continue;
            return diff / dim.coeff;
        }
    }
    return std::nullopt;
}

std::optional<std::vector<std::vector<std::int64_t>>> InputGuards::shapesFor(std::span<const std::int64_t> values,
                                                                             const std::vector<std::vector<std::int64_t>> &example) const
{
    if (values.size() != m_symbols.size())
        return std::nullopt;
    std::vector<std::vector<std::int64_t>> shapes(m_inputs.size());
    for (std::size_t i = 0; i < m_inputs.size(); ++i) {
        const Input &in = m_inputs[i];
        if (in.constant) {
            if (i < example.size())
                shapes[i] = example[i];
            continue;
        }
        for (std::size_t d = 0; d < in.dims.size(); ++d) {
            const Dim &dim = in.dims[d];
            std::int64_t v = 1;
            if (dim.kind == Dim::Static) {
                v = dim.size;
            } else if (dim.kind == Dim::Affine) {
                if (__builtin_mul_overflow(values[static_cast<std::size_t>(dim.symbol)], dim.coeff, &v) ||
                    __builtin_add_overflow(v, dim.offset, &v))
                    return std::nullopt;
            } else if (dim.kind == Dim::Expression) {
                if (!evaluate(m_dimExprs[static_cast<std::size_t>(dim.expr)].code, values.data(), v))
                    return std::nullopt;
            } else if (i < example.size() && d < example[i].size()) {
                v = example[i][d];
            }
            if (v < 0)
                return std::nullopt;
            shapes[i].push_back(v);
        }
    }
    return shapes;
}

std::vector<InputGuards::Binding> InputGuards::bindings() const
{
    std::vector<Binding> out;
    for (std::size_t i = 0; i < m_inputs.size(); ++i)
        for (std::size_t d = 0; d < m_inputs[i].dims.size(); ++d) {
            const Dim &dim = m_inputs[i].dims[d];
            if (dim.kind == Dim::Affine)
                out.push_back({i, d, static_cast<std::size_t>(dim.symbol), dim.coeff, dim.offset});
        }
    return out;
}

int InputGuards::checkSymbol(std::size_t i) const
{
    int found = -1;
    for (const auto &in : m_checks.at(i).code) {
        if (in.op != Sym)
            continue;
        if (found >= 0 && found != static_cast<int>(in.value))
            return -1;
        found = static_cast<int>(in.value);
    }
    return found;
}

bool InputGuards::checkHolds(std::size_t i, std::span<const std::int64_t> values) const
{
    if (values.size() != m_symbols.size())
        return false;
    std::int64_t r = 0;
    return evaluate(m_checks.at(i).code, values.data(), r) && r != 0;
}

json conversionsJson(const std::vector<LayoutConversion> &conversions)
{
    json out = json::array();
    for (const auto &c : conversions)
        out.push_back({{"input", c.input}, {"name", c.name}, {"from", c.from}, {"to", c.to}, {"message", c.message}});
    return out;
}

InputAdmission::InputAdmission(std::string convertHow)
    : m_convertHow(std::move(convertHow))
{
}

std::optional<InputRefusal> InputAdmission::admit(const InputGuards *guards, std::vector<InputRef> &inputs, bool convert,
                                                  bool report, const Copy &copy)
{
    m_conversions.clear();
    const auto nameOf = [&](std::size_t i) {
        return guards && i < guards->inputCount() ? guards->inputName(i) : "input" + std::to_string(i);
    };
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const InputRef &t = inputs[i];
        if (t.numel == 0 || t.address % kInputAlignment == 0)
            continue;
        const std::string name = nameOf(i);
        const std::string what = "input " + std::to_string(i) + " (" + name + ") starts " + std::to_string(t.storageOffset) +
            " elements into its storage, at an address not aligned to " + std::to_string(kInputAlignment) + " bytes";
        if (!convert) {
            GuardViolation v{static_cast<int>(i), -1, t.storageOffset, "aligned", what};
            v.layout = true;
            return InputRefusal{std::move(v), what + "; pass a tensor that starts its own storage (x.clone()), or let the runner copy it (" +
                                                  m_convertHow + ")"};
        }
        std::vector<std::int64_t> from(t.shape.strides, t.shape.strides + t.shape.rank);
        inputs[i] = copy(i, {}); // a fresh (aligned) allocation; the strides are checked next
        if (report)
            m_conversions.push_back({static_cast<int>(i), name, std::move(from),
                                     std::vector<std::int64_t>(inputs[i].shape.strides, inputs[i].shape.strides + inputs[i].shape.rank),
                                     what + ": copied to an aligned tensor"});
    }
    if (!guards)
        return std::nullopt;
    for (std::size_t round = 0; round <= inputs.size(); ++round) {
        m_shapes.clear();
        for (const auto &t : inputs)
            m_shapes.push_back(t.shape);
        auto v = guards->check(m_shapes);
        if (!v)
            break;
        if (!v->layout || !convert) {
            std::string message = v->message;
            if (v->layout)
                message += "; pass the input in that layout (e.g. x.contiguous(), or x.contiguous(memory_format=torch.channels_last)), "
                           "or let the runner copy it (" + m_convertHow + ")";
            return InputRefusal{std::move(*v), std::move(message)};
        }
        const auto i = static_cast<std::size_t>(v->input);
        const ShapeRef &s = inputs[i].shape;
        std::vector<std::int64_t> from(s.strides, s.strides + s.rank);
        inputs[i] = copy(i, v->expected);
        if (report) {
            std::string message = "input " + std::to_string(i) + " (" + guards->inputName(i) + ") copied from strides " +
                intList(from.data(), from.size()) + " to " + intList(v->expected.data(), v->expected.size()) + " (" +
                guards->inputLayout(i) + ")";
            m_conversions.push_back({v->input, guards->inputName(i), std::move(from), v->expected, std::move(message)});
        }
    }
    // The dtypes it was exported with, compared where both names are ones the runtimes know.
    static constexpr std::array<std::string_view, 10> known{"float32", "float16", "bfloat16", "float64", "int64",
                                                            "int32",   "int16",   "int8",     "uint8",   "bool"};
    const auto isKnown = [](const std::string &n) { return std::find(known.begin(), known.end(), n) != known.end(); };
    for (std::size_t i = 0; i < inputs.size() && i < guards->inputCount(); ++i) {
        const std::string &want = guards->inputDtype(i);
        const std::string &got = inputs[i].dtype;
        if (want.empty() || got.empty() || want == got || !isKnown(want) || !isKnown(got))
            continue;
        GuardViolation v{static_cast<int>(i), -1, 0, "dtype " + want,
                         "input " + std::to_string(i) + " (" + guards->inputName(i) + ") is " + got +
                             "; the package was compiled for " + want};
        std::string message = v.message;
        return InputRefusal{std::move(v), std::move(message)};
    }
    return std::nullopt;
}

} // namespace AotStudio::Bundle
