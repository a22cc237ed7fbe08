"""Tests for torchguide.debug.numerics."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from torchguide.debug.numerics import (
    find_nonfinite,
    first_nonfinite_module,
    overfit_one_batch,
)

NAN, INF = float("nan"), float("inf")


def mlp() -> nn.Sequential:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


# find_nonfinite


def test_finite_values_report_nothing() -> None:
    assert find_nonfinite(torch.randn(4, 5)) == []
    assert find_nonfinite([torch.ones(2), {"a": torch.zeros(3)}, 1.5]) == []


def test_counts_each_kind_and_the_first_index() -> None:
    t = torch.tensor([[1.0, 2.0, INF], [NAN, -INF, NAN]])
    (report,) = find_nonfinite(t)
    assert (report.nan, report.posinf, report.neginf) == (2, 1, 1)
    assert report.shape == (2, 3)
    assert report.first_index == (0, 2)
    assert str(report) == "tensor [2, 3]: 2 NaN, 1 +inf, 1 -inf; first at [0, 2]"


def test_integer_bool_and_empty_tensors_are_finite() -> None:
    assert find_nonfinite(torch.arange(5)) == []
    assert find_nonfinite(torch.tensor([True, False])) == []
    assert find_nonfinite(torch.empty(0)) == []
    assert find_nonfinite(torch.empty(3, 0, 2)) == []
    assert find_nonfinite([]) == []
    assert find_nonfinite({}) == []


def test_half_precision_overflow_is_found() -> None:
    x = torch.tensor([300.0], dtype=torch.float16)
    (report,) = find_nonfinite(x * x)  # 90000 > 65504, the largest float16
    assert report.posinf == 1


def test_complex_tensors_are_checked_on_both_parts() -> None:
    z = torch.tensor([1 + 1j, complex(0, NAN), 2 + 0j])
    (report,) = find_nonfinite(z)
    assert report.nan == 1 and report.first_index == (1,)


def test_nested_structures_are_named_by_keys_and_indices() -> None:
    values = {"out": (torch.ones(2), torch.tensor([NAN])), "aux": [torch.tensor(INF)]}
    assert [r.name for r in find_nonfinite(values)] == ["out.1", "aux.0"]
    assert find_nonfinite(values, name="step3")[0].name == "step3.out.1"


def test_named_parameters_and_unset_grads() -> None:
    model = mlp()
    assert find_nonfinite(model.named_parameters()) == []
    assert find_nonfinite((name, p.grad) for name, p in model.named_parameters()) == []  # all None
    with torch.no_grad():
        model[2].bias[1] = NAN
    (report,) = find_nonfinite(model.named_parameters())
    assert report.name == "2.bias" and report.first_index == (1,)


def test_python_numbers_are_checked() -> None:
    assert [r.name for r in find_nonfinite([1.0, NAN, 3])] == ["1"]
    assert find_nonfinite(math.inf)[0].posinf == 1


def test_unknown_leaves_are_rejected() -> None:
    with pytest.raises(TypeError, match="str at 0"):
        find_nonfinite(["not a tensor"])
    with pytest.raises(TypeError, match="object"):
        find_nonfinite(object())


def test_tensors_that_require_grad_are_read_without_tracking() -> None:
    w = torch.tensor([NAN, 1.0], requires_grad=True)
    assert find_nonfinite(w * 2)[0].nan == 1


# first_nonfinite_module


def test_finite_forward_has_no_site() -> None:
    assert first_nonfinite_module(mlp(), torch.randn(5, 3)) is None


def test_nan_in_the_data_is_the_input_of_the_model() -> None:
    x = torch.randn(5, 3)
    x[3, 1] = NAN
    site = first_nonfinite_module(mlp(), x)
    assert (site.module, site.kind, site.module_type) == ("", "input", "Sequential")
    assert site.found[0].name == "arg0" and site.found[0].first_index == (3, 1)


def test_nan_made_by_the_first_layer_is_its_output() -> None:
    model = mlp()
    with torch.no_grad():
        model[0].weight[2, 0] = NAN
    site = first_nonfinite_module(model, torch.randn(5, 3))
    assert (site.module, site.kind, site.module_type) == ("0", "output", "Linear")
    assert site.found[0].nan == 5  # unit 2 of every sample
    assert str(site).startswith("output of 0 (Linear): output [5, 4]: 5 NaN")


class LogBetween(nn.Module):
    """A functional op between two submodules makes the NaN."""

    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Linear(2, 2)
        self.second = nn.Linear(2, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(torch.log(self.first(x)))


def test_a_functional_op_shows_as_the_next_modules_input() -> None:
    model = LogBetween()
    with torch.no_grad():
        model.first.weight.copy_(torch.tensor([[1.0, 0.0], [-1.0, 0.0]]))
        model.first.bias.zero_()
    site = first_nonfinite_module(model, torch.tensor([[2.0, 0.0]]))  # log(-2) = NaN
    assert (site.module, site.kind) == ("second", "input")


def test_keyword_inputs_are_checked() -> None:
    class Scale(nn.Module):
        def forward(self, x: torch.Tensor, *, factor: torch.Tensor) -> torch.Tensor:
            return x * factor

    site = first_nonfinite_module(Scale(), torch.ones(2), factor=torch.tensor(INF))
    assert site.kind == "input" and site.found[0].name == "factor"


def test_hooks_are_removed_even_when_forward_raises() -> None:
    model = mlp()
    with pytest.raises(RuntimeError):
        first_nonfinite_module(model, torch.randn(5, 7))  # wrong width
    assert all(not m._forward_hooks and not m._forward_pre_hooks for m in model.modules())


def test_the_forward_records_no_graph() -> None:
    model = mlp()
    seen = []
    model.register_forward_hook(lambda m, a, out: seen.append(out.requires_grad))
    first_nonfinite_module(model, torch.randn(2, 3))
    assert seen == [False]


def test_tuple_outputs_are_named_by_position() -> None:
    class Pair(nn.Module):
        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return x, x.log()

    site = first_nonfinite_module(Pair(), torch.tensor([-1.0]))
    assert site.kind == "output" and [r.name for r in site.found] == ["output.1"]


# overfit_one_batch


def classification_batch() -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    return torch.randn(16, 6), torch.randint(0, 3, (16,))


def classifier() -> nn.Sequential:
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))


def test_a_healthy_model_passes_and_is_left_untouched() -> None:
    model = classifier()
    before = [p.detach().clone() for p in model.parameters()]
    result = overfit_one_batch(model, classification_batch(), F.cross_entropy, steps=150)
    assert result.passed, result.verdict
    assert result.verdict.startswith("PASS")
    assert len(result.losses) == 151
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))


def test_a_wrong_loss_fails_on_the_loss() -> None:
    def softmax_then_cross_entropy(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits.softmax(-1), y)  # cross_entropy applies softmax itself

    result = overfit_one_batch(classifier(), classification_batch(), softmax_then_cross_entropy)
    assert not result.memorized and not result.passed
    assert result.losses[-1] > 0.3  # above log(1 + 2/e), its floor with 3 classes
    assert "not below" in result.verdict


def test_a_frozen_layer_is_reported_even_when_the_loss_falls() -> None:
    model = classifier()
    model[0].requires_grad_(False)
    result = overfit_one_batch(model, classification_batch(), F.cross_entropy, steps=150)
    assert result.frozen == ["0.weight", "0.bias"]
    assert not result.passed and "frozen: 0.weight, 0.bias" in result.verdict


class Detached(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Linear(6, 32)
        self.head = nn.Linear(32, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(torch.relu(self.body(x)).detach())


def test_a_detached_part_is_reported_as_without_gradient() -> None:
    result = overfit_one_batch(Detached(), classification_batch(), F.cross_entropy, steps=50)
    assert result.without_grad == ["body.weight", "body.bias"]
    assert result.frozen == [] and not result.passed


def test_a_loss_cut_from_every_parameter_trains_nothing() -> None:
    def detached_loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(out.detach(), y)

    result = overfit_one_batch(classifier(), classification_batch(), detached_loss, steps=5)
    assert len(result.without_grad) == 4
    assert len(set(result.losses)) == 1  # nothing moved


def test_a_diverging_run_does_not_count_as_memorized() -> None:
    torch.manual_seed(0)
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    result = overfit_one_batch(
        nn.Linear(4, 1), (x, y), F.mse_loss, steps=60, lr=5.0, optimizer=torch.optim.SGD
    )
    assert not math.isfinite(result.losses[-1])
    assert not result.memorized


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        overfit_one_batch(classifier(), classification_batch(), F.cross_entropy, steps=0)
    with pytest.raises(ValueError, match="no parameters"):
        overfit_one_batch(nn.ReLU(), classification_batch(), F.cross_entropy)
