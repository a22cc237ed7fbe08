"""The drills of Week 1: views and strides, padding, training memory, all-reduce, autograd, a loss."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text

# --- contiguous_from_strides --------------------------------------------------------------------


def _is_contiguous(shape, strides):
    if 0 in shape:
        return True  # no element to lay out: torch calls every empty tensor contiguous
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides), strict=True):
        if size != 1:  # a dimension of one element can have any stride
            if stride != expected:
                return False
            expected *= size
    return True


def _layout_case(shape, strides):
    return Case(f"for shape {shape_text(shape)} and strides {tuple(strides)}", (tuple(shape), tuple(strides)))


def _contiguity_named():
    return [
        _layout_case((2, 3), (3, 1)),
        _layout_case((3, 2), (1, 3)),  # a transpose
        _layout_case((2, 3), (6, 2)),  # every second column
        _layout_case((2, 1, 3), (3, 99, 1)),  # a size-1 dimension with any stride
        _layout_case((3, 4), (0, 1)),  # expand
        _layout_case((0, 3), (1, 5)),  # empty
        _layout_case((), ()),  # a scalar
        _layout_case((5,), (1,)),
    ]


@st.composite
def _contiguity_generated(draw):
    shape = draw(st.lists(st.integers(0, 4), max_size=4))
    row_major = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        row_major[i] = row_major[i + 1] * max(shape[i + 1], 1)
    kind = draw(st.sampled_from(["row-major", "permuted", "random"]))
    if kind == "row-major":
        strides = row_major
    elif kind == "permuted":
        strides = draw(st.permutations(row_major))
    else:
        strides = draw(st.lists(st.integers(0, 24), min_size=len(shape), max_size=len(shape)))
    return _layout_case(shape, strides)


def _contiguity_compare(case, got, expected):
    if not isinstance(got, bool | torch.BoolTensor):
        raise Mismatch(f"{case.where} you returned a {type(got).__name__}; expected True or False")
    if bool(got) != expected:
        shape, strides = case.args
        raise Mismatch(
            f"{case.where} you returned {bool(got)}; expected {expected} "
            f"(torch.empty_strided({shape}, {strides}).is_contiguous() is {expected})"
        )


CONTIGUOUS_FROM_STRIDES = Drill(
    id="contiguous_from_strides",
    title="Is it contiguous? From shape and strides",
    page="week-1/day-1/memory-and-views",
    question="strides",
    difficulty="easy",
    function="is_contiguous",
    statement=(
        "Write `is_contiguous(shape, strides) -> bool`, given a tensor's shape and strides as tuples of "
        "ints, that answers as `tensor.is_contiguous()` does: are the elements laid out in row-major "
        "order, one step apart, with no gaps? Use neither torch nor a tensor: only the two tuples."
    ),
    hints=(
        "Walk the dimensions from the last to the first, keeping the stride a row-major layout would have.",
        "The last dimension's stride must be 1, and each earlier one the product of the sizes after it.",
        "A dimension of size 1 is never stepped over, so its stride does not matter; "
        "a tensor with no elements is contiguous.",
    ),
    reference=_is_contiguous,
    named_cases=_contiguity_named,
    generated=_contiguity_generated(),
    compare=_contiguity_compare,
    forbidden=Forbidden(any_torch=True, instead="the drill asks for the answer from the two tuples alone"),
)


# --- pad_collate --------------------------------------------------------------------------------


def _pad_collate(batch):
    if not batch:
        return torch.zeros(0, 0), torch.zeros(0, dtype=torch.int64)
    lengths = torch.tensor([len(sequence) for sequence in batch], dtype=torch.int64)
    padded = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=0)
    return padded, lengths


def _sequences_case(lengths, dtype=torch.float32, start=1):
    batch = [torch.arange(start, start + n).to(dtype) for n in lengths]
    return Case(f"for lengths {list(lengths)} ({dtype})", (batch,))


def _pad_named():
    return [
        _sequences_case([3, 1]),
        _sequences_case([1, 3]),
        _sequences_case([1]),
        _sequences_case([2, 0, 1]),
        _sequences_case([4, 4]),
        _sequences_case([2, 5, 3], torch.int64),
        Case("for an empty batch", ([],)),
    ]


@st.composite
def _pad_generated(draw):
    lengths = draw(st.lists(st.integers(0, 6), min_size=1, max_size=5))
    dtype = draw(st.sampled_from([torch.float32, torch.float64, torch.int64]))
    return _sequences_case(lengths, dtype, start=draw(st.integers(-3, 3)))


def _pad_compare(case, got, expected):
    if not isinstance(got, tuple | list) or len(got) != 2:
        raise Mismatch(f"{case.where} you returned a {type(got).__name__}; expected a pair (batch, lengths)")
    expect_tensor(case, "batch", got[0], expected[0])
    expect_tensor(case, "lengths", got[1], expected[1])


PAD_COLLATE = Drill(
    id="pad_collate",
    title="A collate function that pads sequences and returns their lengths",
    page="week-1/day-1/creating-and-dtypes",
    question="variable-length-sequences",
    difficulty="easy",
    function="pad_collate",
    statement=(
        "Write `pad_collate(batch) -> (padded, lengths)` for a `DataLoader`: `batch` is a list of "
        "1-D tensors of lengths `L_i` and one dtype. Return `padded`, of shape `(B, max L_i)` and "
        "the sequences' dtype, each sequence at the start of its row and zeros after it, and "
        "`lengths`, an int64 tensor of shape `(B,)`. An empty batch gives a `(0, 0)` float32 "
        "tensor and an empty `lengths`."
    ),
    hints=(
        "`torch.nn.utils.rnn.pad_sequence` pads a list of tensors to the longest one.",
        "Read its `batch_first` argument: by default it puts time first, `(max L_i, B)`.",
        "`lengths` must be a tensor, `torch.tensor([len(s) for s in batch])`, not a list; "
        "handle `batch == []` before calling `pad_sequence`, which refuses an empty list.",
    ),
    reference=_pad_collate,
    named_cases=_pad_named,
    generated=_pad_generated(),
    compare=_pad_compare,
)


# --- stable_bce_with_logits ---------------------------------------------------------------------

BCE_RTOL, BCE_ATOL = 1e-5, 1e-6


def _bce_with_logits(logits, targets):
    return F.binary_cross_entropy_with_logits(logits, targets)


def _bce_case(logits, targets, dtype=torch.float32):
    logits = torch.as_tensor(logits, dtype=dtype)
    targets = torch.as_tensor(targets, dtype=dtype)
    return Case(f"for logits {logits.tolist()} and targets {targets.tolist()}", (logits, targets))


def _bce_named():
    wide = torch.tensor([[-2.0, 3.0], [0.5, -4.0]])
    return [
        _bce_case([0.0], [1.0]),
        _bce_case([1000.0], [0.0]),
        _bce_case([-1000.0], [1.0]),
        _bce_case([100.0, -100.0], [1.0, 0.0]),
        _bce_case([2.0, -3.0], [0.25, 0.75]),  # soft targets
        Case("for transposed (non-contiguous) logits", (wide.t(), torch.tensor([[1.0, 0.0], [0.0, 1.0]]))),
    ]


@st.composite
def _bce_generated(draw):
    n = draw(st.integers(1, 6))
    dtype = draw(st.sampled_from([torch.float32, torch.float64]))
    logits = draw(st.lists(st.floats(-200, 200, width=32), min_size=n, max_size=n))
    targets = draw(st.lists(st.sampled_from([0.0, 1.0, 0.5]), min_size=n, max_size=n))
    return _bce_case(logits, targets, dtype)


def _bce_compare(case, got, expected):
    expect_tensor(case, "loss", got, expected, rtol=BCE_RTOL, atol=BCE_ATOL)


STABLE_BCE_WITH_LOGITS = Drill(
    id="stable_bce_with_logits",
    title="Binary cross-entropy from logits, stable for any logit",
    page="week-1/modules-and-optimization",
    question="bce-with-logits",
    difficulty="medium",
    function="bce_with_logits",
    statement=(
        "Write `bce_with_logits(logits, targets) -> loss`: the mean binary cross-entropy of "
        "`sigmoid(logits)` against `targets` (same shape, values in [0, 1]), as a 0-d tensor of the "
        "logits' dtype, finite and exact for logits of any size, ±1000 included. Use elementwise "
        "torch operations, not `F.binary_cross_entropy_with_logits` or `BCELoss`."
    ),
    hints=(
        "`-log(sigmoid(x))` is `log(1 + exp(-x))`: for a large negative `x`, `exp(-x)` overflows, "
        "and `sigmoid(x)` rounds to 0 before the log sees it.",
        "Rewrite the loss per element as `max(x, 0) - x * y + log(1 + exp(-|x|))`: the exponent "
        "is never positive.",
        "`torch.clamp(x, min=0)`, `torch.log1p` and `torch.exp(-x.abs())`, then `.mean()`.",
    ),
    reference=_bce_with_logits,
    named_cases=_bce_named,
    generated=_bce_generated(),
    compare=_bce_compare,
    forbidden=Forbidden(
        torch_functions=frozenset({"binary_cross_entropy_with_logits", "binary_cross_entropy"}),
        instead="the drill asks you to write the loss from elementwise operations",
    ),
    tolerance=f"rtol={BCE_RTOL:g}, atol={BCE_ATOL:g}",
)


# --- micro_batch_accumulation -------------------------------------------------------------------

ACCUMULATION_RTOL, ACCUMULATION_ATOL = 1e-5, 1e-6
STALE_GRADIENT = 0.5  # what the last step left in every .grad when the reader's function starts


def _big_batch_gradients(model, inputs, targets, micro_batch_size):
    model.zero_grad()
    F.mse_loss(model(inputs), targets).backward()  # the gradient the micro-batches must add up to


def _with_stale_grads_watched(function):
    """Each .grad starts with the last step's gradient; the forward passes' batch sizes are recorded."""

    def call(model, inputs, targets, micro_batch_size):
        for parameter in model.parameters():
            parameter.grad = torch.full_like(parameter, STALE_GRADIENT)
        sizes = []
        handle = model.register_forward_pre_hook(lambda module, args: sizes.append(len(args[0])))
        try:
            function(model, inputs, targets, micro_batch_size)
        finally:
            handle.remove()
        grads = {name: p.grad if p.grad is None else p.grad.clone() for name, p in model.named_parameters()}
        return grads, max(sizes, default=0)

    return call


def _accumulation_case(n, micro_batch_size, widths=(2, 3, 1), seed=0):
    generator = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = torch.nn.Sequential(
        torch.nn.Linear(widths[0], widths[1]), torch.nn.Tanh(), torch.nn.Linear(widths[1], widths[2])
    )
    inputs = torch.randn(n, widths[0], generator=generator)
    targets = torch.randn(n, widths[2], generator=generator)
    where = f"for a batch of {n} in micro-batches of at most {micro_batch_size}"
    return Case(where, (model, inputs, targets, micro_batch_size))


def _accumulation_named():
    return [
        _accumulation_case(4, 2),
        _accumulation_case(5, 2),  # micro-batches of 2, 2 and 1
        _accumulation_case(7, 3, seed=1),
        _accumulation_case(3, 8),  # one micro-batch
        _accumulation_case(4, 1),
        _accumulation_case(1, 1),
    ]


@st.composite
def _accumulation_generated(draw):
    widths = tuple(draw(st.lists(st.integers(1, 5), min_size=3, max_size=3)))
    return _accumulation_case(
        draw(st.integers(1, 9)), draw(st.integers(1, 5)), widths, seed=draw(st.integers(0, 1000))
    )


def _accumulation_compare(case, got, expected):
    (grads, largest), (wanted, _) = got, expected
    micro_batch_size = case.args[3]
    if largest > micro_batch_size:
        raise Mismatch(
            f"{case.where} your model ran {largest} samples in one forward pass; "
            f"a micro-batch may hold at most {micro_batch_size}"
        )
    for name, gradient in wanted.items():
        if grads[name] is None:
            raise Mismatch(f"{case.where} the .grad of {name} is None; expected the batch's gradient")
        stale = torch.full_like(gradient, STALE_GRADIENT)
        if torch.allclose(grads[name] - stale, gradient, rtol=ACCUMULATION_RTOL, atol=ACCUMULATION_ATOL):
            raise Mismatch(
                f"{case.where} the .grad of {name} still holds the last step's gradient added to "
                "the new one: clear the gradients first"
            )
        expect_tensor(
            case, f".grad of {name}", grads[name], gradient, rtol=ACCUMULATION_RTOL, atol=ACCUMULATION_ATOL
        )


MICRO_BATCH_ACCUMULATION = Drill(
    id="micro_batch_accumulation",
    title="Gradient accumulation over micro-batches of unequal size",
    page="week-1/autograd",
    question="gradient-accumulation",
    difficulty="medium",
    function="accumulate_gradients",
    statement=(
        "Write `accumulate_gradients(model, inputs, targets, micro_batch_size)`: the batch `inputs` "
        "`(N, in)`, `targets` `(N, out)` is too big for one pass. Run forward and backward on "
        "micro-batches of at most `micro_batch_size` samples (the last may be smaller) so that each "
        "parameter's `.grad` ends holding the gradient of `F.mse_loss(model(inputs), targets)`, as "
        "one big backward would give. The `.grad`s still hold the last step's gradients when it starts."
    ),
    hints=(
        "`backward()` adds into `.grad`: call `model.zero_grad()` once, before the first micro-batch.",
        "The big loss is a mean over N samples; a micro-batch's mean covers only its own `n_i`, so "
        "weight it by `n_i / N`, not by `1 / k`: the last micro-batch may be smaller.",
        "`inputs.split(micro_batch_size)` and `targets.split(micro_batch_size)` give the micro-batches.",
    ),
    reference=_big_batch_gradients,
    named_cases=_accumulation_named,
    generated=_accumulation_generated(),
    compare=_accumulation_compare,
    may_change=frozenset({"grad", "mode"}),  # the task is to leave gradients in .grad
    adapter=_with_stale_grads_watched,
    tolerance=f"rtol={ACCUMULATION_RTOL:g}, atol={ACCUMULATION_ATOL:g}",
)

# --- linear_backward ----------------------------------------------------------------------------

LINEAR_RTOL, LINEAR_ATOL = 1e-5, 1e-6


def _linear_backward(x, weight, grad_output, frozen):
    # Autograd's own answer; the checker runs the reader's function with autograd off.
    with torch.enable_grad():
        x = x.detach().requires_grad_(True)
        weight = weight.detach().requires_grad_(not frozen)
        bias = torch.zeros(weight.shape[0], dtype=weight.dtype, requires_grad=not frozen)
        output = F.linear(x, weight, bias)
        if frozen:
            (grad_input,) = torch.autograd.grad(output, x, grad_output)
            return grad_input, None, None
        return torch.autograd.grad(output, (x, weight, bias), grad_output)


def _without_autograd(function):
    def call(x, weight, grad_output, frozen):
        with torch.no_grad():
            return function(x, weight, grad_output, frozen)

    return call


def _linear_case(leading, features_in, features_out, frozen=False, dtype=torch.float32, seed=0, how=""):
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(*leading, features_in, generator=generator).to(dtype)
    weight = torch.randn(features_out, features_in, generator=generator).to(dtype)
    grad_output = torch.randn(*leading, features_out, generator=generator).to(dtype)
    layer = f"{'a frozen ' if frozen else ''}Linear({features_in}, {features_out})"
    where = f"for {layer} on x of shape {shape_text(x.shape)} ({dtype}){how}"
    return Case(where, (x, weight, grad_output, frozen))


def _linear_named():
    transposed = _linear_case((3,), 4, 2)
    x, weight, grad_output, frozen = transposed.args
    return [
        _linear_case((4,), 3, 2),
        _linear_case((2, 3), 4, 5),  # a batch of sequences
        _linear_case((4,), 3, 2, frozen=True),
        _linear_case((), 3, 2),  # one sample, no batch dimension
        _linear_case((0,), 3, 2),  # an empty batch
        Case(
            transposed.where + " with a non-contiguous weight",
            (x, weight.t().contiguous().t(), grad_output, frozen),
        ),
        _linear_case((2, 2, 2), 2, 3, frozen=True, dtype=torch.float64),
    ]


@st.composite
def _linear_generated(draw):
    leading = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    return _linear_case(
        leading,
        draw(st.integers(1, 5)),
        draw(st.integers(1, 5)),
        frozen=draw(st.booleans()),
        dtype=draw(st.sampled_from([torch.float32, torch.float64])),
        seed=draw(st.integers(0, 1000)),
    )


def _linear_compare(case, got, expected):
    if not isinstance(got, tuple | list) or len(got) != 3:
        raise Mismatch(
            f"{case.where} you returned a {type(got).__name__}; expected (grad_input, grad_weight, grad_bias)"
        )
    frozen = case.args[3]
    if got[0] is None:
        raise Mismatch(
            f"{case.where} your grad_input is None; the gradient still flows to the layer's input "
            "(the chain rule needs d output / d x, which is the weight, frozen or not)"
        )
    expect_tensor(case, "grad_input", got[0], expected[0], rtol=LINEAR_RTOL, atol=LINEAR_ATOL)
    for name, mine, wanted in zip(("grad_weight", "grad_bias"), got[1:], expected[1:], strict=True):
        if frozen and mine is not None:
            raise Mismatch(
                f"{case.where} your {name} is a {type(mine).__name__}; expected None: autograd "
                "computes no gradient for a weight with requires_grad=False"
            )
        if not frozen:
            expect_tensor(case, name, mine, wanted, rtol=LINEAR_RTOL, atol=LINEAR_ATOL)


LINEAR_BACKWARD = Drill(
    id="linear_backward",
    title="A linear layer's backward pass by hand, frozen or not",
    page="week-1/autograd",
    question="parameter-freezing",
    difficulty="medium",
    function="linear_backward",
    statement=(
        "Write `linear_backward(x, weight, grad_output, frozen) -> (grad_input, grad_weight, grad_bias)` "
        "for `y = x @ weight.T + bias`: `x` is `(..., in)` with any number of leading dimensions, "
        "`weight` `(out, in)`, and `grad_output` `(..., out)` is dL/dy. Return what autograd would "
        "put in `x.grad`, `weight.grad` and `bias.grad`; when `frozen`, weight and bias have "
        "`requires_grad=False`. "
        "Autograd is off while it runs: use tensor operations."
    ),
    hints=(
        "Each output element is `sum_j x[..., j] * weight[o, j] + bias[o]`: differentiate it "
        "with respect to each of the three, then sum over every position that used it.",
        "`grad_input = grad_output @ weight` whether or not the weight is frozen; a frozen weight and "
        "bias get `None`, as their `.grad` stays.",
        "Flatten the leading dimensions first, `g = grad_output.reshape(-1, out)` and "
        "`x.reshape(-1, in)`: then `grad_weight = g.T @ x` and `grad_bias = g.sum(0)`.",
    ),
    reference=_linear_backward,
    named_cases=_linear_named,
    generated=_linear_generated(),
    compare=_linear_compare,
    adapter=_without_autograd,
    tolerance=f"rtol={LINEAR_RTOL:g}, atol={LINEAR_ATOL:g}",
)

# --- ring_all_reduce ----------------------------------------------------------------------------

RING_RTOL, RING_ATOL = 1e-5, 1e-6


def _average_on_every_rank(grads, exchange):
    # What all_reduce followed by DDP's division by the world size leaves on every rank.
    average = torch.stack(grads).mean(0)
    return [average.clone() for _ in grads]


class _Ring:
    """The ranks' only link: each rank sends one tensor to the next rank and receives one from the
    previous, all at once; the elements that cross it are counted."""

    def __init__(self, world_size):
        self.world_size, self.elements_sent = world_size, 0

    def __call__(self, messages):
        if not isinstance(messages, list | tuple) or len(messages) != self.world_size:
            raise ValueError(f"exchange takes a list of {self.world_size} tensors, one sent by each rank")
        if not all(isinstance(m, torch.Tensor) for m in messages):
            raise ValueError("exchange takes tensors: messages[r] is what rank r sends to rank r + 1")
        self.elements_sent += sum(m.numel() for m in messages)
        return [messages[rank - 1].clone() for rank in range(self.world_size)]


def _over_a_ring(function):
    def call(grads, exchange_unused):
        ring = _Ring(len(grads))
        return function(grads, ring), ring.elements_sent

    return call


def _ring_case(world_size, numel, seed=0):
    generator = torch.Generator().manual_seed(seed)
    grads = [torch.randn(numel, generator=generator) for _ in range(world_size)]
    return Case(f"for {world_size} ranks and gradients of {numel} elements", (grads, None))


def _ring_named():
    return [
        _ring_case(2, 4),
        _ring_case(3, 6),
        _ring_case(3, 7),  # chunks of 3, 2 and 2 elements
        _ring_case(4, 3),  # fewer elements than ranks: one chunk is empty
        _ring_case(1, 5),  # one rank: nothing to send
        _ring_case(5, 12, seed=1),
    ]


@st.composite
def _ring_generated(draw):
    return _ring_case(draw(st.integers(1, 6)), draw(st.integers(0, 14)), seed=draw(st.integers(0, 1000)))


def _ring_compare(case, got, expected):
    (results, sent), (averages, _) = got, expected
    grads = case.args[0]
    world_size, numel = len(grads), grads[0].numel()
    if not isinstance(results, list | tuple) or len(results) != world_size:
        raise Mismatch(
            f"{case.where} you returned {type(results).__name__}; expected a list of {world_size} tensors"
        )
    for rank, (mine, average) in enumerate(zip(results, averages, strict=True)):
        if isinstance(mine, torch.Tensor) and mine.shape == average.shape and world_size > 1:
            total = average * world_size
            if torch.allclose(mine, total, rtol=RING_RTOL, atol=RING_ATOL) and not torch.allclose(
                total, average, rtol=RING_RTOL, atol=RING_ATOL
            ):
                raise Mismatch(
                    f"{case.where} rank {rank} holds the sum of the gradients; DDP divides it by "
                    f"the world size, {world_size}, to average"
                )
        expect_tensor(case, f"gradient on rank {rank}", mine, average, rtol=RING_RTOL, atol=RING_ATOL)
    ring = 2 * (world_size - 1) * numel
    if sent != ring:
        raise Mismatch(
            f"{case.where} your ranks sent {sent} elements through exchange in all; a ring all-reduce "
            f"sends 2 x (ranks - 1) x {numel} = {ring}: each chunk goes around once to be summed, "
            "once to be shared"
        )


RING_ALL_REDUCE = Drill(
    id="ring_all_reduce",
    title="DDP's gradient average, as a ring all-reduce",
    page="week-1/day-1/compile-and-distributed",
    question="torch-distributed",
    difficulty="hard",
    function="ring_all_reduce",
    statement=(
        "Write `ring_all_reduce(grads, exchange) -> list`: `grads[r]` is rank r's 1-D gradient, "
        "all of one length. `exchange(messages)` is the ring's only link: it takes a list with one "
        "tensor per rank, sends `messages[r]` to rank `r + 1` (the last to rank 0) and returns what "
        "each rank received. Return each rank's result, the average of all `grads`, as DDP leaves it, "
        "sending 2 x (ranks - 1) x length elements in all."
    ),
    hints=(
        "Cut each gradient into one chunk per rank with `tensor_split(ranks)` (`chunk` may return "
        "fewer). Two phases of `ranks - 1` exchanges: reduce-scatter, then all-gather.",
        "Reduce-scatter: at step s rank r sends its chunk `(r - s) % ranks` and adds what it receives "
        "to its chunk `(r - s - 1) % ranks`; afterwards rank r holds chunk `(r + 1) % ranks` summed.",
        "All-gather: at step s rank r sends its chunk `(r + 1 - s) % ranks` and stores what it "
        "receives as chunk `(r - s) % ranks`. Work on clones, and divide by the number of ranks.",
    ),
    reference=_average_on_every_rank,
    named_cases=_ring_named,
    generated=_ring_generated(),
    compare=_ring_compare,
    adapter=_over_a_ring,
    tolerance=f"rtol={RING_RTOL:g}, atol={RING_ATOL:g}",
)

# --- adam_training_bytes ------------------------------------------------------------------------


def _measured_bytes(model, amsgrad):
    """Bytes of the parameters, their gradients and Adam's state after one real step, by kind."""
    trainable = [p for p in model.parameters() if p.requires_grad]
    for parameter in trainable:
        parameter.grad = torch.randn_like(parameter)  # what backward would leave
    optimizer = torch.optim.Adam(model.parameters(), amsgrad=amsgrad)
    optimizer.step()
    nbytes = lambda t: t.numel() * t.element_size()  # noqa: E731
    return {
        "parameters": sum(nbytes(p) for p in model.parameters()),
        "gradients": sum(nbytes(p.grad) for p in trainable),
        "Adam's state": sum(nbytes(t) for state in optimizer.state.values() for t in state.values()),
    }


def _counted_bytes(model, amsgrad):
    """What `_measured_bytes` finds, counted without an optimizer: creating one imports
    torch._dynamo, seconds of a check's time. Its tests hold the two equal for every case."""
    nbytes = lambda t: t.numel() * t.element_size()  # noqa: E731
    trainable = [p for p in model.parameters() if p.requires_grad]
    step = 8 if torch.get_default_dtype() == torch.float64 else 4  # Adam's 0-d step tensor
    moments = 3 if amsgrad else 2  # exp_avg, exp_avg_sq and, with amsgrad, max_exp_avg_sq
    return {
        "parameters": sum(nbytes(p) for p in model.parameters()),
        "gradients": sum(nbytes(p) for p in trainable),
        "Adam's state": sum(moments * nbytes(p) + step for p in trainable),
    }


def _training_bytes(model, amsgrad):
    return sum(_counted_bytes(model, amsgrad).values())


def _tied_language_model():
    model = torch.nn.Sequential(torch.nn.Embedding(10, 4), torch.nn.Linear(4, 10, bias=False))
    model[1].weight = model[0].weight  # one tensor, two modules: a tied embedding and output layer
    return model


def _frozen_first_layer(model):
    for parameter in model[0].parameters():
        parameter.requires_grad_(False)
    return model


MODELS = {
    "Linear(4, 3)": lambda: torch.nn.Linear(4, 3),
    "Linear(4, 3, bias=False)": lambda: torch.nn.Linear(4, 3, bias=False),
    "an MLP 4 -> 8 -> 2 with its first layer frozen": lambda: _frozen_first_layer(
        torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    ),
    "an MLP 4 -> 8 -> 2": lambda: torch.nn.Sequential(
        torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2)
    ),
    "Embedding(10, 4) with its weight tied to a Linear(4, 10)": _tied_language_model,
    "Conv2d(3, 4, 3) and BatchNorm2d(4)": lambda: torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)
    ),
}


def _bytes_case(name, dtype=torch.float32, amsgrad=False, seed=0):
    torch.manual_seed(seed)
    model = MODELS[name]().to(dtype)
    return Case(f"for {name} in {dtype} with amsgrad={amsgrad}", (model, amsgrad))


def _bytes_named():
    return [
        _bytes_case("Linear(4, 3)"),
        _bytes_case("an MLP 4 -> 8 -> 2 with its first layer frozen"),
        _bytes_case("Linear(4, 3)", torch.bfloat16),
        _bytes_case("Embedding(10, 4) with its weight tied to a Linear(4, 10)"),
        _bytes_case("Conv2d(3, 4, 3) and BatchNorm2d(4)"),
        _bytes_case("Linear(4, 3, bias=False)", torch.float64, amsgrad=True),
    ]


@st.composite
def _bytes_generated(draw):
    return _bytes_case(
        draw(st.sampled_from(sorted(MODELS))),
        draw(st.sampled_from([torch.float32, torch.float64, torch.bfloat16, torch.float16])),
        amsgrad=draw(st.booleans()),
    )


def _bytes_compare(case, got, expected):
    if isinstance(got, bool) or not isinstance(got, int):
        raise Mismatch(
            f"{case.where} you returned a {type(got).__name__}; expected an int, a number of bytes"
        )
    if got != expected:
        parts = _counted_bytes(case.args[0], case.args[1])
        said = ", ".join(f"{kind} {n}" for kind, n in parts.items())
        raise Mismatch(
            f"{case.where} you counted {got} bytes; after one step there are {expected}, of which {said}"
        )


ADAM_TRAINING_BYTES = Drill(
    id="adam_training_bytes",
    title="The memory a model needs to train with Adam",
    page="week-1/day-1/devices-and-gpu-memory",
    question="cuda-out-of-memory",
    difficulty="medium",
    function="training_bytes",
    statement=(
        "Write `training_bytes(model, amsgrad) -> int`: the bytes that the model's parameters, their "
        "gradients and the state of `torch.optim.Adam(model.parameters(), amsgrad=amsgrad)` hold after "
        "the first `backward()` and `optimizer.step()`. Not buffers, not activations. Parameters may be "
        "of any float dtype, frozen (`requires_grad=False`) or shared between modules. Count from "
        "the parameters alone, without running an optimizer."
    ),
    hints=(
        "`p.numel() * p.element_size()` is a tensor's size in bytes; `model.parameters()` yields a "
        "shared parameter once.",
        "A frozen parameter gets no `.grad`, and Adam keeps no state for a parameter whose `.grad` is None.",
        "Per trained parameter Adam keeps `exp_avg` and `exp_avg_sq` of its dtype (and `max_exp_avg_sq` "
        "with amsgrad), plus a `step` counter: a 0-d float32 tensor, 4 bytes.",
    ),
    reference=_training_bytes,
    named_cases=_bytes_named,
    generated=_bytes_generated(),
    compare=_bytes_compare,
)

# --- view_strides -------------------------------------------------------------------------------


def _view_strides(shape, strides, new_shape):
    try:
        return torch.empty_strided(shape, strides).view(new_shape).stride()
    except RuntimeError:  # "view size is not compatible with input tensor's size and stride"
        return None


def _view_case(shape, strides, new_shape, how=""):
    where = (
        f"for shape {shape_text(shape)} and strides {tuple(strides)}{how} viewed as {shape_text(new_shape)}"
    )
    return Case(where, (tuple(shape), tuple(strides), tuple(new_shape)))


def _view_named():
    return [
        _view_case((2, 3), (3, 1), (6,)),
        _view_case((3, 2), (1, 3), (6,), " (a transpose)"),
        _view_case((6, 4), (1, 6), (3, 2, 4), " (a transpose)"),  # splitting a dimension always works
        _view_case((4, 2), (5, 1), (8,), " (two columns of a 4 x 5 matrix)"),
        _view_case((4, 2), (5, 1), (2, 2, 2), " (two columns of a 4 x 5 matrix)"),
        _view_case((2, 3, 4), (12, 1, 3), (6, 4)),  # dims 0 and 1 do not lie one after the other
        _view_case((2, 3, 4), (12, 1, 3), (2, 3, 2, 2)),
        _view_case((3, 4), (0, 1), (12,), " (an expand)"),
        _view_case((3, 4), (0, 1), (3, 2, 2), " (an expand)"),
        _view_case((2, 1, 3), (3, 99, 1), (6,)),  # a size-1 dimension's stride does not matter
        _view_case((3, 2), (1, 3), (3, 1, 2)),
        _view_case((), (), (1, 1)),
        _view_case((0, 3), (3, 1), (3, 0)),
    ]


def _split(draw, size):
    factors = [f for f in range(2, size) if size % f == 0]
    if not factors:
        return [size]
    first = draw(st.sampled_from(factors))
    return [first, size // first]


@st.composite
def _view_generated(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=2, max_size=4))
    order = draw(st.permutations(range(len(shape))))  # the identity: a row-major layout
    steps = draw(st.lists(st.integers(1, 2), min_size=len(shape), max_size=len(shape)))
    strides, step = [0] * len(shape), 1
    for dim in reversed(order):  # row-major in the order of the dims, some of them sliced
        strides[dim] = step * steps[dim]
        step *= shape[dim] * steps[dim]
    new_shape = [shape[0]]
    for size in shape[1:]:  # about half the neighbours merged, where view may refuse
        move = draw(st.sampled_from(["merge", "keep", "merge", "split", "one"]))
        if move == "merge":
            new_shape[-1] *= size
        elif move == "split":
            new_shape += _split(draw, size)
        elif move == "one":
            new_shape += [1, size]
        else:
            new_shape.append(size)
    return _view_case(shape, strides, new_shape)


def _view_compare(case, got, expected):
    shape, strides, new_shape = case.args
    raises = f"torch.empty_strided({shape}, {strides}).view({new_shape})"
    if got is not None and (
        not isinstance(got, tuple | list)
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in got)
    ):
        raise Mismatch(f"{case.where} you returned {got!r}; expected a tuple of ints or None")
    if expected is None:
        if got is not None:
            raise Mismatch(
                f"{case.where} you returned {tuple(got)}; expected None: {raises} raises, since "
                "a merged dimension would need one stride over memory that is not evenly spaced"
            )
        return
    if got is None:
        raise Mismatch(f"{case.where} you returned None; expected {expected}: {raises} works")
    if len(got) != len(new_shape):
        raise Mismatch(
            f"{case.where} you returned {len(got)} strides; the new shape has {len(new_shape)} dims"
        )
    if 0 in new_shape:
        return  # no element is ever addressed: any strides describe an empty view
    stepped = [d for d, size in enumerate(new_shape) if size != 1]  # never stepped over otherwise
    if any(got[d] != expected[d] for d in stepped):
        raise Mismatch(f"{case.where} you returned {tuple(got)}; expected {expected} ({raises}.stride())")


VIEW_STRIDES = Drill(
    id="view_strides",
    title="The strides of a view, or why view() refuses",
    page="week-1/day-1/memory-and-views",
    question="view-error",
    difficulty="hard",
    function="view_strides",
    statement=(
        "Write `view_strides(shape, strides, new_shape) -> tuple | None`: a tensor has this shape and "
        "these strides (tuples of ints); `new_shape` has as many elements, with no `-1`. Return the "
        "strides of `tensor.view(new_shape)`, or `None` where `view` raises. Use no tensor, only the "
        "tuples. The strides of dimensions of size 1, and of an empty tensor, are not compared."
    ),
    hints=(
        "Contiguity is not the condition: group the old dimensions into runs that lie one after the "
        "other in memory (`stride[i] == stride[i + 1] * shape[i + 1]`), skipping dimensions of size 1.",
        "Each run is one evenly spaced block of memory; the new dimensions must cover the runs exactly, "
        "a whole number of new dimensions per run, or `view` raises.",
        "Walk both shapes from the last dimension: within a run, a new dimension's stride is the run's "
        "innermost stride times the product of the new sizes after it in that run.",
    ),
    reference=_view_strides,
    named_cases=_view_named,
    generated=_view_generated(),
    compare=_view_compare,
    forbidden=Forbidden(
        any_torch=True, instead="the drill asks for the strides from the tuples alone, no tensor"
    ),
)

DRILLS = [
    VIEW_STRIDES,
    CONTIGUOUS_FROM_STRIDES,
    PAD_COLLATE,
    ADAM_TRAINING_BYTES,
    RING_ALL_REDUCE,
    MICRO_BATCH_ACCUMULATION,
    LINEAR_BACKWARD,
    STABLE_BCE_WITH_LOGITS,
]
