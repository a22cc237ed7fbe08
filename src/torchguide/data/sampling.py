"""Sampling: weights that balance classes, and batches grouped by length.

``WeightedRandomSampler`` takes one weight **per sample**, not per class;
`class_balanced_weights` computes them so that every class is drawn equally often in
expectation. torch has no batch sampler that groups samples of similar length (torchdata's
``bucketbatch`` went with its datapipes), so `LengthBucketBatchSampler` is written here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import torch
from torch.utils.data import Sampler


def class_balanced_weights(labels: Sequence[int] | torch.Tensor) -> torch.Tensor:
    """Per-sample weights ``1 / count(class of the sample)``, for ``WeightedRandomSampler``.

    Each class's weights sum to 1, so every class has the same probability of being drawn:
    ``1 / number of classes``, whatever its size.

    Args:
        labels: The integer class label of every sample, in dataset order.

    Returns:
        A float64 tensor with one weight per sample (empty for no labels).

    Examples:
      ```python
      import torch
      from torch.utils.data import WeightedRandomSampler
      from torchguide.data.sampling import class_balanced_weights

      labels = [0, 0, 0, 1]
      weights = class_balanced_weights(labels)
      assert weights.tolist() == [1 / 3, 1 / 3, 1 / 3, 1.0]
      sampler = WeightedRandomSampler(weights, num_samples=len(labels))
      assert len(list(sampler)) == 4
      ```
    """
    labels = torch.as_tensor(labels, dtype=torch.int64).reshape(-1)
    _, position, counts = torch.unique(labels, return_inverse=True, return_counts=True)
    return 1.0 / counts.double()[position]


class LengthBucketBatchSampler(Sampler[list[int]]):
    """Batches of indices whose samples have similar lengths, to cut padding.

    Each epoch the indices are shuffled, cut into pools of ``batch_size * pool_batches``, each
    pool is sorted by length and cut into batches, and the batches are shuffled. Batches therefore
    differ from epoch to epoch while the samples inside a batch have close lengths. Pass it to a
    ``DataLoader`` as ``batch_sampler=`` (not ``sampler=``), with a padding ``collate_fn``.

    Args:
        lengths: The length of every sample, in dataset order.
        batch_size: Samples per batch.
        pool_batches: How many batches' worth of samples are sorted together; larger pools give
            less padding and less randomness in which samples meet.
        shuffle: Shuffle the samples and the batch order each epoch; without it, the pools are
            taken in dataset order and the batches come in their sorted order.
        drop_last: Drop the final batch when it is smaller than ``batch_size``.
        generator: The random generator (for reproducible epochs).

    Raises:
        ValueError: If ``batch_size`` or ``pool_batches`` is not positive.

    Examples:
      ```python
      import torch
      from torchguide.data.sampling import LengthBucketBatchSampler

      lengths = [1, 9, 2, 8, 3, 7]
      sampler = LengthBucketBatchSampler(
          lengths, batch_size=2, generator=torch.Generator().manual_seed(0)
      )
      batches = list(sampler)
      assert len(batches) == len(sampler) == 3
      grouped = sorted(sorted(lengths[i] for i in batch) for batch in batches)
      assert grouped == [[1, 2], [3, 7], [8, 9]]
      ```
    """

    def __init__(
        self,
        lengths: Sequence[int] | torch.Tensor,
        batch_size: int,
        pool_batches: int = 100,
        shuffle: bool = True,
        drop_last: bool = False,
        generator: torch.Generator | None = None,
    ) -> None:
        if batch_size <= 0 or pool_batches <= 0:
            raise ValueError("batch_size and pool_batches must be positive")
        self.lengths = torch.as_tensor(lengths, dtype=torch.int64).reshape(-1)
        self.batch_size = batch_size
        self.pool_batches = pool_batches
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.generator = generator

    def __len__(self) -> int:
        n = len(self.lengths)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __iter__(self) -> Iterator[list[int]]:
        n = len(self.lengths)
        order = torch.randperm(n, generator=self.generator) if self.shuffle else torch.arange(n)
        pool_size = self.batch_size * self.pool_batches
        batches: list[list[int]] = []
        for start in range(0, n, pool_size):
            pool = order[start : start + pool_size]
            # stable sort keeps the random order among equal lengths
            pool = pool[torch.argsort(self.lengths[pool], stable=True)]
            batches += [chunk.tolist() for chunk in pool.split(self.batch_size)]
        if self.drop_last and batches and len(batches[-1]) < self.batch_size:
            batches.pop()
        if self.shuffle:
            batches = [batches[i] for i in torch.randperm(len(batches), generator=self.generator)]
        yield from batches
