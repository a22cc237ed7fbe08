"""Tests for torchguide.training."""

import torch
from torch import nn

from torchguide.training import clone_grads, grad_norm, optimizer_state_bytes


def test_clone_grads_is_a_copy() -> None:
    layer = nn.Linear(3, 2)
    layer(torch.ones(4, 3)).sum().backward()
    grads = clone_grads(layer)
    assert torch.equal(grads["weight"], torch.full((2, 3), 4.0))
    layer.weight.grad.zero_()
    assert torch.equal(grads["weight"], torch.full((2, 3), 4.0))


def test_clone_grads_keeps_none() -> None:
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    model[0].requires_grad_(False)
    model(torch.ones(1, 2)).sum().backward()
    grads = clone_grads(model)
    assert grads["0.weight"] is None and grads["0.bias"] is None
    assert grads["1.weight"] is not None


def test_grad_norm_matches_clip_grad_norm() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 4), nn.ReLU(), nn.Linear(4, 1))
    model(torch.randn(8, 5)).pow(2).sum().backward()
    expected = nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
    assert abs(grad_norm(model) - expected.item()) < 1e-4


def test_grad_norm_without_grads_is_zero() -> None:
    assert grad_norm(nn.Linear(2, 2)) == 0.0


def test_optimizer_state_bytes_per_optimizer() -> None:
    def bytes_after_step(make_opt) -> tuple[int, int]:
        layer = nn.Linear(10, 10)
        opt = make_opt(layer.parameters())
        layer(torch.ones(1, 10)).sum().backward()
        opt.step()
        n_bytes = sum(p.numel() * 4 for p in layer.parameters())
        return optimizer_state_bytes(opt), n_bytes

    state, params = bytes_after_step(
        lambda ps: torch.optim.SGD(ps, lr=0.1)
    )
    assert state == 0
    state, params = bytes_after_step(
        lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9)
    )
    assert state == params
    state, params = bytes_after_step(lambda ps: torch.optim.Adam(ps))
    assert state == 2 * params + 2 * 4  # two moments + one step per param
