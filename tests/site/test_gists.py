"""Every long snippet puts its point in view: a gist of a few marked lines, shown before the output,
with the whole proof one click away (`docexec.render.gist`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docexec import config
from docexec.render.gist import GIST_NEEDED_OVER, MAX_GIST_LINES, gist_problems

ROOT = Path(__file__).resolve().parents[2]
LABS_DIR = config.load(ROOT).labs


def page_snippets(root: Path) -> list[str]:
    """Every proof a page shows. Labs are notebooks and keep their whole code; a drill's stub and
    reference solution are shown whole: the reader opened the solution's box to read all of it."""
    return sorted(
        path.relative_to(root).as_posix()
        for path in (root / "snippets").rglob("*.py")
        if not path.relative_to(root).as_posix().startswith(LABS_DIR + "/") and path.parent.name != "drills"
    )


def all_gist_problems(root: Path) -> list[str]:
    return [problem for path in page_snippets(root) for problem in gist_problems(root, path)]


def test_every_long_snippet_has_a_short_gist_between_balanced_markers():
    problems = all_gist_problems(ROOT)
    assert not problems, f"{len(problems)} snippets break the gist rule:\n" + "\n".join(problems)


def _marked(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


SETUP = [f"value_{n} = {n}" for n in range(GIST_NEEDED_OVER)]
GISTED = _marked(
    [
        *SETUP,
        "# --8<-- [start:gist]",
        "total = value_1 + value_2",
        "# --8<-- [end:gist]",
        "if total:",
        "    # --8<-- [start:gist]",
        "    print(total)",
        "    # --8<-- [end:gist]",
    ]
)


@pytest.fixture
def tree(tmp_path):
    def write(files: dict[str, str]) -> Path:
        for name, text in files.items():
            target = tmp_path / "snippets" / "page" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return tmp_path

    return write


def test_a_tree_whose_long_snippets_are_all_marked_passes(tree):
    root = tree(
        {
            "long_with_gist.py": GISTED,
            "short_without_gist.py": _marked(SETUP[:GIST_NEEDED_OVER]),
            "gist_of_exactly_the_limit.py": _marked(
                [*SETUP, "# --8<-- [start:gist]", *SETUP[:MAX_GIST_LINES], "# --8<-- [end:gist]"]
            ),
        }
    )
    (root / LABS_DIR).mkdir(parents=True)
    (root / LABS_DIR / "long_lab.py").write_text(_marked(SETUP * 3))  # labs keep their whole code
    assert all_gist_problems(root) == []


def test_a_long_snippet_without_a_gist_fails_naming_its_file(tree):
    root = tree({"long.py": _marked([*SETUP, "print(value_1)"])})
    assert all_gist_problems(root) == [
        f"snippets/page/long.py:1: {GIST_NEEDED_OVER + 1} lines and no gist: mark the lines a reader "
        f"should see first (at most {MAX_GIST_LINES}) between '# --8<-- [start:gist]' "
        "and '# --8<-- [end:gist]'"
    ]


def test_a_gist_over_twelve_lines_fails_at_its_first_marker(tree):
    regions = ["# --8<-- [start:gist]", *SETUP[:7], "# --8<-- [end:gist]"]
    root = tree({"wordy.py": _marked(["x = 0", *regions, "y = 1", *regions])})
    assert all_gist_problems(root) == [
        f"snippets/page/wordy.py:2: the gist is 14 lines; at most {MAX_GIST_LINES} stay the point in view"
    ]


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        (["# --8<-- [start:gist]", "x = 1"], "snippets/page/open.py:1: section 'gist' is never ended"),
        (
            ["x = 1", "    # --8<-- [end:gist]"],
            "snippets/page/open.py:2: section 'gist' ends without a start",
        ),
        (
            ["# --8<-- [start:gist]", "# --8<-- [start:gist]", "# --8<-- [end:gist]"],
            "snippets/page/open.py:2: section 'gist' starts again before it ends",
        ),
        (["# --8<-- [start gist]", "x = 1"], "snippets/page/open.py:1: malformed section marker"),
    ],
)
def test_unbalanced_markers_fail_with_file_and_line(tree, lines, problem):
    root = tree({"open.py": _marked(lines)})
    [found] = all_gist_problems(root)
    assert found.startswith(problem)


def test_a_gist_beside_a_show_declaration_asks_to_remove_show(tree):
    core = ["# --8<-- [start:core]", "x = 1", "# --8<-- [end:core]"]
    root = tree(
        {
            "both.py": _marked(
                ["# docexec: show=core", *core, "# --8<-- [start:gist]", "y = 2", "# --8<-- [end:gist]"]
            )
        }
    )
    assert all_gist_problems(root) == [
        "snippets/page/both.py:1: show=core and a gist: the page shows the gist, remove show="
    ]
