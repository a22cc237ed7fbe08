"""Tests for torchguide.debug.hooks."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from torchguide.debug.hooks import ActivationMonitor, GradientMonitor, dead_units


def mlp(hidden: int = 5, inplace: bool = False) -> nn.Sequential:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, hidden), nn.ReLU(inplace=inplace), nn.Linear(hidden, 1))


class FunctionalRelu(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(3, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(self.fc(x))


# dead_units


def test_dead_units_marks_units_never_positive() -> None:
    out = torch.tensor([[0.0, 2.0, -1.0], [0.0, 0.0, -3.0]])
    assert dead_units(out).tolist() == [True, False, True]


def test_dead_units_reads_channels_of_conv_outputs() -> None:
    out = torch.zeros(2, 3, 4, 4)
    out[1, 2, 3, 3] = 1.0  # a single positive pixel keeps channel 2 alive
    assert dead_units(out).tolist() == [True, True, False]
    assert dead_units(out, unit_dim=-1).tolist() == [True, True, True, False]


def test_dead_units_rejects_unbatched_and_out_of_range() -> None:
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        dead_units(torch.ones(3))
    with pytest.raises(ValueError, match="out of range"):
        dead_units(torch.ones(2, 3), unit_dim=2)


# ActivationMonitor


def test_activation_stats_match_the_outputs() -> None:
    model = mlp()
    x = torch.randn(64, 3)
    with ActivationMonitor(model, keep_outputs=True) as monitor:
        model(x)
        model(x[:10])
    stats = monitor.stats["1"]
    expected = torch.cat([torch.relu(model[0](x)), torch.relu(model[0](x[:10]))]).detach()
    assert stats.calls == 2
    assert stats.numel == expected.numel() == 74 * 5
    assert stats.zeros == int((expected == 0).sum())
    assert math.isclose(stats.mean, expected.double().mean().item(), rel_tol=1e-9)
    assert math.isclose(stats.std, expected.double().std(unbiased=False).item(), rel_tol=1e-6)
    assert math.isclose(stats.zero_fraction, (expected == 0).double().mean().item())
    assert torch.allclose(stats.active_fraction, (expected > 0).double().mean(0))
    assert [o.shape[0] for o in stats.outputs] == [64, 10]


def test_activation_monitor_does_not_change_the_output() -> None:
    model = mlp()
    x = torch.randn(8, 3)
    before = model(x)
    with ActivationMonitor(model):
        during = model(x)
    assert torch.equal(before, during)


def test_all_units_dead() -> None:
    model = mlp(hidden=4)
    with torch.no_grad():
        model[0].bias.fill_(-100.0)
    with ActivationMonitor(model) as monitor:
        model(torch.randn(32, 3))
    stats = monitor.stats["1"]
    assert stats.dead_count == 4
    assert stats.dead_fraction == 1.0
    assert stats.zero_fraction == 1.0


def test_a_unit_alive_in_one_call_is_not_dead() -> None:
    model = nn.Sequential(nn.ReLU())
    with ActivationMonitor(model) as monitor:
        model(torch.tensor([[-1.0, -1.0]]))
        model(torch.tensor([[-1.0, 1.0]]))
    assert monitor.stats["0"].dead.tolist() == [True, False]


def test_no_matching_layer_is_an_error_that_names_functional_calls() -> None:
    with pytest.raises(ValueError, match="F.relu"):
        ActivationMonitor(FunctionalRelu())
    with pytest.raises(ValueError, match="Conv2d"):
        GradientMonitor(mlp(), layer_types=(nn.Conv2d,))


def test_hooks_are_removed_after_the_block() -> None:
    model = mlp()
    monitor = ActivationMonitor(model)
    with monitor:
        assert monitor.active
        assert len(model[1]._forward_hooks) == 1
        model(torch.randn(4, 3))
    assert not monitor.active
    assert len(model[1]._forward_hooks) == 0
    model(torch.randn(4, 3))
    assert monitor.stats["1"].calls == 1  # the call after the block was not recorded


def test_hooks_are_removed_when_the_block_raises() -> None:
    model = mlp()
    monitor = ActivationMonitor(model)
    with pytest.raises(RuntimeError, match="boom"), monitor:
        raise RuntimeError("boom")
    assert not monitor.active
    assert len(model[1]._forward_hooks) == 0


def test_entering_again_starts_fresh_and_nesting_is_refused() -> None:
    model = mlp()
    monitor = ActivationMonitor(model)
    with monitor:
        model(torch.randn(4, 3))
        with pytest.raises(RuntimeError, match="already active"), monitor:
            pass
    with monitor:
        pass
    assert monitor.stats["1"].calls == 0
    assert monitor.stats["1"].dead.numel() == 0
    assert math.isnan(monitor.stats["1"].mean)


def test_changing_unit_count_and_non_tensor_outputs_are_errors() -> None:
    relu = nn.Sequential(nn.ReLU())
    with ActivationMonitor(relu), pytest.raises(ValueError, match="number of units changed"):
        relu(torch.ones(2, 3))
        relu(torch.ones(2, 4))

    class Pair(nn.Module):
        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return x, x

    model = nn.Sequential(Pair())
    with ActivationMonitor(model, layer_types=(Pair,)), pytest.raises(TypeError, match="tuple"):
        model(torch.ones(2, 3))


# GradientMonitor


def test_gradient_norms_match_autograd() -> None:
    model = mlp()
    x = torch.randn(16, 3)
    with GradientMonitor(model) as monitor:
        hidden = model[0](x)
        hidden.retain_grad()
        model[2](model[1](hidden)).pow(2).mean().backward()
    first = monitor.stats["0"]
    assert first.output_grad_norms == pytest.approx([hidden.grad.norm().item()])
    assert first.param_grad_norms["weight"] == pytest.approx([model[0].weight.grad.norm().item()])
    assert first.param_grad_norms["bias"] == pytest.approx([model[0].bias.grad.norm().item()])


def test_each_backward_pass_is_recorded_separately() -> None:
    model = mlp()
    x = torch.randn(4, 3)
    with GradientMonitor(model) as monitor:
        model(x).sum().backward()
        model(x).sum().backward()  # .grad now holds the sum of both
    norms = monitor.stats["2"].param_grad_norms["weight"]
    assert len(norms) == 2
    assert norms[0] == pytest.approx(norms[1])
    assert model[2].weight.grad.norm().item() == pytest.approx(2 * norms[0])


def test_no_backward_leaves_empty_records() -> None:
    model = mlp()
    with GradientMonitor(model) as monitor:
        model(torch.randn(4, 3))
    for stats in monitor.stats.values():
        assert stats.output_grad_norms == []
        assert all(norms == [] for norms in stats.param_grad_norms.values())


def test_outputs_without_grad_and_frozen_parameters_are_skipped() -> None:
    model = mlp()
    model[0].bias.requires_grad_(False)
    with GradientMonitor(model) as monitor, torch.no_grad():
        model(torch.randn(4, 3))
    assert "bias" not in monitor.stats["0"].param_grad_norms
    assert monitor.stats["0"].output_grad_norms == []


def test_backward_after_the_block_is_not_recorded() -> None:
    model = mlp()
    with GradientMonitor(model) as monitor:
        loss = model(torch.randn(4, 3)).sum()
    loss.backward()
    assert monitor.stats["0"].output_grad_norms == []
    assert monitor.stats["0"].param_grad_norms["weight"] == []


def test_works_where_a_full_backward_hook_fails_on_inplace_relu() -> None:
    model = mlp(inplace=True)
    x = torch.randn(8, 3)
    handle = model[0].register_full_backward_hook(lambda module, grad_in, grad_out: None)
    with pytest.raises(RuntimeError, match="modified inplace"):
        model(x).sum().backward()
    handle.remove()
    model.zero_grad()
    with GradientMonitor(model) as monitor:
        model(x).sum().backward()
    assert len(monitor.stats["0"].output_grad_norms) == 1
    assert monitor.stats["0"].output_grad_norms[0] > 0
