"""Small helpers for inspecting gradients and optimizer state.

They keep the training-loop snippets short: copy the gradients of a module,
measure their global norm, and count the bytes an optimizer keeps as state.
"""

from __future__ import annotations

import torch
from torch import nn


def clone_grads(module: nn.Module) -> dict[str, torch.Tensor | None]:
    """Copy the ``.grad`` of every parameter of a module.

    Args:
        module: The module whose parameters are read.

    Returns:
        A dict from parameter name to a detached clone of its gradient, or
        ``None`` where the parameter has no gradient.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.training import clone_grads

      layer = nn.Linear(2, 1)
      assert clone_grads(layer) == {"weight": None, "bias": None}
      layer(torch.ones(1, 2)).sum().backward()
      grads = clone_grads(layer)
      assert torch.equal(grads["bias"], torch.ones(1))
      ```
    """
    return {
        name: None if p.grad is None else p.grad.detach().clone()
        for name, p in module.named_parameters()
    }


def grad_norm(module: nn.Module) -> float:
    """Global L2 norm of all gradients of a module (as clipping measures it).

    Parameters without a gradient are skipped.

    Args:
        module: The module whose parameter gradients are measured.

    Returns:
        The L2 norm of all gradients concatenated into one vector, or ``0.0``
        when no parameter has a gradient.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.training import grad_norm

      layer = nn.Linear(3, 1, bias=False)
      assert grad_norm(layer) == 0.0
      layer(torch.full((1, 3), 2.0)).sum().backward()
      assert abs(grad_norm(layer) - 12**0.5) < 1e-6
      ```
    """
    squares = [
        p.grad.detach().double().pow(2).sum()
        for p in module.parameters()
        if p.grad is not None
    ]
    if not squares:
        return 0.0
    return float(torch.stack(squares).sum().sqrt())


def optimizer_state_bytes(optimizer: torch.optim.Optimizer) -> int:
    """Count the bytes held in tensors of ``optimizer.state``.

    Args:
        optimizer: Any ``torch.optim`` optimizer.

    Returns:
        Total ``numel * element_size`` over every tensor stored in the
        per-parameter state dicts (momentum buffers, moment estimates, step
        counters). Non-tensor entries are ignored.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.training import optimizer_state_bytes

      layer = nn.Linear(4, 4, bias=False)
      opt = torch.optim.SGD(layer.parameters(), lr=0.1, momentum=0.9)
      assert optimizer_state_bytes(opt) == 0  # state is created lazily
      layer(torch.ones(1, 4)).sum().backward()
      opt.step()
      assert optimizer_state_bytes(opt) == 16 * 4  # one float32 buffer
      ```
    """
    return sum(
        value.numel() * value.element_size()
        for state in optimizer.state.values()
        for value in state.values()
        if isinstance(value, torch.Tensor)
    )
