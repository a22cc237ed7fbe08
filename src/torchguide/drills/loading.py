"""Loads the function a reader wrote from their file, or says plainly why it cannot.

A syntax error, an error while the file runs, a missing function and a signature that does not
match the drill's each become one `ReaderFileError` naming the file and line; the checker
never shows its own traceback.
"""

from __future__ import annotations

import inspect
import runpy
import traceback
from collections.abc import Callable
from pathlib import Path


class ReaderFileError(Exception):
    """The reader's file cannot be checked; the message says where and why.

    Examples:
      ```python
      from torchguide.drills.loading import ReaderFileError

      assert str(ReaderFileError("a.py:3: syntax error")) == "a.py:3: syntax error"
      ```
    """


def load_function(path: str | Path, name: str, reference: Callable) -> Callable:
    """The function ``name`` defined in the file at ``path``, with a signature like ``reference``'s.

    Examples:
      ```python
      import pathlib, tempfile
      from torchguide.drills.loading import ReaderFileError, load_function

      folder = pathlib.Path(tempfile.mkdtemp())
      (folder / "mine.py").write_text("def double(x):\\n    return 2 * x\\n")
      assert load_function(folder / "mine.py", "double", lambda x: x)(3) == 6
      (folder / "bad.py").write_text("def double(x)\\n    return 2 * x\\n")
      try:
          load_function(folder / "bad.py", "double", lambda x: x)
      except ReaderFileError as error:
          assert "bad.py:1: syntax error" in str(error)
      ```
    """
    path = Path(path)
    shown = str(path)
    if not path.is_file():
        raise ReaderFileError(f"{shown}: no such file")
    source = path.read_text(encoding="utf-8", errors="replace")
    try:
        compile(source, shown, "exec")
    except SyntaxError as error:
        raise ReaderFileError(f"{shown}:{error.lineno}: syntax error: {error.msg}") from None
    try:
        namespace = runpy.run_path(shown, run_name="__drill__")
    except BaseException as error:  # noqa: BLE001  whatever the file does, the reader gets a line
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == shown]
        line = f":{frames[-1].lineno}" if frames else ""
        raise ReaderFileError(
            f"{shown}{line}: running the file raised {type(error).__name__}: {error}"
        ) from None
    function = namespace.get(name)
    if function is None:
        defined = sorted(k for k, v in namespace.items() if inspect.isfunction(v) and not k.startswith("_"))
        also = f" (it defines {', '.join(defined)})" if defined else ""
        raise ReaderFileError(
            f"{shown}: no function named {name}{also}; "
            f"the drill asks for {name}{inspect.signature(reference)}"
        )
    if not callable(function):
        raise ReaderFileError(f"{shown}: {name} is a {type(function).__name__}, not a function")
    _check_signature(shown, name, function, reference)
    return function


def checked_signature(shown: str, name: str, function: Callable, reference: Callable) -> Callable:
    """``function``, if it accepts the reference's arguments; else a ReaderFileError naming ``shown``.

    Examples:
      ```python
      import pytest
      from torchguide.drills.loading import ReaderFileError, checked_signature

      def reference(x, y):
          return x + y

      def answer(x, y):
          return y + x

      assert checked_signature("answer.py", "add", answer, reference) is answer
      with pytest.raises(ReaderFileError, match="answer.py"):
          checked_signature("answer.py", "add", lambda x: x, reference)
      ```
    """
    if not callable(function):
        raise ReaderFileError(f"{shown}: {name} is a {type(function).__name__}, not a function")
    _check_signature(shown, name, function, reference)
    return function


def _check_signature(shown: str, name: str, function: Callable, reference: Callable) -> None:
    """The reader's function must accept the reference's arguments, positionally, and need no more."""
    wanted = inspect.signature(reference)
    try:
        theirs = inspect.signature(function)
    except (TypeError, ValueError):
        return  # a builtin or C function: nothing to read, the checker's calls will tell
    positional = [
        p
        for p in wanted.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    try:
        theirs.bind(*positional)
    except TypeError:
        line = getattr(getattr(function, "__code__", None), "co_firstlineno", None)
        where = f"{shown}:{line}" if line else shown
        raise ReaderFileError(
            f"{where}: {name}{theirs} does not match the drill's signature {name}{wanted}"
        ) from None
