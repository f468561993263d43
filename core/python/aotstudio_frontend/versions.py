# SPDX-License-Identifier: GPL-3.0-or-later
"""Versions of the libraries a compile depends on besides torch, recorded in results
(``torchao_version``) so that two jobs can be compared (``aotstudio-cli compare``)."""

from importlib import metadata


def library_versions() -> dict:
    """``{"torchao_version": "0.18.0"}``; None for a library that is not installed. Read from the
    installed distributions' metadata: nothing is imported."""
    out = {}
    for dist in ("torchao",):
        try:
            out[f"{dist}_version"] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[f"{dist}_version"] = None
    return out
