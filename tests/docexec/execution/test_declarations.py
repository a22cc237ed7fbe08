import pytest

from docexec.execution.declarations import DeclarationError, displayed_source, parse

SNIPPET = """\
# docexec: raises=RuntimeError match="view size"
# docexec: timeout=5
import torch

x = torch.ones(2)
# --8<-- [start:core]
    y = x + 1
# --8<-- [end:core]
"""


def test_every_key_is_read():
    decl = parse(SNIPPET + "# docexec: cuda show=core measured\n", "snippets/a.py")
    assert decl.raises == "RuntimeError" and decl.match == "view size"
    assert decl.timeout == 5.0 and decl.cuda and decl.show == "core" and decl.measured
    assert decl.sections == {"core": (7, 7)}


def test_defaults_when_nothing_is_declared():
    decl = parse("print(1)\n", "snippets/a.py")
    # No timeout or memory limit of its own: the project's defaults apply (`docexec.config`).
    assert (decl.cuda, decl.raises, decl.timeout, decl.memory, decl.show) == (False, None, None, None, None)
    assert not decl.measured  # its output must be the same in every build


def test_the_displayed_code_drops_declarations_and_markers():
    decl = parse(SNIPPET, "snippets/a.py")
    shown = displayed_source(SNIPPET, decl)
    assert "docexec" not in shown and "8<" not in shown
    assert shown.startswith("import torch\n")


def test_a_named_part_is_shown_alone_and_dedented():
    source = SNIPPET + "# docexec: show=core\n"
    assert displayed_source(source, parse(source, "snippets/a.py")) == "y = x + 1\n"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("# docexec: needs_gpu", "unknown declaration 'needs_gpu'"),
        ("# docexec: timeout=soon", "timeout=soon is not a number of seconds above 0 and at most 3600"),
        ("# docexec: timeout=-1", "timeout=-1 is not a number of seconds"),
        ("# docexec: timeout=0", "timeout=0 is not a number of seconds"),
        ("# docexec: timeout=inf", "timeout=inf is not a number of seconds"),
        ("# docexec: timeout=nan", "timeout=nan is not a number of seconds"),
        ("# docexec: timeout=1e10", "timeout=1e10 is not a number of seconds"),
        ("# docexec: timeout=3600.5", "timeout=3600.5 is not a number of seconds"),
        ("# DocExec: timeout=3", "malformed declaration '# DocExec: timeout=3'"),
        ("# docexc: timeout=3", "malformed declaration '# docexc: timeout=3'"),
        ("#docexec: timeout=3", "malformed declaration '#docexec: timeout=3'"),
        ("#  docexec: cuda", "malformed declaration"),
        ("## doc-exec: cuda", "malformed declaration"),
        ("x = 1  # docexec: timeout=3", "a declaration must be on a line of its own"),
        ("x = 1  # DocExec: cuda", "a declaration must be on a line of its own"),
        ("# docexec: cuda=yes", "cuda takes no value"),
        ("# docexec: measured=yes", "measured takes no value"),
        ("# docexec: raises=", "raises needs a value"),
        ("# docexec: raises=Runtime Error", "unknown declaration 'Error'"),
        ('# docexec: raises=RuntimeError match="("', "is no regex"),
        ('# docexec: match="x"', "match= needs raises="),
        ("# docexec: show=missing", "show=missing names no section"),
        ("# docexec: cuda cuda", "'cuda' is declared twice"),
        ("# docexec raises=RuntimeError", "malformed declaration"),
        ("# docexec: timeout='5", "cannot split"),
        ("# --8<-- [begin:core]", "malformed section marker"),
        ("# --8<-- [end:nothing]", "section 'nothing' ends without a start"),
        ("# --8<-- [start:open]", "section 'open' is never ended"),
    ],
)
def test_bad_declarations_name_file_line_and_the_accepted_keys(line, problem):
    with pytest.raises(DeclarationError) as error:
        parse(f"import torch\n{line}\n", "snippets/page/bad.py")
    message = str(error.value)
    assert message.startswith("snippets/page/bad.py:2: ")
    assert problem in message
    assert "Accepted declarations: cuda" in message and "show=NAME" in message


def test_the_largest_timeout_is_accepted_and_ordinary_comments_are_no_declarations():
    source = (
        "# docexec: timeout=3600\n# Docstrings: none here\n# doctest: skip\nx = '# docexec: cuda'  # note\n"
    )
    decl = parse(source, "snippets/a.py")
    assert decl.timeout == 3600.0 and not decl.cuda


def test_the_raises_declaration_keeps_its_line():
    decl = parse("import torch\n\n# docexec: raises=ValueError\n", "snippets/a.py")
    assert decl.raises_line == 3


def test_the_gist_may_be_marked_in_several_regions_and_other_parts_only_once():
    start, end = "# --8<-- [start:gist]\n", "# --8<-- [end:gist]\n"
    source = f"a = 1\n{start}b = 2\n{end}c = 3\n  {start}  d = 4\n  {end}"
    assert parse(source, "s.py").gist == ((3, 3), (7, 7))
    twice = "# --8<-- [start:core]\n# --8<-- [end:core]\n# --8<-- [start:core]\n# --8<-- [end:core]\n"
    with pytest.raises(DeclarationError, match=r"s.py:3: section 'core' starts twice"):
        parse(twice, "s.py")
    both = f"# docexec: show=core\n# --8<-- [start:core]\n# --8<-- [end:core]\n{start}x = 1\n{end}"
    assert parse(both, "s.py").show == "core" and parse(both, "s.py").show_line == 1
