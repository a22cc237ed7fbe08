"""The engine is a distribution of its own (engine/pyproject.toml): it imports nothing of the site's
packages anywhere in its code (also inside a function), and torch only where it goes on without it
(an import guarded by ``except ImportError``: the notebooks' CUDA check), so it installs and runs alone."""

from __future__ import annotations

import ast
from pathlib import Path

import docexec

ENGINE = Path(docexec.__file__).resolve().parent
# The site's packages, and the library whose presence the engine detects without importing it.
FORBIDDEN = {"studysite", "torchguide", "torch"}
OPTIONAL = {"torch"}  # allowed where the import is guarded: a missing torch is then no error


def _guarded(tree: ast.AST) -> set[int]:
    """The ids of import nodes inside a ``try`` whose handlers catch ImportError."""
    guarded = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        caught = {ast.unparse(handler.type) for handler in node.handlers if handler.type is not None}
        if caught & {"ImportError", "ModuleNotFoundError"}:
            guarded |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return guarded


def imports(folder: Path, skip_optional: bool = False) -> list[tuple[str, int, str]]:
    """(file, line, module) for every absolute import in the Python files under ``folder``;
    ``skip_optional``: leaves out a guarded import of an `OPTIONAL` module."""
    found = []
    for file in sorted(folder.rglob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
        guarded = _guarded(tree) if skip_optional else set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            if id(node) in guarded:
                modules = [name for name in modules if name.partition(".")[0] not in OPTIONAL]
            found += [(file.relative_to(folder.parent).as_posix(), node.lineno, name) for name in modules]
    return found


def crossings(folder: Path) -> list[str]:
    return [
        f"{file}:{line}: imports {module}"
        for file, line, module in imports(folder, skip_optional=True)
        if module.partition(".")[0] in FORBIDDEN
    ]


def test_an_import_of_the_site_is_found_with_its_file_and_line(tmp_path):
    package = tmp_path / "engine"
    package.mkdir()
    (package / "a.py").write_text(
        "import os\nfrom . import b\n\ndef f():\n    from studysite.plugin import X\n    import torch.nn\n"
    )
    (package / "b.py").write_text(
        "import torchguide_extras\nfrom torchguide import layout\n"
        "try:\n    import torch\nexcept ImportError:\n    torch = None\n"
        "try:\n    import torchguide\nexcept ImportError:\n    pass\n"
    )
    assert crossings(package) == [
        "engine/a.py:5: imports studysite.plugin",
        "engine/a.py:6: imports torch.nn",
        "engine/b.py:2: imports torchguide",
        "engine/b.py:8: imports torchguide",  # the site's packages, guarded or not
    ]


def test_the_engine_imports_nothing_of_the_site_and_no_torch():
    found = crossings(ENGINE)
    assert imports(ENGINE), "no import found: the scan reads nothing"
    assert not found, "src/docexec reaches past its distribution:\n" + "\n".join(found)
