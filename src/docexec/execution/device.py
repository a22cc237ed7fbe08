"""Which device this machine runs snippets on, and the words that name its GPU.

Decided without importing torch (a second), so a fully cached build never imports it. Nothing
here reads ``DOCEXEC_*`` variables: the command line, the MkDocs plugin and the pytest plugin do
(`docexec.config`), and hand the device to the engine.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

DEVICES = ("cpu", "cuda")
_CUDA_TAG = re.compile(r"\+cu(\d+)(\d)$")  # 2.13.0+cu128 -> CUDA 12.8
# The CUDA runtime wheels the default Linux wheels depend on (CUDA 12 by name, later ones plain).
_CUDA_RUNTIMES = ("nvidia-cuda-runtime-cu12", "nvidia-cuda-runtime")
_VERSION_FILE_CUDA = re.compile(r"^cuda\b[^=\n]*=\s*['\"]([0-9.]+)['\"]", re.MULTILINE)


def detect_device() -> str:
    """``cuda`` on a CUDA build of torch with an NVIDIA GPU present, else ``cpu``: also where torch
    is not installed, as no snippet can reach a GPU without it."""
    try:
        torch_version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return "cpu"
    if "+cpu" in torch_version:
        return "cpu"
    gpus = Path("/proc/driver/nvidia/gpus")
    return "cuda" if gpus.is_dir() and any(gpus.iterdir()) else "cpu"


def gpu_model() -> str:
    """The first GPU's name as ``nvidia-smi`` gives it, or ``an unnamed GPU`` where it cannot."""
    command = shutil.which("nvidia-smi")
    if command is None:
        return "an unnamed GPU"
    try:
        listed = subprocess.run(
            [command, "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return "an unnamed GPU"
    names = [line.strip() for line in listed.splitlines() if line.strip()]
    return names[0] if names else "an unnamed GPU"


def cuda_version(torch_version: str) -> str:
    """The CUDA release torch was built for: from its local tag (``+cu128``), else from the
    ``cuda`` line of its ``torch/version.py`` (read, not imported), else from the CUDA runtime
    wheel it installed with; ``unknown`` when none says."""
    tag = _CUDA_TAG.search(torch_version)
    if tag:
        return f"{tag.group(1)}.{tag.group(2)}"
    built_for = _version_file_cuda()
    if built_for:
        return built_for
    for runtime in _CUDA_RUNTIMES:
        try:
            return ".".join(importlib.metadata.version(runtime).split(".")[:2])
        except importlib.metadata.PackageNotFoundError:
            continue
    return "unknown"


def _version_file_cuda() -> str | None:
    """``13.0`` from ``cuda: Optional[str] = '13.0'`` in torch's version.py (a PyPI wheel without a
    local tag, such as CUDA 13 builds); None for a CPU build or where it cannot be read."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        try:
            text = (Path(folder) / "version.py").read_text(encoding="utf-8")
        except OSError:
            continue
        found = _VERSION_FILE_CUDA.search(text)
        return found.group(1) if found else None
    return None


def environment(device: str, torch_version: str) -> dict[str, str]:
    """What names the device in provenance and in the cache key: on CUDA, the GPU and CUDA release
    (``torch_version`` is only read there: a CPU run needs no torch)."""
    if device not in DEVICES:
        raise ValueError(f"unknown device {device!r}: expected one of {', '.join(DEVICES)}")
    if device != "cuda":
        return {"device": device}
    return {"device": device, "gpu": gpu_model(), "cuda": cuda_version(torch_version)}


__all__ = ["DEVICES", "cuda_version", "detect_device", "environment", "gpu_model"]
