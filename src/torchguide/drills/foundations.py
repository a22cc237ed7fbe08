"""The drills of the layers and training parts that interviewers still ask to write by hand: a
convolution through ``unfold``, an LSTM cell, BatchNorm's forward with its running statistics, and
inverted dropout. Each is checked against torch's own (``F.conv2d``, ``torch.lstm_cell``,
``F.batch_norm``) on cases drawn under several seeds, with the gradients of every input where the
layer has a backward; dropout, whose mask is random, is checked by what must hold for any draw."""

from __future__ import annotations

import math
import os

import torch
import torch.nn.functional as F
from hypothesis import strategies as st
from torch import nn

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text
from torchguide.drills.layers import _random, _with_overloads
from torchguide.drills.transformer_blocks import _expect_output_and_gradients, _permuted, _with_gradients

PAGE_LAYERS = "week-1/layers-by-hand"

_MODULES = os.path.join(os.path.dirname(torch.nn.__file__), "modules")


def _module_file(name: str) -> str:
    return os.path.join(_MODULES, name)


def _backpropagated(names: tuple[str, ...], outputs: int):
    """An adapter for a function that returns ``outputs`` tensors: calls it on the case's inputs,
    then backpropagates the case's last argument, a tuple of one random gradient per output, into
    each input named in ``names`` that requires grad. It runs in the runner, so that a backward that
    fails is reported as the reader's."""

    def adapter(function):
        def call(*args):
            *inputs, grad_outputs = args
            result = function(*inputs)
            answer = {"outputs": result, "grads": {}}
            if not isinstance(result, tuple | list) or len(result) != outputs:
                return answer  # the comparison says what is wrong
            if not all(isinstance(t, torch.Tensor) for t in result):
                return answer
            answer["outputs"] = tuple(t.detach() for t in result)
            wanted = [
                (name, tensor)
                for name, tensor in zip(names, inputs, strict=False)
                if isinstance(tensor, torch.Tensor) and tensor.requires_grad
            ]
            paired = [(out, grad) for out, grad in zip(result, grad_outputs, strict=True) if grad is not None]
            if not wanted or any(out.shape != grad.shape for out, grad in paired):
                return answer  # a wrong shape: the comparison says so
            if not all(out.requires_grad for out, _ in paired):
                answer["detached"] = True
                return answer
            grads = torch.autograd.grad(
                [out for out, _ in paired],
                [t for _, t in wanted],
                [g for _, g in paired],
                allow_unused=True,
            )
            answer["grads"] = {name: grad for (name, _), grad in zip(wanted, grads, strict=True)}
            return answer

        return call

    return adapter


def _expect_outputs_and_gradients(case, got, expected, labels, rtol, atol, grad_rtol, grad_atol):
    """Each output named in ``labels``, then each input's gradient, at the stated tolerances."""
    if not isinstance(got, dict):
        raise Mismatch(f"{case.where} the check could not read your function's answer")
    outputs = got["outputs"]
    if not isinstance(outputs, tuple | list) or len(outputs) != len(labels):
        raise Mismatch(
            f"{case.where} your function returned {type(outputs).__name__}"
            f"{f' of {len(outputs)}' if isinstance(outputs, tuple | list) else ''}; "
            f"expected a tuple ({', '.join(labels)})"
        )
    for label, mine, wanted in zip(labels, outputs, expected["outputs"], strict=True):
        expect_tensor(case, label, mine, wanted, rtol=rtol, atol=atol)
    if got.get("detached"):
        raise Mismatch(
            f"{case.where} your {labels[0]} has no gradient path to its inputs (detached, or computed "
            "under no_grad): a layer's output must backpropagate into its input and weights"
        )
    for name, wanted in expected["grads"].items():
        mine = got["grads"].get(name)
        if mine is None:
            raise Mismatch(f"{case.where} no gradient reaches {name} through your outputs; expected one")
        expect_tensor(case, f"gradient for {name}", mine, wanted, rtol=grad_rtol, atol=grad_atol)


# --- conv2d_by_unfold ---------------------------------------------------------------------------

CONV_RTOL, CONV_ATOL = 1e-4, 1e-5
CONV_GRAD_RTOL, CONV_GRAD_ATOL = 1e-4, 1e-4  # a weight's gradient sums over every output position


def _conv2d(x, weight, bias, stride, padding, dilation, groups):
    return F.conv2d(x, weight, bias, stride, padding, dilation, groups)


def _conv_case(
    batch,
    groups,
    in_per_group,
    out_per_group,
    size,
    kernel,
    stride=(1, 1),
    padding=(0, 0),
    dilation=(1, 1),
    with_bias=True,
    dtype=torch.float32,
    seed=0,
    layout="",
):
    generator = torch.Generator().manual_seed(seed)
    channels, out_channels = groups * in_per_group, groups * out_per_group
    x = _random(generator, batch, channels, *size, dtype=dtype)
    if layout == "channels last":  # (N, H, W, C) storage, as torch.channels_last keeps it
        x = x.contiguous(memory_format=torch.channels_last)
    scale = (in_per_group * kernel[0] * kernel[1]) ** -0.5
    weight = _random(generator, out_channels, in_per_group, *kernel, dtype=dtype, scale=scale)
    if layout == "transposed weight":
        weight = _permuted(weight, (1, 0, 2, 3))
    bias = _random(generator, out_channels, dtype=dtype).requires_grad_() if with_bias else None
    x.requires_grad_()
    weight.requires_grad_()
    out = [(size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(2)]
    grad_output = _random(generator, batch, out_channels, *out, dtype=dtype)
    where = (
        f"for x {shape_text(x.shape)}, weight {shape_text(weight.shape)}"
        f"{'' if with_bias else ' without bias'}, stride {stride}, padding {padding}, dilation "
        f"{dilation}, groups {groups} ({dtype}, seed {seed}{', ' + layout if layout else ''})"
    )
    return Case(where, (x, weight, bias, stride, padding, dilation, groups, grad_output))


def _conv_named():
    return [
        _conv_case(1, 1, 1, 1, (4, 4), (3, 3), seed=0),
        _conv_case(2, 1, 2, 3, (7, 6), (3, 3), stride=(2, 2), seed=1),  # sizes the stride leaves over
        _conv_case(1, 1, 3, 2, (5, 3), (2, 3), padding=(1, 2), seed=2),  # a kernel that is not square
        _conv_case(2, 1, 2, 2, (7, 8), (3, 2), dilation=(2, 3), seed=3),
        _conv_case(1, 2, 2, 3, (5, 5), (3, 3), padding=(1, 1), seed=4),  # two groups
        _conv_case(2, 3, 1, 1, (6, 5), (3, 3), padding=(1, 1), seed=5),  # depthwise: groups = channels
        _conv_case(2, 1, 3, 2, (5, 6), (3, 3), stride=(1, 2), seed=6, layout="channels last"),
        _conv_case(3, 2, 1, 2, (4, 5), (2, 2), with_bias=False, dtype=torch.float64, seed=7),
        _conv_case(1, 1, 2, 2, (3, 4), (3, 4), seed=8, layout="transposed weight"),  # one output pixel
    ]


@st.composite
def _conv_generated(draw):
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
    size = tuple(
        max(1, dilation[i] * (kernel[i] - 1) + 1 - 2 * padding[i]) + draw(st.integers(0, 5)) for i in range(2)
    )
    return _conv_case(
        draw(st.integers(1, 3)),
        draw(st.integers(1, 3)),
        draw(st.integers(1, 2)),
        draw(st.integers(1, 2)),
        size,
        kernel,
        stride=(draw(st.integers(1, 3)), draw(st.integers(1, 3))),
        padding=padding,
        dilation=dilation,
        with_bias=draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        layout=draw(st.sampled_from(["", "channels last", "transposed weight"])),
    )


def _conv_compare(case, got, expected):
    _expect_output_and_gradients(
        case, got, expected, CONV_RTOL, CONV_ATOL, grad_rtol=CONV_GRAD_RTOL, grad_atol=CONV_GRAD_ATOL
    )


CONV2D_BY_UNFOLD = Drill(
    id="conv2d_by_unfold",
    title="conv2d through unfold: stride, padding, dilation and groups",
    page=PAGE_LAYERS,
    question="conv-output-shape",
    difficulty="medium",
    function="conv2d",
    statement=(
        "Write `conv2d(x, weight, bias, stride, padding, dilation, groups) -> y`, equal to "
        "`F.conv2d` with the same arguments: `x` is `(N, C, H, W)`, `weight` `(O, C // groups, kH, "
        "kW)`, `bias` `(O,)` or `None`; `stride`, `padding` and `dilation` are pairs `(along H, along "
        "W)`. With `groups = g`, the channels split into `g` consecutive groups and output channels "
        "`[j * O/g, (j+1) * O/g)` see input group `j` only (`g = C` is a depthwise convolution). Build "
        "it from `F.unfold` (im2col) and a matrix product, not from `F.conv2d`, `nn.Conv2d` or "
        "another of torch's convolutions. The checker compares the gradients of `x`, `weight` and "
        "`bias` too."
    ),
    hints=(
        "`F.unfold(x, (kH, kW), dilation=dilation, padding=padding, stride=stride)` gives `(N, C * kH "
        "* kW, L)`: one column per output position, `L = H_out * W_out`, where `H_out = (H + 2 * "
        "padding[0] - dilation[0] * (kH - 1) - 1) // stride[0] + 1`, and the same along W.",
        "Without groups it is one matrix product: `weight.view(O, -1) @ columns` is `(N, O, L)`. "
        "PyTorch's convolution is a cross-correlation: the kernel is not flipped.",
        "For groups, the rows of `columns` are ordered channel first, so `columns.view(N, g, C // g * "
        "kH * kW, L)` puts group `j`'s channels in slot `j`; multiply by `weight.view(g, O // g, -1)` "
        "group by group (`torch.einsum('gok,ngkl->ngol', ...)`), then `.reshape(N, O, H_out, W_out)` "
        "and add `bias[:, None, None]`.",
    ),
    reference=_conv2d,
    named_cases=_conv_named,
    generated=_conv_generated(),
    compare=_conv_compare,
    adapter=_with_gradients("x", "weight", "bias"),
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "conv2d",
            "conv1d",
            "conv3d",
            "convolution",
            "_convolution",
            "conv_transpose2d",
            "mkldnn_convolution",
            "_conv_depthwise2d",
            "thnn_conv2d",
            "_slow_conv2d_forward",
            "slow_conv_dilated2d",
        ),
        files=(_module_file("conv.py"),),
        instead="the drill asks you to build the convolution from unfold and a matrix product",
    ),
    tolerance=(
        f"rtol={CONV_RTOL:g}, atol={CONV_ATOL:g}; gradients rtol={CONV_GRAD_RTOL:g}, atol={CONV_GRAD_ATOL:g}"
    ),
)


# --- lstm_cell_by_hand --------------------------------------------------------------------------

LSTM_RTOL, LSTM_ATOL = 1e-5, 1e-5


def _lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh):
    return torch.lstm_cell(x, (h, c), w_ih, w_hh, b_ih, b_hh)


def _lstm_case(batch, inputs, hidden, with_bias=True, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, batch, inputs, dtype=dtype)
    h = _random(generator, batch, hidden, dtype=dtype, scale=0.5)
    c = _random(generator, batch, hidden, dtype=dtype)
    if how == "x a slice of a sequence":  # time step 1 of a (B, 3, I) batch: strided, not contiguous
        x = torch.stack([torch.zeros_like(x), x, torch.zeros_like(x)], dim=1)[:, 1]
    scale = hidden**-0.5
    w_ih = _random(generator, 4 * hidden, inputs, dtype=dtype, scale=scale)
    w_hh = _random(generator, 4 * hidden, hidden, dtype=dtype, scale=scale)
    if how == "transposed weights":
        w_hh = _permuted(w_hh, (1, 0))
    biases = [
        _random(generator, 4 * hidden, dtype=dtype, scale=scale) if with_bias else None for _ in range(2)
    ]
    if how == "forget-gate bias of 1":
        biases[0] = biases[0].clone()
        biases[0][hidden : 2 * hidden] += 1.0
    tensors = [t.requires_grad_() if t is not None else None for t in (x, h, c, w_ih, w_hh, *biases)]
    grads = (_random(generator, batch, hidden, dtype=dtype), _random(generator, batch, hidden, dtype=dtype))
    where = (
        f"for x {shape_text(x.shape)}, hidden size {hidden}{'' if with_bias else ', no biases'} "
        f"({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (*tensors, grads))


def _lstm_named():
    return [
        _lstm_case(2, 3, 4, seed=0),
        _lstm_case(1, 2, 3, seed=1),  # a batch of one
        _lstm_case(3, 5, 2, with_bias=False, seed=2),
        _lstm_case(2, 4, 3, seed=3, how="x a slice of a sequence"),
        _lstm_case(2, 3, 5, seed=4, how="transposed weights"),
        _lstm_case(2, 3, 4, seed=5, how="forget-gate bias of 1"),
        _lstm_case(2, 1, 1, dtype=torch.float64, seed=6),
    ]


@st.composite
def _lstm_generated(draw):
    return _lstm_case(
        draw(st.integers(1, 4)),
        draw(st.integers(1, 6)),
        draw(st.integers(1, 6)),
        with_bias=draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "x a slice of a sequence", "transposed weights"])),
    )


def _lstm_compare(case, got, expected):
    _expect_outputs_and_gradients(
        case, got, expected, ("h_next", "c_next"), LSTM_RTOL, LSTM_ATOL, LSTM_RTOL, LSTM_ATOL
    )


LSTM_CELL_BY_HAND = Drill(
    id="lstm_cell_by_hand",
    title="An LSTM cell by hand, equal to nn.LSTMCell",
    page=PAGE_LAYERS,
    question="rnn-lstm-api",
    difficulty="medium",
    function="lstm_cell",
    statement=(
        "Write `lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh) -> (h_next, c_next)`, one step of "
        "`nn.LSTMCell`: `x` is `(B, I)`, `h` and `c` are `(B, H)`, `w_ih` is `(4H, I)`, `w_hh` "
        "`(4H, H)` and the biases `(4H,)` or both `None`, laid out as `nn.LSTMCell` keeps them: the "
        "rows of the input, forget, cell and output gates in that order. The gates are "
        "`x W_ih^T + b_ih + h W_hh^T + b_hh`, split in four; `c_next = f * c + i * g` and "
        "`h_next = o * tanh(c_next)`, with sigmoid on `i`, `f`, `o` and tanh on `g`. The checker "
        "compares the gradients of every input through both outputs."
    ),
    hints=(
        "One matrix product per input gives all four gates at once: `gates = x @ w_ih.T + h @ "
        "w_hh.T` (plus both biases), `(B, 4H)`; then `i, f, g, o = gates.chunk(4, dim=1)`.",
        "PyTorch's order is input, forget, cell (`g`), output: `i, f, g, o`. TensorFlow's LSTM puts "
        "the cell candidate second (`i, g, f, o`); the same rows read in another order are "
        "another layer.",
        "`g` goes through `tanh`, the three gates through `sigmoid`; and the new hidden state is "
        "`o * tanh(c_next)`, not `o * c_next`.",
    ),
    reference=_lstm_cell,
    named_cases=_lstm_named,
    generated=_lstm_generated(),
    compare=_lstm_compare,
    adapter=_backpropagated(("x", "h", "c", "w_ih", "w_hh", "b_ih", "b_hh"), 2),
    forbidden=Forbidden(
        torch_functions=_with_overloads("lstm_cell", "lstm", "_thnn_fused_lstm_cell"),
        files=(_module_file("rnn.py"),),
        instead="the drill asks you to write the cell's gates yourself",
    ),
    tolerance=f"rtol={LSTM_RTOL:g}, atol={LSTM_ATOL:g}, outputs and gradients",
)


# --- batch_norm_forward -------------------------------------------------------------------------

BN_RTOL, BN_ATOL = 1e-4, 1e-5
BN_GRAD_RTOL, BN_GRAD_ATOL = 1e-4, 1e-4


def _batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps):
    running_mean, running_var = running_mean.clone(), running_var.clone()
    y = F.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps)
    return y, running_mean, running_var


def _bn_case(shape, training, momentum=0.1, eps=1e-5, affine=True, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    channels = shape[1]
    # Channels whose mean and spread differ, so that statistics taken over the wrong dimensions differ.
    centre = _random(generator, channels, dtype=dtype, scale=2.0)
    spread = _random(generator, channels, dtype=dtype).abs() + 0.5
    at_channel = (1, channels) + (1,) * (len(shape) - 2)
    x = _random(generator, *shape, dtype=dtype) * spread.view(at_channel) + centre.view(at_channel)
    if how == "channels last" and len(shape) == 4:
        x = x.contiguous(memory_format=torch.channels_last)
    running_mean = _random(generator, channels, dtype=dtype, scale=0.5)
    running_var = _random(generator, channels, dtype=dtype).abs() + 0.5
    weight = _random(generator, channels, dtype=dtype).requires_grad_() if affine else None
    bias = _random(generator, channels, dtype=dtype).requires_grad_() if affine else None
    x.requires_grad_()
    grads = (_random(generator, *shape, dtype=dtype), None, None)
    where = (
        f"for x {shape_text(shape)} in {'training' if training else 'eval'} mode, momentum {momentum:g}, "
        f"eps {eps:g}{'' if affine else ', no weight or bias'} ({dtype}, seed {seed}"
        f"{', ' + how if how else ''})"
    )
    return Case(where, (x, running_mean, running_var, weight, bias, training, momentum, eps, grads))


def _bn_named():
    return [
        _bn_case((4, 3), True, seed=0),
        _bn_case((4, 3), False, seed=1),
        _bn_case((2, 3, 5), True, momentum=0.5, seed=2),  # (N, C, L): statistics over N and L
        _bn_case((1, 2, 3, 4), True, seed=3, how="a batch of one, 12 values a channel"),
        _bn_case((2, 3, 2, 3), True, seed=4, how="channels last"),
        _bn_case((3, 2), True, momentum=1.0, eps=0.1, affine=False, seed=5),
        _bn_case((1, 4), False, seed=6, how="a batch of one in eval mode"),
        _bn_case((2, 2), True, dtype=torch.float64, seed=7),  # two values: n / (n - 1) is 2
    ]


@st.composite
def _bn_generated(draw):
    training = draw(st.booleans())
    shape = [draw(st.integers(1, 4)), draw(st.integers(1, 4))]
    shape += draw(st.lists(st.integers(1, 4), max_size=2))
    if training and math.prod(shape) // shape[1] < 2:
        shape[0] += 1  # training needs two values a channel for a variance
    return _bn_case(
        tuple(shape),
        training,
        momentum=draw(st.sampled_from([0.1, 0.01, 0.5, 0.9])),
        eps=draw(st.sampled_from([1e-5, 1e-3, 0.1])),
        affine=draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "channels last"])),
    )


def _bn_compare(case, got, expected):
    x, running_mean, running_var, _, _, training, momentum, _, _ = case.args
    outputs = got.get("outputs") if isinstance(got, dict) else None
    if training and isinstance(outputs, tuple | list) and len(outputs) == 3:
        mine = outputs[2]
        values = x.detach().transpose(0, 1).reshape(x.shape[1], -1).double()
        biased = (1 - momentum) * running_var.double() + momentum * values.var(dim=1, correction=0)
        if (
            isinstance(mine, torch.Tensor)
            and mine.shape == running_var.shape
            and not torch.allclose(mine.double(), expected["outputs"][2].double(), rtol=BN_RTOL, atol=BN_ATOL)
            and torch.allclose(mine.double(), biased, rtol=BN_RTOL, atol=BN_ATOL)
        ):
            n = values.shape[1]
            raise Mismatch(
                f"{case.where} your running_var moved towards the batch's biased variance (divided by "
                f"n = {n}); BatchNorm normalizes with that one, but keeps the unbiased one (divided by "
                f"n - 1 = {n - 1}) in its running variance"
            )
    _expect_outputs_and_gradients(
        case,
        got,
        expected,
        ("y", "running_mean", "running_var"),
        BN_RTOL,
        BN_ATOL,
        BN_GRAD_RTOL,
        BN_GRAD_ATOL,
    )


BATCH_NORM_FORWARD = Drill(
    id="batch_norm_forward",
    title="BatchNorm's forward in training and eval mode, with its running statistics",
    page=PAGE_LAYERS,
    question="running-stats-and-inverted-dropout",
    difficulty="medium",
    function="batch_norm",
    statement=(
        "Write `batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps) -> "
        "(y, new_running_mean, new_running_var)`, what `nn.BatchNorm1d/2d` does in one forward: `x` "
        "is `(N, C, *)` (any number of spatial dimensions after the channels), the running "
        "statistics are `(C,)`, `weight` and `bias` `(C,)` or both `None`. In training mode, "
        "normalize each channel by the mean and variance of this batch (over every dimension but "
        "the channels) and move the running statistics towards them: `new = (1 - momentum) * "
        "running + momentum * batch`, with the variance's unbiased estimate (divided by `n - 1`) in "
        "the running variance. In eval mode, normalize by the running statistics and return them "
        "unchanged. Then scale by `weight` and shift by `bias`. Return new tensors for the running "
        "statistics; leave the given ones as they are. Not with `F.batch_norm` or `nn.BatchNorm*d`."
    ),
    hints=(
        "The channels are dimension 1: reduce over `dims = [0, *range(2, x.dim())]`, keeping them "
        "(`keepdim=True`) so that the statistics broadcast back, or reshape them to `(1, C, 1, ...)`.",
        "The output uses the *biased* variance, `x.var(dims, correction=0)`, the one PyTorch "
        "normalizes with; the running variance takes the unbiased one, the same times `n / (n - 1)`, "
        "where `n = x.numel() // C`.",
        "`momentum` weighs the *new* batch: `(1 - momentum) * running_mean + momentum * mean`, the "
        "opposite of the convention of an optimizer's momentum. In eval mode no batch statistic is "
        "taken at all: `(x - running_mean) / sqrt(running_var + eps)`.",
    ),
    reference=_batch_norm,
    named_cases=_bn_named,
    generated=_bn_generated(),
    compare=_bn_compare,
    adapter=_backpropagated(("x", "running_mean", "running_var", "weight", "bias"), 3),
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "batch_norm",
            "native_batch_norm",
            "_native_batch_norm_legit",
            "_native_batch_norm_legit_no_training",
            "_batch_norm_impl_index",
            "instance_norm",
        ),
        files=(_module_file("batchnorm.py"),),
        instead="the drill asks you to write the normalization and its running statistics",
    ),
    tolerance=f"rtol={BN_RTOL:g}, atol={BN_ATOL:g}; gradients rtol={BN_GRAD_RTOL:g}, atol={BN_GRAD_ATOL:g}",
)


# --- inverted_dropout ---------------------------------------------------------------------------

DROPOUT_RTOL, DROPOUT_ATOL = 1e-6, 1e-6
# A statistic is accepted within this many of its standard errors of the value a correct dropout
# gives it: a correct function fails one such test with a chance below 3e-11, whatever the seed.
DROPOUT_SIGMAS = 7.0
WIDE = (48, 64)  # the wide input the statistics are taken over: 3072 draws per call


def _dropout(x, p, training):
    return F.dropout(x, p, training)


def _dropout_sampled(function):
    """Seeds torch's generator from the case, calls the function on the case's x (its output and
    the gradient of the case's grad_output) and twice on a wide input, whose kept elements the
    checker's statistics read."""

    def call(x, p, training, grad_output, seed):
        torch.manual_seed(seed)
        answer = _with_gradients("x")(function)(x, p, training, grad_output)
        wide = torch.rand(WIDE, dtype=x.dtype) + 0.5  # every value nonzero: a zero was dropped
        draws = [function(wide, p, training) for _ in range(2)]
        answer["wide"] = wide
        answer["draws"] = [d.detach() if isinstance(d, torch.Tensor) else d for d in draws]
        return answer

    return call


def _dropout_case(shape, p, training, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *shape, dtype=dtype)
    x = x + 0.5 * torch.where(x < 0, -1.0, 1.0).to(dtype)  # |x| >= 0.5: a zero was dropped
    if how == "transposed" and len(shape) >= 2:
        x = _permuted(x, (*range(len(shape) - 2), len(shape) - 1, len(shape) - 2))
    x.requires_grad_()
    grad_output = _random(generator, *shape, dtype=dtype)
    where = (
        f"for x {shape_text(shape)}, p {p:g}, in {'training' if training else 'eval'} mode "
        f"({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (x, p, training, grad_output, seed))


def _dropout_named():
    return [
        _dropout_case((4, 5), 0.5, True, seed=0),
        _dropout_case((4, 5), 0.5, False, seed=1),  # eval: the identity
        _dropout_case((3, 7), 0.2, True, seed=2),
        _dropout_case((1, 6), 0.8, True, seed=3, how="a batch of one"),
        _dropout_case((5, 3), 0.3, True, seed=4, how="transposed"),
        _dropout_case((2, 3, 4), 0.0, True, seed=5),  # p = 0 keeps everything, unscaled
        _dropout_case((6,), 0.6, False, dtype=torch.float64, seed=6),
    ]


@st.composite
def _dropout_generated(draw):
    return _dropout_case(
        tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3))),
        draw(st.sampled_from([0.1, 0.25, 0.5, 0.7, 0.9])),
        draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "transposed"])),
    )


def _within(observed: float, wanted: float, standard_error: float) -> bool:
    return abs(observed - wanted) <= DROPOUT_SIGMAS * standard_error + 1e-12


def _dropout_compare(case, got, expected):
    x, p, training, grad_output, _ = case.args
    if not training:
        _expect_output_and_gradients(case, got, expected, DROPOUT_RTOL, DROPOUT_ATOL)
        draws = got["draws"]
        for draw in draws:
            expect_tensor(case, "output on a wide input in eval mode", draw, got["wide"], rtol=0, atol=0)
        return
    y = got["output"]
    expect_tensor(case, "output's shape", y, x.detach(), rtol=math.inf, atol=math.inf)
    scale = 1 / (1 - p)
    kept = y != 0
    wanted = torch.where(kept, x.detach() * scale, torch.zeros_like(x))
    unscaled = torch.where(kept, x.detach(), torch.zeros_like(x))
    if p > 0 and bool(kept.any()) and torch.allclose(y, unscaled, rtol=DROPOUT_RTOL, atol=DROPOUT_ATOL):
        raise Mismatch(
            f"{case.where} your kept elements are x itself; inverted dropout scales them by "
            f"1 / (1 - p) = {scale:.4g} at training time, so that eval mode needs no scaling"
        )
    expect_tensor(
        case, "output (each element 0 or x / (1 - p))", y, wanted, rtol=DROPOUT_RTOL, atol=DROPOUT_ATOL
    )
    if got.get("detached"):
        raise Mismatch(
            f"{case.where} your output has no gradient path to x: dropout's mask must backpropagate"
        )
    grad = got["grads"].get("x")
    if grad is None:
        raise Mismatch(f"{case.where} no gradient reaches x through your output; expected one")
    expect_tensor(
        case,
        "gradient for x",
        grad,
        torch.where(kept, grad_output * scale, torch.zeros_like(grad_output)),
        rtol=DROPOUT_RTOL,
        atol=DROPOUT_ATOL,
    )
    _dropout_statistics(case, got, p)


def _dropout_statistics(case, got, p):
    wide, draws = got["wide"], got["draws"]
    for draw in draws:
        expect_tensor(case, "output on a wide input", draw, wide, rtol=math.inf, atol=math.inf)
    masks = [draw != 0 for draw in draws]
    n = wide.numel()
    if p == 0:
        return
    ratio = (draws[0] / wide).double()  # 1 / (1 - p) where kept, 0 where dropped
    dropped = 1 - masks[0].double().mean().item()
    if not _within(dropped, p, math.sqrt(p * (1 - p) / n)):
        raise Mismatch(
            f"{case.where} your dropout dropped {dropped:.3f} of {n} elements of a wide input; expected "
            f"p = {p:g} within {DROPOUT_SIGMAS:g} standard errors "
            f"({DROPOUT_SIGMAS * math.sqrt(p * (1 - p) / n):.3f})"
        )
    mean = ratio.mean().item()
    if not _within(mean, 1.0, math.sqrt(p / ((1 - p) * n))):
        raise Mismatch(
            f"{case.where} the mean of your output / x over {n} elements is {mean:.3f}; expected 1 within "
            f"{DROPOUT_SIGMAS:g} standard errors: dropout must keep each element's expected value"
        )
    agree = p * p + (1 - p) * (1 - p)  # two independent elements are both kept or both dropped
    error = math.sqrt(agree * (1 - agree) / n) * 2  # neighbours overlap: a generous error
    for name, pairs in (
        ("two calls", masks[0] == masks[1]),
        ("neighbouring rows", masks[0][1:] == masks[0][:-1]),
        ("neighbouring columns", masks[0][:, 1:] == masks[0][:, :-1]),
    ):
        rate = pairs.double().mean().item()
        if not _within(rate, agree, error):
            raise Mismatch(
                f"{case.where} your masks agree between {name} at {rate:.3f} of the elements of a wide "
                f"input; independent draws agree at {agree:.3f}: draw a new mask for every element and "
                "every call"
            )


INVERTED_DROPOUT = Drill(
    id="inverted_dropout",
    title="Inverted dropout: scaled in training, the identity in eval",
    page=PAGE_LAYERS,
    question="running-stats-and-inverted-dropout",
    difficulty="easy",
    function="dropout",
    statement=(
        "Write `dropout(x, p, training) -> y` as `F.dropout` computes it (inverted dropout): in "
        "training mode, zero each element of `x` independently with probability `p` (`0 <= p < 1`) "
        "and multiply the ones kept by `1 / (1 - p)`, so that each element's expected value stays "
        "`x`; in eval mode return `x` unchanged. Draw the mask from torch's own generator "
        "(`torch.rand`, `torch.bernoulli`), a fresh one on every call. The checker compares values "
        "and the gradient on the case's `x`, and takes statistics over a wide input, each accepted "
        "within 7 standard errors, which a correct dropout passes whatever the seed: the fraction "
        "dropped is `p`, the mean of `y / x` is 1, and masks are independent between elements and "
        "calls. Not with `F.dropout` or `nn.Dropout`."
    ),
    hints=(
        "`keep = torch.rand_like(x) >= p` is True with probability `1 - p`, one draw per element; "
        "`x * keep / (1 - p)` is differentiable and leaves `x` as it was.",
        "Scale at training time, not at eval time: the original paper multiplied by `1 - p` at "
        "inference, but PyTorch's dropout divides the kept elements by `1 - p` while training, so "
        "`model.eval()` has nothing to do but pass `x` through.",
        "`torch.rand(x.shape[-1])` broadcast over the rows drops whole columns, and a generator "
        "seeded inside the function draws the same mask on every call: both keep the right "
        "fraction, and neither is dropout.",
    ),
    reference=_dropout,
    named_cases=_dropout_named,
    generated=_dropout_generated(),
    compare=_dropout_compare,
    adapter=_dropout_sampled,
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "dropout", "dropout_", "native_dropout", "feature_dropout", "alpha_dropout", "_fused_dropout"
        ),
        files=(_module_file("dropout.py"),),
        instead="the drill asks you to draw the mask and scale it yourself",
    ),
    tolerance=(
        f"rtol={DROPOUT_RTOL:g}, atol={DROPOUT_ATOL:g} on values and gradients; statistics within "
        f"{DROPOUT_SIGMAS:g} standard errors"
    ),
)


# --- ema_of_weights -----------------------------------------------------------------------------

PAGE_CONTAINERS = "week-1/containers-copies-and-parameter-groups"
EMA_RTOL, EMA_ATOL = 1e-6, 1e-6


def _ema_update(averaged, current, n_averaged, decay):
    from torch.optim.swa_utils import get_ema_multi_avg_fn

    with torch.no_grad():
        if n_averaged == 0:  # AveragedModel's first update copies the model
            for mine, theirs in zip(averaged, current, strict=True):
                mine.copy_(theirs)
        else:
            get_ema_multi_avg_fn(decay)(averaged, current, torch.tensor(n_averaged))


def _averaged_over_steps(function):
    """The averaged tensors made from the case's, the function called once a step with the step's
    model tensors and the count of updates so far; the averaged values after each step, or what the
    function did that the task says not to: (what, step, index)."""

    def call(start, steps, decay):
        averaged = [t.clone() for t in start]
        storage = [t.data_ptr() for t in averaged]
        after = []
        for step, values in enumerate(steps):
            current = [t.clone() for t in values]
            function(averaged, current, step, decay)
            for i, (mine, given) in enumerate(zip(current, values, strict=True)):
                if not torch.equal(mine, given):
                    return after, ("model", step + 1, i)
            for i, mine in enumerate(averaged):
                if mine.data_ptr() != storage[i] or len(averaged) != len(start):
                    return after, ("replaced", step + 1, i)
            after.append([t.clone() for t in averaged])
        return after, None

    return call


def _ema_case(shapes, k, decay, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    start = [_random(generator, *shape, dtype=dtype) for shape in shapes]
    if how == "transposed" and len(shapes[0]) == 2:
        start[0] = _permuted(start[0], (1, 0))
    steps = []
    for _ in range(k):  # each step moves the model a little
        steps.append([_random(generator, *shape, dtype=dtype) for shape in shapes])
    where = (
        f"for tensors of shapes {', '.join(shape_text(s) for s in shapes)}, {k} update"
        f"{'' if k == 1 else 's'}, decay {decay:g} ({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (start, steps, decay))


def _ema_named():
    return [
        _ema_case([(2, 3), (3,)], 4, 0.9, seed=0),
        _ema_case([(4,)], 1, 0.99, seed=1),  # one update: a copy of the model
        _ema_case([(3, 2), (2,), (1, 1)], 5, 0.5, seed=2),
        _ema_case([(2, 4)], 3, 0.0, seed=3),  # decay 0: the model itself
        _ema_case([(3,)], 3, 1.0, seed=4),  # decay 1: the first copy, kept
        _ema_case([(3, 5), (5,)], 3, 0.999, seed=5, how="transposed"),
        _ema_case([(2, 2)], 4, 0.75, dtype=torch.float64, seed=6),
    ]


@st.composite
def _ema_generated(draw):
    shapes = draw(
        st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=2).map(tuple), min_size=1, max_size=3)
    )
    return _ema_case(
        shapes,
        draw(st.integers(1, 5)),
        draw(st.sampled_from([0.0, 0.5, 0.9, 0.99, 0.999, 1.0])),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "transposed"])),
    )


def _ema_compare(case, got, expected):
    (after, problem), (wanted, _) = got, expected
    _, _, decay = case.args
    if problem is not None:
        what, step, index = problem
        raise Mismatch(
            f"{case.where} at update {step} your ema_update "
            + (
                f"changed the model's tensor {index}; read it, write the average"
                if what == "model"
                else f"replaced averaged[{index}]; update it in place, as AveragedModel's own tensors are"
            )
        )
    for step, (mine, theirs) in enumerate(zip(after, wanted, strict=True), 1):
        for index, (t, w) in enumerate(zip(mine, theirs, strict=True)):
            step_case = Case(f"{case.where} after update {step}", case.args)
            if step == 1 and not torch.allclose(t, w):
                raise Mismatch(
                    f"{step_case.where} your averaged[{index}] is not the model's: AveragedModel's "
                    "first update (n_averaged == 0) copies the model's values, whatever the decay"
                )
            expect_tensor(step_case, f"averaged[{index}]", t, w, rtol=EMA_RTOL, atol=EMA_ATOL)


EMA_OF_WEIGHTS = Drill(
    id="ema_of_weights",
    title="An exponential moving average of weights, as AveragedModel keeps it",
    page=PAGE_CONTAINERS,
    question="ema-and-swa",
    difficulty="easy",
    function="ema_update",
    statement=(
        "Write `ema_update(averaged, current, n_averaged, decay)`, the update that "
        "`AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay)).update_parameters(model)` "
        "makes: `averaged` and `current` are lists of tensors of the same shapes (the average's "
        "parameters and the model's), `n_averaged` the number of updates made before this one. On "
        "the first update (`n_averaged == 0`) copy the model's values; after it, `averaged = decay * "
        "averaged + (1 - decay) * current`. Write into the tensors of `averaged` in place (they are "
        "a module's parameters) and leave `current` as it is; return nothing. The checker calls it "
        "once per training step and compares the average after each. Not with `torch.optim.swa_utils`."
    ),
    hints=(
        "Under `torch.no_grad()`, `a.copy_(c)` on the first update, then `a.mul_(decay).add_(c, "
        "alpha=1 - decay)`, or `a.lerp_(c, 1 - decay)`, for each pair.",
        "`decay` weighs the *average*: 0.999 moves it a thousandth of the way to the model each "
        "step. Swapped, the average is nearly the model.",
        "No bias correction as Adam's moments have: AveragedModel starts from a copy of the model "
        "instead of from zeros, so that the first values need none.",
    ),
    reference=_ema_update,
    named_cases=_ema_named,
    generated=_ema_generated(),
    compare=_ema_compare,
    adapter=_averaged_over_steps,
    forbidden=Forbidden(
        files=(os.path.join(os.path.dirname(torch.optim.__file__), "swa_utils.py"),),
        instead="the drill asks you to write the average's update",
    ),
    tolerance=f"rtol={EMA_RTOL:g}, atol={EMA_ATOL:g}",
)


# --- no_decay_param_groups ----------------------------------------------------------------------

NORMS = (nn.LayerNorm, nn.GroupNorm, nn.RMSNorm, nn.modules.batchnorm._NormBase, nn.LocalResponseNorm)


def _no_decay_param_groups(model, weight_decay):
    decay, no_decay, seen = [], [], set()
    for module in model.modules():
        for name, p in module.named_parameters(recurse=False):
            if id(p) in seen:
                continue  # a tied weight: once
            seen.add(id(p))
            is_norm = isinstance(module, NORMS)
            (no_decay if name.endswith("bias") or is_norm else decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


class _Block(nn.Module):
    """A transformer-like block whose parameter names do not say what they are."""

    def __init__(self, width):
        super().__init__()
        self.mix = nn.MultiheadAttention(width, 1, batch_first=True)
        self.scale = nn.LayerNorm(width)
        self.gain = nn.Parameter(torch.ones(width))  # a learned vector, not a bias: decays


class _Tied(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.norm = nn.RMSNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.head.weight = self.embed.weight  # one parameter, in two modules


LAYERS = {
    "Linear": lambda w: nn.Linear(w, w),
    "Linear without bias": lambda w: nn.Linear(w, w, bias=False),
    "LayerNorm": lambda w: nn.LayerNorm(w),
    "BatchNorm1d": lambda w: nn.BatchNorm1d(w),
    "GroupNorm": lambda w: nn.GroupNorm(1, w),
    "RMSNorm": lambda w: nn.RMSNorm(w),
    "Conv1d": lambda w: nn.Conv1d(w, w, 1),
    "Embedding": lambda w: nn.Embedding(5, w),
    "attention block": _Block,
    "tied embedding and head": lambda w: _Tied(7, w),
}


def _grouped_by(function):
    """Builds the case's model, calls the function on it, and answers with names: each group's
    parameter names (or what else it holds) and weight decay, and every parameter's name."""

    def call(layers, width, weight_decay, seed):
        torch.manual_seed(seed)
        model = nn.Sequential(*(LAYERS[layer](width) for layer in layers))
        names = {}
        for name, p in model.named_parameters():
            names.setdefault(id(p), name)
        groups = function(model, weight_decay)
        if not isinstance(groups, list | tuple):
            return type(groups).__name__, names_in_order(model)
        answer = []
        for group in groups:
            if not isinstance(group, dict) or "params" not in group:
                return "a group that is not a dict with 'params'", names_in_order(model)
            params = group["params"]
            params = [params] if isinstance(params, torch.Tensor) else list(params)
            held = [names.get(id(p), "a tensor that is not one of the model's parameters") for p in params]
            answer.append((held, group.get("weight_decay")))
        return answer, names_in_order(model)

    def names_in_order(model):
        return [name for name, _ in model.named_parameters()]

    return call


def _groups_case(layers, width=4, weight_decay=0.1, seed=0):
    where = (
        f"for nn.Sequential({', '.join(layers)}) of width {width}, weight_decay {weight_decay:g} "
        f"(seed {seed})"
    )
    return Case(where, (tuple(layers), width, weight_decay, seed))


def _groups_named():
    return [
        _groups_case(["Linear", "LayerNorm", "Linear"], seed=0),
        _groups_case(["Conv1d", "BatchNorm1d", "Linear without bias"], seed=1),
        _groups_case(["attention block"], seed=2),
        _groups_case(["tied embedding and head"], seed=3),
        _groups_case(["Embedding", "GroupNorm", "RMSNorm", "Linear"], weight_decay=0.05, seed=4),
        _groups_case(["Linear without bias"], seed=5),  # nothing to leave out
    ]


@st.composite
def _groups_generated(draw):
    layers = draw(st.lists(st.sampled_from(sorted(LAYERS)), min_size=1, max_size=5))
    return _groups_case(
        layers,
        draw(st.integers(2, 6)),
        draw(st.sampled_from([0.1, 0.01, 0.05])),
        draw(st.integers(0, 1000)),
    )


def _decays(answer):
    """Each name's weight decays in the groups, in order."""
    found: dict[str, list] = {}
    for held, decay in answer:
        for name in held:
            found.setdefault(name, []).append(decay)
    return found


def _groups_compare(case, got, expected):
    (answer, every), (wanted, _) = got, expected
    _, _, weight_decay, _ = case.args
    if not isinstance(answer, list):
        raise Mismatch(f"{case.where} your param_groups returned {answer}; expected a list of dicts")
    mine, theirs = _decays(answer), _decays(wanted)
    for name in mine:
        if name not in theirs:
            raise Mismatch(f"{case.where} your groups hold {name}; give the optimizer the model's parameters")
    for name in every:
        decays = mine.get(name, [])
        if not decays:
            raise Mismatch(f"{case.where} your groups leave out {name}: the optimizer would never update it")
        if len(decays) > 1:
            raise Mismatch(
                f"{case.where} your groups hold {name} {len(decays)} times; a tied weight is one "
                "parameter, and torch.optim refuses one in two groups and warns of one twice in a group"
            )
        if decays[0] is None:
            raise Mismatch(
                f"{case.where} the group of {name} sets no weight_decay, so it takes the optimizer's "
                "default; set it in every group"
            )
        (expected_decay,) = theirs[name]
        if abs(decays[0] - expected_decay) > 1e-12:
            kind = "a bias or a normalization layer's" if expected_decay == 0 else "a weight that decays"
            raise Mismatch(
                f"{case.where} your groups give {name} ({kind}) weight_decay {decays[0]:g}; "
                f"expected {expected_decay:g}"
            )


NO_DECAY_PARAM_GROUPS = Drill(
    id="no_decay_param_groups",
    title="Parameter groups without weight decay on biases and norms",
    page=PAGE_CONTAINERS,
    question="parameter-groups",
    difficulty="easy",
    function="param_groups",
    statement=(
        "Write `param_groups(model, weight_decay) -> groups`, the list of parameter groups to give "
        "`torch.optim.AdamW(groups, lr=...)`: dicts with `params` and `weight_decay`. Every "
        "parameter of `model` is in exactly one group; biases (a parameter a module registers "
        "under a name ending in `bias`, `in_proj_bias` too) and every parameter of a normalization "
        "layer (`nn.LayerNorm`, `nn.RMSNorm`, `nn.GroupNorm`, the `BatchNorm`s) get `weight_decay=0.0`; "
        "all others, embeddings and a module's own learned vectors included, get `weight_decay`. "
        "The models are `nn.Sequential`s, so a parameter's name is `0.weight`, `1.bias`: what it is "
        "comes from its module, and a weight tied between two modules is one parameter."
    ),
    hints=(
        "Walk `model.modules()` and each one's `named_parameters(recurse=False)`: the module says "
        "whether it is a normalization (`isinstance(module, (nn.LayerNorm, ...))`), the local name "
        "whether it is a bias.",
        "`model.named_parameters()` yields a tied weight once; walking modules meets it once per "
        "module that holds it. Keep a `set` of the `id`s already placed.",
        "`p.ndim < 2` is the shortcut many codebases take; it also spares a 1-d parameter that is "
        "neither a bias nor a norm's, such as a learned scale vector, which the task decays.",
    ),
    reference=_no_decay_param_groups,
    named_cases=_groups_named,
    generated=_groups_generated(),
    compare=_groups_compare,
    adapter=_grouped_by,
)


# --- jacobian_by_vjp ----------------------------------------------------------------------------

JACOBIAN_RTOL, JACOBIAN_ATOL = 1e-5, 1e-6
_AUTOGRAD = os.path.dirname(torch.autograd.__file__)

FUNCTIONS = {
    "tanh(w @ x)": lambda x, w: torch.tanh(w @ x),
    "softmax(x)": lambda x, w: torch.softmax(x, dim=0),
    "x * x.sum()": lambda x, w: x * x.sum(),
    "cumprod(x)": lambda x, w: torch.cumprod(x, dim=0),
    "w @ x**2": lambda x, w: w @ x**2,
}


def _jacobian(f, x):
    from torch.autograd.functional import jacobian

    return jacobian(f, x)


def _of_function(function):
    """Gives the function the case's f, built from its name and weight, in the runner."""

    def call(name, x, w):
        return function(lambda t: FUNCTIONS[name](t, w), x)

    return call


def _jacobian_case(name, n, m, dtype=torch.float64, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, n, dtype=dtype)
    if how == "x a strided slice" and n == 1:
        how = ""  # one element: no stride to speak of
    if how == "x a strided slice":
        x = torch.stack([x, torch.zeros_like(x)], dim=1)[:, 0]
    if how == "x requires grad":
        x.requires_grad_()
    m = m if "w" in name else n
    w = _random(generator, m, n, dtype=dtype, scale=n**-0.5)
    where = (
        f"for f(x) = {name}, x of shape ({n},), {m} outputs ({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (name, x, w))


def _jacobian_named():
    return [
        _jacobian_case("tanh(w @ x)", 3, 2, seed=0),
        _jacobian_case("softmax(x)", 4, 4, seed=1),
        _jacobian_case("x * x.sum()", 3, 3, seed=2),
        _jacobian_case("cumprod(x)", 5, 5, seed=3, how="x a strided slice"),
        _jacobian_case("w @ x**2", 2, 4, dtype=torch.float32, seed=4, how="x requires grad"),
        _jacobian_case("tanh(w @ x)", 1, 1, seed=5),  # one input, one output
    ]


@st.composite
def _jacobian_generated(draw):
    return _jacobian_case(
        draw(st.sampled_from(sorted(FUNCTIONS))),
        draw(st.integers(1, 6)),
        draw(st.integers(1, 6)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "x a strided slice", "x requires grad"])),
    )


def _jacobian_compare(case, got, expected):
    if (
        isinstance(got, torch.Tensor)
        and got.dim() == 2
        and got.shape == expected.shape[::-1] != expected.shape
    ):
        raise Mismatch(
            f"{case.where} your jacobian has shape {shape_text(got.shape)}; expected "
            f"{shape_text(expected.shape)}: row i is the gradient of output i, (outputs, inputs)"
        )
    expect_tensor(case, "jacobian", got, expected, rtol=JACOBIAN_RTOL, atol=JACOBIAN_ATOL)


JACOBIAN_BY_VJP = Drill(
    id="jacobian_by_vjp",
    title="A Jacobian from one vector-Jacobian product per output",
    page="week-1/autograd-graph-and-leaves",
    question="non-scalar-backward",
    difficulty="easy",
    function="jacobian",
    statement=(
        "Write `jacobian(f, x) -> J`: `f` maps a vector `x` of shape `(n,)` to a vector of shape "
        "`(m,)`; return its Jacobian at `x`, `J[i, j] = d f(x)[i] / d x[j]`, shape `(m, n)`, in "
        "`x`'s dtype. Build it from reverse-mode autograd alone, one vector-Jacobian product per "
        "output: the gradient of `f(x)` against a one-hot `gradient` vector is one row. Leave `x` "
        "as it was (its `requires_grad` and `.grad` too). Not with `torch.autograd.functional` or "
        "`torch.func`."
    ),
    hints=(
        "Work on `x.detach().requires_grad_()`, evaluate `y = f(x)` once, then for each `i` ask for "
        "`torch.autograd.grad(y, x, grad_outputs=e_i, retain_graph=True)` with `e_i` one-hot.",
        "`y.backward(e_i)` works too, but it adds into `x.grad`: read the row, then set `x.grad = "
        "None` before the next one, or every row holds the sum of those before it.",
        "Row `i` is output `i`'s gradient: stack the rows into `(m, n)`, not `(n, m)`.",
    ),
    reference=_jacobian,
    named_cases=_jacobian_named,
    generated=_jacobian_generated(),
    compare=_jacobian_compare,
    adapter=_of_function,
    forbidden=Forbidden(
        files=(
            os.path.join(_AUTOGRAD, "functional.py"),
            os.path.join(os.path.dirname(torch.__file__), "_functorch", "eager_transforms.py"),
        ),
        instead="the drill asks you to build it from one backward per output",
    ),
    tolerance=f"rtol={JACOBIAN_RTOL:g}, atol={JACOBIAN_ATOL:g}",
)


# In the order of the pages.
DRILLS = [
    JACOBIAN_BY_VJP,
    CONV2D_BY_UNFOLD,
    LSTM_CELL_BY_HAND,
    BATCH_NORM_FORWARD,
    INVERTED_DROPOUT,
    EMA_OF_WEIGHTS,
    NO_DECAY_PARAM_GROUPS,
]
