"""The engine names none of this project's folders, pages or library: they come from
``[tool.docexec]``, so ``src/docexec`` could be published on its own. The names are read from the
project's own configuration and pages, so a renamed folder is still looked for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import docexec
from docexec import config

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path(docexec.__file__).resolve().parent


def project_names(root: Path) -> dict[str, re.Pattern[str]]:
    """Each name of the project at ``root`` and how a mention of it looks in code or prose."""
    settings = config.load(root)
    exact = [settings.library_module, settings.library_distribution, settings.labs, *settings.markdown_docs]
    if settings.reference_page:
        exact.append(settings.reference_page)
    names = {name: re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])") for name in exact if name}
    docs = root / settings.docs
    places = {page.relative_to(docs).with_suffix("").as_posix() for page in docs.rglob("*.md")}
    places |= {
        folder.name for page in docs.rglob("*.md") for folder in page.relative_to(docs).parents if folder.name
    }
    for place in places - {"index"}:  # index.md is MkDocs' name for a folder's page, not ours
        if "-" in place or "/" in place:  # a slug (week-1, how-this-site-works): no word of prose
            names[place] = re.compile(rf"(?<![\w-]){re.escape(place)}(?![\w-])")
        else:  # a one-word page or folder (reference, practice): named as a path
            names[place] = re.compile(rf"(?<![\w./-]){re.escape(place)}(?=/|\.md\b)")
    return names


def mentions(folder: Path, names: dict[str, re.Pattern[str]]) -> list[str]:
    """``file:line: names: the line`` for every line of a Python file under ``folder`` that names one."""
    found = []
    for file in sorted(folder.rglob("*.py")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
            named = [name for name, pattern in sorted(names.items()) if pattern.search(line)]
            if named:
                where = f"{file.relative_to(folder.parent).as_posix()}:{number}"
                found.append(f"{where}: {', '.join(named)}: {line.strip()}")
    return found


@pytest.mark.this_site
def test_the_names_come_from_the_projects_configuration_and_pages():
    names = project_names(ROOT)
    settings = config.load(ROOT)
    assert {settings.library_module, settings.library_distribution, settings.labs} <= set(names)
    assert settings.reference_page in names and set(settings.markdown_docs) <= set(names)
    page_folders = {p.parent.name for p in (ROOT / settings.docs).rglob("*.md")} - {settings.docs}
    assert page_folders and page_folders <= set(names)


def test_a_mention_is_found_with_its_file_and_line(tmp_path):
    (tmp_path / "docs" / "week-3").mkdir(parents=True)
    (tmp_path / "docs" / "week-3" / "loaders.md").write_text("# Loaders\n")
    (tmp_path / "docs" / "guide").mkdir()
    (tmp_path / "docs" / "guide" / "index.md").write_text("# Guide\n")
    (tmp_path / "pyproject.toml").write_text('[tool.docexec]\nlibrary-module = "mylib"\n')
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "a.py").write_text(
        'import os\nPAGE = "week-3/loaders"  # the page\nimport mylib\n'
        "# a guide, a mylibrary, week-30 and index.md say nothing of the project\n"
        'HOME = "guide/index.md"\n'
    )
    assert mentions(engine, project_names(tmp_path)) == [
        'engine/a.py:2: week-3, week-3/loaders: PAGE = "week-3/loaders"  # the page',
        "engine/a.py:3: mylib: import mylib",
        'engine/a.py:5: guide, guide/index: HOME = "guide/index.md"',
    ]


@pytest.mark.this_site
def test_the_engine_names_none_of_the_projects_folders_pages_or_library():
    found = mentions(ENGINE, project_names(ROOT))
    assert not found, "src/docexec names what [tool.docexec] should say:\n" + "\n".join(found)
