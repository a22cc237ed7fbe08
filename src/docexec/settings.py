"""The ``DOCEXEC_*`` switches of the engine, read from the environment in one place.

Only the edges call this (the command line, the MkDocs plugin, the pytest plugin); the engine
takes its device, cache folder and force flag as arguments, so a test can pin them.

    DOCEXEC_DEVICE=cuda|cpu    the device, instead of the detected one
    DOCEXEC_CACHE_DIR=DIR      the results cache, instead of .cache/docexec
    DOCEXEC_FORCE=1            execute again, ignoring cached results
"""

from __future__ import annotations

import os
from pathlib import Path

from docexec.device import DEVICES


class SettingError(ValueError):
    pass


def engine_options(environ: dict[str, str] | None = None) -> dict[str, object]:
    """Keyword arguments for `docexec.engine.Engine`, from ``environ`` (default: ``os.environ``)."""
    environ = os.environ if environ is None else environ
    options: dict[str, object] = {}
    device = environ.get("DOCEXEC_DEVICE", "").strip()
    if device:
        if device not in DEVICES:
            raise SettingError(f"DOCEXEC_DEVICE={device}: expected one of {', '.join(DEVICES)}")
        options["device"] = device
    if environ.get("DOCEXEC_CACHE_DIR"):
        options["cache_dir"] = Path(environ["DOCEXEC_CACHE_DIR"])
    if environ.get("DOCEXEC_FORCE", "") not in ("", "0"):
        options["force"] = True
    return options


__all__ = ["SettingError", "engine_options"]
