#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Target environments (issue 37 item 1): a Python + torch (+ torchao) + CUDA combination with an
engine built for it, in a venv of its own. `aotstudio-cli target ...` runs this script (standard
library only, Python 3.11+); it can be run directly as well:

    tools/target.py add NAME --torch 2.11.0 [--python 3.11] [--torchao V] [--cuda cu130]
    tools/target.py add zerogpu                  (the preset: PRESETS below)
    tools/target.py list
    tools/target.py remove NAME
    tools/target.py start-time NAME [--runs 5]   (spawn to hello of the target's engine, seconds)

Where targets live: $AOTSTUDIO_TARGETS_DIR, else $XDG_DATA_HOME/aotstudio/targets, else
~/.local/share/aotstudio/targets; one folder per target:

    NAME/target.json   what it is (TARGET_FORMAT: python, torch, torchao, cuda, engine paths, created)
    NAME/venv/         the venv: torch from PyPI, the build deps, the engine wheel built against it

`add` builds in TARGETS/.partial-<pid> and renames it into place as its last step; a failure,
Ctrl-C (SIGINT) or SIGTERM removes the partial folder (renamed to .removing-<pid> first, so that
even a kill during the removal leaves nothing `list` shows); every command first removes the
.partial-*/.removing-* folders of processes that no longer exist. The engine is built by
tools/build-wheel.sh in build/targets/NAME of this checkout (ccache serves a rebuild).

Output: progress lines "target: ..." on stderr; on stdout one JSON line, the envelope of
core/protocol/envelope.h: {"ok": true, "result": {...}} or {"ok": false, "error": {"stage",
"code", "message", "hint"}}. Exit status 0, 1 (failed), 2 (bad command line), 130 (interrupted).
"""

import argparse
import datetime
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_FORMAT = 1
# The newest torch ZeroGPU supports (Hugging Face's ZeroGPU page, 2026: PyTorch 2.8 to 2.11 on
# Python 3.10 / 3.12); PyPI's torch 2.11 is the CUDA 13.0 build.
PRESETS = {"zerogpu": {"torch": "2.11.0", "python": "3.12", "cuda": "cu130", "torchao": None}}
# The build dependencies of the engine wheel, pinned as tools/requirements.txt / constraints.txt
# pin them; pybind11 from PyPI (Debian's 2.10 predates Python 3.12), the newest 2.x.
BUILD_DEPS = ["scikit-build-core==1.1.2", "numpy==2.4.6", "pybind11==2.13.6"]
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
TORCH_RE = re.compile(r"^\d+\.\d+\.\d+$")
PYTHON_RE = re.compile(r"^3\.\d{1,2}$")
CUDA_RE = re.compile(r"^(cu\d{3}|cpu)$")
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_CANCELLED = 0, 1, 2, 130


class TargetError(Exception):
    """A refusal: `code` (FORMAT.md "Error codes"), a one-line `message`, a `hint`."""

    def __init__(self, code, message, hint="", stage="target"):
        super().__init__(message)
        self.code, self.message, self.hint, self.stage = code, message, hint, stage


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived: clean up and exit 130."""


def say(text):
    """One progress line on stderr."""
    print(f"target: {text}", file=sys.stderr, flush=True)


def targets_dir(env=None):
    """The folder that holds the targets: $AOTSTUDIO_TARGETS_DIR, else $XDG_DATA_HOME/aotstudio/targets,
    else ~/.local/share/aotstudio/targets (not created here)."""
    env = os.environ if env is None else env
    if env.get("AOTSTUDIO_TARGETS_DIR"):
        return os.path.abspath(env["AOTSTUDIO_TARGETS_DIR"])
    data = env.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "aotstudio", "targets")


def check_name(name):
    """Raise TargetError (usage) when `name` is not a target name (letters, digits, . _ -)."""
    if not NAME_RE.match(name or ""):
        raise TargetError("usage", f"'{name}' is not a target name",
                          "use letters, digits, '.', '_' and '-' (at most 64), starting with a letter or digit")


def check_versions(torch, python, cuda, torchao):
    """Raise TargetError (usage) for a malformed --torch X.Y.Z, --python 3.N, --cuda cuNNN|cpu or --torchao."""
    if not TORCH_RE.match(torch or ""):
        raise TargetError("usage", f"--torch '{torch}' is not a version X.Y.Z (e.g. 2.11.0)")
    if not PYTHON_RE.match(python or ""):
        raise TargetError("usage", f"--python '{python}' is not a version 3.N (e.g. 3.11)")
    if cuda is not None and not CUDA_RE.match(cuda):
        raise TargetError("usage", f"--cuda '{cuda}' is not a CUDA variant: write cuNNN (e.g. cu130) or cpu")
    if torchao is not None and not re.match(r"^\d+\.\d+\.\d+$", torchao):
        raise TargetError("usage", f"--torchao '{torchao}' is not a version X.Y.Z (e.g. 0.17.0)")


def read_target(folder):
    """The target.json of `folder` as a dict with `name` and `path` added. Raises TargetError
    (not_found) when it is missing, (bad_request) when it is not a target.json this script wrote:
    not JSON, another `format`, a field missing."""
    path = os.path.join(folder, "target.json")
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise TargetError("not_found", f"{path} does not exist", "create the target with aotstudio-cli target add")
    except (OSError, ValueError) as e:
        raise TargetError("bad_request", f"cannot read {path}: {e}", "remove the target and add it again")
    if not isinstance(data, dict) or data.get("format") != TARGET_FORMAT:
        raise TargetError("bad_request", f"{path} is not a target.json of format {TARGET_FORMAT}",
                          "remove the target and add it again")
    for key in ("python", "torch", "engine", "cli", "venv_python"):
        if not isinstance(data.get(key), str):
            raise TargetError("bad_request", f"{path} has no '{key}'", "remove the target and add it again")
    data["name"] = os.path.basename(os.path.normpath(folder))
    data["path"] = folder
    return data


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale(base):
    """Remove the .partial-<pid> and .removing-<pid> folders under `base` whose process is gone
    (an add or remove that was killed). Returns the names removed."""
    removed = []
    for path in glob.glob(os.path.join(base, ".partial-*")) + glob.glob(os.path.join(base, ".removing-*")):
        m = re.search(r"\.(?:partial|removing)-(\d+)$", path)
        if not m or (int(m.group(1)) != os.getpid() and _pid_alive(int(m.group(1)))):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(os.path.basename(path))
    return removed


def discard(path):
    """Remove the folder `path` so that nothing of it is listed even if this process dies meanwhile:
    renamed to .removing-<pid> beside it first (one rename), then deleted."""
    if not os.path.lexists(path):
        return
    gone = os.path.join(os.path.dirname(path), f".removing-{os.getpid()}")
    if os.path.exists(gone):
        shutil.rmtree(gone, ignore_errors=True)
    try:
        os.rename(path, gone)
    except OSError:
        gone = path
    shutil.rmtree(gone, ignore_errors=True)


def _python_ok(exe, version):
    """(real executable, None) when `exe` is Python `version` with a shared libpython and venv, else
    (None, why)."""
    probe = ("import sys, sysconfig, venv, ensurepip; print(sys.executable); "
             "print('%d.%d' % sys.version_info[:2]); print(sysconfig.get_config_var('Py_ENABLE_SHARED') or 0)")
    try:
        out = subprocess.run([exe, "-c", probe], capture_output=True, text=True, timeout=60)
    except OSError as e:
        return None, str(e)
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["exit status %d" % out.returncode])[-1]
        return None, last
    real, ver, shared = (out.stdout.split("\n") + ["", "", ""])[:3]
    if ver != version:
        return None, f"is Python {ver}"
    if shared.strip() != "1":
        return None, "has no shared libpython (the engine embeds it)"
    return real, None


def python_candidates(version, env=None):
    """Where a Python `version` is looked for, in order: python3.N on PATH (a pyenv shim too),
    /usr/bin, /usr/local/bin, pyenv's versions, $AOTSTUDIO_TARGET_PYTHON when set (first)."""
    env = os.environ if env is None else env
    out = []
    if env.get("AOTSTUDIO_TARGET_PYTHON"):
        out.append(env["AOTSTUDIO_TARGET_PYTHON"])
    on_path = shutil.which(f"python{version}", path=env.get("PATH"))
    if on_path:
        out.append(on_path)
    out += [f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    root = env.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
    out += sorted(glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", f"python{version}")), reverse=True)
    return out


def find_python(version, env=None):
    """The path of a Python `version` (3.N) that can host a target (shared libpython, venv).
    Raises TargetError (not_found) naming the version and every place tried."""
    env = os.environ if env is None else env
    tried = []
    if not shutil.which(f"python{version}", path=env.get("PATH")):
        tried.append(f"python{version} on PATH (none)")
    root = env.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
    if not glob.glob(os.path.join(root, "versions", f"{version}.*")):
        tried.append(f"{root}/versions/{version}.* (none)")
    for exe in python_candidates(version, env):
        if not os.path.exists(exe):
            tried.append(f"{exe} (absent)")
            continue
        real, why = _python_ok(exe, version)
        if real:
            return real
        tried.append(f"{exe} ({why})")
    apt = "Debian 12's apt has python3.11 only" if version != "3.11" else "apt install python3.11-dev python3.11-venv"
    raise TargetError(
        "not_found",
        f"no Python {version} with a shared libpython on this machine; tried: {', '.join(tried) or 'nothing'}",
        f"{apt}, and PyPI ships no CPython: install one (e.g. PYTHON_CONFIGURE_OPTS=--enable-shared pyenv install "
        f"{version}), name it with AOTSTUDIO_TARGET_PYTHON, or use --python 3.11")


class Runner:
    """Runs the children of one command in their own process group, so that an interrupt of this
    script stops them (SIGTERM, then SIGKILL after 5 s) before the partial folder is removed."""

    def __init__(self):
        self.child = None

    def run(self, argv, env=None, on_line=None):
        """Run `argv`; every line of its merged stdout/stderr goes to `on_line` (when given).
        Returns (exit status, the output's lines)."""
        lines = []
        self.child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      env=env, text=True, errors="replace", process_group=0)
        try:
            for line in self.child.stdout:
                line = line.rstrip("\n")
                lines.append(line)
                if on_line:
                    on_line(line)
            rc = self.child.wait()
        except BaseException:
            self.stop()  # an interrupt or an error while it runs: it goes first
            raise
        finally:
            self.child = None
        return rc, lines

    def stop(self):
        child = self.child
        if child is None or child.poll() is not None:
            return
        try:
            os.killpg(child.pid, signal.SIGTERM)
            child.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            # SIGTERM ignored (a disposition inherited from whoever started us) or no group: kill
            # the group, and reap the child so that nothing of it is left.
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except OSError:
                child.kill()
            child.wait()


def pip_failure(lines, what):
    """One line from pip's output: what it could not find or do, for `what` (e.g. 'torch 9.9.9')."""
    for key in ("Could not find a version that satisfies", "No matching distribution", "ERROR:"):
        for line in lines:
            if key in line:
                line = line.replace("ERROR: ", "").strip()
                m = re.search(r"\(from versions: ([^)]*)\)", line)
                if m:
                    versions = [v.strip() for v in m.group(1).split(",")]
                    short = versions if len(versions) <= 6 else ["..."] + versions[-6:]
                    line = line.replace(m.group(0), f"(from versions: {', '.join(short)})")
                return line
    return (lines or ["no output"])[-1].strip()


def retag_wheel(wheel, torch, python, torchao):
    """Rewrite the built wheel's METADATA in place: `Requires-Dist: torch==torch`, `Requires-Python:
    ==python.*`, torchao pinned to `torchao` in the quant extra when given, and RECORD's hashes of it
    (the wheel links exactly that torch; pyproject.toml names the release's)."""
    import base64
    import hashlib
    tmp = wheel + ".tmp"
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        names = src.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        record_name = next(n for n in names if n.endswith(".dist-info/RECORD"))
        meta = src.read(meta_name).decode()
        meta = re.sub(r"(?m)^Requires-Dist: torch==\S+", f"Requires-Dist: torch=={torch}", meta)
        meta = re.sub(r"(?m)^Requires-Python: .*$", f"Requires-Python: =={python}.*", meta)
        if torchao:
            meta = re.sub(r"(?m)^(Requires-Dist: torchao)==[^;\s]+", rf"\g<1>=={torchao}", meta)
        data = meta.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record = []
        for row in src.read(record_name).decode().splitlines():
            if row.startswith(meta_name + ","):
                row = f"{meta_name},sha256={digest},{len(data)}"
            record.append(row)
        for info in src.infolist():
            if info.filename == meta_name:
                dst.writestr(info, data)
            elif info.filename == record_name:
                dst.writestr(info, "\n".join(record) + "\n")
            else:
                dst.writestr(info, src.read(info.filename))
    os.replace(tmp, wheel)


def measure_hello(engine, env):
    """Seconds from spawning `engine --serve` to its first protocol line (the hello), and the hello."""
    t0 = time.monotonic()
    proc = subprocess.Popen([engine, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        line = proc.stdout.readline()
        seconds = time.monotonic() - t0
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    try:
        hello = json.loads(line)
    except ValueError:
        raise TargetError("internal", f"{engine} --serve did not answer with a hello (it printed {line[:200]!r})",
                          "run it by hand to see why")
    return seconds, hello


def engine_env(target_python, libdir):
    """The environment a target's executables run in: its interpreter (AOTSTUDIO_PYTHON), its libpython
    folder first on LD_LIBRARY_PATH when that is not a system one, nothing of another venv's."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV")}
    env["AOTSTUDIO_PYTHON"] = target_python
    if libdir and not libdir.startswith(("/usr/lib", "/lib")):
        env["LD_LIBRARY_PATH"] = os.pathsep.join([libdir] + [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p])
    return env


def _fix_paths(venv, old, new):
    """Point the venv's scripts (shebangs, activate) at the folder it will have after the rename."""
    for path in glob.glob(os.path.join(venv, "bin", "*")):
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if old.encode() in data and b"\0" not in data[:1024]:
            with open(path, "wb") as f:
                f.write(data.replace(old.encode(), new.encode()))


def add(args, runner):
    """`add`: the whole target in TARGETS/.partial-<pid>, renamed to TARGETS/NAME at the end. Returns the
    target.json written (with name and path)."""
    started = time.monotonic()
    base = targets_dir()
    final = os.path.join(base, args.name)
    if os.path.lexists(final):
        raise TargetError("bad_request", f"target '{args.name}' exists ({final})",
                          f"remove it first: aotstudio-cli target remove {args.name}")
    if not os.path.isfile(os.path.join(ROOT, "tools", "build-wheel.sh")):
        raise TargetError("not_found", f"{ROOT} is not an AOT Studio source checkout (no tools/build-wheel.sh)",
                          "a target's engine is built from the sources: run target add from a checkout")
    base_python = find_python(args.python)
    say(f"Python {args.python}: {base_python}")
    os.makedirs(base, exist_ok=True)
    partial = os.path.join(base, f".partial-{os.getpid()}")
    timings = {}
    try:
        os.mkdir(partial)
        venv = os.path.join(partial, "venv")
        t = time.monotonic()
        say(f"creating the venv ({base_python} -m venv)")
        rc, lines = runner.run([base_python, "-m", "venv", venv])
        if rc != 0:
            raise TargetError("failed", f"{base_python} -m venv failed: {(lines or ['?'])[-1]}", "")
        py = os.path.join(venv, "bin", "python")
        timings["venv_s"] = round(time.monotonic() - t, 1)

        # torch from PyPI (with its CUDA libraries), the build deps, torchao when asked.
        t = time.monotonic()
        pkgs = [f"torch=={args.torch}"] + BUILD_DEPS + ([f"torchao=={args.torchao}"] if args.torchao else [])
        say(f"pip install {' '.join(pkgs)} (torch from PyPI: the CUDA build, several GB)")
        last = [0.0]

        def pip_line(line):
            keep = line.startswith(("Collecting", "Downloading", "Installing", "Successfully", "ERROR"))
            if keep or time.monotonic() - last[0] > 10:
                last[0] = time.monotonic()
                say("pip: " + line.strip())

        rc, lines = runner.run([py, "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off",
                                "--no-input", *pkgs], on_line=pip_line)
        if rc != 0:
            torch_missing = any(f"torch=={args.torch}" in line for line in lines if "satisf" in line or "distribution" in line)
            what = f"torch {args.torch}" if torch_missing else " ".join(pkgs)
            raise TargetError("not_found", f"{what} cannot be installed from PyPI: pip says: {pip_failure(lines, what)}",
                              "pick a version PyPI has (pip index versions torch) and check the network")
        timings["pip_s"] = round(time.monotonic() - t, 1)
        site = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              capture_output=True, text=True, check=True).stdout.strip()
        version_py = os.path.join(site, "torch", "version.py")
        scope = {}
        with open(version_py, encoding="utf-8") as f:
            exec(compile(f.read(), version_py, "exec"), scope)  # torch's own generated constants
        torch_version, torch_cuda = str(scope.get("__version__")), scope.get("cuda")
        cuda = "cu" + str(torch_cuda).replace(".", "") if torch_cuda else "cpu"
        if args.cuda and args.cuda != cuda:
            raise TargetError("bad_request", f"torch {args.torch} from PyPI is the {cuda} build, not {args.cuda}",
                              f"PyPI has one CUDA variant per torch release: use --cuda {cuda} (other variants "
                              "are on download.pytorch.org, which this tool does not use)")
        say(f"torch {torch_version} ({cuda}) installed in {timings['pip_s']} s")

        # The engine, built against that torch by tools/build-wheel.sh in a build folder of its own.
        t = time.monotonic()
        build = os.path.join(ROOT, "build", "targets", args.name)
        os.makedirs(build, exist_ok=True)
        # CMake's cache names the previous venv's paths (another .partial-<pid>): configure anew;
        # the objects stay, and ccache serves what did not change.
        for stale in ("CMakeCache.txt", "CMakeFiles"):
            p = os.path.join(build, stale)
            shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else (os.path.exists(p) and os.remove(p))
        # The build sees the venv through BUILD/venv, a link to the partial folder's: the compile
        # commands name the same torch headers in every `add` of this name, so ninja and ccache
        # (CCACHE_BASEDIR makes paths under the checkout's parent relative) reuse the objects.
        link = os.path.join(build, "venv")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(venv, link)
        build_py = os.path.join(link, "bin", "python")
        say(f"building the engine against torch {torch_version} (tools/build-wheel.sh, build folder {build})")
        env = dict(os.environ, AOTSTUDIO_WHEEL_BUILD_DIR=build, AOTSTUDIO_WHEEL_VERBOSE="1")
        env.setdefault("AOTSTUDIO_JOBS", str(os.cpu_count() or 2))
        progress = {"t": 0.0}

        def build_line(line):
            m = re.match(r"^\s*\[(\d+)/(\d+)\]", line)
            if (m and time.monotonic() - progress["t"] > 5) or line.startswith(("build-wheel:", "CMake Error", "FAILED")):
                progress["t"] = time.monotonic()
                say("build: " + (f"{m.group(1)}/{m.group(2)} {line[m.end():].strip()[:100]}" if m else line.strip()))

        rc, lines = runner.run(["bash", os.path.join(ROOT, "tools", "build-wheel.sh"), build_py], env=env,
                               on_line=build_line)
        if rc != 0:
            why = next((ln for ln in reversed(lines) if ln.startswith(("FAILED", "CMake Error", "ERROR"))), None)
            err = next((ln for ln in lines if "error:" in ln), None)
            raise TargetError("failed", f"the engine did not build against torch {torch_version}: "
                              f"{(err or why or (lines or ['?'])[-1]).strip()[:400]}",
                              f"the build's output: AOTSTUDIO_WHEEL_BUILD_DIR={build} tools/build-wheel.sh {build_py}")
        wheel = [ln for ln in lines if ln.endswith(".whl") and os.path.isfile(ln)][-1]
        retag_wheel(wheel, args.torch, args.python, args.torchao)
        timings["build_s"] = round(time.monotonic() - t, 1)
        say(f"engine built in {timings['build_s']} s: {os.path.basename(wheel)}")
        rc, lines = runner.run([py, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps", "--no-index",
                                "--force-reinstall", wheel])
        if rc != 0:
            raise TargetError("failed", f"pip could not install {wheel}: {pip_failure(lines, 'the wheel')}", "")
        pkg = os.path.join(site, "aotstudio_engine")
        libdir = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_config_var('LIBDIR') or '')"],
                                capture_output=True, text=True, check=True).stdout.strip()

        # The engine starts and says it runs that torch (its hello, FORMAT.md "Handshake").
        seconds, hello = measure_hello(os.path.join(pkg, "bin", "aotstudio-engine"), engine_env(py, libdir))
        if not str(hello.get("torch_version", "")).startswith(args.torch):
            raise TargetError("internal", f"the target's engine reports torch {hello.get('torch_version')}, "
                              f"not {args.torch}", f"see {pkg}")
        say(f"engine answers in {seconds:.2f} s: torch {hello.get('torch_version')}, Python {hello.get('python_version')}")

        def moved(p):
            return os.path.join(final, os.path.relpath(p, partial))

        record = {
            "format": TARGET_FORMAT, "python": args.python, "python_executable": base_python,
            "torch": hello.get("torch_version", torch_version), "torch_requested": args.torch,
            "torchao": args.torchao, "cuda": cuda, "cuda_version": torch_cuda,
            "venv_python": moved(py), "libpython_dir": libdir,
            "engine": moved(os.path.join(pkg, "bin", "aotstudio-engine")),
            "cli": moved(os.path.join(pkg, "bin", "aotstudio-cli")),
            "run": moved(os.path.join(pkg, "bin", "aotstudio-run")),
            "engine_version": hello.get("engine_version"), "engine_start_s": round(seconds, 3),
            "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "preset": args.preset, "timings": timings,
        }
        _fix_paths(venv, partial, final)
        fd, tmp = tempfile.mkstemp(dir=partial, prefix=".target.json.")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, os.path.join(partial, "target.json"))
        if os.path.lexists(final):
            raise TargetError("bad_request", f"target '{args.name}' appeared while this one was built ({final})",
                              f"remove one: aotstudio-cli target remove {args.name}")
        os.rename(partial, final)
    except BaseException:
        # A second Ctrl-C (the terminal's beside the CLI's own) must not cut the clean-up short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        runner.stop()
        discard(partial)
        raise
    record = read_target(final)
    record["seconds"] = round(time.monotonic() - started, 1)
    say(f"target '{args.name}' ready in {record['seconds']} s: {final}")
    return record


def list_targets():
    """Every target under targets_dir(), sorted by name; a folder whose target.json cannot be read is
    listed with its `error`."""
    base = targets_dir()
    out = []
    if not os.path.isdir(base):
        return out
    for name in sorted(os.listdir(base)):
        folder = os.path.join(base, name)
        if name.startswith(".") or not os.path.isdir(folder):
            continue
        try:
            out.append(read_target(folder))
        except TargetError as e:
            out.append({"name": name, "path": folder, "error": e.message})
    return out


def remove(name):
    """Remove the target `name` (its folder; the build folder under build/targets stays as a cache)."""
    folder = os.path.join(targets_dir(), name)
    if not os.path.isdir(folder):
        raise TargetError("not_found", f"no target '{name}' in {targets_dir()}", "aotstudio-cli target list names them")
    discard(folder)
    return {"name": name, "path": folder, "removed": True}


def start_time(name, runs):
    """`start-time`: spawn-to-hello of the target `name`'s engine (`aotstudio-engine --serve`, its first
    protocol line), `runs` times in a row: every figure in seconds, the median and the minimum."""
    t = read_target(os.path.join(targets_dir(), name))
    env = engine_env(t["venv_python"], t.get("libpython_dir") or "")
    env["AOTSTUDIO_TARGET"] = t["name"]
    figures = []
    for i in range(runs):
        seconds, hello = measure_hello(t["engine"], env)
        figures.append(round(seconds, 3))
        say(f"run {i + 1}/{runs}: {seconds:.3f} s to hello (torch {hello.get('torch_version')})")
    ordered = sorted(figures)
    return {"name": name, "engine": t["engine"], "torch": hello.get("torch_version"), "target": hello.get("target"),
            "seconds": figures, "median_s": ordered[len(ordered) // 2], "min_s": ordered[0]}


def parse(argv):
    """The command line as argparse's namespace; a preset name with no --torch takes the preset."""
    p = argparse.ArgumentParser(prog="target.py", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("add")
    a.add_argument("name")
    a.add_argument("--torch")
    a.add_argument("--python")
    a.add_argument("--torchao")
    a.add_argument("--cuda")
    sub.add_parser("list")
    r = sub.add_parser("remove")
    r.add_argument("name")
    st = sub.add_parser("start-time", help="time the target's engine from spawn to its hello")
    st.add_argument("name")
    st.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    if args.command == "add":
        args.preset = None
        if args.torch is None and args.name in PRESETS:
            args.preset = args.name
            for key, value in PRESETS[args.name].items():
                if getattr(args, key) is None:
                    setattr(args, key, value)
        if args.torch is None:
            raise TargetError("usage", f"target add {args.name}: --torch X.Y.Z is missing",
                              f"name the torch (e.g. --torch 2.11.0) or use a preset: {', '.join(PRESETS)}")
        args.python = args.python or "3.11"
        check_name(args.name)
        check_versions(args.torch, args.python, args.cuda, args.torchao)
    elif args.command == "remove":
        check_name(args.name)
    return args


def main(argv=None):
    def interrupted(signum, frame):
        # Once: Ctrl-C reaches this script twice (the terminal's, and the CLI's own cancel), and a
        # second Interrupted must not cut the clean-up short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Interrupted()

    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    runner = Runner()
    try:
        args = parse(sys.argv[1:] if argv is None else argv)
        if os.path.isdir(targets_dir()):
            for gone in sweep_stale(targets_dir()):
                say(f"removed {gone} (left by an interrupted target command)")
        if args.command == "add":
            result = add(args, runner)
        elif args.command == "list":
            result = {"targets_dir": targets_dir(), "targets": list_targets()}
        elif args.command == "start-time":
            result = start_time(args.name, max(1, args.runs))
        else:
            result = remove(args.name)
        print(json.dumps({"ok": True, "result": result}), flush=True)
        return EXIT_OK
    except TargetError as e:
        print(json.dumps({"ok": False, "error": {"stage": e.stage, "code": e.code, "message": e.message,
                                                  "hint": e.hint}}), flush=True)
        return EXIT_USAGE if e.code == "usage" else EXIT_FAILED
    except Interrupted:
        print(json.dumps({"ok": False, "error": {"stage": "target", "code": "cancelled",
                                                  "message": "interrupted; nothing was left behind", "hint": ""}}),
              flush=True)
        return EXIT_CANCELLED


if __name__ == "__main__":
    sys.exit(main())
