"""Completeness is proven by tests, not by care: every snippet is used, every page's code comes
from a snippet, every public object of the library is documented, the docs name real things."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from docexec import checks, config
from docexec.directives import directive_lines
from docexec.execution.engine import Engine
from docexec.hosts.cli import main as docexec_cli
from docexec.site import lab_page

SETTINGS = config.load(Path(__file__).resolve().parents[2])
LABS_DIR = SETTINGS.labs


def page_uri(snippet: str) -> str:
    return lab_page(snippet, SETTINGS)

# Libraries a snippet may import beside torch, numpy and matplotlib (declared in pyproject.toml).
THIRD_PARTY = {"pandas", "PIL", "webdataset", "sklearn", "captum", "tensorboard"}


def pages(root: Path) -> list[Path]:
    return sorted((root / "docs").rglob("*.md"))


def uses(root: Path) -> dict[str, list[Path]]:
    """snippet path -> the pages that %run it."""
    found: dict[str, list[Path]] = {}
    for page in pages(root):
        for _, _, path in directive_lines(page.read_text(encoding="utf-8").splitlines()):
            found.setdefault(path, []).append(page)
    return found


def nav_entries(root: Path) -> list[str]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    config = yaml.load((root / "mkdocs.yml").read_text(), Loader=Loader)  # noqa: S506 - SafeLoader subclass

    def walk(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, list):
            return [entry for item in node for entry in walk(item)]
        if isinstance(node, dict):
            return [entry for value in node.values() for entry in walk(value)]
        return []

    return walk(config["nav"])


def failures(problems: list) -> str:
    return "\n" + "\n".join(map(str, problems))


def test_every_snippet_is_used_by_a_page_or_is_a_lab_in_the_nav(root):
    engine = Engine(root)
    snippets = engine.all_snippets()
    problems = checks.unused_snippets(snippets, set(uses(root)), engine.config.labs)
    nav = nav_entries(root)
    problems += [
        checks.Problem(snippet, 1, f"the lab {page_uri(snippet)} is not in the nav of mkdocs.yml")
        for snippet in snippets
        if snippet.startswith(LABS_DIR + "/") and page_uri(snippet) not in nav
    ]
    assert not problems, failures(problems)


def test_snippet_names_say_what_they_show(root):
    engine = Engine(root)
    problems = [p for p in (checks.snippet_name(s, engine.config.labs) for s in engine.all_snippets()) if p]
    assert not problems, failures(problems)


def test_every_page_is_in_the_navigation(root):
    """The strict build fails on it too (MkDocs' validation.omitted_files); this says it in seconds."""
    nav = set(nav_entries(root))
    missing = [
        checks.Problem(f"docs/{uri}", 1, "this page is not in the nav of mkdocs.yml")
        for uri in (p.relative_to(root / "docs").as_posix() for p in pages(root))
        if uri not in nav
    ]
    assert not missing, failures(missing)


def test_every_run_line_names_an_existing_snippet(root):
    for snippet, where in uses(root).items():
        assert (root / snippet).is_file(), f"{[str(p) for p in where]}: %run {snippet}: no such file"


def test_snippets_live_in_the_folder_of_the_page_that_uses_them(root):
    for snippet, where in uses(root).items():
        folders = {"snippets/" + p.relative_to(root / "docs").with_suffix("").as_posix() for p in where}
        folder = Path(snippet).parent
        if folder.name == "drills":  # a page's drills keep their stub and solution in a folder of their own
            folder = folder.parent
        assert str(folder) in folders, f"{snippet} is used by {folders}"


def test_pages_hold_no_code_blocks_of_their_own(root):
    """In any block form: fences inside admonitions, tabs, details and blocks, and indented code."""
    problems = [
        problem
        for page in pages(root)
        for problem in checks.page_code_blocks(
            page.read_text(encoding="utf-8"), page.relative_to(root).as_posix()
        )
    ]
    assert not problems, failures(problems)


@pytest.mark.parametrize("snippet", Engine(Path(__file__).resolve().parents[2]).all_snippets())
def test_snippets_keep_the_contract(root, snippet):
    source = (root / snippet).read_text(encoding="utf-8")
    tree = ast.parse(source)
    guards = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "__name__"
    ]
    # Only spawn and forkserver need it: their new processes import the snippet again.
    starts_by_import = re.search(r"""(start_method|multiprocessing_context)=["'](spawn|forkserver)""", source)
    assert not guards or starts_by_import, (
        f"{snippet}: no `if __name__ == '__main__'` guard; snippets are top-level code"
    )
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    allowed = {"torch", "torchguide", "numpy", "matplotlib", "__future__", *THIRD_PARTY} | set(
        __import__("sys").stdlib_module_names
    )
    assert imported <= allowed, f"{snippet} imports {sorted(imported - allowed)}"


def test_recorded_outputs_hold_no_addresses_or_absolute_paths(root):
    engine = Engine(root, config.from_environment(root))  # the build's device and cache
    cpu = [p for p in engine.all_snippets() if not engine.declarations(p).cuda]
    results, _ = engine.execute(cpu, progress=False)
    unstable = re.compile(r"0x[0-9a-fA-F]{6,}|/tmp/|/home/|/root/|/work/|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}")
    for path, result in results.items():
        text = result.output + (result.exception.traceback if result.exception else "")
        assert not unstable.search(text), (
            f"{path} prints something that changes between runs: {unstable.search(text)}"
        )


def library_modules(root: Path) -> dict[str, Path]:
    """Dotted name -> source file of every module of the library (packages' modules too)."""
    package = root / "src"
    return {
        ".".join(path.relative_to(package).with_suffix("").parts): path
        for path in sorted((package / "torchguide").rglob("*.py"))
        if path.name not in ("__init__.py", "__main__.py")  # __main__ only starts a command line
    }


def public_objects(root: Path) -> dict[str, list[str]]:
    """module -> its public functions and classes, read from the source."""
    found = {}
    for module, path in library_modules(root).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found[module] = [
            node.name
            for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")
            and not internal(module)
        ]
    return found


def internal(module: str) -> bool:
    """A module named with a leading underscore (``torchguide.drills._containment``) is machinery of
    its package, not part of the library's API: it has unit tests, not a reference entry."""
    return module.rsplit(".", 1)[-1].startswith("_")


def unit_test_file(root: Path, module: str) -> Path:
    """`torchguide.data.collate` is tested in tests/torchguide/data/test_collate.py (an internal
    `_containment` in test_containment.py); where another folder has a test module of that name
    (test module names are unique), in test_collate_data.py."""
    *packages, name = module.split(".")[1:]
    folder = root.joinpath("tests", "torchguide", *packages)
    plain = folder / f"test_{name.lstrip('_')}.py"
    named_with_package = folder / f"test_{name.lstrip('_')}_{packages[-1]}.py" if packages else plain
    return named_with_package if not plain.is_file() and named_with_package.is_file() else plain


def test_every_library_module_has_a_reference_page_and_unit_tests(root):
    reference = "\n".join(p.read_text() for p in (root / "docs" / "reference").glob("*.md"))
    for module in public_objects(root):
        assert unit_test_file(root, module).is_file(), f"{module} has no unit tests"
        if internal(module):
            continue
        assert re.search(rf"^::: {re.escape(module)}\s*$", reference, re.M), (
            f"{module} is on no reference page"
        )
        assert unit_test_file(root, module).is_file(), f"{module} has no unit tests"


def test_every_public_object_is_in_the_built_api_reference(built_site, root):
    inventory = (built_site.path / "objects.inv").read_bytes()
    import zlib

    names = zlib.decompress(inventory.split(b"\n", 4)[4]).decode()
    for module, objects in public_objects(root).items():
        for name in objects:
            assert f"{module}.{name} py:" in names, f"{module}.{name} is missing from the API reference"


def test_every_public_function_has_a_docstring_example(root):
    modules = library_modules(root)
    for module, objects in public_objects(root).items():
        tree = ast.parse(modules[module].read_text())
        for node in tree.body:
            if getattr(node, "name", None) in objects:
                doc = ast.get_docstring(node) or ""
                assert "```python" in doc, f"{module}.{node.name} has no runnable example in its docstring"


DOCUMENTS = ["README.md", "docs/contributing.md"]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_docs_name_only_tasks_and_files_that_exist(root, document):
    text = (root / document).read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z-]+):.*## ", (root / "Makefile").read_text(), re.M))
    for task in re.findall(r"`make (\w[\w-]*)", text):
        assert task in targets, f"{document} names `make {task}`, which the Makefile does not have"
    for path in re.findall(r"`((?:docs|snippets|src|tests|templates|\.github|\.ci)/[^`*<>…]+?)`", text):
        if "<" in path or "…" in path:
            continue
        assert (root / path.split()[0]).exists(), f"{document} names {path}, which does not exist"
    for command in re.findall(r"(?:`|^\.venv/bin/)docexec ([a-z][a-z-]*)", text, re.M):
        with pytest.raises(SystemExit) as help_shown:
            docexec_cli([command, "--help"])
        assert help_shown.value.code == 0, f"{document} names `docexec {command}`, which does not exist"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_make_task_the_docs_name_expands_to_commands(root, document):
    """`make -n`: each recipe the docs send a reader to is valid, without running it."""
    for task in sorted(set(re.findall(r"`make (\w[\w-]*)", (root / document).read_text(encoding="utf-8")))):
        dry = subprocess.run(["make", "-n", task], cwd=root, capture_output=True, text=True, timeout=60)
        assert dry.returncode == 0 and dry.stdout.strip(), f"make -n {task}: {dry.stderr}"


def test_pytest_markdown_docs_collects_every_docstring_example(root):
    """A fence indented four spaces is read as an indented code block and silently skipped."""
    import subprocess
    import sys

    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "src/torchguide"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    for module, objects in public_objects(root).items():
        for name in objects:
            assert f"::{name}[CodeFence#1]" in collected, (
                f"{module}.{name}: its docstring example is not collected"
            )


def test_the_snippet_template_runs_and_keeps_the_contract(root, tmp_path):
    # Run where `make page` puts it: the engine runs files in snippets/ only.
    copy = tmp_path / "snippets" / "new-page" / "from_the_template.py"
    copy.parent.mkdir(parents=True)
    copy.write_text((root / "templates" / "snippet.py").read_text(encoding="utf-8"), encoding="utf-8")
    path = copy.relative_to(tmp_path).as_posix()
    settings = config.from_environment(root).replace(cache_dir=tmp_path / "cache")
    result = Engine(tmp_path, settings).execute([path], progress=False)[0][path]
    assert result.status == "passed", result.failure
    assert "same memory: True" in result.output


def test_the_page_template_uses_the_question_structure(root):
    from studysite.questions import parse

    (question,) = parse((root / "templates" / "page.md").read_text(encoding="utf-8"), "templates/page.md")
    assert question.anchor and question.asked_as and question.short_answer
    assert "/// html | div.answer" in question.body and "%run snippets/" in question.body
    (correction,) = question.corrections
    assert correction.title != "Correction" and "**Shown by:**" in correction.body
