"""The device is the engine's parameter: pinned by tests, read from ``DOCEXEC_*`` only at the edges,
part of every result's key, and named (GPU model, CUDA release) in the provenance."""

from __future__ import annotations

import importlib.metadata
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from fake_gpu import fake_nvidia_smi

from docexec import config
from docexec.execution import device
from docexec.execution.engine import Engine
from docexec.execution.result import Status
from docexec.render import provenance

GPU_SNIPPET = "# docexec: cuda\nprint('declared for CUDA, runs anywhere')\n"
REAL_GPU = device.detect_device() == "cuda"


def test_the_device_is_a_parameter_and_the_environment_does_not_reach_the_engine(project, monkeypatch):
    monkeypatch.setenv("DOCEXEC_DEVICE", "cuda")
    monkeypatch.setenv("DOCEXEC_FORCE", "1")
    monkeypatch.setenv("DOCEXEC_CACHE_DIR", str(project.root / "elsewhere"))
    engine = Engine(project.root)
    assert engine.environment["device"] == device.detect_device()
    assert not engine.force and engine.cache.root == project.root.resolve() / ".cache" / "docexec"
    on_gpu = config.load(project.root).replace(device="cuda")
    assert Engine(project.root, on_gpu).environment["device"] == "cuda"
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        Engine(project.root, on_gpu.replace(device="tpu"))


def test_the_command_line_names_a_bad_device(project, monkeypatch):
    project.snippet("page/a.py", "print(1)\n")
    monkeypatch.setenv("DOCEXEC_DEVICE", "gpu")
    run = project.python("-m", "docexec.hosts.cli", "run")
    assert run.returncode == 2 and "DOCEXEC_DEVICE=gpu: expected one of cpu, cuda" in run.stderr


def test_cpu_and_gpu_results_never_serve_each_other(project):
    plain = project.snippet("page/plain.py", "print('anywhere')\n")
    gpu = project.snippet("page/gpu.py", GPU_SNIPPET)
    on_gpu = project.engine(device="cuda")
    results, summary = on_gpu.execute([plain, gpu], progress=False)
    assert summary.executed == 2 and results[gpu].status == Status.PASSED
    assert results[gpu].environment["device"] == "cuda"
    on_cpu = project.engine(device="cpu")
    assert on_cpu.key(plain) != on_gpu.key(plain)
    results, summary = on_cpu.execute([plain, gpu], progress=False)
    assert (summary.executed, summary.cached, summary.skipped) == (1, 0, 1)
    assert results[gpu].status == Status.SKIPPED and results[plain].environment["device"] == "cpu"
    assert project.engine(device="cuda").execute([plain, gpu], progress=False)[1].cached == 2


def test_the_key_covers_the_dependency_pins_and_the_declarations_parser(project):
    a = project.snippet("a.py", "print(1)\n")
    pyproject = project.root / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["torch==2.13.0"]\n')
    key = project.engine().key(a)
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["torch==2.14.0"]\n')
    assert project.engine().key(a) != key
    bumped_extra = '[project]\nname = "x"\ndependencies = ["torch==2.14.0"]\n'
    pyproject.write_text(bumped_extra + '[project.optional-dependencies]\ndocs = ["mkdocs<2"]\n')
    assert project.engine().key(a) != key


def test_the_key_covers_every_module_of_the_execution_and_sandbox_folders(tmp_path):
    import shutil

    import docexec
    from docexec.execution.engine import engine_digest

    package = tmp_path / "docexec"
    shutil.copytree(Path(docexec.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = engine_digest(package)
    (package / "render" / "markdown_ext.py").write_text("# rendering decides no output\n")
    assert engine_digest(package) == before
    (package / "sandbox" / "a_new_restriction.py").write_text("LIMIT = 1\n")
    with_new_module = engine_digest(package)
    assert with_new_module != before  # a module added there is in the key without a list to edit
    (package / "execution" / "declarations.py").write_text("# changed\n")
    assert engine_digest(package) != with_new_module


def test_on_cuda_the_gpu_model_and_cuda_release_are_named_and_keyed(project, tmp_path, monkeypatch):
    a = project.snippet("a.py", "print(1)\n")
    monkeypatch.setenv("PATH", fake_nvidia_smi(tmp_path / "h100", "NVIDIA H100 80GB HBM3")["PATH"])
    h100 = project.engine(device="cuda")
    assert h100.environment["gpu"] == "NVIDIA H100 80GB HBM3"
    assert device.cuda_version("2.13.0+cu128") == "12.8" and device.cuda_version("2.13.0+cu130") == "13.0"
    words = provenance.environment_words({**h100.environment, "cuda": "12.8", "torch": "2.13.0+cu128"})
    assert words.startswith("on a CUDA GPU (NVIDIA H100 80GB HBM3, CUDA 12.8) with torch 2.13.0+cu128")
    monkeypatch.setenv("PATH", fake_nvidia_smi(tmp_path / "a100", "NVIDIA A100-SXM4-40GB")["PATH"])
    assert project.engine(device="cuda").key(a) != h100.key(a)  # another GPU, another result
    assert "gpu" not in project.engine(device="cpu").environment


@pytest.mark.skipif(not REAL_GPU, reason="needs a CUDA GPU")
def test_on_a_real_gpu_the_snippet_sees_the_gpu_the_provenance_names(project):
    code = "# docexec: cuda\nimport torch\nprint(torch.cuda.get_device_name())\n"
    path = project.snippet("page/name.py", code)
    engine = project.engine(device=None)
    result = engine.execute([path], progress=False)[0][path]
    assert result.status == Status.PASSED, result.failure
    assert result.output.strip() == engine.environment["gpu"]


def test_a_page_says_a_gpu_only_for_the_outputs_that_ran_on_one():
    h100 = {
        "device": "cuda",
        "gpu": "NVIDIA H100",
        "cuda": "12.8",
        "torch": "2.13.0+cu128",
        "python": "3.11.7",
    }
    on_cpu = "on a CPU with torch 2.13.0+cu128 and Python 3.11.7"
    assert provenance.page_words(h100, [False, False]) == on_cpu  # the CUDA runner's plain snippets
    assert provenance.page_words(h100, []) == on_cpu
    assert provenance.page_words(h100, [True]).startswith("on a CUDA GPU (NVIDIA H100, CUDA 12.8) with torch")
    assert provenance.page_words(h100, [True, False]) == (
        "on a CUDA GPU (NVIDIA H100, CUDA 12.8) for the snippets that need one and on a CPU for the others,"
        " with torch 2.13.0+cu128 and Python 3.11.7"
    )
    cpu = {"device": "cpu", "torch": "2.13.0+cpu", "python": "3.11.7"}
    assert provenance.page_words(cpu, [True, False]) == "on a CPU with torch 2.13.0+cpu and Python 3.11.7"


def test_on_the_cuda_runner_a_page_line_names_each_device_its_outputs_ran_on(project, tmp_path):
    """As the GPU runner builds (``DOCEXEC_DEVICE=cuda``): a page of plain snippets says the CPU,
    a page with a snippet declared ``cuda`` says the GPU for it."""
    (project.root / "mkdocs.yml").write_text("site_name: tiny\nplugins: [docexec]\n")
    # Any installed distribution is named alike: pytest is one wherever these tests run.
    (project.root / "pyproject.toml").write_text('[tool.docexec]\nenvironment = ["pytest"]\n')
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Plain\n\n%run snippets/page/runs_anywhere.py\n")
    (project.root / "docs" / "mixed.md").write_text(
        "# Mixed\n\n%run snippets/page/runs_anywhere.py\n\n%run snippets/page/declared_for_cuda.py\n"
    )
    project.snippet("page/runs_anywhere.py", "print('anywhere')\n")
    project.snippet("page/declared_for_cuda.py", GPU_SNIPPET)
    env = {
        **os.environ,
        **fake_nvidia_smi(tmp_path / "bin", "NVIDIA Fake 80GB"),
        "DOCEXEC_DEVICE": "cuda",
        "DOCEXEC_CACHE_DIR": str(project.cache_dir),
        "NO_MKDOCS_2_WARNING": "1",
    }
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=project.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr

    def page_line(page: str) -> str:
        html = (project.root / "site" / page).read_text()
        return html[html.index('<p class="docexec-page-line">') :].split(", built")[0]

    assert page_line("index.html").endswith(
        "produced on a CPU with pytest "
        + importlib.metadata.version("pytest")
        + " and Python "
        + platform.python_version()
    )
    assert "produced on a CUDA GPU (NVIDIA Fake 80GB, CUDA " in page_line("mixed/index.html")
    assert "for the snippets that need one and on a CPU for the others" in page_line("mixed/index.html")


def test_the_cuda_release_of_a_wheel_without_a_local_tag_is_read_from_its_version_file(tmp_path, monkeypatch):
    """PyPI's CUDA 13 wheels are plain ``2.11.0``: torch/version.py still says what they were built for."""
    import importlib.machinery
    import importlib.util

    from docexec.execution import device

    package = tmp_path / "torch"
    package.mkdir()
    (package / "version.py").write_text("__version__ = '2.11.0'\ncuda: Optional[str] = '13.0'\n")
    spec = importlib.machinery.ModuleSpec("torch", None, is_package=True)
    spec.submodule_search_locations = [str(package)]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec if name == "torch" else None)
    assert device.cuda_version("2.11.0") == "13.0"
    assert device.cuda_version("2.13.0+cu128") == "12.8"  # the local tag, where there is one
    (package / "version.py").write_text("cuda: Optional[str] = None\n")  # a CPU build
    assert device._version_file_cuda() is None


def test_without_torch_the_device_is_the_cpu_and_no_gpu_is_looked_for(monkeypatch):
    def absent(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", absent)
    monkeypatch.setattr(device, "gpu_model", lambda: pytest.fail("a GPU looked for without torch"))
    assert device.detect_device() == "cpu"
    assert device.environment("cpu", "absent") == {"device": "cpu"}


def test_the_engine_reports_the_configured_distributions_and_python(project):
    engine = project.engine(environment=("pytest", "jsonschema"))
    environment = engine.environment
    assert list(provenance.distributions(environment)) == ["pytest", "jsonschema"]
    assert environment["pytest"] == importlib.metadata.version("pytest")
    assert provenance.environment_words(environment) == (
        f"on a CPU with pytest {environment['pytest']}, jsonschema {environment['jsonschema']}"
        f" and Python {platform.python_version()}"
    )
    bare = project.engine(environment=()).environment
    assert provenance.environment_words(bare) == f"on a CPU with Python {platform.python_version()}"
    assert provenance.differs(environment, bare)  # a result keyed and worded otherwise
