"""The drills of Day 9, debugging: clipping by the global norm, counting FLOPs, eval mode that is
restored, a loss average that keeps no graph, the first non-finite module, dead ReLU units."""

from __future__ import annotations

import torch
from hypothesis import strategies as st
from torch import nn

from torchguide.drills.framework import Case, Drill, Mismatch, expect_tensor, shape_text

# --- clip_grad_norm_by_hand ---------------------------------------------------------------------

CLIP_RTOL, CLIP_ATOL = 1e-5, 1e-7


def _clip_grad_norm(parameters, max_norm):
    return torch.nn.utils.clip_grad_norm_(parameters, max_norm)  # torch's behaviour is the reference


def _clipping_done_by(function):
    """Parameters with their gradients, made afresh for each call (a deep copy drops ``.grad``)."""

    def call(values, grads, max_norm, as_generator):
        parameters = []
        for value, grad in zip(values, grads, strict=True):
            parameter = nn.Parameter(value.clone())
            parameter.grad = None if grad is None else grad.clone()
            parameters.append(parameter)
        returned = function(iter(parameters) if as_generator else parameters, max_norm)
        return returned, [p.grad for p in parameters]

    return call


def _clip_case(shapes, scale, max_norm, seed=0, without_grad=(), as_generator=False):
    generator = torch.Generator().manual_seed(seed)
    values = [torch.randn(shape, generator=generator) for shape in shapes]
    grads = [
        None if i in without_grad else scale * torch.randn(shape, generator=generator)
        for i, shape in enumerate(shapes)
    ]
    present = [g for g in grads if g is not None]
    total = torch.linalg.vector_norm(torch.cat([g.reshape(-1) for g in present])) if present else 0.0
    where = f"for gradients of shapes {[shape_text(s) for s in shapes]}".replace("'", "")
    if without_grad:
        where += f" (parameters {list(without_grad)} without .grad)"
    if as_generator:
        where += " passed as a generator (model.parameters())"
    where += f", total norm {float(total):.4g} and max_norm={max_norm}"
    return Case(where, (values, grads, max_norm, as_generator))


def _clip_named():
    return [
        _clip_case([(3, 2), (4,)], 3.0, 1.0),
        _clip_case([(3, 2), (4,)], 0.1, 1.0),  # within max_norm: nothing to clip
        _clip_case([(2, 2), (3,), (2,)], 2.0, 1.0, without_grad=(1,)),  # a frozen layer
        _clip_case([(4, 3), (3,)], 2.0, 0.5, seed=1, as_generator=True),
        _clip_case([(5,)], 1.0, 0.5, seed=2),
        _clip_case([(2,), (2,)], 1.0, 1.0, without_grad=(0, 1)),  # no gradient at all
    ]


@st.composite
def _clip_generated(draw):
    shapes = draw(st.lists(st.lists(st.integers(1, 3), max_size=2).map(tuple), min_size=1, max_size=4))
    without = draw(st.sets(st.integers(0, len(shapes) - 1), max_size=len(shapes) - 1))
    return _clip_case(
        shapes,
        10.0 ** draw(st.integers(-2, 1)),
        draw(st.sampled_from([0.5, 1.0, 5.0])),
        seed=draw(st.integers(0, 1000)),
        without_grad=tuple(sorted(without)),
        as_generator=draw(st.booleans()),
    )


def _scale_of(got, original):
    """The factor a gradient was multiplied by (least squares), or None for an all-zero one."""
    energy = float((original * original).sum())
    return float((got * original).sum()) / energy if energy else None


def _clip_compare(case, got, expected):
    values, grads, max_norm, as_generator = case.args
    (norm, got_grads), (wanted_norm, wanted_grads) = got, expected
    total = float(wanted_norm)
    for i, (mine, wanted) in enumerate(zip(got_grads, wanted_grads, strict=True)):
        if wanted is None and mine is not None:
            raise Mismatch(f"{case.where} parameter {i} had no gradient; leave its .grad None")
    pairs = [(m, w, o) for m, w, o in zip(got_grads, wanted_grads, grads, strict=True) if w is not None]
    close = all(
        torch.allclose(m, w, rtol=CLIP_RTOL, atol=CLIP_ATOL)
        for m, w, _ in pairs
        if isinstance(m, torch.Tensor)
    )
    if pairs and not close and all(isinstance(m, torch.Tensor) and m.shape == o.shape for m, _, o in pairs):
        scales = [_scale_of(m, o) for m, _, o in pairs]
        scales = [s for s in scales if s is not None]
        factor = min(1.0, max_norm / (total + 1e-6))
        if scales and all(abs(s - 1) < 1e-6 for s in scales):
            why = (
                ": a generator can be iterated only once, and your second pass over it found nothing; "
                "make a list of the parameters first"
                if as_generator
                else ""
            )
            raise Mismatch(
                f"{case.where} your gradients were not scaled; expected each scaled by "
                f"max_norm / total_norm = {factor:.4g}{why}"
            )
        if total <= max_norm:
            raise Mismatch(
                f"{case.where} your gradients were scaled by {[round(s, 4) for s in scales]}; the total norm "
                f"is within max_norm, so they must stay as they are (clipping never scales up)"
            )
        if len(scales) > 1 and max(scales) - min(scales) > 1e-4 * max(scales):
            raise Mismatch(
                f"{case.where} your gradients were scaled by {[round(s, 4) for s in scales]}, one factor per "
                f"tensor; clipping by the global norm scales every gradient by the same {factor:.4g}"
            )
    for i, (mine, wanted) in enumerate(zip(got_grads, wanted_grads, strict=True)):
        if wanted is not None:
            expect_tensor(case, f"gradient of parameter {i}", mine, wanted, rtol=CLIP_RTOL, atol=CLIP_ATOL)
    if not isinstance(norm, torch.Tensor | float | int) or isinstance(norm, bool):
        raise Mismatch(
            f"{case.where} you returned {type(norm).__name__}; expected the total norm (a tensor or float)"
        )
    if isinstance(norm, torch.Tensor) and norm.numel() != 1:
        raise Mismatch(
            f"{case.where} you returned a tensor of shape {shape_text(norm.shape)}; expected one number"
        )
    mine = float(norm)
    if abs(mine - total) > CLIP_RTOL * total + CLIP_ATOL:
        clipped = abs(mine - min(total, max_norm)) < 1e-4
        after = " (the norm after clipping; return the one before)" if clipped else ""
        raise Mismatch(f"{case.where} you returned the norm {mine:.5g}{after}; expected {total:.5g}")


CLIP_GRAD_NORM_BY_HAND = Drill(
    id="clip_grad_norm_by_hand",
    title="Clipping gradients by their global norm",
    page="week-2/day-9/exploding-gradients-and-loss-landscapes",
    question="exploding-vanishing-gradients",
    difficulty="medium",
    function="clip_grad_norm",
    statement=(
        "Write `clip_grad_norm(parameters, max_norm) -> total_norm` as `torch.nn.utils.clip_grad_norm_` "
        "behaves, without calling it: `parameters` is an iterable of tensors (a list, or a generator like "
        "`model.parameters()`), some with `.grad` None. Scale every gradient in place so that their global "
        "L2 norm is at most `max_norm`, and return that norm as it was before clipping."
    ),
    hints=(
        "The global norm is the L2 norm of all gradients as one vector: the norm of the per-tensor norms. "
        "Skip parameters whose `.grad` is None; with no gradient at all the norm is 0.",
        "Every gradient gets the same factor `max_norm / (total_norm + 1e-6)`, capped at 1: clipping only "
        "ever shrinks.",
        "You pass over the parameters twice (norm, then scale): `list(parameters)` first, or a generator "
        "is empty the second time. Scale with `grad.mul_(factor)`.",
    ),
    reference=_clip_grad_norm,
    named_cases=_clip_named,
    generated=_clip_generated(),
    compare=_clip_compare,
    adapter=_clipping_done_by,
    tolerance=f"rtol={CLIP_RTOL:g}, atol={CLIP_ATOL:g}",
)


DRILLS = [
    CLIP_GRAD_NORM_BY_HAND,
]
