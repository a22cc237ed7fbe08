"""Activation and gradient monitors built on module hooks, and dead-unit detection.

``ActivationMonitor`` registers a forward hook on every submodule of chosen types and keeps
per-module statistics of their outputs (mean, spread, share of zeros, how often each unit was
positive). ``GradientMonitor`` records the norm of the gradient that reaches each chosen module's
output and its parameters in every backward pass. Both are context managers: the hooks exist only
inside the ``with`` block, and the statistics stay readable after it. ``dead_units`` marks the
units of one activation tensor that are never positive.

A unit is a slice along ``unit_dim`` (dimension 1 by default: the features of a ``Linear`` output
``(batch, features)`` or the channels of a convolution output ``(batch, channels, ...)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Self

import torch
from torch import nn
from torch.utils.hooks import RemovableHandle

__all__ = ["ActivationMonitor", "ActivationStats", "GradientMonitor", "GradientStats", "dead_units"]


def _units_first(activations: torch.Tensor, unit_dim: int) -> torch.Tensor:
    """``activations`` as a ``(units, everything else)`` matrix."""
    if activations.dim() < 2:
        raise ValueError(
            f"expected a batched tensor (at least 2 dimensions), got shape {tuple(activations.shape)}"
        )
    if not -activations.dim() <= unit_dim < activations.dim():
        raise ValueError(f"unit_dim {unit_dim} is out of range for shape {tuple(activations.shape)}")
    units = activations.shape[unit_dim]
    return activations.detach().movedim(unit_dim, 0).reshape(units, -1)


def dead_units(activations: torch.Tensor, unit_dim: int = 1) -> torch.Tensor:
    """Mark the units that are not positive for any element of a batch.

    After a ReLU such a unit outputs zero for every input, so it also passes no gradient to the
    weights that feed it: it is *dead* for this batch. After a LeakyReLU the same test marks units
    stuck on the negative slope, which still receive a (small) gradient.

    Args:
        activations: A batched tensor, e.g. ``(batch, features)`` or ``(batch, channels, H, W)``.
        unit_dim: The dimension that indexes units.

    Returns:
        A boolean tensor with one entry per unit, ``True`` where the unit is never positive.

    Raises:
        ValueError: If ``activations`` has fewer than 2 dimensions or ``unit_dim`` is out of range.

    Examples:
      ```python
      import torch
      from torchguide.debug.hooks import dead_units

      out = torch.relu(torch.tensor([[1.0, -2.0, 0.0], [3.0, -1.0, 0.5]]))
      assert dead_units(out).tolist() == [False, True, False]
      ```
    """
    return ~(_units_first(activations, unit_dim) > 0).any(dim=1)


def _matching_modules(model: nn.Module, layer_types: tuple[type[nn.Module], ...]) -> dict[str, nn.Module]:
    found = {name: module for name, module in model.named_modules() if isinstance(module, layer_types)}
    if not found:
        names = ", ".join(t.__name__ for t in layer_types)
        # The usual reason: the activation is called as a function (F.relu), which has no module.
        raise ValueError(
            f"{type(model).__name__} has no submodule of type {names} to hook; "
            "functional calls such as F.relu cannot be hooked"
        )
    return found


class _HookSet:
    """Registers hooks on entry, removes every handle on exit (also after an exception)."""

    def __init__(self) -> None:
        self._handles: list[RemovableHandle] = []

    @property
    def active(self) -> bool:
        """Whether hooks are currently registered."""
        return bool(self._handles)

    def _register(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        if self._handles:
            raise RuntimeError(f"{type(self).__name__} is already active")
        self._register()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for handle in self._handles:
            handle.remove()
        self._handles.clear()


@dataclass(eq=False)
class ActivationStats:
    """Statistics of one module's outputs, summed over every forward call.

    Attributes:
        calls: Forward calls recorded.
        numel: Output elements seen.
        zeros: Output elements exactly equal to zero.
        total: Sum of all output elements (float64).
        total_of_squares: Sum of their squares (float64).
        positive_counts: Per unit, how many of its elements were positive.
        elements_per_unit: Per unit, how many elements were seen.
        outputs: Detached copies of the outputs, kept only with ``keep_outputs=True``.

    Examples:
      ```python
      import torch
      from torchguide.debug.hooks import ActivationStats

      stats = ActivationStats()
      stats.update(torch.tensor([[0.0, 2.0], [0.0, 4.0]]), unit_dim=1, keep=False)
      assert stats.zero_fraction == 0.5 and stats.mean == 1.5
      assert stats.dead.tolist() == [True, False]  # unit 0 was never positive
      ```
    """

    calls: int = 0
    numel: int = 0
    zeros: int = 0
    total: float = 0.0
    total_of_squares: float = 0.0
    positive_counts: torch.Tensor | None = None
    elements_per_unit: int = 0
    outputs: list[torch.Tensor] = field(default_factory=list)

    @property
    def mean(self) -> float:
        """Mean of all output elements."""
        return self.total / self.numel if self.numel else float("nan")

    @property
    def std(self) -> float:
        """Population standard deviation of all output elements."""
        if not self.numel:
            return float("nan")
        return max(self.total_of_squares / self.numel - self.mean**2, 0.0) ** 0.5

    @property
    def zero_fraction(self) -> float:
        """Share of output elements that are exactly zero (after a ReLU: the spike at 0)."""
        return self.zeros / self.numel if self.numel else float("nan")

    @property
    def active_fraction(self) -> torch.Tensor:
        """Per unit, the share of its elements that were positive."""
        if self.positive_counts is None:
            return torch.empty(0)
        return self.positive_counts.double() / self.elements_per_unit

    @property
    def dead(self) -> torch.Tensor:
        """Per unit, ``True`` where the unit was never positive in any recorded call."""
        if self.positive_counts is None:
            return torch.empty(0, dtype=torch.bool)
        return self.positive_counts == 0

    @property
    def dead_count(self) -> int:
        """Number of units never positive in any recorded call."""
        return int(self.dead.sum())

    @property
    def dead_fraction(self) -> float:
        """Share of units never positive in any recorded call."""
        units = self.dead.numel()
        return self.dead_count / units if units else float("nan")

    def update(self, output: torch.Tensor, unit_dim: int, keep: bool) -> None:
        """Add one forward call's output."""
        matrix = _units_first(output, unit_dim)
        positive = (matrix > 0).sum(dim=1)
        if self.positive_counts is None:
            self.positive_counts = positive
        elif self.positive_counts.shape != positive.shape:
            raise ValueError(
                f"the number of units changed between calls: {self.positive_counts.numel()} "
                f"then {positive.numel()}"
            )
        else:
            self.positive_counts = self.positive_counts + positive
        values = matrix.double()
        self.calls += 1
        self.numel += matrix.numel()
        self.zeros += int((matrix == 0).sum())
        self.total += float(values.sum())
        self.total_of_squares += float(values.pow(2).sum())
        self.elements_per_unit += matrix.shape[1]
        if keep:
            self.outputs.append(output.detach().clone())


class ActivationMonitor(_HookSet):
    """Record output statistics of every submodule of the given types while active.

    Inside the ``with`` block each matching module has a forward hook; the hook reads the output
    without changing it (it returns ``None``) and adds it to that module's ``ActivationStats``. On
    exit every handle is removed. Entering again starts fresh statistics.

    Args:
        model: The model to watch.
        layer_types: Module types to hook; by default every ``nn.ReLU``.
        unit_dim: The output dimension that indexes units.
        keep_outputs: Also keep a detached copy of every output (for histograms).

    Raises:
        ValueError: If ``model`` has no submodule of ``layer_types`` (for example because it calls
            ``F.relu``), or, during a forward pass, if an output is not batched.
        TypeError: If a watched module returns something other than a tensor.

    Attributes:
        stats: Module name (as in ``model.named_modules()``) to its ``ActivationStats``.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.hooks import ActivationMonitor

      model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
      with torch.no_grad():
          model[0].bias.copy_(torch.tensor([-9.0, 0.0, 9.0]))
      with ActivationMonitor(model) as monitor:
          model(torch.randn(16, 2))
      relu = monitor.stats["1"]
      assert relu.calls == 1 and relu.dead.tolist() == [True, False, False]
      assert not monitor.active  # the hooks are gone after the block
      ```
    """

    def __init__(
        self,
        model: nn.Module,
        layer_types: tuple[type[nn.Module], ...] = (nn.ReLU,),
        *,
        unit_dim: int = 1,
        keep_outputs: bool = False,
    ) -> None:
        super().__init__()
        self.modules = _matching_modules(model, layer_types)
        self.unit_dim = unit_dim
        self.keep_outputs = keep_outputs
        self.stats: dict[str, ActivationStats] = {}

    def _register(self) -> None:
        self.stats = {name: ActivationStats() for name in self.modules}
        for name, module in self.modules.items():
            self._handles.append(module.register_forward_hook(self._hook_for(name)))

    def _hook_for(self, name: str) -> Callable[[nn.Module, tuple, object], None]:
        def hook(module: nn.Module, args: tuple, output: object) -> None:
            if not isinstance(output, torch.Tensor):
                raise TypeError(f"{name} returned {type(output).__name__}; only tensor outputs are monitored")
            self.stats[name].update(output, self.unit_dim, self.keep_outputs)

        return hook


@dataclass
class GradientStats:
    """Gradient norms of one module, one entry per backward pass.

    Attributes:
        output_grad_norms: L2 norm of the gradient with respect to the module's output, one per
            forward call that took part in a backward pass.
        param_grad_norms: Parameter name (``"weight"``, ``"bias"``) to the L2 norms of the
            gradient each backward pass computed for it (before it is added into ``.grad``).

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.hooks import GradientMonitor, GradientStats

      model = nn.Sequential(nn.Linear(2, 1))
      with GradientMonitor(model) as monitor:
          model(torch.ones(3, 2)).sum().backward()
      stats = monitor.stats["0"]
      assert isinstance(stats, GradientStats)
      assert stats.param_grad_norms["bias"] == [3.0]  # d(sum)/d(bias) over 3 rows
      ```
    """

    output_grad_norms: list[float] = field(default_factory=list)
    param_grad_norms: dict[str, list[float]] = field(default_factory=dict)


class GradientMonitor(_HookSet):
    """Record gradient norms of every submodule of the given types while active.

    Implemented with tensor hooks (``Tensor.register_hook``): a forward hook attaches one to the
    module's output, and one is attached to each of the module's own parameters. A module-level
    ``register_full_backward_hook`` would fail as soon as an in-place operation
    (``nn.ReLU(inplace=True)``) modifies the hooked output; a tensor hook keeps working and sees
    the gradient of the value before the in-place change. Outputs computed without grad
    (``torch.no_grad()``) are skipped. Entering again starts fresh statistics.

    Args:
        model: The model to watch.
        layer_types: Module types to hook; by default every ``nn.Linear`` and convolution.

    Raises:
        ValueError: If ``model`` has no submodule of ``layer_types``.

    Attributes:
        stats: Module name (as in ``model.named_modules()``) to its ``GradientStats``.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.hooks import GradientMonitor

      model = nn.Sequential(nn.Linear(3, 1, bias=False))
      with GradientMonitor(model) as monitor:
          model(torch.ones(2, 3)).sum().backward()
      grads = monitor.stats["0"]
      assert grads.output_grad_norms == [2**0.5]  # d(sum)/d(output) = [1, 1]
      (weight_norm,) = grads.param_grad_norms["weight"]  # one backward pass
      assert abs(weight_norm - model[0].weight.grad.norm().item()) < 1e-6
      ```
    """

    def __init__(
        self,
        model: nn.Module,
        layer_types: tuple[type[nn.Module], ...] = (nn.Linear, nn.Conv1d, nn.Conv2d, nn.Conv3d),
    ) -> None:
        super().__init__()
        self.modules = _matching_modules(model, layer_types)
        self.stats: dict[str, GradientStats] = {}

    def _register(self) -> None:
        self.stats = {name: GradientStats() for name in self.modules}
        for name, module in self.modules.items():
            self._handles.append(module.register_forward_hook(self._output_hook_for(name)))
            for param_name, param in module.named_parameters(recurse=False):
                if param.requires_grad:
                    norms = self.stats[name].param_grad_norms.setdefault(param_name, [])
                    self._handles.append(param.register_hook(self._recorder(norms)))

    def _output_hook_for(self, name: str) -> Callable[[nn.Module, tuple, object], None]:
        norms = self.stats[name].output_grad_norms

        def hook(module: nn.Module, args: tuple, output: object) -> None:
            if isinstance(output, torch.Tensor) and output.requires_grad:
                # Registered per call; the monitor's exit cannot reach these handles, so the hook
                # checks that the monitor is still active before recording.
                output.register_hook(self._recorder(norms, only_while_active=True))

        return hook

    def _recorder(
        self, norms: list[float], only_while_active: bool = False
    ) -> Callable[[torch.Tensor], None]:
        def record(grad: torch.Tensor) -> None:
            if not only_while_active or self.active:
                norms.append(float(grad.detach().double().norm()))

        return record
