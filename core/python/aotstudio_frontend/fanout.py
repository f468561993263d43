# SPDX-License-Identifier: GPL-3.0-or-later
"""The driver side of a fan-out on a Ray cluster (FORMAT.md "Fan-out on a Ray cluster";
core/pipeline/fanout.h): the independent sub-requests of a job (a quantize scheme, ...) become one
Ray task each, running the studio's engine on a worker node (fanout_task.py). The engine's C++
side drives it: :func:`start`, then :func:`poll` until every task is done (events, then each
task's result with its folder written into the job folder), :func:`cancel` on a cancel, and
:func:`close`.

Ray is optional: it is imported here only, and only for a request with ``ray``. The workers must
have the studio installed at the same path and the same torch as the driver (checked per task);
the driver's own Python does not need to be on their path (the task is shipped by value).
"""

import functools
import io
import json
import os
import socket
import tarfile

from . import fanout_task, outdir
from .errors import FrontendError
from .files import write_json_atomic

#: The Ray release the studio is tested with (tools/requirements.txt).
RAY_PIN = "ray==2.60.0"
#: Seconds a Ray address gets to accept a connection before the job fails: ray.init itself waits
#: minutes for a GCS that does not answer (its own retries), so the address is probed first.
PROBE_SECONDS = 5.0
#: Most bytes the files a job sends with its tasks may hold together (:func:`pack_sent`): they are
#: packed in this process's memory and go through Ray's object store.
SEND_LIMIT_BYTES = 2 << 30
#: Times a task whose node or worker process was lost (the node died, its raylet or the worker was
#: killed: Ray's system failures, not the engine's own errors) is submitted again; Ray then runs it on
#: a node that is alive. Ray's own retries (max_retries) stay off: a streaming generator's retry
#: must yield as many objects as the first attempt (StreamingGeneratorReplayInconsistentError), and
#: an engine's events are not a fixed count. Past this, the task fails naming the node it was lost on.
NODE_LOSS_RETRIES = 2

_runs = {}
_next = [1]


def _import_ray():
    try:
        import ray  # noqa: PLC0415 (optional dependency, imported only for a request with `ray`)
    except ImportError as exc:
        raise FrontendError("ray_unavailable", "load", f"--ray needs Ray in the engine's Python, which lacks it ({exc})",
                            f"pip install {RAY_PIN} into the engine's venv, or run without --ray") from exc
    return ray


def parse_address(address: str):
    """``HOST:PORT`` of a Ray cluster's head (the GCS port ``ray start --head --port`` chose)."""
    if not isinstance(address, str) or not address.strip():
        raise FrontendError("bad_request", "load", "'ray' must be a Ray head address HOST:PORT", "e.g. 10.0.0.5:6379")
    address = address.strip()
    if "://" in address:
        raise FrontendError("bad_request", "load", f"Ray address '{address}': give the head's HOST:PORT, not a URL",
                            "the GCS address `ray start --head` printed, e.g. 10.0.0.5:6379 (Ray Client ray:// is not supported)")
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise FrontendError("bad_request", "load", f"Ray address '{address}' is not HOST:PORT", "e.g. 10.0.0.5:6379")
    return host.strip("[]"), int(port)


def probe(address: str, seconds: float = PROBE_SECONDS) -> None:
    """Raise FrontendError(ray_unavailable) unless something accepts a connection at ``address``
    within ``seconds``."""
    host, port = parse_address(address)
    try:
        with socket.create_connection((host, port), timeout=seconds):
            pass
    except OSError as exc:
        if isinstance(exc, (socket.timeout, TimeoutError)):
            reason = f"nothing within {seconds:g} s"
        else:
            reason = (exc.strerror or str(exc)).lower()
        raise FrontendError("ray_unavailable", "load", f"Ray address {address} does not answer ({reason})",
                            "start the cluster (ray start --head) or check the address and port; "
                            "without --ray the job runs here") from exc


def _bytes_under(path: str) -> int:
    if not os.path.isdir(path) or os.path.islink(path):
        return os.lstat(path).st_size
    total = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            total += os.lstat(os.path.join(root, name)).st_size
    return total


def pack_sent(paths: list, limit: int = None) -> tuple:
    """The local files and folders ``paths`` (absolute) packed as one tar, each under ``K/NAME``:
    NAME its own name, K the number of the folder it is in (paths of one folder land in one folder
    on the worker, so a package and its result.json stay siblings). Returns ``(tar bytes,
    {path: "K/NAME"})``. Raises FrontendError: ``bad_request`` for a path that is not absolute or
    does not exist, or when together they hold more than ``limit`` bytes (default
    :data:`SEND_LIMIT_BYTES`)."""
    limit = SEND_LIMIT_BYTES if limit is None else limit
    places, folders, total = {}, {}, 0
    for path in paths:
        if not isinstance(path, str) or not os.path.isabs(path):
            raise FrontendError("bad_request", "load", f"a path sent with the Ray tasks must be absolute: {path!r}",
                                "an engine bug: the job names what it sends by absolute path")
        path = os.path.normpath(path)
        if path in places:
            continue
        if not os.path.exists(path):
            raise FrontendError("bad_request", "load", f"'{path}', to be sent with the Ray tasks, does not exist",
                                "check the path the request names")
        total += _bytes_under(path)
        folder = os.path.dirname(path)
        k = folders.setdefault(folder, len(folders))
        places[path] = f"{k}/{os.path.basename(path)}"
    if total > limit:
        raise FrontendError("bad_request", "load",
                            f"the files sent with the Ray tasks ({', '.join(places)}) hold {total} bytes, more than "
                            f"the {limit} bytes (SEND_LIMIT_BYTES) a job may send through Ray's object store",
                            "put them on a file system every node shares and name them there, or run without --ray")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for path, place in places.items():
            tar.add(path, arcname=place)
    return buf.getvalue(), places


def start(address: str, engine: str, torch_version: str, subs: list, device: str = "cpu") -> int:
    """Connect to the cluster at ``address`` and submit one task per sub-request. ``subs``: list of
    ``{"request": {...}, "collect": "DIR", "target": "/abs/path", "send": ["/abs/path", ...]}``;
    ``engine``: the engine executable (the same path on every node); ``torch_version``: the
    driver's. ``send`` (optional): local files and folders the task needs, packed once for all
    tasks (:func:`pack_sent`), put in Ray's object store once and unpacked in each task's folder,
    where the request's strings naming them are rewritten (fanout_task.py). Returns a handle."""
    ray = _import_ray()
    probe(address)
    sent = sorted({os.path.normpath(p) for sub in subs for p in (sub.get("send") or [])})
    blob, places = pack_sent(sent) if sent else (None, {})
    if ray.is_initialized():
        ray.shutdown()
    try:
        ray.init(address=address, log_to_driver=False, logging_level="ERROR", configure_logging=False,
                 namespace="aotstudio")
    except Exception as exc:  # noqa: BLE001 (Ray raises many kinds; each is "cannot connect")
        raise FrontendError("ray_unavailable", "load", f"cannot join the Ray cluster at {address}: {exc}".splitlines()[0],
                            "check that the cluster's Ray and Python versions match the engine's "
                            f"({RAY_PIN}, Python 3.11)") from exc
    import ray.cloudpickle  # noqa: PLC0415

    # The task's code travels with it: workers need the engine, not this package, on their path.
    ray.cloudpickle.register_pickle_by_value(fanout_task)
    task = ray.remote(fanout_task.run_engine).options(
        num_returns="streaming", max_retries=0, num_cpus=1,
        # Ray hides GPUs from a task that asks for none (CUDA_VISIBLE_DEVICES="").
        num_gpus=1 if device == "cuda" else 0)
    handle = _next[0]
    _next[0] += 1
    run = {"subs": subs, "gens": {}, "done": set(), "ray": ray, "submit": {}, "attempts": {}, "origins": {},
           "cancelled": False}
    # One copy in the object store; as a top-level argument Ray hands each task the bytes.
    blob_ref = ray.put(blob) if blob is not None else None
    for i, sub in enumerate(subs):
        mine = {os.path.normpath(p): places[os.path.normpath(p)] for p in (sub.get("send") or [])}
        # The same call again when its node is lost (NODE_LOSS_RETRIES). A target environment's
        # engine (AOTSTUDIO_TARGET, core/bundle/targets.h) asks for the same target on every node:
        # the task checks that the node's hello names it.
        run["submit"][i] = functools.partial(task.remote, engine, sub["request"], sub.get("collect", ""), torch_version,
                                             mine, blob_ref, os.environ.get("AOTSTUDIO_TARGET", ""))
        run["attempts"][i] = 1
        run["gens"][i] = run["submit"][i]()
    _runs[handle] = run
    return handle


def _install(files: bytes, worker_folder: str, target: str) -> None:
    """The task's folder into ``target`` as a compile commits its staging folder (outdir.py): under
    OUT's lock, staged inside it, paths the worker recorded rewritten to their place here, then
    moved in over the previous files."""
    os.makedirs(target, exist_ok=True)
    lock = outdir.lock(target)
    try:
        work = outdir.staging_dir(target)
        with tarfile.open(fileobj=io.BytesIO(files), mode="r") as tar:
            tar.extractall(work, filter="data")
        for root, _dirs, names in os.walk(work):
            for name in names:
                if not name.endswith(".json"):
                    continue
                path = os.path.join(root, name)
                try:
                    with open(path, encoding="utf-8") as f:
                        data = json.load(f)
                except (OSError, ValueError):
                    continue
                fixed = outdir.rewrite(data, worker_folder, target)
                if fixed != data:
                    write_json_atomic(path, fixed, indent=1)
        outdir.commit(target, work)
    finally:
        lock.close()


def _finish(run, i, done: dict) -> dict:
    sub = run["subs"][i]
    label = {k: done.get(k, "") for k in ("host", "device_name", "node")}
    answer = {"index": i, "done": True, "origin": label}
    if "result" in done and done.get("files") is not None:
        target = sub["target"]
        try:
            _install(done["files"], done["worker_out"], target)
        except (OSError, tarfile.TarError) as exc:
            answer["error"] = {"code": "internal", "stage": "write",
                               "message": f"cannot write what Ray node {label['host']} sent into {target}: {exc}",
                               "hint": "check the job folder's disk"}
            return answer
        answer["result"] = outdir.rewrite(done["result"], done["worker_out"], target)
    else:
        answer["error"] = done.get("error") or {"code": "remote_failed", "stage": "engine",
                                                "message": "the task ended without a result", "hint": ""}
    return answer


def poll(handle: int, timeout: float = 0.2) -> list:
    """What happened since the last call, waiting up to ``timeout`` seconds for something: a list
    of ``{"index", "event"}`` (an engine event of task ``index``; ``fanout_hello`` first, with the
    worker's host and device) and ``{"index", "done": true, "result" or "error", "origin"}``."""
    run = _runs[handle]
    ray = run["ray"]
    pending = {i: g for i, g in run["gens"].items() if i not in run["done"]}
    if not pending:
        return []
    by_gen = {id(g): i for i, g in pending.items()}
    ready, _ = ray.wait(list(pending.values()), num_returns=1, timeout=timeout)
    answers = []
    for gen in ready:
        i = by_gen[id(gen)]
        try:
            ref = next(gen)
            item = ray.get(ref)
        except StopIteration:
            run["done"].add(i)
            answers.append({"index": i, "done": True, "origin": {},
                            "error": {"code": "remote_failed", "stage": "engine",
                                      "message": "the task ended without a result", "hint": ""}})
            continue
        except Exception as exc:  # noqa: BLE001 (a worker that died, a cancelled task, ...)
            cancelled = isinstance(exc, (ray.exceptions.TaskCancelledError,))
            first = str(exc).strip().splitlines()
            origin = run["origins"].get(i, {})
            where = _node_words(origin)
            if not cancelled and _node_lost(ray, exc) and not run["cancelled"] \
                    and run["attempts"][i] <= NODE_LOSS_RETRIES:
                run["attempts"][i] += 1
                run["gens"][i] = run["submit"][i]()
                answers.append({"index": i, "event": {
                    "type": "log", "level": "warning",
                    "message": f"the Ray task was lost{where} ({type(exc).__name__}); running it again on another node "
                               f"(attempt {run['attempts'][i]} of {NODE_LOSS_RETRIES + 1})"}})
                continue
            run["done"].add(i)
            attempts = run["attempts"][i]
            tried = f" after {attempts} attempts" if attempts > 1 else ""
            answers.append({"index": i, "done": True, "origin": origin,
                            "error": {"code": "cancelled" if cancelled else "remote_failed", "stage": "engine",
                                      "message": ("the Ray task was cancelled" if cancelled else
                                                  f"the Ray task failed{where}{tried}: {type(exc).__name__}: "
                                                  f"{first[0] if first else ''}"),
                                      "hint": "" if cancelled else "see the Ray worker's log (ray logs)"}})
            continue
        if item.get("type") == "fanout_hello":
            run["origins"][i] = {k: item.get(k, "") for k in ("host", "device_name", "node")}
        if item.get("type") == "fanout_done":
            run["done"].add(i)
            answers.append(_finish(run, i, item))
        else:
            answers.append({"index": i, "event": item})
    return answers


def _node_lost(ray, exc) -> bool:
    """Whether ``exc`` says the task's node or worker process went away (a system failure Ray
    reports as its own exception), not that the task itself failed (RayTaskError: the engine's
    error, which another node would repeat) or was cancelled."""
    lost = tuple(getattr(ray.exceptions, name) for name in (
        "NodeDiedError", "WorkerCrashedError", "LocalRayletDiedError", "ObjectLostError", "OwnerDiedError",
        "ObjectReconstructionFailedError", "RaySystemError") if hasattr(ray.exceptions, name))
    return isinstance(exc, lost) and not isinstance(exc, ray.exceptions.RayTaskError)


def _node_words(origin: dict) -> str:
    """" on Ray node 1a2b3c4d5e6f of host gpu-3" from a task's fanout_hello, or "" before it."""
    if not origin:
        return ""
    return f" on Ray node {origin.get('node', '')[:12]} of host {origin.get('host', '')}"


def cancel(handle: int) -> None:
    """Cancel every unfinished task (its engine gets a cancel, then is killed); none is submitted
    again after this."""
    run = _runs.get(handle)
    if not run:
        return
    run["cancelled"] = True
    for i, gen in run["gens"].items():
        if i not in run["done"]:
            try:
                run["ray"].cancel(gen)
            except Exception:  # noqa: BLE001 (already finished)
                pass


def close(handle: int) -> None:
    """Forget the run and leave the cluster."""
    run = _runs.pop(handle, None)
    if run:
        try:
            run["ray"].shutdown()
        except Exception:  # noqa: BLE001
            pass
