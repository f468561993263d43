// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a package accepts (core/protocol/FORMAT.md, "guards"): each input's rank and dimensions
// (static sizes, or coeff*symbol + offset for a symbol with a range, or another expression of the
// symbols), and the shape guards and runtime assertions torch recorded, written by the frontend
// (core/python/aotstudio_frontend/guards.py) into the compile result, the sidecar
// `model.guards.json` beside `model.pt2`, and each bucket of a bundle manifest.
//
// check() tells whether a call's input shapes satisfy them, and if not names the input, the
// dimension, the value and the range, relation or guard it violates. Given strides too, it checks
// them against the strides each input was exported with (version 2: `inputs[i].strides`, one
// expression per dimension, and `layout`), because AOTInductor indexes an input with the strides
// it was compiled for: another layout of the same shape reads the wrong elements and returns a
// wrong result without an error (pytorch#153992; upstream's AOTI_RUNTIME_CHECK_INPUTS is off by
// default). Guards without recorded strides (version 1) are checked against contiguous strides. No torch, no Qt: the engine's
// runner and aotstudio-run both call it before a package runs (AOTInductor itself does not check
// shapes: a wrong size reads past a buffer or returns a wrong result silently).

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace AotStudio::Bundle {

inline constexpr const char *kGuardsFormat = "aotstudio.guards";
inline constexpr int kGuardsVersion = 2; ///< 2: inputs[i].strides and .layout
inline constexpr const char *kGuardsSidecarSuffix = ".guards.json"; ///< model.pt2 -> model.guards.json

/// One input's shape as check() reads it, without a copy: `rank` sizes at `sizes`, and `rank`
/// strides (in elements, as torch reports them) at `strides`, or null when the caller checks the
/// shape only (planners, manifests).
struct ShapeRef {
    const std::int64_t *sizes = nullptr;
    std::size_t rank = 0;
    const std::int64_t *strides = nullptr;
};

/// Why a call's inputs were refused.
struct GuardViolation {
    int input = -1;          ///< the input (flattened index); -1 when the count of inputs is wrong
    int dim = -1;            ///< its dimension; -1 for the rank or the count
    std::int64_t value = 0;  ///< the size found (the rank, or the count, when dim is -1)
    std::string rule;        ///< what was violated: "1..64 (batch)", "x.shape[0] == y.shape[0]", a guard's text
    std::string message;     ///< one line naming all of the above
    /// A layout violation: the shape fits but the strides do not (dim: the first dimension whose
    /// stride differs, value: that stride). `expected` holds the strides the package indexes the
    /// input with at this shape, one per dimension: what a copy must have to be accepted
    /// (at::empty_strided(sizes, expected).copy_(input)).
    bool layout = false;
    std::vector<std::int64_t> expected;
};

/// A package's input guards, parsed and compiled for checking. Copyable and immutable: one
/// instance may be checked from several threads at once.
class InputGuards {
public:
    /// Parse a "guards" object. `origin` names where it came from (a file, "manifest.json
    /// buckets[1].guards") for messages. Throws BundleError ("<origin>: <field>: <problem>") on a
    /// missing or mistyped field, an unknown symbol, an expression the checker cannot evaluate
    /// that claims to be checkable, a newer `version`, or limits passed (4096 inputs, 64
    /// dimensions, 1024 symbols, expressions of 512 nodes or 32 levels).
    static InputGuards parse(const nlohmann::json &json, const std::string &origin);

    /// The sidecar of `package` (`dir/model.pt2` -> `dir/model.guards.json`): nullopt when there is
    /// none. Throws BundleError naming the file when it exists but cannot be read or parsed.
    static std::optional<InputGuards> loadSidecar(const std::filesystem::path &package);
    static std::filesystem::path sidecarPath(const std::filesystem::path &package);

    /// nullopt when `inputs` (flattened in the package's order) satisfy every checkable range,
    /// relation and guard, and, for inputs given with strides, the strides the package was
    /// compiled for; else the first violation (shape violations before layout ones). Strides of
    /// dimensions of size 0 or 1 are not compared (no element is reached through them), nor are
    /// those of an input with no elements. Allocates nothing when the inputs pass.
    std::optional<GuardViolation> check(std::span<const ShapeRef> inputs) const;
    std::optional<GuardViolation> check(const std::vector<std::vector<std::int64_t>> &shapes) const;

    std::size_t inputCount() const { return m_inputs.size(); }
    bool isDynamic() const { return !m_symbols.empty(); }
    /// Whether the guards record each input's strides (version 2); without, check() compares
    /// strides with contiguous ones.
    bool recordsStrides() const { return m_recordsStrides; }
    /// The layout input `i` was exported with: "contiguous", "channels_last", "channels_last_3d",
    /// "strided" (another layout), or "contiguous (assumed)" when the guards record none.
    std::string inputLayout(std::size_t i) const;
    /// Guards and assertions recorded as text only (not evaluated by check()).
    std::size_t uncheckedCount() const { return m_unchecked; }
    /// "x[batch 1..64, 16], y[batch, 16]" for logs.
    std::string describe() const;

    /// A symbol (one dynamic dimension, possibly shared by several inputs), as planners and
    /// reports read it.
    struct SymbolInfo {
        std::string id;    ///< torch's name ("s77")
        std::string label; ///< the user's name, else "x.shape[0]", else the id
        std::optional<std::int64_t> min;
        std::optional<std::int64_t> max; ///< nullopt: no upper bound
        /// The range the user declared (guards.py declared_ranges(): `declared_min`/`declared_max`),
        /// when torch.export was asked for one; a value in it that the guards refuse was excluded
        /// by torch (a narrowed range, a guard), not by the user.
        std::optional<std::int64_t> declaredMin;
        std::optional<std::int64_t> declaredMax;
    };
    std::vector<SymbolInfo> symbols() const;
    /// The value of symbol `symbol` in `example` (input shapes, flattened): from the first
    /// dimension that is coeff * symbol + offset. nullopt when no dimension binds it by itself or
    /// the example's sizes do not fit (wrong rank, not a whole multiple).
    std::optional<std::int64_t> exampleValue(std::size_t symbol, const std::vector<std::vector<std::int64_t>> &example) const;
    /// The input shapes for symbol values `values` (one per symbol): static sizes as recorded,
    /// coeff * symbol + offset, expressions evaluated, and dimensions the guards do not describe
    /// as in `example` (1 where the example has none). nullopt when a size comes out negative or
    /// the arithmetic overflows.
    std::optional<std::vector<std::vector<std::int64_t>>> shapesFor(std::span<const std::int64_t> values,
                                                                    const std::vector<std::vector<std::int64_t>> &example) const;
    /// A dimension that is coeff * symbol + offset (a dynamic dimension, or a derived one).
    struct Binding {
        std::size_t input = 0;
        std::size_t dim = 0;
        std::size_t symbol = 0;
        std::int64_t coeff = 1;
        std::int64_t offset = 0;
    };
    /// Every such dimension, in input and dimension order (two of one symbol: a relation).
    std::vector<Binding> bindings() const;
    /// The dtype input `i` was exported with ("float32", "int64", ...; torch's name without
    /// "torch."), empty when not recorded.
    const std::string &inputDtype(std::size_t i) const { return m_inputs.at(i).dtype; }
    /// Name of input `i` as recorded (forward's parameter or the input's pytree path; "" if none).
    const std::string &inputName(std::size_t i) const { return m_inputs.at(i).name; }
    /// Checkable guards and runtime assertions (those check() evaluates), in order.
    std::size_t checkCount() const { return m_checks.size(); }
    /// The text of check `i` ("x.shape[0] % 2 == 0").
    const std::string &checkText(std::size_t i) const { return m_checks.at(i).text; }
    /// The one symbol check `i` reads; -1 when it reads none or several.
    int checkSymbol(std::size_t i) const;
    /// Whether check `i` holds for `values` (one per symbol); false when it cannot be evaluated.
    bool checkHolds(std::size_t i, std::span<const std::int64_t> values) const;
    /// The object parsed (for writing it on, e.g. into a manifest).
    const nlohmann::json &raw() const { return m_json; }

    /// One postfix instruction of a compiled expression (public for the implementation only).
    struct Instr {
        std::uint8_t op = 0;
        std::uint16_t argc = 0;
        std::int64_t value = 0; ///< a constant, or a symbol's index
    };

private:
    struct Symbol {
        std::string id;
        std::string label; ///< "x.shape[0]", the user's name, or the id
        std::optional<std::int64_t> min;
        std::optional<std::int64_t> max;
        std::optional<std::int64_t> declaredMin;
        std::optional<std::int64_t> declaredMax;
    };
    struct Expr {
        std::vector<Instr> code;
        std::uint64_t symbols = 0; ///< bit i: uses symbol i (symbols past 63 share bit 63)
        std::string text;
        std::string source;
    };
    struct Dim {
        enum Kind : std::uint8_t { Static, Affine, Expression, Free } kind = Free;
        std::int64_t size = 0; ///< Static
        int symbol = -1;       ///< Affine
        std::int64_t coeff = 1, offset = 0;
        int expr = -1;         ///< Expression: index into m_dimExprs
        std::string text;      ///< "x.shape[0] == 2 * b"
    };
    /// One dimension's stride as exported: a constant, an expression of the symbols, or not
    /// checkable (an expression the checker cannot evaluate).
    struct Stride {
        enum Kind : std::uint8_t { Static, Expression, Unchecked } kind = Static;
        std::int64_t value = 0; ///< Static
        int expr = -1;          ///< Expression: index into m_dimExprs
    };
    struct Input {
        std::string name;
        std::string dtype;     ///< as exported, "" when not recorded
        std::string layout;    ///< as exported ("contiguous", "channels_last", ...), "" when not recorded
        bool constant = false; ///< a non-tensor input (not checked)
        std::vector<Dim> dims;
        std::vector<Stride> strides; ///< one per dimension; empty when not recorded (contiguous assumed)
        bool staticStrides = false;  ///< every recorded stride a constant (the per-call fast path)
        std::string fallbackLayout = "contiguous"; ///< the named layout a stride that cannot be evaluated falls back to
        /// The recorded strides are symbolic and `layout` names a dense layout (contiguous,
        /// channels_last, channels_last_3d): guards.collect() decides the name symbolically, so
        /// the strides equal that layout's at every size and the per-call check computes them
        /// from the sizes instead of evaluating each expression (bench_guards).
        bool namedSymbolic = false;
    };

    // parse()'s steps (guardsparse.cpp): each reads one section of the JSON into this object;
    // `ids` are the symbols' ids in order (expressions and dimensions name them). Throw
    // BundleError naming the field.
    static Expr compileExpr(const nlohmann::json &tree, const std::string &where, const std::string &origin,
                            const std::vector<std::string> &ids, std::string text, std::string source);
    std::vector<std::string> parseSymbols(const nlohmann::json &j, const std::string &origin);
    Input parseInput(const nlohmann::json &in, const std::string &where, std::size_t index, const std::string &origin,
                     const std::vector<std::string> &ids);
    Dim parseDim(const nlohmann::json &dj, const std::string &where, std::size_t d, const std::string &origin,
                 const std::vector<std::string> &ids);
    void parseStrides(const nlohmann::json &strides, const std::string &where, std::size_t rank, const std::string &origin,
                      const std::vector<std::string> &ids, Input &input);
    void parseChecks(const nlohmann::json &j, const std::string &origin, const std::vector<std::string> &ids);

    std::string where(int input, int dim) const;
    // check()'s passes: the static and affine dimensions of every input, binding each symbol to
    // the first size that names it (`values`, `binder`: input * kMaxRank + dim, `boundMask`);
    // then the dimension expressions and the checks over the bound symbols; then the strides.
    std::optional<GuardViolation> checkDims(std::span<const ShapeRef> inputs, std::int64_t *values, std::int32_t *binder,
                                            std::uint64_t &boundMask) const;
    std::optional<GuardViolation> checkExpressions(std::span<const ShapeRef> inputs, const std::int64_t *values,
                                                   const std::int32_t *binder, std::uint64_t boundMask) const;
    std::optional<GuardViolation> checkStrides(std::size_t input, const ShapeRef &shape, const std::int64_t *values,
                                               std::uint64_t boundMask, const std::int32_t *binder) const;
    static bool bound(const Expr &e, std::uint64_t boundMask, const std::int32_t *binder, std::size_t symbolCount);
    std::string symbolRange(int symbol) const;

    std::vector<Input> m_inputs;
    std::vector<Symbol> m_symbols;
    std::vector<Expr> m_dimExprs;
    std::vector<Expr> m_checks; ///< checkable guards and assertions
    std::size_t m_unchecked = 0;
    bool m_recordsStrides = false;
    nlohmann::json m_json;
};

/// Bytes an input's first element must be aligned to: Inductor's ALIGNMENT
/// (torch/_inductor/utils.py); generated code may assume it (Triton specialises pointer arguments
/// on it), so a view at an odd storage offset is not passed to a package.
inline constexpr std::uintptr_t kInputAlignment = 16;

/// One input as a runtime holds it, for InputAdmission: its sizes and strides (elements), the
/// address of its first element (storage + storage offset), its storage offset (elements, for
/// messages), its element count and its dtype as torch names it without "torch." ("float32").
struct InputRef {
    ShapeRef shape;
    std::uintptr_t address = 0;
    std::int64_t storageOffset = 0;
    std::int64_t numel = 0;
    std::string dtype; ///< empty: not compared
};

/// An input a runtime copied into the package's layout (convert): which, the strides it came with
/// and those it was given (elements), and one line saying so.
struct LayoutConversion {
    int input = -1;
    std::string name;
    std::vector<std::int64_t> from;
    std::vector<std::int64_t> to;
    std::string message;
};

/// The conversions as aotstudio-run and aotstudio-run-lite print them (--json, --serve):
/// [{input, name, from, to, message}] (strides in elements).
nlohmann::json conversionsJson(const std::vector<LayoutConversion> &conversions);

/// Why a call's inputs were refused: the violation, and one line naming the input, what it is and
/// what the package takes (both layouts, both dtypes), ending with the fix. Without the package's
/// name: the runtime puts "the inputs do not fit package 'P': " before it.
struct InputRefusal {
    GuardViolation violation;
    std::string message;
};

/// The one admission of a call's inputs that every runtime applies before a package runs
/// (aotstudio-run's AotiRunner and the engine's, aotstudio-run-lite's Lite::Package), in this
/// order: each input's first element aligned to kInputAlignment, then InputGuards::check() with
/// strides (shapes, ranges, relations, guards, then the strides the package indexes with:
/// pytorch#153992, AOTInductor reads another layout's elements silently), then each dtype against
/// the one recorded (a bfloat16 tensor read as float32 is garbage, not an error). A misaligned
/// input or one in another layout is copied through `copy` when `convert` (exact: the same
/// values at the same indices in a fresh allocation; the cost one pass over the input) and
/// recorded in conversions() when `report`, else refused. Shape and dtype violations are always
/// refused: no copy makes them right. Without guards only the alignment is checked. Not
/// thread-safe (scratch and conversions per instance: one per runner). Allocates nothing when the
/// inputs pass.
class InputAdmission {
public:
    /// Copies input `i` into a fresh allocation aligned to kInputAlignment with `strides`
    /// (elements; empty: dense, in the input's own order of strides), keeps it as the input the
    /// package runs on, and returns its description.
    using Copy = std::function<InputRef(std::size_t i, const std::vector<std::int64_t> &strides)>;

    /// `convertHow` names how a user asks the runtime to copy ("aotstudio-run --convert-layout;
    /// request field convert_layout"), for the refusal's fix.
    explicit InputAdmission(std::string convertHow);

    /// nullopt when the inputs (in the package's order, possibly replaced by copies) may run; else
    /// why not. `guards` may be null.
    std::optional<InputRefusal> admit(const InputGuards *guards, std::vector<InputRef> &inputs, bool convert, bool report,
                                      const Copy &copy);
    /// The copies the last admit() made and reported.
    const std::vector<LayoutConversion> &conversions() const { return m_conversions; }

private:
    std::string m_convertHow;
    std::vector<ShapeRef> m_shapes;
    std::vector<LayoutConversion> m_conversions;
};

} // namespace AotStudio::Bundle
