"""The drills of Day 9, debugging: a finite-difference gradient, the first non-finite module,
clipping by the global norm, each layer's output-gradient norm, dead ReLU units, eval mode that is
restored, counting FLOPs, a loss average that keeps no graph, and a saliency map."""

from __future__ import annotations

import math
import sys
import weakref
from contextlib import contextmanager

import torch
from hypothesis import strategies as st
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

from torchguide.drills.framework import Case, Drill, Mismatch, expect_tensor, shape_text

# --- clip_grad_norm_by_hand ---------------------------------------------------------------------

CLIP_RTOL, CLIP_ATOL = 1e-5, 1e-7


def _clip_grad_norm(parameters, max_norm):
    return torch.nn.utils.clip_grad_norm_(parameters, max_norm)  # torch's behaviour is the reference


TORCH_CLIPPING = torch.nn.utils.clip_grad.__file__  # clip_grad_norm_, get_total_norm, clip_grads_with_norm_


def _clipping_done_by(function):
    """Parameters with their gradients, made afresh for each call (a deep copy drops ``.grad``), and
    whether the call went into torch's own clipping, however the reader imported it."""

    def call(values, grads, max_norm, as_generator):
        parameters = []
        for value, grad in zip(values, grads, strict=True):
            parameter = nn.Parameter(value.clone())
            parameter.grad = None if grad is None else grad.clone()
            parameters.append(parameter)
        used_torch = []

        def watch(frame, event, arg):
            if event == "call" and frame.f_code.co_filename == TORCH_CLIPPING:
                used_torch.append(frame.f_code.co_name)

        before = sys.getprofile()
        given = [p.grad for p in parameters]
        sys.setprofile(None if function is _clip_grad_norm else watch)
        try:
            returned = function(iter(parameters) if as_generator else parameters, max_norm)
        finally:
            sys.setprofile(before)
        # "In place": the very tensors that were in .grad, scaled; not new tensors put in their place.
        replaced = [
            i
            for i, (p, g) in enumerate(zip(parameters, given, strict=True))
            if g is not None and p.grad is not g
        ]
        return returned, [p.grad for p in parameters], used_torch, replaced

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
    (norm, got_grads, used_torch, replaced), (wanted_norm, wanted_grads, _, _) = got, expected
    if used_torch:
        called = next((name for name in used_torch if not name.startswith("_")), "clip_grad_norm_")
        raise Mismatch(
            f"{case.where} your clip_grad_norm calls torch.nn.utils.{called}; the drill asks you to write it"
        )
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
    if replaced:
        raise Mismatch(
            f"{case.where} your clip_grad_norm put a new tensor in the .grad of parameter {replaced[0]}; "
            "scale each gradient in place, grad.mul_(factor), as the task says"
        )


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


# --- count_forward_flops ------------------------------------------------------------------------


def _forward_flops(model, input_shape):
    with FlopCounterMode(display=False) as counter:  # torch's own count
        model(torch.zeros(input_shape))
    return counter.get_total_flops()


def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


def _counted_flops(model, input_shape):
    """What `_forward_flops` finds, counted from the layers' settings: FlopCounterMode imports
    torch._dynamo, seconds of a check's time. Its tests hold the two equal on every case."""
    shape, flops = list(input_shape), 0
    for layer in model:
        if isinstance(layer, nn.Conv2d | nn.MaxPool2d):
            settings = (layer.kernel_size, layer.stride, layer.padding, layer.dilation)
            window = zip(shape[2:], *map(_pair, settings), strict=True)
            spatial = [_conv_size(*dimension) for dimension in window]
            if isinstance(layer, nn.Conv2d):
                outputs = shape[0] * layer.out_channels * math.prod(spatial)
                flops += 2 * outputs * (layer.in_channels // layer.groups) * math.prod(layer.kernel_size)
                shape[1] = layer.out_channels
            shape[2:] = spatial
        elif isinstance(layer, nn.AdaptiveAvgPool2d):
            shape[2:] = _pair(layer.output_size)
        elif isinstance(layer, nn.Flatten):
            shape = [shape[0], math.prod(shape[1:])]
        elif isinstance(layer, nn.Linear):
            flops += 2 * math.prod(shape[:-1]) * layer.in_features * layer.out_features
            shape[-1] = layer.out_features
    return flops


def _counted_without_running(function):
    """The reader counts from the layers' settings: the checker's hooks refuse a forward pass."""
    if function is _counted_flops:
        return function

    def refuse(module, args):
        raise RuntimeError(
            f"your code ran {type(module).__name__}: "
            "count from the layers' settings without running the model"
        )

    def call(model, input_shape):
        handles = [module.register_forward_pre_hook(refuse) for module in model.modules()]
        try:
            return function(model, input_shape)
        finally:
            for handle in handles:
                handle.remove()

    return call


def _window_text(layer, stride_default):
    """``k=5, s=2, p=1, d=2``: the kernel, and the stride, padding and dilation that are not the default."""
    shown, defaults = [], {"s": stride_default, "p": 0, "d": 1}
    for key, attribute in (("k", "kernel_size"), ("s", "stride"), ("p", "padding"), ("d", "dilation")):
        value = getattr(layer, attribute)
        value = value[0] if isinstance(value, tuple) and len(set(value)) == 1 else value
        if key == "k" or value != defaults[key]:
            shown.append(f"{key}={value}")
    return ", ".join(shown)


def _layer_text(layer):
    """``Conv2d(4, 6, k=5, s=2, p=1, d=2, bias=False)``: a layer and its settings, briefly."""
    if isinstance(layer, nn.Conv2d):
        groups = f", groups={layer.groups}" if layer.groups != 1 else ""
        bias = ", bias=False" if layer.bias is None else ""
        return f"Conv2d({layer.in_channels}, {layer.out_channels}, {_window_text(layer, 1)}{groups}{bias})"
    if isinstance(layer, nn.MaxPool2d):
        return f"MaxPool2d({_window_text(layer, layer.kernel_size)})"
    if isinstance(layer, nn.Linear):
        return f"Linear({layer.in_features}, {layer.out_features}{', bias=False' * (layer.bias is None)})"
    if isinstance(layer, nn.BatchNorm2d):
        return f"BatchNorm2d({layer.num_features})"
    if isinstance(layer, nn.AdaptiveAvgPool2d):
        return f"AdaptiveAvgPool2d({layer.output_size})"
    return f"{type(layer).__name__}()"


def _flops_case(layers, input_shape):
    model = nn.Sequential(*layers)
    layers_text = " > ".join(_layer_text(layer) for layer in layers)
    where = f"for {layers_text} on an input of shape {shape_text(input_shape)}"
    return Case(where, (model, tuple(input_shape)))


def _flops_named():
    return [
        _flops_case(
            [
                nn.Conv2d(3, 8, 3, padding=1),
                nn.ReLU(),
                nn.MaxPool2d(2),
                nn.Conv2d(8, 16, 3),
                nn.AdaptiveAvgPool2d(1),
                nn.Flatten(),
                nn.Linear(16, 10),
            ],
            (2, 3, 12, 12),
        ),
        _flops_case([nn.Conv2d(4, 6, 5, stride=2, padding=1, dilation=2, bias=False)], (1, 4, 11, 9)),
        _flops_case(  # depthwise, then pointwise
            [nn.Conv2d(8, 8, 3, padding=1, groups=8), nn.BatchNorm2d(8), nn.Conv2d(8, 16, 1)],
            (2, 8, 6, 6),
        ),
        _flops_case([nn.Flatten(), nn.Linear(12, 7), nn.ReLU(), nn.Linear(7, 3, bias=False)], (5, 3, 4)),
        _flops_case([nn.MaxPool2d(3, stride=2, padding=1), nn.Conv2d(2, 4, 2, stride=2)], (3, 2, 9, 9)),
        _flops_case(  # a kernel, stride, padding and dilation of their own for height and width
            [
                nn.Conv2d(3, 4, (3, 1), stride=(2, 1), padding=(1, 0), dilation=(1, 2)),
                nn.Conv2d(4, 2, (1, 2)),
            ],
            (1, 3, 7, 6),
        ),
    ]


def _conv_size(size, kernel, stride, padding, dilation):
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


@st.composite
def _flops_generated(draw):
    batch, channels = draw(st.integers(1, 3)), draw(st.sampled_from([1, 2, 4]))
    input_shape = (batch, channels, draw(st.integers(4, 10)), draw(st.integers(4, 10)))
    layers, sizes = [], list(input_shape[2:])

    def pair(values):  # each setting drawn per dimension: square ones are the special case
        return tuple(draw(values) for _ in range(2))

    for _ in range(draw(st.integers(1, 2))):
        out_channels = draw(st.sampled_from([2, 4, 6]))
        groups = draw(st.sampled_from([g for g in (1, 2) if channels % g == 0 and out_channels % g == 0]))
        kernel, stride = pair(st.integers(1, 3)), pair(st.integers(1, 2))
        padding, dilation = pair(st.integers(0, 1)), pair(st.integers(1, 2))
        window = list(zip(sizes, kernel, stride, padding, dilation, strict=True))
        if any(_conv_size(*dimension) < 1 for dimension in window):
            kernel, dilation = (1, 1), (1, 1)
            window = list(zip(sizes, kernel, stride, padding, dilation, strict=True))
        layers += [nn.Conv2d(channels, out_channels, kernel, stride, padding, dilation, groups), nn.ReLU()]
        sizes, channels = [_conv_size(*dimension) for dimension in window], out_channels
        if min(sizes) >= 2 and draw(st.booleans()):
            layers.append(nn.MaxPool2d(2))
            sizes = [size // 2 for size in sizes]
    features = nn.Sequential(*layers)(torch.zeros(1, *input_shape[1:]))  # the checker may run it
    layers += [nn.Flatten(), nn.Linear(features.numel(), draw(st.integers(1, 5)))]
    return _flops_case(layers, input_shape)


def _flops_by_layer(model, input_shape):
    with FlopCounterMode(display=False) as counter:
        model(torch.zeros(input_shape))
    counts = counter.get_flop_counts()
    shown = []
    for index, layer in enumerate(model):
        flops = sum(counts.get(f"Sequential.{index}", {}).values())
        if flops:
            shown.append(f"{index} {type(layer).__name__}: {flops}")
    return ", ".join(shown)


def _flops_compare(case, got, expected):
    integral = isinstance(got, int) or (isinstance(got, float) and got.is_integer())
    if isinstance(got, bool) or not integral:
        raise Mismatch(f"{case.where} you returned {got!r}; expected a whole number of FLOPs (an int)")
    if int(got) != expected:
        model, input_shape = case.args
        why = ""
        if 2 * int(got) == expected:
            why = ": exactly half, the count of multiply-adds (MACs); one multiply-add is two FLOPs"
        raise Mismatch(
            f"{case.where} you count {int(got)} FLOPs; expected {expected}{why} "
            f"(FlopCounterMode, by layer: {_flops_by_layer(model, input_shape)})"
        )


COUNT_FORWARD_FLOPS = Drill(
    id="count_forward_flops",
    title="FLOPs of a forward pass, counted by hand",
    page="week-2/day-9/timing-flops-and-tensor-cores",
    question="measuring-flops",
    difficulty="medium",
    function="forward_flops",
    statement=(
        "Write `forward_flops(model, input_shape) -> int`: `model` is an `nn.Sequential` of `Conv2d` (any "
        "stride, padding, dilation, groups), `Linear`, `MaxPool2d`, `AdaptiveAvgPool2d`, `BatchNorm2d`, "
        "`ReLU` and `Flatten`. Return the FLOPs of one forward pass on a float input of `input_shape` as "
        "`FlopCounterMode` counts them, from the layers' settings, without running the model."
    ),
    hints=(
        "Only `Conv2d` and `Linear` count, at 2 FLOPs per multiply-add; biases, activations, pooling "
        "and normalization count 0. The other layers matter only through the shapes they produce.",
        "Follow the shape layer by layer: a conv or pooling window gives "
        "`(size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1` per spatial dimension.",
        "A conv computes `N * C_out * H_out * W_out` outputs, each of `C_in / groups * kH * kW` "
        "multiply-adds; a `Linear` on `(N, in)` does `N * in * out`.",
    ),
    reference=_counted_flops,
    named_cases=_flops_named,
    generated=_flops_generated(),
    compare=_flops_compare,
    adapter=_counted_without_running,
)


# --- eval_mode_restored -------------------------------------------------------------------------


@contextmanager
def _evaluating(model):
    modes = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        yield model
    finally:
        for module, training in modes:
            module.training = training


class _InsideTheBlockError(Exception):
    """What the checker raises inside the ``with`` block, to see that the modes come back anyway."""


def _modes(model):
    return {name: module.training for name, module in model.named_modules()}


def _used_in_a_with_block(function):
    """The checker uses the context manager as a reader would, and records the modes it sees."""

    def call(model, raise_inside):
        seen = {"propagated": False}
        try:
            with function(model) as given:
                seen["inside"], seen["yielded"] = _modes(model), given
                if raise_inside:
                    raise _InsideTheBlockError("raised by the checker inside the with block")
        except _InsideTheBlockError:
            seen["propagated"] = True
        seen["after"], seen["yielded"] = _modes(model), seen.get("yielded") is model
        return seen

    return call


def _mode_model(nested, seed=0):
    torch.manual_seed(seed)
    if nested:
        return nn.Sequential(
            nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU()),
            nn.Sequential(nn.Dropout(0.2), nn.Linear(8, 2)),
        )
    return nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 2))


def _module_text(model, name):
    return "the model" if name == "" else f"{name} ({type(model.get_submodule(name)).__name__})"


def _mode_case(nested, in_eval=(), raise_inside=False):
    """A model in training mode but for the modules named in ``in_eval`` (``""``: the model)."""
    model = _mode_model(nested)
    model.train()
    for name in in_eval:
        model.get_submodule(name).training = False
    kind = "nested Sequentials" if nested else "a Sequential"
    if len(in_eval) == len(_modes(model)):
        where = f"for {kind} in eval mode"
    elif in_eval:
        frozen = ", ".join(_module_text(model, name) for name in in_eval)
        where = f"for {kind} in training mode but for {frozen} in eval mode"
    else:
        where = f"for {kind} in training mode"
    if raise_inside:
        where += " and an exception raised inside the with block"
    return Case(where, (model, raise_inside))


def _mode_named():
    flat = _modes(_mode_model(nested=False))
    return [
        _mode_case(nested=False),
        _mode_case(nested=False, in_eval=tuple(flat)),
        _mode_case(nested=False, in_eval=("1",)),  # a frozen BatchNorm while fine-tuning
        _mode_case(nested=False, raise_inside=True),
        _mode_case(nested=True, in_eval=("0", "0.1"), raise_inside=True),
    ]


@st.composite
def _mode_generated(draw):
    nested = draw(st.booleans())
    names = sorted(_modes(_mode_model(nested)))
    in_eval = draw(st.lists(st.sampled_from(names), unique=True).map(lambda chosen: tuple(sorted(chosen))))
    return _mode_case(nested, in_eval, raise_inside=draw(st.booleans()))


def _mode_compare(case, got, expected):
    model, raise_inside = case.args
    still_training = [name for name, training in got["inside"].items() if training]
    if still_training:
        shown = ", ".join(_module_text(model, name) for name in still_training)
        raise Mismatch(
            f"{case.where} your context manager leaves {shown} in training mode inside the with block; "
            "every module must be in eval mode (model.eval() sets the flag on all of them)"
        )
    if not got["yielded"]:
        raise Mismatch(f"{case.where} `with evaluating(model) as m` gives an m that is not the model")
    if raise_inside and not got["propagated"]:
        raise Mismatch(
            f"{case.where} the exception did not reach the caller: your context manager swallowed it"
        )
    changed = [name for name in expected["after"] if got["after"][name] != expected["after"][name]]
    if changed and raise_inside and not any(got["after"].values()) and any(expected["after"].values()):
        raise Mismatch(
            f"{case.where} your context manager leaves the model in eval mode after the with block: "
            "restore the modes in a `finally:` block, which runs when the block raises too"
        )
    if changed:
        name = changed[0]
        was = "training" if expected["after"][name] else "eval"
        now = "training" if got["after"][name] else "eval"
        raise Mismatch(
            f"{case.where} your context manager puts {_module_text(model, name)} in {now} mode after the "
            f"with block; it was in {was} mode before: restore each module's own flag, not the model's"
        )


EVAL_MODE_RESTORED = Drill(
    id="eval_mode_restored",
    title="Eval mode for a block, each module's mode restored",
    page="week-2/day-9/training-curves-and-eval-mode",
    question="eval-mode-accuracy-drop",
    difficulty="medium",
    function="evaluating",
    statement=(
        "Write a context manager `evaluating(model)` for an evaluation inside a training loop: "
        "`with evaluating(model) as m:` puts every module of `model` in eval mode and gives the model as "
        "`m`. On leaving the block, also by an exception (which must reach the caller), each module "
        "gets back its own earlier mode: a BatchNorm frozen in eval mode stays frozen."
    ),
    hints=(
        "`@contextlib.contextmanager` turns a generator into a context manager: the code before its "
        "`yield` runs on entering the block, the code after it on leaving.",
        "`model.train(flag)` sets the flag of every submodule to the same value; record "
        "`module.training` for each of `model.modules()` and set each one back.",
        "Put the `yield` in `try:` and the restoring in `finally:`; do not catch the exception.",
    ),
    reference=_evaluating,
    named_cases=_mode_named,
    generated=_mode_generated(),
    compare=_mode_compare,
    adapter=_used_in_a_with_block,
)


# --- eval_loss_without_leaks --------------------------------------------------------------------

LOSS_RTOL = 1e-5


def _mean_eval_loss(model, loss_fn, batches):
    total, count = 0.0, 0
    with torch.no_grad():
        for x, y in batches:
            total += loss_fn(model(x), y).item() * len(x)
            count += len(x)
    return total / count


def _memory_watched(function):
    """Counts, at each forward pass, the earlier batches whose activations (any module's output) are
    still alive, and the forward passes that recorded an autograd graph."""

    def call(model, loss_fn, batches):
        batches_seen, watched = [], {"most_alive": 0, "graphs": 0}

        def on_batch(module, args):
            alive = sum(any(ref() is not None for ref in outputs) for outputs in batches_seen)
            watched["most_alive"] = max(watched["most_alive"], alive)
            batches_seen.append([])

        def on_output(module, args, output):
            if batches_seen:
                batches_seen[-1].append(weakref.ref(output))  # a weak one: the checker keeps nothing

        def on_model_output(module, args, output):
            watched["graphs"] += output.grad_fn is not None

        handles = [model.register_forward_pre_hook(on_batch), model.register_forward_hook(on_model_output)]
        handles += [module.register_forward_hook(on_output) for module in model.modules()]
        try:
            watched["value"] = function(model, loss_fn, batches)
        finally:
            for handle in handles:
                handle.remove()
        return watched

    return call


LOSSES = {
    "MSELoss": (nn.MSELoss, lambda g, n, k: torch.randn(n, k, generator=g)),
    "L1Loss": (nn.L1Loss, lambda g, n, k: torch.randn(n, k, generator=g)),
    "CrossEntropyLoss": (nn.CrossEntropyLoss, lambda g, n, k: torch.randint(0, k, (n,), generator=g)),
}


def _loss_case(sizes, loss_name, seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 3))
    make_loss, make_targets = LOSSES[loss_name]
    generator = torch.Generator().manual_seed(seed + 1)
    batches = [(torch.randn(n, 4, generator=generator), make_targets(generator, n, 3)) for n in sizes]
    where = f"for {len(sizes)} batch{'es' * (len(sizes) != 1)} of sizes {list(sizes)} and {loss_name}"
    return Case(where, (model, make_loss(), batches))


def _loss_named():
    return [
        _loss_case([4, 4, 2], "MSELoss"),
        _loss_case([3, 3, 3, 3], "CrossEntropyLoss"),
        _loss_case([5, 1, 1], "L1Loss", seed=1),
        _loss_case([1], "MSELoss", seed=2),
    ]


@st.composite
def _loss_generated(draw):
    sizes = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    return _loss_case(sizes, draw(st.sampled_from(sorted(LOSSES))), seed=draw(st.integers(0, 1000)))


def _loss_compare(case, got, expected):
    model, loss_fn, batches = case.args
    if got["most_alive"] >= 2:
        raise Mismatch(
            f"{case.where} your function keeps the activations of {got['most_alive']} earlier batches alive "
            "while it runs: a kept loss keeps its graph and the tensors saved in it; keep floats"
        )
    if got["graphs"]:
        raise Mismatch(
            f"{case.where} your function records an autograd graph in {got['graphs']} of its "
            f"{len(batches)} forward passes, for a backward pass that never comes: evaluate under "
            "torch.no_grad()"
        )
    value, wanted = got["value"], expected["value"]
    if not isinstance(value, float):
        raise Mismatch(
            f"{case.where} you returned a {type(value).__name__}; expected a Python float (loss.item())"
        )
    if abs(value - wanted) > LOSS_RTOL * abs(wanted):
        sizes = [len(x) for x, _ in batches]
        why = ""
        if len(set(sizes)) > 1:
            why = f": a batch's mean counts each of its {sizes} samples once; weight it by its size"
        raise Mismatch(
            f"{case.where} your mean loss is {value:.6g}; expected {wanted:.6g}, the mean over all "
            f"{sum(sizes)} samples{why}"
        )


EVAL_LOSS_WITHOUT_LEAKS = Drill(
    id="eval_loss_without_leaks",
    title="An evaluation loss that keeps no graph alive",
    page="week-2/day-9/bottlenecks-leaks-and-hangs",
    question="silent-memory-leak",
    difficulty="easy",
    function="mean_eval_loss",
    statement=(
        "Write `mean_eval_loss(model, loss_fn, batches) -> float`: `batches` is a list of `(x, y)` pairs, "
        "the last one possibly smaller, and `loss_fn(model(x), y)` is the mean loss over one batch. "
        "Return the mean loss over all samples as a Python float. Build no autograd graph and keep no "
        "tensor from one batch to the next: the checker watches both."
    ),
    hints=(
        "A loss refers to its `grad_fn`, and through it to every tensor saved for the backward pass: "
        "run the loop under `torch.no_grad()`.",
        "Add up Python floats (`loss.item()`): a running sum of tensors keeps whatever they refer to.",
        "A batch's mean counts each of its samples once: add `loss.item() * len(x)` and divide by the "
        "number of samples, not of batches.",
    ),
    reference=_mean_eval_loss,
    named_cases=_loss_named,
    generated=_loss_generated(),
    compare=_loss_compare,
    adapter=_memory_watched,
    tolerance=f"rtol={LOSS_RTOL:g}",
)


# --- first_nonfinite_output ---------------------------------------------------------------------


def _first_nonfinite_output(model, x):
    found, handles = [], []
    for name, module in model.named_modules():

        def check(module, args, output, name=name):
            if not found and not torch.isfinite(output).all():
                found.append(name)

        handles.append(module.register_forward_hook(check))
    try:
        with torch.no_grad():
            model(x)
    finally:
        for handle in handles:
            handle.remove()
    return found[0] if found else None


class _Log(nn.Module):
    """``log(x)``: NaN for a negative input, as a loss written in two steps makes one."""

    def forward(self, x):
        return torch.log(x)


class _Net(nn.Module):
    """A body and a head, the head registered first: the forward pass runs them the other way round."""

    def __init__(self, body, width):
        super().__init__()
        self.head = nn.Linear(width, 2)
        self.body = nn.Sequential(*body)

    def forward(self, x):
        return self.head(self.body(x))


def _hooks_on(model):
    return sum(
        len(m._forward_hooks) + len(m._forward_pre_hooks) + len(m._backward_hooks) for m in model.modules()
    )


def _with_hooks_counted(function):
    """The checker also needs to know whether the function took its hooks off the model."""

    def call(model, x):
        return function(model, x), _hooks_on(model)

    return call


def _body(kinds, width):
    make = {"Linear": lambda: nn.Linear(width, width), "Tanh": nn.Tanh, "ReLU": nn.ReLU, "Log": _Log}
    return [nn.Linear(4, width) if i == 0 else make[kind]() for i, kind in enumerate(kinds)]


def _nonfinite_case(kinds, poison=None, at=None, seed=0, width=6):
    """``poison`` is "nan" or "inf", written into one weight of the Linear at ``body.<at>``."""
    torch.manual_seed(seed)
    model = _Net(_body(kinds, width), width).eval()
    if poison:
        with torch.no_grad():
            model.body[at].weight[0, 0] = float(poison)
    x = torch.randn(3, 4, generator=torch.Generator().manual_seed(seed + 1))
    layers = " > ".join(kinds)
    what = {None: "all weights finite", "nan": "one weight set to NaN", "inf": "one weight set to inf"}
    return Case(f"for Net(body: {layers}; head: Linear) with {what[poison]}", (model, x))


def _nonfinite_named():
    return [
        _nonfinite_case(["Linear", "Tanh", "Linear", "ReLU"], "nan", at=2),
        _nonfinite_case(["Linear", "Tanh", "Linear", "Tanh"], "inf", at=0),  # tanh(inf) = 1: finite again
        _nonfinite_case(["Linear", "Tanh", "Log", "Linear"]),  # log of a negative number
        _nonfinite_case(["Linear", "ReLU", "Linear"]),
        _nonfinite_case(["Linear"], "nan", at=0),
    ]


@st.composite
def _nonfinite_generated(draw):
    kinds = ["Linear", *draw(st.lists(st.sampled_from(["Linear", "Tanh", "ReLU", "Log"]), max_size=4))]
    linears = [i for i, kind in enumerate(kinds) if kind == "Linear"]
    poison = draw(st.sampled_from([None, "nan", "inf"]))
    at = draw(st.sampled_from(linears)) if poison else None
    return _nonfinite_case(kinds, poison, at, seed=draw(st.integers(0, 1000)))


def _named_text(model, name):
    if name is None:
        return "None (every output finite)"
    if name == "":
        return "'' (the model itself)"
    try:
        return f"{name!r} ({type(model.get_submodule(name)).__name__.lstrip('_')})"
    except AttributeError:
        return f"{name!r} (no such module)"


def _nonfinite_compare(case, got, expected):
    (answer, left), (wanted, _) = got, expected
    model, x = case.args
    if left:
        raise Mismatch(
            f"{case.where} your function left {left} hook{'s' * (left != 1)} on the model: "
            "remove them (handle.remove())"
        )
    if answer is not None and not isinstance(answer, str):
        raise Mismatch(
            f"{case.where} you returned a {type(answer).__name__}; expected a module's name or None"
        )
    if answer != wanted:
        raise Mismatch(
            f"{case.where} you answered {_named_text(model, answer)}; the first module whose output is "
            f"not finite, in the order the forward pass runs, is {_named_text(model, wanted)}"
        )


FIRST_NONFINITE_OUTPUT = Drill(
    id="first_nonfinite_output",
    title="The first module whose output is not finite",
    page="week-2/day-9/nan-loss-and-gradcheck",
    question="nan-loss",
    difficulty="medium",
    function="first_nonfinite_module",
    statement=(
        "Write `first_nonfinite_module(model, x) -> str | None`: run `model(x)` once (`x` is finite) and "
        "return the name, as in `model.named_modules()` (`''` for the model itself), of the first module "
        "whose output holds a NaN or an infinity, in the order the forward pass finishes them; `None` if "
        "every output is finite. Use forward hooks and leave none on the model."
    ),
    hints=(
        "`module.register_forward_hook(hook)` calls `hook(module, args, output)` when that module's "
        "forward returns; put one on every module of `model.named_modules()`.",
        "A container's hook fires after its children's, and the forward pass need not follow the order "
        "in which modules were registered: record the first failing name as the hooks fire.",
        "`torch.isfinite(output).all()` catches both NaN and infinity; an infinity can turn finite "
        "again (`tanh(inf) = 1`). Remove the handles in a `finally:`.",
    ),
    reference=_first_nonfinite_output,
    named_cases=_nonfinite_named,
    generated=_nonfinite_generated(),
    compare=_nonfinite_compare,
    adapter=_with_hooks_counted,
)


# --- dead_relu_units ----------------------------------------------------------------------------


def _dead_units(model, batches):
    alive, handles = {}, []
    for name, module in model.named_modules():
        if isinstance(module, nn.ReLU):

            def record(module, args, output, name=name):
                positive = (output > 0).transpose(0, 1).reshape(output.shape[1], -1).any(dim=1)
                alive[name] = alive.get(name, torch.zeros_like(positive)) | positive

            handles.append(module.register_forward_hook(record))
    try:
        with torch.no_grad():
            for x in batches:
                model(x)
    finally:
        for handle in handles:
            handle.remove()
    return {name: torch.nonzero(~positive).flatten().tolist() for name, positive in alive.items()}


def _positive_counts(model, batches):
    """For each ReLU and batch, how many outputs of each unit were positive: what the messages cite."""
    counts, handles = {}, []
    for name, module in model.named_modules():
        if isinstance(module, nn.ReLU):

            def record(module, args, output, name=name):
                per_unit = (output > 0).transpose(0, 1).reshape(output.shape[1], -1).sum(dim=1)
                counts.setdefault(name, []).append(per_unit)

            handles.append(module.register_forward_hook(record))
    with torch.no_grad():
        for x in batches:
            model(x)
    for handle in handles:
        handle.remove()
    return counts


SPIKE = 10.0  # one input far above the others: the only one that wakes a sleepy unit


def _relu_case(widths, sizes, dead=(), sleepy=(), conv=False, seed=0):
    """``dead``: (layer, unit) pairs given a bias of -1000, never positive. ``sleepy``: (unit, batch)
    pairs of the first layer, positive only for one input of that batch."""
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed + 1)
    if conv:
        trunk = nn.Sequential(nn.Conv2d(2, widths[0], 3, padding=1), nn.ReLU())
        layers = [trunk, nn.Flatten(), nn.Linear(widths[0] * 9, widths[1]), nn.ReLU()]
        batches = [torch.randn(n, 2, 3, 3, generator=generator) for n in sizes]
        where = f"for Conv2d(2, {widths[0]}, k=3) > ReLU > Flatten > Linear > ReLU"
        affine = [layers[0][0], layers[2]]
    else:
        layers = []
        for a, b in zip(widths, widths[1:], strict=False):
            layers += [nn.Linear(a, b), nn.ReLU()]
        batches = [torch.randn(n, widths[0], generator=generator).clamp(-2, 2) for n in sizes]
        where = f"for an MLP {' -> '.join(map(str, widths))} (Linear and ReLU)"
        affine = layers[::2]
    model = nn.Sequential(*layers)
    with torch.no_grad():
        for layer, unit in dead:
            affine[layer].bias[unit] = -1000.0
        for feature, (unit, batch) in enumerate(sleepy):
            affine[0].weight[unit].zero_()
            affine[0].weight[unit, feature] = 1.0
            affine[0].bias[unit] = -SPIKE / 2
            batches[batch][0, feature] = SPIKE
    return Case(f"{where} over batches of sizes {list(sizes)}", (model, batches))


def _relu_named():
    return [
        _relu_case([4, 8, 6], [3, 3], dead=[(0, 2), (1, 4)], sleepy=[(5, 0), (1, 1)]),
        _relu_case([4, 6], [2, 2, 2], dead=[(0, 0), (0, 3)], sleepy=[(4, 1)]),
        _relu_case([4, 5], [1], sleepy=[(0, 0)]),
        _relu_case([3, 5], [2], conv=True, dead=[(0, 1), (1, 2)]),
        _relu_case([4, 3, 3], [4]),
    ]


@st.composite
def _relu_generated(draw):
    conv = draw(st.booleans())
    hidden = draw(st.lists(st.integers(2, 6), min_size=conv + 1, max_size=2))
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    # a conv-net's widths are its channels and its Linear's outputs; an MLP's start with its 4 inputs
    widths, units = (hidden, hidden) if conv else ([4, *hidden], hidden)
    layers = len(units)
    dead = draw(st.lists(st.tuples(st.integers(0, layers - 1), st.integers(0, 5)), max_size=3))
    dead = sorted({(layer, unit % units[layer]) for layer, unit in dead})
    sleepy = []
    if not conv:
        free = [u for u in range(units[0]) if (0, u) not in dead]
        chosen = draw(st.lists(st.sampled_from(free), unique=True, max_size=2)) if free else []
        sleepy = [(unit, draw(st.integers(0, len(sizes) - 1))) for unit in chosen]
    return _relu_case(widths, sizes, dead, sleepy, conv, seed=draw(st.integers(0, 1000)))


def _relu_compare(case, got, expected):
    (answer, left), (wanted, _) = got, expected
    model, batches = case.args
    if left:
        raise Mismatch(
            f"{case.where} your function left {left} hook{'s' * (left != 1)} on the model: "
            "remove them (handle.remove())"
        )
    if not isinstance(answer, dict):
        raise Mismatch(f"{case.where} you returned a {type(answer).__name__}; expected a dict")
    if sorted(answer) != sorted(wanted):
        raise Mismatch(
            f"{case.where} your dict has the keys {sorted(answer)}; expected the ReLUs {sorted(wanted)}"
        )
    counts = _positive_counts(model, batches)
    for name, units in wanted.items():
        mine = answer[name]
        mine = mine.tolist() if isinstance(mine, torch.Tensor) else mine
        if not isinstance(mine, list | tuple) or not all(isinstance(u, int) for u in mine):
            raise Mismatch(
                f"{case.where} your dead units of ReLU {name!r} are {mine!r}; expected a list of unit "
                f"indices along dim 1, {units}"
            )
        n_units = counts[name][0].numel()
        if len(set(mine)) != len(mine) or any(not 0 <= u < n_units for u in mine):
            raise Mismatch(
                f"{case.where} your dead units of ReLU {name!r} start {list(mine)[:8]}: {len(mine)} indices, "
                f"some repeated or out of range, for its {n_units} units along dim 1 (a conv's unit is a "
                "whole channel)"
            )
        if sorted(mine) == units:
            continue
        awake = sorted(set(mine) - set(units))
        if awake:
            unit = awake[0]
            batch = next(b for b, c in enumerate(counts[name]) if unit < len(c) and c[unit] > 0)
            times = int(counts[name][batch][unit])
            why = f"unit {unit} is positive for {times} output{'s' * (times != 1)} in batch {batch}"
        else:
            why = f"unit {sorted(set(units) - set(mine))[0]} is positive for no input in any batch"
        raise Mismatch(
            f"{case.where} your dead units of ReLU {name!r} are {sorted(mine)}; expected {units}: {why}"
        )


DEAD_RELU_UNITS = Drill(
    id="dead_relu_units",
    title="Dead ReLU units over a few batches",
    page="week-2/day-9/hooks-and-weight-histograms",
    question="dying-relu",
    difficulty="medium",
    function="dead_units",
    statement=(
        "Write `dead_units(model, batches) -> dict[str, list[int]]`: run `model` on each tensor of "
        "`batches` and return, for every `nn.ReLU` module by its name in `model.named_modules()`, the "
        "sorted indices of its dead units: those along dim 1 (a feature, or a conv's channel) that are "
        "never positive, for any input of any batch. Use forward hooks and leave none on the model."
    ),
    hints=(
        "Keep one boolean per unit, 'has been positive', for each ReLU, and OR each batch into it: a "
        "unit quiet in one batch may wake up in the next.",
        "For an output of shape `(N, C, H, W)` a unit is a channel: reduce over every dim but 1, e.g. "
        "`(out > 0).transpose(0, 1).reshape(C, -1).any(dim=1)`.",
        "The dead units are `torch.nonzero(~alive).flatten().tolist()`; bind the ReLU's name as a "
        "default argument of the hook (`name=name`) and remove the handles in a `finally:`.",
    ),
    reference=_dead_units,
    named_cases=_relu_named,
    generated=_relu_generated(),
    compare=_relu_compare,
    adapter=_with_hooks_counted,
)


# --- finite_difference_gradient -----------------------------------------------------------------

GRADIENT_RTOL, GRADIENT_ATOL = 1e-6, 1e-9


def _numerical_gradient(f, x, eps=1e-4):
    gradient = torch.zeros_like(x)
    for index in torch.cartesian_prod(*[torch.arange(n) for n in x.shape]).reshape(-1, x.dim()).tolist():
        index = tuple(index)
        original = x[index].item()
        x[index] = original + eps
        above = f(x).item()
        x[index] = original - eps
        below = f(x).item()
        x[index] = original
        gradient[index] = (above - below) / (2 * eps)
    return gradient


def _cube_sum(x):
    return (x**3).sum()


def _weighted_sin(x):
    return (torch.sin(x) * torch.arange(1, x.numel() + 1, dtype=x.dtype).reshape(x.shape)).sum()


def _log_sum_exp(x):
    return torch.logsumexp(x.reshape(-1), 0)


FUNCTIONS = {"sum(x**3)": _cube_sum, "sum(k * sin(x))": _weighted_sin, "logsumexp(x)": _log_sum_exp}


def _gradient_case(name, x, how=""):
    return Case(f"for f(x) = {name} at x of shape {shape_text(x.shape)}{how}", (FUNCTIONS[name], x))


def _gradient_named():
    square = torch.tensor([[1.0, 2.0], [3.0, -1.5]], dtype=torch.float64)
    return [
        _gradient_case("sum(x**3)", torch.tensor([2.0, -1.0, 3.0], dtype=torch.float64)),
        _gradient_case("sum(k * sin(x))", square.clone()),
        _gradient_case("sum(x**3)", square.t(), " (transposed, non-contiguous)"),
        _gradient_case("logsumexp(x)", torch.tensor([0.5], dtype=torch.float64)),
    ]


@st.composite
def _gradient_generated(draw):
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    numel = 1
    for n in shape:
        numel *= n
    values = draw(st.lists(st.floats(-3, 3), min_size=numel, max_size=numel))
    x = torch.tensor(values, dtype=torch.float64).reshape(shape)
    return _gradient_case(draw(st.sampled_from(sorted(FUNCTIONS))), x)


def _gradient_compare(case, got, expected):
    expect_tensor(case, "gradient", got, expected, rtol=GRADIENT_RTOL, atol=GRADIENT_ATOL)


FINITE_DIFFERENCE_GRADIENT = Drill(
    id="finite_difference_gradient",
    title="A finite-difference gradient, as gradcheck computes it",
    page="week-2/day-9/nan-loss-and-gradcheck",
    question="gradcheck",
    difficulty="medium",
    function="numerical_gradient",
    statement=(
        "Write `numerical_gradient(f, x, eps=1e-4) -> gradient`: `f` maps a float64 tensor `x` of "
        "any shape (possibly non-contiguous) to a 0-d tensor. Return the gradient of `f` at `x`, of "
        "`x`'s shape and dtype, by central differences: `(f(x + eps e_i) - f(x - eps e_i)) / (2 eps)` "
        "for each element `i`. Leave `x` as you found it."
    ),
    hints=(
        "Change one element at a time, evaluate `f` twice, and put the element back before the next one.",
        "A forward difference `(f(x + eps) - f(x)) / eps` is off by about `eps * f''/2`; "
        "the central one by `eps**2`.",
        "`x.view(-1)` fails on a transposed `x`: loop over indices "
        "(`itertools.product(*map(range, x.shape))`) or work on `x.reshape(-1).clone()` and reshape back.",
    ),
    reference=_numerical_gradient,
    named_cases=_gradient_named,
    generated=_gradient_generated(),
    compare=_gradient_compare,
    tolerance=f"rtol={GRADIENT_RTOL:g}, atol={GRADIENT_ATOL:g}",
)


# --- output_grad_norms --------------------------------------------------------------------------

NORM_RTOL, NORM_ATOL = 1e-5, 1e-7


def _output_grad_norms(model, x):
    norms, handles = {}, []
    for name, layer in model.named_children():

        def record(module, grad_input, grad_output, name=name):
            norms[name] = grad_output[0].norm().item()  # the gradient of the loss w.r.t. the output

        handles.append(layer.register_full_backward_hook(record))
    try:
        model(x).sum().backward()
    finally:
        for handle in handles:
            handle.remove()
    return norms


def _hooks_left(model):
    return sum(
        len(m._backward_hooks)
        + len(m._forward_hooks)
        + len(m._forward_pre_hooks)
        + len(m._backward_pre_hooks)
        for m in model.modules()
    )


def _with_hooks_counted(function):
    """The checker also needs to know whether the function took its hooks off the model."""

    def call(model, x):
        return function(model, x), _hooks_left(model)

    return call


def _mlp_case(widths, batch, seed=0):
    torch.manual_seed(seed)
    layers = []
    for a, b in zip(widths, widths[1:], strict=False):
        layers += [torch.nn.Linear(a, b), torch.nn.Tanh()]
    model = torch.nn.Sequential(*layers[:-1])
    x = torch.randn(batch, widths[0], requires_grad=True)  # else the first hook warns of no input grad
    shape = " -> ".join(map(str, widths))
    return Case(f"for an MLP {shape} (Linear and Tanh) on a batch of {batch}", (model, x))


def _norms_named():
    return [_mlp_case([4, 8, 3], 2), _mlp_case([3, 5, 5, 2], 4), _mlp_case([2, 1], 1)]


@st.composite
def _norms_generated(draw):
    widths = draw(st.lists(st.integers(1, 6), min_size=2, max_size=4))
    return _mlp_case(widths, draw(st.integers(1, 4)), seed=draw(st.integers(0, 1000)))


def _norms_compare(case, got, expected):
    (norms, left), (wanted, _) = got, expected
    if left:
        raise Mismatch(
            f"{case.where} your function left {left} hook{'s' if left != 1 else ''} on the model: "
            "remove them (handle.remove())"
        )
    if not isinstance(norms, dict):
        raise Mismatch(
            f"{case.where} you returned a {type(norms).__name__}; expected a dict of layer name -> norm"
        )
    if sorted(norms) != sorted(wanted):
        raise Mismatch(f"{case.where} your dict has the layers {sorted(norms)}; expected {sorted(wanted)}")
    for name in wanted:
        got_value = torch.tensor(float(norms[name]), dtype=torch.float64)
        if not torch.isclose(
            got_value, torch.tensor(wanted[name], dtype=torch.float64), rtol=NORM_RTOL, atol=NORM_ATOL
        ):
            raise Mismatch(
                f"{case.where} your norm for layer {name} is {norms[name]:.5g}; expected {wanted[name]:.5g}"
            )


OUTPUT_GRAD_NORMS = Drill(
    id="output_grad_norms",
    title="Each layer's output-gradient norm, with backward hooks",
    page="week-2/day-9/hooks-and-weight-histograms",
    question="pytorch-hooks",
    difficulty="medium",
    function="output_grad_norms",
    statement=(
        "Write `output_grad_norms(model, x) -> dict[str, float]`: `model` is an `nn.Sequential` and `x` "
        "a batch that requires grad. Run `model(x).sum().backward()` once and return, for each child "
        "layer by its name (`'0'`, `'1'`, ...), the L2 norm of the gradient of that sum with respect "
        "to the layer's output. "
        "Use backward hooks, and leave no hook on the model afterwards."
    ),
    hints=(
        "`layer.register_full_backward_hook(hook)` calls `hook(module, grad_input, grad_output)` during "
        "`backward()`; each argument is a tuple of tensors.",
        "`grad_output` is the gradient with respect to the layer's output; `grad_input`, its input.",
        "Keep the handles that `register_full_backward_hook` returns and call `handle.remove()` in a "
        "`finally:`; bind the layer's name as a default argument of the hook (`name=name`).",
    ),
    reference=_output_grad_norms,
    named_cases=_norms_named,
    generated=_norms_generated(),
    compare=_norms_compare,
    may_change=frozenset({"grad", "mode"}),  # backward() through the model, as the task asks
    adapter=_with_hooks_counted,
    tolerance=f"rtol={NORM_RTOL:g}, atol={NORM_ATOL:g}",
)


# --- saliency_map -------------------------------------------------------------------------------

SALIENCY_RTOL, SALIENCY_ATOL = 1e-4, 1e-6


def _saliency(model, image, target):
    x = image.detach().clone().requires_grad_(True)
    score = model(x.unsqueeze(0))[0, target]  # the class score, before softmax
    (gradient,) = torch.autograd.grad(score, x)
    return gradient.abs().amax(dim=0)


def _small_classifier(channels, seed):
    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Conv2d(channels, 4, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1),
        torch.nn.Flatten(),
        torch.nn.Linear(4, 3),
    ).eval()


def _saliency_case(shape, target, seed=0, how=""):
    model = _small_classifier(shape[0], seed)
    image = torch.randn(shape, generator=torch.Generator().manual_seed(seed + 1))
    return Case(f"for a {shape_text(shape)} image and class {target}{how}", (model, image, target))


def _saliency_named():
    wide = _saliency_case((3, 5, 6), 2)
    model, image, target = wide.args
    channels_last = image.permute(1, 2, 0).contiguous().permute(2, 0, 1)  # same values, other strides
    return [
        _saliency_case((1, 3, 3), 0),
        wide,
        Case(wide.where + " (non-contiguous)", (model, channels_last, target)),
        _saliency_case((2, 1, 1), 1),
    ]


@st.composite
def _saliency_generated(draw):
    shape = (draw(st.integers(1, 3)), draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return _saliency_case(shape, draw(st.integers(0, 2)), seed=draw(st.integers(0, 1000)))


def _saliency_compare(case, got, expected):
    expect_tensor(case, "saliency map", got, expected, rtol=SALIENCY_RTOL, atol=SALIENCY_ATOL)


SALIENCY_MAP = Drill(
    id="saliency_map",
    title="A saliency map from the gradient of the class score",
    page="week-2/day-9/visualizing-models",
    question="saliency-maps",
    difficulty="medium",
    function="saliency",
    statement=(
        "Write `saliency(model, image, target) -> map`: `model` is a classifier in eval mode that takes "
        "a batch `(B, C, H, W)` and returns scores `(B, classes)` before softmax; `image` is one float32 "
        "image `(C, H, W)`. Return the vanilla saliency map, an `(H, W)` float32 tensor: for each pixel, "
        "the largest absolute value over channels of the gradient of the score of class `target` with "
        "respect to the image. Leave `image` as it was."
    ),
    hints=(
        "Make a leaf copy of the image that requires grad, add the batch dimension, and take the score "
        "`model(x)[0, target]`.",
        "`torch.autograd.grad(score, x)` gives the gradient without touching the parameters' `.grad`; "
        "the gradient of the softmax probability instead fades where the model is confident.",
        "Absolute value first, then the maximum over dim 0 (the channels): `.abs().amax(dim=0)`.",
    ),
    reference=_saliency,
    named_cases=_saliency_named,
    generated=_saliency_generated(),
    compare=_saliency_compare,
    tolerance=f"rtol={SALIENCY_RTOL:g}, atol={SALIENCY_ATOL:g}",
    may_change=frozenset(),  # the model is given in eval mode: scores in training mode differ
)


DRILLS = [  # in the order of the pages
    FINITE_DIFFERENCE_GRADIENT,
    FIRST_NONFINITE_OUTPUT,
    CLIP_GRAD_NORM_BY_HAND,
    OUTPUT_GRAD_NORMS,
    DEAD_RELU_UNITS,
    EVAL_MODE_RESTORED,
    COUNT_FORWARD_FLOPS,
    EVAL_LOSS_WITHOUT_LEAKS,
    SALIENCY_MAP,
]
