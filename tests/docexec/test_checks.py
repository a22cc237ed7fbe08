"""The checks that the build and the tests share: each problem names its file and line, and every
offender is reported, not only the first."""

from __future__ import annotations

import pytest

from docexec import checks


@pytest.mark.parametrize(
    "name", ["example1.py", "test2.py", "snippet_3.py", "tmp.py", "my_example.py", "foo.py"]
)
def test_names_that_do_not_say_what_the_snippet_shows_are_problems(name):
    problem = checks.snippet_name(f"snippets/week-1/page/{name}")
    assert str(problem).startswith(f"snippets/week-1/page/{name}:1: the name '{name}' does not say")


@pytest.mark.parametrize(
    "path",
    [
        "snippets/week-1/page/transpose_swaps_strides.py",
        "snippets/week-1/page/fp16_overflows_past_65504.py",
        "examples/notebooks/broadcasting.py",  # a lab is a page: its name is its title
    ],
)
def test_names_that_state_a_claim_pass(path):
    assert checks.snippet_name(path, labs="examples/notebooks") is None


def test_a_one_word_name_passes_only_in_the_labs_folder_the_project_names():
    assert checks.snippet_name("examples/notebooks/broadcasting.py", labs="examples/notebooks/") is None
    assert checks.snippet_name("examples/notebooks/broadcasting.py") is not None  # a project without labs
    assert (
        checks.snippet_name("examples/notebooks-old/broadcasting.py", labs="examples/notebooks") is not None
    )


def test_every_snippet_no_page_runs_is_named():
    snippets = ["snippets/p/used_here.py", "snippets/p/first_unused.py", "snippets/p/second_unused.py",
                "snippets/notebooks/a_lab.py"]  # fmt: skip
    problems = checks.unused_snippets(snippets, used={"snippets/p/used_here.py"}, labs="snippets/notebooks")
    assert [str(p).split(": ")[0] for p in problems] == [
        "snippets/p/first_unused.py:1",
        "snippets/p/second_unused.py:1",
    ]
    without_labs = checks.unused_snippets(snippets, used={"snippets/p/used_here.py"})
    assert "snippets/notebooks/a_lab.py" in [p.path for p in without_labs]


PAGE = """\
---
tags: [memory]
---
# A page

%run snippets/page/view_shares_storage.py

!!! correction "A claim"
    **Claimed:** x.

    ```python
    print("inside a correction")
    ```

=== "A tab"

    ``` { .py title="in a tab" }
    print("inside a tab")
    ```

??? note "Details"
    ~~~pycon
    >>> 1 + 1
    ~~~

/// details | A block
```python3
print("inside a block")
```
///

Some prose.

    x = 1  # an indented code block

- A list item

    its second paragraph, indented as list content

!!! note
    Text.

        y = 2  # indented inside an admonition

````markdown
```python
an example of the format, inside a Markdown example: not code of the page
```
````

```text
plain text is not code
```
"""


def test_code_in_any_block_form_on_a_page_is_reported_with_its_line():
    problems = checks.page_code_blocks(PAGE, "docs/page.md")
    assert [(p.line, p.message.split(":")[0]) for p in problems] == [
        (11, "a python code block written on the page"),
        (17, "a py code block written on the page"),
        (22, "a pycon code block written on the page"),
        (27, "a python3 code block written on the page"),
        (34, "an indented code block (a line indented four spaces past its block, after a blank line)"),
        (43, "an indented code block (a line indented four spaces past its block, after a blank line)"),
    ]
    assert all(str(p).startswith(f"docs/page.md:{p.line}: ") for p in problems)


def test_a_page_of_prose_snippets_and_containers_has_no_problem():
    page = '# P\n\n!!! note "N"\n    Text.\n\n    %run snippets/p/a_claim.py\n\n- item\n\n    more\n'
    assert checks.page_code_blocks(page, "docs/p.md") == []
