# SPDX-License-Identifier: GPL-3.0-or-later
"""Soak of `aotstudio-run --serve` (issue 41 item 1; app/run/SERVING.md): a warm worker pool on a
small CPU bundle (sample:mlp, buckets batch 1, 4, 8, pad-safe; exported once with aotstudio-cli
and kept in --work), driven over its Unix socket (loopback only: no TCP port is ever opened) by a
Poisson load at shares of the capacity measured first, with mixed batch sizes and a share of bad
requests, while a chaos thread SIGKILLs and SIGSTOP/SIGCONTs random workers and, with --disk-full,
fills the tmpfs that holds the package cache (the extraction folder) and TMPDIR.

Phases: start and warm-up (every batch size on every worker); capacity (closed loop, 2 requests in
flight per worker, good requests only, no chaos: answers per second); the post-warm-up baseline of
the server's RSS and open descriptors (the server's own `stats` request); then one phase per load
share (--loads, default 0.5,0.9) of --seconds in all, chaos on; a drain; the final stats.

Reported: requests sent, answered, failed with a reason (by stage and kind), lost (sent, never
answered: the target is 0); p50 and p99 of good requests per time window (scheduled arrival to the
answer line read, as the replay times them); the server's RSS and open descriptors over time
against the baseline; workers killed, stopped, died and replaced; the machine verdict the server
computed (core/profiler/machine.h's rules over the soak). With --check, exit 1 when a request was
lost, a good request failed other than by a killed worker, a bad one was answered ok, the pool did
not get back to --workers live workers, descriptors differ from the baseline, or RSS grew past the
baseline by more than --rss-bound-mib (default 16 MiB: the parent holds no per-request state, and
each client connection's read buffer may keep up to one 1 MiB line's capacity). p99 is printed,
never checked.

Why Python in tests/bench: the harness is a client and a chaos monkey (threads, sockets, signals,
/proc), not product code; it prints figures as the other benches do, and CTest runs it as
`soak_serve` (60 s of load) and `soak_serve_long` (30 minutes, slow tier).

  .venv/bin/python tests/bench/soak_serve.py --run build/dev/bin/aotstudio-run
      --cli build/dev/bin/aotstudio-cli --work build/dev/soak [--seconds 60] [--workers 2]
      [--loads 0.5,0.9] [--bad-share 0.1] [--chaos-every 2.0] [--disk-full] [--json OUT] [--check]
Exit status: 0 fine, 1 a --check failed, 2 the set-up failed (export, server start)."""

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BATCHES = (1, 2, 3, 4, 5, 6, 7, 8)  # within the bundle's range: 1, 4 and 8 exact, the others padded
BAD_KINDS = ("shape", "dtype", "malformed", "oversized")
MiB = 1 << 20


def percentile(values, q):
    """numpy's default (linear) percentile of `values` at q in [0, 100]; None when empty."""
    if not values:
        return None
    v = sorted(values)
    pos = (len(v) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def ensure_bundle(cli, work):
    """The sample:mlp bundle and two bad input files under `work`, made once and kept."""
    bundle = os.path.join(work, "mlp-bundle")
    if not os.path.isfile(os.path.join(bundle, "manifest.json")):
        os.makedirs(work, exist_ok=True)
        shutil.rmtree(bundle, ignore_errors=True)
        cmd = [cli, "export", "--model", "sample:mlp", "--buckets", "batch=1,4,8", "--pad-safe",
               "--cold-start-runs", "1", "--out", bundle]
        print("soak: exporting the bundle once:", " ".join(cmd), flush=True)
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1200)
        if r.returncode != 0:
            raise SystemExit(f"soak: the export failed (exit {r.returncode}): {r.stdout[-3000:]}")
    inputs = {}
    for kind, expr in (("dtype", "torch.randn(2, 64, dtype=torch.float64)"),
                       ("shape", "torch.randn(2, 32)")):
        path = os.path.join(work, f"bad-{kind}.pt")
        if not os.path.isfile(path):
            tmp = path + ".tmp"
            subprocess.run([sys.executable, "-c",
                            f"import sys, torch; torch.save([{expr}], sys.argv[1])", tmp], check=True)
            os.replace(tmp, path)
        inputs[kind] = path
    return bundle, inputs


class Server:
    """aotstudio-run --serve on a socket in a private folder; with `disk_mib`, inside a user and
    mount namespace (unshare -rm, no root needed) whose tmpfs of that size holds the package cache
    and TMPDIR."""

    def __init__(self, run, bundle, workers, tmp, disk_mib=0):
        self.sock_path = os.path.join(tmp, "serve", "serve.sock")
        self.err_path = os.path.join(tmp, "server.err")
        self.disk = os.path.join(tmp, "disk") if disk_mib else None
        env = dict(os.environ)
        cmd = [run, "--serve", bundle, "--workers", str(workers), "--socket", self.sock_path]
        if self.disk:
            os.makedirs(self.disk)
            env["AOTSTUDIO_CACHE_DIR"] = os.path.join(self.disk, "cache")
            env["TMPDIR"] = os.path.join(self.disk, "tmp")
            script = ('mount -t tmpfs -o size="$1"m tmpfs "$2" && mkdir -p "$2/cache" "$2/tmp" && shift 2 && exec "$@"')
            cmd = ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh",
                   str(disk_mib), self.disk, *cmd]
        self.err = open(self.err_path, "wb")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.err, env=env)
        deadline = time.monotonic() + 120
        while not os.path.exists(self.sock_path):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"soak: the server did not start: {self.last_words()}")
            time.sleep(0.05)

    def last_words(self):
        try:
            with open(self.err_path, "rb") as f:
                return f.read()[-2000:].decode(errors="replace")
        except OSError:
            return ""

    def connect(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(self.sock_path)
        return s

    def disk_path(self, name):
        """A path inside the server's tmpfs, seen from outside its mount namespace."""
        return f"/proc/{self.proc.pid}/root{self.disk}/{name}"

    def stop(self, timeout=30):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err.close()
        return self.proc.returncode


class Control:
    """A connection for `stats` requests only, answered one at a time."""

    def __init__(self, server):
        self.sock = server.connect()
        self.lines = self.sock.makefile("rb")
        self.lock = threading.Lock()
        self.next = 0

    def stats(self):
        with self.lock:
            self.next += 1
            self.sock.sendall(json.dumps({"id": f"stats-{self.next}", "stats": True}).encode() + b"\n")
            line = self.lines.readline()
        if not line:
            raise ConnectionError("the server closed the stats connection")
        return json.loads(line)["stats"]


class Load:
    """Client connections, each with a reader thread; every request and its answer by id."""

    def __init__(self, server, connections, inputs):
        self.inputs = inputs
        self.lock = threading.Lock()
        self.sent = {}  # id -> {"kind", "t", "conn", "batch"}
        self.answers = {}  # id -> (t_answer, response)
        self.null_expected = [0] * connections  # malformed/oversized lines: answered with id null
        self.null_answers = [[] for _ in range(connections)]
        self.extra = []  # answers to ids never sent, or twice
        self.socks = [server.connect() for _ in range(connections)]
        self.readers = [threading.Thread(target=self._read, args=(i,), daemon=True) for i in range(connections)]
        for t in self.readers:
            t.start()
        self.next_id = 0
        self.rr = 0

    def _read(self, conn):
        f = self.socks[conn].makefile("rb")
        for line in f:
            now = time.monotonic()
            r = json.loads(line)
            with self.lock:
                rid = r.get("id")
                if rid is None:
                    self.null_answers[conn].append(r)
                elif rid in self.sent and rid not in self.answers:
                    self.answers[rid] = (now, r)
                else:
                    self.extra.append(r)

    def send(self, kind, t_sched, phase, rng):
        """One request of `kind` ("good" or one of BAD_KINDS), timed from `t_sched`."""
        self.next_id += 1
        rid = self.next_id
        conn = self.rr % len(self.socks)
        self.rr += 1
        batch = rng.choice(BATCHES)
        if kind == "good":
            line = json.dumps({"id": rid, "batch": batch, "seed": rid})
        elif kind == "shape":  # alternately a batch past the largest bucket and a [2, 32] input file
            line = json.dumps({"id": rid, "batch": 64} if rid % 2 else {"id": rid, "input": self.inputs["shape"]})
        elif kind == "dtype":
            line = json.dumps({"id": rid, "input": self.inputs["dtype"]})
        elif kind == "malformed":
            line = '{"id": %d, "batch": ' % rid
        else:  # oversized: past kMaxRequestLineBytes (1 MiB)
            line = json.dumps({"id": rid, "batch": 1, "pad": "x" * (MiB + 4096)})
        with self.lock:
            if kind in ("malformed", "oversized"):
                self.null_expected[conn] += 1
            else:
                self.sent[rid] = {"kind": kind, "t": t_sched, "conn": conn, "batch": batch, "phase": phase}
        self.socks[conn].sendall(line.encode() + b"\n")

    def outstanding(self):
        with self.lock:
            missing = len(self.sent) - len(self.answers)
            nulls = sum(max(0, e - len(a)) for e, a in zip(self.null_expected, self.null_answers))
        return missing + nulls

    def close(self):
        for s in self.socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


class Chaos(threading.Thread):
    """Every `every` s on average (exponential gaps): SIGKILL a random worker, or SIGSTOP one and
    SIGCONT it 0.2 to 1.5 s later; with a disk, fill the server's tmpfs for 1 to 3 s."""

    def __init__(self, server, control, every, seed, disk):
        super().__init__(daemon=True)
        self.server, self.control, self.every, self.disk = server, control, every, disk
        self.rng = random.Random(seed)
        self.stop_event = threading.Event()
        self.counts = {"sigkill": 0, "sigstop": 0, "disk_full": 0}
        self.stopped = set()
        self.notes = []

    def run(self):
        while not self.stop_event.wait(self.rng.expovariate(1.0 / self.every)):
            try:
                pids = self.control.stats()["workers"]
            except (OSError, ValueError, KeyError) as e:
                self.notes.append(f"stats failed: {e}")
                continue
            action = self.rng.choice(("sigkill", "sigstop", "disk_full") if self.disk else ("sigkill", "sigstop"))
            if action == "disk_full":
                self._fill()
                continue
            if not pids:
                continue
            pid = self.rng.choice(pids)
            try:
                if action == "sigkill":
                    os.kill(pid, signal.SIGKILL)
                else:
                    os.kill(pid, signal.SIGSTOP)
                    self.stopped.add(pid)
                    self.stop_event.wait(self.rng.uniform(0.2, 1.5))
                    os.kill(pid, signal.SIGCONT)
                    self.stopped.discard(pid)
                self.counts[action] += 1
            except ProcessLookupError:
                self.stopped.discard(pid)

    def _fill(self):
        path = self.server.disk_path("fill")
        try:
            with open(path, "wb") as f:
                chunk = b"\0" * MiB
                while True:
                    f.write(chunk)
                    f.flush()
        except OSError:
            pass  # ENOSPC: full
        self.counts["disk_full"] += 1
        self.stop_event.wait(self.rng.uniform(1.0, 3.0))
        try:
            os.unlink(path)
        except OSError as e:
            self.notes.append(f"cannot remove {path}: {e}")

    def finish(self):
        self.stop_event.set()
        self.join(10)
        for pid in list(self.stopped):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


class Sampler(threading.Thread):
    """The server's stats every `period` s: RSS, descriptors, workers."""

    def __init__(self, control, period, t0):
        super().__init__(daemon=True)
        self.control, self.period, self.t0 = control, period, t0
        self.samples = []
        self.stop_event = threading.Event()

    def run(self):
        while not self.stop_event.wait(self.period):
            try:
                s = self.control.stats()
            except (OSError, ValueError, KeyError):
                continue
            self.samples.append({"t_s": round(time.monotonic() - self.t0, 1), "rss_bytes": s["rss_bytes"],
                                 "open_fds": s["open_fds"], "workers": len(s["workers"]),
                                 "replaced": s["workers_replaced"], "queued": s["queued"]})

    def finish(self):
        self.stop_event.set()
        self.join(10)


def warm_up(load, workers, rng, timeout=120):
    """Every batch size a few times per worker, answered before the next round."""
    for _ in range(2 * workers):
        for b in BATCHES:
            load.send("good", time.monotonic(), "warm-up", random.Random(b))
    deadline = time.monotonic() + timeout
    while load.outstanding() and time.monotonic() < deadline:
        time.sleep(0.05)


def measure_capacity(load, workers, seconds, rng):
    """Closed loop, 2 good requests in flight per worker: answers per second."""
    t0 = time.monotonic()
    with load.lock:
        first = len(load.answers)
    while time.monotonic() - t0 < seconds:
        while load.outstanding() < 2 * workers:
            load.send("good", time.monotonic(), "capacity", rng)
        time.sleep(0.0005)
    deadline = time.monotonic() + 60
    while load.outstanding() and time.monotonic() < deadline:
        time.sleep(0.01)
    with load.lock:
        answered = len(load.answers) - first
    return answered / (time.monotonic() - t0)


def poisson_phase(load, rate, seconds, bad_share, rng, phase, max_requests):
    """Arrivals at exponential gaps of mean 1/rate s for `seconds`; a late sender catches up (the
    latency counts from the scheduled arrival)."""
    t0 = time.monotonic()
    t_next = t0
    n = 0
    while t_next - t0 < seconds and n < max_requests:
        now = time.monotonic()
        if now < t_next:
            time.sleep(min(t_next - now, 0.01))
            continue
        kind = rng.choice(BAD_KINDS) if rng.random() < bad_share else "good"
        load.send(kind, t_next, phase, rng)
        n += 1
        t_next += rng.expovariate(rate)
    return n


def windows(load, t0, width):
    """p50/p99 (ms) of good answered requests per window of `width` s of scheduled arrival."""
    rows = {}
    with load.lock:
        for rid, req in load.sent.items():
            if req["kind"] != "good" or req["phase"] in ("warm-up", "capacity") or rid not in load.answers:
                continue
            t_ans, r = load.answers[rid]
            w = int((req["t"] - t0) // width)
            rows.setdefault(w, {"lat": [], "phase": req["phase"], "failed": 0})
            if r.get("ok"):
                rows[w]["lat"].append((t_ans - req["t"]) * 1000.0)
            else:
                rows[w]["failed"] += 1
    out = []
    for w in sorted(rows):
        lat = rows[w]["lat"]
        out.append({"from_s": w * width, "phase": rows[w]["phase"], "answered_ok": len(lat),
                    "failed": rows[w]["failed"], "p50_ms": percentile(lat, 50), "p99_ms": percentile(lat, 99)})
    return out


def tally(load):
    """Sent, answered, failed by stage/kind, lost, and answers that contradict their request."""
    sent = {}
    failed = {}
    wrong = []
    lost = []
    with load.lock:
        for rid, req in load.sent.items():
            if req["phase"] in ("warm-up", "capacity"):
                continue
            sent[req["kind"]] = sent.get(req["kind"], 0) + 1
            if rid not in load.answers:
                lost.append(rid)
                continue
            r = load.answers[rid][1]
            if r.get("ok"):
                if req["kind"] != "good":
                    wrong.append(f"request {rid} ({req['kind']}) answered ok")
                continue
            err = r.get("error") or {}
            key = f"{req['kind']}: {err.get('stage')}"
            failed[key] = failed.get(key, 0) + 1
            if not err.get("message"):
                wrong.append(f"request {rid} failed without a reason: {r}")
            if req["kind"] == "good" and err.get("stage") != "worker":
                wrong.append(f"good request {rid} failed other than by a dead worker: {err}")
            if req["kind"] in ("shape", "dtype") and err.get("stage") not in ("refused", "worker"):
                wrong.append(f"{req['kind']} request {rid} failed at stage {err.get('stage')}, not refused: {err}")
        nulls_expected = sum(load.null_expected)
        nulls = sum(len(a) for a in load.null_answers)
        for conn, answers in enumerate(load.null_answers):
            for r in answers:
                if (r.get("error") or {}).get("stage") != "request":
                    wrong.append(f"an answer with id null that is not a request error: {r}")
        extra = list(load.extra)
    return sent, failed, wrong, lost, nulls_expected, nulls, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", required=True, help="aotstudio-run")
    ap.add_argument("--cli", required=True, help="aotstudio-cli (exports the bundle once)")
    ap.add_argument("--work", required=True, help="folder for the bundle (kept) and the run's files")
    ap.add_argument("--seconds", type=float, default=60, help="of load in all, split over --loads")
    ap.add_argument("--max-requests", type=int, default=2_000_000, help="per load phase")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--connections", type=int, default=4)
    ap.add_argument("--loads", default="0.5,0.9", help="shares of the measured capacity")
    ap.add_argument("--capacity-seconds", type=float, default=8)
    ap.add_argument("--bad-share", type=float, default=0.1)
    ap.add_argument("--chaos-every", type=float, default=2.0, help="mean seconds between chaos actions")
    ap.add_argument("--disk-full", action="store_true", help="tmpfs under the extraction folder, filled by the chaos")
    ap.add_argument("--disk-mib", type=int, default=64)
    ap.add_argument("--window", type=float, default=0, help="seconds per latency window (default: --seconds / 12)")
    ap.add_argument("--rss-bound-mib", type=float, default=16)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--json", help="write the report here too")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    a = ap.parse_args()
    loads = [float(x) for x in a.loads.split(",")]
    rng = random.Random(a.seed)
    hard_deadline = time.monotonic() + a.seconds * 1.5 + 600  # nothing runs past this
    bundle, inputs = ensure_bundle(a.cli, a.work)
    tmp = tempfile.mkdtemp(prefix="soak-", dir=a.work)
    disk_note = None
    disk_mib = 0
    if a.disk_full:
        probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                                f"mount -t tmpfs -o size=1m tmpfs '{tmp}'"], capture_output=True, text=True)
        if probe.returncode == 0:
            disk_mib = a.disk_mib
        else:
            disk_note = ("disk-full chaos skipped: a tmpfs cannot be mounted without root here "
                         f"(unshare -rm: {probe.stderr.strip()[-200:]})")
            print("soak:", disk_note, flush=True)
    server = Server(a.run, bundle, a.workers, tmp, disk_mib)
    report = {"bundle": bundle, "workers": a.workers, "connections": a.connections, "seed": a.seed,
              "bad_share": a.bad_share, "chaos_every_s": a.chaos_every, "disk_full": bool(disk_mib),
              "disk_note": disk_note}
    control = load = chaos = sampler = None
    status = 0
    try:
        control = Control(server)
        load = Load(server, a.connections, inputs)
        warm_up(load, a.workers, rng)
        capacity = measure_capacity(load, a.workers, a.capacity_seconds, rng)
        report["capacity_per_s"] = capacity
        time.sleep(1)
        base = control.stats()
        report["baseline"] = {"rss_bytes": base["rss_bytes"], "open_fds": base["open_fds"]}
        print(f"soak: capacity {capacity:.0f} requests/s ({a.workers} workers, closed loop, good requests); "
              f"baseline RSS {base['rss_bytes'] / MiB:.1f} MiB, {base['open_fds']} open fds", flush=True)
        t0 = time.monotonic()
        sampler = Sampler(control, max(1.0, a.seconds / 60), t0)
        sampler.start()
        chaos = Chaos(server, control, a.chaos_every, a.seed + 1, bool(disk_mib))
        chaos.start()
        for share in loads:
            rate = share * capacity
            n = poisson_phase(load, rate, a.seconds / len(loads), a.bad_share, rng, f"{share:.0%}", a.max_requests)
            print(f"soak: {share:.0%} of capacity ({rate:.0f}/s): {n} requests sent", flush=True)
            if time.monotonic() > hard_deadline:
                break
        chaos.finish()
        drain_deadline = min(hard_deadline, time.monotonic() + 60)
        while load.outstanding() and time.monotonic() < drain_deadline:
            time.sleep(0.05)
        report["drain_s"] = round(time.monotonic() - t0 - a.seconds, 2)
        # Back to rest: replacements forked, every worker idle.
        settle = time.monotonic() + 30
        while time.monotonic() < settle:
            s = control.stats()
            if len(s["workers"]) == a.workers and s["in_flight"] == 0 and s["queued"] == 0:
                break
            time.sleep(0.2)
        time.sleep(1)
        sampler.finish()
        final = control.stats()
        sent, failed, wrong, lost, nulls_expected, nulls, extra = tally(load)
        # malformed/oversized are counted by the null-id answers they get (they carry no id).
        malformed_sent = nulls_expected
        lost_total = len(lost) + max(0, nulls_expected - nulls)
        answered = sum(sent.values()) - len(lost) + nulls
        report.update({
            "sent": {**{k: v for k, v in sent.items() if v}, "malformed_or_oversized": malformed_sent},
            "sent_total": sum(sent.values()) + malformed_sent,
            "answered": answered,
            "failed_with_reason": failed,
            "lost": lost_total, "lost_ids": lost[:20],
            "contradictions": wrong[:20], "unexpected_answers": extra[:5],
            "windows": windows(load, t0, a.window or max(1.0, a.seconds / 12)),
            "samples": sampler.samples,
            "final": {"rss_bytes": final["rss_bytes"], "open_fds": final["open_fds"],
                      "workers_alive": len(final["workers"])},
            "chaos": chaos.counts, "chaos_notes": chaos.notes[:5],
            "workers_died": final["workers_died"], "workers_replaced": final["workers_replaced"],
            "measurement": final["measurement"],
        })
        rss_growth = final["rss_bytes"] - base["rss_bytes"]
        checks = {
            "no request lost": lost_total == 0,
            "every answer fits its request": not wrong and not extra,
            f"{a.workers} workers alive at the end": len(final["workers"]) == a.workers,
            "every dead worker replaced": final["workers_replaced"] >= final["workers_died"],
            "open fds back to the baseline": final["open_fds"] == base["open_fds"],
            f"RSS within {a.rss_bound_mib:g} MiB of the baseline": rss_growth <= a.rss_bound_mib * MiB,
        }
        report["checks"] = checks
        print_report(report, rss_growth)
        if a.check and not all(checks.values()):
            status = 1
    finally:
        if chaos:
            chaos.finish()
        if sampler:
            sampler.finish()
        if load:
            load.close()
        rc = server.stop()
        report["server_exit"] = rc
        if rc not in (0, None):
            print(f"soak: the server exited with status {rc}: {server.last_words()}", flush=True)
            status = status or 1
        shutil.rmtree(tmp, ignore_errors=True)
        if a.json:
            with open(a.json + ".tmp", "w") as f:
                json.dump(report, f, indent=1, default=str)
            os.replace(a.json + ".tmp", a.json)
    return status


def print_report(r, rss_growth):
    m = r["measurement"]
    print(f"soak: sent {r['sent_total']} ({', '.join(f'{k} {v}' for k, v in r['sent'].items())}); "
          f"answered {r['answered']}; lost {r['lost']}; drained {r['drain_s']} s after the load", flush=True)
    for k, v in sorted(r["failed_with_reason"].items()):
        print(f"soak:   failed with a reason: {k}: {v}")
    for c in r["contradictions"]:
        print(f"soak:   CONTRADICTION: {c}")
    print("soak: window  phase  ok      failed  p50_ms   p99_ms")
    for w in r["windows"]:
        p50 = "-" if w["p50_ms"] is None else f"{w['p50_ms']:.2f}"
        p99 = "-" if w["p99_ms"] is None else f"{w['p99_ms']:.2f}"
        print(f"soak: {w['from_s']:6.1f}s  {w['phase']:5}  {w['answered_ok']:6}  {w['failed']:6}  {p50:>7}  {p99:>7}")
    base = r["baseline"]
    print("soak: server over time (t_s: RSS MiB, open fds, workers alive, replaced so far, queued):")
    print("soak:   " + "; ".join(f"{s['t_s']}: {s['rss_bytes'] / MiB:.1f}, {s['open_fds']}, {s['workers']}, "
                                 f"{s['replaced']}, {s['queued']}" for s in r["samples"]))
    print(f"soak: baseline RSS {base['rss_bytes'] / MiB:.1f} MiB, fds {base['open_fds']}; final RSS "
          f"{r['final']['rss_bytes'] / MiB:.1f} MiB ({rss_growth / 1024:+.0f} KiB), fds {r['final']['open_fds']}")
    print(f"soak: chaos {r['chaos']}; workers died {r['workers_died']}, replaced {r['workers_replaced']}, "
          f"alive at the end {r['final']['workers_alive']}")
    load = m.get("load", {})
    print(f"soak: machine verdict {m.get('verdict')} (load average {load.get('loadavg1')}, others runnable "
          f"{load.get('other_runnable_mean')}); " + "; ".join(m.get("reasons", [])))
    for name, ok in r["checks"].items():
        print(f"soak: check {'ok  ' if ok else 'FAIL'} {name}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
