"""Recorded GPU outputs, end to end: a CUDA run (here a fake device: a CUDA-declared snippet that
runs on a CPU, and a fake ``nvidia-smi`` naming the GPU) records them with ``docexec record``; a
CPU build shows them, labelled; an edited snippet's recording is stale, and the page says so."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fake_gpu import fake_nvidia_smi

from docexec import recordings
from docexec.execution.result import Result, Status

ROOT = Path(__file__).resolve().parents[2]
EPOCH = "1780000000"  # 2026-05-28, the date the recording says
GPU_SNIPPET = """\
# docexec: cuda
import matplotlib.pyplot as plt

print("peak memory: 42 MiB")
plt.plot([0, 1, 4])
plt.title("Memory per step")
"""
MKDOCS_YML = """\
site_name: tiny
theme: {name: material, font: false}
plugins: [docexec]
markdown_extensions: [admonition, attr_list, pymdownx.superfences]
nav: [index.md]
"""


def command(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environment = {
        **os.environ,
        "DOCEXEC_CACHE_DIR": str(root / ".cache"),
        "SOURCE_DATE_EPOCH": EPOCH,
        "NO_MKDOCS_2_WARNING": "1",
        **(env or {}),
    }
    return subprocess.run(args, cwd=root, env=environment, capture_output=True, text=True, timeout=300)


def docexec(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return command(root, sys.executable, "-m", "docexec.hosts.cli", *args, env=env)


@pytest.fixture
def gpu_project(project, tmp_path):
    (project.root / "mkdocs.yml").write_text(MKDOCS_YML)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Tiny\n\n%run snippets/page/gpu_memory.py\n")
    project.snippet("page/gpu_memory.py", GPU_SNIPPET)
    project.on_gpu = {"DOCEXEC_DEVICE": "cuda", **fake_nvidia_smi(tmp_path / "bin", "NVIDIA Fake 80GB")}
    return project


def test_recorded_on_a_gpu_shown_by_a_cpu_build_and_stale_after_an_edit(gpu_project):
    root = gpu_project.root
    recorded = docexec(root, "record", env=gpu_project.on_gpu)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert "RECORDED snippets/page/gpu_memory.py" in recorded.stdout
    data = json.loads((root / "recordings" / "page" / "gpu_memory.json").read_text())
    assert data["recorded"] == "2026-05-28" and data["result"]["environment"]["gpu"] == "NVIDIA Fake 80GB"
    assert data["schema"] == recordings.SCHEMA
    assert [output["kind"] for output in data["result"]["cells"][0]["outputs"]] == ["text", "figure"]

    build = command(root, sys.executable, "-m", "mkdocs", "build", "--strict")  # on this CPU machine
    assert build.returncode == 0, build.stderr
    assert "0 executed, 0 cached, 1 skipped (CUDA)" in build.stderr
    page = (root / "site" / "index.html").read_text()
    assert "peak memory: 42 MiB" in page and "Needs a GPU" not in page
    torch_build = data["result"]["environment"].get("torch")  # named where torch is installed
    ran_with = f"torch {torch_build} · " if torch_build else ""
    assert f"Recorded on NVIDIA Fake 80GB · {ran_with}2026-05-28" in page
    figure = re.search(r'<img alt="Memory per step" [^>]*src="([^"]+)"', page)
    assert figure and (root / "site" / figure.group(1)).is_file()
    assert recordings.stale(root) == []

    snippet = root / "snippets" / "page" / "gpu_memory.py"
    snippet.write_text(GPU_SNIPPET.replace("42 MiB", "43 MiB"))
    build = command(root, sys.executable, "-m", "mkdocs", "build", "--strict")
    assert build.returncode == 0, build.stderr
    page = (root / "site" / "index.html").read_text()
    assert "recorded output is out of date" in page and "NVIDIA Fake 80GB on 2026-05-28" in page
    assert "42 MiB" not in page and "docexec-output" not in page and "Recorded on" not in page
    assert recordings.stale(root) == [
        "recordings/page/gpu_memory.json: snippets/page/gpu_memory.py changed since it was recorded "
        "on 2026-05-28: run `make record-gpu` on a CUDA machine"
    ]
    again = docexec(root, "record", env=gpu_project.on_gpu)
    assert "1 recorded, 0 unchanged" in again.stdout and recordings.stale(root) == []


def test_recording_again_keeps_an_up_to_date_file_and_removes_a_gone_snippets(gpu_project):
    root = gpu_project.root
    other = gpu_project.snippet("page/other_gpu.py", "# docexec: cuda\nprint('other')\n")
    assert docexec(root, "record", env=gpu_project.on_gpu).returncode == 0
    kept = root / "recordings" / "page" / "gpu_memory.json"
    before = kept.stat().st_mtime_ns
    (root / other).unlink()
    assert recordings.stale(root) == [
        "recordings/page/other_gpu.json: snippets/page/other_gpu.py no longer exists: "
        "`make record-gpu` removes the recording"
    ]
    again = docexec(root, "record", env=gpu_project.on_gpu)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 recorded, 1 unchanged, 1 removed, 0 failed" in again.stdout
    assert kept.stat().st_mtime_ns == before
    assert not (root / "recordings" / "page" / "other_gpu.json").exists()


def test_recording_needs_a_cuda_device_and_a_failure_is_not_recorded(gpu_project):
    root = gpu_project.root
    on_cpu = docexec(root, "record")  # the tests pin DOCEXEC_DEVICE=cpu
    assert on_cpu.returncode == 2 and "needs a CUDA device" in on_cpu.stderr
    gpu_project.snippet("page/broken_gpu.py", "# docexec: cuda\nraise RuntimeError('no kernel')\n")
    failed = docexec(root, "record", env=gpu_project.on_gpu)
    assert failed.returncode == 1 and "FAIL snippets/page/broken_gpu.py" in failed.stdout
    assert not (root / "recordings" / "page" / "broken_gpu.json").exists()
    assert (root / "recordings" / "page" / "gpu_memory.json").exists()


def test_a_bad_declaration_fails_its_snippet_keeps_its_recording_and_the_others_record(gpu_project):
    root = gpu_project.root
    assert docexec(root, "record", env=gpu_project.on_gpu).returncode == 0
    kept = root / "recordings" / "page" / "gpu_memory.json"
    gpu_project.snippet("page/gpu_memory.py", GPU_SNIPPET.replace("cuda", "cuda timeot=5", 1))
    gpu_project.snippet("page/other_gpu.py", "# docexec: cuda\nprint('other')\n")
    again = docexec(root, "record", env=gpu_project.on_gpu)
    assert again.returncode == 1, again.stdout + again.stderr
    failure = "snippets/page/gpu_memory.py:1: unknown declaration 'timeot'"
    assert f"FAIL snippets/page/gpu_memory.py (not run)\n  {failure}" in again.stdout
    assert "1 recorded, 0 unchanged, 0 removed, 1 failed: snippets/page/gpu_memory.py" in again.stdout
    assert kept.exists() and (root / "recordings" / "page" / "other_gpu.json").exists()


def test_an_unreadable_recording_is_listed_with_its_file(gpu_project):
    root = gpu_project.root
    broken = root / "recordings" / "page" / "gpu_memory.json"
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json")
    (problem,) = recordings.stale(root)
    assert problem.startswith("recordings/page/gpu_memory.json: not a readable recording")


def test_a_recording_of_the_first_schema_reads_as_outputs_in_order(project):
    """Schema 1 kept a cell's streams and figures apart and the exception beside the cells; those
    recordings were made on a GPU and stay as they are."""
    path = project.snippet("page/old.py", "# docexec: cuda, raises=RuntimeError\nprint('a')\n")
    figure = {"format": "png", "data": "iVBORw0KGgo=", "width": 10, "height": 10, "title": "Peak",
              "marks": 1, "smallest_font_px": None, "colormapped": False}
    exception = {"type": "RuntimeError", "qualified_types": ["builtins.RuntimeError"], "message": "full",
                 "line": 3, "traceback": "Traceback (most recent call last):\nRuntimeError: full\n"}
    result = {
        "path": path, "status": "passed", "reason": None, "expected_exception": True, "failure": None,
        "cells": [
            {"line": 1, "streams": [["stdout", "a\n"], ["stderr", "b\x1b[31m\n"]], "figures": [figure]}
        ],
        "exception": exception, "dropped_chars": 0, "duration": 1.0, "exec_seconds": 0.5,
        "environment": {"device": "cuda", "gpu": "NVIDIA H200"}, "peak_memory": 0,
    }
    stored = {"schema": 1, "snippet": path, "recorded": "2026-01-02", "result": result,
              "source_sha256": recordings.source_digest((project.root / path).read_bytes())}
    file = recordings.recording_file(project.root, path)
    file.parent.mkdir(parents=True)
    file.write_text(json.dumps(stored))
    recording = recordings.load(project.root, path)
    assert recording is not None and not recording.stale
    (cell,) = recording.result.cells
    assert [output.kind for output in cell.outputs] == ["text", "text", "figure", "error"]
    assert cell.text() == "a\nb\n"  # cleaned as a cache entry is
    assert recording.result.figures[0].title == "Peak"
    assert recording.result.exception.message == "full" and recording.result.expected_exception


def test_a_recording_of_an_unknown_schema_is_refused_naming_its_file(project):
    path = project.snippet("page/new.py", "# docexec: cuda\nprint('a')\n")
    file = recordings.recording_file(project.root, path)
    file.parent.mkdir(parents=True)
    file.write_text(json.dumps({"schema": recordings.SCHEMA + 1}))
    with pytest.raises(recordings.RecordingError, match=r"recordings/page/new.json: schema 3, expected 2"):
        recordings.load(project.root, path)


@pytest.mark.this_site
def test_no_recording_of_this_project_is_stale():
    """Each line names a recording whose snippet changed or is gone: record again on a GPU."""
    assert recordings.stale(ROOT) == []


GPU_JOB_SANDBOX = """\
# docexec: cuda
import os

# CUDA's driver writes below /proc: a GPU job may, and the kernel's settings stay read-only.
with open("/proc/self/comm", "w") as comm:
    comm.write("gpu-job")
assert os.statvfs("/proc/sys").f_flag & os.ST_RDONLY
print("wrote /proc/self/comm; /proc/sys read-only")
"""
CPU_JOB_SANDBOX = """\
try:
    with open("/proc/self/comm", "w") as comm:
        comm.write("cpu-job")
    print("wrote /proc/self/comm")
except PermissionError:
    print("refused /proc/self/comm")
"""


def test_a_gpu_job_may_write_below_proc_but_not_the_kernel_settings_and_a_cpu_job_may_not(gpu_project):
    root = gpu_project.root
    gpu_project.snippet("page/gpu_sandbox.py", GPU_JOB_SANDBOX)
    gpu_project.snippet("page/cpu_sandbox.py", CPU_JOB_SANDBOX)
    ran = docexec(root, "run", "snippets/page", env=gpu_project.on_gpu)
    if "writes only in the snippet's own folders" in ran.stderr:
        pytest.skip("this kernel has no Landlock: writes are compared after the run instead")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "wrote /proc/self/comm; /proc/sys read-only" in ran.stdout
    assert "refused /proc/self/comm" in ran.stdout


def test_snippets_import_from_the_callers_python_path(project, tmp_path):
    """How the engine runs from a source tree beside a machine's own torch (.github/record-gpu.sh)."""
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "only_on_the_path.py").write_text("WHERE = 'found through PYTHONPATH'\n")
    project.snippet("page/imports.py", "from only_on_the_path import WHERE\nprint(WHERE)\n")
    ran = docexec(project.root, "run", "snippets/page/imports.py", env={"PYTHONPATH": str(extra)})
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "found through PYTHONPATH" in ran.stdout


@pytest.mark.this_site
def test_the_record_script_lists_this_projects_cuda_snippets_and_archives_a_dry_run(tmp_path):
    out = tmp_path / "out"
    ran = subprocess.run(
        [str(ROOT / ".github" / "record-gpu.sh"), str(out), str(tmp_path / "no-wheels")],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable, "DRY_RUN": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    listed = re.findall(r"^WOULD RUN (\S+)$", ran.stdout, re.MULTILINE)
    declared = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "snippets").rglob("*.py"))
        if re.search(r"^# docexec:.*\bcuda\b", path.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert listed == declared and len(listed) >= 17
    assert f"{len(listed)} CUDA snippets to record on a CUDA GPU" in ran.stdout
    archive = subprocess.run(["tar", "-tzf", str(out / "recordings.tar.gz")], capture_output=True, text=True)
    assert "record.log" in archive.stdout.split()
    assert (out / "record.log").read_text().startswith("recording on a CUDA GPU")


def test_a_recording_made_with_another_torch_release_says_which_one_the_site_pins(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\ndependencies = ["numpy", "torch==2.13.0"]\n')
    assert recordings.pinned_release(tmp_path) == "2.13.0"
    assert recordings.pinned_release(tmp_path / "elsewhere") is None

    def label(torch: str) -> str:
        result = Result("snippets/a.py", Status.PASSED, environment={"gpu": "NVIDIA H200", "torch": torch})
        recording = recordings.Recording("snippets/a.py", result, "2026-11-27", "0" * 64, False, "2.13.0")
        return recording.label()

    assert label("2.11.0") == "Recorded on NVIDIA H200 · torch 2.11.0 (the site pins 2.13.0) · 2026-11-27"
    assert label("2.13.0+cu128") == "Recorded on NVIDIA H200 · torch 2.13.0+cu128 · 2026-11-27"
