"""Describe how a tensor's elements are laid out in memory.

A tensor is a view onto a flat block of memory (its storage) described by a
shape, a stride per dimension (counted in elements) and a storage offset.
These helpers make that metadata visible so examples can prove which
operations share memory and which ones copy.
"""

from __future__ import annotations

import torch

__all__ = ["describe_layout", "shares_storage", "storage_index_map"]


def describe_layout(t: torch.Tensor) -> str:
    """Return a one-line, deterministic description of a tensor's layout.

    The line lists shape, stride (in elements), storage offset, whether the
    tensor is contiguous in row-major order, and its dtype. It never contains
    memory addresses, so it is safe to print in documentation.

    Args:
        t: Any strided tensor.

    Returns:
        A string such as
        ``"shape=(2, 3) stride=(3, 1) offset=0 contiguous=True dtype=float32"``.

    Examples:
      ```python
      import torch
      from torchguide.layout import describe_layout

      x = torch.zeros(2, 3)
      assert describe_layout(x) == (
          "shape=(2, 3) stride=(3, 1) offset=0 contiguous=True dtype=float32"
      )
      assert describe_layout(x.t()) == (
          "shape=(3, 2) stride=(1, 3) offset=0 contiguous=False dtype=float32"
      )
      ```
    """
    dtype = str(t.dtype).removeprefix("torch.")
    return (
        f"shape={tuple(t.shape)} stride={tuple(t.stride())} "
        f"offset={t.storage_offset()} contiguous={t.is_contiguous()} "
        f"dtype={dtype}"
    )


def shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Tell whether two tensors are backed by the same block of memory.

    Compares the data pointers of the untyped storages, so a slice that
    starts in the middle of its base (non-zero storage offset) still counts
    as sharing. Tensors with no allocated memory (``data_ptr() == 0``, e.g.
    empty or ``meta`` tensors) never count as sharing. Two storages created
    separately over overlapping memory (two ``torch.from_numpy`` calls on
    overlapping array slices) are different storages and give ``False``.

    Args:
        a: First tensor.
        b: Second tensor.

    Returns:
        ``True`` if writing through one tensor can change the other.

    Examples:
      ```python
      import torch
      from torchguide.layout import shares_storage

      x = torch.arange(6.0)
      assert shares_storage(x, x[2:])  # a slice is a view
      assert not shares_storage(x, x.clone())  # clone copies
      ```
    """
    pa = a.untyped_storage().data_ptr()
    pb = b.untyped_storage().data_ptr()
    return pa != 0 and pa == pb


def storage_index_map(t: torch.Tensor) -> torch.Tensor:
    """Return, for every element of ``t``, its index in the storage.

    Element ``t[i0, i1, ...]`` lives at storage index
    ``storage_offset + i0 * stride[0] + i1 * stride[1] + ...``. The result has
    the same shape as ``t`` and dtype ``int64``; it is computed from the
    metadata only, without reading ``t``'s values.

    Args:
        t: A strided CPU tensor.

    Returns:
        An ``int64`` tensor shaped like ``t`` holding storage indices.

    Examples:
      ```python
      import torch
      from torchguide.layout import storage_index_map

      x = torch.zeros(2, 3)
      assert storage_index_map(x).tolist() == [[0, 1, 2], [3, 4, 5]]
      assert storage_index_map(x.t()).tolist() == [[0, 3], [1, 4], [2, 5]]
      ```
    """
    n = t.untyped_storage().nbytes() // t.element_size()
    flat = torch.arange(max(n, 1), dtype=torch.int64)
    return flat.as_strided(t.shape, t.stride(), t.storage_offset()).clone()
