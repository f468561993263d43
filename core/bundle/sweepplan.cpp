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

} // namespace

SweepPlan planSweep(
    const InputGuards &guards, const std::vector<std::vector<std::int64_t>> &example, const SweepBudget &budget)
{
    if (example.size() != guards.inputCount())
        throw BundleError("sweep: the example has " + std::to_string(example.size())
            + " inputs; the package's guards describe " + std::to_string(guards.inputCount()));
    SweepPlan plan;
    const auto symbols = guards.symbols();
    const std::size_t n = symbols.size();

    // Each symbol's example value and the range tried.
    std::vector<std::int64_t> lo(n), hi(n);
    std::vector<bool> bounded(n, false);
    plan.example.resize(n);
    plan.upper.resize(n);
    for (std::size_t s = 0; s < n; ++s) {
        const auto &sym = symbols[s];
        lo[s] = std::max<std::int64_t>(0, sym.min.value_or(0));
        const auto ex = guards.exampleValue(s, example);
        if (!ex)
            plan.notes.push_back(sym.label + " is not a dimension of any input by itself: it stays at "
                + std::to_string(lo[s]) + " and is not swept");
        plan.example[s] = ex.value_or(lo[s]);
        if (sym.max && *sym.max < kHugeSize) {
            hi[s] = *sym.max;
            bounded[s] = true;
        } else {
            const std::int64_t cap = budget.unboundedCap > 0
                ? budget.unboundedCap
                : std::max<std::int64_t>(4 * std::max<std::int64_t>(plan.example[s], 1), lo[s] + 8);
            hi[s] = std::max(cap, lo[s]);
            plan.notes.push_back(sym.label + (sym.max ? " has an upper bound of " + std::to_string(*sym.max) : std::string(" has no upper bound")) +
                                 ": swept up to " + std::to_string(hi[s]));
        }
        plan.upper[s] = hi[s];
    }

    std::vector<Candidate> candidates;
    const auto add = [&](std::size_t s, std::int64_t v, std::string reason, int priority) {
        if (v < 0 || v > hi[s] + 1 || (!budget.outside && (v < lo[s] || v > hi[s])))
            return;
        Candidate c { plan.example, std::move(reason), priority, static_cast<int>(s), -1 };
        c.values[s] = v;
        candidates.push_back(std::move(c));
    };
    std::mt19937_64 rng(budget.seed);

    for (std::size_t s = 0; s < n; ++s) {
        if (!guards.exampleValue(s, example))
            continue;
        const std::int64_t a = lo[s], b = hi[s];
        add(s, a, "range start", kEnds);
        add(s, b, bounded[s] ? "range end" : "highest size tried", kEnds);
        if (budget.edgesOnly)
            continue;
        if (budget.outside) {
            if (a > 0)
                add(s, a - 1, "below the range (outside)", kOutside);
            if (bounded[s])
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

        // Both sides of each guard that reads only this symbol.
        std::vector<std::int64_t> values = plan.example;
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

        // An odd and an even size inside the range.
        bool odd = false, even = false;
        for (const auto &c : candidates) {
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

        // Powers of two, spread over the range.
        std::vector<std::int64_t> powers;
        for (std::int64_t p = 2; p <= b && p <= kHugeSize; p *= 2)
            if (p >= a)
                powers.push_back(p);
        const std::size_t step = std::max<std::size_t>(1, (powers.size() + kMaxPowers - 1) / kMaxPowers);
        for (std::size_t i = 0; i < powers.size(); i += step)
            add(s, powers[i], "power of two", kPower);

        if (b - a > 1) {
            // Interior sizes the guards of this symbol accept (the refused side is covered above):
            // a few draws each, the last one kept when none is accepted.
            std::uniform_int_distribution<std::int64_t> interior(a + 1, b - 1);
            std::vector<std::int64_t> probe = plan.example;
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
    }

    // Two symbols at once: each one's lowest and highest size its own guards accept, and an
    // accepted interior size (pairs test the combination, not one side's refusal again); among
    // the first kPairSymbols symbols, each one's sizes picked once.
    if (budget.pairwise && !budget.edgesOnly) {
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
            std::int64_t first = lo[k], last = hi[k];
            while (first < hi[k] && first - lo[k] < kGuardScan && !accepted(k, first))
                ++first;
            while (last > first && hi[k] - last < kGuardScan && !accepted(k, last))
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

    // The example first; then by priority, each set of values once (its reasons merged).
    std::stable_sort(candidates.begin(), candidates.end(),
        [](const Candidate &x, const Candidate &y) { return x.priority < y.priority; });
    std::map<std::vector<std::int64_t>, std::size_t> seen;
    std::size_t extra = 0; // recorded points of their own: beyond budget.maxPoints
    std::set<std::vector<std::int64_t>> dropped; // each set of values counted once in leftOut
    const double exampleElements = elements(example);
    const auto take = [&](const Candidate &c) {
        if (const auto it = seen.find(c.values); it != seen.end()) {
            auto &reasons = plan.points[it->second].reasons;
            if (std::find(reasons.begin(), reasons.end(), c.reason) == reasons.end())
                reasons.push_back(c.reason);
            return;
        }
        if (dropped.count(c.values))
            return;
        auto shapes = guards.shapesFor(c.values, example);
        if (!shapes || (exampleElements > 0 && elements(*shapes) > budget.maxElementsFactor * exampleElements) ||
            plan.points.size() - extra >= budget.maxPoints) {
            dropped.insert(c.values);
            ++plan.leftOut;
            return;
        }
        SweepPoint p;
        p.values = c.values;
        p.shapes = std::move(*shapes);
        p.reasons = { c.reason };
        p.varied = c.varied;
        p.varied2 = c.varied2;
        seen.emplace(c.values, plan.points.size());
        plan.points.push_back(std::move(p));
    };
    {
        // The example always, with its own shapes (free dimensions as given).
        SweepPoint p;
        p.values = plan.example;
        p.shapes = example;
        p.reasons = {"example"};
        seen.emplace(plan.example, 0);
        plan.points.push_back(std::move(p));
    }

    // Shapes from real traffic, as they came (their count is the caller's bound).
    for (const auto &r : budget.recorded) {
        if (r.shapes.size() != example.size())
            throw BundleError("sweep: a recorded shape has " + std::to_string(r.shapes.size())
                + " inputs; the package's guards describe " + std::to_string(example.size()));
        if (r.shapes == example) {
            auto &p = plan.points.front();
            p.reasons.push_back(r.reason);
            p.recorded = true;
            p.label = r.label;
            p.inputs = r.inputs;
            p.calls = r.calls;
            ++plan.recorded;
            continue;
        }
        SweepPoint p;
        p.values = plan.example;
        for (std::size_t s = 0; s < n; ++s)
            if (const auto v = guards.exampleValue(s, r.shapes))
                p.values[s] = *v;
        p.shapes = r.shapes;
        p.reasons = {r.reason};
        p.recorded = true;
        p.label = r.label;
        p.inputs = r.inputs;
        p.calls = r.calls;
        // Planned candidates with the same values merge into this point only when they would
        // have had these very shapes.
        if (const auto planned = guards.shapesFor(p.values, example); planned && *planned == r.shapes)
            seen.emplace(p.values, plan.points.size());
        plan.points.push_back(std::move(p));
        ++plan.recorded;
        ++extra;
    }

    // Sizes that break a relation (expected refused): a derived dimension one past a whole
    // multiple, and the second dimension of a shared symbol one larger than the first.
    if (budget.outside && !budget.edgesOnly) {
        std::vector<bool> bound(n, false);
        for (const auto &b : guards.bindings()) {
            const bool derived = b.coeff != 1 || b.offset != 0;
            const bool shared = bound[b.symbol];
            bound[b.symbol] = true;
            if ((!derived && !shared) || b.input >= example.size() || b.dim >= example[b.input].size())
                continue;
            if (plan.points.size() - extra >= budget.maxPoints) {
                ++plan.leftOut;
                continue;
            }
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
            plan.points.push_back(std::move(p));
        }
    }
    for (const auto &c : candidates)
        take(c);

    // A package without symbols: the example, and each input's first dimension off by one.
    if (n == 0) {
        plan.notes.push_back("the package has no dynamic dimension: it takes the example's shapes only");
        for (std::size_t i = 0; i < example.size() && !budget.edgesOnly && budget.outside; ++i) {
            if (example[i].empty())
                continue;
            for (const std::int64_t delta : { std::int64_t { 1 }, std::int64_t { -1 } }) {
                if (plan.points.size() - extra >= budget.maxPoints) {
                    ++plan.leftOut;
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
                plan.points.push_back(std::move(p));
            }
        }
    }

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
