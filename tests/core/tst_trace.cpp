// SPDX-License-Identifier: GPL-3.0-or-later
// Chrome trace export, range aggregation, CSV quoting and the CSV writer (core/profiler/trace.h); measureSamples.
#include "profiler/measure.h"
#include "profiler/trace.h"

#include <QtTest/QtTest>

using namespace AotStudio::Profiler;
using nlohmann::json;

class TstTrace : public QObject {
    Q_OBJECT

private slots:
    void traceIsValidSortedMicroseconds()
    {
        // Out of order on purpose; the enclosing "call" shares its start with its first kernel.
        std::vector<TimedRange> ranges{
            {"k2", "aoti", 1'004'000, 1'006'500, 1, 1, 0, json{{"kind", "cpp"}}},
            {"call", "aoti", 1'000'000, 1'010'000, 1, 0, -1, json::object()},
            {"k1", "aoti", 1'000'000, 1'003'000, 1, 1, 0, json::object()},
            {"bad", "aoti", 1'009'000, 1'008'000, 1, 1, 0, json::object()}, // ends before it starts
        };
        const json t = chromeTrace(ranges, 1'000'000, {{1, "engine (CPU)"}}, {{{1, 0}, "forward calls"}, {{1, 1}, "thread 1"}},
                                   {{"model", "m"}});
        // Round trip through text: what Perfetto reads.
        const json parsed = json::parse(t.dump());
        QCOMPARE(parsed["displayTimeUnit"].get<std::string>(), std::string("ms"));
        QCOMPARE(parsed["otherData"]["model"].get<std::string>(), std::string("m"));
        const auto &ev = parsed["traceEvents"];
        QVERIFY(ev.is_array());
        // Metadata first.
        QCOMPARE(ev[0]["ph"].get<std::string>(), std::string("M"));
        QCOMPARE(ev[0]["name"].get<std::string>(), std::string("process_name"));
        QCOMPARE(ev[0]["args"]["name"].get<std::string>(), std::string("engine (CPU)"));
        QCOMPARE(ev[1]["name"].get<std::string>(), std::string("thread_name"));
        std::vector<json> x;
        for (const auto &e : ev)
            if (e["ph"] == "X")
                x.push_back(e);
        QCOMPARE(x.size(), std::size_t(4));
        for (std::size_t i = 1; i < x.size(); ++i)
            QVERIFY(x[i - 1]["ts"].get<double>() <= x[i]["ts"].get<double>());
        // Same start: the enclosing range first.
        QCOMPARE(x[0]["name"].get<std::string>(), std::string("call"));
        QCOMPARE(x[1]["name"].get<std::string>(), std::string("k1"));
        // Microseconds from the origin.
        QCOMPARE(x[0]["ts"].get<double>(), 0.0);
        QCOMPARE(x[0]["dur"].get<double>(), 10.0);
        QCOMPARE(x[2]["ts"].get<double>(), 4.0);
        QCOMPARE(x[2]["dur"].get<double>(), 2.5);
        QCOMPARE(x[2]["args"]["kind"].get<std::string>(), std::string("cpp"));
        QCOMPARE(x[2]["cat"].get<std::string>(), std::string("aoti"));
        QCOMPARE(x[3]["dur"].get<double>(), 0.0);
        for (const auto &e : x)
            for (const char *k : {"name", "cat", "ph", "ts", "dur", "pid", "tid"})
                QVERIFY2(e.contains(k), k);
    }

    void aggregateCountsTopLevelOnly()
    {
        std::vector<TimedRange> ranges{
            {"aten::linear", "eager", 0, 4'000'000, 1, 1, 0, {}},
            {"aten::addmm", "eager", 1'000'000, 3'000'000, 1, 1, 1, {}}, // nested: not counted
            {"aten::linear", "eager", 5'000'000, 7'000'000, 1, 1, 0, {}},
            {"aten::relu", "eager", 8'000'000, 9'000'000, 1, 1, 0, {}},
            {"k", "aoti", 0, 500'000, 1, 1, 0, {}},
        };
        const auto rows = aggregateRanges(ranges, {{"eager", 10.0}});
        QCOMPARE(rows.size(), std::size_t(3));
        QCOMPARE(rows[0].variant, std::string("aoti"));
        QCOMPARE(rows[0].share, 0.0); // wall unknown
        QCOMPARE(rows[1].name, std::string("aten::linear"));
        QCOMPARE(rows[1].calls, 2LL);
        QCOMPARE(rows[1].totalMs, 6.0);
        QCOMPARE(rows[1].meanMs, 3.0);
        QCOMPARE(rows[1].share, 0.6);
        QCOMPARE(rows[2].name, std::string("aten::relu"));
        QCOMPARE(rows[2].share, 0.1);
    }

    void csvQuoting()
    {
        QCOMPARE(csvField("plain"), std::string("plain"));
        QCOMPARE(csvField("a,b"), std::string("\"a,b\""));
        QCOMPARE(csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField("two\nlines"), std::string("\"two\nlines\""));
    }

    void csvTable()
    {
        CsvTable t({"name", "ms"});
        t.addRow({"a,b", "1.5"});
        t.addRow({"", "2"});
        QCOMPARE(t.text(), std::string("name,ms\n\"a,b\",1.5\n,2\n"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, t.addRow({"one field"}));
        QCOMPARE(t.text(), std::string("name,ms\n\"a,b\",1.5\n,2\n")); // a refused row leaves nothing
    }

    void measureSamplesCountsRuns()
    {
        MeasureOptions o;
        o.warmup = 2;
        o.minRuns = 5;
        o.maxRuns = 5;
        o.maxSeconds = 1e9;
        o.stableRel = -1;
        int calls = 0;
        const auto s = measureSamples([&] { ++calls; }, o);
        QCOMPARE(s.size(), std::size_t(5));
        QCOMPARE(calls, 7);
        for (double v : s)
            QVERIFY(v >= 0.0);
    }
};

QTEST_GUILESS_MAIN(TstTrace)
#include "tst_trace.moc"
