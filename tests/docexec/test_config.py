"""One configuration: ``[tool.docexec]`` in pyproject.toml, the ``DOCEXEC_*`` variables over it at
the edges, every bad value refused naming ``pyproject.toml:LINE``; preloading changes speed only."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from docexec import config
from docexec.config import ConfigError
from docexec.execution.engine import Engine
from docexec.execution.result import Reason, Status

SETTINGS = """\
[project]
name = "example"

[tool.docexec]
preload = ["json"]
library = ["src/torchguide", "helpers.py"]
seed = 7
timeout = 12.5
memory = "512M"
cache-dir = "build/results"
device = "cpu"
"""


def test_every_key_is_read_relative_to_the_project(tmp_path):
    (tmp_path / "src" / "torchguide").mkdir(parents=True)
    (tmp_path / "helpers.py").write_text("")
    (tmp_path / "pyproject.toml").write_text(SETTINGS)
    settings = config.load(tmp_path)
    assert settings.preload == ("json",)
    assert settings.library == (tmp_path / "src" / "torchguide", tmp_path / "helpers.py")
    assert (settings.seed, settings.timeout, settings.memory) == (7, 12.5, 512 << 20)
    assert settings.cache_dir == tmp_path / "build" / "results"
    assert settings.device == "cpu" and not settings.force and settings.fork


def test_without_a_table_the_defaults_hold(tmp_path):
    settings = config.load(tmp_path)
    assert settings == config.Config(cache_dir=tmp_path / ".cache" / "docexec")
    assert settings.device is None  # detected


def test_the_variables_override_the_file_only_when_given(tmp_path):
    (tmp_path / "pyproject.toml").write_text(SETTINGS.replace("library", "# library"))
    assert config.load(tmp_path) == config.load(tmp_path, {})
    settings = config.load(
        tmp_path,
        {
            "DOCEXEC_DEVICE": "cuda",
            "DOCEXEC_CACHE_DIR": str(tmp_path / "elsewhere"),
            "DOCEXEC_FORCE": "1",
            "DOCEXEC_NO_FORK": "1",
        },
    )
    assert settings.device == "cuda" and settings.cache_dir == tmp_path / "elsewhere"
    assert settings.force and not settings.fork
    assert settings.seed == 7  # what no variable names stays as the file says
    assert not config.load(tmp_path, {"DOCEXEC_FORCE": "0", "DOCEXEC_NO_FORK": "0"}).force
    with pytest.raises(ConfigError, match="DOCEXEC_DEVICE=gpu: expected one of cpu, cuda"):
        config.load(tmp_path, {"DOCEXEC_DEVICE": "gpu"})


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("preloads = []", "unknown key; known keys: preload, library"),
        ('preload = "torch"', "expected a list of strings"),
        ('preload = ["torch nn"]', "'torch nn' is not a module name"),
        ('preload = ["no_such_package.core"]', "no module named 'no_such_package' is installed"),
        ('library = ["src/misspelt"]', "src/misspelt does not exist"),
        ("seed = -1", "expected a whole number from 0"),
        ("seed = true", "expected a whole number from 0"),
        ("timeout = inf", "expected seconds above 0 and at most 3600"),
        ("timeout = 0", "expected seconds above 0"),
        ('timeout = "30"', "expected seconds above 0"),
        ('memory = "4GB"', 'expected a size such as "512M"'),
        ('device = "gpu"', 'expected "auto" or one of cpu, cuda'),
        ('cache-dir = ""', "expected a non-empty string"),
        ('environment = ["not-installed"]', "no distribution named 'not-installed' is installed"),
        ('environment = ["Python"]', "'Python' is a name the environment keeps for itself"),
    ],
)
def test_a_bad_value_names_the_file_line_and_key(tmp_path, line, problem):
    table = f"[tool.docexec]\n# one line before\n{line}\n"
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\n\n{table}')
    key = line.split("=")[0].strip()
    with pytest.raises(ConfigError) as refused:
        config.load(tmp_path)
    assert str(refused.value).startswith(f"pyproject.toml:6: [tool.docexec] {key}: ")
    assert problem in str(refused.value)


def test_a_file_that_is_no_toml_or_no_table_is_refused_with_a_line(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.docexec]\nseed = = 1\n")
    with pytest.raises(ConfigError, match=r"^pyproject.toml:2: "):
        config.load(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool]\ndocexec = 3\n")
    with pytest.raises(ConfigError, match=r"^pyproject.toml:\d+: tool.docexec must be a table"):
        config.load(tmp_path)


@pytest.mark.parametrize(
    ("entry_point", "status"),
    [
        (["-m", "docexec.hosts.cli", "run"], 2),
        (["-m", "mkdocs", "build", "--strict"], 1),
        (["-m", "pytest", "-p", "docexec.hosts.pytest_plugin", "-p", "no:cacheprovider", "snippets"], 4),
    ],
    ids=["docexec run", "mkdocs build", "pytest"],
)
def test_each_entry_point_refuses_a_bad_configuration_with_its_line(project, entry_point, status):
    project.snippet("page/a.py", "print(1)\n")
    (project.root / "pyproject.toml").write_text("[tool.docexec]\ntimeout = -3\n")
    (project.root / "mkdocs.yml").write_text("site_name: tiny\nplugins: [docexec]\n")
    (project.root / "docs").mkdir()
    (project.root / "docs" / "index.md").write_text("# Tiny\n\n%run snippets/page/a.py\n")
    run = project.python(*entry_point)
    said = run.stdout + run.stderr
    assert run.returncode == status, said
    assert "pyproject.toml:2: [tool.docexec] timeout: expected seconds above 0" in said
    assert "Traceback" not in said


def test_a_preloaded_module_that_fails_to_import_is_named_without_a_traceback(project):
    project.snippet("page/a.py", "print(1)\n")
    (project.root / "pyproject.toml").write_text('[tool.docexec]\npreload = ["json.no_such_module"]\n')
    run = project.python("-m", "docexec.hosts.cli", "run")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "could not preload what [tool.docexec] preload names: ModuleNotFoundError" in run.stderr
    assert "json.no_such_module" in run.stderr and "Traceback" not in run.stderr


SEEDED = """\
import random
import numpy
import torch
print(random.random(), numpy.random.rand(), torch.rand(1).item(), torch.get_num_threads())
"""


@pytest.mark.torch
def test_preloading_changes_how_fast_a_snippet_starts_never_what_it_prints(project):
    path = project.snippet("seeded.py", SEEDED)
    imported_by_the_snippet = project.engine().execute([path], progress=False)[0][path]
    preloading = project.engine(preload=("numpy", "torch"), force=True)
    preloaded = preloading.execute([path], progress=False)[0][path]
    assert imported_by_the_snippet.status == preloaded.status == Status.PASSED
    assert imported_by_the_snippet.output == preloaded.output
    assert imported_by_the_snippet.output.split()[-1] == "1"  # one intra-op thread either way
    print(imported_by_the_snippet.output)


def test_the_seed_is_the_projects_and_part_of_every_results_key(project):
    path = project.snippet("draws.py", "import random\nprint(random.random())\n")
    zero, seven = project.engine(), project.engine(seed=7)
    assert zero.key(path) != seven.key(path)
    outputs = {engine.execute([path], progress=False)[0][path].output for engine in (zero, seven)}
    assert len(outputs) == 2


def test_the_defaults_for_time_and_memory_are_the_projects_and_a_declaration_beats_them(project):
    waits = project.snippet("waits.py", "import time\ntime.sleep(5)\n")
    declared = project.snippet("declared.py", "# docexec: timeout=0.5\nimport time\ntime.sleep(5)\n")
    results, _ = project.engine(timeout=1.0).execute([waits], progress=False)
    assert "timed out after 1 s" in results[waits].failure
    results, _ = project.engine(timeout=60.0).execute([declared], progress=False)
    assert "timed out after 0.5 s" in results[declared].failure


def test_the_command_line_runs_the_snippets_under_another_seed_on_request(project):
    path = project.snippet("page/draws.py", "import random\nprint(random.random())\n")

    def draw(*options: str) -> subprocess.CompletedProcess:
        return project.python("-m", "docexec.hosts.cli", "run", path, *options)

    assert str(random.Random(0).random()) in draw().stdout
    assert str(random.Random(5).random()) in draw("--seed", "5").stdout
    refused = draw("--seed", "-1")
    assert refused.returncode == 2 and "--seed: expected a whole number from 0" in refused.stderr


LAYOUT = """\
[tool.docexec]
snippets = "examples"
labs = "examples/notebooks/"
docs = "pages"
reference-page = "api/index.md"
library-module = "mylib"
library-distribution = "my-project"
markdown-docs = ["GUIDE.md", "src/mylib/"]
templates = "page-templates"
notebook-cells = "mysite.cells"
"""


def test_the_layout_is_the_projects_own(tmp_path):
    for folder in ("examples/notebooks", "pages", "page-templates"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text(LAYOUT)
    settings = config.load(tmp_path)
    assert (settings.snippets, settings.labs, settings.docs) == ("examples", "examples/notebooks", "pages")
    assert (settings.reference_page, settings.library_module, settings.library_distribution) == (
        "api/index.md",
        "mylib",
        "my-project",
    )
    assert settings.markdown_docs == ("GUIDE.md", "src/mylib") and settings.templates == "page-templates"
    assert settings.notebook_cells == "mysite.cells"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('snippet = "examples"', "unknown key; known keys: preload, "),
        ('layout = {docs = "pages"}', "unknown key; known keys: preload, "),
        ('snippets = "examples"', "examples/ is not a folder of the project"),
        ('labs = "snippets/notebooks"', "snippets/notebooks/ is not a folder of the project"),
        ('templates = "missing"', "missing/ is not a folder of the project"),
        ('docs = "../site"', "expected a path inside the project such as 'docs', got '../site'"),
        ('snippets = "snippets/../.."', "expected a path inside the project"),
        ('reference-page = "../README.md"', "expected a path inside the project"),
        ('markdown-docs = ["README.md", "docs/../../x.md"]', "expected a path inside the project"),
        ('labs = "/tmp"', "expected a path inside the project"),
        ('snippets = "leads-out"', "leads-out/ leads out of the project (links followed)"),
        ('library-module = "my lib"', "'my lib' is not a module name"),
        ('notebook-cells = "my-site.cells"', "'my-site.cells' is not a module name"),
        ("library-distribution = 3", "expected a non-empty string"),
    ],
)
def test_a_layout_that_cannot_be_used_names_the_file_line_and_key(tmp_path, line, problem):
    (tmp_path / "snippets").mkdir()
    (tmp_path / "leads-out").symlink_to(tmp_path.parent)
    (tmp_path / "pyproject.toml").write_text(
        f'[project]\nname = "x"\n\n[tool.docexec]\n# one line before\n{line}\n'
    )
    key = line.split("=")[0].strip()
    with pytest.raises(ConfigError) as refused:
        config.load(tmp_path)
    assert str(refused.value).startswith(f"pyproject.toml:6: [tool.docexec] {key}: "), refused.value
    assert problem in str(refused.value)


def test_a_project_is_found_by_its_table_or_by_a_snippets_folder(tmp_path):
    from docexec.execution.engine import find_root

    (tmp_path / "site" / "pages" / "guide").mkdir(parents=True)
    (tmp_path / "site" / "examples").mkdir()
    (tmp_path / "site" / "pyproject.toml").write_text('[tool.docexec]\nsnippets = "examples"\n')
    assert find_root(tmp_path / "site" / "pages" / "guide") == tmp_path / "site"
    (tmp_path / "plain" / "snippets").mkdir(parents=True)  # no pyproject.toml: the default folder
    assert find_root(tmp_path / "plain" / "snippets") == tmp_path / "plain"
    (tmp_path / "broken" / "deep").mkdir(parents=True)  # found, so that `load` can say what is wrong
    (tmp_path / "broken" / "pyproject.toml").write_text("[tool.docexec]\nseed = = 1\n")
    assert find_root(tmp_path / "broken" / "deep") == tmp_path / "broken"
    (tmp_path / "other" / "deep").mkdir(parents=True)
    (tmp_path / "other" / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    assert config.is_project(tmp_path / "site") and not config.is_project(tmp_path / "other")


PASSES = "print('two and two make', 2 + 2)\nassert 2 + 2 == 4\n"


def test_a_project_with_its_own_folder_names_runs_through_the_command_line_and_the_engine(tmp_path):
    """Nothing here is called snippets/ or docs/: every name comes from [tool.docexec]."""
    root = tmp_path / "site"
    (root / "examples" / "guide").mkdir(parents=True)
    (root / "pages" / "guide").mkdir(parents=True)
    (root / "examples" / "guide" / "adds_two_numbers.py").write_text(PASSES)
    (root / "examples" / "guide" / "divides_by_zero.py").write_text("1 / 0\n")
    (root / "pages" / "guide" / "index.md").write_text("# Guide\n\n%run examples/guide/adds_two_numbers.py\n")
    (root / "pyproject.toml").write_text('[tool.docexec]\nsnippets = "examples"\ndocs = "pages"\n')
    env = {**os.environ, "DOCEXEC_CACHE_DIR": str(tmp_path / "cache"), "DOCEXEC_DEVICE": "cpu"}

    def docexec(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "docexec.hosts.cli", *args]
        return subprocess.run(command, cwd=root / "pages" / "guide", env=env, capture_output=True, text=True)

    everything = docexec("run")  # from a page's folder: the project is found by its table
    assert everything.returncode == 1, everything.stdout + everything.stderr
    assert "PASS examples/guide/adds_two_numbers.py" in everything.stdout
    assert "FAIL examples/guide/divides_by_zero.py" in everything.stdout
    assert "examples/guide/divides_by_zero.py:1: ZeroDivisionError" in everything.stdout
    one = docexec("run", "../../examples/guide/adds_two_numbers.py")
    assert one.returncode == 0 and "two and two make 4" in one.stdout, one.stdout + one.stderr
    refused = docexec("run", ".")
    assert refused.returncode == 2
    assert "holds no snippet (snippets are the .py files under examples/)" in refused.stderr

    pytest_run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "docexec.hosts.pytest_plugin", "-p", "no:cacheprovider",
         "--rootdir", str(root), "examples"],
        cwd=root, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert "1 failed, 1 passed" in pytest_run.stdout, pytest_run.stdout + pytest_run.stderr

    engine = Engine(root, config.load(root).replace(cache_dir=tmp_path / "cache", device="cpu"))
    assert engine.all_snippets() == [
        "examples/guide/adds_two_numbers.py",
        "examples/guide/divides_by_zero.py",
    ]
    results, summary = engine.execute(["examples/guide/adds_two_numbers.py"], progress=False)
    assert results["examples/guide/adds_two_numbers.py"].status is Status.PASSED and summary.cached == 1
    (root / "snippets").mkdir()  # a folder of the default name is no snippets folder of this project
    (root / "snippets" / "elsewhere.py").write_text(PASSES)
    elsewhere = engine.execute(["snippets/elsewhere.py"], progress=False)[0]["snippets/elsewhere.py"]
    assert elsewhere.reason is Reason.NO_SUCH_SNIPPET and "not inside examples/" in elsewhere.failure


def test_the_environment_names_installed_distributions_in_the_order_given(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.docexec]\nenvironment = ["pytest", "jsonschema"]\n')
    assert config.load(tmp_path).environment == ("pytest", "jsonschema")
    (tmp_path / "pyproject.toml").write_text("[tool.docexec]\n")
    assert config.load(tmp_path).environment == ()  # the engine names no library of its own
