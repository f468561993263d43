// SPDX-License-Identifier: GPL-3.0-or-later
// core/bundle/sweepplan.h on the guards fixtures of tst_guards (tests/fixtures/guards/*.json,
// written by the frontend's guards.collect() from real torch.export programs). No torch needed.
#include "bundle/bundle.h"
#include "bundle/guards.h"
#include "bundle/sweepplan.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

using namespace AotStudio::Bundle;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kFixtures = fs::path(AOTSTUDIO_FIXTURES_DIR) / "guards";

InputGuards load(const std::string &name)
{
    std::ifstream in(kFixtures / (name + ".json"));
    return InputGuards::parse(json::parse(in), name);
}

using Shapes = std::vector<std::vector<std::int64_t>>;

/// The values symbol `s` takes over the points that vary it alone, and whether each is inside.
std::map<std::int64_t, bool> tried(const SweepPlan &plan, int s)
{
    std::map<std::int64_t, bool> out;
    for (const auto &p : plan.points)
        if (p.varied == s && p.varied2 < 0 && !p.relation)
            out[p.values[static_cast<std::size_t>(s)]] = p.inside;
    return out;
}

} // namespace

class TestSweepPlan : public QObject
{
    Q_OBJECT

private slots:
    void derivedDimension();
    void guardBothSides();
    void declaredButExcluded();
    void sharedBatchTiesInputs();
    void pairwiseAndBudget();
    void staticPackage();
    void deterministic();
    void wrongInputCount();
    void recordedShapes();
    void bucketTrafficOfRecordedBatches();
};

// x.shape[0] == 2*n, n in 2..32, example length 10 (n = 5).
void TestSweepPlan::derivedDimension()
{
    const InputGuards g = load("derived");
    const SweepPlan plan = planSweep(g, Shapes { { 10 } });
    QCOMPARE(plan.example.size(), std::size_t { 1 });
    QCOMPARE(plan.example[0], std::int64_t { 5 });
    QCOMPARE(plan.points.front().shapes, (Shapes { { 10 } }));
    QVERIFY(plan.points.front().inside);
    QCOMPARE(plan.points.front().reasons.front(), std::string("example"));
    const auto values = tried(plan, 0);
    // The range ends, their neighbours, and the sizes just outside.
    for (const std::int64_t v : { 2, 3, 31, 32 })
        QVERIFY2(values.count(v) && values.at(v), qPrintable(QString("n = %1 inside").arg(v)));
    for (const std::int64_t v : { 1, 33, 0 })
        QVERIFY2(values.count(v) && !values.at(v), qPrintable(QString("n = %1 outside").arg(v)));
    // Every point's shapes follow the relation (length 2*n), but one that breaks it on purpose: an
    // odd length, refused.
    int broken = 0;
    for (const auto &p : plan.points) {
        if (p.relation) {
            ++broken;
            QCOMPARE(p.shapes[0][0], 11);
            QVERIFY(!p.inside);
            QVERIFY2(p.refusal.find("not 2*n") != std::string::npos, p.refusal.c_str());
            continue;
        }
        QCOMPARE(p.shapes[0][0], 2 * p.values[0]);
    }
    QCOMPARE(broken, 1);
    // Refused points say why, with the range.
    for (const auto &p : plan.points)
        if (!p.inside && !p.relation)
            QVERIFY2(p.refusal.find("2..32") != std::string::npos, p.refusal.c_str());
    QVERIFY(plan.leftOut == 0);
}

// x.shape[0] in 2..inf with the guards x % 2 == 0 and x // 2 != 1: both sides of each are tried.
// Issue 34: a size the user declared (declared_min/declared_max, recorded by the front end) that
// the package refuses, because torch narrowed the range or a guard excludes it, is labelled
// "excluded by guard", never "outside" the range the user gave; sizes outside the declared
// range keep "(outside)".
void TestSweepPlan::declaredButExcluded()
{
    json j;
    {
        std::ifstream in(kFixtures / "even.json");
        j = json::parse(in);
    }
    j["symbols"][0]["declared_min"] = 1; // declared 1..64; torch accepts from 2, even sizes only
    j["symbols"][0]["declared_max"] = 64;
    const InputGuards g = InputGuards::parse(j, "even+declared");
    QCOMPARE(g.symbols()[0].declaredMin.value_or(-1), std::int64_t{1});
    const SweepPlan plan = planSweep(g, Shapes{{8}});
    int excluded = 0;
    for (const auto &p : plan.points) {
        if (p.varied != 0 || p.varied2 >= 0 || p.relation || p.inside)
            continue;
        const std::int64_t v = p.values[0];
        const bool declared = v >= 1 && v <= 64;
        bool says = false, outside = false;
        for (const auto &r : p.reasons) {
            says |= r.find("excluded by guard") != std::string::npos;
            outside |= r.find("(outside)") != std::string::npos;
        }
        QVERIFY2(says == declared, qPrintable(QString::number(v)));
        QVERIFY2(!(declared && outside), qPrintable(QString::number(v)));
        excluded += says;
    }
    QVERIFY(excluded >= 2); // 1 (narrowed) and an odd size (the guard)
}

void TestSweepPlan::guardBothSides()
{
    const InputGuards g = load("even");
    const SweepPlan plan = planSweep(g, Shapes { { 8 } });
    const auto values = tried(plan, 0);
    bool oddRefused = false, evenAccepted = false;
    for (const auto &[v, inside] : values) {
        QCOMPARE(inside, v >= 2 && v % 2 == 0 && v / 2 != 1);
        oddRefused |= v % 2 == 1 && !inside;
        evenAccepted |= v % 2 == 0 && inside;
    }
    QVERIFY(oddRefused);
    QVERIFY(evenAccepted);
    // Unbounded above: the cap is stated and tried.
    QCOMPARE(plan.upper[0], std::int64_t { 32 }); // 4 × the example
    QVERIFY(values.count(32));
    QVERIFY(std::any_of(plan.notes.begin(), plan.notes.end(),
        [](const std::string &n) { return n.find("no upper bound") != std::string::npos; }));
    // Each guard's sides are named among the reasons.
    bool named = false;
    for (const auto &p : plan.points)
        for (const auto &r : p.reasons)
            named |= r.find("guard x.shape[0] % 2 == 0") != std::string::npos;
    QVERIFY(named);
}

// Two inputs share the batch symbol: every point gives both the same batch.
void TestSweepPlan::sharedBatchTiesInputs()
{
    const InputGuards g = load("shared_batch");
    const SweepPlan plan = planSweep(g, Shapes { { 4, 5 }, { 4, 5 } });
    QVERIFY(plan.points.size() > 5);
    int broken = 0;
    for (const auto &p : plan.points) {
        QCOMPARE(p.shapes.size(), std::size_t { 2 });
        QCOMPARE(p.inside, !g.check(p.shapes).has_value());
        if (p.relation) { // the second input's batch one larger: refused as one dimension
            ++broken;
            QCOMPARE(p.shapes[1][0], p.shapes[0][0] + 1);
            QVERIFY(!p.inside);
            QVERIFY2(p.refusal.find("they are one dimension") != std::string::npos, p.refusal.c_str());
            continue;
        }
        QCOMPARE(p.shapes[0][0], p.shapes[1][0]);
        QCOMPARE(p.shapes[0][1], std::int64_t { 5 });
    }
    QCOMPARE(broken, 1);
    const auto values = tried(plan, 0);
    QVERIFY(values.count(64) && values.at(64));
    QVERIFY(values.count(65) && !values.at(65));
}

// Two symbols: pairwise points exist, counted; the budget cuts and counts what it left out.
void TestSweepPlan::pairwiseAndBudget()
{
    const InputGuards g = load("grouped");
    QCOMPARE(g.symbols().size(), std::size_t { 2 });
    const SweepPlan full = planSweep(g, Shapes { { 3, 8 } });
    QVERIFY(full.pairs > 0);
    QCOMPARE(full.single + full.pairs + 1, full.points.size());
    for (const auto &p : full.points)
        if (p.varied2 >= 0)
            QVERIFY(p.values[0] != full.example[0] && p.values[1] != full.example[1]);

    SweepBudget small;
    small.maxPoints = 5;
    const SweepPlan cut = planSweep(g, Shapes { { 3, 8 } }, small);
    QCOMPARE(cut.points.size(), std::size_t { 5 });
    QVERIFY(cut.leftOut > 0);
    // The range ends come first.
    std::set<std::int64_t> batch;
    for (const auto &p : cut.points)
        if (p.varied == 0)
            batch.insert(p.values[0]);
    QVERIFY(batch.count(1) && batch.count(64));

    SweepBudget single;
    single.pairwise = false;
    QCOMPARE(planSweep(g, Shapes { { 3, 8 } }, single).pairs, std::size_t { 0 });

    SweepBudget edges;
    edges.edgesOnly = true;
    const SweepPlan e = planSweep(g, Shapes { { 3, 8 } }, edges);
    for (const auto &p : e.points)
        QVERIFY(p.varied < 0 || p.values[static_cast<std::size_t>(p.varied)] == (p.varied == 0 ? 1 : 2)
            || p.values[static_cast<std::size_t>(p.varied)] == e.upper[static_cast<std::size_t>(p.varied)]);
}

// No symbol: the example must match, its neighbours must be refused, and the plan says so.
void TestSweepPlan::staticPackage()
{
    const InputGuards g = load("static");
    const SweepPlan plan = planSweep(g, Shapes { { 1, 8 } });
    QCOMPARE(plan.points.size(), std::size_t { 3 }); // [1, 8], [2, 8], [0, 8]
    QVERIFY(plan.points.front().inside);
    for (std::size_t i = 1; i < plan.points.size(); ++i)
        QVERIFY(!plan.points[i].inside);
    QVERIFY(std::any_of(plan.notes.begin(), plan.notes.end(),
        [](const std::string &n) { return n.find("no dynamic dimension") != std::string::npos; }));
}

void TestSweepPlan::deterministic()
{
    const InputGuards g = load("grouped");
    const auto a = planSweep(g, Shapes { { 3, 8 } });
    const auto b = planSweep(g, Shapes { { 3, 8 } });
    QCOMPARE(a.points.size(), b.points.size());
    for (std::size_t i = 0; i < a.points.size(); ++i)
        QCOMPARE(a.points[i].values, b.points[i].values);
    SweepBudget other;
    other.seed = 12345;
    const auto c = planSweep(g, Shapes { { 3, 8 } }, other);
    bool differs = c.points.size() != a.points.size();
    for (std::size_t i = 0; !differs && i < a.points.size(); ++i)
        differs = a.points[i].values != c.points[i].values;
    QVERIFY2(differs, "another seed draws other interior points");
}

void TestSweepPlan::wrongInputCount()
{
    const InputGuards g = load("shared_batch");
    QVERIFY_THROWS_EXCEPTION(BundleError, planSweep(g, Shapes { { 4, 5 } }));
}

// Issue 39: shapes a capture recorded join the plan right after the example, beyond the budget
// and with their own reasons, inside or outside the guards as the guards say; one equal to the
// example is the example point.
void TestSweepPlan::recordedShapes()
{
    const InputGuards g = load("derived"); // x.shape[0] == 2*n, n in 2..32
    SweepBudget b;
    b.maxPoints = 3;
    b.recorded = {{Shapes{{10}}, "recorded: 5 call(s), kept input a.pt", "x [10]", "/r/a.pt", 5},
                  {Shapes{{24}}, "recorded: 3 call(s), seeded (no kept input)", "x [24]", "", 3},
                  {Shapes{{2}}, "recorded: 1 call(s), seeded (no kept input)", "x [2]", "", 1}};
    const SweepPlan plan = planSweep(g, Shapes{{10}}, b);
    QCOMPARE(plan.recorded, std::size_t{3});
    QVERIFY(plan.points.front().recorded); // the example was recorded too
    QCOMPARE(plan.points.front().inputs, std::string("/r/a.pt"));
    QCOMPARE(plan.points.front().calls, std::int64_t{5});
    QCOMPARE(plan.points[1].shapes, (Shapes{{24}}));
    QVERIFY(plan.points[1].recorded);
    QCOMPARE(plan.points[1].values[0], std::int64_t{12});
    QVERIFY(plan.points[1].inside);
    QCOMPARE(plan.points[1].label, std::string("x [24]"));
    QCOMPARE(plan.points[2].shapes, (Shapes{{2}})); // n = 1: below the range, refused
    QVERIFY(!plan.points[2].inside);
    QVERIFY(plan.points[2].recorded);
    // The budget's own points are still there past the recorded ones (3 = the example and two more).
    std::size_t planned = 0;
    for (const auto &p : plan.points)
        planned += p.recorded ? 0 : 1;
    QCOMPARE(planned + 1, b.maxPoints);
    QVERIFY_THROWS_EXCEPTION(BundleError, planSweep(g, Shapes{{10}}, [] {
                                 SweepBudget w;
                                 w.recorded = {{Shapes{{4}, {4}}, "two inputs", "", "", 1}};
                                 return w;
                             }()));
}

// Bundle::bucketTraffic: each recorded batch through chooseBucket, the share of calls and the
// padding waste (B - b) / B per bucket; sizes no bucket takes are counted apart.
void TestSweepPlan::bucketTrafficOfRecordedBatches()
{
    Manifest m;
    m.padSafe = true;
    for (const long long batch : {4LL, 8LL}) {
        Bucket bucket;
        bucket.name = "batch" + std::to_string(batch);
        bucket.batch = batch;
        m.buckets.push_back(bucket);
    }
    const BucketTraffic t = bucketTraffic(m, {{1, 10}, {4, 30}, {6, 40}, {8, 10}, {16, 10}});
    QCOMPARE(t.calls, 100LL);
    QCOMPARE(t.buckets.size(), std::size_t{2});
    QCOMPARE(t.buckets[0].calls, 40LL);
    QCOMPARE(t.buckets[0].share, 0.4);
    QCOMPARE(t.buckets[0].waste, (10 * 0.75 + 30 * 0.0) / 40); // 1 row in 4: 3/4 padding
    QCOMPARE(t.buckets[1].sizes, (std::vector<long long>{6, 8}));
    QCOMPARE(t.buckets[1].waste, (40 * 0.25 + 10 * 0.0) / 50);
    QCOMPARE(t.unservedCalls, 10LL);
    QCOMPARE(t.unservedSizes, (std::vector<long long>{16}));
    QCOMPARE(t.waste, (10 * 0.75 + 40 * 0.25) / 90);
    m.padSafe = false; // exact buckets only: 1 and 6 have none
    const BucketTraffic exact = bucketTraffic(m, {{1, 10}, {4, 30}, {6, 40}});
    QCOMPARE(exact.unservedCalls, 50LL);
    QCOMPARE(exact.waste, 0.0);
}

QTEST_GUILESS_MAIN(TestSweepPlan)
#include "tst_sweepplan.moc"
