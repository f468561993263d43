# SPDX-License-Identifier: GPL-3.0-or-later
"""Snapshot points inside Inductor: one snapshot when a graph enters a phase (pre-grad, joint,
post-grad) and one after every pass that changed it, named by the pass.

Inductor runs each FX pass inside a ``torch.fx.passes.graph_transform_observer.GraphTransformObserver``
named after the pass (post_grad.py: ``GraphTransformObserver(gm, "remove_noop_ops")``...). With
provenance tracking level 1 those observers also stamp ``node.meta["from_node"]`` with the pass
that created each node. We wrap the observer's ``__enter__``/``__exit__`` for the duration of one
compile; if that private API changes shape, compiling still works and the pass snapshots are
simply missing (a warning says so).
"""

import os
import sys

from . import graph_json

_PHASES = (
    ("fx_passes/pre_grad.py", "pre_grad"),
    ("fx_passes/joint_graph.py", "joint_graph"),
    ("fx_passes/post_grad.py", "post_grad"),
)


def _phase_of_caller() -> str:
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename.replace(os.sep, "/")
        for suffix, phase in _PHASES:
            if name.endswith(suffix):
                return phase
        frame = frame.f_back
    return "inductor"


class PassRecorder:
    """Context manager: calls ``on_graph(phase, pass_name, graph)`` for each phase entry
    (pass_name "") and for each pass after which the graph's structure differs, and
    ``on_unchanged(phase, pass_name, graph)`` (when given) for each pass that left it as it was.
    ``check_stop(stage)`` runs before every pass and raises to cancel the compile."""

    def __init__(self, on_graph, log, on_unchanged=None, check_stop=None):
        self.on_graph = on_graph
        self.check_stop = check_stop or (lambda stage="compile": None)
        self.on_unchanged = on_unchanged
        self.log = log
        self._seen = {}  # id(graph module) -> last signature
        self._saved = None
        self.errors = 0

    def __enter__(self):
        try:
            from torch.fx.passes.graph_transform_observer import GraphTransformObserver as Observer
        except ImportError:
            self.log("warning", "this torch has no GraphTransformObserver: per-pass snapshots are off")
            return self
        recorder = self
        orig_enter, orig_exit = Observer.__enter__, Observer.__exit__

        def enter(obs):
            recorder.check_stop("compile")  # a cancel ends the compile at the next pass
            try:
                recorder._entered(obs)
            except Exception as exc:  # debug data must never break the compile
                recorder._failed(exc)
            return orig_enter(obs)

        def exit_(obs, *exc_info):
            result = orig_exit(obs, *exc_info)
            if exc_info and exc_info[0] is None:
                try:
                    recorder._exited(obs)
                except Exception as exc:
                    recorder._failed(exc)
            return result

        self._saved = (Observer, orig_enter, orig_exit)
        Observer.__enter__, Observer.__exit__ = enter, exit_
        return self

    def __exit__(self, *exc):
        if self._saved:
            observer, orig_enter, orig_exit = self._saved
            observer.__enter__, observer.__exit__ = orig_enter, orig_exit
            self._saved = None
        return False

    def _failed(self, exc):
        self.errors += 1
        if self.errors == 1:
            self.log("warning", f"pass snapshot failed ({type(exc).__name__}: {exc}); continuing without it")

    def _entered(self, obs):
        # A graph entering a phase (first seen, or the same graph module moving on from
        # joint-graph to post-grad passes) gets an entry snapshot: the baseline for that phase's
        # pass-by-pass diffs.
        key = id(obs.gm)
        phase = _phase_of_caller()
        obs._aotstudio_phase = phase
        if key not in self._seen or self._seen[key][0] != phase:
            self._seen[key] = (phase, graph_json.signature(obs.gm.graph))
            self.on_graph(phase, "", obs.gm.graph)

    def _exited(self, obs):
        key = id(obs.gm)
        phase, before = self._seen.get(key, (getattr(obs, "_aotstudio_phase", "inductor"), None))
        after = graph_json.signature(obs.gm.graph)
        if after != before:
            self._seen[key] = (phase, after)
            self.on_graph(phase, obs.passname, obs.gm.graph)
        elif self.on_unchanged is not None:
            self.on_unchanged(phase, obs.passname, obs.gm.graph)
