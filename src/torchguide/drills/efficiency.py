"""The drills of efficient fine-tuning and inference: a LoRA linear layer over frozen base weights,
symmetric per-channel int8 quantization with its error bound, and FlashAttention's tiled online
softmax, checked against `F.scaled_dot_product_attention` while no score tensor as large as the
whole L×L matrix is ever made; a mixture-of-experts router with its balancing loss, the DPO loss,
and Week 1's gradient checkpointing of a block by hand, which may keep nothing but its inputs."""

from __future__ import annotations

import torch
import torch.nn.functional as F
import torch.utils.checkpoint
from hypothesis import strategies as st
from torch.overrides import TorchFunctionMode

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text
from torchguide.drills.layers import _random
from torchguide.drills.transformer_blocks import (
    ATTENTION_FORBIDDEN,
    _expect_output_and_gradients,
    _permuted,
    _with_gradients,
)

PAGE = "week-3/efficiency-and-fine-tuning"
PAGE_EXPERTS = "week-3/experts-and-preference-tuning"


# --- lora_linear --------------------------------------------------------------------------------

LORA_RTOL, LORA_ATOL = 1e-4, 1e-5


def _lora_linear(x, weight, bias, lora_a, lora_b, alpha):
    scale = alpha / lora_a.shape[0]
    return F.linear(x, weight, bias) + scale * F.linear(F.linear(x, lora_a), lora_b)


def _lora_case(leading, d_in, d_out, rank, alpha, with_bias=True, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *leading, d_in, dtype=dtype)
    if how == "transposed" and len(leading) >= 1:
        x = _permuted(x, (*range(len(leading) - 1), len(leading), len(leading) - 1))
    weight = _random(generator, d_out, d_in, dtype=dtype, scale=d_in**-0.5)
    if how == "weight stored transposed":
        weight = _permuted(weight, (1, 0))
    bias = _random(generator, d_out, dtype=dtype) if with_bias else None
    lora_a = _random(generator, rank, d_in, dtype=dtype, scale=d_in**-0.5)
    # B starts at zero in training; a trained B is not, or the update would be invisible.
    lora_b = _random(generator, d_out, rank, dtype=dtype, scale=0.5)
    for t in (x, lora_a, lora_b):
        t.requires_grad_()
    grad_output = _random(generator, *leading, d_out, dtype=dtype)
    where = (
        f"for x {shape_text(x.shape)}, a frozen weight ({d_out}, {d_in}) "
        f"{'with' if with_bias else 'without'} bias, rank {rank}, alpha {alpha:g} ({dtype}, seed {seed}"
        f"{', ' + how if how else ''})"
    )
    return Case(where, (x, weight, bias, lora_a, lora_b, alpha, grad_output))


def _lora_named():
    return [
        _lora_case((2,), 4, 3, 1, 1.0, seed=0),
        _lora_case((1, 3), 5, 6, 2, 16.0, seed=1),  # a batch of one; alpha / r = 8
        _lora_case((2, 3), 6, 4, 4, 8.0, with_bias=False, seed=2),
        _lora_case((3, 2), 4, 5, 3, 6.0, seed=3, how="transposed"),
        _lora_case((2,), 5, 3, 2, 4.0, seed=4, how="weight stored transposed"),
        _lora_case((), 3, 7, 5, 10.0, dtype=torch.float64, seed=5),  # rank above d_in
    ]


@st.composite
def _lora_generated(draw):
    return _lora_case(
        tuple(draw(st.lists(st.integers(1, 4), max_size=2))),
        draw(st.integers(1, 9)),
        draw(st.integers(1, 9)),
        draw(st.integers(1, 6)),
        draw(st.sampled_from([1.0, 2.0, 8.0, 16.0, 32.0])),
        with_bias=draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "transposed", "weight stored transposed"])),
    )


def _lora_compare(case, got, expected):
    _expect_output_and_gradients(case, got, expected, LORA_RTOL, LORA_ATOL)


LORA_LINEAR = Drill(
    id="lora_linear",
    title="A LoRA linear layer over a frozen weight",
    page=PAGE,
    question="lora",
    difficulty="easy",
    function="lora_linear",
    statement=(
        "Write `lora_linear(x, weight, bias, lora_a, lora_b, alpha) -> y`, the forward of a linear "
        "layer fine-tuned with LoRA: `x` is `(..., D_in)`; `weight` `(D_out, D_in)` and `bias` "
        "`(D_out,)` or `None` are the pretrained layer's, frozen (`requires_grad=False`); `lora_a` "
        "`(r, D_in)` and `lora_b` `(D_out, r)` are the trainable low-rank factors. Return "
        "`x W^T + b + (alpha / r) · x A^T B^T`, `(..., D_out)`, without touching the frozen weight. "
        "The checker compares the output and the "
        "gradients of `x`, `lora_a` and `lora_b`, and that `weight` and `bias` are left as they were, "
        "frozen and without a gradient."
    ),
    hints=(
        "Two small products, not one big one: `(x @ lora_a.T) @ lora_b.T` goes through the rank-`r` "
        "bottleneck, `(..., r)`, then up to `D_out`.",
        "The scale is `alpha / r`, with `r = lora_a.shape[0]`: it keeps the update's size the same "
        "when the rank changes, so `alpha` alone over-scales every rank but 1.",
        "Add the update to the base layer's output, `F.linear(x, weight, bias)`; adding it into "
        "`weight` in place (`weight += ...`) is merging, which changes the frozen layer and, done on "
        "every call, adds the update again and again.",
    ),
    reference=_lora_linear,
    named_cases=_lora_named,
    generated=_lora_generated(),
    compare=_lora_compare,
    adapter=_with_gradients("x", "weight", "bias", "lora_a", "lora_b"),
    tolerance=f"rtol={LORA_RTOL:g}, atol={LORA_ATOL:g}, output and gradients",
)


# --- int8_per_channel ---------------------------------------------------------------------------

SCALE_RTOL = 1e-6
QMAX = 127


def _int8_per_channel(w, axis):
    other = [d for d in range(w.dim()) if d != axis % w.dim()]
    amax = w.abs().amax(dim=other, keepdim=True) if other else w.abs()
    scale = torch.where(amax > 0, amax / QMAX, torch.ones_like(amax))
    q = torch.round(w / scale).clamp(-QMAX, QMAX).to(torch.int8)
    return q, scale.flatten()


def _int8_case(shape, axis, dtype=torch.float32, seed=0, scale=1.0, how=""):
    generator = torch.Generator().manual_seed(seed)
    w = _random(generator, *shape, dtype=dtype, scale=scale)
    if how == "a row of zeros":
        w.select(axis, 0).zero_()
    elif how == "one outlier":
        w.view(-1)[0] = 40.0 * scale
    elif how == "transposed" and len(shape) >= 2:
        w = _permuted(w, tuple(reversed(range(len(shape)))))
    where = (
        f"for w {shape_text(w.shape)}, channels along axis {axis} ({dtype}, seed {seed}"
        f"{', ' + how if how else ''})"
    )
    return Case(where, (w, axis))


def _int8_named():
    return [
        _int8_case((3, 4), 0, seed=0),
        _int8_case((1, 5), 0, seed=1, how="a batch of one"),
        _int8_case((4, 3), 1, seed=2),  # channels along the columns
        _int8_case((3, 4), 0, seed=3, how="a row of zeros"),
        _int8_case((5, 6), 0, seed=4, how="one outlier"),
        _int8_case((4, 5), 0, seed=5, how="transposed"),
        _int8_case((4, 2, 3, 3), 0, dtype=torch.float64, seed=6, scale=0.02),  # a conv weight
        _int8_case((6,), 0, seed=7, scale=1e3),  # one value per channel
    ]


@st.composite
def _int8_generated(draw):
    shape = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=4)))
    return _int8_case(
        shape,
        draw(st.integers(-len(shape), len(shape) - 1)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        scale=draw(st.sampled_from([1e-3, 0.05, 1.0, 30.0])),
        how=draw(st.sampled_from(["", "transposed", "one outlier", "a row of zeros"])),
    )


def _int8_compare(case, got, expected):
    w, axis = case.args
    if not isinstance(got, tuple | list) or len(got) != 2:
        raise Mismatch(
            f"{case.where} your quantize returned {type(got).__name__}; expected a tuple (q, scale)"
        )
    q, scale = got
    expect_tensor(case, "scale", scale, expected[1], rtol=SCALE_RTOL)
    if isinstance(q, torch.Tensor) and q.dtype == torch.int8 and bool((q == -128).any()):
        raise Mismatch(f"{case.where} your q holds -128: a symmetric int8 range is [-127, 127]")
    expect_tensor(case, "q", q, expected[0])
    # The bound the task promises, on the reader's own q and scale.
    shape = [1] * w.dim()
    shape[axis % w.dim()] = -1
    steps = scale.view(shape).to(torch.float64)
    error = (q.to(torch.float64) * steps - w.to(torch.float64)).abs()
    slack = 1e-6 * w.abs().to(torch.float64)
    if bool((error > steps / 2 + slack).any()):
        raise Mismatch(f"{case.where} your dequantized weight is further than scale/2 from w")


INT8_PER_CHANNEL = Drill(
    id="int8_per_channel",
    title="Symmetric per-channel int8 quantization, within half a step",
    page=PAGE,
    question="quantization-int8",
    difficulty="easy",
    function="quantize",
    statement=(
        "Write `quantize(w, axis) -> (q, scale)`, symmetric per-channel int8 quantization of a "
        "weight: each slice of `w` along `axis` (an output channel: `axis=0` for a linear or conv "
        "weight; negative counts from the end) gets its own `scale = max|w| / 127` over that channel, "
        "float like `w`, shape `(w.shape[axis],)`; a channel of zeros gets scale `1.0`. "
        "`q = round(w / scale)` (`torch.round`), clamped to `[-127, 127]`, as `torch.int8`, shaped "
        "like `w`. No zero point: 0.0 maps to 0. Dequantizing, `q * scale`, is then within `scale / 2` "
        "of `w` everywhere. The checker compares `scale`, `q` exactly, and that bound on your own "
        "`q` and `scale`."
    ),
    hints=(
        "Reduce over every dimension but `axis`: `w.abs().amax(dim=[d for d in range(w.dim()) if d "
        "!= axis % w.dim()], keepdim=True)`, so the scale broadcasts back against `w`. One `amax` "
        "over the whole tensor is per-tensor quantization, and an outlier then costs every channel.",
        "Round, then cast: `.to(torch.int8)` alone truncates toward zero, up to a whole step off.",
        "127, not 128: the symmetric range leaves -128 out, so `-max|w|` maps to -127, and `/ 255` "
        "is the step of an asymmetric (uint8 with zero point) scheme.",
    ),
    reference=_int8_per_channel,
    named_cases=_int8_named,
    generated=_int8_generated(),
    compare=_int8_compare,
    tolerance=f"scale rtol={SCALE_RTOL:g}, q exact, |q·scale - w| ≤ scale/2",
)


# --- flash_attention_forward --------------------------------------------------------------------

FLASH_RTOL, FLASH_ATOL = 1e-4, 1e-5


def _flash_reference(q, k, v, causal, block):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


class _LargestTensor(TorchFunctionMode):
    """The largest number of elements any torch call returned: what an L×L score tensor shows up as.
    A function mode, not a dispatch mode: the latter's first use imports a second of the compiler."""

    def __init__(self):
        super().__init__()
        self.largest = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, tuple | list) else (out,):
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.numel())
        return out


def _flash_budget(q, k, v, block):
    """Any tensor the size of an input or output, or of one tile of scores, but not the whole matrix."""
    *lead, lq, _ = q.shape
    heads = 1
    for n in lead:
        heads *= n
    return max(q.numel(), k.numel(), v.numel(), heads * lq * v.shape[-1], heads * lq * block)


def _flash_adapter(function):
    forward = _with_gradients("q", "k", "v")

    def call(q, k, v, causal, block, grad_output):
        mode = _LargestTensor()

        def watched(*args):
            with mode:
                return function(*args)

        answer = forward(watched)(q, k, v, causal, block, grad_output)
        answer["largest"] = mode.largest
        return answer

    return call


def _flash_case(batch, heads, lq, lk, width, value_width, block, causal, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    q = _random(generator, batch, heads, lq, width, dtype=dtype, scale=2.0)
    k = _random(generator, batch, heads, lk, width, dtype=dtype, scale=2.0)
    v = _random(generator, batch, heads, lk, value_width, dtype=dtype)
    if how == "tokens before heads":
        q, k, v = (_permuted(t, (0, 2, 1, 3)) for t in (q, k, v))
    for t in (q, k, v):
        t.requires_grad_()
    grad_output = _random(generator, batch, heads, lq, value_width, dtype=dtype)
    where = (
        f"for q {shape_text(q.shape)}, k {shape_text(k.shape)}, v {shape_text(v.shape)}, blocks of {block} "
        f"key{'' if block == 1 else 's'} ({'causal' if causal else 'no mask'}, {dtype}, seed {seed}"
        f"{', ' + how if how else ''})"
    )
    return Case(where, (q, k, v, causal, block, grad_output))


def _flash_named():
    return [
        _flash_case(1, 1, 6, 6, 2, 2, 2, False, seed=0),
        _flash_case(2, 2, 7, 7, 3, 2, 3, False, seed=1),  # 7 keys in blocks of 3: a short last block
        _flash_case(1, 2, 9, 9, 2, 3, 4, True, seed=2),
        _flash_case(1, 1, 1, 8, 2, 2, 3, False, seed=3, how="a single query"),
        _flash_case(2, 1, 8, 5, 2, 2, 2, False, seed=4, how="tokens before heads"),
        _flash_case(1, 2, 7, 7, 3, 3, 1, True, seed=5),  # one key at a time
        _flash_case(1, 1, 6, 6, 4, 2, 8, True, dtype=torch.float64, seed=6, how="one block holds every key"),
    ]


@st.composite
def _flash_generated(draw):
    length = draw(st.integers(1, 10))
    causal = draw(st.booleans())
    return _flash_case(
        draw(st.integers(1, 2)),
        draw(st.integers(1, 2)),
        length,
        length if causal else draw(st.integers(1, 10)),
        draw(st.integers(1, 4)),
        draw(st.integers(1, 4)),
        draw(st.integers(2, 5)),
        causal,
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "tokens before heads"])),
    )


def _flash_compare(case, got, expected):
    q, k, v, _, block, _ = case.args
    _expect_output_and_gradients(case, got, expected, FLASH_RTOL, FLASH_ATOL)
    budget = _flash_budget(q, k, v, block)
    if got.get("largest", 0) > budget:
        full = q.shape[-2] * k.shape[-2] * (q.numel() // (q.shape[-2] * q.shape[-1]))
        raise Mismatch(
            f"{case.where} your attention made a tensor of {got['largest']} elements, more than one "
            f"block of scores and the inputs allow ({budget}); all the scores at once are {full}: "
            f"compute them a block of {block} at a time"
        )


FLASH_ATTENTION_FORWARD = Drill(
    id="flash_attention_forward",
    title="FlashAttention's tiled online softmax",
    page=PAGE,
    question="sdpa-backends",
    difficulty="hard",
    function="flash_attention",
    statement=(
        "Write `flash_attention(q, k, v, causal, block) -> output`, equal to "
        "`F.scaled_dot_product_attention(q, k, v, is_causal=causal)` (scale `1/sqrt(E)`), computed as "
        "FlashAttention does: `q` is `(B, H, Lq, E)`, `k` `(B, H, Lk, E)`, `v` `(B, H, Lk, Ev)`. "
        "Walk over the keys `block` at a time (the last block may be shorter), and keep for every "
        "query a running maximum `m`, a running sum `l` of `exp(score - m)`, and a running output; "
        "when a block raises the maximum, rescale what you kept by `exp(m_old - m_new)`; divide by "
        "`l` at the end. `causal` masks key `j > i` for query `i` (then `Lq == Lk`). Never make a "
        "tensor holding the scores of all `Lk` keys at once: the checker watches every tensor your "
        "function makes and fails one larger than the inputs, the output and one `(B, H, Lq, block)` "
        "tile. It compares the output and the gradients of `q`, `k` and `v`."
    ),
    hints=(
        "Per block `j:j+block`: `s = q @ k_blk.transpose(-2, -1) * E**-0.5`, `(B, H, Lq, block)`; "
        "`m_new = maximum(m, s.amax(-1, keepdim=True))`; `p = exp(s - m_new)`; "
        "`l = l * exp(m - m_new) + p.sum(-1, keepdim=True)`; `acc = acc * exp(m - m_new) + p @ v_blk`.",
        "Start with `m = -inf`, `l = 0`, `acc = 0`: the first block's rescale `exp(-inf - m_new)` "
        "is 0. Build the causal mask per tile too, `(Lq, block)`: `torch.arange(j, j + block)[None, "
        ":] > torch.arange(Lq)[:, None]`, scores `-inf` there; a whole `(Lq, Lk)` mask is as large as "
        "the scores it avoids.",
        "Forgetting to rescale `acc` (or `l`) when the maximum grows leaves earlier blocks weighted "
        "by a stale maximum; dividing each block by its own sum is a softmax per block, not over all "
        "keys.",
    ),
    reference=_flash_reference,
    named_cases=_flash_named,
    generated=_flash_generated(),
    compare=_flash_compare,
    adapter=_flash_adapter,
    forbidden=Forbidden(
        torch_functions=ATTENTION_FORBIDDEN,
        instead="the drill asks you to write the attention block by block",
    ),
    tolerance=f"rtol={FLASH_RTOL:g}, atol={FLASH_ATOL:g}, output and gradients; no tensor past one tile",
)


# --- moe_top_k_router ---------------------------------------------------------------------------

ROUTER_RTOL, ROUTER_ATOL = 1e-5, 1e-6


def _moe_router(x, w_router, k):
    probs = F.linear(x, w_router).softmax(dim=-1)
    top, indices = probs.topk(k, dim=-1)
    weights = top / top.sum(dim=-1, keepdim=True)
    experts = w_router.shape[0]
    chosen = F.one_hot(indices, experts).sum(dim=-2).to(probs.dtype)  # (T, E): 1 per assignment
    fraction = chosen.mean(dim=0) / k  # of the T·k assignments, per expert; no gradient
    aux = experts * (fraction * probs.mean(dim=0)).sum()
    return weights, indices, aux


def _router_adapter(function):
    """Calls the router, then backpropagates random gradients of its weights and of its loss into
    ``x`` and ``w_router``, as training backpropagates both."""

    def call(x, w_router, k, grad_weights, grad_aux):
        answer = function(x, w_router, k)
        if not isinstance(answer, tuple | list) or len(answer) != 3:
            return {"returned": type(answer).__name__}
        weights, indices, aux = answer
        result = {
            "weights": weights.detach() if isinstance(weights, torch.Tensor) else weights,
            "indices": indices,
            "aux": aux.detach() if isinstance(aux, torch.Tensor) else aux,
            "grads": {},
        }
        if not all(isinstance(t, torch.Tensor) for t in answer) or weights.shape != grad_weights.shape:
            return result
        if not (weights.requires_grad and aux.requires_grad):
            result["detached"] = "weights" if not weights.requires_grad else "aux_loss"
            return result
        total = (weights * grad_weights).sum() + aux * grad_aux
        grads = torch.autograd.grad(total, [x, w_router], allow_unused=True)
        result["grads"] = dict(zip(("x", "w_router"), grads, strict=True))
        return result

    return call


def _router_case(tokens, width, experts, k, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, tokens, width, dtype=dtype)
    if how == "transposed":
        x = _permuted(x, (1, 0))
    w_router = _random(generator, experts, width, dtype=dtype, scale=2 * width**-0.5)
    x.requires_grad_()
    w_router.requires_grad_()
    grad_weights = _random(generator, tokens, k, dtype=dtype)
    grad_aux = _random(generator, dtype=dtype)
    where = (
        f"for {tokens} token{'' if tokens == 1 else 's'} of width {width}, {experts} experts, top-{k} "
        f"({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (x, w_router, k, grad_weights, grad_aux))


def _router_named():
    return [
        _router_case(6, 4, 4, 1, seed=0),  # Switch: top-1
        _router_case(8, 5, 4, 2, seed=1),  # Mixtral: 8 experts, top-2, here 4
        _router_case(1, 3, 5, 2, seed=2, how="a batch of one"),
        _router_case(7, 6, 3, 3, seed=3, how="every expert chosen"),
        _router_case(5, 4, 6, 2, seed=4, how="transposed"),
        _router_case(9, 3, 1, 1, seed=5, how="a single expert"),
        _router_case(6, 4, 8, 3, dtype=torch.float64, seed=6),
    ]


@st.composite
def _router_generated(draw):
    experts = draw(st.integers(1, 8))
    return _router_case(
        draw(st.integers(1, 12)),
        draw(st.integers(1, 8)),
        experts,
        draw(st.integers(1, min(experts, 3))),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "transposed"])),
    )


def _router_compare(case, got, expected):
    if "returned" in got:
        raise Mismatch(
            f"{case.where} your route returned {got['returned']}; expected a tuple "
            "(weights, indices, aux_loss)"
        )
    expect_tensor(case, "indices", got["indices"], expected["indices"])
    expect_tensor(case, "weights", got["weights"], expected["weights"], rtol=ROUTER_RTOL, atol=ROUTER_ATOL)
    expect_tensor(case, "aux_loss", got["aux"], expected["aux"], rtol=ROUTER_RTOL, atol=ROUTER_ATOL)
    if got.get("detached"):
        raise Mismatch(f"{case.where} your {got['detached']} has no gradient path to the router's weight")
    for name, wanted in expected["grads"].items():
        mine = got["grads"].get(name)
        if mine is None:
            raise Mismatch(f"{case.where} no gradient reaches {name} through your outputs; expected one")
        expect_tensor(
            case, f"gradient for {name}", mine, wanted, rtol=ROUTER_RTOL * 10, atol=ROUTER_ATOL * 10
        )


MOE_TOP_K_ROUTER = Drill(
    id="moe_top_k_router",
    title="A mixture-of-experts top-k router with its load-balancing loss",
    page=PAGE_EXPERTS,
    question="moe-routing",
    difficulty="medium",
    function="route",
    statement=(
        "Write `route(x, w_router, k) -> (weights, indices, aux_loss)`, the router of a "
        "mixture-of-experts layer: `x` is `(T, D)`, one row per token; `w_router` `(E, D)`, one row "
        "per expert. The router's probabilities are `softmax(x @ w_router.T)` over the `E` experts; "
        "each token goes to its `k` most probable experts, `indices` `(T, k)` int64 in descending "
        "order of probability, with `weights` `(T, k)` their probabilities renormalized to sum to 1 "
        "per token (as Mixtral does). The load-balancing loss is Switch Transformer's, "
        "`aux_loss = E · Σ_e f_e · P_e`: `f_e` the fraction of the `T·k` assignments that go to "
        "expert `e` (a count: no gradient), `P_e` the mean probability the router gives `e` over "
        "the tokens; it is 1 when both are uniform. The checker compares the three and the gradients "
        "of `x` and `w_router` through the weights and the loss."
    ),
    hints=(
        "`probs.topk(k, dim=-1)` gives the values and indices, sorted; dividing the values by their "
        "sum renormalizes, which is also the softmax of the top-k logits alone.",
        "Count the assignments with `F.one_hot(indices, E)`, `(T, k, E)`: summed over tokens and the "
        "`k` slots, divided by `T·k`, it is `f`. It is made of integers: the gradient of the loss "
        "reaches the router through `P = probs.mean(dim=0)` only.",
        "Using `P` in place of `f` (`E · Σ P_e²`) gives another loss, and one whose minimum does not "
        "ask the router's choices to balance; forgetting the factor `E` makes it shrink as experts "
        "are added.",
    ),
    reference=_moe_router,
    named_cases=_router_named,
    generated=_router_generated(),
    compare=_router_compare,
    adapter=_router_adapter,
    tolerance=(
        f"indices exact; weights and loss rtol={ROUTER_RTOL:g}, atol={ROUTER_ATOL:g}; gradients "
        f"rtol={ROUTER_RTOL * 10:g}, atol={ROUTER_ATOL * 10:g}"
    ),
)


# --- dpo_loss -----------------------------------------------------------------------------------

DPO_RTOL, DPO_ATOL = 1e-5, 1e-6


def _dpo_loss(policy_chosen, policy_rejected, reference_chosen, reference_rejected, beta):
    margin = (policy_chosen - reference_chosen) - (policy_rejected - reference_rejected)
    return -F.logsigmoid(beta * margin).mean()


def _dpo_case(pairs, beta, dtype=torch.float32, seed=0, scale=5.0, how=""):
    generator = torch.Generator().manual_seed(seed)
    logps = [-(_random(generator, pairs, dtype=dtype, scale=scale).abs() + 1.0) * 10 for _ in range(4)]
    if how == "a confident policy":  # wrong by a margin of thousands: the sigmoid rounds to 0
        logps[0] = logps[0] - 4000.0 / beta
    elif how == "a strided batch":
        logps = [torch.stack([t, t + 1.0], dim=1)[:, 0] for t in logps]
    policy_chosen, policy_rejected, reference_chosen, reference_rejected = logps
    policy_chosen.requires_grad_()
    policy_rejected.requires_grad_()
    grad_output = _random(generator, dtype=dtype)
    where = (
        f"for {pairs} pair{'' if pairs == 1 else 's'}, beta {beta:g} ({dtype}, seed {seed}"
        f"{', ' + how if how else ''})"
    )
    return Case(where, (*logps, beta, grad_output))


def _dpo_named():
    return [
        _dpo_case(4, 0.1, seed=0),
        _dpo_case(1, 0.5, seed=1, how="a batch of one"),
        _dpo_case(3, 0.1, seed=2, how="a confident policy"),
        _dpo_case(5, 1.0, seed=3, how="a strided batch"),
        _dpo_case(6, 0.05, dtype=torch.float64, seed=4),
    ]


@st.composite
def _dpo_generated(draw):
    return _dpo_case(
        draw(st.integers(1, 16)),
        draw(st.sampled_from([0.01, 0.1, 0.5, 2.0])),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        scale=draw(st.sampled_from([0.1, 5.0, 50.0])),
        how=draw(st.sampled_from(["", "a strided batch", "a confident policy"])),
    )


def _dpo_compare(case, got, expected):
    _expect_output_and_gradients(case, got, expected, DPO_RTOL, DPO_ATOL, output="loss")


DPO_LOSS = Drill(
    id="dpo_loss",
    title="The DPO loss, stable for confident policies",
    page=PAGE_EXPERTS,
    question="dpo-loss",
    difficulty="easy",
    function="dpo_loss",
    statement=(
        "Write `dpo_loss(policy_chosen, policy_rejected, reference_chosen, reference_rejected, beta) "
        "-> loss`, Direct Preference Optimization's loss: each argument but `beta` is `(N,)`, the "
        "summed log-probability of a chosen or a rejected response under the policy being trained "
        "or under the frozen reference model. The loss is the mean over the `N` pairs of "
        "`-log σ(beta · ((policy_chosen - reference_chosen) - (policy_rejected - "
        "reference_rejected)))`, a scalar. It must stay finite when the margin is in the thousands. "
        "The checker compares the loss and the gradients of the two policy tensors."
    ),
    hints=(
        "The margin is how much more the policy prefers the chosen response than the reference "
        "does: the difference of the two log-ratios `policy - reference`.",
        "`-F.logsigmoid(z)`, not `-torch.log(torch.sigmoid(z))`: for `z` of -100 or less the sigmoid "
        "rounds to 0 in float32 and its log is `-inf`.",
        "`beta` multiplies the margin inside the sigmoid; outside, it would only scale the loss.",
    ),
    reference=_dpo_loss,
    named_cases=_dpo_named,
    generated=_dpo_generated(),
    compare=_dpo_compare,
    adapter=_with_gradients("policy_chosen", "policy_rejected", "reference_chosen", "reference_rejected"),
    tolerance=f"rtol={DPO_RTOL:g}, atol={DPO_ATOL:g}, loss and gradients",
)


# --- checkpointed_block ------------------------------------------------------------------------

PAGE_CHECKPOINTING = "week-1/normalization-and-mixed-precision"
CKPT_RTOL, CKPT_ATOL = 1e-5, 1e-6


def _checkpointed_block(x, w1, w2):
    return F.linear(F.gelu(F.linear(x, w1)), w2)


def _checkpoint_adapter(function):
    """Calls the block and backpropagates, as `_with_gradients` does, and records the shape of each
    tensor autograd saves during the forward that shares no storage with an input: an activation
    kept for the backward. Views of an input (a transposed weight) cost nothing and are allowed."""
    forward = _with_gradients("x", "w1", "w2")

    def call(x, w1, w2, grad_output):
        storages = {t.untyped_storage().data_ptr() for t in (x, w1, w2)}
        kept = []

        def pack(t):
            if t.untyped_storage().data_ptr() not in storages:
                kept.append(tuple(t.shape))
            return t

        def watched(*args):
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                return function(*args)

        answer = forward(watched)(x, w1, w2, grad_output)
        answer["kept"] = kept
        return answer

    return call


def _ckpt_case(leading, width, hidden, out, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *leading, width, dtype=dtype)
    if how == "transposed" and len(leading) >= 1:
        x = _permuted(x, (*range(len(leading) - 1), len(leading), len(leading) - 1))
    w1 = _random(generator, hidden, width, dtype=dtype, scale=width**-0.5)
    w2 = _random(generator, out, hidden, dtype=dtype, scale=hidden**-0.5)
    for t in (x, w1, w2):
        t.requires_grad_()
    grad_output = _random(generator, *leading, out, dtype=dtype)
    where = (
        f"for x {shape_text(x.shape)}, a hidden width of {hidden} and {out} "
        f"output{'' if out == 1 else 's'} ({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (x, w1, w2, grad_output))


def _ckpt_named():
    return [
        _ckpt_case((3,), 4, 8, 4, seed=0),
        _ckpt_case((1, 2), 3, 5, 2, seed=1, how="a batch of one"),
        _ckpt_case((2, 3), 5, 7, 6, seed=2),
        _ckpt_case((3, 2), 4, 6, 3, seed=3, how="transposed"),
        _ckpt_case((), 3, 9, 1, dtype=torch.float64, seed=4),  # one vector
    ]


@st.composite
def _ckpt_generated(draw):
    return _ckpt_case(
        tuple(draw(st.lists(st.integers(1, 4), max_size=2))),
        draw(st.integers(1, 6)),
        draw(st.integers(1, 9)),
        draw(st.integers(1, 6)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "transposed"])),
    )


def _ckpt_compare(case, got, expected):
    _expect_output_and_gradients(case, got, expected, CKPT_RTOL, CKPT_ATOL)
    if got.get("kept"):
        shapes = ", ".join(shape_text(shape) for shape in got["kept"])
        raise Mismatch(
            f"{case.where} your forward keeps tensors for the backward that are not its inputs: "
            f"{shapes}; save x, w1 and w2 only and recompute the rest in backward"
        )


CHECKPOINTED_BLOCK = Drill(
    id="checkpointed_block",
    title="Gradient checkpointing of a block, by hand",
    page=PAGE_CHECKPOINTING,
    question="gradient-checkpointing",
    difficulty="hard",
    function="checkpointed_block",
    statement=(
        "Write `checkpointed_block(x, w1, w2) -> y`, the block `y = gelu(x W1ᵀ) W2ᵀ` (`x` "
        "`(..., D)`, `w1` `(H, D)`, `w2` `(O, H)`, exact GELU), checkpointed as "
        "`torch.utils.checkpoint` does it: the forward keeps nothing for the backward but its inputs, "
        "and the backward runs the block's forward again to get the activations it needs. Write a "
        "`torch.autograd.Function`; `torch.utils.checkpoint` itself is not allowed. The checker "
        "compares the output and the gradients of `x`, `w1` and `w2`, and watches what autograd "
        "saves during your forward (a saved-tensors hook): anything that is not an input, or a view "
        "of one, fails."
    ),
    hints=(
        "In `forward(ctx, x, w1, w2)`, compute under `torch.no_grad()` (a Function's forward already "
        "records nothing) and `ctx.save_for_backward(x, w1, w2)`; call it as `Block.apply(x, w1, w2)`.",
        "In `backward(ctx, grad_y)`: detach the saved inputs, `requires_grad_()` them, recompute the "
        "block under `torch.enable_grad()`, and return `torch.autograd.grad(y, (x, w1, w2), grad_y)`. "
        "Under `no_grad` the recomputed `y` has no graph to differentiate.",
        "Saving the hidden activation (`ctx.save_for_backward(x, h)`) gives the right gradients but "
        "keeps what checkpointing exists to drop; so does writing the block with plain autograd.",
    ),
    reference=_checkpointed_block,
    named_cases=_ckpt_named,
    generated=_ckpt_generated(),
    compare=_ckpt_compare,
    adapter=_checkpoint_adapter,
    forbidden=Forbidden(
        files=(torch.utils.checkpoint.__file__,),
        instead="the drill asks you to write the recomputation yourself",
    ),
    tolerance=f"rtol={CKPT_RTOL:g}, atol={CKPT_ATOL:g}, output and gradients; nothing kept but the inputs",
)


# In the order of the pages.
DRILLS = [
    CHECKPOINTED_BLOCK,
    LORA_LINEAR,
    INT8_PER_CHANNEL,
    FLASH_ATTENTION_FORWARD,
    MOE_TOP_K_ROUTER,
    DPO_LOSS,
]
