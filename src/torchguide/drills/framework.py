"""What a drill is, and the checker that runs a reader's function against its reference.

A drill asks the reader to write one function. Its checker calls the reader's function and the
reference on the same inputs: first on named edge cases (an empty batch, a length of 1, a
non-contiguous input...), then on cases that hypothesis generates over shapes, dtypes and sizes.
Each difference is reported in the task's own terms ("for lengths [3, 1] your batch has shape
(2, 1); expected (2, 3)") by the drill's ``compare`` function, which raises `Mismatch`.

hypothesis is used, not a hand-written generator, because it shrinks a failing case to the
smallest one before reporting it: the reader sees lengths ``[2]``, not twelve random sequences.
"""

from __future__ import annotations

import copy
import inspect
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
class Forbidden:
    """What a task says not to use, watched in the runner while the reader's function runs.

    ``torch_functions``: names of torch functions (``F.x``, ``torch.x``, a module that calls one),
    seen by a ``TorchFunctionMode`` however they were imported; ``any_torch``: every torch function
    and tensor method; ``files``: Python files (a torch module's ``__file__``) none of whose
    functions may be called. ``instead`` ends the message: "...; the drill asks you to write it".

    Examples:
      ```python
      from torchguide.drills.framework import Forbidden

      rule = Forbidden(torch_functions=frozenset({"binary_cross_entropy"}), instead="write it")
      assert rule.watches_torch and not rule.files
      ```
    """

    instead: str
    torch_functions: frozenset[str] = frozenset()
    any_torch: bool = False
    files: tuple[str, ...] = ()

    @property
    def watches_torch(self) -> bool:
        return self.any_torch or bool(self.torch_functions)


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
        generated: A hypothesis strategy that draws one `Case`.
        compare: ``compare(case, got, expected)`` raises `Mismatch` when ``got`` is wrong.

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
    # What the task lets the function change in its arguments: "grad", "requires_grad", "mode".
    # A model's train/eval mode by default: model.eval() in a function that evaluates is common
    # practice; a drill whose task speaks of the mode says so by leaving "mode" out.
    may_change: frozenset[str] = frozenset({"mode"})
    forbidden: Forbidden | None = None  # what the task says not to use
    # The lab snippet a task is set in (its notebook holds the stub and check cells), for a task that
    # has no section on ``page``: ``page`` and ``question`` then name what it practises.
    lab: str | None = None

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
    stopped: bool = False  # the runner ended, hung or printed too much: no more cases ran
    unreadable: str | None = None  # the reader's file cannot be checked: why

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary(self) -> str:
        if self.unreadable:
            return f"{self.drill}: the file cannot be checked"
        if self.stopped:
            return f"{self.drill}: the check stopped after {self.passed} cases passed"
        if self.ok:
            said = f" ({self.tolerance})" if self.tolerance and self.tolerance != "exact" else ""
            return f"{self.drill}: {self.passed} cases passed{said}"
        if self.generated_failed:
            return f"{self.drill}: a generated case failed after {self.passed} cases passed"
        return f"{self.drill}: {len(self.failures)} of {self.total} named cases failed"

    def text(self) -> str:
        """The failures, one a line, then the summary."""
        return "\n".join([*(f"FAIL {failure}" for failure in self.failures), self.summary()])


class _Stopped(BaseException):
    """The runner can answer no more: leaves hypothesis at once, which would otherwise shrink on it."""


def _run_one(drill: Drill, case: Case, runner) -> None:
    """Raises Mismatch with the reader's problem on this case, or returns quietly."""
    from torchguide.drills._containment import Raised, RunnerEnded

    adapt = drill.adapter or (lambda function: function)
    expected = adapt(drill.reference)(*copy.deepcopy(case.args))
    try:
        outcome = runner.call(case.args)
    except RunnerEnded as ended:
        raise _Stopped(f"{case.where} {ended}") from None
    if isinstance(outcome, Raised):
        if outcome.not_written:
            raise Mismatch(f"{drill.function} is not written yet (it raises NotImplementedError)")
        if outcome.exit_call:
            raise Mismatch(
                f"{case.where} your {drill.function} raised {outcome.description}: a drill's function "
                "returns its answer, it does not end the program"
            )
        raise Mismatch(f"{case.where} your {drill.function} raised {outcome.description}")
    # Values written into the arguments first, then the answer, then what the task forbids, then
    # flags left behind: a wrong answer is the plainer thing to fix.
    _check_arguments_left(drill, case, outcome.arguments, flags=False)
    drill.compare(case, outcome.got, expected)
    if outcome.used:
        rule = drill.forbidden.instead if drill.forbidden else ""
        raise Mismatch(f"{case.where} your {drill.function} calls {outcome.used[0]}; {rule}")
    _check_arguments_left(drill, case, outcome.arguments)


def _check_arguments_left(drill: Drill, case: Case, after: tuple, flags: bool = True) -> None:
    """A function that writes into its arguments surprises its caller: tensors anywhere inside them
    (in lists, dicts, modules), and with ``flags`` their ``requires_grad`` and ``.grad`` and a
    module's train/eval mode, stay as they were, but for what the drill's ``may_change`` allows."""
    names = list(inspect.signature(drill.reference).parameters)
    allowed = drill.may_change if flags else frozenset({"grad", "requires_grad", "mode"})
    for name, before, left in zip(names, case.args, after, strict=False):
        problem = _difference(before, left, name, allowed, 0)
        if problem:
            raise Mismatch(f"{case.where} your {drill.function} {problem}")


def _difference(before, after, path: str, may_change: frozenset[str], depth: int) -> str | None:
    from torchguide.drills._transfer import Foreign, ModuleState

    if depth > 30 or isinstance(after, Foreign):
        return None  # an object the trip does not carry (a function, a dataset): nothing to compare
    if isinstance(before, torch.Tensor):
        return _tensor_difference(before, after, path, may_change)
    if isinstance(before, torch.nn.Module):
        if not isinstance(after, ModuleState):
            return None
        if "mode" not in may_change:
            for name, module in before.named_modules():
                if after.modes.get(name, module.training) != module.training:
                    where = f"{path}.{name}" if name else path
                    mode = "training" if after.modes[name] else "eval"
                    return f"left {where} in {mode} mode; leave the model in the mode it was given in"
        for kind, tensors, left in (
            ("parameter", dict(before.named_parameters(remove_duplicate=False)), after.parameters),
            ("buffer", dict(before.named_buffers(remove_duplicate=False)), after.buffers),
        ):
            for name, tensor in tensors.items():
                problem = _tensor_difference(tensor, left.get(name), f"{path}'s {kind} {name}", may_change)
                if problem:
                    return problem
        return None
    if isinstance(before, list | tuple) and isinstance(after, list | tuple):
        if len(before) != len(after):
            return (
                f"changed the length of its argument {path} from {len(before)} to {len(after)}; "
                "leave it as it was"
            )
        for index, (item, left) in enumerate(zip(before, after, strict=True)):
            problem = _difference(item, left, f"{path}[{index}]", may_change, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(before, dict) and isinstance(after, dict):
        if set(before) != set(after):
            return f"changed the keys of its argument {path}; leave it as it was"
        for key, item in before.items():
            problem = _difference(item, after[key], f"{path}[{key!r}]", may_change, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(before, bool | int | float | str | bytes | type(None)):
        same = before == after or (before != before and after != after)  # NaN stays NaN
        return None if same else f"changed its argument {path}; leave it as it was"
    return None


def _same_values(before: torch.Tensor, after: torch.Tensor) -> bool:
    """Equal element by element, a NaN equal to a NaN and to nothing else (``nan_to_num`` would make
    an input overwritten by ``nan_to_num_()`` look unchanged)."""
    return bool(torch.isclose(before, after, rtol=0, atol=0, equal_nan=True).all())


def _tensor_difference(before: torch.Tensor, after, path: str, may_change: frozenset[str]) -> str | None:
    if not isinstance(after, torch.Tensor):
        return f"replaced its argument {path} with a {type(after).__name__}; leave it as it was"
    if (
        after.shape != before.shape
        or after.dtype != before.dtype
        or not _same_values(before.detach(), after.detach())
    ):
        return f"changed its argument {path}; leave it as it was"
    if after.requires_grad != before.requires_grad and "requires_grad" not in may_change:
        return (
            f"left requires_grad={after.requires_grad} on its argument {path}; leave it as it was "
            "(work on a copy: x.detach().requires_grad_())"
        )
    if "grad" not in may_change and after.is_leaf:
        had, has = before.grad, after.grad
        if had is None and has is not None:
            return (
                f"left a gradient in the .grad of {path}; leave it as it was "
                "(torch.autograd.grad returns gradients without writing .grad)"
            )
        if had is not None and (has is None or not torch.equal(had, has)):
            return f"changed the .grad of {path}; leave it as it was"
    return None


def check(drill: Drill, candidate: Callable, source_file: str | None = None, **limits) -> Report:
    """Runs ``candidate`` on the drill's named and generated cases; returns a `Report`.

    ``candidate`` runs in a process of its own (`torchguide.drills._containment`); the cases and
    the comparison stay in this one. ``limits``: see `torchguide.drills._containment.Runner`.

    Examples:
      ```python
      from torchguide.drills import get
      from torchguide.drills.framework import check

      drill = get("contiguous_from_strides")
      assert check(drill, drill.reference).ok
      assert not check(drill, lambda shape, strides: True).ok
      ```
    """
    from torchguide.drills._containment import contained
    from torchguide.drills.loading import checked_signature

    def load():
        shown = source_file or "<function>"
        return checked_signature(shown, drill.function, candidate, drill.reference), source_file

    with contained(drill.id, drill.function, load, **limits) as runner:
        return check_with(drill, runner)


def check_file(drill: Drill, path, **limits) -> Report:
    """Checks the function the reader's file defines; the file runs only in the runner's process.

    Examples:
      ```python
      import pathlib
      import tempfile

      from torchguide.drills import get
      from torchguide.drills.framework import check_file

      drill = get("contiguous_from_strides")
      answer = pathlib.Path(tempfile.mkdtemp()) / "answer.py"
      answer.write_text(f"def {drill.function}(shape, strides): return True")
      assert not check_file(drill, answer).ok
      ```
    """
    from torchguide.drills._containment import contained
    from torchguide.drills.loading import load_function

    def load():
        return load_function(path, drill.function, drill.reference), str(path)

    with contained(drill.id, drill.function, load, **limits) as runner:
        return check_with(drill, runner)


def check_with(drill: Drill, runner) -> Report:
    """The checker's side of a check: cases, reference and comparison here, each call in ``runner``.

    Examples:
      ```python
      from torchguide.drills import get
      from torchguide.drills._containment import contained
      from torchguide.drills.framework import check_with

      drill = get("contiguous_from_strides")
      with contained(drill.id, drill.function, lambda: (drill.reference, None)) as runner:
          assert check_with(drill, runner).ok
      ```
    """
    from torchguide.drills._containment import RunnerEnded

    report = Report(drill.id, tolerance=drill.tolerance)
    try:
        report.unreadable = runner.ready()
    except RunnerEnded as ended:
        report.failures.append(str(ended))
        report.stopped = True
        return report
    if report.unreadable:
        report.failures.append(report.unreadable)
        return report
    try:
        _check_cases(drill, runner, report)
    except _Stopped as stopped:
        report.failures.append(str(stopped))
        report.stopped = True
    return report


def _check_cases(drill: Drill, runner, report: Report) -> None:
    for case in drill.named_cases():
        report.total += 1
        try:
            _run_one(drill, case, runner)
        except Mismatch as mismatch:
            report.failures.append(str(mismatch))
            if "not written yet" in str(mismatch):
                return
        else:
            report.passed += 1
    if report.failures:
        return  # the named cases say it more plainly than a generated one would

    generated = 0

    @PROPERTY_SETTINGS
    @given(drill.generated)
    def property_test(case: Case) -> None:
        nonlocal generated
        _run_one(drill, case, runner)
        generated += 1

    try:
        property_test()
    except Mismatch as mismatch:  # hypothesis re-raises the smallest failing case
        report.failures.append(str(mismatch))
        report.generated_failed = True
    else:
        report.passed += generated
        report.total += generated


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
    """Raises `Mismatch` unless ``got`` is a tensor like ``expected``: type, shape, dtype, values.

    Values are compared as ``torch.testing.assert_close`` does at ``rtol`` and ``atol`` (0 and 0
    mean exactly equal), NaN equal to NaN.

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
    mine, wanted = got.detach().cpu().to(expected.dtype), expected.detach().cpu()
    wrong = _not_close(mine, wanted, rtol, atol)
    if bool(wrong.any()):
        if expected.numel() <= 12:
            raise Mismatch(f"{case.where} your {name} is {_show(got)}; expected {_show(expected)}")
        first = tuple(int(i) for i in wrong.nonzero()[0])
        raise Mismatch(
            f"{case.where} your {name} differs at {int(wrong.sum())} of {expected.numel()} elements: "
            f"at {first} it is {mine[first].item():.4g}; expected {wanted[first].item():.4g}"
        )


def _not_close(mine: torch.Tensor, wanted: torch.Tensor, rtol: float, atol: float) -> torch.Tensor:
    """Where ``|mine - wanted| > atol + rtol * |wanted|``, NaN equal to NaN: what
    ``torch.testing.assert_close`` decides, without the second of imports its first call costs."""
    if mine.dtype == torch.bool:
        return mine != wanted
    return ~torch.isclose(mine, wanted, rtol=rtol, atol=atol, equal_nan=True)


def _show(t: torch.Tensor) -> str:
    values = t.detach().tolist()
    if t.is_floating_point():
        values = _round(values)
    return str(values)


def _round(values):
    if isinstance(values, list):
        return [_round(v) for v in values]
    return round(values, 4)
