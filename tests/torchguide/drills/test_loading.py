"""Loading the reader's function: what each kind of bad file is told."""

from __future__ import annotations

import pytest

from torchguide.drills.loading import ReaderFileError, load_function


def reference(shape, strides):
    return True


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def is_contiguous(shape, strides)\n", "mine.py:1: syntax error"),
        ("is_contiguous = 3\n", "mine.py: is_contiguous is a int, not a function"),
        ("def is_contiguous(shape):\n    return True\n", "mine.py:1: is_contiguous(shape) does not match"),
        ("import no_such_module_here\n", "mine.py:1: running the file raised ModuleNotFoundError"),
        ("def other():\n    pass\n", "mine.py: no function named is_contiguous (it defines other)"),
    ],
)
def test_each_bad_file_gets_one_line_with_file_and_line(tmp_path, source, message):
    path = tmp_path / "mine.py"
    path.write_text(source)
    with pytest.raises(ReaderFileError) as error:
        load_function(path, "is_contiguous", reference)
    assert str(error.value).removeprefix(str(tmp_path) + "/").startswith(message)


def test_extra_parameters_with_defaults_are_accepted(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("def is_contiguous(shape, strides, verbose=False):\n    return False\n")
    assert load_function(path, "is_contiguous", reference)((1,), (1,)) is False


def test_the_file_does_not_run_as_main(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(
        "if __name__ == '__main__':\n    raise SystemExit(3)\ndef is_contiguous(a, b):\n    return 1\n"
    )
    assert load_function(path, "is_contiguous", reference)((), ()) == 1
