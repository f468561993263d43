# SPDX-License-Identifier: GPL-3.0-or-later
"""The figures of a GPU check (tools/gpu-check.sh, issue 18) in one summary.json, and printed.

Reads the check's work folder: steps.jsonl (one line per step), jobs/<model>/profile.json,
jobs/quantize/quantize.json, bundle.json. Per profiled model: eager and compiled medians (wall and
CUDA events), collector and its overhead, GPU busy share, kernels found (with launch
configurations), memory peaks, cold start with its phases, throughput per runner count; per
quantization scheme: status, medians, accuracy; the bundle: its run and cold start. Never fails
on a missing or partial file: what is absent is null.

Usage: python gpu_check_report.py WORK_DIR SUMMARY_JSON
       python gpu_check_report.py --line compile|profile|quantize RESULT_JSON   (one line of figures)
"""
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        return None


def get(obj, *keys):
    for k in keys:
        if not isinstance(obj, (dict, list)):
            return None
        try:
            obj = obj[k]
        except (KeyError, IndexError, TypeError):
            return None
    return obj


def phases(cold):
    return {k: get(v, "median_ms") for k, v in (get(cold, "phases") or {}).items()}


def profile_figures(p):
    if not p:
        return None
    variants = {}
    for v in p.get("variants") or []:
        variants[v.get("name")] = {
            "available": v.get("available"), "reason": v.get("reason") or None,
            "median_ms": get(v, "statistics", "median_ms"), "p99_ms": get(v, "statistics", "p99_ms"),
            "cuda_event_ms": v.get("cuda_event_ms"), "overhead_pct": v.get("overhead_pct"),
            "gpu_busy_share": v.get("gpu_busy_share"),
            "peak_bytes": get(v, "memory", "peak_bytes"), "peak_method": get(v, "memory", "method")}
    kernels = p.get("kernels") or []
    cold = p.get("cold_start") or {}
    return {
        "device": get(p, "device_info", "name"), "capability": get(p, "device_info", "capability"),
        "torch": p.get("torch_version"), "collector": get(p, "collector", "name"),
        "collector_available": get(p, "collector", "available"), "collector_reason": get(p, "collector", "reason") or None,
        "verdict": get(p, "measurement", "verdict"), "variants": variants, "speedup": p.get("speedup"),
        "kernels": len(kernels),
        "kernels_with_launch": sum(1 for k in kernels if k.get("cuda")),
        "kernels_in_kernels_json": sum(1 for k in kernels if k.get("in_kernels_json")),
        "top_kernels": [{"variant": k.get("variant"), "name": k.get("name"), "kind": k.get("kind"),
                         "mean_ms": k.get("mean_ms"), "cuda": k.get("cuda")} for k in kernels[:5]],
        "gpu_busy_share": get(p, "gpu", "busy_share"), "dropped_records": get(p, "gpu", "dropped_records"),
        "cold_start": {"bundle_ms": cold.get("bundle_ms"), "eager_ms": cold.get("eager_ms"),
                       "ratio": cold.get("ratio"), "phases": phases(cold)} if cold else None,
        "throughput": [{"runners": t.get("runners"), "per_s": t.get("throughput_per_s"), "p99_ms": t.get("p99_ms")}
                       for t in p.get("throughput") or []],
        "warnings": p.get("warnings") or []}


def quantize_figures(q):
    if not q:
        return None
    rows = []
    for r in q.get("rows") or q.get("schemes") or []:
        rows.append({"scheme": r.get("scheme"), "status": r.get("status"), "reason": r.get("reason") or None,
                     "eager_ms": r.get("eager_ms"), "compiled_ms": r.get("compiled_ms"),
                     "speedup_vs_fp32_eager": r.get("speedup_vs_fp32_eager"),
                     "max_abs_error": get(r, "accuracy", "max_abs_error"),
                     "embedding_cosine": get(r, "accuracy", "embedding_cosine"),
                     "package_bytes": r.get("package_bytes"), "quantized_layers": r.get("quantized_layers")})
    return {"model": q.get("model"), "device": q.get("device"), "rows": rows}


def main(work, out):
    steps = []
    try:
        with open(os.path.join(work, "steps.jsonl")) as f:
            steps = [json.loads(line) for line in f if line.strip()]
    except Exception:
        pass
    bundle = load(os.path.join(work, "bundle.json")) or {}
    summary = {
        "steps": steps,
        "passed": bool(steps) and all(s["status"].startswith("ok") for s in steps),
        "profiles": {m: profile_figures(load(os.path.join(work, "jobs", m, "profile.json")))
                     for m in ("resnet18", "minilm")},
        "quantize": quantize_figures(load(os.path.join(work, "jobs", "quantize", "quantize.json"))),
        "bundle": {"device": get(bundle, "manifest", "device"), "run": bundle.get("run"),
                   "cold_start": {"bundle_ms": get(bundle, "cold_start", "bundle_ms"),
                                  "eager_ms": get(bundle, "cold_start", "eager_ms"),
                                  "phases": phases(bundle.get("cold_start"))}} if bundle else None,
    }
    with open(out, "w") as f:
        json.dump(summary, f, indent=1)

    for name, p in summary["profiles"].items():
        if not p:
            continue
        print(f"gpu-check: {name} on {p['device']} ({p['capability']}), collector {p['collector']}"
              f"{' (' + p['collector_reason'] + ')' if p['collector_reason'] else ''}, verdict {p['verdict']}")
        for vname, v in p["variants"].items():
            if v["available"]:
                print(f"  {vname}: median {v['median_ms']} ms, cuda events {v['cuda_event_ms']} ms, overhead "
                      f"{v['overhead_pct']}%, busy {v['gpu_busy_share']}, peak {v['peak_bytes']} ({v['peak_method']})")
            else:
                print(f"  {vname}: unavailable ({v['reason']})")
        print(f"  speedup {p['speedup']}; kernels {p['kernels']} ({p['kernels_with_launch']} with launch "
              f"configuration, {p['kernels_in_kernels_json']} in kernels.json); cold start {p['cold_start']}")
        for t in p["throughput"]:
            print(f"  runners {t['runners']}: {t['per_s']}/s, p99 {t['p99_ms']} ms")
    q = summary["quantize"]
    if q:
        for r in q["rows"]:
            print(f"gpu-check: quantize {r['scheme']}: {r['status']} compiled {r['compiled_ms']} ms, vs fp32 eager "
                  f"{r['speedup_vs_fp32_eager']}, max err {r['max_abs_error']}{', ' + r['reason'] if r['reason'] else ''}")
    if summary["bundle"]:
        print(f"gpu-check: bundle {summary['bundle']['device']}: cold start {summary['bundle']['cold_start']}")
    print(f"gpu-check: {'all steps passed' if summary['passed'] else 'NOT all steps passed'}: "
          + ", ".join(f"{s['step']} {s['status']}" for s in steps))


def line(kind, path):
    """One line of figures from an aotstudio-cli --json result (tools/gpu-rehearsal.sh)."""
    r = load(path)
    if isinstance(r, dict) and "ok" in r:  # the envelope: {"ok": true, "result": {...}}
        r = r.get("result")
    if r is None:
        return "no JSON result"
    if kind == "compile":
        return (f"max abs error {r.get('max_abs_error')}, eager {r.get('eager_ms')} ms, compiled "
                f"{r.get('compiled_ms')} ms, kernels {get(r, 'kernels', 'count')}")
    if kind == "profile":
        p = profile_figures(r)
        med = {n: v["median_ms"] for n, v in p["variants"].items() if v["available"]}
        return (f"medians {med} ms, speedup {p['speedup']}, collector {p['collector']}, kernels {p['kernels']}, "
                f"cold start ratio {get(p, 'cold_start', 'ratio')}, verdict {p['verdict']}")
    q = quantize_figures(r)
    return "; ".join(f"{x['scheme']} {x['status']}" + (f" {x['compiled_ms']:.3g} ms" if x["compiled_ms"] else "")
                     + (f" ({x['reason'][:80]})" if x["reason"] and x["status"] != "ok" else "") for x in q["rows"])


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--line":
        print(line(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) == 3:
        main(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
