// SPDX-License-Identifier: GPL-3.0-or-later
// aotstudio-run's serving as a library (core/serve), without the executable and without LibTorch:
// the scheduler and its worker pool (workerpool.h) driven with a stand-in WorkerBody whose workers
// answer, refuse, die or hang on request; the server loop (server.h) over a request file; the
// request and trace parsers; the --eager-server split. Workers are forked from this test and the
// baselines are /bin tools, so it takes a second or two.
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "profiler/machine.h"
#include "serve/replay.h"
#include "serve/serveerror.h"
#include "serve/server.h"
#include "serve/workerpool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace AotStudio;
using nlohmann::json;

namespace {

/// A stand-in for the bundle's worker: a request's "input" says what the worker does.
///  - "die": the worker kills itself (SIGKILL), as a crash would;
///  - "hang": it never answers;
///  - "refuse": it answers with a refusal;
///  - "missing" (spawn): the baseline's program is not there;
///  - otherwise it answers bucket "b<batch>" and outputs [requests this worker answered, warm, seed].
class FakeBody : public Serve::WorkerBody
{
public:
    FakeBody()
        : WorkerBody(Serve::Subject{"fake-bundle", "/fake/bundle", "fake-model", "cpu"})
    { }
    int prepared = 0; ///< in the parent
    int handled = 0; ///< in a worker: requests this copy answered

    void prepare() override { ++prepared; }
    json handle(const Serve::WorkRequest &r, Serve::Clock::time_point, bool warm) override
    {
        if (r.input == "die")
            ::raise(SIGKILL);
        if (r.input == "hang")
            for (;;)
                ::pause();
        if (r.input == "refuse")
            return {{"ok", false}, {"error", Serve::errorJson("refused", "no bucket takes it")}};
        ++handled;
        return {{"ok", true},
                {"bucket", "b" + std::to_string(r.batch.value_or(0))},
                {"outputs", json::array({handled, warm, r.seed})},
                {"setup_ms", 0.5},
                {"load_ms", 1.0},
                {"inputs_ms", 0.25},
                {"run_ms", 2.0}};
    }
    std::vector<std::string> spawnCommand(const Serve::WorkRequest &r) const override
    {
        if (r.input == "missing")
            return {"/nonexistent/aotstudio-run"};
        const json envelope{{"ok", true},
                            {"result",
                             {{"bucket", "b" + std::to_string(r.batch.value_or(0))},
                              {"outputs", json::array({r.seed})},
                              {"cold_start", {{"load_ms", 2.0}, {"first_run_ms", 1.0}, {"to_loaded_ms", 5.0}}}}}};
        return {"/bin/echo", envelope.dump()};
    }
};

Serve::Job job(json id, std::optional<long long> batch, std::string input = {}, std::uint64_t seed = 0)
{
    Serve::Job j;
    j.id = std::move(id);
    j.request.batch = batch;
    j.request.input = std::move(input);
    j.request.seed = seed;
    j.arrival = Serve::Clock::now();
    return j;
}

/// Poll until `n` jobs have completed (at most about 60 s: a wait for events, not a timing);
/// `mostInFlight`, when given, gets the most requests a worker ran at once after a poll.
std::vector<Serve::Completion> drain(Serve::WorkerPool &pool, std::size_t n, std::size_t *mostInFlight = nullptr)
{
    std::vector<Serve::Completion> done;
    std::vector<pollfd> none;
    for (int round = 0; round < 600 && done.size() < n; ++round) {
        for (auto &c : pool.poll(none, 100, nullptr))
            done.push_back(std::move(c));
        if (mostInFlight)
            *mostInFlight = std::max(*mostInFlight, pool.inFlight());
    }
    return done;
}

/// Gone: no such process (killed and reaped).
bool reaped(pid_t pid)
{
    return ::kill(pid, 0) != 0 && errno == ESRCH;
}

/// Wait until `pid` has died (a zombie, its descriptors closed), at most about 10 s.
bool diedWithin10s(pid_t pid)
{
    for (int i = 0; i < 200; ++i) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string pidField, comm, state;
        stat >> pidField >> comm >> state;
        if (!stat || state == "Z" || state == "X")
            return true;
        ::usleep(50 * 1000);
    }
    return false;
}

std::string readFile(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

class TestWorkerPool : public QObject
{
    Q_OBJECT

private slots:
    void warmWorkerAnswersInArrivalOrderAndKeepsItsState();
    void requestIsolationForksAWorkerPerRequest();
    void killedWarmWorkerIsReplaced();
    void deadlineKillsAHungWorker();
    void spawnBaselineRunsTheBodysCommand();
    void eagerServerReadyAndNotReady();
    void serverAnswersLinesAndDrainsAtEndOfInput();
    void parseRequest_data();
    void parseRequest();
    void tracesReadAndRefuse();
    void eagerServerLineSplitsAndRunsNothing();
};

void TestWorkerPool::warmWorkerAnswersInArrivalOrderAndKeepsItsState()
{
    FakeBody body;
    Serve::ServeOptions options;
    options.isolation = Serve::Isolation::Worker;
    options.workers = 1;
    Serve::WorkerPool pool(body, options);
    pool.start();
    QCOMPARE(body.prepared, 1); // once, in the parent
    QCOMPARE(pool.workerPids().size(), std::size_t{1});
    for (int i = 1; i <= 3; ++i)
        pool.submit(job(i, i, {}, 40 + i));
    const auto done = drain(pool, 3);
    QCOMPARE(done.size(), std::size_t{3});
    const pid_t pid = pool.workerPids().front();
    for (int i = 0; i < 3; ++i) {
        const json &r = done[static_cast<std::size_t>(i)].response;
        QVERIFY2(r.value("ok", false), r.dump().c_str());
        QCOMPARE(r["id"].get<int>(), i + 1); // one worker: first come, first answered
        QCOMPARE(r["bucket"].get<std::string>(), "b" + std::to_string(i + 1));
        QCOMPARE(r["outputs"].dump(),
                 json::array({i + 1, true, 41 + i}).dump()); // the same warm worker, its count kept
        QCOMPARE(r["worker_pid"].get<pid_t>(), pid);
        const json &t = r["timing"];
        QCOMPARE(t["load_ms"].get<double>(), 1.0);
        QCOMPARE(t["run_ms"].get<double>(), 2.0);
        for (const char *k : {"queue_ms", "worker_start_ms", "total_ms"})
            QVERIFY2(t[k].get<double>() >= 0, k);
    }
    QCOMPARE(pool.counters().forked, 1LL);
    QCOMPARE(pool.counters().answered, 3LL);
    QVERIFY(pool.idle());
    pool.stop();
    QVERIFY(reaped(pid)); // the channel closed, it exited and was reaped
}

void TestWorkerPool::requestIsolationForksAWorkerPerRequest()
{
    FakeBody body;
    Serve::ServeOptions options;
    options.isolation = Serve::Isolation::Request;
    options.workers = 2;
    Serve::WorkerPool pool(body, options);
    pool.start();
    QVERIFY(pool.workerPids().empty()); // nothing forked before a request
    for (int i = 0; i < 5; ++i)
        pool.submit(job(i, 1));
    std::size_t mostInFlight = 0;
    const auto done = drain(pool, 5, &mostInFlight);
    QCOMPARE(done.size(), std::size_t{5});
    QVERIFY(mostInFlight >= 1 && mostInFlight <= 2); // --workers 2: at most two at once
    std::set<pid_t> pids;
    for (const auto &c : done) {
        QVERIFY2(c.response.value("ok", false), c.response.dump().c_str());
        QCOMPARE(c.response["outputs"].dump(), json::array({1, false, 0}).dump()); // a fresh copy each time
        pids.insert(c.response["worker_pid"].get<pid_t>());
    }
    QCOMPARE(pids.size(), std::size_t{5});
    QCOMPARE(pool.counters().forked, 5LL);

    // A worker that dies answers its request with how it died.
    pool.submit(job("d", 1, "die"));
    const auto died = drain(pool, 1);
    QCOMPARE(died.size(), std::size_t{1});
    const json &error = died[0].response["error"];
    QCOMPARE(error["stage"].get<std::string>(), std::string("worker"));
    QCOMPARE(error["code"].get<std::string>(), std::string("internal"));
    QVERIFY2(error["message"].get<std::string>().find("killed by SIGKILL") != std::string::npos, error.dump().c_str());
}

void TestWorkerPool::killedWarmWorkerIsReplaced()
{
    FakeBody body;
    Serve::ServeOptions options;
    options.workers = 1;
    Serve::WorkerPool pool(body, options);
    pool.start();
    const pid_t first = pool.workerPids().front();

    // Busy: its request fails naming the signal, and a replacement answers the next one.
    pool.submit(job(1, 1, "die"));
    auto done = drain(pool, 1);
    QCOMPARE(done.size(), std::size_t{1});
    const json &failed = done[0].response;
    QCOMPARE(failed.value("ok", true), false);
    QCOMPARE(failed["error"]["stage"].get<std::string>(), std::string("worker"));
    QCOMPARE(failed["error"]["message"].get<std::string>(), "worker " + std::to_string(first) + " killed by SIGKILL");
    QCOMPARE(failed["worker_pid"].get<pid_t>(), first);
    pool.submit(job(2, 1));
    done = drain(pool, 1);
    QCOMPARE(done.size(), std::size_t{1});
    QVERIFY2(done[0].response.value("ok", false), done[0].response.dump().c_str());
    const pid_t second = done[0].response["worker_pid"].get<pid_t>();
    QVERIFY(second != first);
    QCOMPARE(done[0].response["outputs"][0].get<int>(), 1); // a fresh worker

    // Idle and killed from outside: once it is dead, the next request goes to its replacement.
    QCOMPARE(::kill(second, SIGKILL), 0);
    QVERIFY(diedWithin10s(second));
    pool.submit(job(3, 1));
    done = drain(pool, 1);
    QCOMPARE(done.size(), std::size_t{1});
    QVERIFY2(done[0].response.value("ok", false), done[0].response.dump().c_str());
    const pid_t third = done[0].response["worker_pid"].get<pid_t>();
    QVERIFY(third != second && third != first);
    QCOMPARE(pool.counters().died, 2LL);
    QCOMPARE(pool.counters().replaced, 2LL);
    QCOMPARE(pool.counters().forked, 3LL);
    QCOMPARE(pool.counters().failed, 1LL);
}

void TestWorkerPool::deadlineKillsAHungWorker()
{
    for (const auto isolation : {Serve::Isolation::Worker, Serve::Isolation::Request}) {
        FakeBody body;
        Serve::ServeOptions options;
        options.isolation = isolation;
        options.requestTimeoutMs = 300;
        Serve::WorkerPool pool(body, options);
        pool.start();
        pool.submit(job(1, 1, "hang"));
        auto done = drain(pool, 1);
        QCOMPARE(done.size(), std::size_t{1});
        const json &r = done[0].response;
        QCOMPARE(r["error"]["stage"].get<std::string>(), std::string("deadline"));
        const std::string message = r["error"]["message"].get<std::string>();
        QVERIFY2(message.find("did not answer within the request deadline of 0.3 s") != std::string::npos,
                 message.c_str());
        QCOMPARE(message.find("and is replaced") != std::string::npos, isolation == Serve::Isolation::Worker);
        const pid_t hung = r["worker_pid"].get<pid_t>();
        QVERIFY(reaped(hung)); // killed and reaped, not left a zombie
        pool.submit(job(2, 1));
        done = drain(pool, 1);
        QCOMPARE(done.size(), std::size_t{1});
        QVERIFY2(done[0].response.value("ok", false), done[0].response.dump().c_str());
        QVERIFY(done[0].response["worker_pid"].get<pid_t>() != hung);
    }
}

void TestWorkerPool::spawnBaselineRunsTheBodysCommand()
{
    FakeBody body;
    Serve::ServeOptions options;
    options.isolation = Serve::Isolation::Spawn;
    Serve::WorkerPool pool(body, options);
    pool.start();
    pool.submit(job(1, 7, {}, 9));
    pool.submit(job(2, 1, "missing"));
    const auto done = drain(pool, 2);
    QCOMPARE(done.size(), std::size_t{2});
    const auto byId = [&](int id) {
        return std::find_if(done.begin(), done.end(), [&](const auto &c) { return c.job.id == id; })->response;
    };
    const json ok = byId(1);
    QVERIFY2(ok.value("ok", false), ok.dump().c_str());
    QCOMPARE(ok["bucket"].get<std::string>(), std::string("b7"));
    QCOMPARE(ok["outputs"].dump(), std::string("[9]"));
    QCOMPARE(ok["timing"]["load_ms"].get<double>(), 2.0);
    QCOMPARE(ok["timing"]["run_ms"].get<double>(), 1.0);
    QCOMPARE(ok["timing"]["worker_start_ms"].get<double>(), 3.0); // to_loaded_ms - load_ms
    const json missing = byId(2);
    QCOMPARE(missing["error"]["stage"].get<std::string>(), std::string("failed"));
    QCOMPARE(missing["error"]["message"].get<std::string>(),
             std::string("cannot start /nonexistent/aotstudio-run: No such file or directory"));
}

void TestWorkerPool::eagerServerReadyAndNotReady()
{
    FakeBody body;
    Serve::ServeOptions options;
    options.isolation = Serve::Isolation::Eager;
    // Not ready: its last line on stderr is how its failure is told.
    options.eagerServer = {"/bin/sh", "-c", "echo loading >&2; echo 'no such model' >&2; exit 3"};
    {
        Serve::WorkerPool pool(body, options);
        pool.start();
        const std::string why = pool.waitReady(60000, nullptr);
        QVERIFY2(why.find("exited with status 3 before it was ready: no such model") != std::string::npos, why.c_str());
    }
    // Ready after its first line; answers a line per request; OMP_NUM_THREADS is its share.
    options.eagerServer
        = {"/bin/sh", "-c",
           "echo skipped; echo '{\"ready\": true}'; while read line; do "
           "echo \"{\\\"ok\\\": true, \\\"bucket\\\": \\\"$OMP_NUM_THREADS\\\", \\\"outputs\\\": []}\"; "
           "done"};
    Serve::WorkerPool pool(body, options);
    pool.start();
    QCOMPARE(pool.waitReady(60000, nullptr), std::string());
    pool.submit(job(1, 1));
    const auto done = drain(pool, 1);
    QCOMPARE(done.size(), std::size_t{1});
    QVERIFY2(done[0].response.value("ok", false), done[0].response.dump().c_str());
    QCOMPARE(done[0].response["bucket"].get<std::string>(), std::to_string(std::max(1, Profiler::usableCpus().usable)));
}

void TestWorkerPool::serverAnswersLinesAndDrainsAtEndOfInput()
{
    QTemporaryDir dir;
    const std::string requests = dir.filePath(QStringLiteral("requests.jsonl")).toStdString();
    const std::string responses = dir.filePath(QStringLiteral("responses.jsonl")).toStdString();
    {
        std::ofstream out(requests);
        out << R"({"id": 1, "batch": 2, "seed": 5})"
            << "\n"
            << "not json\n"
            << std::string(Serve::kMaxRequestLineBytes + 10, 'x') << "\n"
            << R"({"id": "x", "sede": 1})"
            << "\n"
            << R"({"id": 3, "batch": 0})"
            << "\n"
            << "\n"
            << R"({"id": 4, "stats": true})"
            << "\n"
            << R"({"id": 5, "input": "refuse"})"
            << "\n"
            << R"({"id": 6, "shutdown": true})"
            << "\n"
            << R"({"id": 7, "batch": 1})"
            << "\n"; // after the shutdown: never read
    }
    const int in = ::open(requests.c_str(), O_RDONLY | O_CLOEXEC);
    const int out = ::open(responses.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    QVERIFY(in >= 0 && out >= 0);
    FakeBody body;
    Serve::ServeOptions options;
    options.inputFd = in;
    options.outputFd = out;
    QCOMPARE(Serve::serve(body, options), 0);
    ::close(in);
    ::close(out);

    std::vector<json> lines;
    std::istringstream text(readFile(responses));
    for (std::string line; std::getline(text, line);)
        lines.push_back(json::parse(line));
    QCOMPARE(lines.size(), std::size_t{8});
    QCOMPARE(lines.back().dump(),
             (json{{"id", 6}, {"ok", true}, {"shutdown", true}}).dump()); // after what was in flight
    std::map<std::string, json> byId;
    for (const auto &l : lines)
        byId[l["id"].dump()] = l;
    QVERIFY(!byId.count("7"));
    QCOMPARE(byId["1"]["outputs"].dump(), json::array({1, true, 5}).dump());
    QCOMPARE(byId["\"x\""]["error"]["code"].get<std::string>(), std::string("bad_request"));
    QVERIFY(byId["\"x\""]["error"]["message"].get<std::string>().find("unknown field \"sede\"") != std::string::npos);
    QVERIFY(byId["3"]["error"]["message"].get<std::string>().find("\"batch\" must be an integer") != std::string::npos);
    QCOMPARE(byId["5"]["error"].dump(),
             Serve::errorJson("refused", "no bucket takes it").dump()); // the worker's, as it said it
    const json &stats = byId["4"]["stats"];
    QCOMPARE(stats["workers"].size(), std::size_t{1});
    QCOMPARE(stats["pid"].get<pid_t>(), ::getpid());
    // Two answers with id null: the line that is not JSON and the oversized one.
    const auto nulls = std::count_if(lines.begin(), lines.end(), [](const json &l) { return l["id"].is_null(); });
    QCOMPARE(nulls, std::ptrdiff_t{2});
    const bool oversized = std::any_of(lines.begin(), lines.end(), [](const json &l) {
        return l["id"].is_null()
            && l["error"]["message"].get<std::string>().find("longer than 1048576 bytes") != std::string::npos;
    });
    QVERIFY(oversized);
}

void TestWorkerPool::parseRequest_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("error"); // a part of the error message; empty: a job
    QTest::newRow("job") << R"({"id": 1, "batch": 4, "seed": 2, "input": "/x.pt"})"
                         << "";
    QTest::newRow("not an object") << "[1, 2]"
                                   << "not a JSON object";
    QTest::newRow("unknown field") << R"({"id": 1, "bacth": 4})"
                                   << "unknown field \"bacth\"";
    QTest::newRow("batch 0") << R"({"batch": 0})"
                             << "\"batch\" must be an integer of at least 1";
    QTest::newRow("batch text") << R"({"batch": "4"})"
                                << "\"batch\" must be an integer of at least 1";
    QTest::newRow("negative seed") << R"({"seed": -1})"
                                   << "\"seed\" must be a non-negative integer";
    QTest::newRow("empty input") << R"({"input": ""})"
                                 << "\"input\" must be the path";
    QTest::newRow("shutdown not bool") << R"({"shutdown": 1})"
                                       << "\"shutdown\" must be true or false";
}

void TestWorkerPool::parseRequest()
{
    QFETCH(QString, line);
    QFETCH(QString, error);
    const Serve::ParsedLine p = Serve::parseRequest(line.toStdString());
    if (error.isEmpty()) {
        QVERIFY2(p.error.is_null(), p.error.dump().c_str());
        QVERIFY(p.job);
        QCOMPARE(p.job->id.get<int>(), 1);
        QCOMPARE(*p.job->request.batch, 4LL);
        QCOMPARE(p.job->request.seed, std::uint64_t{2});
        QCOMPARE(p.job->request.input, std::string("/x.pt"));
        // What a warm worker is sent, and what it reads back.
        const auto back = Serve::WorkRequest::fromJson(p.job->request.toJson());
        QCOMPARE(*back.batch, 4LL);
        QCOMPARE(back.seed, std::uint64_t{2});
        QCOMPARE(back.input, std::string("/x.pt"));
        return;
    }
    QVERIFY(!p.job);
    QCOMPARE(p.error["ok"].get<bool>(), false);
    QCOMPARE(p.error["error"]["stage"].get<std::string>(), std::string("request"));
    const std::string message = p.error["error"]["message"].get<std::string>();
    QVERIFY2(message.find(error.toStdString()) != std::string::npos, message.c_str());
    QVERIFY(Serve::parseRequest(R"({"id": 9, "shutdown": true})").shutdown);
    QVERIFY(Serve::parseRequest(R"({"id": 9, "stats": true})").stats);
}

void TestWorkerPool::tracesReadAndRefuse()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("trace.jsonl")).toStdString();
    std::ofstream(path) << "{\"t_ms\": 20, \"batch\": 2}\n\n{\"t_ms\": 5}\n{\"t_ms\": 10, \"batch\": 1}\n";
    const auto trace = Serve::readTrace(path, 3);
    QCOMPARE(trace.size(), std::size_t{3});
    QCOMPARE(trace[0].tMs, 5.0); // sorted by arrival
    QCOMPARE(*trace[0].batch, 3LL); // the default batch where a line has none
    QCOMPARE(*trace[2].batch, 2LL);
    const auto refused = [&](const std::string &text) {
        std::ofstream(path) << text;
        try {
            Serve::readTrace(path, std::nullopt);
        } catch (const Serve::UsageError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    QVERIFY(refused("{\"t_ms\": 1}\n{\"t_ms\": -1}\n").find("line 2: expected {\"t_ms\"") != std::string::npos);
    QVERIFY(refused("{\"t_ms\": 1, \"rows\": 2}\n").find("line 1: unknown field \"rows\"") != std::string::npos);
    QVERIFY(refused("\n\n").find("no arrivals") != std::string::npos);
    QVERIFY(refused("{\"t_ms\": 1, \"batch\": 0}\n").find("\"batch\" must be an integer") != std::string::npos);

    const auto a = Serve::poissonTrace(50, 2, 7, 1);
    const auto b = Serve::poissonTrace(50, 2, 7, 1);
    QVERIFY(!a.empty());
    QCOMPARE(a.size(), b.size()); // the same seed, the same trace
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].tMs, b[i].tMs);
        QVERIFY(a[i].tMs < 2000 && (i == 0 || a[i].tMs >= a[i - 1].tMs));
    }
    QVERIFY(Serve::poissonTrace(50, 2, 8, 1).front().tMs != a.front().tMs);
}

void TestWorkerPool::eagerServerLineSplitsAndRunsNothing()
{
    QVERIFY(Serve::splitCommandLine(R"(python -m 'a b' "c d" e\ f)")
            == (std::vector<std::string>{"python", "-m", "a b", "c d", "e f"}));
    const auto why = [](const std::string &line) {
        try {
            Serve::splitCommandLine(line);
        } catch (const Serve::UsageError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    QVERIFY(why("run $(touch /tmp/aotstudio-tst-never)").find("command substitution") != std::string::npos);
    QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/aotstudio-tst-never")));
    QVERIFY(why("a | b").find("unquoted |") != std::string::npos);
    QVERIFY(why("'open").find("unmatched quote") != std::string::npos);
    QVERIFY(why("   ").find("no command") != std::string::npos);
    QVERIFY(why("$AOTSTUDIO_TST_UNSET_VARIABLE").find("an unset variable") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
