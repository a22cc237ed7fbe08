"""The environment variables a snippet gets: a declared allow-list, never the caller's whole
environment (a CI job's tokens would otherwise be one ``print(os.environ)`` away from a page)."""

from __future__ import annotations

import os
from pathlib import Path

# Taken from the caller's environment when set: where programs and libraries are, the locale, and
# the settings of threads and devices that a machine is run with. PYTHONPATH: an engine run from a
# source tree with an existing torch (`docexec record` on a GPU machine) finds itself and the
# project's library in its servers and snippets as it did in the caller.
PASSED_ON = (
    "PATH",
    "LD_LIBRARY_PATH",
    "PYTHONPATH",
    "LANG",
    "LANGUAGE",
    "TZ",
    "CUDA_VISIBLE_DEVICES",
    "CUDA_HOME",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
)
PASSED_ON_PREFIXES = ("LC_",)
# Set by the engine for every snippet.
FIXED = {
    "PYTHONHASHSEED": "0",  # set and dict-of-str ordering is the same in every run
    "MPLBACKEND": "Agg",
    "PYTHONDONTWRITEBYTECODE": "1",  # no __pycache__ written next to the library's sources
    # The profiler's own start/stop log lines (a timestamp and a pid on stderr) are not the
    # snippet's output and would change the page on every build; 6 is above every level it logs.
    "KINETO_LOG_LEVEL": "6",
}
NO_HOME = "/nonexistent"  # the supervisor's own HOME; each snippet gets an empty one of its own


def supervisor_environment() -> dict[str, str]:
    """The environment of the processes that supervise snippets (and that snippets fork from)."""
    passed = {
        name: value
        for name, value in os.environ.items()
        if name in PASSED_ON or name.startswith(PASSED_ON_PREFIXES)
    }
    return {**passed, **FIXED, "HOME": NO_HOME, "MPLCONFIGDIR": str(_matplotlib_cache())}


def own_folders(home: str, tmp: str) -> dict[str, str]:
    """The variables that give a snippet its own empty home and temporary folders."""
    return {"HOME": home, "TMPDIR": tmp}


def for_snippet(environment: dict[str, str], home: str, tmp: str) -> dict[str, str]:
    """``environment`` with the snippet's own empty home and temporary folders."""
    return {**environment, **own_folders(home, tmp)}


def _matplotlib_cache() -> Path:
    """matplotlib's font cache of the caller, so that no snippet rebuilds it (seconds)."""
    if os.environ.get("MPLCONFIGDIR"):
        return Path(os.environ["MPLCONFIGDIR"])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "matplotlib"
