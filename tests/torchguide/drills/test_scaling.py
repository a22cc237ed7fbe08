"""The drills of scaling and compiling keep the drill contract, and what their checkers ask of the
compiler holds of the references."""

import torch
import torch._dynamo
from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)

from torchguide.drills import scaling

DRILLS = scaling.DRILLS


def test_every_case_is_drawn_under_at_least_three_seeds():
    for drill in DRILLS:
        seeds = {case.where.split("seed ")[1].split(",")[0].rstrip(")") for case in drill.named_cases()}
        assert len(seeds) >= 3, drill.id


def test_the_clip_reference_is_one_graph_and_clips_as_the_branch_does():
    """The checker skips explaining its own reference: here it is explained."""
    explained = torch._dynamo.explain(scaling._clip_to_norm)(torch.randn(3, 4), 0.5)
    assert (explained.graph_count, explained.graph_break_count) == (1, 0)
    for max_norm in (0.5, 100.0):
        x = torch.randn(3, 4)
        branch = x * (max_norm / x.norm()) if x.norm() > max_norm else x
        torch.testing.assert_close(scaling._clip_to_norm(x, max_norm), branch)


def test_the_fsdp_reference_leaves_the_weights_of_a_ddp_step():
    """DDP's step: each rank's mean loss backpropagated through its own copy of the layer, the
    gradients averaged over ranks, one SGD step."""
    case = scaling._fsdp_case([1, 3, 2], 5, 1, 0.5, seed=7)  # 5 values over 3 ranks: padded
    shards, inputs, targets, out_features, lr = case.args
    replicas = []
    for x, y in zip(inputs, targets, strict=True):
        layer = torch.nn.Linear(5, out_features, bias=False)
        with torch.no_grad():
            layer.weight.copy_(torch.cat(shards)[: 5 * out_features].view(out_features, 5))
        torch.nn.functional.mse_loss(layer(x), y).backward()
        replicas.append(layer)
    mean_grad = torch.stack([layer.weight.grad for layer in replicas]).mean(0)
    ddp_weight = replicas[0].weight.detach() - lr * mean_grad
    stepped = torch.cat(scaling._fsdp_step(shards, inputs, targets, out_features, lr))
    torch.testing.assert_close(stepped[: 5 * out_features].view(out_features, 5), ddp_weight)
    assert torch.equal(stepped[5 * out_features :], torch.zeros(1))
