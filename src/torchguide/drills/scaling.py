"""The drills of scaling and compiling a model: a function Dynamo captures in one graph, a module
exported with a dynamic batch dimension, and tensor parallelism's column- and row-parallel linear
pair. What the compiler captured is asked of the compiler itself (``torch._dynamo.explain``, or
running the exported program at other batch sizes), in the runner, on the reader's function."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Mismatch, expect_tensor, shape_text
from torchguide.drills.layers import _random
from torchguide.drills.transformer_blocks import _expect_output_and_gradients, _permuted

PAGE_COMPILE = "week-4/compiling-and-exporting"
PAGE_PARALLEL = "week-4/parallelism"


# --- break_free_clip ----------------------------------------------------------------------------

CLIP_RTOL, CLIP_ATOL = 1e-6, 1e-7


def _clip_to_norm(x, max_norm):
    norm = x.norm()
    return x * torch.clamp(max_norm / norm, max=1.0)


def _captured(reference):
    """An adapter: the output and the gradient of ``x`` in eager mode, then what Dynamo captures of
    the function (``torch._dynamo.explain``, the "eager" backend: capture only, no code generated).
    The reference is not explained in the checker's process: the tests explain it."""

    def adapter(function):
        def call(x, max_norm, grad_output):
            given = x.detach().requires_grad_()
            output = function(given, max_norm)
            answer = {"output": output.detach() if isinstance(output, torch.Tensor) else output, "grads": {}}
            if isinstance(output, torch.Tensor) and output.shape == grad_output.shape:
                if not output.requires_grad:
                    answer["detached"] = True
                else:
                    (answer["grads"]["x"],) = torch.autograd.grad(output, given, grad_output)
            if function is reference:
                answer["graphs"], answer["breaks"], answer["reasons"] = 1, 0, []
                return answer
            import logging

            from torch import _dynamo

            logging.getLogger("torch._dynamo").setLevel(logging.ERROR)  # the counts say it
            explained = _dynamo.explain(function)(x.detach(), max_norm)
            answer["graphs"] = explained.graph_count
            answer["breaks"] = explained.graph_break_count
            answer["reasons"] = [str(b.reason).splitlines()[0] for b in explained.break_reasons]
            return answer

        return call

    return adapter


def _clip_case(shape, ratio, dtype=torch.float32, seed=0, layout=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *shape, dtype=dtype)
    if layout == "transposed" and len(shape) >= 2:
        x = _permuted(x, (*range(len(shape) - 2), len(shape) - 1, len(shape) - 2))
    max_norm = round(float(x.double().norm()) * ratio, 4) or 0.5
    grad_output = _random(generator, *shape, dtype=dtype)
    kind = "clipped" if max_norm < x.double().norm() else "left as it is"
    where = (
        f"for x of shape {shape_text(shape)} and max_norm {max_norm:g} ({kind}, {dtype}, seed {seed}"
        f"{', ' + layout if layout else ''})"
    )
    return Case(where, (x, max_norm, grad_output))


def _clip_named():
    return [
        _clip_case((4,), 0.5, seed=0),
        _clip_case((2, 3), 2.0, seed=1),  # under the bound: unchanged
        _clip_case((3, 5), 0.1, seed=2, layout="transposed"),
        _clip_case((1,), 3.0, dtype=torch.float64, seed=3),
        _clip_case((2, 2, 3), 0.9, dtype=torch.float64, seed=4),
    ]


@st.composite
def _clip_generated(draw):
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    return _clip_case(
        shape,
        draw(st.sampled_from([0.05, 0.3, 0.7, 1.5, 4.0])),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        layout=draw(st.sampled_from(["", "transposed"])),
    )


def _clip_compare(case, got, expected):
    _expect_output_and_gradients(case, got, expected, CLIP_RTOL, CLIP_ATOL)
    if got["breaks"] or got["graphs"] != 1:
        why = "; ".join(dict.fromkeys(got["reasons"])) or "no reason given"
        raise Mismatch(
            f"{case.where} Dynamo captured your clip_to_norm in {got['graphs']} graphs with "
            f"{got['breaks']} graph breaks ({why}); expected 1 graph and no break"
        )


BREAK_FREE_CLIP = Drill(
    id="break_free_clip",
    title="A function without a graph break",
    page=PAGE_COMPILE,
    question="graph-breaks",
    difficulty="easy",
    function="clip_to_norm",
    statement=(
        "This `clip_to_norm` scales a tensor down so that its norm is at most `max_norm`: "
        "`norm = x.norm()`, then `if norm.item() > max_norm:` it returns `x * (max_norm / norm)`, "
        "and `x` otherwise. "
        "Under `torch.compile` Dynamo stops at the `.item()`: two graphs and a break. Write "
        "`clip_to_norm(x, max_norm) -> y` with the same output and gradient for any `x` (any shape, "
        "float32 or float64) and a Python float `max_norm > 0`, that Dynamo captures whole: the "
        "checker runs `torch._dynamo.explain` on it and wants 1 graph and 0 graph breaks."
    ),
    hints=(
        "A branch on a tensor's value, `.item()` or `if norm > max_norm:` alike, is data-dependent "
        "control flow: Dynamo cannot put a Python `if` on a value it does not know into a graph, so "
        "it breaks there. Compute both outcomes with tensor operations instead.",
        "The factor is `min(1, max_norm / norm)`: `torch.clamp(max_norm / norm, max=1.0)`, or "
        "`torch.where(norm > max_norm, max_norm / norm, 1.0)`.",
        "`x * torch.clamp(max_norm / x.norm(), max=1.0)`: under the bound the factor is exactly 1, "
        "and its gradient through the clamp is 0, as the branch that returns `x` gives.",
    ),
    reference=_clip_to_norm,
    named_cases=_clip_named,
    generated=_clip_generated(),
    compare=_clip_compare,
    adapter=_captured(_clip_to_norm),
    tolerance=f"rtol={CLIP_RTOL:g}, atol={CLIP_ATOL:g}, output and gradient; 1 graph, 0 breaks",
)


# --- export_dynamic_batch -----------------------------------------------------------------------

EXPORT_RTOL, EXPORT_ATOL = 1e-5, 1e-6


def _export_dynamic_batch(model, example):
    if example.shape[0] == 1:  # a size of 1 is specialized: export from a batch of 2
        example = example.expand(2, *example.shape[1:])
    batch = torch.export.Dim("batch")
    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))


def _run_exported(reference):
    """An adapter: exports with the function, then runs the program at each of the case's batch
    sizes, in the runner. The reference's outputs are the model's own, in eager mode: the tests
    export with the reference."""

    def adapter(function):
        def call(model, example, batches):
            if function is reference:
                with torch.no_grad():
                    return {"outputs": [model(x) for x in batches]}
            program = function(model, example)
            if not isinstance(program, torch.export.ExportedProgram):
                return {"kind": type(program).__name__}
            runnable = program.module()
            outputs = []
            for x in batches:
                try:
                    with torch.no_grad():
                        outputs.append(runnable(x))
                except Exception as error:  # noqa: BLE001  the program's refusal is the answer
                    outputs.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
            return {"outputs": outputs}

        return call

    return adapter


def _export_case(example_batch, tokens, features, batches, dtype=torch.float32, seed=0):
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)  # the layers' initial weights
    hidden = 5
    model = torch.nn.Sequential(
        torch.nn.Linear(features, hidden),
        torch.nn.ReLU(),
        torch.nn.Flatten(1),  # (B, tokens * hidden): the batch stays first
        torch.nn.Linear(tokens * hidden, 3),
    ).to(dtype)
    example = _random(generator, example_batch, tokens, features, dtype=dtype)
    inputs = [_random(generator, b, tokens, features, dtype=dtype) for b in batches]
    where = (
        f"for an example of shape {shape_text(example.shape)} and batches of {list(batches)} "
        f"({dtype}, seed {seed})"
    )
    return Case(where, (model, example, inputs))


def _export_named():
    return [
        _export_case(2, 3, 4, [2, 3, 5], seed=0),
        _export_case(4, 1, 2, [1, 7], seed=1),  # a batch of 1 from an example of 4
        _export_case(1, 2, 3, [1, 2, 6], seed=2),  # an example of one
        _export_case(3, 2, 2, [64, 3], dtype=torch.float64, seed=3),
    ]


@st.composite
def _export_generated(draw):
    return _export_case(
        draw(st.integers(1, 4)),
        draw(st.integers(1, 3)),
        draw(st.integers(1, 4)),
        draw(st.lists(st.sampled_from([1, 2, 3, 5, 9, 17, 40]), min_size=1, max_size=3, unique=True)),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
    )


def _export_compare(case, got, expected):
    if "kind" in got:
        raise Mismatch(
            f"{case.where} your export_dynamic_batch returned a {got['kind']}; expected the "
            "torch.export.ExportedProgram that torch.export.export returns"
        )
    batches = case.args[2]
    for x, mine, wanted in zip(batches, got["outputs"], expected["outputs"], strict=True):
        if isinstance(mine, str):
            raise Mismatch(
                f"{case.where} your exported program refused a batch of {x.shape[0]} ({mine}); "
                "expected the batch dimension to be dynamic"
            )
        expect_tensor(
            case, f"output for a batch of {x.shape[0]}", mine, wanted, rtol=EXPORT_RTOL, atol=EXPORT_ATOL
        )


EXPORT_DYNAMIC_BATCH = Drill(
    id="export_dynamic_batch",
    title="A module exported with a dynamic batch dimension",
    page=PAGE_COMPILE,
    question="export-vs-torchscript",
    difficulty="medium",
    function="export_dynamic_batch",
    statement=(
        "Write `export_dynamic_batch(model, example) -> torch.export.ExportedProgram`: export "
        "`model`, an `nn.Module` that takes one tensor `(B, T, C)`, with `torch.export.export` from "
        "`example`, so that the program runs at any batch size `B`, 1 included, while `T` and `C` "
        "stay those of `example`. `example` may have a batch of 1. The checker calls "
        "`program.module()` on batches of several sizes and compares with `model`'s outputs."
    ),
    hints=(
        "Without `dynamic_shapes`, export specializes every size of the example: the program "
        "checks `x.size()[0] == example.shape[0]` at each call and refuses any other batch.",
        'Declare the batch dimension: `batch = torch.export.Dim("batch")`, then '
        "`dynamic_shapes=({0: batch},)`, one entry per positional input. A `max=` bound smaller "
        "than the batches you will run refuses them too.",
        "An example whose batch is 1 is specialized (sizes 0 and 1 always are), and export fails "
        'with "Constraints violated": export from `example.expand(2, *example.shape[1:])` instead.',
    ),
    reference=_export_dynamic_batch,
    named_cases=_export_named,
    generated=_export_generated(),
    compare=_export_compare,
    adapter=_run_exported(_export_dynamic_batch),
    tolerance=f"rtol={EXPORT_RTOL:g}, atol={EXPORT_ATOL:g}, at every batch size",
)


# --- tensor_parallel_mlp ------------------------------------------------------------------------

TP_RTOL, TP_ATOL = 1e-5, 1e-6


def _tensor_parallel_mlp(x, w1, b1, w2, b2, rank, world_size):
    hidden = torch.arange(w1.shape[0]).tensor_split(world_size)[rank]  # this rank's columns
    h = F.gelu(F.linear(x, w1[hidden], b1[hidden]))  # column-parallel: no communication
    partial = F.linear(h, w2[:, hidden])  # row-parallel: a partial sum of the output
    return partial + b2 if rank == 0 else partial  # the bias once, not once per rank


def _all_ranks(function):
    """Calls the function once per rank on the same full weights, sums the partial outputs (the
    all-reduce, simulated: its arithmetic is a sum), and backpropagates the case's random gradient
    of the summed output into the full weights, in the runner."""

    def call(x, w1, b1, w2, b2, world_size, grad_output):
        partials = [function(x, w1, b1, w2, b2, rank, world_size) for rank in range(world_size)]
        answer = {"partials": [p.detach() if isinstance(p, torch.Tensor) else p for p in partials]}
        if not all(isinstance(p, torch.Tensor) and p.shape == grad_output.shape for p in partials):
            return answer  # the partials' comparison says what is wrong
        output = torch.stack(partials).sum(0)
        answer.update(output=output.detach(), grads={})
        if not output.requires_grad:
            answer["detached"] = True
            return answer
        names = ("x", "w1", "b1", "w2", "b2")
        grads = torch.autograd.grad(output, [x, w1, b1, w2, b2], grad_output, allow_unused=True)
        answer["grads"] = {n: g for n, g in zip(names, grads, strict=True) if g is not None}
        return answer

    return call


def _tp_case(lead, d_in, hidden, d_out, world_size, dtype=torch.float32, seed=0, layout=""):
    generator = torch.Generator().manual_seed(seed)
    x = _random(generator, *lead, d_in, dtype=dtype)
    if layout == "transposed" and lead:
        x = _permuted(x, (len(lead), *range(len(lead))))
    w1 = _random(generator, hidden, d_in, dtype=dtype, scale=d_in**-0.5)
    b1 = _random(generator, hidden, dtype=dtype)
    w2 = _random(generator, d_out, hidden, dtype=dtype, scale=hidden**-0.5)
    b2 = _random(generator, d_out, dtype=dtype)
    tensors = [t.requires_grad_() for t in (x, w1, b1, w2, b2)]
    grad_output = _random(generator, *lead, d_out, dtype=dtype)
    where = (
        f"for x {shape_text(x.shape)}, hidden width {hidden} on {world_size} ranks, output width "
        f"{d_out} ({dtype}, seed {seed}{', ' + layout if layout else ''})"
    )
    return Case(where, (*tensors, world_size, grad_output))


def _tp_named():
    return [
        _tp_case((2,), 3, 4, 2, 2, seed=0),
        _tp_case((1, 3), 4, 6, 5, 3, seed=1),
        _tp_case((2,), 2, 5, 3, 2, seed=2),  # a hidden width the ranks do not divide
        _tp_case((3,), 3, 4, 2, 3, seed=3),  # 4 over 3 ranks: shards of 2, 1 and 1
        _tp_case((2, 2), 3, 3, 4, 1, dtype=torch.float64, seed=4, layout="transposed"),
    ]


@st.composite
def _tp_generated(draw):
    world_size = draw(st.integers(1, 4))
    return _tp_case(
        tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))),
        draw(st.integers(1, 5)),
        draw(st.integers(world_size, 9)),
        draw(st.integers(1, 5)),
        world_size,
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
        layout=draw(st.sampled_from(["", "transposed"])),
    )


def _tp_compare(case, got, expected):
    for rank, (mine, wanted) in enumerate(zip(got["partials"], expected["partials"], strict=True)):
        expect_tensor(case, f"partial output on rank {rank}", mine, wanted, rtol=TP_RTOL, atol=TP_ATOL)
    _expect_output_and_gradients(case, got, expected, TP_RTOL, TP_ATOL, output="all-reduced output")


TENSOR_PARALLEL_MLP = Drill(
    id="tensor_parallel_mlp",
    title="A column-parallel then row-parallel MLP, one rank's part",
    page=PAGE_PARALLEL,
    question="tensor-pipeline-fsdp",
    difficulty="medium",
    function="tensor_parallel_mlp",
    statement=(
        "Write `tensor_parallel_mlp(x, w1, b1, w2, b2, rank, world_size) -> partial`, one rank's "
        "part of the MLP `F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)` split as Megatron-LM "
        "splits it: `w1` `(H, D_in)` is column-parallel (each rank keeps some of the `H` hidden "
        "features, and `b1`'s), `w2` `(D_out, H)` row-parallel (each rank keeps the same features, "
        "as columns of `w2`). Rank `r` keeps the hidden features `torch.arange(H).tensor_split("
        "world_size)[r]` (`H` need not divide). Return the rank's partial output `(..., D_out)`: the "
        "checker calls your function for every rank, sums the partials, as the one all-reduce "
        "would, and compares each partial, the sum with the full layer, and the gradients of `x` "
        "and the four full weights through your slices."
    ),
    hints=(
        "The GELU is elementwise, so each rank applies it to its own hidden features: no "
        "communication between the two layers. That is why the first layer is split by its outputs "
        "and the second by its inputs.",
        "With `idx = torch.arange(H).tensor_split(world_size)[rank]`: `w1[idx]`, `b1[idx]` and "
        "`w2[:, idx]`. `torch.chunk` splits differently when `H` does not divide, and can return "
        "fewer chunks than ranks.",
        "Each partial is `gelu(x @ w1[idx].T + b1[idx]) @ w2[:, idx].T`; the sum of the partials "
        "adds `b2` as many times as ranks add it: add it on rank 0 only.",
    ),
    reference=_tensor_parallel_mlp,
    named_cases=_tp_named,
    generated=_tp_generated(),
    compare=_tp_compare,
    adapter=_all_ranks,
    tolerance=f"rtol={TP_RTOL:g}, atol={TP_ATOL:g}, partials, sum and gradients",
)


# --- fsdp_step ----------------------------------------------------------------------------------

FSDP_RTOL, FSDP_ATOL = 1e-5, 1e-6


def _fsdp_step(shards, inputs, targets, out_features, lr):
    world = len(shards)
    flat = torch.cat(shards)  # all-gather: every rank sees the whole flat parameter
    numel = out_features * inputs[0].shape[-1]
    weight = flat[:numel].view(out_features, -1).detach().requires_grad_()  # padding dropped
    grads = []
    for x, y in zip(inputs, targets, strict=True):  # each rank: its own batch and mean loss
        (grad,) = torch.autograd.grad(F.mse_loss(x @ weight.T, y), weight)
        grads.append(torch.cat([grad.flatten(), grad.new_zeros(flat.numel() - numel)]))
    mean = torch.stack(grads).sum(0) / world  # reduce-scatter: summed, then averaged as DDP does
    return [shard - lr * g for shard, g in zip(shards, mean.split(shards[0].numel()), strict=True)]


def _fsdp_case(sizes, in_features, out_features, lr, dtype=torch.float32, seed=0):
    generator = torch.Generator().manual_seed(seed)
    world = len(sizes)
    numel = in_features * out_features
    length = -(-numel // world)  # ceil: the last shard padded with zeros
    flat = torch.cat(
        [_random(generator, numel, dtype=dtype), torch.zeros(length * world - numel, dtype=dtype)]
    )
    shards = [s.clone() for s in flat.split(length)]
    inputs = [_random(generator, n, in_features, dtype=dtype) for n in sizes]
    targets = [_random(generator, n, out_features, dtype=dtype) for n in sizes]
    where = (
        f"for {world} ranks with batches of {list(sizes)}, a weight ({out_features}, {in_features}) in "
        f"shards of {length} ({length * world - numel} padding), lr {lr:g} ({dtype}, seed {seed})"
    )
    return Case(where, (shards, inputs, targets, out_features, lr))


def _fsdp_named():
    return [
        _fsdp_case([2, 2], 3, 2, 0.1, seed=0),  # even: 6 values in shards of 3
        _fsdp_case([1, 3], 2, 2, 0.5, seed=1),  # uneven batches
        _fsdp_case([2, 1, 4], 2, 2, 0.1, seed=2),  # 4 values over 3 ranks: padded
        _fsdp_case([3], 3, 1, 0.2, seed=3),  # one rank: a plain step
        _fsdp_case([1, 1, 2, 5], 1, 3, 0.3, dtype=torch.float64, seed=4),
    ]


@st.composite
def _fsdp_generated(draw):
    return _fsdp_case(
        draw(st.lists(st.integers(1, 5), min_size=1, max_size=4)),
        draw(st.integers(1, 4)),
        draw(st.integers(1, 3)),
        draw(st.sampled_from([0.05, 0.1, 0.5, 1.0])),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
    )


def _fsdp_compare(case, got, expected):
    if not isinstance(got, list | tuple) or len(got) != len(expected):
        count = f"{len(got)} items" if isinstance(got, list | tuple) else f"a {type(got).__name__}"
        raise Mismatch(
            f"{case.where} your fsdp_step returned {count}; expected a list of {len(expected)} shards"
        )
    for rank, (mine, wanted) in enumerate(zip(got, expected, strict=True)):
        expect_tensor(case, f"shard on rank {rank}", mine, wanted, rtol=FSDP_RTOL, atol=FSDP_ATOL)


FSDP_STEP = Drill(
    id="fsdp_step",
    title="An FSDP step by hand: all-gather, then reduce-scatter, equal to DDP's",
    page=PAGE_PARALLEL,
    question="tensor-pipeline-fsdp",
    difficulty="hard",
    function="fsdp_step",
    statement=(
        "Write `fsdp_step(shards, inputs, targets, out_features, lr) -> new_shards`, one SGD step "
        "of a bias-free `nn.Linear(in_features, out_features)` trained with FSDP, the ranks "
        "simulated in one process. The weight `(out_features, in_features)`, flattened, is split "
        "into `len(shards)` equal 1-D shards, rank `r` holding `shards[r]`; the last is padded "
        "with zeros when the ranks do not divide the weight. Rank `r`'s batch is `inputs[r]` "
        "`(n_r, in_features)` with `targets[r]` `(n_r, out_features)`, sizes differing between "
        "ranks, and its loss `F.mse_loss(x @ W.T, y)`, the mean over its own batch. All-gather the "
        "shards into the weight, compute each rank's gradient, reduce-scatter them (sum, then "
        "divide by the number of ranks, as DDP averages) so that each rank gets its shard of the "
        "gradient, and return each rank's shard after `shard - lr * grad_shard`: the same weights "
        "as a DDP step would leave. Leave the given shards as they are."
    ),
    hints=(
        "All-gather: `flat = torch.cat(shards)`; drop the padding before viewing it as the weight, "
        "`flat[:out * in].view(out, in)`, and make it a leaf that requires grad.",
        "Each rank differentiates its own mean loss; DDP averages those gradients over ranks, each "
        "rank weighted alike. One loss over the ranks' batches joined weighs every sample alike "
        "instead, which differs as soon as the batch sizes do.",
        "Pad each flat gradient back to `len(shards) * len(shards[0])`, sum over ranks, divide "
        "by the number of ranks, and `.split(len(shards[0]))`: shard `r` of that is rank `r`'s.",
    ),
    reference=_fsdp_step,
    named_cases=_fsdp_named,
    generated=_fsdp_generated(),
    compare=_fsdp_compare,
    tolerance=f"rtol={FSDP_RTOL:g}, atol={FSDP_ATOL:g}, every shard",
)


# --- sync_batch_stats ---------------------------------------------------------------------------

SYNC_BN_RTOL, SYNC_BN_ATOL = 1e-5, 1e-6
SYNC_BN_EPS = 1e-5


def _sync_batch_stats(counts, means, variances):
    weights = counts.to(means.dtype)[:, None] / counts.sum()
    mean = (weights * means).sum(0)
    # each rank's mean of squares is its variance plus its mean squared
    var = (weights * (variances + means**2)).sum(0) - mean**2
    return mean, var


def _normalized_by_ranks(function):
    """Each rank's count, mean and biased variance per channel, from its own shard; the function
    combines them; each shard is normalized with the combined statistics, and the case's random
    gradient backpropagated into every shard through the statistics, in the runner."""

    def call(shards, grad_outputs):
        dims = [0, *range(2, shards[0].dim())]  # all but the channels
        counts = torch.tensor([s.numel() // s.shape[1] for s in shards])
        means = torch.stack([s.mean(dims) for s in shards])
        variances = torch.stack([s.var(dims, correction=0) for s in shards])
        answer = function(counts, means, variances)
        if not (isinstance(answer, tuple | list) and len(answer) == 2):
            return {"kind": type(answer).__name__}
        mean, var = answer
        result = {"mean": _detached(mean), "var": _detached(var)}
        if not all(isinstance(t, torch.Tensor) and t.shape == means.shape[1:] for t in (mean, var)):
            return result  # the statistics' comparison says what is wrong
        shape = [1, -1] + [1] * (shards[0].dim() - 2)
        outputs = [(s - mean.view(shape)) / (var.view(shape) + SYNC_BN_EPS).sqrt() for s in shards]
        grads = torch.autograd.grad(outputs, shards, grad_outputs, allow_unused=True)
        result["output"] = torch.cat([o.detach() for o in outputs])
        result["grads"] = {
            "the shards": torch.cat(
                [g if g is not None else torch.zeros_like(s) for g, s in zip(grads, shards, strict=True)]
            )
        }
        return result

    return call


def _detached(t):
    return t.detach() if isinstance(t, torch.Tensor) else t


def _sync_bn_case(sizes, channels, spatial=(), dtype=torch.float32, seed=0):
    generator = torch.Generator().manual_seed(seed)
    # each rank's data around an offset of its own, so that the ranks' means differ
    shards = [
        (
            _random(generator, n, channels, *spatial, dtype=dtype)
            + 3 * _random(generator, 1, channels, *([1] * len(spatial)), dtype=dtype)
        ).requires_grad_()
        for n in sizes
    ]
    grad_outputs = [_random(generator, *s.shape, dtype=dtype) for s in shards]
    where = (
        f"for {len(sizes)} ranks with batches of {list(sizes)}, {channels} channels"
        f"{', spatial ' + shape_text(spatial) if spatial else ''} ({dtype}, seed {seed})"
    )
    return Case(where, (shards, grad_outputs))


def _sync_bn_reference_call(shards, grad_outputs):
    """What the checker expects: BatchNorm over the ranks' batches joined, and its gradient."""
    everything = torch.cat([s.detach() for s in shards]).requires_grad_()
    dims = [0, *range(2, everything.dim())]
    output = F.batch_norm(everything, None, None, training=True, eps=SYNC_BN_EPS)
    (grad,) = torch.autograd.grad(output, everything, torch.cat(grad_outputs))
    mean, var = everything.detach().mean(dims), everything.detach().var(dims, correction=0)
    return {"mean": mean, "var": var, "output": output.detach(), "grads": {"the shards": grad}}


def _sync_bn_adapter(function):
    if function is _sync_batch_stats:
        return _sync_bn_reference_call
    return _normalized_by_ranks(function)


def _sync_bn_named():
    return [
        _sync_bn_case([2, 2], 3, seed=0),
        _sync_bn_case([3, 5, 1], 2, seed=1),  # uneven, one rank with a single sample
        _sync_bn_case([4], 2, seed=2),  # one rank: plain BatchNorm
        _sync_bn_case([1, 2], 2, (3,), seed=3),  # (N, C, L): each position counts
        _sync_bn_case([2, 1, 1, 3], 1, (2, 2), dtype=torch.float64, seed=4),
    ]


@st.composite
def _sync_bn_generated(draw):
    sizes = draw(st.lists(st.integers(1, 5), min_size=1, max_size=4))
    if sum(sizes) == 1:
        sizes = [*sizes, 1]  # BatchNorm needs more than one value per channel
    return _sync_bn_case(
        sizes,
        draw(st.integers(1, 4)),
        tuple(draw(st.lists(st.integers(1, 3), max_size=2))),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
    )


def _sync_bn_compare(case, got, expected):
    if "kind" in got:
        raise Mismatch(f"{case.where} your sync_batch_stats returned a {got['kind']}; expected (mean, var)")
    expect_tensor(case, "mean", got["mean"], expected["mean"], rtol=SYNC_BN_RTOL, atol=SYNC_BN_ATOL)
    expect_tensor(case, "variance", got["var"], expected["var"], rtol=SYNC_BN_RTOL, atol=SYNC_BN_ATOL)
    _expect_output_and_gradients(
        case,
        got,
        expected,
        SYNC_BN_RTOL,
        SYNC_BN_ATOL,
        grad_rtol=1e-4,
        grad_atol=1e-5,
        output="normalized batch",
    )


SYNC_BATCH_STATS = Drill(
    id="sync_batch_stats",
    title="SyncBatchNorm's statistics, combined from every rank's",
    page=PAGE_PARALLEL,
    question="sync-batchnorm",
    difficulty="medium",
    function="sync_batch_stats",
    statement=(
        "Write `sync_batch_stats(counts, means, variances) -> (mean, var)`, what SyncBatchNorm "
        "computes after gathering every rank's statistics: `counts` is an int64 `(R,)` tensor, the "
        "number of values per channel on each of `R` ranks (batch sizes differ); `means` and "
        "`variances` are `(R, C)`, each rank's per-channel mean and biased variance "
        "(`correction=0`). Return the mean and the biased variance `(C,)` of all ranks' values "
        "together, equal to BatchNorm's over the ranks' batches joined. The checker normalizes "
        "every rank's shard with your statistics and compares the result and the gradient of the "
        "shards with `F.batch_norm` over the joined batch: keep the computation differentiable."
    ),
    hints=(
        "The global mean weights each rank by its count: `(counts * means).sum(0) / counts.sum()`. "
        "The plain mean of the ranks' means is right only when the batch sizes are equal.",
        "The variance is not the weighted mean of the variances: that leaves out how far the ranks' "
        "means lie from each other. Each rank's mean of squares is `variance + mean**2`.",
        "`var = weighted mean of (variances + means**2) - mean**2`, with the weights `counts / "
        "counts.sum()` as a float column `(R, 1)`.",
    ),
    reference=_sync_batch_stats,
    named_cases=_sync_bn_named,
    generated=_sync_bn_generated(),
    compare=_sync_bn_compare,
    adapter=_sync_bn_adapter,
    tolerance=(
        f"rtol={SYNC_BN_RTOL:g}, atol={SYNC_BN_ATOL:g} for the statistics and the normalized batch, "
        "rtol=1e-4, atol=1e-5 for the gradient"
    ),
)


# In the order of the pages.
DRILLS = [
    BREAK_FREE_CLIP,
    EXPORT_DYNAMIC_BATCH,
    TENSOR_PARALLEL_MLP,
    FSDP_STEP,
    SYNC_BATCH_STATS,
]
