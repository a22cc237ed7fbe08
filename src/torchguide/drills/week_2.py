"""The drills of Week 2: class-balanced sampling, a finite-difference gradient check."""

from __future__ import annotations

import torch
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Mismatch, expect_tensor, shape_text

# --- balanced_sample_weights --------------------------------------------------------------------


def _sample_weights(labels):
    counts = torch.bincount(labels)
    return 1.0 / counts[labels].to(torch.float64)


def _labels_case(labels):
    return Case(f"for labels {list(labels)}", (torch.tensor(labels, dtype=torch.int64),))


def _weights_named():
    return [
        _labels_case([0, 0, 0, 1]),
        _labels_case([1, 0, 1, 1, 1, 0]),
        _labels_case([2, 2, 5]),  # classes 0, 1, 3, 4 have no sample
        _labels_case([3, 3, 3]),  # one class
        _labels_case([0]),
    ]


@st.composite
def _weights_generated(draw):
    return _labels_case(draw(st.lists(st.integers(0, 4), min_size=1, max_size=12)))


def _class_shares(labels, weights):
    shares = torch.zeros(int(labels.max()) + 1, dtype=torch.float64).index_add_(0, labels, weights)
    return {c: round(float(s / shares.sum()), 3) for c, s in enumerate(shares) if (labels == c).any()}


def _weights_compare(case, got, expected):
    (labels,) = case.args
    if isinstance(got, torch.Tensor) and got.dim() == 1 and got.numel() != labels.numel():
        raise Mismatch(
            f"{case.where} your weights have shape {shape_text(got.shape)}; expected "
            f"{shape_text(expected.shape)}: WeightedRandomSampler wants one weight per sample, not per class"
        )
    if not isinstance(got, torch.Tensor):
        raise Mismatch(f"{case.where} your weights are a {type(got).__name__}; expected a tensor")
    if got.shape != expected.shape:
        raise Mismatch(
            f"{case.where} your weights have shape {shape_text(got.shape)}; "
            f"expected {shape_text(expected.shape)}"
        )
    if not got.is_floating_point() or not bool((got > 0).all()):
        raise Mismatch(f"{case.where} your weights {got.tolist()} must be positive floats")
    got_shares = _class_shares(labels, got.to(torch.float64))
    want = _class_shares(labels, expected)
    if any(abs(got_shares[c] - want[c]) > 1e-3 for c in want):
        raise Mismatch(
            f"{case.where} the sampler with your weights draws the classes with probabilities "
            f"{got_shares}; expected {want}, the same for every class"
        )


BALANCED_SAMPLE_WEIGHTS = Drill(
    id="balanced_sample_weights",
    title="Class-balanced sample weights for WeightedRandomSampler",
    page="week-2/day-6/sampling-and-batch-size",
    question="weighted-random-sampler",
    difficulty="easy",
    function="sample_weights",
    statement=(
        "Write `sample_weights(labels) -> weights`: `labels` is an int64 tensor of shape `(N,)` "
        "holding class indices (some classes may have no sample). Return a float tensor of shape "
        "`(N,)`, one positive weight per sample, such that "
        "`WeightedRandomSampler(weights, num_samples=N)` draws every class present equally often. "
        "Any scale is accepted: the sampler normalizes."
    ),
    hints=(
        "The sampler picks sample `i` with probability `weights[i] / weights.sum()`, so a class's "
        "share is the sum of its samples' weights.",
        "Give each sample the weight `1 / (number of samples of its class)`: every class then sums to 1.",
        "`torch.bincount(labels)` counts each class; index the counts with `labels` to get one per sample.",
    ),
    reference=_sample_weights,
    named_cases=_weights_named,
    generated=_weights_generated(),
    compare=_weights_compare,
    tolerance="class probabilities within 0.001",
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


# --- shard_iterable_dataset ---------------------------------------------------------------------


class _WorkerInfo:
    """What ``torch.utils.data.get_worker_info()`` returns inside a worker: its id and the count."""

    def __init__(self, id, num_workers):  # noqa: A002  the attribute names of torch's WorkerInfo
        self.id, self.num_workers = id, num_workers

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers})"


def _worker_items(n_items, worker_info):
    if worker_info is None:  # num_workers=0: the main process reads everything
        return list(range(n_items))
    return list(range(worker_info.id, n_items, worker_info.num_workers))


def _shard_case(n_items, num_workers):
    infos = [None] if num_workers == 0 else [_WorkerInfo(i, num_workers) for i in range(num_workers)]
    return Case(f"for {n_items} items and num_workers={num_workers}", (n_items, infos))


def _shard_named():
    return [_shard_case(10, 0), _shard_case(10, 2), _shard_case(10, 3), _shard_case(2, 4), _shard_case(0, 2)]


@st.composite
def _shard_generated(draw):
    return _shard_case(draw(st.integers(0, 30)), draw(st.integers(0, 6)))


def _all_workers(function):
    """The drill's function as the checker calls it: once per worker, the lists side by side."""

    def every_worker(n_items, infos):
        return [function(n_items, info) for info in infos]

    return every_worker


def _shard_compare(case, got, expected):
    n_items, infos = case.args
    for info, items in zip(infos, got, strict=True):
        if not isinstance(items, list | tuple | range) or not all(isinstance(i, int) for i in items):
            raise Mismatch(f"{case.where} worker {info} got {items!r}; expected a list of int indices")
    seen = [i for items in got for i in items]
    repeated = sorted({i for i in seen if seen.count(i) > 1})
    if repeated:
        raise Mismatch(
            f"{case.where} items {repeated[:6]} are read by more than one worker: "
            f"your workers yield {[list(items) for items in got]}"
        )
    missing = sorted(set(range(n_items)) - set(seen))
    if missing or set(seen) - set(range(n_items)):
        raise Mismatch(
            f"{case.where} your workers yield {[list(items) for items in got]}; every index in "
            f"range({n_items}) must be read exactly once (missing: {missing[:6]})"
        )
    sizes = [len(items) for items in got]
    if max(sizes) - min(sizes) > 1:
        raise Mismatch(
            f"{case.where} your workers get {sizes} items; split them evenly: {[len(e) for e in expected]}"
        )


SHARD_ITERABLE_DATASET = Drill(
    id="shard_iterable_dataset",
    title="Sharding an IterableDataset across workers",
    page="week-2/day-6/workers-and-the-gil",
    question="iterable-vs-map-style",
    difficulty="easy",
    function="worker_items",
    statement=(
        "An `IterableDataset` over `n_items` records calls `torch.utils.data.get_worker_info()` in its "
        "`__iter__` and yields only its own share. Write `worker_items(n_items, worker_info) -> list[int]`, "
        "the indices one worker reads: `worker_info` is `None` in the main process (`num_workers=0`), "
        "else an object with `.id` (0 to `num_workers - 1`) and `.num_workers`. Together the workers "
        "must read every index exactly once, in shares that differ by at most one."
    ),
    hints=(
        "Without sharding, each of the `num_workers` copies of the dataset yields every record: "
        "`num_workers` duplicates of each.",
        "`None` means there is no worker process: return every index.",
        "Take every `num_workers`-th index starting at `id`: `range(id, n_items, num_workers)`.",
    ),
    reference=_worker_items,
    named_cases=_shard_named,
    generated=_shard_generated(),
    compare=_shard_compare,
    adapter=_all_workers,
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
)


# --- length_bucketing_batches -------------------------------------------------------------------


def _bucket_batches(lengths, max_tokens):
    batches, batch, longest = [], [], 0
    for index in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        grown = max(longest, lengths[index])
        if batch and grown * (len(batch) + 1) > max_tokens:
            batches.append(batch)
            batch, grown = [], lengths[index]
        batch.append(index)
        longest = grown
    if batch:
        batches.append(batch)
    return batches


def _padded(lengths, batches):
    return sum(max(lengths[i] for i in batch) * len(batch) for batch in batches if batch)


def _bucket_case(lengths, max_tokens):
    return Case(f"for lengths {list(lengths)} and max_tokens={max_tokens}", (list(lengths), max_tokens))


def _bucket_named():
    return [
        _bucket_case([5, 1, 5, 1], 10),
        _bucket_case([3, 8, 2, 7, 1, 9], 16),
        _bucket_case([4], 4),
        _bucket_case([12, 2], 10),  # a sequence longer than the budget gets a batch of its own
        _bucket_case([], 8),
    ]


@st.composite
def _bucket_generated(draw):
    lengths = draw(st.lists(st.integers(1, 12), max_size=16))
    return _bucket_case(lengths, draw(st.integers(4, 40)))


def _bucket_compare(case, got, expected):
    lengths, max_tokens = case.args
    if not isinstance(got, list) or not all(isinstance(b, list) for b in got):
        raise Mismatch(f"{case.where} you returned {got!r}; expected a list of lists of indices")
    seen = sorted(i for batch in got for i in batch)
    if seen != list(range(len(lengths))):
        raise Mismatch(
            f"{case.where} your batches {got} hold indices {seen}; expected each of "
            f"range({len(lengths)}) exactly once"
        )
    if any(not batch for batch in got):
        raise Mismatch(f"{case.where} your batches {got} include an empty batch")
    for batch in got:
        cost = max(lengths[i] for i in batch) * len(batch)
        if len(batch) > 1 and cost > max_tokens:
            raise Mismatch(
                f"{case.where} your batch {batch} pads to {len(batch)} x {max(lengths[i] for i in batch)} = "
                f"{cost} tokens, over max_tokens={max_tokens}"
            )
    if _padded(lengths, got) > _padded(lengths, expected):
        raise Mismatch(
            f"{case.where} your batches {got} pad to {_padded(lengths, got)} tokens in all; batching in "
            f"order of length gives {expected}, {_padded(lengths, expected)} tokens"
        )


LENGTH_BUCKETING_BATCHES = Drill(
    id="length_bucketing_batches",
    title="Batches of similar length under a token budget",
    page="week-2/day-6/collation-and-length-batching",
    question="dynamic-batching",
    difficulty="medium",
    function="bucket_batches",
    statement=(
        "Write `bucket_batches(lengths, max_tokens) -> list[list[int]]`, the batches of a "
        "`batch_sampler`: `lengths` is a list of sequence lengths (ints >= 1). Return lists of "
        "indices that hold every index exactly once, no empty batch, each batch padding to at most "
        "`max_tokens` tokens (its size times its longest length; a sequence longer than `max_tokens` "
        "goes alone), and in all no more padded tokens than filling batches greedily in order of length."
    ),
    hints=(
        "Padding costs least when a batch's sequences have about the same length: "
        "sort the indices by length.",
        "Walk the sorted indices, adding each to the current batch while `(len(batch) + 1) * longest` "
        "stays within `max_tokens`; otherwise close the batch and start a new one.",
        "Keep the last, partial batch (a `batch_sampler` has no `drop_last` of its own), and return an "
        "empty list for no sequences.",
    ),
    reference=_bucket_batches,
    named_cases=_bucket_named,
    generated=_bucket_generated(),
    compare=_bucket_compare,
    tolerance="any batching at least as tight as the greedy one",
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
    adapter=_with_hooks_counted,
    tolerance=f"rtol={NORM_RTOL:g}, atol={NORM_ATOL:g}",
)

DRILLS = [
    SHARD_ITERABLE_DATASET,
    LENGTH_BUCKETING_BATCHES,
    BALANCED_SAMPLE_WEIGHTS,
    FINITE_DIFFERENCE_GRADIENT,
    OUTPUT_GRAD_NORMS,
    SALIENCY_MAP,
]
