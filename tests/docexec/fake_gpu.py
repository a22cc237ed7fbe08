"""Shared by the engine's tests: a machine that says it has a GPU, for the code that asks."""

from __future__ import annotations

import os
from pathlib import Path


def fake_nvidia_smi(folder: Path, name: str) -> dict[str, str]:
    """An environment whose ``nvidia-smi`` names ``name`` as the GPU, as the real one does."""
    folder.mkdir(parents=True, exist_ok=True)
    tool = folder / "nvidia-smi"
    tool.write_text(f'#!/bin/sh\n[ "$1" = "--query-gpu=name" ] || exit 9\necho "{name}"\n')
    tool.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
