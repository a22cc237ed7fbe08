"""DataLoader workers: random streams that differ per worker, and an iterable split among workers.

Since torch 1.9 every worker seeds ``random``, torch and NumPy's global ``np.random`` itself
(from the worker's seed, new each epoch), so those already differ between workers. What it
cannot reach are random generator *objects* the dataset holds (``np.random.default_rng(0)``
made in ``__init__``, a ``random.Random``, a ``torch.Generator``): each worker gets a copy of
the same state, so every worker draws the same numbers, and every epoch again when workers are
not persistent. `seed_worker` re-seeds those.

An ``IterableDataset`` is copied whole into every worker, so each worker yields every item
unless ``__iter__`` splits the work; `WorkerShardedIterable` does it.
"""

from __future__ import annotations

import itertools
import random
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

_Shard = TypeVar("_Shard")
_Item = TypeVar("_Item")

_GENERATOR_TYPES = (np.random.Generator, np.random.RandomState, random.Random, torch.Generator)
# Never searched inside: values, arrays, and modules (a dataset may hold `self.np = np`).
_LEAF_TYPES = (str, bytes, int, float, complex, bool, type(None), np.ndarray, torch.Tensor, types.ModuleType)


def seed_worker(worker_id: int) -> list[str]:
    """A ``worker_init_fn`` that re-seeds the random generators the worker's dataset holds.

    Each ``np.random.Generator``, ``np.random.RandomState``, ``random.Random`` and
    ``torch.Generator`` found among the attributes of the worker's copy of the dataset (and,
    recursively, of the objects it holds, such as ``dataset.transform.rng``) gets its own stream
    derived from the worker's seed (``get_worker_info().seed``). That seed differs per worker
    and per epoch, and follows the main process' torch seed (or the DataLoader's
    ``generator=``), so runs stay reproducible. The generators are re-seeded in place: every
    reference to them sees the new stream.

    ``random``, torch and NumPy's global ``np.random`` need no help: torch seeds them in every
    worker before ``worker_init_fn`` runs, and this function leaves them as torch set them.

    Args:
        worker_id: The worker's index, passed by the ``DataLoader`` (the seed is read from
            ``get_worker_info()``, which also knows it).

    Returns:
        The attribute paths of the generators it re-seeded, such as ``["rng"]``.

    Raises:
        RuntimeError: When called outside a ``DataLoader`` worker process.

    Examples:
      ```python
      import numpy as np
      from torch.utils.data import DataLoader, Dataset
      from torchguide.data.workers import seed_worker

      class Noise(Dataset):
          def __init__(self):
              self.rng = np.random.default_rng(0)  # copied into every worker

          def __len__(self):
              return 2

          def __getitem__(self, index):
              return self.rng.random()

      def per_worker(loader):  # batch k comes from worker k
          return [batch.item() for batch in loader]

      same = per_worker(DataLoader(Noise(), num_workers=2))
      seeded = per_worker(DataLoader(Noise(), num_workers=2, worker_init_fn=seed_worker))
      assert same[0] == same[1]  # two workers, one stream
      assert seeded[0] != seeded[1]
      ```
    """
    info = get_worker_info()
    if info is None:
        raise RuntimeError("seed_worker is a worker_init_fn: it runs inside a DataLoader worker process")
    found = list(_generators(info.dataset, path="", seen=set()))
    streams = np.random.SeedSequence(info.seed).spawn(len(found))
    for (_, generator), stream in zip(found, streams, strict=True):
        _reseed(generator, stream)
    return [path for path, _ in found]


def _generators(obj: object, path: str, seen: set[int]) -> Iterator[tuple[str, Any]]:
    """(attribute path, generator) for the generators reachable from ``obj``'s attributes.

    Written by hand: torch seeds only the global random streams, and no library finds generator
    objects inside a dataset.
    """
    if id(obj) in seen or isinstance(obj, _LEAF_TYPES):
        return
    seen.add(id(obj))
    if isinstance(obj, _GENERATOR_TYPES):
        yield path, obj
        return
    if isinstance(obj, dict):
        children: Iterable[tuple[str, object]] = ((f"{path}[{key!r}]", v) for key, v in obj.items())
    elif isinstance(obj, list | tuple):
        children = ((f"{path}[{index}]", v) for index, v in enumerate(obj))
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        children = ((f"{path}.{name}" if path else name, v) for name, v in vars(obj).items())
    else:
        return
    for child_path, child in children:
        yield from _generators(child, child_path, seen)


def _reseed(generator: object, stream: np.random.SeedSequence) -> None:
    if isinstance(generator, np.random.Generator):
        bit_generator = generator.bit_generator
        bit_generator.state = type(bit_generator)(stream).state
    elif isinstance(generator, np.random.RandomState):
        generator.seed(stream.generate_state(4))
    else:  # random.Random or torch.Generator: both take one integer seed
        seed = int(stream.generate_state(1, np.uint64)[0])
        if isinstance(generator, torch.Generator):
            generator.manual_seed(seed)
        else:
            generator.seed(seed)


class WorkerShardedIterable(IterableDataset, Generic[_Item]):
    """An ``IterableDataset`` whose shards are divided among the DataLoader's workers.

    Worker ``k`` of ``n`` takes shards ``k, k + n, k + 2n, ...`` (by ``get_worker_info()``), so
    each shard is read by exactly one worker and each item comes out once per epoch. Without
    workers (``num_workers=0``) every shard is read in the main process. A shard is one item by
    default; with ``read_shard`` it is anything that function turns into items (a file name
    read into its records), so that each worker opens only its own files.

    Written by hand: torch's ``IterableDataset`` documentation shows this split as an example
    but ships no wrapper, and its own ``sharding_filter`` belongs to DataPipes, whose development
    stopped in 2024.

    Args:
        shards: The shards, in order; iterated again by every worker and every epoch, so a
            collection (list, tuple, range), not a one-pass iterator.
        read_shard: Turns one shard into its items; ``None`` yields each shard as an item.

    Raises:
        TypeError: If ``shards`` is a one-pass iterator (a generator, ``iter(...)``).

    Examples:
      ```python
      from torch.utils.data import DataLoader
      from torchguide.data.workers import WorkerShardedIterable

      items = WorkerShardedIterable(range(10))
      loaded = [int(x) for x in DataLoader(items, num_workers=2)]
      assert sorted(loaded) == list(range(10))  # each item once

      files = {"a": [1, 2], "b": [3], "c": [4, 5]}
      records = WorkerShardedIterable(sorted(files), read_shard=files.get)
      assert sorted(int(x) for x in DataLoader(records, num_workers=2)) == [1, 2, 3, 4, 5]
      ```
    """

    def __init__(
        self, shards: Iterable[_Shard], read_shard: Callable[[_Shard], Iterable[_Item]] | None = None
    ) -> None:
        if iter(shards) is shards:
            raise TypeError("shards must be a collection that can be iterated again, not an iterator")
        self.shards = shards
        self.read_shard = read_shard

    def __iter__(self) -> Iterator[_Item]:
        info = get_worker_info()
        first, step = (0, 1) if info is None else (info.id, info.num_workers)
        for shard in itertools.islice(self.shards, first, None, step):
            if self.read_shard is None:
                yield shard  # type: ignore[misc] - a shard is its own item
            else:
                yield from self.read_shard(shard)
