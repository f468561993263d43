# SPDX-License-Identifier: GPL-3.0-or-later
"""AOT Studio's engine, installed as a wheel: the console scripts aotstudio-engine, aotstudio-cli
and aotstudio-run exec the native executables in bin/ (as the cmake and ninja wheels do).

The executables embed CPython. They are told which interpreter to embed, this one (the venv's),
through AOTSTUDIO_PYTHON, unless the caller set it; without it an executable started directly finds
the venv from its own place in site-packages (core/python/frontend.cpp). libpython of a Python
outside the system's library folders (pyenv, a python.org build) is found through
LD_LIBRARY_PATH: the loader would not find it on its own, and the wheel cannot name it."""

import os
import sys
import sysconfig

__all__ = ["engine", "cli", "run", "executable"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def executable(name):
    """The path of a native executable of the package (aotstudio-engine, aotstudio-cli, aotstudio-run)."""
    return os.path.join(_HERE, "bin", name)


def _environment():
    env = os.environ
    env.setdefault("AOTSTUDIO_PYTHON", sys.executable)
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    ldlibrary = sysconfig.get_config_var("LDLIBRARY") or ""
    system = libdir.startswith(("/usr/lib", "/lib"))
    if libdir and not system and os.path.isfile(os.path.join(libdir, ldlibrary)):
        paths = [p for p in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
        if libdir not in paths:
            env["LD_LIBRARY_PATH"] = os.pathsep.join([libdir, *paths])


def _exec(name):
    exe = executable(name)
    if not os.access(exe, os.X_OK):
        sys.exit(f"{name}: {exe} is missing or not executable; reinstall the aotstudio-engine wheel")
    _environment()
    os.execv(exe, [sys.argv[0], *sys.argv[1:]])


def engine():
    _exec("aotstudio-engine")


def cli():
    _exec("aotstudio-cli")


def run():
    _exec("aotstudio-run")
