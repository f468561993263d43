// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which shapes to verify a package at (FORMAT.md, "sweep"): for every dynamic dimension (a symbol
// of the package's guards, core/bundle/guards.h) its range ends and their neighbours, 0 and 1,
// the example, both sides of every recorded guard, odd and even sizes, powers of two, seeded
// random interior points and sizes just outside the range; pairwise combinations across symbols.
// Each point says whether the package's guards accept it (then it must match eager) or refuse it
// (then the runner must refuse it). No torch, no Qt.

#include "bundle/guards.h"

#include <cstdint>
#include <string>
#include <vector>

namespace AotStudio::Bundle {

/// A shape a capture recorded (issue 39; core/python/aotstudio_frontend/capture.py), to be
/// verified as it came: one shape per input in the package's order.
struct RecordedShape {
    std::vector<std::vector<std::int64_t>> shapes;
    std::string reason; ///< "recorded: 42 call(s), kept input s0003-c0000017.pt"
    std::string label;  ///< the shapes by input name, for messages: "ids [3, 16], mask [3, 16]"
    std::string inputs; ///< a kept input file (absolute) with these shapes; empty: seeded inputs
    std::int64_t calls = 0; ///< recorded calls with these shapes
};

/// How much of the space planSweep() covers.
struct SweepBudget {
    std::size_t maxPoints = 64; ///< shapes in all, the example included; the rest are counted as left out
    std::size_t randomPerSymbol = 2; ///< seeded interior points per symbol
    bool pairwise = true; ///< combinations of two symbols' ends and an interior point
    bool outside = true; ///< sizes just outside each range (expected to be refused)
    bool edgesOnly = false; ///< only the example and each symbol's range ends (compile's quick check)
    std::int64_t unboundedCap
        = 0; ///< highest size tried for a symbol without a max; 0: 4 × the example (at least min + 8)
    double maxElementsFactor = 64; ///< a shape with more input elements than this × the example's is left out
    std::uint64_t seed = 0x5eed;
    /// Shapes from real traffic: each one a point of the plan whatever maxPoints and
    /// maxElementsFactor say (the caller bounds them: FORMAT.md "compile" `capture_shapes`),
    /// placed right after the example; one equal to the example's shapes is the example point.
    std::vector<RecordedShape> recorded;
};

/// One shape to verify at.
struct SweepPoint {
    std::vector<std::int64_t> values; ///< one value per symbol (InputGuards::symbols() order)
    std::vector<std::vector<std::int64_t>> shapes; ///< one shape per input, in the package's input order
    std::vector<std::string>
        reasons; ///< why it was chosen: "example", "range end", "guard x % 2 == 0: false side", ...
    bool inside = true; ///< the guards accept it: the package must match eager here
    std::string refusal; ///< the guards' message when !inside
    int varied = -1; ///< the symbol changed from the example, -1 for none
    int varied2 = -1; ///< the second one (pairwise points), -1 for none
    bool relation = false; ///< shapes that break a relation between dimensions (values stay the example's)
    bool recorded = false; ///< a shape from SweepBudget::recorded
    std::string label; ///< recorded points: RecordedShape::label
    std::string inputs; ///< recorded points: the kept input file to run on (empty: seeded inputs)
    std::int64_t calls = 0; ///< recorded points: how many recorded calls had these shapes
};

/// What planSweep() chose.
struct SweepPlan {
    std::vector<SweepPoint> points; ///< the example first, then by symbol and value
    std::vector<std::int64_t> example; ///< each symbol's value in the example (InputGuards::exampleValue, or its min)
    std::vector<std::int64_t> upper; ///< the highest size tried per symbol (its max, or the cap when unbounded)
    std::size_t single = 0; ///< points that vary one symbol
    std::size_t pairs = 0; ///< points that vary two
    std::size_t recorded = 0; ///< points from SweepBudget::recorded (the example point included when it is one)
    std::size_t leftOut = 0; ///< candidates dropped by the budget or the element limit
    std::vector<std::string> notes; ///< plain sentences: caps, a static package, symbols without an example value
};

/// The points for `guards` around `example` (the example input shapes, flattened, one per
/// input). A package without a symbol gets the example and, per input, its first dimension one
/// larger and one smaller (expected refused: a static package takes one shape). Deterministic for
/// a given budget.seed. Throws BundleError when `example` does not have the guards' input count.
SweepPlan planSweep(
    const InputGuards &guards, const std::vector<std::vector<std::int64_t>> &example, const SweepBudget &budget = {});

} // namespace AotStudio::Bundle
