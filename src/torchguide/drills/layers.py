"""The drills of a model's building blocks, written by hand and checked against torch's own: causal
attention, a custom autograd Function, a stable cross-entropy and LayerNorm."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text


def _with_overloads(*names: str) -> frozenset[str]:
    """The names a torch function is seen by: plain, and as ``torch.ops.aten.NAME.OVERLOAD``."""
    return frozenset(name + suffix for name in names for suffix in ("", ".default", ".int", ".Tensor"))


def _random(generator: torch.Generator, *shape: int, dtype=torch.float32, scale: float = 1.0) -> torch.Tensor:
    return (torch.randn(shape, generator=generator, dtype=torch.float64) * scale).to(dtype)


# --- causal_attention ---------------------------------------------------------------------------

ATTENTION_RTOL, ATTENTION_ATOL = 1e-4, 1e-5


def _attention(q, k, v, causal):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def _attention_case(
    batch, queries, keys, dim, value_dim, causal, dtype=torch.float32, seed=0, scale=1.0, how=""
):
    generator = torch.Generator().manual_seed(seed)
    q = _random(generator, *batch, queries, dim, dtype=dtype, scale=scale)
    k = _random(generator, *batch, keys, dim, dtype=dtype, scale=scale)
    v = _random(generator, *batch, keys, value_dim, dtype=dtype)
    mask = "causal" if causal else "no mask"
    where = (
        f"for q {shape_text(q.shape)}, k {shape_text(k.shape)}, v {shape_text(v.shape)} "
        f"({dtype}, {mask}){how}"
    )
    return Case(where, (q, k, v, causal))


def _attention_named():
    transposed = _attention_case((2,), 4, 4, 3, 3, True, seed=3)
    q, k, v, causal = transposed.args
    return [
        _attention_case((), 3, 3, 2, 2, False),
        _attention_case((), 4, 4, 2, 2, True),
        _attention_case((2,), 3, 5, 4, 4, True, seed=1),  # fewer queries than keys
        _attention_case((2,), 5, 3, 4, 4, True, seed=2),  # more queries than keys
        _attention_case((), 1, 4, 2, 2, True),  # one query: under is_causal it sees key 0 only
        _attention_case((2, 3), 3, 3, 4, 6, True),  # heads, and values wider than keys
        _attention_case((), 3, 3, 2, 2, True, scale=30.0, how=" with scores in the thousands"),
        Case(
            transposed.where + " with a non-contiguous k",
            (q, k.transpose(-1, -2).contiguous().transpose(-1, -2), v, causal),
        ),
        _attention_case((1,), 2, 3, 3, 2, False, dtype=torch.float64),
    ]


@st.composite
def _attention_generated(draw):
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    return _attention_case(
        batch,
        draw(st.integers(1, 6)),
        draw(st.integers(1, 6)),
        draw(st.integers(1, 5)),
        draw(st.integers(1, 5)),
        draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        scale=draw(st.sampled_from([0.1, 1.0, 5.0])),
    )


def _attention_compare(case, got, expected):
    expect_tensor(case, "output", got, expected, rtol=ATTENTION_RTOL, atol=ATTENTION_ATOL)


CAUSAL_ATTENTION = Drill(
    id="causal_attention",
    title="Scaled dot-product attention with a causal mask",
    page="week-1/day-1/creating-and-dtypes",
    question="einsum",
    difficulty="medium",
    function="attention",
    statement=(
        "Write `attention(q, k, v, causal) -> output`, as `F.scaled_dot_product_attention(q, k, v, "
        "is_causal=causal)` computes it: `q` is `(..., L, E)`, `k` is `(..., S, E)` and `v` is "
        "`(..., S, Ev)`, with the same leading (batch, head) dimensions; the output is `(..., L, Ev)`, "
        "each query's softmax-weighted average of the values, the scores `q·k` scaled by `1/sqrt(E)`. "
        "When `causal`, query `i` attends only to keys `j <= i` (the mask `torch.ones(L, S).tril()`, "
        "also when `L != S`). Use tensor operations, not `F.scaled_dot_product_attention` or "
        "`nn.MultiheadAttention`."
    ),
    hints=(
        "The scores are `q @ k.transpose(-2, -1)`, shape `(..., L, S)`, or "
        "`torch.einsum('...le,...se->...ls', q, k)`; divide by `math.sqrt(E)`, the size of `q`'s last "
        "dimension, not of `v`'s.",
        "The mask has one row per query and one column per key: build it from both lengths, "
        "`torch.ones(L, S, dtype=torch.bool).tril()`; a square mask from `L` alone breaks when `L != S`.",
        "Set the masked scores to `-inf` with `masked_fill(~mask, float('-inf'))` before the softmax over "
        "the last dimension (the keys), not to 0: a score of 0 still gets weight. Then `weights @ v`.",
    ),
    reference=_attention,
    named_cases=_attention_named,
    generated=_attention_generated(),
    compare=_attention_compare,
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "scaled_dot_product_attention",
            "_scaled_dot_product_attention_math",
            "_scaled_dot_product_flash_attention_for_cpu",
            "multi_head_attention_forward",
            "_native_multi_head_attention",
        ),
        instead="the drill asks you to write attention from its matrix products and softmax",
    ),
    tolerance=f"rtol={ATTENTION_RTOL:g}, atol={ATTENTION_ATOL:g}",
)


# --- swish_autograd_function --------------------------------------------------------------------

SWISH_RTOL, SWISH_ATOL = 1e-5, 1e-6


def _swish(x, beta):
    # The plain expression: autograd differentiates it; the reader's backward must agree.
    return x * torch.sigmoid(beta * x)


def _function_node(output: torch.Tensor):
    """The backward node of a custom ``torch.autograd.Function`` in the graph that made ``output``,
    or None: autograd's own nodes alone differentiated it."""
    stack, seen = [output.grad_fn], set()
    while stack and len(seen) < 100:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if isinstance(node, torch.autograd.function.BackwardCFunction):
            return node
        stack += [next_node for next_node, _ in node.next_functions]
    return None


def _through_backward(function):
    """Calls swish, then its backward with the case's ``grad_output``, then ``gradcheck`` in float64;
    all in the runner, so that a backward that crashes is reported as the reader's."""

    def call(x, beta, grad_output):
        from torch.autograd.gradcheck import GradcheckError

        output = function(x, beta)
        if not isinstance(output, torch.Tensor) or output.shape != x.shape:
            return {"output": output}  # the comparison of the output says what is wrong
        node = _function_node(output)
        answer = {
            "output": output.detach(),
            "custom": node is not None,
            "saved": len(node.saved_tensors) if node is not None else 0,
            "made_by": type(output.grad_fn).__name__ if output.grad_fn is not None else None,
            "grad_x": None,
            "grad_beta": None,
        }
        wanted = [(name, t) for name, t in (("grad_x", x), ("grad_beta", beta)) if t.requires_grad]
        if output.requires_grad and wanted:
            grads = torch.autograd.grad(output, [t for _, t in wanted], grad_output, allow_unused=True)
            answer.update(zip([name for name, _ in wanted], grads, strict=True))
        x64 = x.detach().double().requires_grad_()
        beta64 = beta.detach().double().requires_grad_()
        try:
            torch.autograd.gradcheck(function, (x64, beta64), eps=1e-6, atol=1e-5, rtol=1e-4)
        except GradcheckError as error:
            answer["gradcheck"] = str(error).strip().splitlines()[0]
        return answer

    return call


def _swish_case(shape, beta, beta_frozen=False, dtype=torch.float32, seed=0, scale=2.0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *shape, dtype=dtype, scale=scale).requires_grad_()
    beta = torch.tensor(beta, dtype=dtype).requires_grad_(not beta_frozen)
    grad_output = _random(generator, *shape, dtype=dtype)
    frozen = ", beta frozen" if beta_frozen else ""
    where = f"for x of shape {shape_text(x.shape)} and beta {beta.item():g} ({dtype}{frozen}){how}"
    return Case(where, (x, beta, grad_output))


def _swish_named():
    return [
        _swish_case((4,), 1.0),
        _swish_case((2, 3), 0.5),
        _swish_case((), 2.0),  # a 0-d x: beta's gradient still sums over x's elements
        _swish_case((5,), 1.5, beta_frozen=True),
        _swish_case((3,), -1.0, dtype=torch.float64),
        _swish_case((2, 2), 1.0, scale=40.0, how=" with |x| up to about 100"),
        _swish_case((2, 1, 3), 0.0),
    ]


@st.composite
def _swish_generated(draw):
    shape = tuple(draw(st.lists(st.integers(1, 4), max_size=3)))
    return _swish_case(
        shape,
        draw(st.sampled_from([-2.0, -0.5, 0.0, 0.5, 1.0, 1.702, 3.0])),
        beta_frozen=draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        scale=draw(st.sampled_from([0.5, 2.0, 10.0])),
    )


def _swish_compare(case, got, expected):
    if not isinstance(got, dict):  # a reader's function cannot reach here: the adapter made it
        raise Mismatch(f"{case.where} the check could not read your swish's answer")
    expect_tensor(case, "output", got["output"], expected["output"], rtol=SWISH_RTOL, atol=SWISH_ATOL)
    if not got["custom"]:
        raise Mismatch(
            f"{case.where} your output was made by {got['made_by'] or 'no autograd node'}, not by a "
            "torch.autograd.Function: autograd differentiated your forward; the drill asks you to write "
            "the backward (return Swish.apply(x, beta))"
        )
    for name in ("grad_x", "grad_beta"):
        if expected[name] is None:
            continue
        label = f"gradient for {name.removeprefix('grad_')}"
        if got[name] is None:
            raise Mismatch(f"{case.where} your backward returned None as the {label}; expected a tensor")
        expect_tensor(case, label, got[name], expected[name], rtol=SWISH_RTOL, atol=SWISH_ATOL)
    if not got["saved"]:
        raise Mismatch(
            f"{case.where} your Function saved no tensor with ctx.save_for_backward: keep what backward "
            "needs there, where autograd checks that no in-place change overwrote it since forward"
        )
    if got.get("gradcheck"):
        raise Mismatch(f"{case.where} torch.autograd.gradcheck in float64 fails: {got['gradcheck']}")


SWISH_AUTOGRAD_FUNCTION = Drill(
    id="swish_autograd_function",
    title="A custom autograd Function with its backward: Swish with a learnable beta",
    page="week-1/custom-autograd-functions",
    question="custom-autograd-function",
    difficulty="hard",
    function="swish",
    statement=(
        "Write a `torch.autograd.Function` subclass for Swish, `y = x * sigmoid(beta * x)`, with "
        "`forward(ctx, x, beta)` and `backward(ctx, grad_output)` written by hand: save what backward "
        "needs with `ctx.save_for_backward`, return one gradient per input. Then `swish(x, beta) -> y` "
        "returns `YourFunction.apply(x, beta)`. `x` is a float tensor of any shape, `beta` a 0-d tensor "
        "of the same dtype that may be learned (`requires_grad=True`) or frozen. The checker "
        "backpropagates a random `grad_output`, compares both gradients with autograd's on the plain "
        "expression, and runs `torch.autograd.gradcheck` on your function in float64."
    ),
    hints=(
        "With `s = sigmoid(beta * x)` and `s' = s * (1 - s)`: `dy/dx = s + x * beta * s'` (the product "
        "rule: both factors depend on `x`) and `dy/dbeta = x * x * s'`.",
        "Each gradient is `grad_output` times its derivative: the checker's `grad_output` is random, "
        "not ones, so leaving it out shows.",
        "`beta` is one number used by every element, so its gradient is the sum over all of them, of "
        "`beta`'s shape `()`: `(grad_output * x * x * s').sum()`. Return `None` for it, as for a fixed "
        "setting, and a learned `beta` never moves.",
    ),
    reference=_swish,
    named_cases=_swish_named,
    generated=_swish_generated(),
    compare=_swish_compare,
    adapter=_through_backward,
    tolerance=f"rtol={SWISH_RTOL:g}, atol={SWISH_ATOL:g}",
)


# --- stable_cross_entropy -----------------------------------------------------------------------

# A float32 logit of 1000 is exact to 6e-5 (its spacing): m + log(sum) - x_t, as correct as the
# shifted form, rounds at that size.
CROSS_ENTROPY_RTOL, CROSS_ENTROPY_ATOL = 1e-4, 1e-4


def _cross_entropy(logits, targets):
    return F.cross_entropy(logits, targets)


def _cross_entropy_case(logits, targets, dtype=torch.float32, how=""):
    logits = torch.as_tensor(logits, dtype=dtype)
    targets = torch.as_tensor(targets, dtype=torch.int64)
    shown = logits.tolist() if logits.numel() <= 12 else f"of shape {shape_text(logits.shape)}"
    return Case(f"for logits {shown} ({dtype}) and targets {targets.tolist()}{how}", (logits, targets))


def _cross_entropy_named():
    wide = torch.tensor([[2.0, -1.0], [0.5, 3.0], [-2.0, 0.0]])
    return [
        _cross_entropy_case([[0.0, 0.0]], [0]),
        _cross_entropy_case([[1.0, 2.0, 3.0], [1.0, -1.0, 0.0]], [2, 0]),
        _cross_entropy_case([[1000.0, 0.0, -1000.0]], [2]),  # exp(1000) overflows
        _cross_entropy_case([[-1000.0, -1001.0]], [1]),  # exp(-1000) underflows to 0
        _cross_entropy_case([[1000.0, 999.0], [-1000.0, -1001.0]], [0, 1]),  # rows of different scale
        _cross_entropy_case([[5.0]], [0]),  # one class: the loss is 0
        _cross_entropy_case([[3.0, -2.0, 0.5]], [1], dtype=torch.float64),
        Case(
            "for transposed (non-contiguous) logits of shape (2, 3) and targets [1, 0]",
            (wide.t(), torch.tensor([1, 0])),
        ),
    ]


@st.composite
def _cross_entropy_generated(draw):
    rows, classes = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    size = draw(st.sampled_from([1.0, 30.0, 1000.0]))
    logits = [
        draw(st.lists(st.floats(-size, size, width=32), min_size=classes, max_size=classes))
        for _ in range(rows)
    ]
    targets = draw(st.lists(st.integers(0, classes - 1), min_size=rows, max_size=rows))
    return _cross_entropy_case(logits, targets, draw(st.sampled_from([torch.float32, torch.float64])))


def _cross_entropy_compare(case, got, expected):
    expect_tensor(case, "loss", got, expected, rtol=CROSS_ENTROPY_RTOL, atol=CROSS_ENTROPY_ATOL)


STABLE_CROSS_ENTROPY = Drill(
    id="stable_cross_entropy",
    title="Cross-entropy from logits through a stable log-softmax",
    page="week-1/modules-and-optimization",
    question="bce-with-logits",
    difficulty="medium",
    function="cross_entropy",
    statement=(
        "Write `cross_entropy(logits, targets) -> loss`: `logits` is `(N, C)`, N ≥ 1 rows of class "
        "scores, `targets` an int64 tensor `(N,)` of class indices. Return the mean over rows of "
        "`-log(softmax(logits)[i, targets[i]])`, as `F.cross_entropy` does, a 0-d tensor of the logits' "
        "dtype, finite and accurate for logits of any size: ±1000, and rows of very different scale. Use "
        "elementwise operations and reductions, not `F.cross_entropy`, `nll_loss`, `log_softmax`, "
        "`softmax` or `logsumexp`."
    ),
    hints=(
        "`-log softmax(x)[t] = log(sum_j exp(x_j)) - x_t`: the trouble is `exp`, which overflows to `inf` "
        "for a logit of 1000 and underflows to 0 for one of -1000 (and `log(0)` is `-inf`).",
        "Subtract each row's largest logit first, `shifted = x - x.max(dim=1, keepdim=True).values`: "
        "softmax does not change, every exponent is at most 0 and one is exactly 0, so the sum is at "
        "least 1. Then `log softmax = shifted - log(sum_j exp(shifted_j))`.",
        "The maximum must be per row, not over the whole tensor: a row far below the global maximum "
        "underflows again. Pick each row's target with `.gather(1, targets[:, None])`, then `.mean()`.",
    ),
    reference=_cross_entropy,
    named_cases=_cross_entropy_named,
    generated=_cross_entropy_generated(),
    compare=_cross_entropy_compare,
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "cross_entropy",
            "cross_entropy_loss",
            "nll_loss",
            "nll_loss_nd",
            "log_softmax",
            "_log_softmax",
            "special_log_softmax",
            "softmax",
            "_softmax",
            "special_softmax",
            "logsumexp",
            "special_logsumexp",
            "logcumsumexp",
            "softmin",
        ),
        instead="the drill asks you to write the log-softmax from elementwise operations",
    ),
    tolerance=f"rtol={CROSS_ENTROPY_RTOL:g}, atol={CROSS_ENTROPY_ATOL:g}",
)


# --- layer_norm_by_hand -------------------------------------------------------------------------

LAYER_NORM_RTOL, LAYER_NORM_ATOL = 1e-5, 1e-5


def _layer_norm(x, normalized_shape, weight, bias, eps):
    return F.layer_norm(x, normalized_shape, weight, bias, eps)


def _layer_norm_case(shape, normalized, affine=(True, True), eps=1e-5, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *shape, dtype=dtype, scale=3.0) + 2.0
    normalized_shape = tuple(shape[len(shape) - normalized :])
    weight = _random(generator, *normalized_shape, dtype=dtype) if affine[0] else None
    bias = _random(generator, *normalized_shape, dtype=dtype) if affine[1] else None
    parts = [n for n, on in zip(("weight", "bias"), affine, strict=True) if on]
    with_affine = " and ".join(parts) if parts else "no weight or bias"
    where = (
        f"for x of shape {shape_text(shape)}, normalized_shape {normalized_shape}, {with_affine}, "
        f"eps {eps:g} ({dtype}){how}"
    )
    return Case(where, (x, normalized_shape, weight, bias, eps))


def _layer_norm_named():
    transposed = _layer_norm_case((3, 4), 1)
    x, normalized_shape, weight, bias, eps = transposed.args
    constant = _layer_norm_case((2, 3), 1, how=" whose rows are constant")
    return [
        _layer_norm_case((2, 4), 1),
        _layer_norm_case((1, 5), 1, how=" (a batch of one)"),
        _layer_norm_case((2, 3, 4), 2),  # normalized over the last two dimensions
        _layer_norm_case((2, 3, 4), 3, affine=(False, False)),
        _layer_norm_case((3, 4), 1, affine=(True, False)),
        _layer_norm_case((6,), 1, eps=0.5, how=" (a large eps)"),
        Case(constant.where, (torch.full((2, 3), 7.0), *constant.args[1:])),
        Case(
            transposed.where + " (x non-contiguous)",
            (x.t().contiguous().t(), normalized_shape, weight, bias, eps),
        ),
        _layer_norm_case((2, 2, 3), 1, dtype=torch.float64),
    ]


@st.composite
def _layer_norm_generated(draw):
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)))
    return _layer_norm_case(
        shape,
        draw(st.integers(1, len(shape))),
        affine=(draw(st.booleans()), draw(st.booleans())),
        eps=draw(st.sampled_from([1e-5, 1e-3, 0.1])),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
    )


def _layer_norm_compare(case, got, expected):
    expect_tensor(case, "output", got, expected, rtol=LAYER_NORM_RTOL, atol=LAYER_NORM_ATOL)


LAYER_NORM_BY_HAND = Drill(
    id="layer_norm_by_hand",
    title="LayerNorm by hand: over the last dimensions, with eps and an affine weight and bias",
    page="week-1/normalization-and-mixed-precision",
    question="norm-layers",
    difficulty="easy",
    function="layer_norm",
    statement=(
        "Write `layer_norm(x, normalized_shape, weight, bias, eps) -> y`, as `F.layer_norm` computes it: "
        "normalize each sample of `x` over its last `len(normalized_shape)` dimensions (a tuple of ints "
        "equal to those dimensions' sizes) to mean 0 and variance 1, dividing by `sqrt(variance + eps)`, "
        "then multiply by `weight` and add `bias` (each of shape `normalized_shape`, or `None`: leave that "
        "step out). A batch of one normalizes as any other. Use elementwise operations and reductions, "
        "not `F.layer_norm`, `nn.LayerNorm` or another of torch's normalizations (`group_norm`, "
        "`instance_norm`, `batch_norm`, `rms_norm`)."
    ),
    hints=(
        "The dimensions to reduce are the last ones: `dims = tuple(range(-len(normalized_shape), 0))`, "
        "then `x.mean(dim=dims, keepdim=True)`. No statistic is taken over the batch: that is BatchNorm.",
        "LayerNorm's variance is the biased one, divided by the number of elements, not by one less: "
        "`x.var(dim=dims, unbiased=False, keepdim=True)` or `((x - mean) ** 2).mean(...)`.",
        "`eps` goes inside the square root: `(x - mean) / torch.sqrt(var + eps)`; with a large `eps` or "
        "a nearly constant sample, `std + eps` differs.",
    ),
    reference=_layer_norm,
    named_cases=_layer_norm_named,
    generated=_layer_norm_generated(),
    compare=_layer_norm_compare,
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "layer_norm",
            "native_layer_norm",
            "group_norm",
            "native_group_norm",
            "instance_norm",
            "batch_norm",
            "native_batch_norm",
            "_native_batch_norm_legit",
            "rms_norm",
            "_fused_rms_norm",
        ),
        instead="the drill asks you to write the normalization from its mean and variance",
    ),
    tolerance=f"rtol={LAYER_NORM_RTOL:g}, atol={LAYER_NORM_ATOL:g}",
)


# In the order of the pages.
DRILLS = [CAUSAL_ATTENTION, SWISH_AUTOGRAD_FUNCTION, STABLE_CROSS_ENTROPY, LAYER_NORM_BY_HAND]
