"""Tests for torchguide.data.workers, with real DataLoader worker processes."""

import random

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info

from torchguide.data.workers import WorkerShardedIterable, seed_worker


class Transform:
    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)


class HoldsGenerators(Dataset):
    """Each sample: one draw from every generator it holds, and the worker's global streams."""

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self.numpy_rng = np.random.default_rng(0)
        self.legacy = np.random.RandomState(0)
        self.python = random.Random(0)
        self.torch_gen = torch.Generator().manual_seed(0)
        self.transform = Transform()  # nested: dataset.transform.rng
        self.stack = [{"inner": np.random.default_rng(0)}]  # inside containers
        self.np = np  # a module: not searched
        self.me = self  # a cycle
        self.reseeded: list[str] = []

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int) -> dict:
        return {
            "numpy_rng": self.numpy_rng.random(),
            "legacy": self.legacy.random_sample(),
            "python": self.python.random(),
            "torch_gen": torch.rand((), generator=self.torch_gen).item(),
            "transform.rng": self.transform.rng.random(),
            "stack[0]['inner']": self.stack[0]["inner"].random(),
            "global random": random.random(),
            "global torch": torch.rand(()).item(),
            "global numpy": np.random.random_sample(),
        }


HELD = ["numpy_rng", "legacy", "python", "torch_gen", "transform.rng", "stack[0]['inner']"]
GLOBAL = ["global random", "global torch", "global numpy"]


def record_reseeded(worker_id: int) -> None:
    get_worker_info().dataset.reseeded = seed_worker(worker_id)


def draws(worker_init_fn=None, epochs: int = 1, seed: int = 0, **loader_options) -> list[list[dict]]:
    """Per epoch, the samples of a 2-worker loader: sample k came from worker k."""
    torch.manual_seed(seed)
    loader = DataLoader(
        HoldsGenerators(),
        num_workers=2,
        batch_size=None,
        worker_init_fn=worker_init_fn,
        **loader_options,
    )
    return [[{k: float(v) for k, v in sample.items()} for sample in loader] for _ in range(epochs)]


def test_seed_worker_raises_outside_a_worker() -> None:
    with pytest.raises(RuntimeError, match="worker_init_fn"):
        seed_worker(0)


def test_held_generators_repeat_across_workers_without_seed_worker() -> None:
    ((first, second),) = draws()
    for name in HELD:
        assert first[name] == second[name], name
    for name in GLOBAL:  # torch seeds these in every worker itself
        assert first[name] != second[name], name


def test_seed_worker_gives_every_held_generator_a_stream_per_worker() -> None:
    ((first, second),) = draws(seed_worker)
    for name in HELD:
        assert first[name] != second[name], name
    values = [first[name] for name in HELD]
    assert len(set(values)) == len(values)  # and the generators of one worker differ too


def test_seed_worker_reports_what_it_reseeded() -> None:
    class Report(HoldsGenerators):
        def __getitem__(self, index: int) -> list[str]:
            return self.reseeded

    loader = DataLoader(Report(), num_workers=1, batch_size=None, worker_init_fn=record_reseeded)
    assert next(iter(loader)) == HELD


def test_seed_worker_leaves_the_global_streams_as_torch_seeded_them() -> None:
    (plain,) = draws()
    (seeded,) = draws(seed_worker)
    for name in GLOBAL:
        assert [s[name] for s in plain] == [s[name] for s in seeded], name


def test_seed_worker_draws_differ_per_epoch_and_repeat_per_torch_seed() -> None:
    first_run = draws(seed_worker, epochs=2)
    assert first_run == draws(seed_worker, epochs=2)  # reproducible from torch.manual_seed
    assert first_run[0][0]["numpy_rng"] != first_run[1][0]["numpy_rng"]  # new epoch, new stream
    assert first_run != draws(seed_worker, epochs=2, seed=1)


def test_without_seed_worker_non_persistent_workers_repeat_every_epoch() -> None:
    epochs = draws(epochs=2)
    assert [s["numpy_rng"] for s in epochs[0]] == [s["numpy_rng"] for s in epochs[1]]


def test_without_workers_the_generator_just_advances() -> None:
    loader = DataLoader(HoldsGenerators(), num_workers=0, batch_size=None, worker_init_fn=seed_worker)
    values = [float(sample["numpy_rng"]) for _ in range(2) for sample in loader]
    assert values == np.random.default_rng(0).random(4).tolist()  # one stream, never re-seeded


def loaded(dataset: IterableDataset, num_workers: int, epochs: int = 1) -> list:
    loader = DataLoader(dataset, num_workers=num_workers, batch_size=None)
    return [item for _ in range(epochs) for item in loader]


def test_sharded_iterable_without_workers_yields_everything_in_order() -> None:
    assert loaded(WorkerShardedIterable(range(5)), num_workers=0) == [0, 1, 2, 3, 4]


def test_a_plain_iterable_dataset_repeats_in_every_worker() -> None:
    class Plain(IterableDataset):
        def __iter__(self):
            return iter(range(4))

    assert sorted(loaded(Plain(), num_workers=2)) == [0, 0, 1, 1, 2, 2, 3, 3]


# 3 workers on a 2-core machine is the point here, not a mistake
MORE_WORKERS_THAN_CORES = pytest.mark.filterwarnings("ignore:This DataLoader will create")


@MORE_WORKERS_THAN_CORES
@pytest.mark.parametrize("num_workers", [1, 2, 3])
def test_sharded_iterable_yields_each_item_once(num_workers: int) -> None:
    assert sorted(loaded(WorkerShardedIterable(range(7)), num_workers)) == list(range(7))


def test_worker_k_takes_every_nth_shard_from_k() -> None:
    def tag(shard: int) -> list[tuple[int, int]]:
        return [(get_worker_info().id, shard)]

    pairs = loaded(WorkerShardedIterable(range(6), read_shard=tag), num_workers=2)
    assert sorted(shard for worker, shard in pairs if worker == 0) == [0, 2, 4]
    assert sorted(shard for worker, shard in pairs if worker == 1) == [1, 3, 5]


@MORE_WORKERS_THAN_CORES
def test_more_workers_than_shards() -> None:
    files = {"a": ["a0", "a1"], "b": ["b0"]}
    records = WorkerShardedIterable(sorted(files), read_shard=files.__getitem__)
    assert sorted(loaded(records, num_workers=3)) == ["a0", "a1", "b0"]


@pytest.mark.parametrize("num_workers", [0, 2])
def test_zero_shards_yield_nothing(num_workers: int) -> None:
    assert loaded(WorkerShardedIterable([]), num_workers) == []


def test_every_epoch_yields_everything_again() -> None:
    assert sorted(loaded(WorkerShardedIterable(["x", "y", "z"]), num_workers=2, epochs=2)) == [
        "x",
        "x",
        "y",
        "y",
        "z",
        "z",
    ]


def test_a_one_pass_iterator_is_rejected() -> None:
    with pytest.raises(TypeError, match="iterated again"):
        WorkerShardedIterable(iter(range(3)))
    with pytest.raises(TypeError):
        WorkerShardedIterable(x for x in range(3))
