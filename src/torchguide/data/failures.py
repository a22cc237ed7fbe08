"""Training on past broken samples: drop them from the batch, or load another sample instead.

Both strategies expect the dataset to return ``None`` for a sample it could not load (for
example a ``try``/``except OSError`` around the image decode in ``__getitem__``).

- ``collate_dropping_none`` drops the ``None`` samples and collates the rest with torch's
  ``default_collate``: no sample is seen twice, but batches come out smaller.
- ``ResampleFailed`` wraps the dataset and returns another, deterministically chosen sample
  in place of a broken one: every batch keeps its size, and some samples are seen twice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from torch.utils.data import Dataset, default_collate


def collate_dropping_none(
    batch: Sequence[Any],
    collate_fn: Callable[[list[Any]], Any] = default_collate,
) -> Any | None:
    """Collate the samples of ``batch`` that are not ``None``.

    Pass it as ``DataLoader(..., collate_fn=collate_dropping_none)``.

    Args:
        batch: The samples the ``DataLoader`` fetched for one batch; ``None`` marks a sample
            that failed to load.
        collate_fn: How to merge the surviving samples; torch's ``default_collate`` by default.

    Returns:
        The collated surviving samples, a batch smaller than requested when some failed. ``None``
        when no sample survived (or ``batch`` was empty): the training loop skips such a batch.

    Examples:
      ```python
      import torch
      from torchguide.data.failures import collate_dropping_none

      batch = [torch.ones(2), None, torch.zeros(2)]
      assert collate_dropping_none(batch).shape == (2, 2)
      assert collate_dropping_none([None, None]) is None
      ```
    """
    kept = [sample for sample in batch if sample is not None]
    if not kept:
        return None
    return collate_fn(kept)


class ResampleFailed(Dataset):
    """A map-style dataset that loads another sample wherever ``dataset`` returns ``None``.

    The replacement for index ``i`` is drawn from a random stream seeded by ``seed`` and ``i``,
    so it is the same in every worker and every epoch, and independent of the order in which
    the ``DataLoader`` asks for the indices.

    Args:
        dataset: A map-style dataset that returns ``None`` for a sample it could not load.
        max_attempts: How many indices to try in all (the requested one included) before
            giving up.
        seed: Seeds the choice of replacements.

    Raises:
        ValueError: If ``max_attempts`` is smaller than 1.

    Examples:
      ```python
      from torchguide.data.failures import ResampleFailed

      samples = [10, None, 30, None]
      dataset = ResampleFailed(samples, seed=0)
      assert len(dataset) == 4 and dataset[0] == 10
      assert dataset[1] in (10, 30)  # a working sample instead of the broken one
      assert dataset[1] == dataset[1]  # the same replacement every time
      ```
    """

    def __init__(self, dataset: Any, *, max_attempts: int = 10, seed: int = 0) -> None:
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be >= 1, got {max_attempts}")
        self.dataset = dataset
        self.max_attempts = max_attempts
        self.seed = seed

    def __len__(self) -> int:
        return len(self.dataset)

    def __getitem__(self, index: int) -> Any:
        """The sample at ``index``, or a replacement for it if it failed to load.

        Raises:
            RuntimeError: If ``max_attempts`` indices in a row failed to load.
        """
        # One stream per (seed, index): the choice does not depend on which worker asks first.
        choices = random.Random(f"{self.seed}:{index}")
        candidate = index
        for _ in range(self.max_attempts):
            sample = self.dataset[candidate]
            if sample is not None:
                return sample
            candidate = choices.randrange(len(self.dataset))
        raise RuntimeError(
            f"{self.max_attempts} samples in a row failed to load, starting at index {index}"
        )


__all__ = ["ResampleFailed", "collate_dropping_none"]
