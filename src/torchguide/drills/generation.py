"""The drills of generating text and of a language model's loss: one decoding step with a KV cache,
checked token by token against full causal attention; the sampling distribution of top-k and top-p
with a temperature; and cross-entropy with label smoothing, an ignored index and class weights."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text
from torchguide.drills.layers import _random, _with_overloads
from torchguide.drills.transformer_blocks import _expect_output_and_gradients, _permuted, _with_gradients

PAGE_DECODING = "week-3/decoding-and-sampling"
PAGE_LOSSES = "week-3/language-model-losses"


# --- kv_cache_decode_step -----------------------------------------------------------------------

KV_RTOL, KV_ATOL = 1e-4, 1e-5


def _decode_step(q, k_new, v_new, cache_k, cache_v):
    cache_k = torch.cat([cache_k, k_new], dim=-2)
    cache_v = torch.cat([cache_v, v_new], dim=-2)
    return F.scaled_dot_product_attention(q, cache_k, cache_v), cache_k, cache_v


def _token_by_token(function):
    """Decodes the case's sequence one token at a time from a cache that holds its prompt: each
    step's output is what full causal attention gives that token."""

    def call(q, k, v, prompt):
        cache_k, cache_v = k[..., :prompt, :], v[..., :prompt, :]
        outputs = []
        for t in range(prompt, q.shape[-2]):
            step = function(
                q[..., t : t + 1, :], k[..., t : t + 1, :], v[..., t : t + 1, :], cache_k, cache_v
            )
            if not isinstance(step, tuple | list) or len(step) != 3:
                return {"step": t, "returned": type(step).__name__}
            output, cache_k, cache_v = step
            if not all(isinstance(part, torch.Tensor) for part in step):
                return {"step": t, "returned": "a tuple holding a non-tensor"}
            outputs.append(output)
            if cache_k.shape[-2:] != (t + 1, k.shape[-1]) or cache_v.shape[-2:] != (t + 1, v.shape[-1]):
                break  # the next step would read a wrong cache: the comparison says what is wrong
        return {"outputs": outputs, "cache_k": cache_k, "cache_v": cache_v}

    return call


def _kv_case(batch, heads, length, prompt, width, value_width, dtype=torch.float32, seed=0, layout=""):
    generator = torch.Generator().manual_seed(seed)
    q = _random(generator, batch, heads, length, width, dtype=dtype)
    k = _random(generator, batch, heads, length, width, dtype=dtype)
    v = _random(generator, batch, heads, length, value_width, dtype=dtype)
    if layout == "tokens before heads":  # (B, L, H, E) storage, as projections leave it
        q, k, v = (_permuted(t, (0, 2, 1, 3)) for t in (q, k, v))
    where = (
        f"for q and k {shape_text(q.shape)}, v {shape_text(v.shape)}, decoded from a prompt of {prompt} "
        f"({dtype}, seed {seed}{', ' + layout if layout else ''})"
    )
    return Case(where, (q, k, v, prompt))


def _kv_named():
    return [
        _kv_case(1, 1, 3, 0, 2, 2, seed=0),  # from an empty cache
        _kv_case(2, 2, 5, 2, 4, 4, seed=1),
        _kv_case(1, 3, 4, 3, 4, 6, seed=2),  # one step after a prompt of three; values wider
        _kv_case(2, 1, 6, 1, 3, 3, seed=3, layout="tokens before heads"),
        _kv_case(1, 2, 4, 0, 2, 3, dtype=torch.float64, seed=4),
    ]


@st.composite
def _kv_generated(draw):
    length = draw(st.integers(1, 7))
    return _kv_case(
        draw(st.integers(1, 3)),
        draw(st.integers(1, 3)),
        length,
        draw(st.integers(0, length - 1)),
        draw(st.integers(1, 5)),
        draw(st.integers(1, 5)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        layout=draw(st.sampled_from(["", "tokens before heads"])),
    )


def _kv_compare(case, got, expected):
    prompt = case.args[3]
    if "returned" in got:
        raise Mismatch(
            f"{case.where} at token {got['step']} your decode_step returned {got['returned']}; expected "
            "a tuple (output, cache_k, cache_v) of tensors"
        )
    for index, (mine, wanted) in enumerate(zip(got["outputs"], expected["outputs"], strict=False)):
        token = prompt + index
        name = f"output for token {token} (full causal attention's row {token})"
        expect_tensor(case, name, mine, wanted, rtol=KV_RTOL, atol=KV_ATOL)
    token = prompt + len(got["outputs"]) - 1
    expect_tensor(case, f"cache_k after token {token}", got["cache_k"], expected["cache_k"])
    expect_tensor(case, f"cache_v after token {token}", got["cache_v"], expected["cache_v"])


KV_CACHE_DECODE_STEP = Drill(
    id="kv_cache_decode_step",
    title="One decoding step with a KV cache",
    page=PAGE_DECODING,
    question="kv-cache",
    difficulty="medium",
    function="decode_step",
    statement=(
        "Write `decode_step(q, k_new, v_new, cache_k, cache_v) -> (output, cache_k, cache_v)`, one "
        "step of a decoder's attention: `q`, `k_new` and `v_new` are the new token's query, key and "
        "value, `(B, H, 1, E)` (`(B, H, 1, Ev)` for the value); `cache_k` and `cache_v` hold the keys "
        "and values of the `T` tokens before it, `(B, H, T, E)` and `(B, H, T, Ev)`, `T` possibly 0. "
        "Return the new token's attention output `(B, H, 1, Ev)`, scaled by `1/sqrt(E)`, over every "
        "token so far, itself included, and the caches with its key and value appended. The checker "
        "feeds your function a sequence token by token, from a cache that holds the prompt, and "
        "compares each output with that token's row of full causal attention over the sequence."
    ),
    hints=(
        "Append first, then attend: `cache_k = torch.cat([cache_k, k_new], dim=-2)`, the token "
        "dimension; the new token attends to itself too.",
        "A single query may see every key in the cache, all of which are in its past: no mask is "
        "needed. `is_causal=True` with one query and `T + 1` keys aligns the mask to the first key, "
        "so the query would see key 0 alone.",
        "`softmax(q @ cache_k.transpose(-2, -1) / sqrt(E), dim=-1) @ cache_v`, or "
        "`F.scaled_dot_product_attention(q, cache_k, cache_v)` without a mask.",
    ),
    reference=_decode_step,
    named_cases=_kv_named,
    generated=_kv_generated(),
    compare=_kv_compare,
    adapter=_token_by_token,
    tolerance=f"rtol={KV_RTOL:g}, atol={KV_ATOL:g}; the caches exact",
)


# --- top_k_top_p_sampling -----------------------------------------------------------------------

SAMPLING_RTOL, SAMPLING_ATOL = 1e-5, 1e-7


def _sampling_distribution(logits, temperature, top_k, top_p):
    scores = logits / temperature
    if top_k:
        kth = scores.topk(min(top_k, scores.shape[-1]), dim=-1).values[..., -1:]
        scores = scores.masked_fill(scores < kth, float("-inf"))
    if top_p < 1.0:
        probabilities = scores.softmax(dim=-1)
        ranked, order = probabilities.sort(dim=-1, descending=True)
        mass_before = ranked.cumsum(dim=-1) - ranked  # of the tokens ranked above each
        dropped = (mass_before >= top_p).scatter(-1, order, mass_before >= top_p)
        scores = scores.masked_fill(dropped, float("-inf"))
    return scores.softmax(dim=-1)


def _sampling_case(rows, vocabulary, temperature, top_k, top_p, seed=0, scale=2.0, how=""):
    generator = torch.Generator().manual_seed(seed)
    logits = _random(generator, rows, vocabulary, scale=scale)
    if how == "transposed":
        logits = _permuted(logits, (1, 0))
    elif how == "a banned token":
        logits[:, 0] = float("-inf")
    where = (
        f"for logits {shape_text(logits.shape)}, temperature {temperature:g}, top_k {top_k}, "
        f"top_p {top_p:g} (seed {seed}{', ' + how if how else ''})"
    )
    return Case(where, (logits, temperature, top_k, top_p))


def _sampling_named():
    return [
        _sampling_case(1, 5, 1.0, 0, 1.0, seed=0),  # nothing filtered: the softmax
        _sampling_case(2, 6, 0.5, 0, 1.0, seed=1),  # temperature alone
        _sampling_case(2, 8, 1.0, 3, 1.0, seed=2),  # top-k alone
        _sampling_case(3, 10, 1.0, 0, 0.6, seed=3),  # top-p alone
        _sampling_case(2, 9, 0.7, 5, 0.8, seed=4),  # all three, in order
        _sampling_case(1, 4, 2.0, 10, 0.9, seed=5, how="a top_k over the vocabulary"),
        _sampling_case(2, 6, 1.0, 0, 0.01, seed=6),  # the most likely token alone
        _sampling_case(3, 5, 1.3, 2, 0.7, seed=7, how="transposed"),
        _sampling_case(2, 5, 0.8, 0, 0.9, seed=8, how="a banned token"),
        _sampling_case(1, 1, 1.0, 1, 0.5, seed=9),  # a vocabulary of one
    ]


@st.composite
def _sampling_generated(draw):
    vocabulary = draw(st.integers(1, 40))
    return _sampling_case(
        draw(st.integers(1, 4)),
        vocabulary,
        draw(st.sampled_from([0.3, 0.7, 1.0, 1.5])),
        draw(st.sampled_from([0, 1, 2, 5, 50])),
        draw(st.sampled_from([0.05, 0.5, 0.8, 0.95, 1.0])),
        seed=draw(st.integers(0, 1000)),
        scale=draw(st.sampled_from([0.5, 2.0, 5.0])),
        how=draw(st.sampled_from(["", "transposed", "a banned token"])),
    )


def _sampling_compare(case, got, expected):
    if isinstance(got, torch.Tensor) and got.shape == expected.shape and got.is_floating_point():
        kept, wanted = got.detach() > 0, expected > 0
        if not torch.equal(kept, wanted):
            row, token = (int(i) for i in (kept != wanted).nonzero()[0])
            verb = "keeps" if kept[row, token] else "drops"
            other = "drop" if kept[row, token] else "keep"
            raise Mismatch(
                f"{case.where} your distribution {verb} token {token} of row {row}, which the filters "
                f"{other}: row {row} keeps tokens {wanted[row].nonzero().flatten().tolist()}"
            )
    expect_tensor(case, "distribution", got, expected, rtol=SAMPLING_RTOL, atol=SAMPLING_ATOL)


TOP_K_TOP_P_SAMPLING = Drill(
    id="top_k_top_p_sampling",
    title="The distribution that top-k and top-p sampling draw from, with a temperature",
    page=PAGE_DECODING,
    question="top-k-top-p-sampling",
    difficulty="medium",
    function="sampling_distribution",
    statement=(
        "Write `sampling_distribution(logits, temperature, top_k, top_p) -> probabilities`: `logits` "
        "is `(B, V)`, one row of next-token scores per sequence. In this order, as Hugging Face's "
        "`generate` does: divide the logits by `temperature` (> 0); if `top_k` > 0, keep each row's "
        "`top_k` largest (all of them when `top_k >= V`); if `top_p` < 1, keep the smallest set of "
        "most probable tokens, under the softmax of what is left, whose probabilities sum to at "
        "least `top_p` (a token is kept when the tokens ranked above it hold less than `top_p`: the "
        "most likely is always kept). Return the softmax over the kept tokens, 0 elsewhere, `(B, V)`; "
        "`torch.multinomial(probabilities, 1)` then samples. The checker compares which tokens each "
        "row keeps exactly, then the probabilities."
    ),
    hints=(
        "Filter by setting the scores of dropped tokens to `-inf`, then take one softmax at the end: "
        "it renormalizes over what is left. Zeroing probabilities without renormalizing leaves rows "
        "that sum to less than 1.",
        "Top-k: `kth = scores.topk(min(top_k, V), dim=-1).values[..., -1:]`, then drop `scores < kth`.",
        "Top-p: sort the probabilities descending, `ranked, order = probs.sort(dim=-1, "
        "descending=True)`; the mass above each token is `ranked.cumsum(-1) - ranked`; drop where it "
        "is `>= top_p`, and put the decision back in vocabulary order with `scatter(-1, order, ...)`. "
        "Dropping where the cumulative sum itself passes `top_p` drops the token that crosses it.",
    ),
    reference=_sampling_distribution,
    named_cases=_sampling_named,
    generated=_sampling_generated(),
    compare=_sampling_compare,
    tolerance=f"rtol={SAMPLING_RTOL:g}, atol={SAMPLING_ATOL:g}; the kept tokens exact",
)


# --- cross_entropy_with_smoothing ---------------------------------------------------------------

SMOOTHED_RTOL, SMOOTHED_ATOL = 1e-5, 1e-6
IGNORED = -100


def _smoothed_cross_entropy(logits, targets, weight, ignore_index, label_smoothing):
    return F.cross_entropy(
        logits, targets, weight=weight, ignore_index=ignore_index, label_smoothing=label_smoothing
    )


def _smoothed_case(
    rows, classes, smoothing, weighted, ignored=0, dtype=torch.float32, seed=0, ignore_index=IGNORED, how=""
):
    generator = torch.Generator().manual_seed(seed)
    logits = _random(generator, rows, classes, dtype=dtype, scale=3.0)
    if how == "transposed":
        logits = _permuted(logits, (1, 0))
    targets = torch.randint(0, classes, (rows,), generator=generator)
    targets[torch.randperm(rows, generator=generator)[:ignored]] = ignore_index
    weight = (
        (torch.rand(classes, generator=generator, dtype=torch.float64) * 2 + 0.1).to(dtype)
        if weighted
        else None
    )
    if ignored < rows:  # every row ignored: the loss is 0 / 0, with no gradient to compare
        logits.requires_grad_()
    grad_output = _random(generator, dtype=dtype)
    where = (
        f"for logits {shape_text(logits.shape)}, targets {targets.tolist()}, label_smoothing {smoothing:g}, "
        f"{'class weights' if weighted else 'no weights'}, ignore_index {ignore_index} ({dtype}, seed {seed}"
        f"{', ' + how if how else ''})"
    )
    return Case(where, (logits, targets, weight, ignore_index, smoothing, grad_output))


def _smoothed_named():
    return [
        _smoothed_case(3, 4, 0.0, False, seed=0),  # plain cross-entropy
        _smoothed_case(4, 5, 0.1, False, seed=1),
        _smoothed_case(5, 3, 0.0, False, ignored=2, seed=2),  # padding ignored
        _smoothed_case(4, 4, 0.0, True, seed=3),  # weighted: a weighted mean
        _smoothed_case(6, 5, 0.2, True, ignored=2, seed=4),  # all three
        _smoothed_case(1, 6, 0.3, True, seed=5, how="a batch of one"),
        _smoothed_case(4, 3, 0.1, True, ignored=1, seed=6, ignore_index=0, how="a real class ignored"),
        _smoothed_case(3, 4, 0.1, False, ignored=3, seed=7, how="every target ignored"),
        _smoothed_case(4, 5, 0.15, True, ignored=1, seed=8, how="transposed"),
        _smoothed_case(3, 4, 0.25, True, ignored=1, dtype=torch.float64, seed=9),
    ]


@st.composite
def _smoothed_generated(draw):
    rows = draw(st.integers(1, 7))
    return _smoothed_case(
        rows,
        draw(st.integers(1, 8)),
        draw(st.sampled_from([0.0, 0.05, 0.1, 0.4, 1.0])),
        draw(st.booleans()),
        ignored=draw(st.integers(0, rows - 1)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        how=draw(st.sampled_from(["", "transposed"])),
    )


def _smoothed_compare(case, got, expected):
    _expect_output_and_gradients(case, got, expected, SMOOTHED_RTOL, SMOOTHED_ATOL, output="loss")


CROSS_ENTROPY_WITH_SMOOTHING = Drill(
    id="cross_entropy_with_smoothing",
    title="Cross-entropy with label smoothing, an ignored index and class weights",
    page=PAGE_LOSSES,
    question="cross-entropy-contract",
    difficulty="hard",
    function="cross_entropy",
    statement=(
        "Write `cross_entropy(logits, targets, weight, ignore_index, label_smoothing) -> loss`, equal "
        "to `F.cross_entropy` with those arguments and its default mean: `logits` is `(N, C)`, "
        "`targets` int64 `(N,)` class indices, where a target equal to `ignore_index` (padding) takes "
        "no part; `weight` a `(C,)` tensor of class weights or `None`; `label_smoothing` in `[0, 1]` "
        "mixes the one-hot target with the uniform distribution over all `C` classes. The mean is "
        "weighted: the sum of each kept row's loss times its target's weight, divided by the sum of "
        "those weights (the number of kept rows without weights). A batch where every target is "
        "ignored gives NaN, as torch's does. The checker compares the gradient of the logits too. "
        "`log_softmax` is allowed; `F.cross_entropy` and `F.nll_loss` are not."
    ),
    hints=(
        "Per row, with `logp = logits.log_softmax(-1)`: the loss is `(1 - ε) * -logp[target] + ε * "
        "mean over classes of -logp`, the smoothed target putting `ε / C` on every class, the target "
        "included.",
        "With weights, each class's term is weighted by its own class's weight: the first term by "
        "`w[target]`, the smoothing term `-Σ_c w[c] logp[c] / C`. Both sums are divided by the same "
        "`Σ w[target]` over the kept rows.",
        "Ignored rows: take `keep = targets != ignore_index`, replace their targets by any valid "
        "class before indexing (`targets.clamp(0, C - 1)` or `torch.where(keep, targets, 0)`), and "
        "multiply their loss and their weight by 0, so that the mean divides by the kept rows only.",
    ),
    reference=_smoothed_cross_entropy,
    named_cases=_smoothed_named,
    generated=_smoothed_generated(),
    compare=_smoothed_compare,
    adapter=_with_gradients("logits"),
    forbidden=Forbidden(
        torch_functions=_with_overloads(
            "cross_entropy", "cross_entropy_loss", "nll_loss", "nll_loss_nd", "nll_loss2d"
        ),
        instead="the drill asks you to write the smoothing, the weights and the ignored rows yourself",
    ),
    tolerance=f"rtol={SMOOTHED_RTOL:g}, atol={SMOOTHED_ATOL:g}, loss and gradient",
)


# In the order of the pages.
DRILLS = [KV_CACHE_DECODE_STEP, TOP_K_TOP_P_SAMPLING, CROSS_ENTROPY_WITH_SMOOTHING]
