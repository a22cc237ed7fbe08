"""The drills of a transformer's blocks, written by hand and checked against torch's own: attention
with grouped-query heads, the padding and causal masks, rotary position embeddings, RMSNorm and the
SwiGLU feed-forward. Where a block has a backward, the checker backpropagates a random gradient
through the reader's function and compares the gradients of every input too."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text
from torchguide.drills.layers import _random, _with_overloads

PAGE_ATTENTION = "week-3/attention-heads-and-masks"
PAGE_POSITIONS = "week-3/positions-and-normalization"

# Named cases draw their tensors under these seeds at least; generated ones under any of 0..1000.
NAMED_SEEDS = (0, 1, 2)


def _with_gradients(*names: str):
    """An adapter: calls the function on the case's inputs, then backpropagates the case's last
    argument, a random ``grad_output``, into each input named in ``names`` (the function's first
    arguments, in order) that requires grad. It runs in the runner, so that a backward that fails
    is reported as the reader's."""

    def adapter(function):
        def call(*args):
            *inputs, grad_output = args
            output = function(*inputs)
            answer = {"output": output.detach() if isinstance(output, torch.Tensor) else output, "grads": {}}
            if not isinstance(output, torch.Tensor) or output.shape != grad_output.shape:
                return answer  # the output's comparison says what is wrong
            wanted = [
                (name, tensor)
                for name, tensor in zip(names, inputs, strict=False)
                if isinstance(tensor, torch.Tensor) and tensor.requires_grad
            ]
            if not wanted:
                return answer
            if not output.requires_grad:
                answer["detached"] = True
                return answer
            grads = torch.autograd.grad(output, [t for _, t in wanted], grad_output, allow_unused=True)
            answer["grads"] = {name: grad for (name, _), grad in zip(wanted, grads, strict=True)}
            return answer

        return call

    return adapter


def _expect_output_and_gradients(
    case, got, expected, rtol, atol, grad_rtol=None, grad_atol=None, output="output"
):
    """The output first, then each input's gradient, at the drill's stated tolerances."""
    if not isinstance(got, dict):  # a reader's function cannot reach here: the adapter made it
        raise Mismatch(f"{case.where} the check could not read your function's answer")
    expect_tensor(case, output, got["output"], expected["output"], rtol=rtol, atol=atol)
    if got.get("detached"):
        raise Mismatch(
            f"{case.where} your {output} has no gradient path to its inputs (detached, or computed "
            "under no_grad): a layer's output must backpropagate into its input and weights"
        )
    for name, wanted in expected["grads"].items():
        mine = got["grads"].get(name)
        if mine is None:
            raise Mismatch(f"{case.where} no gradient reaches {name} through your output; expected one")
        expect_tensor(
            case,
            f"gradient for {name}",
            mine,
            wanted,
            rtol=rtol if grad_rtol is None else grad_rtol,
            atol=atol if grad_atol is None else grad_atol,
        )


def _permuted(t: torch.Tensor, order: tuple[int, ...]) -> torch.Tensor:
    """``t``'s values in a non-contiguous layout: stored in ``order``, _permuted back."""
    inverse = [order.index(i) for i in range(len(order))]
    return t.permute(order).contiguous().permute(inverse)


ATTENTION_FORBIDDEN = _with_overloads(
    "scaled_dot_product_attention",
    "_scaled_dot_product_attention_math",
    "_scaled_dot_product_flash_attention_for_cpu",
    "multi_head_attention_forward",
    "_native_multi_head_attention",
)


# --- grouped_query_attention --------------------------------------------------------------------

GQA_RTOL, GQA_ATOL = 1e-4, 1e-5
HEADS = [(1, 1), (2, 1), (2, 2), (4, 1), (4, 2), (6, 2), (6, 3), (8, 2)]


def _grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal):
    q = F.linear(x, w_q).unflatten(-1, (num_heads, -1)).transpose(1, 2)
    k = F.linear(x, w_k).unflatten(-1, (num_kv_heads, -1)).transpose(1, 2)
    v = F.linear(x, w_v).unflatten(-1, (num_kv_heads, -1)).transpose(1, 2)
    heads = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
    return F.linear(heads.transpose(1, 2).flatten(2), w_o)


def _gqa_case(batch, length, width, heads, head_dim, causal, dtype=torch.float32, seed=0, layout=""):
    num_heads, num_kv_heads = heads
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, batch, length, width, dtype=dtype)
    if layout == "sequence first":  # (L, B, D) storage, as nn.MultiheadAttention's default
        x = _permuted(x, (1, 0, 2))
    scale = width**-0.5
    w_q = _random(generator, num_heads * head_dim, width, dtype=dtype, scale=scale)
    w_k = _random(generator, num_kv_heads * head_dim, width, dtype=dtype, scale=scale)
    w_v = _random(generator, num_kv_heads * head_dim, width, dtype=dtype, scale=scale)
    w_o = _random(generator, width, num_heads * head_dim, dtype=dtype, scale=(num_heads * head_dim) ** -0.5)
    if layout == "transposed weights":  # a weight stored as its transpose: w.t().contiguous().t()
        w_q = _permuted(w_q, (1, 0))
    tensors = [t.requires_grad_() for t in (x, w_q, w_k, w_v, w_o)]
    grad_output = _random(generator, batch, length, width, dtype=dtype)
    where = (
        f"for x {shape_text(x.shape)}, {_count(num_heads, 'query head')} sharing "
        f"{_count(num_kv_heads, 'key/value head')} "
        f"of width {head_dim} ({dtype}, {'causal' if causal else 'no mask'}, seed {seed}"
        f"{', ' + layout if layout else ''})"
    )
    return Case(where, (*tensors, num_heads, num_kv_heads, causal, grad_output))


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _gqa_named():
    return [
        _gqa_case(1, 3, 4, (1, 1), 4, False, seed=0),  # one head: plain attention
        _gqa_case(2, 4, 8, (4, 4), 2, True, seed=1),  # multi-head, no sharing
        _gqa_case(2, 5, 6, (4, 2), 3, True, seed=2),  # two query heads per key/value head
        _gqa_case(1, 3, 5, (6, 3), 2, False, seed=3, layout="sequence first"),
        _gqa_case(2, 1, 4, (4, 1), 2, True, seed=4),  # one token, one key/value head (MQA)
        _gqa_case(1, 4, 6, (2, 1), 5, True, dtype=torch.float64, seed=5, layout="transposed weights"),
    ]


@st.composite
def _gqa_generated(draw):
    return _gqa_case(
        draw(st.integers(1, 3)),
        draw(st.integers(1, 7)),
        draw(st.integers(1, 9)),
        draw(st.sampled_from(HEADS)),
        draw(st.integers(1, 4)),
        draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        layout=draw(st.sampled_from(["", "sequence first", "transposed weights"])),
    )


def _gqa_compare(case, got, expected):
    _expect_output_and_gradients(case, got, expected, GQA_RTOL, GQA_ATOL)


GROUPED_QUERY_ATTENTION = Drill(
    id="grouped_query_attention",
    title="Multi-head attention with grouped-query heads",
    page=PAGE_ATTENTION,
    question="grouped-query-attention",
    difficulty="medium",
    function="grouped_query_attention",
    statement=(
        "Write `grouped_query_attention(x, w_q, w_k, w_v, w_o, num_heads, num_kv_heads, causal) -> y`: "
        "`x` is `(B, L, D)`; the projections are `nn.Linear` weights without bias, `w_q` of shape "
        "`(num_heads * E, D)`, `w_k` and `w_v` of shape `(num_kv_heads * E, D)`, `w_o` of shape "
        "`(D, num_heads * E)`. Project, split the last dimension into heads of width `E`, and let "
        "query head `h` attend to key/value head `h // (num_heads // num_kv_heads)`: each group of "
        "consecutive query heads shares one key/value head (`num_kv_heads` divides `num_heads`; 1 is "
        "multi-query attention). Scores are scaled by `1/sqrt(E)`, causal when `causal`; join the heads "
        "back to `(B, L, num_heads * E)` and project with `w_o`. The result equals "
        "`F.scaled_dot_product_attention(..., enable_gqa=True)` between the projections, and the "
        "checker compares the gradients of `x` and of every weight too. Write the attention from its "
        "matrix products and softmax, not with `F.scaled_dot_product_attention` or "
        "`nn.MultiheadAttention`."
    ),
    hints=(
        "`q = (x @ w_q.T).view(B, L, num_heads, E).transpose(1, 2)` gives `(B, num_heads, L, E)`: "
        "split the features into heads first, then move the head dimension forward; a `view(B, "
        "num_heads, L, E)` straight from `(B, L, num_heads * E)` mixes tokens into heads.",
        "Give each query head its key/value head with `k.repeat_interleave(num_heads // num_kv_heads, "
        "dim=1)`: `[k0, k0, k1, k1]`. `k.repeat(1, group, 1, 1)` gives `[k0, k1, k0, k1]`, the wrong "
        "pairing.",
        "The scale is the head's width, `E = w_q.shape[0] // num_heads`, not the model's `D`. The "
        "causal mask is `torch.ones(L, L, dtype=torch.bool).tril()`, masked scores `-inf` before the "
        "softmax over keys; then `(weights @ v).transpose(1, 2).reshape(B, L, -1) @ w_o.T`.",
    ),
    reference=_grouped_query_attention,
    named_cases=_gqa_named,
    generated=_gqa_generated(),
    compare=_gqa_compare,
    adapter=_with_gradients("x", "w_q", "w_k", "w_v", "w_o"),
    forbidden=Forbidden(
        torch_functions=ATTENTION_FORBIDDEN,
        instead="the drill asks you to write the heads' attention from its matrix products and softmax",
    ),
    tolerance=f"rtol={GQA_RTOL:g}, atol={GQA_ATOL:g}, outputs and gradients",
)


# --- padding_causal_mask ------------------------------------------------------------------------


def _padding_causal_mask(lengths, max_len, left_padded):
    positions = torch.arange(max_len)
    real = positions >= (max_len - lengths)[:, None] if left_padded else positions < lengths[:, None]
    causal = torch.ones(max_len, max_len, dtype=torch.bool).tril()
    return causal & real[:, None, None, :]


def _mask_case(lengths, max_len, left_padded):
    side = "left" if left_padded else "right"
    where = f"for lengths {list(lengths)} padded on the {side} to {max_len}"
    return Case(where, (torch.tensor(lengths, dtype=torch.int64), max_len, left_padded))


def _mask_named():
    return [
        _mask_case([3], 3, False),  # one sequence, no padding: the causal mask alone
        _mask_case([3, 1], 3, False),
        _mask_case([2, 4, 1], 5, False),  # padded past the longest sequence too
        _mask_case([3, 1], 3, True),
        _mask_case([1, 4, 2], 4, True),
        _mask_case([1], 1, False),
    ]


@st.composite
def _mask_generated(draw):
    lengths = draw(st.lists(st.integers(1, 7), min_size=1, max_size=4))
    return _mask_case(lengths, max(lengths) + draw(st.integers(0, 2)), draw(st.booleans()))


def _mask_compare(case, got, expected):
    without_heads = expected.shape[:1] + expected.shape[2:]
    if isinstance(got, torch.Tensor) and got.dim() == 3 and got.shape == without_heads:
        raise Mismatch(
            f"{case.where} your mask has shape {shape_text(got.shape)}; expected "
            f"{shape_text(expected.shape)}, with a head dimension of 1 that broadcasts over the heads"
        )
    expect_tensor(case, "mask", got, expected)


PADDING_CAUSAL_MASK = Drill(
    id="padding_causal_mask",
    title="A padding mask combined with a causal mask",
    page=PAGE_ATTENTION,
    question="padding-and-causal-masks",
    difficulty="easy",
    function="padding_causal_mask",
    statement=(
        "Write `padding_causal_mask(lengths, max_len, left_padded) -> mask`: a batch of `B` "
        "sequences, `lengths` an int64 tensor `(B,)` of their lengths (each at least 1), padded to "
        "`max_len` on the right, or on the left when `left_padded` (as a decoder's prompts are "
        "batched for generation). Return the boolean mask that `F.scaled_dot_product_attention` "
        "takes as `attn_mask`, of shape `(B, 1, max_len, max_len)`: `mask[b, 0, i, j]` is `True` "
        "where query `i` may attend to key `j`, that is `j <= i` and position `j` of sequence `b` "
        "is a real token, not padding."
    ),
    hints=(
        "Two masks, combined with `&`: the causal one, `torch.ones(max_len, max_len, "
        "dtype=torch.bool).tril()`, the same for every sequence, and the padding one, which keys are "
        "real, one row `(max_len,)` per sequence.",
        "Padding masks keys (columns), not queries: `real = torch.arange(max_len) < lengths[:, None]`, "
        "shape `(B, max_len)`, goes to `real[:, None, None, :]`. Left-padded, the real tokens are the "
        "last ones: `torch.arange(max_len) >= (max_len - lengths)[:, None]`.",
        "In SDPA a boolean mask keeps `True`; a float mask is *added* to the scores, so a 0/1 float "
        "mask masks nothing. Keep the dtype `torch.bool`.",
    ),
    reference=_padding_causal_mask,
    named_cases=_mask_named,
    generated=_mask_generated(),
    compare=_mask_compare,
)


# --- rotary_embedding ---------------------------------------------------------------------------

# A float32 angle of position 300 is exact to about 3e-5 rad: the reference computes its angles in
# float64, and a reader's float32 frequencies are as right.
ROPE_RTOL, ROPE_ATOL = 1e-4, 1e-4


def _rotary_embedding(x, positions, base):
    half = x.shape[-1] // 2
    frequencies = base ** (-torch.arange(half, dtype=torch.float64) * 2 / x.shape[-1])
    angles = positions.to(torch.float64)[:, None] * frequencies
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    first, second = x[..., :half], x[..., half:]
    return torch.cat([first * cos - second * sin, second * cos + first * sin], dim=-1)


def _shifted_too(function):
    """Calls the function at the case's positions and at positions all moved by ``shift``, then
    backpropagates the case's ``grad_output`` into x: the relative property is checked on what the
    reader's function returns, the values and gradients against the reference."""
    with_grad = _with_gradients("x")(function)

    def call(x, positions, base, shift, grad_output):
        answer = with_grad(x, positions, base, grad_output)
        shifted = function(x.detach(), positions + shift, base)
        answer["shifted"] = shifted.detach() if isinstance(shifted, torch.Tensor) else shifted
        return answer

    return call


def _rope_case(leading, length, dim, base=10000.0, start=0, shift=7, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *leading, length, dim, dtype=dtype)
    if how == "heads last" and len(leading) == 2:  # (B, L, H, D) storage viewed as (B, H, L, D)
        x = _permuted(x, (0, 2, 1, 3))
    positions = torch.arange(start, start + length)
    if how == "shuffled positions":
        positions = positions[torch.randperm(length, generator=generator)]
    x.requires_grad_()
    grad_output = _random(generator, *x.shape, dtype=dtype)
    where = (
        f"for x {shape_text(x.shape)} at positions {_positions_text(positions)}, base {base:g} "
        f"({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (x, positions, base, shift, grad_output))


def _positions_text(positions):
    values = positions.tolist()
    return str(values) if len(values) <= 6 else f"{values[:3]}...{values[-1]}"


def _rope_named():
    return [
        _rope_case((), 3, 2, seed=0),  # one pair: a plain 2-d rotation
        _rope_case((), 4, 8, seed=1),
        _rope_case((2, 3), 5, 6, seed=2, how="heads last"),
        _rope_case((1,), 3, 4, start=100, shift=-40, seed=3),  # decoding: positions past a prompt
        _rope_case((2,), 4, 4, base=500.0, seed=4, how="shuffled positions"),
        _rope_case((1, 2), 1, 6, start=9, seed=5),  # one token
        _rope_case((2,), 3, 10, dtype=torch.float64, seed=6),
    ]


@st.composite
def _rope_generated(draw):
    return _rope_case(
        tuple(draw(st.lists(st.integers(1, 3), max_size=2))),
        draw(st.integers(1, 7)),
        2 * draw(st.integers(1, 5)),
        base=draw(st.sampled_from([10000.0, 500.0, 1e6])),
        start=draw(st.integers(0, 250)),
        shift=draw(st.integers(-50, 50)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "heads last", "shuffled positions"])),
    )


def _scores(rotated: torch.Tensor) -> torch.Tensor:
    """Every pair's dot product, as queries and keys rotated by the same function meet."""
    rotated = rotated.detach().double()
    return rotated @ rotated.transpose(-2, -1)


def _rope_compare(case, got, expected):
    x, positions, _, shift, _ = case.args
    rotated = [got.get(key) if isinstance(got, dict) else None for key in ("output", "shifted")]
    if all(isinstance(t, torch.Tensor) and t.shape == x.shape for t in rotated):
        before, after = _scores(rotated[0]), _scores(rotated[1])
        # A product of D terms, each rounded at the output's tolerance.
        tolerance = ROPE_ATOL * x.shape[-1] * 10
        differs = (before - after).abs() > tolerance + ROPE_RTOL * before.abs()
        if bool(differs.any()):
            where = tuple(int(n) for n in differs.nonzero()[0])
            i, j = where[-2:]
            raise Mismatch(
                f"{case.where} the dot product of your rotated vectors at positions "
                f"{int(positions[i])} and {int(positions[j])} is {before[where]:.4g}, "
                f"but {after[where]:.4g} when every position moves by {shift}: "
                "rotary embeddings make q·k depend on the difference of the positions alone"
            )
    _expect_output_and_gradients(case, got, expected, ROPE_RTOL, ROPE_ATOL)


ROTARY_EMBEDDING = Drill(
    id="rotary_embedding",
    title="Rotary position embeddings, and their relative-position property",
    page=PAGE_POSITIONS,
    question="rotary-position-embeddings",
    difficulty="medium",
    function="rotary_embedding",
    statement=(
        "Write `rotary_embedding(x, positions, base) -> rotated`: `x` is `(..., L, D)` with `D` even "
        "(queries or keys, any leading batch and head dimensions), `positions` an int64 tensor `(L,)` "
        "with each token's position (not always `0..L-1`: a decoding step starts past its prompt), "
        "`base` a float (10000 in most models). Pair feature `i` with feature `i + D/2` (the "
        '"rotate half" layout of Llama in Hugging Face\'s transformers) and rotate each pair by the angle '
        "`position * base ** (-2i / D)`: `(a, b)` becomes `(a cos θ - b sin θ, b cos θ + a sin θ)`. "
        "The checker compares your output and its gradient with the reference, and checks the "
        "property that makes it a *relative* encoding: every dot product between your rotated vectors "
        "stays the same when all positions move by the same amount."
    ),
    hints=(
        "The frequencies: `base ** (-torch.arange(0, D, 2) / D)`, `D/2` of them, from 1 down; the "
        "angles `positions[:, None] * frequencies`, shape `(L, D/2)`, broadcast over the leading "
        "dimensions.",
        "Split `x` into halves, `a = x[..., :D//2]` and `b = x[..., D//2:]`; the result is "
        "`torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)`. Pairing neighbours `(x[0], "
        "x[1])` is the other layout (the original paper's): the same property, different numbers.",
        "Rotation, not addition: adding `sin`/`cos` to `x`, as the original transformer's sinusoidal "
        "encoding does, makes `q·k` depend on the positions themselves, and multiplying by `cos` "
        "alone is no rotation.",
    ),
    reference=_rotary_embedding,
    named_cases=_rope_named,
    generated=_rope_generated(),
    compare=_rope_compare,
    adapter=_shifted_too,
    tolerance=f"rtol={ROPE_RTOL:g}, atol={ROPE_ATOL:g}, outputs and gradients",
)


# --- rms_norm_by_hand ---------------------------------------------------------------------------

RMS_NORM_RTOL, RMS_NORM_ATOL = 1e-5, 1e-5
RMS_GRAD_RTOL, RMS_GRAD_ATOL = 1e-4, 1e-5


def _rms_norm(x, weight, eps):
    return F.rms_norm(x, x.shape[-1:], weight, eps)


def _rms_case(shape, with_weight=True, eps=1e-6, dtype=torch.float32, seed=0, scale=1.0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *shape, dtype=dtype, scale=scale) + 0.5
    if how == "transposed" and len(shape) >= 2:
        x = _permuted(x, (*range(len(shape) - 2), len(shape) - 1, len(shape) - 2))
    weight = _random(generator, shape[-1], dtype=dtype).requires_grad_() if with_weight else None
    x.requires_grad_()
    grad_output = _random(generator, *shape, dtype=dtype)
    where = (
        f"for x of shape {shape_text(shape)}, {'a weight' if with_weight else 'no weight'}, eps {eps:g} "
        f"({dtype}, seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (x, weight, eps, grad_output))


def _rms_named():
    return [
        _rms_case((2, 4), seed=0),
        _rms_case((1, 5), seed=1, how="a batch of one"),
        _rms_case((2, 3, 4), with_weight=False, seed=2),
        _rms_case((3, 4), eps=0.5, seed=3, how="a large eps"),
        _rms_case((4, 3), seed=4, how="transposed"),
        _rms_case((2, 6), seed=5, scale=1e-3, how="values near 0.5 whose mean square is not their variance"),
        _rms_case((2, 2, 3), dtype=torch.float64, seed=6),
    ]


@st.composite
def _rms_generated(draw):
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    return _rms_case(
        shape,
        with_weight=draw(st.booleans()),
        eps=draw(st.sampled_from([1e-6, 1e-3, 0.1])),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        scale=draw(st.sampled_from([0.1, 1.0, 10.0])),
        how=draw(st.sampled_from(["", "transposed"])),
    )


def _rms_compare(case, got, expected):
    _expect_output_and_gradients(
        case, got, expected, RMS_NORM_RTOL, RMS_NORM_ATOL, grad_rtol=RMS_GRAD_RTOL, grad_atol=RMS_GRAD_ATOL
    )


RMS_NORM_BY_HAND = Drill(
    id="rms_norm_by_hand",
    title="RMSNorm by hand, with its gradients",
    page=PAGE_POSITIONS,
    question="rmsnorm-and-swiglu",
    difficulty="easy",
    function="rms_norm",
    statement=(
        "Write `rms_norm(x, weight, eps) -> y`, as `F.rms_norm(x, x.shape[-1:], weight, eps)` computes "
        "it: divide each vector of `x` (over its last dimension, of size `D`) by its root mean square, "
        "`sqrt(mean(x**2) + eps)`, then multiply by `weight` (shape `(D,)`, or `None`: leave that step "
        "out). Unlike LayerNorm there is no mean to subtract and no bias. The checker compares the "
        "gradients of `x` and `weight` too. Use elementwise operations and reductions, not "
        "`F.rms_norm`, `nn.RMSNorm` or another of torch's normalizations."
    ),
    hints=(
        "`x.pow(2).mean(dim=-1, keepdim=True)`: one mean square per vector, kept as a dimension of 1 "
        "so that it divides its own row. A mean over the whole tensor works for a batch of one only.",
        "`eps` goes inside the square root: `x * torch.rsqrt(ms + eps)`; with a large `eps`, "
        "`x / (x.pow(2).mean(...).sqrt() + eps)` differs.",
        "Subtracting the mean first is LayerNorm: for inputs whose mean is far from 0 it gives "
        "another answer.",
    ),
    reference=_rms_norm,
    named_cases=_rms_named,
    generated=_rms_generated(),
    compare=_rms_compare,
    adapter=_with_gradients("x", "weight"),
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "rms_norm",
            "_fused_rms_norm",
            "layer_norm",
            "native_layer_norm",
            "group_norm",
            "native_group_norm",
            "batch_norm",
        ),
        instead="the drill asks you to write the normalization from its mean square",
    ),
    tolerance=(
        f"rtol={RMS_NORM_RTOL:g}, atol={RMS_NORM_ATOL:g}; gradients rtol={RMS_GRAD_RTOL:g}, "
        f"atol={RMS_GRAD_ATOL:g}"
    ),
)


# --- swiglu_feed_forward ------------------------------------------------------------------------

SWIGLU_RTOL, SWIGLU_ATOL = 1e-4, 1e-5


def _swiglu(x, w_gate, w_up, w_down):
    return F.linear(F.silu(F.linear(x, w_gate)) * F.linear(x, w_up), w_down)


def _swiglu_case(leading, width, hidden, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *leading, width, dtype=dtype, scale=2.0)
    if how == "transposed" and len(leading) >= 1:
        x = _permuted(x, (*range(len(leading) - 1), len(leading), len(leading) - 1))
    w_gate = _random(generator, hidden, width, dtype=dtype, scale=width**-0.5)
    w_up = _random(generator, hidden, width, dtype=dtype, scale=width**-0.5)
    w_down = _random(generator, width, hidden, dtype=dtype, scale=hidden**-0.5)
    tensors = [t.requires_grad_() for t in (x, w_gate, w_up, w_down)]
    grad_output = _random(generator, *leading, width, dtype=dtype)
    where = (
        f"for x {shape_text(x.shape)} and a hidden width of {hidden} ({dtype}, seed {seed}"
        f"{', x ' + how if how else ''})"
    )
    return Case(where, (*tensors, grad_output))


def _swiglu_named():
    return [
        _swiglu_case((2,), 3, 5, seed=0),
        _swiglu_case((1, 4), 4, 4, seed=1),  # a batch of one, hidden as wide as the model
        _swiglu_case((2, 3), 6, 11, seed=2),  # a hidden width that is no multiple of anything
        _swiglu_case((3, 2), 4, 2, seed=3, how="transposed"),
        _swiglu_case((), 5, 3, seed=4),  # one vector
        _swiglu_case((2,), 3, 7, dtype=torch.float64, seed=5),
    ]


@st.composite
def _swiglu_generated(draw):
    return _swiglu_case(
        tuple(draw(st.lists(st.integers(1, 4), max_size=2))),
        draw(st.integers(1, 8)),
        draw(st.integers(1, 12)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "transposed"])),
    )


def _swiglu_compare(case, got, expected):
    _expect_output_and_gradients(case, got, expected, SWIGLU_RTOL, SWIGLU_ATOL)


SWIGLU_FEED_FORWARD = Drill(
    id="swiglu_feed_forward",
    title="The SwiGLU feed-forward block",
    page=PAGE_POSITIONS,
    question="rmsnorm-and-swiglu",
    difficulty="easy",
    function="swiglu",
    statement=(
        "Write `swiglu(x, w_gate, w_up, w_down) -> y`, the feed-forward block of Llama-style "
        "transformers: `x` is `(..., D)`; `w_gate` and `w_up` are `nn.Linear` weights of shape "
        "`(H, D)`, `w_down` of shape `(D, H)`, all without bias. The hidden vector is "
        "`silu(x W_gate^T) * (x W_up^T)`, elementwise, and the output its projection by `w_down`, "
        "`(..., D)`. The checker compares the gradients of `x` and of the three weights too."
    ),
    hints=(
        "An `nn.Linear` weight is stored `(out, in)`: `x @ w_gate.T`, or `F.linear(x, w_gate)`. With "
        "`x @ w_gate` the shapes only fit when `H == D`.",
        "SiLU (Swish) is `z * sigmoid(z)`, `F.silu(z)`; `sigmoid(z)` alone is the original GLU's "
        "gate, and GELU is GeGLU's.",
        "The gate's branch goes through SiLU, the up branch stays linear: `F.silu(x @ w_gate.T) * (x "
        "@ w_up.T)`, then `@ w_down.T`.",
    ),
    reference=_swiglu,
    named_cases=_swiglu_named,
    generated=_swiglu_generated(),
    compare=_swiglu_compare,
    adapter=_with_gradients("x", "w_gate", "w_up", "w_down"),
    tolerance=f"rtol={SWIGLU_RTOL:g}, atol={SWIGLU_ATOL:g}, outputs and gradients",
)


# In the order of the pages.
DRILLS = [
    GROUPED_QUERY_ATTENTION,
    PADDING_CAUSAL_MASK,
    ROTARY_EMBEDDING,
    RMS_NORM_BY_HAND,
    SWIGLU_FEED_FORWARD,
]
