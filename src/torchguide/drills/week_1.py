"""The drills of Week 1: memory and strides, padding sequences, a stable loss."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Mismatch, expect_tensor, shape_text

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
    tolerance=f"rtol={BCE_RTOL:g}, atol={BCE_ATOL:g}",
)

DRILLS = [CONTIGUOUS_FROM_STRIDES, PAD_COLLATE, STABLE_BCE_WITH_LOGITS]
