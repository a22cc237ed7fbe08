"""The labs' tasks: drills set inside a lab's notebook, at the point of the walkthrough where the
reader has just seen what they need. Each lab's notebook holds the task, a stub cell the reader
writes in and a check cell (``check_here``); the walkthrough then goes on with one way to do it.

A lab task is a `~torchguide.drills.framework.Drill` like a page's, with ``lab`` naming the
lab it is set in: it has no section on a page, and the Practice page does not list it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import torch
from hypothesis import strategies as st

from torchguide.drills.framework import Case, Drill, Forbidden, Mismatch, expect_tensor, shape_text

LABS = "snippets/labs"

# --- broadcast_shape ------------------------------------------------------------------------------


def _numpy_broadcasting() -> str:
    """The file of ``numpy.broadcast_shapes`` (torch has imported NumPy already)."""
    import numpy

    return numpy.broadcast_shapes.__code__.co_filename


def _broadcast_shape(a, b):
    size = max(len(a), len(b))
    a = (1,) * (size - len(a)) + tuple(a)
    b = (1,) * (size - len(b)) + tuple(b)
    shape = []
    for x, y in zip(a, b, strict=True):
        if x == y or y == 1:
            shape.append(x)
        elif x == 1:
            shape.append(y)
        else:
            return None
    return tuple(shape)


def _shapes_case(a, b):
    return Case(f"for shapes {shape_text(a)} and {shape_text(b)}", (tuple(a), tuple(b)))


def _broadcast_named():
    return [
        _shapes_case((3, 1), (1, 4)),  # the lab's grid
        _shapes_case((2, 3), (3,)),  # aligned from the right: a row for every one of 2
        _shapes_case((4, 3), (4,)),  # aligned from the left, these would match
        _shapes_case((3, 2), (3,)),  # the lab's error
        _shapes_case((), (2, 3)),  # a scalar broadcasts to anything
        _shapes_case((5, 1, 4), (3, 1)),
        _shapes_case((1,), (0,)),  # a size of 0 wins over 1: the result is empty
        _shapes_case((0,), (3,)),
        _shapes_case((2, 1, 1), (1, 1)),
    ]


@st.composite
def _broadcast_generated(draw):
    target = draw(st.lists(st.integers(0, 4), max_size=4))

    def squeezed():
        kept = target[draw(st.integers(0, len(target))) :]
        return [1 if draw(st.booleans()) else size for size in kept]

    a, b = squeezed(), squeezed()
    if b and draw(st.integers(0, 3)) == 0:  # sometimes one size that does not fit
        at = draw(st.integers(0, len(b) - 1))
        b[at] = draw(st.integers(2, 5))
    return _shapes_case(a, b)


def _broadcast_compare(case, got, expected):
    if expected is None:
        if got is not None:
            raise Mismatch(f"{case.where} you returned {got!r}; expected None: they do not broadcast")
        return
    if got is None:
        raise Mismatch(f"{case.where} you returned None; expected {expected!r}: they broadcast")
    if not isinstance(got, tuple):
        raise Mismatch(
            f"{case.where} you returned {got!r}, a {type(got).__name__}; expected the tuple {expected!r}"
        )
    if got != expected:
        raise Mismatch(f"{case.where} you returned {got!r}; expected {expected!r}")


BROADCAST_SHAPE = Drill(
    id="broadcast_shape",
    title="The shape two shapes broadcast to",
    page="week-1/day-1/memory-and-views",
    question="broadcasting",
    difficulty="easy",
    function="broadcast_shape",
    statement=(
        "Write `broadcast_shape(a, b) -> tuple[int, ...] | None`: given two shapes as tuples of ints, "
        "return the shape that `torch.broadcast_shapes(a, b)` gives, as a tuple, or `None` where the two "
        "do not broadcast. Call neither torch (its `broadcast_shapes`, or tensors to try the shapes on) "
        "nor `numpy.broadcast_shapes`: work from the two tuples alone."
    ),
    hints=(
        "Align the shapes from the right: pad the shorter one with 1s on the left.",
        "For each pair of sizes: equal, or one of them is 1 (the result takes the other); anything "
        "else does not broadcast.",
        "A size of 0 paired with 1 gives 0, not the larger of the two.",
    ),
    reference=_broadcast_shape,
    named_cases=_broadcast_named,
    generated=_broadcast_generated(),
    compare=_broadcast_compare,
    forbidden=Forbidden(
        any_torch=True,
        files=(torch.functional.__file__, _numpy_broadcasting()),
        instead="the task asks for the shape from the two tuples alone",
    ),
    lab=f"{LABS}/broadcasting.py",
)

# --- expand_strides ------------------------------------------------------------------------------


def _expand_strides(shape, strides, target):
    if len(target) < len(shape):
        return None
    new = len(target) - len(shape)
    result = [0] * new  # a new leading dimension repeats the whole tensor: a step of 0
    for size, stride, wanted in zip(shape, strides, target[new:], strict=True):
        if size == wanted:
            result.append(stride)
        elif size == 1:
            result.append(0)
        else:
            return None
    return tuple(result)


def _expand_case(shape, strides, target):
    where = f"for shape {shape_text(shape)} and strides {tuple(strides)} expanded to {shape_text(target)}"
    return Case(where, (tuple(shape), tuple(strides), tuple(target)))


def _expand_named():
    return [
        _expand_case((3, 1), (1, 1), (3, 4)),  # the lab's column
        _expand_case((3, 1), (1, 1), (2, 3, 4)),  # a new leading dimension
        _expand_case((4,), (1,), (3, 4)),  # a row, repeated
        _expand_case((3, 1), (1, 1), (3, 1)),  # nothing to stretch: strides as they were
        _expand_case((2, 1, 3), (3, 3, 1), (2, 5, 3)),
        _expand_case((1, 3), (3, 1), (0, 3)),  # stretched to no rows
        _expand_case((3, 2), (2, 1), (3, 4)),  # neither equal nor 1: expand refuses
        _expand_case((2, 3), (3, 1), (3,)),  # fewer dimensions than the tensor
        _expand_case((3, 1), (1, 1), (4, 3)),  # aligned from the left, 3 would match
    ]


@st.composite
def _expand_generated(draw):
    target = draw(st.lists(st.integers(0, 4), max_size=4))
    kept = target[draw(st.integers(0, len(target))) :]
    shape = [1 if draw(st.booleans()) else size for size in kept]
    if shape and draw(st.integers(0, 4)) == 0:  # sometimes a size that does not fit
        shape[draw(st.integers(0, len(shape) - 1))] = draw(st.integers(2, 5))
    strides = draw(st.lists(st.integers(0, 24), min_size=len(shape), max_size=len(shape)))
    return _expand_case(shape, strides, target)


def _expand_compare(case, got, expected):
    if expected is None:
        if got is not None:
            raise Mismatch(f"{case.where} you returned {got!r}; expected None: expand refuses")
        return
    if got is None:
        raise Mismatch(f"{case.where} you returned None; expected {expected!r}: expand can do it")
    if not isinstance(got, tuple):
        raise Mismatch(
            f"{case.where} you returned {got!r}, a {type(got).__name__}; expected the tuple {expected!r}"
        )
    _, _, target = case.args
    used = [size != 1 for size in target]  # a dimension of size 1 is never stepped along
    if len(got) != len(expected) or any(u and g != e for u, g, e in zip(used, got, expected, strict=True)):
        raise Mismatch(f"{case.where} you returned {got!r}; expected {expected!r}")


EXPAND_STRIDES = Drill(
    id="expand_strides",
    title="The strides of an expanded view",
    page="week-1/day-1/memory-and-views",
    question="broadcasting",
    difficulty="medium",
    function="expand_strides",
    statement=(
        "Write `expand_strides(shape, strides, target) -> tuple[int, ...] | None`: a tensor has `shape` "
        "and `strides` (tuples of ints); return the strides that `tensor.expand(*target)` has, as a "
        "tuple, or `None` where `expand` refuses. `target` is a tuple of sizes (no `-1`); where its size "
        "is 1, any stride is accepted (that dimension is never stepped along). Use no torch and no "
        "tensor: only the tuples."
    ),
    hints=(
        "Align `shape` with the end of `target`: the dimensions `target` has in front are new.",
        "A dimension whose size already matches keeps its stride; one of size 1 stretched to another "
        "size gets stride 0: every step along it stays on the same elements.",
        "A new leading dimension repeats the whole tensor, so it too gets stride 0; any other size "
        "mismatch, or a `target` shorter than `shape`, makes `expand` refuse.",
    ),
    reference=_expand_strides,
    named_cases=_expand_named,
    generated=_expand_generated(),
    compare=_expand_compare,
    forbidden=Forbidden(any_torch=True, instead="the task asks for the strides from the tuples alone"),
    lab=f"{LABS}/broadcasting.py",
)

# --- first_nonfinite_piece ------------------------------------------------------------------------


def _first_nonfinite_piece(pieces):
    for name, tensor in pieces.items():
        if not torch.isfinite(tensor).all():
            return name
    return None


def _pieces_case(what, pieces):
    names = f" ({', '.join(map(repr, pieces))})" if pieces else ""
    return Case(f"for {what}{names}", (pieces,))


def _loss_pieces():
    """The lab's failing batch in small: a confident right answer makes p exactly 1.0."""
    logits = torch.tensor([0.5, -2.0, 20.0])
    y = torch.tensor([1.0, 0.0, 1.0])
    p = torch.sigmoid(logits)
    return {
        "logits": logits,
        "p": p,
        "log(p)": torch.log(p),
        "log(1 - p)": torch.log(1 - p),  # -inf where p == 1: not NaN
        "(1 - y) * log(1 - p)": (1 - y) * torch.log(1 - p),  # 0 * -inf: NaN
        "loss": -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean(),
    }


def _pieces_named():
    big = torch.tensor([3e38, 3e38])  # finite, but their sum is inf in float32
    return [
        _pieces_case("the loss's pieces of the lab", _loss_pieces()),
        _pieces_case("finite pieces", {"x": torch.ones(3), "y": torch.arange(4), "z": torch.tensor(2.5)}),
        _pieces_case("no pieces", {}),
        _pieces_case(
            "large finite values, then an infinity",
            {
                "big": big,
                "half": torch.tensor([1.0, 65504.0], dtype=torch.float16),
                "b": torch.tensor([float("-inf")]),
            },
        ),
        _pieces_case(
            "pieces named out of alphabetical order",
            {"z": torch.tensor([float("nan")]), "a": torch.tensor([float("inf")])},
        ),
        _pieces_case(  # a dtype NumPy has not got
            "bfloat16 pieces",
            {"ok": torch.ones(2, dtype=torch.bfloat16), "bad": torch.tensor([0.0, float("nan")]).bfloat16()},
        ),
        _pieces_case(
            "an empty tensor, an integer one, then +inf",
            {
                "empty": torch.empty(0, 3),
                "counts": torch.tensor([1, 2]),
                "scale": torch.tensor([[1.0, float("inf")]]),
            },
        ),
    ]


@st.composite
def _pieces_generated(draw):
    names = draw(st.lists(st.sampled_from("abcdefgh"), max_size=5, unique=True))
    seed = draw(st.integers(0, 2**16))
    generator = torch.Generator().manual_seed(seed)
    pieces = {}
    for name in names:
        shape = draw(st.lists(st.integers(0, 3), max_size=3))
        tensor = torch.randn(shape, generator=generator)
        poison = draw(st.sampled_from([None, None, float("nan"), float("inf"), float("-inf")]))
        if poison is not None and tensor.numel():
            tensor.view(-1)[draw(st.integers(0, tensor.numel() - 1))] = poison
        pieces[name] = tensor
    return _pieces_case("pieces", pieces)


def _pieces_compare(case, got, expected):
    (pieces,) = case.args
    if got is not None and not isinstance(got, str):
        raise Mismatch(f"{case.where} you returned a {type(got).__name__}; expected a name or None")
    if got != expected:
        kinds = {
            name: "finite" if bool(torch.isfinite(t).all()) else _nonfinite_kinds(t)
            for name, t in pieces.items()
        }
        said = ", ".join(f"{name}: {kind}" for name, kind in kinds.items())
        raise Mismatch(f"{case.where} you returned {got!r}; expected {expected!r} ({said})")


def _nonfinite_kinds(tensor):
    flat = tensor.detach().flatten()
    kinds = [
        kind
        for kind, found in (
            ("NaN", flat.isnan()),
            ("+inf", flat == float("inf")),
            ("-inf", flat == float("-inf")),
        )
        if bool(found.any())
    ]
    return " and ".join(kinds)


FIRST_NONFINITE_PIECE = Drill(
    id="first_nonfinite_piece",
    title="The first piece of a loss that is not finite",
    page="week-2/day-9/nan-loss-and-gradcheck",
    question="nan-loss",
    difficulty="easy",
    function="first_nonfinite_piece",
    statement=(
        "Write `first_nonfinite_piece(pieces) -> str | None`: `pieces` is a dict from a name to a tensor "
        "(of any shape and dtype, empty ones included), in the order they were computed; return the name "
        "of the first tensor that holds a NaN or an infinity (`+inf` or `-inf`), or `None` when every one"
        " is finite. Leave the tensors as they are."
    ),
    hints=(
        "A dict keeps the order its keys were added in: walk `pieces.items()` and return at the first "
        "bad one.",
        "`torch.isnan` alone misses an infinity, and the lab's first bad piece holds `-inf`, not NaN.",
        "`torch.isfinite(t).all()` is False for NaN, `+inf` and `-inf`; do not sum first: a sum of large "
        "finite values can overflow to inf.",
    ),
    reference=_first_nonfinite_piece,
    named_cases=_pieces_named,
    generated=_pieces_generated(),
    compare=_pieces_compare,
    lab=f"{LABS}/debug_a_nan_loss.py",
)

# --- augment_batch --------------------------------------------------------------------------------


def _augment_batch(images, flip):
    images = torch.where(flip[:, None, None, None], images.flip(-1), images)
    return (images.float() / 255 - 0.5) / 0.5


def _images_case(batch, height, width, flip, seed=0):
    generator = torch.Generator().manual_seed(seed)
    images = torch.randint(0, 256, (batch, 3, height, width), dtype=torch.uint8, generator=generator)
    flips = torch.tensor(flip, dtype=torch.bool).reshape(batch)
    where = f"for images of shape {shape_text(images.shape)} and flip {flips.tolist()}"
    return Case(where, (images, flips))


def _augment_named():
    return [
        _images_case(2, 3, 4, [True, False]),
        _images_case(3, 2, 5, [False, True, True], seed=1),
        _images_case(4, 2, 4, [True, False, False, True], seed=2),  # as many images as columns
        _images_case(1, 1, 1, [True], seed=3),
        _images_case(0, 4, 4, [], seed=4),  # an empty batch
        _images_case(2, 2, 3, [False, False], seed=5),
    ]


@st.composite
def _augment_generated(draw):
    batch = draw(st.integers(0, 5))
    flip = draw(st.lists(st.booleans(), min_size=batch, max_size=batch))
    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    return _images_case(batch, height, width, flip, seed=draw(st.integers(0, 2**16)))


AUGMENT_ATOL = 1e-6  # (v / 255 - 0.5) / 0.5 and v / 127.5 - 1 round differently in float32


def _augment_compare(case, got, expected):
    expect_tensor(case, "batch", got, expected, atol=AUGMENT_ATOL)


AUGMENT_BATCH = Drill(
    id="augment_batch",
    title="Flip and normalize a whole batch at once",
    page="week-2/day-9/bottlenecks-leaks-and-hangs",
    question="data-loading-bottleneck",
    difficulty="medium",
    function="augment_batch",
    statement=(
        "Write `augment_batch(images, flip) -> torch.Tensor`: `images` is a batch of decoded images, a "
        "`uint8` tensor of shape `(B, 3, H, W)` (`B` may be 0), and `flip` a `bool` tensor of shape "
        "`(B,)`. Return a new `float32` tensor of the same shape: image `i` flipped left to right (along "
        "its width) where `flip[i]` is True, and every value `v` mapped to `(v / 255 - 0.5) / 0.5`, in "
        "`[-1, 1]`. Leave `images` as it is. The lab's point is to do it for the whole batch at once, "
        "with tensor operations; the checker checks the result, not how it was made."
    ),
    hints=(
        "`images.flip(-1)` flips every image along its width; keep it only where `flip` says so.",
        "`torch.where(flip, a, b)` broadcasts `flip` against the images from the right, against their "
        "width: give it shape `(B, 1, 1, 1)` with `flip[:, None, None, None]`.",
        "Convert to float before dividing: `images.float() / 255`; indexing assignment into `images` "
        "changes the caller's batch.",
    ),
    reference=_augment_batch,
    named_cases=_augment_named,
    generated=_augment_generated(),
    compare=_augment_compare,
    tolerance=f"atol={AUGMENT_ATOL:g}",
    lab=f"{LABS}/find_the_bottleneck.py",
)

DRILLS = [BROADCAST_SHAPE, EXPAND_STRIDES, FIRST_NONFINITE_PIECE, AUGMENT_BATCH]


def walkthrough_solution(drill: Drill, root: Path) -> str:
    """The lab's own way to do its task, as the source of a file the checker can load: the
    function the walkthrough defines (the reader's stub cell is a comment in the lab's file, so this
    is the one definition the file runs), after the file's imports.

    Examples:
      ```python
      import pathlib
      import torchguide
      from torchguide.drills import get
      from torchguide.drills.labs import walkthrough_solution

      root = pathlib.Path(torchguide.__file__).resolve().parents[2]  # a checkout: src/torchguide
      assert "def broadcast_shape(a, b):" in walkthrough_solution(get("broadcast_shape"), root)
      ```
    """
    if drill.lab is None:
        raise ValueError(f"{drill.id} is a page's drill, not a lab's task")
    source = (root / drill.lab).read_text(encoding="utf-8")
    found = [
        node
        for node in ast.parse(source, drill.lab).body
        if isinstance(node, ast.FunctionDef) and node.name == drill.function
    ]
    if len(found) != 1:
        raise ValueError(
            f"{drill.lab}: {len(found)} definitions of {drill.function}; the walkthrough needs one"
        )
    lines = source.splitlines()[found[0].lineno - 1 : found[0].end_lineno]
    return "import torch\n\n\n" + "\n".join(lines) + "\n"
