// SPDX-License-Identifier: GPL-3.0-or-later
// Paired measurement (block structure, order, stop), the ratio's bootstrap interval against a
// numpy reference, and the machine verdict on synthetic inputs. No assertion on a timing.
#include "profiler/machine.h"
#include "profiler/paired.h"

#include <QtTest/QtTest>

#include <set>
#include <chrono>
#include <stop_token>
#include <thread>

using namespace AotStudio::Profiler;

namespace {

PairedOptions countOnly(int warmup, int minRuns, int maxRuns, int minBlocks)
{
    PairedOptions o;
    o.budget.warmup = warmup;
    o.budget.minRuns = minRuns;
    o.budget.maxRuns = maxRuns;
    o.budget.maxSeconds = 1e9;
    o.budget.stableRel = -1.0; // never "stable": only maxRuns ends it
    o.minBlocks = minBlocks;
    o.targetBlockMs = 1e9;     // block size = the cap maxRuns / minBlocks
    return o;
}

// tests/fixtures/stats/bootstrap_reference.py holds the same blocks.
const std::vector<std::vector<double>> kA = {{8.1, 8.0, 8.3},  {7.9, 8.2, 8.0}, {8.4, 8.1, 8.2}, {8.0, 7.8, 8.1},
                                             {8.2, 8.3, 8.0},  {9.6, 9.9, 9.4}, {10.1, 9.8, 10.4}, {9.7, 9.5, 9.9},
                                             {8.1, 8.2, 8.0},  {8.3, 8.0, 8.2}, {7.9, 8.1, 8.0}, {8.2, 8.4, 8.1}};
const std::vector<std::vector<double>> kB = {{2.00, 2.02, 1.98}, {2.01, 1.97, 2.03}, {2.05, 2.00, 2.02}, {1.99, 2.01, 2.00},
                                             {2.03, 2.04, 2.01}, {2.41, 2.38, 2.45}, {2.52, 2.47, 2.49}, {2.40, 2.43, 2.39},
                                             {2.02, 2.00, 2.01}, {2.04, 1.99, 2.02}, {1.98, 2.00, 2.01}, {2.03, 2.05, 2.02}};

VerdictInput idleInput()
{
    VerdictInput in;
    in.threads = 1;
    in.cpus.usable = 2;
    in.cpus.affinity = 2;
    in.cpus.online = 2;
    in.governor = "performance";
    in.before.procsRunning = 1;
    in.after.procsRunning = 1;
    in.procsRunning = {1, 1, 2, 1, 1, 1, 1, 1};
    in.before.runNs = 1'000'000'000;
    in.after.runNs = 3'000'000'000;
    in.before.runDelayNs = 10'000'000;
    in.after.runDelayNs = 30'000'000; // 1% waiting
    in.before.cpuTicks = 10000;
    in.after.cpuTicks = 10400;
    in.before.stealTicks = 5;
    in.after.stealTicks = 5;
    in.before.throttleCount = 3;
    in.after.throttleCount = 3;
    in.spreads = {{"eager", 0.060, 0.062, 0.066}, {"compiled", 0.040, 0.041, 0.044}};
    return in;
}

bool anyContains(const std::vector<std::string> &reasons, const char *word)
{
    for (const auto &r : reasons)
        if (r.find(word) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestPaired : public QObject {
    Q_OBJECT

private slots:
    void everyRoundRunsEveryVariantOnce()
    {
        int calls[3] = {0, 0, 0};
        int begins[3] = {0, 0, 0};
        std::vector<int> callOrder;
        std::vector<PairedVariant> v;
        for (int i = 0; i < 3; ++i)
            v.push_back({"v" + std::to_string(i), [&, i] { ++calls[i]; callOrder.push_back(i); }, [&, i] { ++begins[i]; }, {}});
        int afterRounds = 0;
        auto o = countOnly(/*warmup*/ 2, /*minRuns*/ 10, /*maxRuns*/ 40, /*minBlocks*/ 8);
        o.afterRound = [&](int round) { QCOMPARE(round, ++afterRounds); };
        const auto r = measurePaired(v, o);
        QCOMPARE(r.variants.size(), std::size_t(3));
        QCOMPARE(r.rounds, afterRounds);
        QCOMPARE(static_cast<int>(r.order.size()), r.rounds);
        QVERIFY(r.rounds >= 8);
        for (int i = 0; i < 3; ++i) {
            const auto &s = r.variants[static_cast<std::size_t>(i)];
            QCOMPARE(s.callsPerBlock, 40 / 8);
            QCOMPARE(static_cast<int>(s.blocksMs.size()), r.rounds);
            QCOMPARE(static_cast<int>(s.samplesMs.size()), r.rounds * s.callsPerBlock);
            QVERIFY(static_cast<int>(s.samplesMs.size()) >= 40);
            QCOMPARE(calls[i], 2 + static_cast<int>(s.samplesMs.size())); // warm-up untimed, then the samples
            QCOMPARE(begins[i], r.rounds);
        }
        // Each round is a permutation, and the calls really ran in that order, block by block.
        std::size_t at = 6; // after 2 warm-up rounds of 3
        for (const auto &round : r.order) {
            QCOMPARE(std::set<int>(round.begin(), round.end()), (std::set<int>{0, 1, 2}));
            for (int idx : round)
                for (int c = 0; c < 5; ++c)
                    QCOMPARE(callOrder.at(at++), idx);
        }
        // Shuffled: not always the same order (with 8+ rounds of 3! = 6 orders, the chance that a
        // fixed seed gives one order every time is nil; a regression to A B C ... would fail).
        std::set<std::vector<int>> orders(r.order.begin(), r.order.end());
        QVERIFY(orders.size() > 1);
    }

    void blockSizeFromWarmup()
    {
        // Calls of ~0 ms: the block is capped by maxRuns / minBlocks. targetBlockMs tiny: 1 call.
        std::vector<PairedVariant> v{{"a", [] {}, {}, {}}};
        auto o = countOnly(3, 4, 30, 3);
        o.targetBlockMs = 0.0;
        const auto r = measurePaired(v, o);
        QCOMPARE(r.variants[0].callsPerBlock, 1);
        QCOMPARE(static_cast<int>(r.variants[0].samplesMs.size()), 30);
    }

    void maxRunsHoldsForUnevenBlocks()
    {
        // A fast and a slow variant: blocks of ~5 ms give the fast one many more calls per block.
        // The slow one needs 20 rounds for minRuns; the fast one must still stay within maxRuns
        // (it ran 3x maxRuns before the cap was shared out over the rounds needed).
        std::vector<PairedVariant> v{{"fast", [] {}, {}, {}},
                                     {"slow", [] { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }, {}, {}}};
        auto o = countOnly(2, 20, 40, 4);
        o.targetBlockMs = 5.0;
        const auto r = measurePaired(v, o);
        for (const auto &x : r.variants) {
            QVERIFY2(static_cast<int>(x.samplesMs.size()) <= 40, x.name.c_str());
            QVERIFY2(static_cast<int>(x.samplesMs.size()) >= 20, x.name.c_str());
        }
        QCOMPARE(r.variants[0].blocksMs.size(), r.variants[1].blocksMs.size());
    }

    void stopDropsTheUnfinishedRound()
    {
        std::stop_source source;
        int n = 0;
        std::vector<PairedVariant> v{{"a", [] {}, {}, {}},
                                     {"b", [&] {
                                          if (++n == 600) // in the third round's block of b (250 calls a block)
                                              source.request_stop();
                                      },
                                      {},
                                      {}}};
        const auto r = measurePaired(v, countOnly(0, 10, 1000, 4), source.get_token());
        QVERIFY(r.stopped);
        QCOMPARE(r.variants[1].callsPerBlock, 250);
        // The stop came in the third round's block of b: that round is kept only when b ran last in
        // it (complete for both), else dropped from both.
        QVERIFY2(r.rounds == 2 || r.rounds == 3, qPrintable(QString::number(r.rounds)));
        QCOMPARE(static_cast<int>(r.order.size()), r.rounds);
        QCOMPARE(r.variants[0].blocksMs.size(), r.variants[1].blocksMs.size());
        QCOMPARE(static_cast<int>(r.variants[0].blocksMs.size()), r.rounds);
        QCOMPARE(r.variants[0].samplesMs.size(), r.variants[0].blocksMs.size() * std::size_t(r.variants[0].callsPerBlock));
    }

    void exceptionsPropagate()
    {
        std::vector<PairedVariant> v{{"a", [] { throw std::runtime_error("boom"); }, {}, {}}};
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, measurePaired(v, countOnly(0, 1, 2, 1)));
    }

    void bootstrapMatchesNumpyReference()
    {
        // .venv/bin/python tests/fixtures/stats/bootstrap_reference.py (200,000 resamples):
        // estimate 4.059406 low 4.009901 high 4.084158
        const auto r = ratioInterval(kA, kB, 0.95, 20000, 7);
        QCOMPARE(r.blocks, 12);
        QVERIFY(qAbs(r.estimate - 4.059406) < 1e-6);
        QVERIFY(r.low && r.high);
        QVERIFY2(qAbs(*r.low - 4.009901) / 4.009901 < 0.005, qPrintable(QString::number(*r.low)));
        QVERIFY2(qAbs(*r.high - 4.084158) / 4.084158 < 0.005, qPrintable(QString::number(*r.high)));
        QVERIFY(*r.low <= r.estimate && r.estimate <= *r.high);
        // Deterministic for a seed.
        const auto again = ratioInterval(kA, kB, 0.95, 20000, 7);
        QCOMPARE(*again.low, *r.low);
        QCOMPARE(*again.high, *r.high);
    }

    void percentileIntervalBracketsTheEstimate()
    {
        std::vector<double> ms;
        for (int i = 1; i <= 200; ++i)
            ms.push_back(static_cast<double>(i)); // 1 .. 200 ms
        const auto p50 = percentileInterval(ms, 50, 0.95, 2000, 3);
        QCOMPARE(p50.estimate, 100.5); // numpy.percentile(range(1, 201), 50)
        QCOMPARE(p50.blocks, 200);
        QVERIFY(p50.low && p50.high);
        QVERIFY(*p50.low < p50.estimate && p50.estimate < *p50.high);
        QVERIFY(*p50.low > 80 && *p50.high < 121); // about ±1.96 * sqrt(n)/2 ranks
        // 200 samples hold only 2 beyond their p99: an estimate, no interval (its end would be the maximum).
        const auto p99of200 = percentileInterval(ms, 99, 0.95, 2000, 3);
        QVERIFY(qAbs(p99of200.estimate - 198.01) < 1e-9);
        QVERIFY(!p99of200.low && !p99of200.high);
        std::vector<double> many;
        for (int i = 1; i <= 1000; ++i)
            many.push_back(static_cast<double>(i));
        const auto p99 = percentileInterval(many, 99, 0.95, 2000, 3);
        QVERIFY(qAbs(p99.estimate - 990.01) < 1e-9); // numpy.percentile(range(1, 1001), 99)
        QVERIFY(p99.low && p99.high);
        QVERIFY(*p99.low <= p99.estimate && p99.estimate <= *p99.high && *p99.high < 1000);
        const auto again = percentileInterval(many, 99, 0.95, 2000, 3);
        QCOMPARE(*again.low, *p99.low); // deterministic for a seed
        const std::vector<double> two{1.0, 2.0};
        QVERIFY(!percentileInterval(two, 50).low); // too few samples for an interval
        QCOMPARE(percentileInterval(std::vector<double>{}, 50).estimate, 0.0);
    }

    void rateIntervalMatchesNumpyReference()
    {
        // Same script: "rate: 4968.509447 low 4851.633530 high 5064.493551".
        const std::vector<double> calls{601, 628, 622, 638, 581, 633, 624, 643};
        const std::vector<double> seconds{0.1250, 0.1251, 0.1249, 0.1250, 0.1252, 0.1250, 0.1250, 0.1251};
        const auto r = rateInterval(calls, seconds, 0.95, 20000, 3);
        QCOMPARE(r.blocks, 8);
        QVERIFY(qAbs(r.estimate - 4968.509447) < 1e-3);
        QVERIFY(r.low && r.high);
        QVERIFY2(qAbs(*r.low - 4851.633530) / 4851.63 < 0.003, qPrintable(QString::number(*r.low)));
        QVERIFY2(qAbs(*r.high - 5064.493551) / 5064.49 < 0.003, qPrintable(QString::number(*r.high)));
        // Windows of different lengths: the rate is calls over time, not a mean of rates.
        const std::vector<double> c2{10, 30, 20}, s2{1.0, 1.0, 2.0};
        QCOMPARE(rateInterval(c2, s2).estimate, 15.0);
        // Two windows give a rate but no interval; equal windows an interval of zero width.
        const std::vector<double> two{100, 120}, twoS{1, 1};
        QVERIFY(!rateInterval(two, twoS).low);
        const std::vector<double> same{50, 50, 50, 50}, sameS{0.5, 0.5, 0.5, 0.5};
        const auto flat = rateInterval(same, sameS);
        QVERIFY(flat.low && *flat.low == 100 && *flat.high == 100);
    }

    void pairingKeepsTheDriftOutOfTheRatio()
    {
        // The same blocks with B's rounds reversed (its drift no longer lines up with A's): the
        // pairing is broken and the interval must widen. This is why blocks are resampled together.
        auto shuffled = kB;
        std::reverse(shuffled.begin(), shuffled.end());
        std::rotate(shuffled.begin(), shuffled.begin() + 3, shuffled.end());
        const auto paired = ratioInterval(kA, kB, 0.95, 4000, 1);
        const auto unpaired = ratioInterval(kA, shuffled, 0.95, 4000, 1);
        QVERIFY(*unpaired.high - *unpaired.low > *paired.high - *paired.low);
    }

    void tooFewBlocksGiveNoInterval()
    {
        const std::vector<std::vector<double>> a{{2.0}, {2.1}}, b{{1.0}, {1.0}};
        const auto r = ratioInterval(a, b);
        QCOMPARE(r.blocks, 2);
        QVERIFY(r.estimate > 2.0 && r.estimate < 2.1);
        QVERIFY(!r.low && !r.high);
        const std::vector<std::vector<double>> zero{{0.0}, {0.0}, {0.0}};
        QCOMPARE(ratioInterval(a, zero).estimate, 0.0);
        const std::vector<double> x{300, 310, 290, 305}, y{100, 101, 99, 100};
        const auto single = ratioInterval(x, y);
        QCOMPARE(single.blocks, 4);
        QVERIFY(single.low && *single.low <= single.estimate && single.estimate <= *single.high);
    }

    void idleMachineIsOk()
    {
        const auto v = classify(idleInput());
        QCOMPARE(QString::fromStdString(v.verdict), QStringLiteral("ok"));
        QVERIFY(v.reasons.empty());
    }

    void busyMachineSpeedupIsUnreliable()
    {
        // The 326.94x of the issue: eager median 8.001 ms (p10 7.88, p90 8.85), compiled 0.024 ms,
        // both tight, while a two-job build ran on the 2 CPUs and eager used 2 OpenMP threads.
        auto in = idleInput();
        in.threads = 2;
        in.procsRunning = {4, 4, 3, 5, 4, 4, 3, 4};
        in.before.procsRunning = 4;
        in.after.procsRunning = 4;
        in.after.runDelayNs = in.before.runDelayNs.value() + 900'000'000; // waited 0.9 s, ran 2 s: 31%
        in.spreads = {{"eager", 7.88, 8.001, 8.85}, {"compiled", 0.023, 0.024, 0.026}};
        const auto v = classify(in);
        QCOMPARE(QString::fromStdString(v.verdict), QStringLiteral("unreliable"));
        QVERIFY(anyContains(v.reasons, "oversubscribed"));
        QVERIFY(anyContains(v.reasons, "other runnable tasks"));
        QVERIFY(anyContains(v.reasons, "waiting for a CPU"));
        const auto j = toJson(v, in);
        QCOMPARE(j["verdict"].get<std::string>(), std::string("unreliable"));
        QCOMPARE(j["threads"].get<int>(), 2);
        QCOMPARE(j["usable_cpus"].get<int>(), 2);
        QVERIFY(j["load"]["other_runnable_mean"].get<double>() > 1.5);
        // The load alone (no schedstat) still says unreliable, naming it.
        in.before.runNs.reset();
        QCOMPARE(classify(in).verdict, std::string("unreliable"));
    }

    void fewerThreadsThanCpusIsOnlyNoisy()
    {
        auto in = idleInput();
        in.threads = 1;
        in.cpus.usable = in.cpus.affinity = in.cpus.online = 4;
        in.procsRunning = {5, 5, 5, 5}; // 4 others with 3 CPUs free
        in.before.procsRunning = in.after.procsRunning = 5;
        const auto v = classify(in);
        QCOMPARE(v.verdict, std::string("noisy"));
        QVERIFY(anyContains(v.reasons, "busy machine"));
    }

    void runDelayAndStealAndSpread_data()
    {
        QTest::addColumn<double>("delayShare");
        QTest::addColumn<int>("stealTicks");
        QTest::addColumn<double>("p90");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("word");
        QTest::newRow("run delay 15%") << 0.15 << 0 << 0.066 << "noisy" << "waiting for a CPU";
        QTest::newRow("run delay 40%") << 0.40 << 0 << 0.066 << "unreliable" << "waiting for a CPU";
        QTest::newRow("steal 5%") << 0.01 << 20 << 0.066 << "noisy" << "steal";
        QTest::newRow("steal 20%") << 0.01 << 80 << 0.066 << "unreliable" << "steal";
        QTest::newRow("spread") << 0.01 << 0 << 0.2 << "noisy" << "spread out";
    }
    void runDelayAndStealAndSpread()
    {
        QFETCH(double, delayShare);
        QFETCH(int, stealTicks);
        QFETCH(double, p90);
        QFETCH(QString, verdict);
        QFETCH(QString, word);
        auto in = idleInput();
        // share = waited / (ran + waited) with ran = 2 s
        in.after.runDelayNs = in.before.runDelayNs.value() + static_cast<std::uint64_t>(delayShare / (1 - delayShare) * 2e9);
        in.after.stealTicks = in.before.stealTicks.value() + static_cast<std::uint64_t>(stealTicks);
        in.spreads[0].p90Ms = p90;
        const auto v = classify(in);
        QCOMPARE(QString::fromStdString(v.verdict), verdict);
        QVERIFY2(anyContains(v.reasons, word.toUtf8().constData()), v.reasons.empty() ? "" : v.reasons[0].c_str());
    }

    void unreadableProcIsUnknown()
    {
        VerdictInput in;
        in.threads = 1;
        const auto v = classify(in);
        QCOMPARE(v.verdict, std::string("unknown"));
        QVERIFY(anyContains(v.reasons, "unknown"));
        QVERIFY(anyContains(v.notes, "governor not readable"));
    }

    void hostWideLoadIgnoredInsideASmallerCpuSet()
    {
        // A container limited to 2 of 64 CPUs: procs_running counts the whole host's 40 runnable
        // tasks; they do not compete for our CPUs, and run delay (1%) says so.
        auto in = idleInput();
        in.cpus.online = 64;
        in.procsRunning = {40, 41, 39};
        in.before.procsRunning = in.after.procsRunning = 40;
        const auto v = classify(in);
        QCOMPARE(v.verdict, std::string("ok"));
        QVERIFY(anyContains(v.notes, "run delay only"));
    }

    void thisMachineCanBeSampled()
    {
        // Whatever this machine is: sampling never throws, and what it reads is consistent.
        const auto cpus = usableCpus();
        QVERIFY(cpus.usable >= 1 && cpus.usable <= cpus.affinity);
        QVERIFY(cpus.online >= 1);
        MachineMonitor m(1);
        m.begin();
        m.round();
        m.end();
        const auto j = m.json({{"x", 1, 1, 1}});
        QVERIFY(j.contains("verdict"));
        const auto s = sampleMachine();
        if (s.runNs && s.runDelayNs)
            QVERIFY(*s.runNs > 0);
    }
};

QTEST_GUILESS_MAIN(TestPaired)
#include "tst_paired.moc"
