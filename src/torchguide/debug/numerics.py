"""Find where NaN and infinity appear, and check that a model can memorize one batch.

``find_nonfinite`` reports which of a set of tensors (a batch, a module's outputs, the parameters
or their gradients) hold NaN or infinite values, how many and where the first one is.
``first_nonfinite_module`` runs one forward pass with hooks on every submodule and names the first
module whose input or output is not finite. ``overfit_one_batch`` trains a copy of a model on one
batch and says whether the loss fell close to zero and whether every parameter took part.

torch's own tools cover the backward pass: ``torch.autograd.detect_anomaly`` names the operation
whose *gradient* is NaN, and ``torch.autograd.gradcheck`` checks a backward formula against finite
differences. Neither looks at forward values, which is where a NaN loss usually starts, so the
forward-side finders here are written by hand on ``torch.isfinite`` and module hooks.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

__all__ = [
    "NonFinite",
    "NonFiniteSite",
    "OverfitResult",
    "find_nonfinite",
    "first_nonfinite_module",
    "overfit_one_batch",
]


@dataclass(frozen=True)
class NonFinite:
    """The non-finite values of one tensor.

    Attributes:
        name: Where the tensor was found (a key, an index or a parameter name; dotted when nested).
        shape: The tensor's shape.
        nan: Number of NaN elements.
        posinf: Number of ``+inf`` elements.
        neginf: Number of ``-inf`` elements.
        first_index: Index of the first non-finite element in row-major order.

    Examples:
      ```python
      import torch
      from torchguide.debug.numerics import find_nonfinite

      (report,) = find_nonfinite(torch.tensor([1.0, float("inf"), float("nan")]), name="logits")
      assert (report.nan, report.posinf, report.first_index) == (1, 1, (1,))
      assert str(report).startswith("logits")
      ```
    """

    name: str
    shape: tuple[int, ...]
    nan: int
    posinf: int
    neginf: int
    first_index: tuple[int, ...]

    def __str__(self) -> str:
        counts = ", ".join(
            f"{n} {label}"
            for n, label in ((self.nan, "NaN"), (self.posinf, "+inf"), (self.neginf, "-inf"))
            if n
        )
        where = self.name or "tensor"
        return f"{where} {list(self.shape)}: {counts}; first at {list(self.first_index)}"


def _check_tensor(name: str, tensor: torch.Tensor) -> NonFinite | None:
    # Integer and boolean tensors cannot hold NaN or infinity.
    if not (tensor.is_floating_point() or tensor.is_complex()) or tensor.numel() == 0:
        return None
    tensor = tensor.detach()
    bad = ~torch.isfinite(tensor)
    if not bad.any():
        return None
    # Complex values are counted on their real and imaginary parts.
    parts = torch.view_as_real(tensor) if tensor.is_complex() else tensor
    first = int(bad.flatten().nonzero()[0])
    first_index = tuple(int(i) for i in torch.unravel_index(torch.tensor(first), tensor.shape))
    return NonFinite(
        name=name,
        shape=tuple(tensor.shape),
        nan=int(torch.isnan(parts).sum()),
        posinf=int(torch.isposinf(parts).sum()),
        neginf=int(torch.isneginf(parts).sum()),
        first_index=first_index,
    )


def _join(prefix: str, key: object) -> str:
    return f"{prefix}.{key}" if prefix else str(key)


def _walk(value: object, name: str, found: list[NonFinite]) -> None:
    if value is None:
        return
    if isinstance(value, torch.Tensor):
        report = _check_tensor(name, value)
        if report is not None:
            found.append(report)
    elif isinstance(value, bool | int | float | complex):
        _walk(torch.tensor(value), name, found)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _walk(item, _join(name, key), found)
    elif isinstance(value, Iterable) and not isinstance(value, str | bytes):
        for index, item in enumerate(value):
            # (name, tensor) pairs, as model.named_parameters() yields them.
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
                _walk(item[1], _join(name, item[0]), found)
            else:
                _walk(item, _join(name, index), found)
    else:
        raise TypeError(f"cannot check {type(value).__name__} at {name or 'the top level'} for NaN or inf")


def find_nonfinite(values: object, name: str = "") -> list[NonFinite]:
    """Report every tensor in ``values`` that holds NaN or an infinity.

    ``values`` may be a tensor, a Python number, ``None`` (skipped, as an unset ``.grad`` is), or
    any nesting of mappings, lists, tuples and iterables of them. Pairs ``(name, tensor)`` are
    named by their first element, so ``model.named_parameters()`` and ``dict.items()`` report
    parameter names and keys. Integer, boolean and empty tensors are always finite.

    Args:
        values: What to check.
        name: A prefix for the reported names.

    Returns:
        One ``NonFinite`` per tensor that is not all finite, in the order they were visited;
        an empty list when everything is finite.

    Raises:
        TypeError: If a leaf is neither a tensor, a number nor ``None``.

    Examples:
      ```python
      import torch
      from torchguide.debug.numerics import find_nonfinite

      batch = {"x": torch.tensor([[1.0, float("nan")], [0.0, 2.0]]), "y": torch.tensor([0, 1])}
      (report,) = find_nonfinite(batch)
      assert report.name == "x" and report.nan == 1 and report.first_index == (0, 1)
      assert find_nonfinite(torch.ones(3)) == []
      ```
    """
    found: list[NonFinite] = []
    _walk(values, name, found)
    return found


@dataclass(frozen=True)
class NonFiniteSite:
    """The first place in a forward pass where a value was not finite.

    Attributes:
        module: The module's name in ``model.named_modules()``; ``""`` is the model itself.
        kind: ``"input"`` if the values were already non-finite when they reached the module (for
            the model itself: the data; for a submodule: code of its parent that runs between
            submodules), ``"output"`` if the module's inputs were finite and its output is not.
        module_type: The module's class name.
        found: The non-finite tensors among that input or output. Inputs are named ``arg0``,
            ``arg1``, ... and by keyword; outputs ``output`` (``output.0``, ... for a tuple).

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.numerics import first_nonfinite_module

      model = nn.Sequential(nn.Linear(2, 2), nn.LogSigmoid())
      with torch.no_grad():
          model[0].weight.fill_(float("nan"))
      site = first_nonfinite_module(model, torch.ones(1, 2))
      assert (site.module, site.kind, site.module_type) == ("0", "output", "Linear")
      ```
    """

    module: str
    kind: str
    module_type: str
    found: list[NonFinite] = field(default_factory=list)

    def __str__(self) -> str:
        where = f"{self.module or 'the model'} ({self.module_type})"
        details = "; ".join(str(report) for report in self.found)
        return f"{self.kind} of {where}: {details}"


def first_nonfinite_module(model: nn.Module, *args: Any, **kwargs: Any) -> NonFiniteSite | None:
    """Run ``model(*args, **kwargs)`` once and name the first module that sees a non-finite value.

    Every module gets a forward pre-hook (checks its inputs) and a forward hook (checks its
    outputs); the first check that fails, in the order the forward pass runs them, is the answer.
    The pass runs under ``torch.no_grad()`` and the hooks are removed afterwards, also when the
    forward pass raises. Operations written as plain functions (``torch.log``, ``F.relu``) have no
    hooks: a NaN they create shows up as the input of the next module or the output of the module
    whose ``forward`` calls them.

    Args:
        model: The model to run.
        *args: Positional inputs of the forward pass.
        **kwargs: Keyword inputs of the forward pass.

    Returns:
        The first ``NonFiniteSite``, or ``None`` if every input and output was finite.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.numerics import first_nonfinite_module

      model = nn.Sequential(nn.Linear(2, 2), nn.Softplus(), nn.Linear(2, 1))
      with torch.no_grad():
          model[0].weight.fill_(3e38)  # 3e38 + 3e38 overflows float32
      site = first_nonfinite_module(model, torch.ones(1, 2))
      assert (site.module, site.kind) == ("0", "output")
      assert first_nonfinite_module(nn.Identity(), torch.ones(3)) is None
      ```
    """
    first: list[NonFiniteSite] = []

    def record(name: str, module: nn.Module, kind: str, values: object) -> None:
        if first:
            return
        found = find_nonfinite(values)
        if found:
            first.append(NonFiniteSite(name, kind, type(module).__name__, found))

    def pre_hook_for(name: str) -> Callable[..., None]:
        def pre_hook(module: nn.Module, args: tuple, kwargs: dict) -> None:
            record(name, module, "input", {**{f"arg{i}": a for i, a in enumerate(args)}, **kwargs})

        return pre_hook

    def hook_for(name: str) -> Callable[..., None]:
        def hook(module: nn.Module, args: tuple, kwargs: dict, output: object) -> None:
            record(name, module, "output", {"output": output})

        return hook

    handles = []
    try:
        for name, module in model.named_modules():
            handles.append(module.register_forward_pre_hook(pre_hook_for(name), with_kwargs=True))
            handles.append(module.register_forward_hook(hook_for(name), with_kwargs=True))
        with torch.no_grad():
            model(*args, **kwargs)
    finally:
        for handle in handles:
            handle.remove()
    return first[0] if first else None


@dataclass
class OverfitResult:
    """What ``overfit_one_batch`` observed.

    Attributes:
        losses: The loss before each step, then once more after the last one (``steps + 1``).
        target_ratio: The fraction of the first loss that the last one had to reach.
        frozen: Names of parameters with ``requires_grad=False``.
        without_grad: Names of trainable parameters whose gradient was missing or zero at every
            step (cut off from the loss, for example by ``.detach()``).

    Examples:
      ```python
      from torchguide.debug.numerics import OverfitResult

      result = OverfitResult(losses=[1.0, 0.5, 0.01], target_ratio=0.05, frozen=[], without_grad=[])
      assert result.passed
      ```
    """

    losses: list[float]
    target_ratio: float
    frozen: list[str]
    without_grad: list[str]

    @property
    def memorized(self) -> bool:
        """Whether the last loss is finite and at most ``target_ratio`` times the first."""
        first, last = self.losses[0], self.losses[-1]
        return math.isfinite(last) and last <= self.target_ratio * first

    @property
    def passed(self) -> bool:
        """Memorized, with every parameter trainable and reached by a gradient."""
        return self.memorized and not self.frozen and not self.without_grad

    @property
    def verdict(self) -> str:
        """One line that says why the check passed or failed."""
        first, last = self.losses[0], self.losses[-1]
        problems = []
        if not self.memorized:
            problems.append(f"loss {first:.3g} -> {last:.3g}, not below {self.target_ratio:g} of its start")
        if self.frozen:
            problems.append(f"frozen: {', '.join(self.frozen)}")
        if self.without_grad:
            problems.append(f"no gradient: {', '.join(self.without_grad)}")
        if problems:
            return "FAIL: " + "; ".join(problems)
        return f"PASS: loss {first:.3g} -> {last:.3g}, every parameter trained"


def overfit_one_batch(
    model: nn.Module,
    batch: tuple[Any, Any],
    loss_fn: Callable[[Any, Any], torch.Tensor],
    steps: int = 200,
    lr: float = 1e-2,
    *,
    optimizer: Callable[..., torch.optim.Optimizer] = torch.optim.Adam,
    target_ratio: float = 1e-2,
) -> OverfitResult:
    """Train a copy of ``model`` on one batch and check that it memorizes it.

    A model with enough capacity should drive the loss on a single batch close to zero; if it
    cannot, something between the data and the update is broken (a wrong loss, a graph cut by
    ``.detach()``, a frozen part). The loss alone can miss such a bug when the rest of the model
    is big enough to memorize the batch without the broken part, so the check also records which
    parameters were frozen or never received a non-zero gradient.

    The model is deep-copied, so the caller's weights do not change. Its mode is kept: put it in
    ``eval()`` first to switch dropout off, or leave it in ``train()`` to test the training path.

    Args:
        model: The model; ``model(inputs)`` is passed to ``loss_fn``.
        batch: ``(inputs, targets)``.
        loss_fn: ``loss_fn(model(inputs), targets)`` returns a scalar loss.
        steps: Optimizer steps.
        lr: Learning rate.
        optimizer: Optimizer class (or factory) called as ``optimizer(params, lr=lr)``.
        target_ratio: The last loss must be at most this fraction of the first.

    Returns:
        An ``OverfitResult`` with the loss curve and the verdict.

    Raises:
        ValueError: If ``steps`` is less than 1 or the model has no parameters.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.numerics import overfit_one_batch

      torch.manual_seed(0)
      model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
      batch = (torch.randn(8, 4), torch.randn(8, 1))
      result = overfit_one_batch(model, batch, nn.functional.mse_loss, steps=150)
      assert result.passed, result.verdict
      assert len(result.losses) == 151 and result.losses[-1] < 0.01 * result.losses[0]
      ```
    """
    if steps < 1:
        raise ValueError(f"steps must be at least 1, got {steps}")
    model = copy.deepcopy(model)
    named = list(model.named_parameters())
    if not named:
        raise ValueError(f"{type(model).__name__} has no parameters to train")
    trainable = [(name, p) for name, p in named if p.requires_grad]
    frozen = [name for name, p in named if not p.requires_grad]
    reached = dict.fromkeys((name for name, _ in trainable), False)
    opt = optimizer([p for _, p in trainable], lr=lr)
    inputs, targets = batch

    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(inputs), targets)
        losses.append(loss.item())
        if loss.requires_grad:
            loss.backward()
        for name, p in trainable:
            if p.grad is not None and bool(p.grad.ne(0).any()):
                reached[name] = True
        opt.step()
    with torch.no_grad():
        losses.append(loss_fn(model(inputs), targets).item())
    without_grad = [name for name, got in reached.items() if not got]
    return OverfitResult(losses, target_ratio, frozen, without_grad)
