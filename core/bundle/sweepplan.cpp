// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/sweepplan.h"
#include "bundle/bundle.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace AotStudio::Bundle {

namespace {

/// Lower priorities are kept first when the budget is short.
enum Priority : int {
    kEnds = 1, ///< range start and end
    kOutside = 2, ///< one below the start, one above the end
    kGuard = 3, ///< both sides of a guard, 0 and 1
    kNeighbour = 4, ///< start + 1, end - 1
    kParity = 5, ///< an odd and an even size when the others are all one parity
    kPower = 6, ///< powers of two inside the range
    kRandom = 7, ///< seeded interior points
    kPair = 8, ///< two symbols at once
};

/// Guard transitions are looked for this far past a symbol's start.
constexpr std::int64_t kGuardScan = 4096;
/// At most this many changes of a guard's truth value are taken (each gives two points).
constexpr int kGuardTransitions = 2;
constexpr std::size_t kMaxPowers = 6;
/// An upper bound at or above this is taken as none (older torch wrote sys.maxsize - 1).
constexpr std::int64_t kHugeSize = std::int64_t{1} << 31;
/// Pairs are formed among the first this many symbols (at most 28 pairs).
constexpr std::size_t kPairSymbols = 8;

struct Candidate {
    std::vector<std::int64_t> values;
    std::string reason;
    int priority = 0;
    int varied = -1;
    int varied2 = -1;
};

double elements(const std::vector<std::vector<std::int64_t>> &shapes)
{
    double n = 0;
    for (const auto &s : shapes) {
        double e = 1;
        for (const auto d : s)
            e *= static_cast<double>(d);
        n += e;
    }
    return n;
}

/// Each symbol's range as the plan tries it.
struct Ranges {
    std::vector<std::int64_t> lo, hi; ///< lowest and highest size tried per symbol
    std::vector<bool> bounded; ///< the symbol has a real upper bound (hi is its max, not a cap)
};

/// Each symbol's example value and the range tried: from its min (at least 0) to its max, or to a
/// cap when it has none (SweepBudget::unboundedCap). Fills `plan`'s example, upper and the notes on
/// symbols without an example value and on capped ones.
Ranges symbolRanges(const InputGuards &guards, const std::vector<std::vector<std::int64_t>> &example,
                    const SweepBudget &budget, SweepPlan &plan)
{
    const auto symbols = guards.symbols();
    const std::size_t n = symbols.size();
    Ranges r{std::vector<std::int64_t>(n), std::vector<std::int64_t>(n), std::vector<bool>(n, false)};
    plan.example.resize(n);
    plan.upper.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        const auto &sym = symbols[s];
        r.lo[s] = std::max<std::int64_t>(0, sym.min.value_or(0));
        const auto ex = guards.exampleValue(s, example);
        if (!ex)
            plan.notes.push_back(sym.label + " is not a dimension of any input by itself: it stays at "
                + std::to_string(r.lo[s]) + " and is not swept");
        plan.example[s] = ex.value_or(r.lo[s]);
        if (sym.max && *sym.max < kHugeSize) {
            r.hi[s] = *sym.max;
            r.bounded[s] = true;
        } else {
            const std::int64_t cap = budget.unboundedCap > 0
                ? budget.unboundedCap
                : std::max<std::int64_t>(4 * std::max<std::int64_t>(plan.example[s], 1), r.lo[s] + 8);
            r.hi[s] = std::max(cap, r.lo[s]);
            plan.notes.push_back(sym.label + (sym.max ? " has an upper bound of " + std::to_string(*sym.max) : std::string(" has no upper bound")) +
                                 ": swept up to " + std::to_string(r.hi[s]));
        }
        plan.upper[s] = r.hi[s];
    }
    return r;
}

/// The candidates that vary one symbol from the example, as they are found.
struct SingleCandidates {
    const InputGuards &guards;
    const SweepBudget &budget;
    const Ranges &ranges;
    const std::vector<std::int64_t> &example; ///< each symbol's example value
    std::vector<Candidate> &out;

    /// Symbol `s` at `v`, unless outside what is tried (one past the range at most; none outside
    /// without SweepBudget::outside).
    void add(std::size_t s, std::int64_t v, std::string reason, int priority) const
    {
        if (v < 0 || v > ranges.hi[s] + 1 || (!budget.outside && (v < ranges.lo[s] || v > ranges.hi[s])))
            return;
        Candidate c { example, std::move(reason), priority, static_cast<int>(s), -1 };
        c.values[s] = v;
        out.push_back(std::move(c));
    }

    /// The range's start and end (the highest size tried when it has no end).
    void addEnds(std::size_t s) const
    {
        add(s, ranges.lo[s], "range start", kEnds);
        add(s, ranges.hi[s], ranges.bounded[s] ? "range end" : "highest size tried", kEnds);
    }

    /// The sizes just outside the range, 0 and 1, and the ends' neighbours.
    void addNearEnds(std::size_t s) const
    {
        const std::int64_t a = ranges.lo[s], b = ranges.hi[s];
        if (budget.outside) {
            if (a > 0)
                add(s, a - 1, "below the range (outside)", kOutside);
            if (ranges.bounded[s])
                add(s, b + 1, "above the range (outside)", kOutside);
        }
        for (const std::int64_t v : { std::int64_t { 0 }, std::int64_t { 1 } }) {
            const bool in = v >= a && v <= b;
            if (in || budget.outside)
                add(s, v, std::to_string(v) + (in ? "" : " (outside)"), kGuard);
        }
        if (a + 1 <= b)
            add(s, a + 1, "range start + 1", kNeighbour);
        if (b - 1 > a)
            add(s, b - 1, "range end - 1", kNeighbour);
    }

    /// Both sides of each guard that reads only symbol `s` (its first kGuardTransitions changes
    /// of truth value within kGuardScan of the start).
    void addGuardSides(std::size_t s) const
    {
        const std::int64_t a = ranges.lo[s], b = ranges.hi[s];
        std::vector<std::int64_t> values = example;
        for (std::size_t g = 0; g < guards.checkCount(); ++g) {
            if (guards.checkSymbol(g) != static_cast<int>(s))
                continue;
            const std::int64_t from = std::max<std::int64_t>(0, a - 1);
            const std::int64_t to = std::min(b + 1, a + kGuardScan);
            values[s] = from;
            bool prev = guards.checkHolds(g, values);
            int found = 0;
            for (std::int64_t v = from + 1; v <= to && found < kGuardTransitions; ++v) {
                values[s] = v;
                const bool now = guards.checkHolds(g, values);
                if (now != prev) {
                    const std::string text = guards.checkText(g);
                    add(s, v - 1, "guard " + text + (prev ? ": holds" : ": fails"), kGuard);
                    add(s, v, "guard " + text + (now ? ": holds" : ": fails"), kGuard);
                    ++found;
                }
                prev = now;
            }
        }
    }

    /// An odd and an even size inside the range, when the candidates so far lack one.
    void addParity(std::size_t s) const
    {
        const std::int64_t a = ranges.lo[s], b = ranges.hi[s];
        bool odd = false, even = false;
        for (const auto &c : out) {
            if (c.varied != static_cast<int>(s))
                continue;
            const std::int64_t v = c.values[s];
            if (v >= a && v <= b)
                (v % 2 ? odd : even) = true;
        }
        const std::int64_t mid = a + (b - a) / 2;
        if (!odd && b > a) {
            const std::int64_t v = mid % 2 ? mid : mid + 1;
            if (v <= b)
                add(s, v, "odd size", kParity);
        }
        if (!even && b > a) {
            const std::int64_t v = mid % 2 ? mid + 1 : mid;
            if (v <= b)
                add(s, v, "even size", kParity);
        }
    }

    /// Powers of two, spread over the range (at most kMaxPowers).
    void addPowers(std::size_t s) const
    {
        std::vector<std::int64_t> powers;
        for (std::int64_t p = 2; p <= ranges.hi[s] && p <= kHugeSize; p *= 2)
            if (p >= ranges.lo[s])
                powers.push_back(p);
        const std::size_t step = std::max<std::size_t>(1, (powers.size() + kMaxPowers - 1) / kMaxPowers);
        for (std::size_t i = 0; i < powers.size(); i += step)
            add(s, powers[i], "power of two", kPower);
    }

    /// Interior sizes the guards of this symbol accept (the refused side is covered above): a few
    /// draws each from `rng`, the last one kept when none is accepted.
    void addInterior(std::size_t s, std::mt19937_64 &rng) const
    {
        const std::int64_t a = ranges.lo[s], b = ranges.hi[s];
        if (b - a <= 1)
            return;
        std::uniform_int_distribution<std::int64_t> interior(a + 1, b - 1);
        std::vector<std::int64_t> probe = example;
        for (std::size_t k = 0; k < budget.randomPerSymbol; ++k) {
            std::int64_t v = interior(rng);
            for (int attempt = 0; attempt < 32; ++attempt) {
                probe[s] = v;
                bool accepted = true;
                for (std::size_t g = 0; g < guards.checkCount() && accepted; ++g)
                    if (guards.checkSymbol(g) == static_cast<int>(s))
                        accepted = guards.checkHolds(g, probe);
                if (accepted)
                    break;
                v = interior(rng);
            }
            add(s, v, "seeded interior point", kRandom);
        }
    }
};

/// Two symbols at once: each one's lowest and highest size its own guards accept, and an
/// accepted interior size drawn from `rng` (pairs test the combination, not one side's refusal
/// again); among the first kPairSymbols symbols, each one's sizes picked once. Appended to
/// `candidates`; a note when symbols were left out of the pairs.
void addPairs(const InputGuards &guards, const std::vector<std::vector<std::int64_t>> &example, const Ranges &ranges,
              SweepPlan &plan, std::mt19937_64 &rng, std::vector<Candidate> &candidates)
{
    const auto symbols = guards.symbols();
    const std::size_t n = symbols.size();
    const auto accepted = [&](std::size_t k, std::int64_t v) {
        std::vector<std::int64_t> probe = plan.example;
        probe[k] = v;
        for (std::size_t g = 0; g < guards.checkCount(); ++g)
            if (guards.checkSymbol(g) == static_cast<int>(k) && !guards.checkHolds(g, probe))
                return false;
        return true;
    };
    const std::size_t m = std::min(n, kPairSymbols);
    std::vector<std::vector<std::int64_t>> picks(m);
    for (std::size_t k = 0; k < m; ++k) {
        if (!guards.exampleValue(k, example))
            continue;
        auto &v = picks[k];
        std::int64_t first = ranges.lo[k], last = ranges.hi[k];
        while (first < ranges.hi[k] && first - ranges.lo[k] < kGuardScan && !accepted(k, first))
            ++first;
        while (last > first && ranges.hi[k] - last < kGuardScan && !accepted(k, last))
            --last;
        v.push_back(first);
        if (last != first)
            v.push_back(last);
        if (last - first > 1) {
            std::uniform_int_distribution<std::int64_t> interior(first + 1, last - 1);
            std::int64_t x = interior(rng);
            for (int attempt = 0; attempt < 32 && !accepted(k, x); ++attempt)
                x = interior(rng);
            v.push_back(x);
        }
    }
    for (std::size_t s = 0; s < m; ++s) {
        for (std::size_t t = s + 1; t < m; ++t) {
            for (const auto vs : picks[s]) {
                for (const auto vt : picks[t]) {
                    if (vs == plan.example[s] || vt == plan.example[t])
                        continue;
                    Candidate c{plan.example, symbols[s].label + " and " + symbols[t].label + " together", kPair,
                                static_cast<int>(s), static_cast<int>(t)};
                    c.values[s] = vs;
                    c.values[t] = vt;
                    candidates.push_back(std::move(c));
                }
            }
        }
    }
    if (n > m)
        plan.notes.push_back("pairs are formed among the first " + std::to_string(m) + " of " + std::to_string(n) + " dimensions");
}

/// The points of a plan as they are taken: each set of values once (a later candidate with the
/// same values adds its reason), within SweepBudget::maxPoints (recorded points of their own do
/// not count) and the element limit; what does not fit is counted in SweepPlan::leftOut once.
class PointTaker {
public:
    PointTaker(const InputGuards &guards, const std::vector<std::vector<std::int64_t>> &example,
               const SweepBudget &budget, SweepPlan &plan)
        : m_guards(guards)
        , m_example(example)
        , m_budget(budget)
        , m_plan(plan)
        , m_exampleElements(elements(example))
    {
        // The example always, with its own shapes (free dimensions as given).
        SweepPoint p;
        p.values = plan.example;
        p.shapes = example;
        p.reasons = {"example"};
        m_seen.emplace(plan.example, 0);
        plan.points.push_back(std::move(p));
    }

    /// Whether the budget still has room for a point.
    bool room() const { return m_plan.points.size() - m_extra < m_budget.maxPoints; }

    /// A recorded shape, as it came (its count is the caller's bound): the example point when it
    /// has the example's shapes, else a point of its own beyond the budget. Planned candidates with
    /// the same values merge into it only when they would have had these very shapes. Throws
    /// BundleError when it has another input count.
    void addRecorded(const RecordedShape &r)
    {
        if (r.shapes.size() != m_example.size())
            throw BundleError("sweep: a recorded shape has " + std::to_string(r.shapes.size())
                + " inputs; the package's guards describe " + std::to_string(m_example.size()));
        if (r.shapes == m_example) {
            auto &p = m_plan.points.front();
            p.reasons.push_back(r.reason);
            p.recorded = true;
            p.label = r.label;
            p.inputs = r.inputs;
            p.calls = r.calls;
            ++m_plan.recorded;
            return;
        }
        SweepPoint p;
        p.values = m_plan.example;
        for (std::size_t s = 0; s < p.values.size(); ++s)
            if (const auto v = m_guards.exampleValue(s, r.shapes))
                p.values[s] = *v;
        p.shapes = r.shapes;
        p.reasons = {r.reason};
        p.recorded = true;
        p.label = r.label;
        p.inputs = r.inputs;
        p.calls = r.calls;
        if (const auto planned = m_guards.shapesFor(p.values, m_example); planned && *planned == r.shapes)
            m_seen.emplace(p.values, m_plan.points.size());
        m_plan.points.push_back(std::move(p));
        ++m_plan.recorded;
        ++m_extra;
    }

    /// Candidate `c` as a point, merged into an earlier one with its values, or left out.
    void take(const Candidate &c)
    {
        if (const auto it = m_seen.find(c.values); it != m_seen.end()) {
            auto &reasons = m_plan.points[it->second].reasons;
            if (std::find(reasons.begin(), reasons.end(), c.reason) == reasons.end())
                reasons.push_back(c.reason);
            return;
        }
        if (m_dropped.count(c.values))
            return;
        auto shapes = m_guards.shapesFor(c.values, m_example);
        if (!shapes || (m_exampleElements > 0 && elements(*shapes) > m_budget.maxElementsFactor * m_exampleElements) ||
            !room()) {
            m_dropped.insert(c.values);
            ++m_plan.leftOut;
            return;
        }
        SweepPoint p;
        p.values = c.values;
        p.shapes = std::move(*shapes);
        p.reasons = { c.reason };
        p.varied = c.varied;
        p.varied2 = c.varied2;
        m_seen.emplace(c.values, m_plan.points.size());
        m_plan.points.push_back(std::move(p));
    }

    /// One more point that did not fit (SweepPlan::leftOut).
    void leaveOut() { ++m_plan.leftOut; }

    /// A point taken as it is (no merging), or counted as left out when there is no room.
    void push(SweepPoint p)
    {
        if (!room()) {
            ++m_plan.leftOut;
            return;
        }
        m_plan.points.push_back(std::move(p));
    }

private:
    const InputGuards &m_guards;
    const std::vector<std::vector<std::int64_t>> &m_example;
    const SweepBudget &m_budget;
    SweepPlan &m_plan;
    const double m_exampleElements;
    std::map<std::vector<std::int64_t>, std::size_t> m_seen;
    std::size_t m_extra = 0; ///< recorded points of their own: beyond budget.maxPoints
    std::set<std::vector<std::int64_t>> m_dropped; ///< each set of values counted once in leftOut
};

/// Sizes that break a relation (expected refused): a derived dimension one past a whole
/// multiple, and the second dimension of a shared symbol one larger than the first.
void addRelationBreaks(const InputGuards &guards, const std::vector<std::vector<std::int64_t>> &example,
                       const SweepPlan &plan, PointTaker &taker)
{
    const auto symbols = guards.symbols();
    std::vector<bool> bound(symbols.size(), false);
    for (const auto &b : guards.bindings()) {
        const bool derived = b.coeff != 1 || b.offset != 0;
        const bool shared = bound[b.symbol];
        bound[b.symbol] = true;
        if ((!derived && !shared) || b.input >= example.size() || b.dim >= example[b.input].size())
            continue;
        SweepPoint p;
        p.values = plan.example;
        p.shapes = example;
        p.shapes[b.input][b.dim] += 1;
        p.varied = static_cast<int>(b.symbol);
        p.relation = true;
        const std::string where = "input " + std::to_string(b.input) + " dimension " + std::to_string(b.dim);
        p.reasons = { shared
                ? where + " one larger than the other dimensions of " + symbols[b.symbol].label + " (outside)"
                : where + " not a whole " + std::to_string(b.coeff) + " * " + symbols[b.symbol].label
                    + (b.offset ? " + " + std::to_string(b.offset) : std::string()) + " (outside)" };
        taker.push(std::move(p));
    }
}

/// A package without symbols: each input's first dimension one larger and one smaller than the
/// example's (expected refused: a static package takes one shape).
void addStaticOffsets(const std::vector<std::vector<std::int64_t>> &example, PointTaker &taker)
{
    for (std::size_t i = 0; i < example.size(); ++i) {
        if (example[i].empty())
            continue;
        for (const std::int64_t delta : { std::int64_t { 1 }, std::int64_t { -1 } }) {
            if (!taker.room()) {
                taker.leaveOut();
                continue;
            }
            auto shapes = example;
            shapes[i][0] += delta;
            if (shapes[i][0] < 0)
                continue;
            SweepPoint p;
            p.shapes = std::move(shapes);
            p.reasons
                = { "input " + std::to_string(i) + " dimension 0 " + (delta > 0 ? "+ 1" : "- 1") + " (static)" };
            taker.push(std::move(p));
        }
    }
}

/// Each point checked against the guards: inside, or refused with the guards' message (a size the
/// user declared but the package refuses says so rather than "outside the range"); the counts of
/// points varying one and two symbols.
void classifyPoints(const InputGuards &guards, SweepPlan &plan)
{
    const auto symbolInfo = guards.symbols();
    for (auto &p : plan.points) {
        if (const auto v = guards.check(p.shapes)) {
            p.inside = false;
            p.refusal = v->message;
            // A size the user declared but the package refuses: torch narrowed the range or a
            // guard excludes it; the point says so rather than "outside the range".
            for (const int s : {p.varied, p.varied2}) {
                if (s < 0 || static_cast<std::size_t>(s) >= p.values.size())
                    continue;
                const auto &info = symbolInfo[static_cast<std::size_t>(s)];
                const std::int64_t value = p.values[static_cast<std::size_t>(s)];
                if (!p.relation && info.declaredMin && value >= *info.declaredMin && (!info.declaredMax || value <= *info.declaredMax)) {
                    p.reasons.push_back("excluded by guard: " + info.label + " = " + std::to_string(value) + " is in the declared range " +
                                        std::to_string(*info.declaredMin) + ".." +
                                        (info.declaredMax ? std::to_string(*info.declaredMax) : std::string("inf")) +
                                        " but the package refuses it");
                    for (auto &r : p.reasons) // not "outside" the range the user gave
                        if (const auto at = r.find(" (outside)"); at != std::string::npos)
                            r.erase(at, 10);
                }
            }
        }
        if (p.varied >= 0 && p.varied2 < 0)
            ++plan.single;
        else if (p.varied2 >= 0)
            ++plan.pairs;
    }
}

} // namespace

SweepPlan planSweep(
    const InputGuards &guards, const std::vector<std::vector<std::int64_t>> &example, const SweepBudget &budget)
{
    if (example.size() != guards.inputCount())
        throw BundleError("sweep: the example has " + std::to_string(example.size())
            + " inputs; the package's guards describe " + std::to_string(guards.inputCount()));
    SweepPlan plan;
    const std::size_t n = guards.symbols().size();
    const Ranges ranges = symbolRanges(guards, example, budget, plan);

    // The candidates: each symbol alone (ends, guards' sides, parity, powers, seeded interior
    // points), then pairs of symbols.
    std::vector<Candidate> candidates;
    const SingleCandidates single{guards, budget, ranges, plan.example, candidates};
    std::mt19937_64 rng(budget.seed);
    for (std::size_t s = 0; s < n; ++s) {
        if (!guards.exampleValue(s, example))
            continue;
        single.addEnds(s);
        if (budget.edgesOnly)
            continue;
        single.addNearEnds(s);
        single.addGuardSides(s);
        single.addParity(s);
        single.addPowers(s);
        single.addInterior(s, rng);
    }
    if (budget.pairwise && !budget.edgesOnly)
        addPairs(guards, example, ranges, plan, rng, candidates);

    // The example first, then the recorded shapes and the broken relations; then the candidates
    // by priority, each set of values once (its reasons merged).
    std::stable_sort(candidates.begin(), candidates.end(),
        [](const Candidate &x, const Candidate &y) { return x.priority < y.priority; });
    PointTaker taker(guards, example, budget, plan);
    for (const auto &r : budget.recorded)
        taker.addRecorded(r);
    if (budget.outside && !budget.edgesOnly)
        addRelationBreaks(guards, example, plan, taker);
    for (const auto &c : candidates)
        taker.take(c);
    if (n == 0) {
        plan.notes.push_back("the package has no dynamic dimension: it takes the example's shapes only");
        if (!budget.edgesOnly && budget.outside)
            addStaticOffsets(example, taker);
    }
    classifyPoints(guards, plan);
    // Readable order: the example, the recorded shapes, then per symbol by value, then the pairs.
    std::stable_sort(plan.points.begin() + 1, plan.points.end(), [](const SweepPoint &x, const SweepPoint &y) {
        const auto key = [](const SweepPoint &p) {
            return std::make_tuple(!p.recorded, p.varied2 >= 0, p.varied, p.varied2);
        };
        if (key(x) != key(y))
            return key(x) < key(y);
        return !x.recorded && x.values < y.values; // recorded shapes stay in the caller's order
    });
    return plan;
}

} // namespace AotStudio::Bundle
