"""The drills of training: one AdamW step by hand, a warmup-then-cosine learning rate, a checkpoint
that resumes training bit for bit, and gradient accumulation that all-reduces once under DDP.

Creating any ``torch.optim`` optimizer imports ``torch._dynamo``, about a second of a check's time
(``Optimizer.add_param_group`` is wrapped by ``torch._disable_dynamo``). So the AdamW drill's
reference is the function ``torch.optim.AdamW.step`` calls (``torch.optim.adam.adam`` with
``decoupled_weight_decay=True``), and the schedule's is its formula; the tests hold each equal
to ``torch.optim.AdamW`` and to a ``LambdaLR``. Only the checkpoint drill, whose subject is an
optimizer's state, builds optimizers.
"""

from __future__ import annotations

import contextlib
import copy
import math
import os
import random
import shutil
import tempfile

import torch
import torch.nn.functional as F
from hypothesis import strategies as st
from torch import nn

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text

# --- adamw_step_by_hand -------------------------------------------------------------------------

ADAMW_RTOL, ADAMW_ATOL = 1e-5, 1e-6
TORCH_ADAM_FILES = tuple(
    os.path.join(os.path.dirname(torch.optim.__file__), name)
    for name in ("adam.py", "adamw.py", "optimizer.py", "_functional.py")
)


def _adamw_step(params, state, lr, betas, eps, weight_decay):
    from torch.optim.adam import adam  # what torch.optim.AdamW.step runs: Adam, decay decoupled

    live = [(i, p) for i, p in enumerate(params) if p.grad is not None]
    for i, p in live:
        if i not in state:  # as AdamW's _init_group: a float32 step count, moments of zeros
            state[i] = {
                "step": torch.tensor(0.0),
                "exp_avg": torch.zeros_like(p, memory_format=torch.preserve_format),
                "exp_avg_sq": torch.zeros_like(p, memory_format=torch.preserve_format),
            }
    with torch.no_grad():
        adam(
            [p for _, p in live],
            [p.grad for _, p in live],
            [state[i]["exp_avg"] for i, _ in live],
            [state[i]["exp_avg_sq"] for i, _ in live],
            [],
            [state[i]["step"] for i, _ in live],
            foreach=False,
            amsgrad=False,
            beta1=betas[0],
            beta2=betas[1],
            lr=lr,
            weight_decay=weight_decay,
            eps=eps,
            maximize=False,
            decoupled_weight_decay=True,
        )


@contextlib.contextmanager
def _no_optimizers():
    """Creating an optimizer raises: it would import torch._dynamo, slowly under the watch for
    torch.optim's functions, and the drill asks for the step without one."""
    original = torch.optim.Optimizer.__init__

    def refuse(optimizer, *args, **kwargs):
        name = type(optimizer).__name__
        raise PermissionError(f"torch.optim.{name}: the drill asks you to write the step without torch.optim")

    torch.optim.Optimizer.__init__ = refuse
    try:
        yield
    finally:
        torch.optim.Optimizer.__init__ = original


def _stepped_by(function):
    """Parameters made afresh, each step's gradients put in their ``.grad``, the function called
    once a step with one ``state`` dict; the parameters after each step, and what the function did
    to the parameters or their gradients that the task says to leave: (kind, step, index)."""

    def call(values, grads, lr, betas, eps, weight_decay):
        params = [nn.Parameter(value.clone()) for value in values]
        given, storage = list(params), [p.data_ptr() for p in params]
        state, after = {}, []
        for step, step_grads in enumerate(grads, 1):
            for parameter, grad in zip(given, step_grads, strict=True):
                parameter.grad = None if grad is None else grad.clone()
            held = [p.grad for p in given]
            with _no_optimizers():
                function(params, state, lr, betas, eps, weight_decay)
            for i, parameter in enumerate(given):
                if len(params) != len(given) or params[i] is not parameter:
                    return after, ("replaced", step, i)
                if parameter.data_ptr() != storage[i]:
                    return after, ("new data", step, i)
                grad = step_grads[i]
                if parameter.grad is not held[i] or (
                    grad is not None and not torch.equal(parameter.grad, grad)
                ):
                    return after, ("grad", step, i)
            after.append([p.detach().clone() for p in given])
        return after, None

    return call


def _adamw_by_hand(values, grads, lr, betas, eps, weight_decay, mistake=None):
    """The parameters after each step, by the update rule, or with one of the usual mistakes; the
    checker names the mistake a wrong answer matches."""
    beta1, beta2 = betas
    params = [value.clone() for value in values]
    moments = [(torch.zeros_like(p), torch.zeros_like(p)) for p in params]
    counts, calls, after = [0] * len(params), 0, []
    for step_grads in grads:
        calls += 1
        for i, grad in enumerate(step_grads):
            if grad is None:
                continue
            counts[i] += 1
            t = calls if mistake == "one step count" else counts[i]
            p, (m, v) = params[i], moments[i]
            if mistake == "L2":
                grad = grad + weight_decay * p
            m.mul_(beta1).add_(grad, alpha=1 - beta1)
            v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
            corrected = mistake != "no bias correction"
            m_hat = m / (1 - beta1**t) if corrected else m
            v_hat = v / (1 - beta2**t) if corrected else v
            denominator = (v_hat + eps).sqrt() if mistake == "eps inside sqrt" else v_hat.sqrt() + eps
            update = lr * m_hat / denominator
            if mistake == "decay without lr":
                p.mul_(1 - weight_decay)
            elif mistake == "decay after the step":
                p.sub_(update).mul_(1 - lr * weight_decay)
                continue
            elif mistake != "L2":
                p.mul_(1 - lr * weight_decay)
            p.sub_(update)
        after.append([p.clone() for p in params])
    return after


ADAMW_MISTAKES = {
    "L2": "this is Adam's L2 penalty: weight_decay * p added to the gradient, which the step then "
    "divides by the gradients' RMS; AdamW decays the weight itself, p *= 1 - lr * weight_decay, "
    "and steps on the gradient alone",
    "no bias correction": "the moments were not bias-corrected: at step t divide exp_avg by "
    "1 - beta1 ** t and exp_avg_sq by 1 - beta2 ** t, or the first steps are far too small",
    "decay without lr": "the weights were shrunk by weight_decay, not by lr * weight_decay",
    "decay after the step": "the decay was applied after the Adam step; AdamW shrinks the weight "
    "first, p *= 1 - lr * weight_decay, then subtracts the step",
    "eps inside sqrt": "eps went inside the square root; AdamW divides by sqrt(v_hat) + eps",
    "one step count": "the bias correction counted every call; count steps per parameter: "
    "one whose .grad was None at a step did not take it",
}


def _adamw_case(
    shapes,
    steps,
    lr=1e-3,
    betas=(0.9, 0.999),
    eps=1e-8,
    weight_decay=1e-2,
    *,
    scale=1.0,
    dtype=torch.float32,
    no_grad=(),
    seed=0,
):
    generator = torch.Generator().manual_seed(seed)
    values = [torch.randn(shape, generator=generator, dtype=dtype) for shape in shapes]
    grads = [
        [
            None if (step, i) in no_grad else scale * torch.randn(shape, generator=generator, dtype=dtype)
            for i, shape in enumerate(shapes)
        ]
        for step in range(1, steps + 1)
    ]
    listed = ", ".join(shape_text(s) for s in shapes)
    where = (
        f"for parameters of shapes [{listed}] ({dtype}), {steps} steps, lr={lr:g}, betas={betas}, "
        f"eps={eps:g}, weight_decay={weight_decay:g}"
    )
    if scale != 1.0:
        where += f", gradients of about {scale:g}"
    if no_grad:
        where += ", .grad None at " + ", ".join(f"step {s} for parameter {i}" for s, i in sorted(no_grad))
    return Case(where, (values, grads, lr, betas, eps, weight_decay))


def _adamw_named():
    return [
        _adamw_case([(3,)], 1, lr=0.1, weight_decay=0.1),
        _adamw_case([(2, 3), (2,)], 4, lr=0.05, weight_decay=0.5, seed=1),
        _adamw_case([(4,)], 3, lr=0.01, weight_decay=0.0, seed=2),  # no decay: Adam itself
        _adamw_case([(3,), (2,)], 3, lr=0.1, weight_decay=0.1, no_grad={(2, 1)}, seed=3),
        _adamw_case([(5,)], 3, lr=0.01, eps=1e-3, scale=1e-4, seed=4),  # where eps matters
        _adamw_case(
            [(), (2, 2)], 5, lr=0.02, betas=(0.8, 0.99), weight_decay=0.1, dtype=torch.float64, seed=5
        ),
    ]


@st.composite
def _adamw_generated(draw):
    shapes = draw(st.lists(st.lists(st.integers(1, 3), max_size=2).map(tuple), min_size=1, max_size=3))
    steps = draw(st.integers(1, 5))
    cells = [(s, i) for s in range(1, steps + 1) for i in range(len(shapes))]
    return _adamw_case(
        shapes,
        steps,
        lr=draw(st.sampled_from([1e-3, 1e-2, 0.1])),
        betas=draw(st.sampled_from([(0.9, 0.999), (0.8, 0.99), (0.5, 0.9)])),
        eps=draw(st.sampled_from([1e-8, 1e-6, 1e-3])),
        weight_decay=draw(st.sampled_from([0.0, 0.01, 0.1, 0.5])),
        scale=10.0 ** draw(st.integers(-4, 1)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        no_grad=frozenset(draw(st.sets(st.sampled_from(cells), max_size=2))),
        seed=draw(st.integers(0, 1000)),
    )


def _close(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.shape == b.shape and torch.allclose(a, b, rtol=ADAMW_RTOL, atol=ADAMW_ATOL)


def _adamw_compare(case, got, expected):
    (after, problem), (wanted, _) = got, expected
    values, grads = case.args[:2]
    if problem is not None:
        kind, step, i = problem
        raise Mismatch(
            f"{case.where} at step {step} your adamw_step "
            + {
                "replaced": f"replaced parameter {i} in the list; update each parameter in place",
                "new data": f"gave parameter {i} new storage (p.data = ...); update it in place, as "
                "the optimizer does: p.mul_(...), p.addcdiv_(...)",
                "grad": f"changed the .grad of parameter {i}; leave the gradients as they are",
            }[kind]
        )
    for step, (mine, theirs) in enumerate(zip(after, wanted, strict=True), 1):
        for i, (p, q) in enumerate(zip(mine, theirs, strict=True)):
            if _close(p, q):
                continue
            before = values[i] if step == 1 else after[step - 2][i]
            here = f"{case.where} at step {step} your parameter {i}"
            if grads[step - 1][i] is None:
                raise Mismatch(
                    f"{here} changed, but its .grad was None; AdamW skips such a parameter, decay included"
                )
            if torch.equal(p, before):
                raise Mismatch(
                    f"{here} did not change; update the parameters in place "
                    "(under torch.no_grad(): p.mul_(...), p.addcdiv_(...))"
                )
            for mistake, text in ADAMW_MISTAKES.items():
                guess = _adamw_by_hand(values, grads[:step], *case.args[2:], mistake=mistake)[-1][i]
                if _close(p, guess):
                    raise Mismatch(f"{here} differs from torch.optim.AdamW's: {text}")
            expect_tensor(case, f"parameter {i} after step {step}", p, q, rtol=ADAMW_RTOL, atol=ADAMW_ATOL)


ADAMW_STEP_BY_HAND = Drill(
    id="adamw_step_by_hand",
    title="One AdamW step by hand, decay decoupled",
    page="week-1/adamw-and-lr-schedules",
    question="adam-vs-adamw",
    difficulty="medium",
    function="adamw_step",
    statement=(
        "Write `adamw_step(params, state, lr, betas, eps, weight_decay)`: one step of "
        "`torch.optim.AdamW` (its defaults otherwise: no amsgrad, no maximize) without `torch.optim`. "
        "`params` is a list of parameters, each with the gradient of this step in its `.grad`, or "
        "None: AdamW skips such a parameter. `state` is a dict, empty before the first step and the "
        "same dict at every later one: keep in it what you need from step to step. Update the "
        "parameters in place, as the optimizer does, and leave the `.grad`s as they are. The "
        "checker runs several steps and compares every parameter after each with AdamW's."
    ),
    hints=(
        "Decoupled means the decay is not part of the gradient: shrink the weight, "
        "`p *= 1 - lr * weight_decay`, then take Adam's step on `p.grad` alone.",
        "Per parameter keep a step count and two moments: `m = beta1 * m + (1 - beta1) * g`, "
        "`v = beta2 * v + (1 - beta2) * g * g`. Bias-correct them with `1 - beta ** t`, t counted "
        "from 1 for each parameter: one skipped at a step does not count it.",
        "`p -= lr * m_hat / (v_hat.sqrt() + eps)`, eps outside the root. Write under "
        "`torch.no_grad()` with in-place methods (`p.mul_`, `p.addcdiv_`), and key `state` by the "
        "parameter's position: `state.setdefault(i, ...)`.",
    ),
    reference=_adamw_step,
    named_cases=_adamw_named,
    generated=_adamw_generated(),
    compare=_adamw_compare,
    adapter=_stepped_by,
    forbidden=Forbidden(
        files=TORCH_ADAM_FILES,
        torch_functions=frozenset({"_fused_adamw_", "_fused_adam_"}),
        instead="the drill asks you to write the step",
    ),
    tolerance=f"rtol={ADAMW_RTOL:g}, atol={ADAMW_ATOL:g}",
)

# --- warmup_cosine_schedule ---------------------------------------------------------------------

SCHEDULE_RTOL = 1e-9
STEPS_PAST_DECAY = 3  # the steps checked after decay_steps, where the rate holds at min_lr


def _lr_at(step, base_lr, min_lr, warmup_steps, decay_steps):
    if step < warmup_steps:  # as LinearLR(start_factor=1 / warmup_steps, total_iters=warmup_steps)
        start = base_lr / warmup_steps
        return start + (base_lr - start) * step / warmup_steps
    if step >= decay_steps:  # CosineAnnealingLR would rise again
        return min_lr
    progress = (step - warmup_steps) / (decay_steps - warmup_steps)
    return min_lr + (base_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2


def _every_step(function):
    """The rate at every step from 0 to a few past the decay, asked in a shuffled order: the
    function of the step that the task asks for answers whatever was asked before."""

    def call(order, base_lr, min_lr, warmup_steps, decay_steps):
        rates = {step: function(step, base_lr, min_lr, warmup_steps, decay_steps) for step in order}
        asked_again = function(order[0], base_lr, min_lr, warmup_steps, decay_steps)
        return [rates[step] for step in sorted(rates)], asked_again

    return call


def _schedule_case(base_lr, min_lr, warmup_steps, decay_steps):
    order = list(range(decay_steps + 1 + STEPS_PAST_DECAY))
    random.Random(decay_steps).shuffle(order)
    where = (
        f"for base_lr={base_lr:g}, min_lr={min_lr:g}, warmup_steps={warmup_steps}, decay_steps={decay_steps}"
    )
    return Case(where, (tuple(order), base_lr, min_lr, warmup_steps, decay_steps))


def _schedule_named():
    return [
        _schedule_case(1e-3, 1e-5, 5, 25),
        _schedule_case(1e-3, 0.0, 5, 25),
        _schedule_case(0.1, 1e-3, 0, 10),  # no warmup
        _schedule_case(3e-4, 3e-5, 1, 2),
        _schedule_case(1.0, 0.1, 10, 11),  # a decay of one step
        _schedule_case(6e-4, 6e-5, 20, 60),
    ]


@st.composite
def _schedule_generated(draw):
    base_lr = draw(st.sampled_from([1e-5, 3e-4, 1e-3, 0.02, 0.5, 1.0]))
    warmup_steps = draw(st.integers(0, 10))
    return _schedule_case(
        base_lr,
        base_lr * draw(st.sampled_from([0.0, 0.01, 0.1, 0.5])),
        warmup_steps,
        warmup_steps + draw(st.integers(1, 30)),
    )


def _step_role(step, warmup_steps, decay_steps):
    if step == warmup_steps:
        return f"at step {step}, where the warmup ends and the cosine starts,"
    if step == 0:
        return "at step 0, the first step,"
    if step == warmup_steps - 1:
        return f"at step {step}, the last step of the warmup,"
    if step < warmup_steps:
        return f"at step {step}, in the warmup,"
    if step < decay_steps:
        return f"at step {step}, in the cosine decay,"
    if step == decay_steps:
        return f"at step {step}, where the decay ends,"
    return f"at step {step}, after the decay,"


def _schedule_mistake(step, mine, base_lr, min_lr, warmup_steps, decay_steps) -> str:
    """The usual mistake that gives ``mine`` at this step, said as the end of the sentence, or ""."""

    def close(value):
        return math.isclose(mine, value, rel_tol=1e-6, abs_tol=SCHEDULE_RTOL * base_lr)

    def cosine(progress):
        return (1 + math.cos(math.pi * progress)) / 2

    progress = (step - warmup_steps) / (decay_steps - warmup_steps)
    if step == 0 and mine == 0:
        return ": a step at rate 0 trains nothing; the warmup starts at base_lr / warmup_steps"
    if step < warmup_steps:
        return ""
    if step > decay_steps and close(min_lr + (base_lr - min_lr) * cosine(progress)):
        return ": the cosine rose again after decay_steps; hold min_lr from there on"
    if min_lr > 0 and close(base_lr * cosine(min(progress, 1.0))):
        return (
            ": the decay goes down to 0, not to min_lr: "
            "min_lr + (base_lr - min_lr) * (1 + cos(pi * progress)) / 2"
        )
    if warmup_steps > 0 and close(min_lr + (base_lr - min_lr) * cosine(min(step / decay_steps, 1.0))):
        return (
            ": the cosine's progress was counted from step 0; it starts at base_lr where the warmup "
            "ends: (step - warmup_steps) / (decay_steps - warmup_steps)"
        )
    return ""


def _schedule_compare(case, got, expected):
    (rates, asked_again), (wanted_rates, _) = got, expected
    order, base_lr, min_lr, warmup_steps, decay_steps = case.args
    for step, (mine, wanted) in enumerate(zip(rates, wanted_rates, strict=True)):
        role = _step_role(step, warmup_steps, decay_steps)
        if isinstance(mine, bool) or not isinstance(mine, float | int):
            raise Mismatch(
                f"{case.where} {role} you returned a {type(mine).__name__}; expected a float, the rate"
            )
        if math.isclose(mine, wanted, rel_tol=SCHEDULE_RTOL, abs_tol=SCHEDULE_RTOL * base_lr):
            continue
        if asked_again != rates[order[0]]:
            raise Mismatch(
                f"{case.where} asked twice for step {order[0]}, your lr_at answered {rates[order[0]]:.6g}, "
                f"then {asked_again:.6g}: the rate must depend on the step alone, not on the calls before"
            )
        why = _schedule_mistake(step, mine, base_lr, min_lr, warmup_steps, decay_steps)
        raise Mismatch(f"{case.where} {role} your rate is {mine:.6g}; expected {wanted:.6g}{why}")


WARMUP_COSINE_SCHEDULE = Drill(
    id="warmup_cosine_schedule",
    title="A learning rate with linear warmup, then cosine decay",
    page="week-1/adamw-and-lr-schedules",
    question="lr-schedulers",
    difficulty="easy",
    function="lr_at",
    statement=(
        "Write `lr_at(step, base_lr, min_lr, warmup_steps, decay_steps) -> float`, the learning rate "
        "of optimizer step `step` (counted from 0), so that `LambdaLR(optimizer, lambda s: lr_at(s, "
        "...) / base_lr)` follows it: the schedule built above from `LinearLR` and "
        "`CosineAnnealingLR`, as one function. For `step < warmup_steps` the rate climbs linearly "
        "from `base_lr / warmup_steps` at step 0 towards `base_lr` at `warmup_steps`; then a half "
        "cosine takes it from `base_lr` there down to `min_lr` at `decay_steps`, and it stays at "
        "`min_lr` from there on. "
        "`0 <= warmup_steps < decay_steps`; any step from 0 up is asked, in any order."
    ),
    hints=(
        "Three pieces by `step`: the warmup line, the cosine, and the flat `min_lr` after "
        "`decay_steps`. Without the last, a cosine rises again past its end.",
        "The cosine's progress runs from 0 where the warmup ends to 1 at `decay_steps`: "
        "`(step - warmup_steps) / (decay_steps - warmup_steps)`, not `step / decay_steps`.",
        "`min_lr + (base_lr - min_lr) * (1 + math.cos(math.pi * progress)) / 2` is `base_lr` at "
        "progress 0 and `min_lr` at 1.",
    ),
    reference=_lr_at,
    named_cases=_schedule_named,
    generated=_schedule_generated(),
    compare=_schedule_compare,
    adapter=_every_step,
    tolerance=f"rtol={SCHEDULE_RTOL:g}",
)

# --- resume_from_checkpoint ---------------------------------------------------------------------

BATCH, FEATURES = 6, 4


def _dropout_adamw_steplr():
    model = nn.Sequential(nn.Linear(FEATURES, 8), nn.ReLU(), nn.Dropout(0.25), nn.Linear(8, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.01)
    return model, optimizer, torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)


def _batchnorm_sgd_warmup():
    model = nn.Sequential(nn.Linear(FEATURES, 8), nn.BatchNorm1d(8), nn.Tanh(), nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / 4))
    return model, optimizer, warmup


def _dropout_amsgrad_cosine():
    model = nn.Sequential(nn.Linear(FEATURES, 6), nn.Dropout(0.5), nn.GELU(), nn.Linear(6, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02, amsgrad=True)
    return model, optimizer, torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=5)


RECIPES = {
    "an MLP with dropout, AdamW and StepLR": _dropout_adamw_steplr,
    "an MLP with BatchNorm, SGD with momentum and a LambdaLR warmup": _batchnorm_sgd_warmup,
    "an MLP with dropout, Adam(amsgrad=True) and CosineAnnealingLR": _dropout_amsgrad_cosine,
}


def _train(model, optimizer, scheduler, steps):
    model.train()
    for _ in range(steps):  # the batches and dropout masks come from torch's global generator
        inputs, targets = torch.randn(BATCH, FEATURES), torch.randn(BATCH, 1)
        F.mse_loss(model(inputs), targets).backward()
        optimizer.step()
        optimizer.zero_grad()
        scheduler.step()


def _resume(model, optimizer, scheduler, path, build):
    torch.save(
        {
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "rng": torch.get_rng_state(),
        },
        path,
    )
    model, optimizer, scheduler = build()
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    scheduler.load_state_dict(checkpoint["scheduler"])
    torch.set_rng_state(checkpoint["rng"])
    return model, optimizer, scheduler


def _same(a, b) -> bool:
    """Equal, tensors bit for bit, through the dicts and lists of a state_dict."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and torch.equal(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return callable(a) and callable(b) or a == b


def _missing_parts(saved, model, optimizer, scheduler) -> list[str]:
    """What of the checkpoint the restored objects and torch's generator do not hold."""
    missing = []
    weights = model.state_dict()
    if any(t.is_floating_point() and bool(t.isnan().any()) for t in weights.values()):
        missing.append("nan")
    elif not _same(saved["model"], weights):
        missing.append("model")
    if not _same(saved["optimizer"], optimizer.state_dict()):
        missing.append("optimizer")
    if not _same(saved["scheduler"], scheduler.state_dict()):
        missing.append("scheduler")
    if not torch.equal(saved["rng"], torch.get_rng_state()):
        missing.append("rng")
    return missing


def _interrupted_by(function):
    """Trains, calls the function at the checkpoint, trains on with what it returns. ``build`` is
    the fresh process: calling it wipes the old objects' tensors and torch's random state."""
    # The first optimizer imports torch._dynamo (see the module's docstring); imported here, the
    # runner does it while the checker computes the first expected value, not in the first call.
    import torch._dynamo  # noqa: F401

    def call(recipe, steps_before, steps_after, seed):
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # as the runner: a reduction split over threads rounds otherwise
        try:
            return run(recipe, steps_before, steps_after, seed)
        finally:
            torch.set_num_threads(threads)

    def run(recipe, steps_before, steps_after, seed):
        torch.manual_seed(seed)
        model, optimizer, scheduler = RECIPES[recipe]()
        _train(model, optimizer, scheduler, steps_before)
        saved = {
            "model": copy.deepcopy(model.state_dict()),
            "optimizer": copy.deepcopy(optimizer.state_dict()),
            "scheduler": copy.deepcopy(scheduler.state_dict()),
            "rng": torch.get_rng_state(),
        }
        built = []

        def build():
            with torch.no_grad():  # the old process is gone: nothing it held in memory is left
                for tensor in [*model.parameters(), *model.buffers()]:
                    tensor.fill_(math.nan) if tensor.is_floating_point() else tensor.fill_(-1)
                for held in optimizer.state.values():
                    for value in held.values():
                        if isinstance(value, torch.Tensor):
                            value.fill_(math.nan)
            torch.manual_seed(seed + 1)  # a new process's generator, not the old one's
            built.append(RECIPES[recipe]())
            return built[-1]

        folder = tempfile.mkdtemp(prefix="checkpoint-")
        try:
            returned = function(model, optimizer, scheduler, os.path.join(folder, "checkpoint.pt"), build)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if len(built) != 1:
            return None, f"called build() {len(built)} times"
        if not isinstance(returned, tuple | list) or len(returned) != 3:
            return None, f"returned a {type(returned).__name__}"
        if any(mine is not fresh for mine, fresh in zip(returned, built[0], strict=True)):
            return None, "returned other objects"
        missing = _missing_parts(saved, *returned)
        _train(*returned, steps_after)
        weights = torch.cat([p.detach().flatten() for p in returned[0].parameters()])
        return weights, missing

    return call


def _resume_case(recipe, steps_before, steps_after, seed=0):
    where = f"for {recipe}, resumed after {steps_before} of {steps_before + steps_after} steps"
    return Case(where, (recipe, steps_before, steps_after, seed))


def _resume_named():
    recipes = list(RECIPES)
    return [
        _resume_case(recipes[0], 3, 3),
        _resume_case(recipes[1], 2, 4, seed=1),
        _resume_case(recipes[2], 4, 3, seed=2),
        _resume_case(recipes[0], 1, 5, seed=3),
        _resume_case(recipes[1], 5, 1, seed=4),
    ]


@st.composite
def _resume_generated(draw):
    return _resume_case(
        draw(st.sampled_from(list(RECIPES))),
        draw(st.integers(1, 5)),
        draw(st.integers(1, 5)),
        seed=draw(st.integers(0, 1000)),
    )


RESUME_MISSING = {
    "nan": "the restored model holds NaN: what you restored was the old model's own tensors "
    "(state_dict() returns references, not copies), gone with the old process; torch.save the "
    "state to path before calling build(), and load it from there",
    "model": "the restored model's weights and buffers are not those at the checkpoint: save "
    "model.state_dict() before calling build(), then load_state_dict it into the new model",
    "optimizer": "the new optimizer does not hold the old one's state (its moments, step counts "
    "and momentum buffers): save optimizer.state_dict() and load it into the new optimizer",
    "scheduler": "the new scheduler starts its schedule again: save scheduler.state_dict() and load it",
    "rng": "torch's random state is not the one at the checkpoint, so the batches and dropout "
    "masks after resuming differ: save torch.get_rng_state(), and torch.set_rng_state it last, "
    "after build() (which stands for a new process, with a generator of its own)",
}


def _resume_compare(case, got, expected):
    (weights, missing), (wanted, _) = got, expected
    if weights is None:
        why = {
            "called build() 0 times": "never called build(): resuming happens in a fresh process, "
            "whose objects build() makes",
            "returned other objects": "returned objects that build() did not make: return the "
            "model, optimizer and scheduler that build() returned, restored",
        }.get(missing, f"{missing}; call it once and return (model, optimizer, scheduler) as it built them")
        raise Mismatch(f"{case.where} your resume {why}")
    if missing:
        raise Mismatch(f"{case.where} {RESUME_MISSING[missing[0]]}")
    if not torch.equal(weights, wanted):
        differ = int((weights != wanted).sum())
        raise Mismatch(
            f"{case.where} the weights after resuming differ from an uninterrupted run's at {differ} of "
            f"{wanted.numel()} elements (by up to {float((weights - wanted).abs().max()):.3g}); "
            "resuming must give them bit for bit"
        )


RESUME_FROM_CHECKPOINT = Drill(
    id="resume_from_checkpoint",
    title="A checkpoint that resumes training bit for bit",
    page="week-1/saving-and-resuming-training",
    question="resume-training",
    difficulty="medium",
    function="resume",
    statement=(
        "Write `resume(model, optimizer, scheduler, path, build)`: training stops here, mid-run, and "
        "goes on in a fresh process. Save to the file `path` all it needs, then call `build()`, which "
        "stands for the fresh process: it returns a new `(model, optimizer, scheduler)` made as the "
        "first ones were, and from then on the old objects' tensors and torch's random state are "
        "gone. Restore the new ones from `path` and return them. Trained on, they must end with the "
        "weights of a run that never stopped, bit for bit; the batches and dropout masks come from "
        "torch's global generator."
    ),
    hints=(
        "A checkpoint is a dict of `state_dict()`s: the model's, the optimizer's (Adam's moments, "
        "momentum buffers, step counts), the scheduler's; `torch.save` it to `path` before `build()`.",
        "The random state is part of it: `torch.get_rng_state()`, set back with `torch.set_rng_state`.",
        "Order matters on the way back: `build()` first (building a model draws its initial weights "
        "from the generator), then `torch.load(path)` and each `load_state_dict`, the random state last.",
    ),
    reference=_resume,
    named_cases=_resume_named,
    generated=_resume_generated(),
    compare=_resume_compare,
    adapter=_interrupted_by,
)

# --- no_sync_accumulation -----------------------------------------------------------------------

NO_SYNC_RTOL, NO_SYNC_ATOL = 1e-5, 1e-6


class SimulatedDDP(nn.Module):
    """A module wrapped as ``DistributedDataParallel`` wraps it on one rank, its all-reduces counted.

    As in DDP, a forward run with gradients on and outside ``no_sync()`` arms the next backward:
    once that backward has accumulated every parameter's gradient, the gradients are all-reduced
    (averaged over the ranks; on this one rank, left as they are) and the hook disarms. A forward
    inside ``no_sync()`` arms nothing, whatever context its backward runs in: DDP decides in the
    forward. The tests hold its count equal to a real ``DistributedDataParallel``'s.

    Examples:
      ```python
      import torch
      from torchguide.drills.training import SimulatedDDP

      model = SimulatedDDP(torch.nn.Linear(3, 1))
      with model.no_sync():
          model(torch.randn(2, 3)).sum().backward()
      model(torch.randn(2, 3)).sum().backward()
      assert model.all_reduces == [2]  # one, after the second backward
      ```
    """

    def __init__(self, module: nn.Module) -> None:
        super().__init__()
        self.module = module
        self.require_backward_grad_sync = True
        self.all_reduces: list[int] = []  # for each all-reduce, the backward passes done by then
        self.backward_passes = 0
        self.unsynced_last_forward = False  # the last backward's forward ran inside no_sync()
        self._armed = False
        self._forward_synced = False
        self._ready = 0
        self._trained = [p for p in module.parameters() if p.requires_grad]
        for parameter in self._trained:
            parameter.register_post_accumulate_grad_hook(self._gradient_ready)

    @contextlib.contextmanager
    def no_sync(self):
        before = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = before

    def forward(self, *args, **kwargs):
        self._forward_synced = torch.is_grad_enabled() and self.require_backward_grad_sync
        if self._forward_synced:
            self._armed = True
        return self.module(*args, **kwargs)

    def _gradient_ready(self, parameter) -> None:
        self._ready += 1
        if self._ready < len(self._trained):
            return
        self._ready = 0
        self.backward_passes += 1
        self.unsynced_last_forward = not self._forward_synced and self.require_backward_grad_sync
        if self._armed:
            self._armed = False
            self.all_reduces.append(self.backward_passes)


def _accumulate_under_ddp(model, micro_batches):
    *first, last = micro_batches
    with model.no_sync():
        for inputs, targets in first:
            (F.mse_loss(model(inputs), targets) / len(micro_batches)).backward()
    inputs, targets = last
    (F.mse_loss(model(inputs), targets) / len(micro_batches)).backward()


def _on_one_rank(function):
    def call(widths, micro_batches, seed):
        torch.manual_seed(seed)
        layers = [nn.Linear(widths[0], widths[1]), nn.Tanh(), nn.Linear(widths[1], widths[2])]
        model = SimulatedDDP(nn.Sequential(*layers))
        function(model, micro_batches)
        grads = {
            name: None if p.grad is None else p.grad.clone() for name, p in model.module.named_parameters()
        }
        return grads, list(model.all_reduces), model.backward_passes, model.unsynced_last_forward

    return call


def _ddp_case(k, size, widths=(3, 4, 2), seed=0):
    generator = torch.Generator().manual_seed(seed)
    batches = [
        (torch.randn(size, widths[0], generator=generator), torch.randn(size, widths[2], generator=generator))
        for _ in range(k)
    ]
    return Case(f"for {k} micro-batches of {size}", (tuple(widths), batches, seed))


def _ddp_named():
    return [
        _ddp_case(4, 2),
        _ddp_case(3, 5, seed=1),
        _ddp_case(2, 1, seed=2),
        _ddp_case(1, 4, seed=3),  # one micro-batch: it is the last, and syncs
        _ddp_case(6, 3, (2, 3, 3), seed=4),
    ]


@st.composite
def _ddp_generated(draw):
    widths = tuple(draw(st.lists(st.integers(1, 5), min_size=3, max_size=3)))
    return _ddp_case(
        draw(st.integers(1, 6)), draw(st.integers(1, 4)), widths, seed=draw(st.integers(0, 1000))
    )


def _ddp_compare(case, got, expected):
    (grads, all_reduces, passes, unsynced_forward), (wanted, _, _, _) = got, expected
    k = len(case.args[1])
    if not all_reduces:
        why = (
            "your last backward ran outside no_sync(), but its forward inside: DDP decides in the "
            "forward whether the backward after it all-reduces"
            if unsynced_forward
            else "every forward ran inside no_sync()"
        )
        raise Mismatch(
            f"{case.where} your gradients were never all-reduced, so each rank would step with its "
            f"own: {why}; run the last micro-batch's forward and backward outside it"
        )
    if len(all_reduces) > 1:
        raise Mismatch(
            f"{case.where} your gradients were all-reduced {len(all_reduces)} times for {k} micro-batches; "
            "run all but the last inside `with model.no_sync():`, so that one all-reduce carries their sum"
        )
    if all_reduces[0] != passes:
        raise Mismatch(
            f"{case.where} your one all-reduce ran after backward pass {all_reduces[0]} of {passes}: the "
            "gradients of the passes after it were never averaged over the ranks; sync on the last one"
        )
    for name, gradient in wanted.items():
        mine = grads[name]
        if mine is None:
            raise Mismatch(f"{case.where} the .grad of {name} is None; expected the step's gradient")
        if (
            k > 1
            and mine.shape == gradient.shape
            and torch.allclose(mine, k * gradient, rtol=NO_SYNC_RTOL, atol=NO_SYNC_ATOL)
        ):
            raise Mismatch(
                f"{case.where} your .grad of {name} is {k} times the mean loss's: divide each "
                f"micro-batch's loss by the number of micro-batches, {k}"
            )
        expect_tensor(case, f".grad of {name}", mine, gradient, rtol=NO_SYNC_RTOL, atol=NO_SYNC_ATOL)


NO_SYNC_ACCUMULATION = Drill(
    id="no_sync_accumulation",
    title="Gradient accumulation under DDP, one all-reduce a step",
    page="week-2/day-9/distributed-training",
    question="ddp-no-sync",
    difficulty="medium",
    function="accumulate",
    statement=(
        "Write `accumulate(model, micro_batches)` for one optimizer step under DDP: `model` is "
        "wrapped as `DistributedDataParallel` wraps it on one rank (simulated: a backward whose forward "
        "ran outside `model.no_sync()` all-reduces every gradient, and the checker counts them). "
        "`micro_batches` is a list of k pairs `(inputs, targets)`. Leave in each `.grad` (None when "
        "it starts) the gradient of the mean of the k losses `F.mse_loss(model(inputs), targets)`, "
        "with exactly one all-reduce, carrying all k micro-batches."
    ),
    hints=(
        "Each `backward()` adds into `.grad`; under DDP each one outside `no_sync()` also all-reduces. "
        "k all-reduces of the partial sums give what one all-reduce of the whole sum gives, at k "
        "times the communication.",
        "Run the first k - 1 micro-batches, forward and backward, inside `with model.no_sync():`, "
        "and the last one outside it: DDP decides in the forward whether its backward syncs.",
        "The mean of k losses: divide each micro-batch's loss by k before its `backward()`.",
    ),
    reference=_accumulate_under_ddp,
    named_cases=_ddp_named,
    generated=_ddp_generated(),
    compare=_ddp_compare,
    adapter=_on_one_rank,
    may_change=frozenset({"grad", "mode"}),
    tolerance=f"rtol={NO_SYNC_RTOL:g}, atol={NO_SYNC_ATOL:g}",
)

DRILLS = [ADAMW_STEP_BY_HAND, WARMUP_COSINE_SCHEDULE, RESUME_FROM_CHECKPOINT, NO_SYNC_ACCUMULATION]
