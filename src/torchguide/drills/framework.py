"""What a drill is, and the checker that runs a reader's function against its reference.

A drill asks the reader to write one function. Its checker calls the reader's function and the
reference on the same inputs: first on named edge cases (an empty batch, a length of 1, a
non-contiguous input...), then on cases that hypothesis generates over shapes, dtypes and sizes.
Each difference is reported in the task's own terms ("for lengths [3, 1] your batch has shape
(2, 1); expected (2, 3)") by the drill's ``compare`` function, which raises :class:`Mismatch`.

hypothesis is used, not a hand-written generator, because it shrinks a failing case to the
smallest one before reporting it: the reader sees lengths ``[2]``, not twelve random sequences.
"""

from __future__ import annotations

import copy
import inspect
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st

DIFFICULTIES = ("easy", "medium", "hard")

# The same cases on every run and every machine, fast enough for a 2 s budget, and no
# .hypothesis folder written into the reader's working directory.
PROPERTY_SETTINGS = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    database=None,
    verbosity=Verbosity.quiet,
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much),
)


class Mismatch(AssertionError):  # noqa: N818  read as "raise Mismatch(...)"
    """A difference between the reader's result and the reference, in the task's terms.

    Examples:
      ```python
      from torchguide.drills.framework import Mismatch

      error = Mismatch("your batch has shape (2, 1); expected (2, 3)")
      assert str(error).startswith("your batch")
      ```
    """


@dataclass(frozen=True)
class Case:
    """One input of a checker: how to describe it to the reader, and its arguments.

    ``where`` reads as the start of a sentence: "for lengths [3, 1]".

    Examples:
      ```python
      from torchguide.drills.framework import Case

      case = Case("for lengths [3, 1]", ([3, 1],))
      assert case.where == "for lengths [3, 1]" and case.args == ([3, 1],)
      ```
    """

    where: str
    args: tuple


@dataclass(frozen=True)
class Drill:
    """A small programming task tied to one question of a page, and its checker.

    Attributes:
        id: Stable snake_case name, as a question's anchor is stable; also the CLI's NAME.
        title: What the reader writes, in a few words.
        page: The page under ``docs/`` without ``.md``: ``week-1/day-1/memory-and-views``.
        question: The anchor of the question it practises on that page.
        difficulty: ``easy``, ``medium`` or ``hard``.
        function: The name of the function the reader writes.
        statement: The task in Markdown: what to write, its signature, shapes and dtypes.
        hints: At least two hints, from a nudge to nearly the answer.
        reference: The reference solution.
        named_cases: The edge cases, each built afresh for every call.
        generated: A hypothesis strategy that draws one :class:`Case`.
        compare: ``compare(case, got, expected)`` raises :class:`Mismatch` when ``got`` is wrong.

    Examples:
      ```python
      from torchguide.drills import get

      drill = get("contiguous_from_strides")
      assert drill.function == "is_contiguous" and len(drill.hints) >= 2
      ```
    """

    id: str
    title: str
    page: str
    question: str
    difficulty: str
    function: str
    statement: str
    hints: tuple[str, ...]
    reference: Callable[..., Any]
    named_cases: Callable[[], Sequence[Case]]
    generated: st.SearchStrategy[Case]
    compare: Callable[[Case, Any, Any], None]
    tolerance: str = "exact"  # said in the summary: what "equal" means for this drill
    # How the checker calls a function on a case's arguments, where not simply function(*args):
    # adapter(function) returns that call (a sharding drill calls the function once per worker).
    adapter: Callable[[Callable], Callable] | None = None

    def __post_init__(self):
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(f"drill {self.id}: difficulty {self.difficulty!r} is not one of {DIFFICULTIES}")
        if len(self.hints) < 2:
            raise ValueError(f"drill {self.id}: a hint ladder needs at least two hints")

    @property
    def snippet_folder(self) -> str:
        """Where its stub and solution snippets live, relative to the project root."""
        return f"snippets/{self.page}/drills"

    @property
    def stub_path(self) -> str:
        return f"{self.snippet_folder}/{self.id}_stub.py"

    @property
    def solution_path(self) -> str:
        return f"{self.snippet_folder}/{self.id}_solution.py"

    @property
    def anchor(self) -> str:
        """The id of the drill's heading on its page."""
        return "drill-" + self.id.replace("_", "-")


@dataclass
class Report:
    """What a checker found: how many cases passed, and each failure as a sentence.

    Examples:
      ```python
      from torchguide.drills.framework import Report

      report = Report("demo", passed=3, total=3)
      assert report.ok and report.summary() == "demo: 3 cases passed"
      ```
    """

    drill: str
    passed: int = 0
    total: int = 0
    failures: list[str] = field(default_factory=list)
    tolerance: str = ""
    generated_failed: bool = False

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary(self) -> str:
        if self.ok:
            said = f" ({self.tolerance})" if self.tolerance and self.tolerance != "exact" else ""
            return f"{self.drill}: {self.passed} cases passed{said}"
        if self.generated_failed:
            return f"{self.drill}: a generated case failed after {self.passed} cases passed"
        return f"{self.drill}: {len(self.failures)} of {self.total} named cases failed"

    def text(self) -> str:
        """The failures, one a line, then the summary."""
        return "\n".join([*(f"FAIL {failure}" for failure in self.failures), self.summary()])


def _describe_error(error: BaseException, source_file: str | None) -> str:
    """``IndexError at my.py:7: list index out of range``: the deepest line of the reader's file."""
    where = ""
    frames = traceback.extract_tb(error.__traceback__)
    mine = [f for f in frames if source_file and f.filename == source_file] or frames[-1:]
    if mine:
        where = f" at {mine[-1].filename}:{mine[-1].lineno}"
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}{where}" + (f": {message}" if message else "")


def _run_one(drill: Drill, case: Case, candidate: Callable, source_file: str | None) -> None:
    """Raises Mismatch with the reader's problem on this case, or returns quietly."""
    adapt = drill.adapter or (lambda function: function)
    expected = adapt(drill.reference)(*copy.deepcopy(case.args))
    given = copy.deepcopy(case.args)
    try:
        got = adapt(candidate)(*given)
    except NotImplementedError:
        raise Mismatch(f"{drill.function} is not written yet (it raises NotImplementedError)") from None
    except Exception as error:  # the reader's bug, reported as a sentence
        raise Mismatch(
            f"{case.where} your {drill.function} raised {_describe_error(error, source_file)}"
        ) from None
    _check_arguments_unchanged(drill, case, given)
    drill.compare(case, got, expected)


def _check_arguments_unchanged(drill: Drill, case: Case, given: tuple) -> None:
    """A function that writes into its input tensors surprises its caller: none of the drills may."""
    names = list(inspect.signature(drill.reference).parameters)
    for name, before, after in zip(names, case.args, given, strict=False):
        if isinstance(before, torch.Tensor) and not torch.equal(
            torch.nan_to_num(before), torch.nan_to_num(after)
        ):
            raise Mismatch(
                f"{case.where} your {drill.function} changed its argument {name}; leave it as it was"
            )


def check(drill: Drill, candidate: Callable, source_file: str | None = None) -> Report:
    """Runs ``candidate`` on the drill's named and generated cases; returns a :class:`Report`.

    Examples:
      ```python
      from torchguide.drills import get
      from torchguide.drills.framework import check

      drill = get("contiguous_from_strides")
      assert check(drill, drill.reference).ok
      assert not check(drill, lambda shape, strides: True).ok
      ```
    """
    report = Report(drill.id, tolerance=drill.tolerance)
    for case in drill.named_cases():
        report.total += 1
        try:
            _run_one(drill, case, candidate, source_file)
        except Mismatch as mismatch:
            report.failures.append(str(mismatch))
            if "not written yet" in str(mismatch):
                return report
        else:
            report.passed += 1
    if report.failures:
        return report  # the named cases say it more plainly than a generated one would

    generated = 0

    @PROPERTY_SETTINGS
    @given(drill.generated)
    def property_test(case: Case) -> None:
        nonlocal generated
        _run_one(drill, case, candidate, source_file)
        generated += 1

    try:
        property_test()
    except Mismatch as mismatch:  # hypothesis re-raises the smallest failing case
        report.failures.append(str(mismatch))
        report.generated_failed = True
    else:
        report.passed += generated
        report.total += generated
    return report


# Comparisons shared by the drills' compare functions.


def shape_text(shape: Sequence[int]) -> str:
    """``(2, 3)``, ``(4,)``, ``()``: a shape as the reader writes it.

    Examples:
      ```python
      import torch
      from torchguide.drills.framework import shape_text

      assert shape_text(torch.zeros(2, 3).shape) == "(2, 3)" and shape_text([4]) == "(4,)"
      ```
    """
    return str(tuple(int(s) for s in shape))


def expect_tensor(
    case: Case,
    name: str,
    got: Any,
    expected: torch.Tensor,
    *,
    rtol: float = 0.0,
    atol: float = 0.0,
    check_dtype: bool = True,
) -> None:
    """Raises :class:`Mismatch` unless ``got`` is a tensor like ``expected``: type, shape, dtype, values.

    Values are compared by ``torch.testing.assert_close`` at ``rtol`` and ``atol`` (0 and 0 mean
    exactly equal), NaN equal to NaN.

    Examples:
      ```python
      import torch
      from torchguide.drills.framework import Case, Mismatch, expect_tensor

      case = Case("for lengths [3, 1]", ())
      try:
          expect_tensor(case, "batch", torch.zeros(2, 1), torch.zeros(2, 3))
      except Mismatch as error:
          assert str(error) == "for lengths [3, 1] your batch has shape (2, 1); expected (2, 3)"
      ```
    """
    if not isinstance(got, torch.Tensor):
        raise Mismatch(f"{case.where} your {name} is a {type(got).__name__}; expected a tensor")
    if got.shape != expected.shape:
        raise Mismatch(
            f"{case.where} your {name} has shape {shape_text(got.shape)}; "
            f"expected {shape_text(expected.shape)}"
        )
    if check_dtype and got.dtype != expected.dtype:
        raise Mismatch(f"{case.where} your {name} has dtype {got.dtype}; expected {expected.dtype}")
    try:
        torch.testing.assert_close(
            got.detach().to(expected.dtype),
            expected.detach(),
            rtol=rtol,
            atol=atol,
            equal_nan=True,
            check_device=False,
        )
    except AssertionError:
        if expected.numel() <= 12:
            raise Mismatch(f"{case.where} your {name} is {_show(got)}; expected {_show(expected)}") from None
        mine, wanted = got.detach().to(expected.dtype), expected.detach()
        wrong = ~torch.isclose(mine, wanted, rtol=rtol, atol=atol, equal_nan=True)
        first = tuple(int(i) for i in wrong.nonzero()[0])
        raise Mismatch(
            f"{case.where} your {name} differs at {int(wrong.sum())} of {expected.numel()} elements: "
            f"at {first} it is {mine[first].item():.4g}; expected {wanted[first].item():.4g}"
        ) from None


def _show(t: torch.Tensor) -> str:
    values = t.detach().tolist()
    if t.is_floating_point():
        values = _round(values)
    return str(values)


def _round(values):
    if isinstance(values, list):
        return [_round(v) for v in values]
    return round(values, 4)
