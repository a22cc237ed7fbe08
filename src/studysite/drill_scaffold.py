"""``python -m studysite.drill_scaffold new NAME``: the files of a drill already defined in a
drills module of `torchguide.drills`; ``sync``: every drill's section rewritten on its page in the
current format (after a change to `studysite.drill_pages.drill_section`).

Writes the stub and solution snippets (where they do not exist yet) from the reference's signature
and source, a folder for its wrong solutions, and the drill's section on its page right after the
question it practises (or brings an existing section up to date with the statement and hints).
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
import textwrap
from pathlib import Path

from studysite.drill_pages import drill_section, practice_table
from torchguide.drills import all_drills
from torchguide.drills.framework import Drill


def scaffold(drill: Drill, root: Path) -> list[str]:
    """Writes what is missing of the drill under ``root``; returns what it did, one line each.

    Examples:
      ```python
      import pathlib, tempfile
      from torchguide.drills import get
      from studysite.drill_scaffold import scaffold

      root = pathlib.Path(tempfile.mkdtemp())
      drill = get("pad_collate")
      page = root / "docs" / f"{drill.page}.md"
      page.parent.mkdir(parents=True)
      page.write_text("## Padding { #variable-length-sequences }\\n\\ntext\\n")
      done = scaffold(drill, root)
      assert (root / drill.stub_path).is_file() and "### Practice:" in page.read_text()
      assert scaffold(drill, root) == []  # nothing left to do
      ```
    """
    done = []
    signature = inspect.signature(drill.reference)
    header = f"def {drill.function}{signature}:\n"
    stub = root / drill.stub_path
    if not stub.exists():
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text(f'{header}    """{drill.title}."""\n    raise NotImplementedError\n')
        done.append(f"wrote {drill.stub_path}")
    solution = root / drill.solution_path
    if not solution.exists():
        body = textwrap.dedent(inspect.getsource(drill.reference)).split("\n", 1)[1]
        imports = "import torch\n" if "torch" in body else ""
        imports += "import torch.nn.functional as F\n" if "F." in body else ""
        imports += "\n" if imports else ""  # the library's import after the third-party ones
        solution.write_text(
            f"{imports}from torchguide.drills import check_here\n\n\n"
            f'{header}{body.rstrip()}\n\n\ncheck_here("{drill.id}", {drill.function})\n'
        )
        done.append(f"wrote {drill.solution_path} (from the reference: make it read well)")
    wrong = root / "tests" / "torchguide" / "drills" / "wrong" / drill.id
    if not wrong.exists():
        wrong.mkdir(parents=True)
        done.append(f"made {wrong.relative_to(root)}/ (add two wrong solutions, '# expect: <message>' first)")
    done += _update_practice_page(root)
    done += sync_section(drill, root)
    return done


def sync_section(drill: Drill, root: Path) -> list[str]:
    """The drill's section on its page as `drill_section` writes it now: an older section (another
    format, an old statement or hints) is replaced in place, a missing one inserted right after the
    question it practises. Returns what it did, one line each (nothing where it was up to date).

    Examples:
      ```python
      import pathlib, tempfile
      from torchguide.drills import get
      from studysite.drill_pages import drill_section
      from studysite.drill_scaffold import sync_section

      root = pathlib.Path(tempfile.mkdtemp())
      drill = get("pad_collate")
      page = root / "docs" / f"{drill.page}.md"
      page.parent.mkdir(parents=True)
      old = f"### Practice: {drill.title} {{ #{drill.anchor} }}\\n\\nAn older section.\\n"
      page.write_text(f"## Padding {{ #{drill.question} }}\\n\\n{old}\\n## Next\\n")
      assert sync_section(drill, root) == [f"updated its section on docs/{drill.page}.md"]
      assert drill_section(drill) in page.read_text() and "An older section" not in page.read_text()
      assert page.read_text().endswith("## Next\\n") and sync_section(drill, root) == []
      ```
    """
    page = root / "docs" / f"{drill.page}.md"
    text = page.read_text(encoding="utf-8")
    section = drill_section(drill)
    if section in text:
        return []
    # [^\n]*, not .*: under re.S a .* would start at the page's first drill heading, not this one
    old = re.search(rf"^### Practice: [^\n]* \{{ #{drill.anchor} \}}$.*?(?=^##|\Z)", text, re.M | re.S)
    if old:
        text = text[: old.start()] + section + "\n" + text[old.end() :].lstrip("\n")
        done = f"updated its section on docs/{drill.page}.md"
    else:
        lines = text.split("\n")
        heading = re.compile(rf"^## .* \{{ #{drill.question} \}}\s*$")
        start = next((i for i, line in enumerate(lines) if heading.match(line)), None)
        if start is None:
            raise ValueError(f"docs/{drill.page}.md has no question #{drill.question}")
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        while end > start and not lines[end - 1].strip():
            end -= 1
        lines[end:end] = ["", *section.rstrip("\n").split("\n")]
        text = "\n".join(lines)
        done = f"inserted its section into docs/{drill.page}.md after #{drill.question}"
    page.write_text(text, encoding="utf-8")
    return [done]


def sync_all(root: Path) -> list[str]:
    """Every drill's section, and the Practice page's table, as the code writes them now: one
    command brings pages written in an older format up to date (`python -m studysite.drill_scaffold sync`).

    Examples:
      ```python
      import pathlib, shutil, tempfile
      import torchguide
      from torchguide.drills import all_drills
      from studysite.drill_scaffold import sync_all

      project = pathlib.Path(torchguide.__file__).resolve().parents[2]  # a checkout: src/torchguide
      root = pathlib.Path(tempfile.mkdtemp())
      for page in {drill.page for drill in all_drills().values()}:
          (root / "docs" / f"{page}.md").parent.mkdir(parents=True, exist_ok=True)
          shutil.copy(project / "docs" / f"{page}.md", root / "docs" / f"{page}.md")
      assert sync_all(root) == []  # the project's pages are in the current format
      ```
    """
    done = []
    for drill in all_drills().values():
        if drill.lab is None:  # a lab's task lives in its lab, not in a section of a page
            done += [f"{drill.id}: {line}" for line in sync_section(drill, root)]
    return done + _update_practice_page(root)


def _update_practice_page(root: Path) -> list[str]:
    """The Practice page's table, from the table's first line to the end of the page, rewritten."""
    practice, nav = root / "docs" / "practice.md", root / "mkdocs.yml"
    if not practice.exists() or not nav.exists():
        return []
    titles = {  # a title with a colon is quoted in the YAML
        m[2].removesuffix(".md"): m[0] or m[1]
        for m in re.findall(r'- (?:"([^"\n]+)"|([^:\n]+)): (week-[\w/-]+\.md)', nav.read_text())
    }
    text = practice.read_text(encoding="utf-8")
    table = practice_table([drill for drill in all_drills().values() if drill.lab is None], titles)
    updated = text[: text.index("| topic | drill |")] + table + "\n"
    if updated == text:
        return []
    practice.write_text(updated, encoding="utf-8")
    return ["updated the table of docs/practice.md"]


def main(argv: list[str] | None = None) -> int:
    """The command line, run from the project's root; returns its exit status (2: no such drill)."""
    parser = argparse.ArgumentParser(
        prog="python -m studysite.drill_scaffold", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="write the stub, solution and page section of a defined drill")
    new.add_argument("name")
    commands.add_parser(
        "sync", help="rewrite every drill's section and the Practice table in the current format"
    )
    arguments = parser.parse_args(argv)
    if arguments.command == "sync":
        done = sync_all(Path.cwd()) or ["every drill's section is up to date"]
    else:
        drill = all_drills().get(arguments.name)
        if drill is None:
            print(
                f"no drill named {arguments.name!r}; `python -m torchguide.drills list` lists them",
                file=sys.stderr,
            )
            return 2
        done = scaffold(drill, Path.cwd()) or ["nothing to do: its files and section are in place"]
    for line in done:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
