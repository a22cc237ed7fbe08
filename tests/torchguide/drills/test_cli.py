"""python -m torchguide.drills: exit status and messages for a passing, a failing and an uncheckable file."""

from __future__ import annotations

import subprocess
import sys

import pytest
from drill_files import ROOT

from torchguide.drills import get
from torchguide.drills.cli import main


def write(tmp_path, text, name="mine.py"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_reference_solution_passes_with_status_0():
    # From the shell, as a reader runs it: a solution is a snippet, which pytest's process never runs.
    solution = ROOT / get("pad_collate").solution_path
    run = subprocess.run(
        [sys.executable, "-m", "torchguide.drills", "check", "pad_collate", solution],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout.strip().splitlines()
    assert out[-1].startswith("pad_collate: ") and out[-1].endswith(" cases passed")


def test_a_wrong_solution_fails_with_status_1_and_says_why(tmp_path, capsys):
    path = write(tmp_path, "import torch\ndef pad_collate(batch):\n    return torch.zeros(2, 1), [1]\n")
    assert main(["check", "pad_collate", path]) == 1
    out = capsys.readouterr().out
    assert "FAIL for lengths [3, 1] (torch.float32) your batch has shape (2, 1); expected (2, 3)" in out
    assert out.strip().splitlines()[-1] == "pad_collate: 7 of 7 named cases failed"


def test_a_syntax_error_names_the_file_and_line(tmp_path, capsys):
    path = write(tmp_path, "import torch\n\ndef pad_collate(batch)\n    return batch\n")
    assert main(["check", "pad_collate", path]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"{path}:3: syntax error: expected ':'"
    assert "Traceback" not in captured.out + captured.err


def test_a_missing_function_says_what_the_file_defines(tmp_path, capsys):
    path = write(tmp_path, "def collate(batch):\n    return batch\n")
    assert main(["check", "pad_collate", path]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{path}: no function named pad_collate (it defines collate); the drill asks for pad_collate(batch)"
    )


def test_a_wrong_signature_names_the_line_of_the_def(tmp_path, capsys):
    path = write(tmp_path, "import torch\n\n\ndef pad_collate(batch, padding_value):\n    return batch\n")
    assert main(["check", "pad_collate", path]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{path}:4: pad_collate(batch, padding_value) does not match the drill's signature pad_collate(batch)"
    )


def test_a_file_that_raises_while_loading_names_its_line(tmp_path, capsys):
    path = write(tmp_path, "import torch\nscale = 1 / 0\n")
    assert main(["check", "pad_collate", path]) == 2
    assert (
        capsys.readouterr().err.strip()
        == f"{path}:2: running the file raised ZeroDivisionError: division by zero"
    )


def test_an_error_inside_the_readers_function_names_its_line(tmp_path, capsys):
    path = write(tmp_path, "def is_contiguous(shape, strides):\n    return strides[5] == 1\n")
    assert main(["check", "contiguous_from_strides", path]) == 1
    assert (
        f"FAIL for shape (2, 3) and strides (3, 1) your is_contiguous raised IndexError at {path}:2: "
        "tuple index out of range" in capsys.readouterr().out
    )


def test_an_unknown_drill_and_a_missing_file_are_refused(tmp_path, capsys):
    assert main(["check", "no_such_drill", "mine.py"]) == 2
    assert "no drill named 'no_such_drill'" in capsys.readouterr().err
    assert main(["check", "pad_collate", str(tmp_path / "absent.py")]) == 2
    assert capsys.readouterr().err.strip() == f"{tmp_path / 'absent.py'}: no such file"


def test_list_names_every_drill_with_its_difficulty(capsys):
    from torchguide.drills import all_drills

    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for drill in all_drills().values():
        assert any(line.split()[:2] == [drill.id, drill.difficulty] for line in out.splitlines())


def test_show_prints_the_statement_and_every_hint(capsys):
    assert main(["show", "pad_collate"]) == 0
    out = capsys.readouterr().out
    assert "pad_collate(batch) -> (padded, lengths)" in out and "Hint 3:" in out


@pytest.mark.parametrize(("text", "status"), [("def is_contiguous(shape, strides)\n", 2), ("x = 1\n", 2)])
def test_python_dash_m_exits_with_the_status_and_no_traceback(tmp_path, text, status):
    path = write(tmp_path, text)
    run = subprocess.run(
        [sys.executable, "-m", "torchguide.drills", "check", "contiguous_from_strides", path],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == status
    assert run.stderr.startswith(path) and "Traceback" not in run.stderr
