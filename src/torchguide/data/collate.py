"""Collate functions that pad: images of different sizes, sequences of different lengths.

``torch.utils.data.default_collate`` stacks samples with ``torch.stack``, which needs every sample
to have the same shape; it has no notion of padding. These functions are written by hand for that
reason: they pad each batch only to its own largest sample and return, beside the padded tensor,
what is needed to ignore the padding later (the original sizes and a mask). Sequences are padded by
torch's own ``pad_sequence``; images need padding in two dimensions, which it does not do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import default_collate


class ImageBatch(NamedTuple):
    """A batch of images padded to a common size.

    Attributes:
        images: ``(B, C, H_max, W_max)``, each image in the top-left corner.
        sizes: ``(B, 2)`` int64, the original ``(H, W)`` of each image.
        mask: ``(B, H_max, W_max)`` bool, ``True`` on real pixels.
        labels: The labels, collated by ``default_collate``.

    Examples:
      ```python
      import torch
      from torchguide.data.collate import ImageBatch, collate_padded_images

      out = collate_padded_images([(torch.ones(1, 2, 2), 7)])
      assert isinstance(out, ImageBatch)
      images, sizes, mask, labels = out  # a tuple: unpacks, and pin_memory keeps its type
      assert images.shape == (1, 1, 2, 2) and labels.tolist() == [7]
      ```
    """

    images: torch.Tensor
    sizes: torch.Tensor
    mask: torch.Tensor
    labels: Any


class SequenceBatch(NamedTuple):
    """A batch of sequences padded to a common length (batch first).

    Attributes:
        sequences: ``(B, L_max, *)``, each sequence at the start of its row.
        lengths: ``(B,)`` int64, the original lengths.
        mask: ``(B, L_max)`` bool, ``True`` on real steps.
        labels: The labels, collated by ``default_collate``.

    Examples:
      ```python
      import torch
      from torchguide.data.collate import SequenceBatch, collate_padded_sequences

      out = collate_padded_sequences([(torch.zeros(0), 0), (torch.ones(2), 1)])
      assert isinstance(out, SequenceBatch)
      assert out.lengths.tolist() == [0, 2] and out.mask.sum().item() == 2
      ```
    """

    sequences: torch.Tensor
    lengths: torch.Tensor
    mask: torch.Tensor
    labels: Any


def _split(batch: Sequence[tuple[torch.Tensor, Any]]) -> tuple[list[torch.Tensor], Any]:
    if len(batch) == 0:
        raise ValueError("an empty batch has no size to pad to")
    samples = [sample for sample, _ in batch]
    labels = default_collate([label for _, label in batch])
    return samples, labels


def collate_padded_images(
    batch: Sequence[tuple[torch.Tensor, Any]], padding_value: float = 0.0
) -> ImageBatch:
    """Pad ``(C, H, W)`` images to the largest height and width in the batch.

    Use it as ``DataLoader(..., collate_fn=collate_padded_images)`` when the images of a dataset
    have different sizes and resizing them is not wanted.

    Args:
        batch: ``(image, label)`` pairs; the images share their channel count and dtype.
        padding_value: The value written into the padding.

    Returns:
        An `ImageBatch` with the padded images, their original sizes, a mask of the real
        pixels and the collated labels.

    Raises:
        ValueError: If the batch is empty or the images differ in channels or number of dimensions.

    Examples:
      ```python
      import torch
      from torchguide.data.collate import collate_padded_images

      batch = [(torch.ones(3, 2, 5), 0), (torch.ones(3, 4, 1), 1)]
      out = collate_padded_images(batch)
      assert out.images.shape == (2, 3, 4, 5)
      assert out.sizes.tolist() == [[2, 5], [4, 1]]
      assert out.mask.sum().item() == 2 * 5 + 4 * 1
      assert out.labels.tolist() == [0, 1]
      ```
    """
    images, labels = _split(batch)
    if any(image.dim() != 3 for image in images):
        raise ValueError("images must be (C, H, W) tensors")
    if len({image.shape[0] for image in images}) != 1:
        raise ValueError("images must have the same number of channels")
    sizes = torch.tensor([tuple(image.shape[1:]) for image in images], dtype=torch.int64)
    height, width = sizes.max(dim=0).values.tolist()
    first = images[0]
    padded = first.new_full((len(images), first.shape[0], height, width), padding_value)
    mask = torch.zeros(len(images), height, width, dtype=torch.bool)
    for i, image in enumerate(images):
        h, w = image.shape[1:]
        padded[i, :, :h, :w] = image
        mask[i, :h, :w] = True
    return ImageBatch(padded, sizes, mask, labels)


def collate_padded_sequences(
    batch: Sequence[tuple[torch.Tensor, Any]], padding_value: float = 0.0
) -> SequenceBatch:
    """Pad ``(L, *)`` sequences to the longest one in the batch, with lengths and a mask.

    The padding itself is ``torch.nn.utils.rnn.pad_sequence`` (batch first, padded on the right);
    the lengths and the mask are what a model needs to ignore the padding (for example
    ``pack_padded_sequence`` or an attention ``key_padding_mask``, which wants ``~mask``).

    Args:
        batch: ``(sequence, label)`` pairs; sequences may have length 0.
        padding_value: The value written into the padding.

    Returns:
        A `SequenceBatch` with the padded sequences, the lengths, the mask and the collated
        labels.

    Raises:
        ValueError: If the batch is empty.

    Examples:
      ```python
      import torch
      from torchguide.data.collate import collate_padded_sequences

      batch = [(torch.tensor([5, 6, 7]), 1), (torch.tensor([8]), 0)]
      out = collate_padded_sequences(batch, padding_value=0)
      assert out.sequences.tolist() == [[5, 6, 7], [8, 0, 0]]
      assert out.lengths.tolist() == [3, 1]
      assert out.mask.tolist() == [[True, True, True], [True, False, False]]
      ```
    """
    sequences, labels = _split(batch)
    lengths = torch.tensor([len(s) for s in sequences], dtype=torch.int64)
    padded = pad_sequence(sequences, batch_first=True, padding_value=padding_value)
    mask = torch.arange(padded.shape[1]) < lengths[:, None]
    return SequenceBatch(padded, lengths, mask, labels)
