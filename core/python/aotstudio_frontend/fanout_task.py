# SPDX-License-Identifier: GPL-3.0-or-later
"""What one Ray task does on a worker node (fanout.py submits it): run one self-contained engine
request in a fresh ``aotstudio-engine --serve`` there, passing its events back as they come, then
the folder it wrote, packed, with its result.

Standard library only, and shipped to the worker by value (fanout.py registers this module with
cloudpickle): the worker needs the studio's engine at the same path and the same torch (its
``hello`` is checked against the driver's torch version before the request is sent), not this
package on its Python path.

Files the driver sends with the task (fanout.py ``pack_sent``: a package, a bundle) arrive as one
tar, unpacked into the task's temporary folder; every string of the request that names a sent path
is rewritten to its place there, and every string of the result that names that place back to the
driver's path.

Events yielded (dicts): ``{"type": "fanout_hello", host, device_name, torch_version, node}`` first,
then the engine's own ``progress``/``log``/``stage_done`` events, then exactly one
``{"type": "fanout_done", "result" or "error", "files": tar bytes or None, "worker_out": path,
host, device_name, node}``.
"""

import ctypes
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tarfile
import tempfile

#: Environment a Ray worker sets for its tasks that the engine must not inherit: Ray pins the
#: intra-op threads to the task's CPU count, while a local job picks them as the engine always does
#: (the CPUs the process may use); the result records the count either way.
DROPPED_ENV = ("OMP_NUM_THREADS",)
#: Seconds the engine gets to end after `shutdown` or `cancel` before it is killed.
GRACE_SECONDS = 10


def _die_with_parent():
    # A Ray worker killed by the driver's exit or by ray.cancel(force=True) must not leave an
    # engine compiling on its own: the kernel kills the child when this worker thread's process dies.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _device_name(hello: dict, device: str) -> str:
    for d in hello.get("devices") or []:
        if d.get("type") == device:
            return d.get("name") or device
    return device


def _tail(path: str, lines: int = 5) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 8192))
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    return " | ".join([line for line in text.splitlines() if line.strip()][-lines:])


def _pack(folder: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        if os.path.isdir(folder):
            tar.add(folder, arcname=".")
    return buf.getvalue()


def rewrite_paths(value, moves: dict):
    """``value`` (JSON-like) with every string that is a path in ``moves`` (old -> new), or under
    one, moved to the new place. Paths are matched whole: ``/a/b`` moves ``/a/b/c``, not ``/a/bc``."""
    if isinstance(value, str):
        for old, new in moves.items():
            if value == old or value.startswith(old + "/"):
                return new + value[len(old):]
        return value
    if isinstance(value, dict):
        return {k: rewrite_paths(v, moves) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite_paths(v, moves) for v in value]
    return value


def _rewrite_files(folder: str, moves: dict) -> None:
    """Every JSON file under ``folder`` with its paths moved as :func:`rewrite_paths` does."""
    for root, _dirs, names in os.walk(folder):
        for name in names:
            if not name.endswith(".json"):
                continue
            path = os.path.join(root, name)
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
            except (OSError, ValueError):
                continue
            fixed = rewrite_paths(data, moves)
            if fixed != data:
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(fixed, f, indent=1)


def unpack_sent(blob: bytes, folder: str, sent: dict) -> dict:
    """The driver's tar ``blob`` into ``folder`` (tarfile's ``data`` filter: a member naming a
    place outside it, an absolute path or a link leading out raises tarfile.TarError). ``sent``:
    ``{driver path: "K/NAME"}``. Returns ``{driver path: its place under folder}``; raises
    FileNotFoundError when a sent path is not in the archive."""
    os.makedirs(folder, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(blob), mode="r") as tar:
        tar.extractall(folder, filter="data")
    moves = {}
    for path, place in sent.items():
        local = os.path.normpath(os.path.join(folder, place))
        if not local.startswith(folder.rstrip("/") + "/") or not os.path.lexists(local):
            raise FileNotFoundError(f"{path} ({place}) is not in what the driver sent")
        moves[path] = local
    return moves


def _node_id() -> str:
    try:
        import ray  # noqa: PLC0415 (there on a Ray worker; only the label needs it)

        return (ray.get_runtime_context().get_node_id() or "") if ray.is_initialized() else ""
    except Exception:  # noqa: BLE001
        return ""


def run_engine(engine: str, request: dict, collect: str, driver_torch: str, shipped: dict = None,
               blob: bytes = None, driver_target: str = ""):
    """Run ``request`` (its ``out`` replaced by a temporary folder) in ``engine --serve`` and yield
    its events; the folder ``collect`` (relative to that ``out``; "" for all of it) comes back
    packed. ``driver_torch``: the torch version the driver runs; a worker with another one runs
    nothing. ``shipped``/``blob``: the driver's files (``{driver path: "K/NAME"}`` and the tar holding
    them, :func:`unpack_sent`), unpacked before the engine starts; an archive that cannot be
    unpacked ends the task with ``remote_failed``. ``driver_target``: the driver's target environment
    (empty: none); the node's engine runs with the same AOTSTUDIO_TARGET and must name it in its hello."""
    host = socket.gethostname()
    work = tempfile.mkdtemp(prefix="aotstudio-ray-")
    out = os.path.join(work, "out")
    stderr_path = os.path.join(work, "engine.stderr")
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    if driver_target:
        env["AOTSTUDIO_TARGET"] = driver_target
    proc = None
    sent = False
    request_id = int(request.get("id", 1))
    label = {"host": host, "node": _node_id()}
    moves = {}
    try:
        if shipped:
            try:
                moves = unpack_sent(blob or b"", os.path.join(work, "sent"), shipped)
            except (OSError, tarfile.TarError) as exc:
                yield {"type": "fanout_done", **label, "device_name": "", "files": None, "worker_out": out,
                       "error": {"code": "remote_failed", "stage": "load",
                                 "message": f"cannot unpack the files the driver sent on Ray node {host}: {exc}",
                                 "hint": "check the disk of that node's temporary folder"}}
                return
            request = rewrite_paths(request, moves)
        if not os.access(engine, os.X_OK):
            yield {"type": "fanout_done", **label, "device_name": "", "files": None, "worker_out": out,
                   "error": {"code": "ray_unavailable", "stage": "load",
                             "message": f"the engine '{engine}' is not on Ray node {host}",
                             "hint": "every worker node needs the studio installed at the same path as the driver"}}
            return
        with open(stderr_path, "wb") as err:
            proc = subprocess.Popen([engine, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                    env=env, cwd=work, preexec_fn=_die_with_parent)
        line = proc.stdout.readline()
        try:
            hello = json.loads(line)
        except ValueError:
            hello = {}
        device = request.get("device", "cpu")
        label["device_name"] = _device_name(hello, device)
        label["torch_version"] = hello.get("torch_version", "")
        if hello.get("type") != "hello" or not hello.get("torch_version"):
            yield {"type": "fanout_done", **label, "files": None, "worker_out": out,
                   "error": {"code": "ray_unavailable", "stage": "load",
                             "message": f"the engine did not start on Ray node {host}: {_tail(stderr_path) or 'no output'}",
                             "hint": "run aotstudio-engine --version on that node"}}
            return
        label["target"] = hello.get("target", "")
        if label["target"] != driver_target:
            yield {"type": "fanout_done", **label, "files": None, "worker_out": out,
                   "error": {"code": "ray_unavailable", "stage": "load",
                             "message": f"Ray node {host}'s engine runs in target '{label['target'] or 'none'}', "
                                        f"the driver in '{driver_target or 'none'}'",
                             "hint": "add the same target (aotstudio-cli target add) at the same path on every node"}}
            return
        if hello["torch_version"] != driver_torch:
            yield {"type": "fanout_done", **label, "files": None, "worker_out": out,
                   "error": {"code": "ray_unavailable", "stage": "load",
                             "message": f"Ray node {host} runs torch {hello['torch_version']}, the driver torch {driver_torch}",
                             "hint": "install the same torch on every worker node: packages compiled by another torch do not load"}}
            return
        yield {"type": "fanout_hello", **label}

        sub = dict(request)
        sub["out"] = out
        sub["id"] = request_id
        proc.stdin.write((json.dumps(sub) + "\n").encode())
        proc.stdin.flush()
        sent = True
        final = None
        for raw in proc.stdout:
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            kind = event.get("type")
            if event.get("id") != request_id:
                if kind == "error":  # id 0: the engine's Python side did not start
                    final = event
                    break
                continue
            if kind in ("result", "error"):
                final = event
                break
            if kind in ("progress", "log", "stage_done"):
                yield event
        if final is None:
            proc.wait()
            yield {"type": "fanout_done", **label, "files": None, "worker_out": out,
                   "error": {"code": "remote_failed", "stage": "engine",
                             "message": f"the engine on Ray node {host} ended without a result (exit status "
                                        f"{proc.returncode}): {_tail(stderr_path) or 'no output'}",
                             "hint": "see that node's memory and the engine's log"}}
            return
        proc.stdin.write(b'{"type": "shutdown", "id": 99}\n')
        proc.stdin.flush()
        try:
            proc.wait(GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        folder = os.path.join(out, collect) if collect else out
        back = {v: k for k, v in moves.items()}
        if back:
            _rewrite_files(folder, back)
        done = {"type": "fanout_done", **label, "worker_out": folder, "files": _pack(folder)}
        if final.get("type") == "result":
            # Paths into what the driver sent name the driver's own files again.
            done["result"] = rewrite_paths(final.get("result"), back)
        else:
            done["error"] = {k: final.get(k, "") for k in ("code", "stage", "message", "hint")}
        yield done
    finally:
        if proc is not None and proc.poll() is None and sent:
            # Cancelled (ray.cancel raises KeyboardInterrupt here) or failed: a cooperative cancel
            # first, as the studio does, then the kill.
            try:
                proc.stdin.write(json.dumps({"type": "cancel", "id": 98, "target": request_id}).encode() + b"\n")
                proc.stdin.flush()
                proc.wait(GRACE_SECONDS)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
        shutil.rmtree(work, ignore_errors=True)
