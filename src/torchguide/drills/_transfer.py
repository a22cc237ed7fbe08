"""What the reader's function returned, carried from its contained process to the checker's as data
that cannot run code when it is read.

Unpickling runs whatever the pickle names, so the checker never unpickles objects from the
reader's process: `encode` (run there) turns a value into a tree of plain containers and
scalars, with each tensor as its dtype, shape, strides, bytes, ``requires_grad`` and ``.grad``, and
each module as its class name, mode, parameters and buffers. `decode` (run in the checker) reads
that tree with an unpickler that refuses every global, and rebuilds tensors, modules as
`ModuleState`, and anything else as a `Foreign` placeholder named after its type.

An object met twice is encoded once and referred to after, so that a decoded tree keeps the
sharing of the original: ``p.grad is q.grad`` holds after the trip where it held before.

Examples:
  ```python
  import torch
  from torchguide.drills._transfer import decode, encode

  grad = torch.ones(2)
  weight = torch.zeros(2, requires_grad=True)
  weight.grad = grad
  back = decode(encode(([weight, weight], (1, "a"), {"n": None})))
  assert back[0][0] is back[0][1] and back[0][0].requires_grad
  assert torch.equal(back[0][0].grad, grad) and back[1] == (1, "a")
  ```
"""

from __future__ import annotations

import io
import pickle
import sys
from dataclasses import dataclass, field

import torch

MAX_BYTES = 64 << 20  # an answer larger than this is refused unread


class UnreadableAnswer(Exception):  # noqa: N818  read as "raise UnreadableAnswer(...)"
    """The bytes from the reader's process are not an answer `decode` can read."""


class Foreign:
    """Stands for an object the checker does not rebuild: its ``type(...).__name__`` is the type's."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


@dataclass
class ModuleState:
    """What the checker sees of an ``nn.Module``: its class, train/eval mode and tensors."""

    kind: str
    training: bool
    modes: dict[str, bool] = field(default_factory=dict)  # every submodule's ``training``, by name
    parameters: dict[str, torch.Tensor] = field(default_factory=dict)
    buffers: dict[str, torch.Tensor] = field(default_factory=dict)


_PLAIN = (type(None), bool, int, float, str, bytes)
_DEPTH = 60  # deeper than any drill's value; a self-nested list stops here


def encode(value: object) -> bytes:
    """``value`` as bytes that `decode` reads; runs in the reader's process."""
    return pickle.dumps(_Encoder().tree(value, 0), protocol=pickle.HIGHEST_PROTOCOL)


class _Encoder:
    def __init__(self) -> None:
        self.seen: dict[int, int] = {}
        self.keep: list[object] = []  # so that no id is reused while encoding

    def tree(self, value: object, depth: int):
        if type(value) in _PLAIN:
            return value
        if depth > _DEPTH:
            return (
                "foreign",
                f"<{type(value).__name__} nested more than {_DEPTH} deep>",
                type(value).__name__,
            )
        number = self.seen.get(id(value))
        if number is not None:
            return ("ref", number)
        number = len(self.seen)
        self.seen[id(value)] = number
        self.keep.append(value)
        return ("new", number, self.body(value, depth + 1))

    def body(self, value: object, depth: int):
        kind = type(value)
        if isinstance(value, torch.Tensor):
            return self.tensor(value, depth)
        if isinstance(value, torch.nn.Module):
            return (
                "module",
                kind.__name__,
                value.training,
                [(name, module.training) for name, module in value.named_modules()],
                [(name, self.tree(p, depth)) for name, p in value.named_parameters(remove_duplicate=False)],
                [(name, self.tree(b, depth)) for name, b in value.named_buffers(remove_duplicate=False)],
            )
        if kind in (list, tuple, set, frozenset):
            return (kind.__name__, [self.tree(item, depth) for item in value])
        if kind is dict:
            return ("dict", [(self.tree(k, depth), self.tree(v, depth)) for k, v in value.items()])
        if kind is complex:
            return ("complex", value.real, value.imag)
        if kind is torch.Size:
            return ("size", list(value))
        if kind is torch.dtype:
            return ("dtype", str(value).removeprefix("torch."))
        numpy = sys.modules.get("numpy")
        if numpy is not None and isinstance(value, numpy.generic) and value.dtype.kind in "biuf":
            return ("numpy-scalar", value.dtype.str, value.item())
        if numpy is not None and isinstance(value, numpy.ndarray) and value.dtype.kind in "biufSU":
            return ("ndarray", value.dtype.str, list(value.shape), numpy.ascontiguousarray(value).tobytes())
        # A subclass of a container (a namedtuple, an OrderedDict) keeps its type's name and items.
        for base in (tuple, list, dict):
            if isinstance(value, base):
                if base is dict:
                    inner = [(self.tree(k, depth), self.tree(v, depth)) for k, v in value.items()]
                else:
                    inner = [self.tree(item, depth) for item in value]
                return ("subclass", base.__name__, kind.__name__, inner)
        try:
            text = repr(value)[:200]
        except Exception:  # noqa: BLE001  a repr that fails still leaves the type's name
            text = f"<{kind.__name__}>"
        return ("foreign", text, kind.__name__)

    def tensor(self, value: torch.Tensor, depth: int):
        plain = value.detach().to("cpu")
        if plain.is_sparse or plain.is_quantized or plain.layout != torch.strided:
            plain = plain.to_dense() if plain.is_sparse else plain.dequantize()
        data = plain.contiguous()
        grad = value.grad if value.is_leaf else None
        return (
            "tensor",
            str(data.dtype).removeprefix("torch."),
            list(data.shape),
            list(plain.stride()),
            data.reshape(-1).view(torch.uint8).numpy().tobytes() if data.numel() else b"",
            value.requires_grad,
            value.is_leaf,
            isinstance(value, torch.nn.Parameter),
            None if grad is None else self.tree(grad, depth),
        )


class _NoGlobals(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        raise UnreadableAnswer(f"the answer names {module}.{name}, which the checker does not load")


def decode(data: bytes) -> object:
    """The value `encode` wrote; raises `UnreadableAnswer` for anything else."""
    if len(data) > MAX_BYTES:
        raise UnreadableAnswer(f"the answer is {len(data)} bytes, more than {MAX_BYTES}")
    try:
        tree = _NoGlobals(io.BytesIO(data)).load()
        return _Decoder().value(tree)
    except UnreadableAnswer:
        raise
    except Exception as error:  # noqa: BLE001  malformed bytes of any kind
        raise UnreadableAnswer(f"{type(error).__name__}: {error}") from None


class _Decoder:
    def __init__(self) -> None:
        self.made: dict[int, object] = {}

    def value(self, tree):
        if type(tree) in _PLAIN:
            return tree
        tag = tree[0]
        if tag == "ref":
            return self.made[tree[1]]
        if tag == "foreign" and len(tree) == 3:  # too deep: not numbered
            return _foreign(tree[1], tree[2])
        if tag != "new":
            raise UnreadableAnswer(f"unknown tag {tag!r}")
        number, body = tree[1], tree[2]
        kind = body[0]
        if kind in ("list", "set"):
            made = [] if kind == "list" else set()
            self.made[number] = made
            for item in body[1]:
                made.append(self.value(item)) if kind == "list" else made.add(self.value(item))
            return made
        if kind == "dict":
            made = {}
            self.made[number] = made
            for key, item in body[1]:
                made[self.value(key)] = self.value(item)
            return made
        made = self.build(body)
        self.made[number] = made
        return made

    def build(self, body):
        kind = body[0]
        if kind == "tuple":
            return tuple(self.value(item) for item in body[1])
        if kind == "frozenset":
            return frozenset(self.value(item) for item in body[1])
        if kind == "complex":
            return complex(body[1], body[2])
        if kind == "size":
            return torch.Size(body[1])
        if kind == "dtype":
            return _dtype(body[1])
        if kind == "numpy-scalar":
            import numpy

            return numpy.dtype(body[1]).type(body[2])
        if kind == "ndarray":
            import numpy

            return numpy.frombuffer(body[3], dtype=numpy.dtype(body[1])).reshape(body[2]).copy()
        if kind == "subclass":
            base, name, items = body[1], body[2], body[3]
            if base == "dict":
                return type(name, (dict,), {})((self.value(k), self.value(v)) for k, v in items)
            return type(name, (tuple if base == "tuple" else list,), {})(self.value(i) for i in items)
        if kind == "foreign":
            return _foreign(body[1], body[2])
        if kind == "tensor":
            return self.tensor(*body[1:])
        if kind == "module":
            _, name, training, modes, parameters, buffers = body
            return ModuleState(
                kind=name,
                training=bool(training),
                modes={str(n): bool(t) for n, t in modes},
                parameters={str(n): self.value(p) for n, p in parameters},
                buffers={str(n): self.value(b) for n, b in buffers},
            )
        raise UnreadableAnswer(f"unknown kind {kind!r}")

    def tensor(self, dtype, shape, strides, data, requires_grad, is_leaf, parameter, grad):
        dtype = _dtype(dtype)
        flat = (
            torch.frombuffer(bytearray(data), dtype=torch.uint8)
            if data
            else torch.empty(0, dtype=torch.uint8)
        )
        values = flat.view(dtype).reshape(shape) if data else torch.empty(shape, dtype=dtype)
        if list(values.stride()) != list(strides) and _dense(shape, strides):
            values = torch.empty_strided(shape, strides, dtype=dtype).copy_(values)
        if parameter:
            values = torch.nn.Parameter(values, requires_grad=bool(requires_grad))
        elif requires_grad and values.dtype.is_floating_point | values.dtype.is_complex:
            values.requires_grad_(True)
            if not is_leaf:  # a result of autograd: not a leaf, as in the reader's process
                values = values * 1
        if grad is not None and values.is_leaf:
            values.grad = self.value(grad)
        return values


def _dense(shape, strides) -> bool:
    """Whether ``strides`` lay ``shape``'s elements without overlap, so that a copy can keep them."""
    if len(shape) != len(strides) or any(s < 0 for s in strides):
        return False
    # Every dimension's stride is at least the extent of the dimensions inside it.
    extent = 1
    for size, stride in sorted(zip(shape, strides, strict=True), key=lambda pair: pair[1]):
        if size > 1 and stride < extent:
            return False
        extent = max(extent, stride * size)
    return True


def _dtype(name: str) -> torch.dtype:
    dtype = getattr(torch, str(name), None)
    if not isinstance(dtype, torch.dtype):
        raise UnreadableAnswer(f"unknown dtype {name!r}")
    return dtype


def _foreign(text: str, type_name: str) -> Foreign:
    return type(str(type_name), (Foreign,), {})(str(text))
