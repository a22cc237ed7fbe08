"""The training drills keep the drill contract, and each checker's shortcut is held to torch's own
answer: the AdamW reference to torch.optim.AdamW, the schedule to a LambdaLR, the checkpoint
reference to a run that never stopped, and the simulated DDP's all-reduces to a real one's."""

import contextlib
import copy
import runpy

import pytest
import torch
from drill_contract import (  # noqa: F401 (collected here, parametrized by DRILLS)
    test_a_wrong_solution_fails_with_its_message,
    test_each_drill_has_two_wrong_solutions,
    test_the_reference_solution_on_the_page_passes,
    test_the_stub_fails_as_not_written_yet,
)
from drill_files import ROOT, wrong_solutions
from hypothesis import given, settings

from torchguide.drills import training

DRILLS = training.DRILLS


def _adamw_cases():
    return training._adamw_named()


def _torch_adamw_trajectory(values, grads, lr, betas, eps, weight_decay):
    params = [torch.nn.Parameter(value.clone()) for value in values]
    optimizer = torch.optim.AdamW(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
    after = []
    for step_grads in grads:
        for parameter, grad in zip(params, step_grads, strict=True):
            parameter.grad = None if grad is None else grad.clone()
        optimizer.step()
        after.append([p.detach().clone() for p in params])
    return after


def _assert_reference_is_torch_adamw(case):
    reference, problem = training._stepped_by(training._adamw_step)(*case.args)
    assert problem is None
    for mine, theirs in zip(reference, _torch_adamw_trajectory(*case.args), strict=True):
        assert all(torch.equal(p, q) for p, q in zip(mine, theirs, strict=True)), case.where


@pytest.mark.parametrize("case", _adamw_cases(), ids=lambda case: case.where[:60])
def test_the_adamw_reference_is_torch_optim_adamw_bit_for_bit(case):
    _assert_reference_is_torch_adamw(case)


@settings(max_examples=30, deadline=None, database=None)
@given(training._adamw_generated())
def test_the_adamw_reference_is_torch_optim_adamw_on_generated_cases(case):
    _assert_reference_is_torch_adamw(case)


def test_the_by_hand_rule_without_a_mistake_is_adamw_within_the_tolerance():
    """The checker names a mistake by the rule it matches; without one, the rule is AdamW's."""
    for case in _adamw_cases():
        hand = training._adamw_by_hand(*case.args)
        for mine, theirs in zip(hand, _torch_adamw_trajectory(*case.args), strict=True):
            assert all(training._close(p, q) for p, q in zip(mine, theirs, strict=True)), case.where


def _lambda_lr_rates(base_lr, min_lr, warmup_steps, decay_steps, steps):
    parameter = torch.nn.Parameter(torch.zeros(1))
    optimizer = torch.optim.SGD([parameter], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: training._lr_at(s, base_lr, min_lr, warmup_steps, decay_steps) / base_lr
    )
    rates = []
    for _ in range(steps):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return rates


def test_the_schedule_is_what_a_lambda_lr_built_from_it_sets_step_by_step():
    for case in training._schedule_named():
        order, base_lr, min_lr, warmup_steps, decay_steps = case.args
        rates, _ = training._every_step(training._lr_at)(*case.args)
        used = _lambda_lr_rates(base_lr, min_lr, warmup_steps, decay_steps, len(rates))
        assert used == pytest.approx(rates, rel=1e-12, abs=0), case.where


def test_the_schedule_is_the_pages_linear_lr_then_cosine_annealing_lr_up_to_the_decays_end():
    from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, SequentialLR

    for case in training._schedule_named():
        _, base_lr, min_lr, warmup_steps, decay_steps = case.args
        if warmup_steps == 0:
            continue  # LinearLR needs a start factor of 1 / warmup_steps
        optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=base_lr)
        warmup = LinearLR(optimizer, start_factor=1 / warmup_steps, total_iters=warmup_steps)
        cosine = CosineAnnealingLR(optimizer, T_max=decay_steps - warmup_steps, eta_min=min_lr)
        scheduler = SequentialLR(optimizer, [warmup, cosine], milestones=[warmup_steps])
        for step in range(decay_steps + 1):
            used = optimizer.param_groups[0]["lr"]
            wanted = training._lr_at(step, base_lr, min_lr, warmup_steps, decay_steps)
            assert used == pytest.approx(wanted, rel=1e-9, abs=1e-12 * base_lr), (case.where, step)
            optimizer.step()
            scheduler.step()


def test_the_schedule_at_its_edges():
    lr = training._lr_at
    assert lr(0, 1e-3, 1e-5, 5, 25) == pytest.approx(1e-3 / 5)  # never 0
    assert lr(4, 1e-3, 1e-5, 5, 25) < lr(5, 1e-3, 1e-5, 5, 25) == 1e-3  # the peak ends the warmup
    assert lr(25, 1e-3, 1e-5, 5, 25) == lr(40, 1e-3, 1e-5, 5, 25) == 1e-5  # min_lr, held
    assert lr(0, 0.1, 1e-3, 0, 10) == 0.1  # no warmup: the cosine starts at once
    rates = [lr(s, 1e-3, 1e-5, 5, 25) for s in range(5, 26)]
    assert all(a > b for a, b in zip(rates, rates[1:], strict=False))  # the decay only falls


def _uninterrupted(recipe, steps_before, steps_after, seed):
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(seed)
        model, optimizer, scheduler = training.RECIPES[recipe]()
        training._train(model, optimizer, scheduler, steps_before + steps_after)
        return torch.cat([p.detach().flatten() for p in model.parameters()])
    finally:
        torch.set_num_threads(threads)


@pytest.mark.parametrize("case", training._resume_named(), ids=lambda case: case.where[:50])
def test_the_resumed_reference_ends_where_an_uninterrupted_run_does_bit_for_bit(case):
    weights, missing = training._interrupted_by(training._resume)(*case.args)
    assert missing == []
    assert torch.equal(weights, _uninterrupted(*case.args))


def test_each_recipe_needs_every_part_of_the_checkpoint():
    """A case that a checkpoint without its optimizer, scheduler or random state would pass
    proves nothing: on the named cases each part changes the weights."""
    for recipe in training.RECIPES:
        case = next(c for c in training._resume_named() if c.args[0] == recipe)
        whole = _uninterrupted(*case.args)
        for path in wrong_solutions("resume_from_checkpoint"):
            if path.stem in ("model_only", "no_scheduler", "no_random_state"):
                resume = runpy.run_path(str(path))["resume"]
                weights, _ = training._interrupted_by(resume)(*case.args)
                assert not torch.equal(weights, whole), (recipe, path.stem)


# --- the simulated DDP against a real DistributedDataParallel ----------------------------------


@pytest.fixture(scope="module")
def gloo_group(tmp_path_factory):
    import torch.distributed as dist

    store = dist.FileStore(str(tmp_path_factory.mktemp("ddp") / "rendezvous"), 1)
    dist.init_process_group("gloo", store=store, rank=0, world_size=1)
    yield
    dist.destroy_process_group()


def _real_ddp_all_reduces(function, case):
    from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
    from torch.nn.parallel import DistributedDataParallel

    widths, micro_batches, seed = case.args
    torch.manual_seed(seed)
    layers = [torch.nn.Linear(widths[0], widths[1]), torch.nn.Tanh(), torch.nn.Linear(widths[1], widths[2])]
    module = torch.nn.Sequential(*layers)
    model = DistributedDataParallel(copy.deepcopy(module), bucket_cap_mb=1000)  # one bucket
    counted = []

    def counting(state, bucket):
        counted.append(bucket.index())
        return allreduce_hook(state, bucket)

    model.register_comm_hook(None, counting)
    function(model, micro_batches)
    grads = {name: p.grad for name, p in model.module.named_parameters()}
    del model
    return len(counted), grads


def _solutions():
    yield "reference", training._accumulate_under_ddp
    for path in wrong_solutions("no_sync_accumulation"):
        yield path.stem, runpy.run_path(str(path))["accumulate"]


@pytest.mark.parametrize(("name", "function"), list(_solutions()), ids=[name for name, _ in _solutions()])
def test_the_simulated_ddp_all_reduces_as_often_as_a_real_one(gloo_group, name, function):
    for case in training._ddp_named():
        real, real_grads = _real_ddp_all_reduces(function, case)
        grads, simulated, _, _ = training._on_one_rank(function)(*case.args)
        assert len(simulated) == real, (name, case.where)
        for key, grad in grads.items():  # one rank: the all-reduce leaves the gradient as it is
            torch.testing.assert_close(grad, real_grads[key])


def test_the_simulated_ddp_arms_in_the_forward_and_counts_each_backward():
    model = training.SimulatedDDP(torch.nn.Linear(3, 1))
    with model.no_sync():
        loss = model(torch.randn(2, 3)).sum()
    loss.backward()  # outside no_sync(), but its forward was inside: no all-reduce
    assert model.all_reduces == [] and model.backward_passes == 1 and model.unsynced_last_forward
    model(torch.randn(2, 3)).sum().backward()
    assert model.all_reduces == [2]
    with contextlib.suppress(Exception), torch.no_grad():
        model(torch.randn(2, 3))  # no gradients: nothing to sync
    assert model.all_reduces == [2]


def test_the_solution_snippets_use_no_optimizer_in_the_adamw_drill():
    text = (ROOT / training.ADAMW_STEP_BY_HAND.solution_path).read_text()
    assert "torch.optim" not in text
