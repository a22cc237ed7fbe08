"""Tests for torchguide.data.failures."""

import pytest
import torch
from torch.utils.data import DataLoader

from torchguide.data.failures import ResampleFailed, collate_dropping_none


def test_collate_drops_none_and_stacks_the_rest() -> None:
    batch = [(torch.full((2,), 1.0), 1), None, (torch.full((2,), 3.0), 3)]
    images, labels = collate_dropping_none(batch)
    assert torch.equal(images, torch.tensor([[1.0, 1.0], [3.0, 3.0]]))
    assert labels.tolist() == [1, 3]


def test_collate_keeps_a_full_batch_unchanged() -> None:
    batch = [torch.tensor([i]) for i in range(4)]
    assert torch.equal(collate_dropping_none(batch), torch.arange(4).reshape(4, 1))


def test_collate_returns_none_when_every_sample_failed() -> None:
    assert collate_dropping_none([None, None, None]) is None


def test_collate_returns_none_for_an_empty_batch() -> None:
    assert collate_dropping_none([]) is None


def test_collate_uses_the_given_collate_fn_on_the_survivors() -> None:
    seen = []
    result = collate_dropping_none([1, None, 2], collate_fn=lambda kept: seen.append(kept) or "x")
    assert result == "x" and seen == [[1, 2]]


def test_collate_keeps_falsy_samples_that_are_not_none() -> None:
    assert collate_dropping_none([0, None, 0]).tolist() == [0, 0]


def test_dataloader_batches_shrink_by_the_failed_samples() -> None:
    samples = [None if i % 3 == 0 else torch.tensor(float(i)) for i in range(8)]
    loader = DataLoader(samples, batch_size=4, collate_fn=collate_dropping_none)
    assert [len(batch) for batch in loader] == [2, 3]


class _Counting:
    """A dataset that fails at given indices and records every index it was asked for."""

    def __init__(self, size: int, broken: set[int]) -> None:
        self.size, self.broken, self.asked = size, broken, []

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int):
        self.asked.append(index)
        return None if index in self.broken else index


def test_resample_returns_working_samples_unchanged() -> None:
    data = _Counting(5, broken={2})
    dataset = ResampleFailed(data)
    assert [dataset[i] for i in (0, 1, 3, 4)] == [0, 1, 3, 4]
    assert data.asked == [0, 1, 3, 4]


def test_resample_replaces_a_failed_sample_with_a_working_one() -> None:
    dataset = ResampleFailed(_Counting(10, broken={2, 5}), seed=3)
    replacement = dataset[2]
    assert replacement is not None and replacement not in {2, 5}


def test_resample_is_deterministic_per_index_and_seed() -> None:
    first = ResampleFailed(_Counting(100, broken={7}), seed=1)
    again = ResampleFailed(_Counting(100, broken={7}), seed=1)
    assert first[7] == first[7] == again[7]
    replacements = {ResampleFailed(_Counting(100, broken={7}), seed=s)[7] for s in range(20)}
    assert len(replacements) > 1  # the seed changes the choice


def test_resample_keeps_every_batch_full() -> None:
    data = [None if i % 4 == 0 else torch.tensor(float(i)) for i in range(12)]
    loader = DataLoader(ResampleFailed(data), batch_size=4)
    batches = list(loader)
    assert [len(batch) for batch in batches] == [4, 4, 4]
    assert all(int(value) % 4 != 0 for batch in batches for value in batch)


def test_resample_raises_when_everything_fails() -> None:
    data = _Counting(6, broken=set(range(6)))
    dataset = ResampleFailed(data, max_attempts=3)
    with pytest.raises(RuntimeError, match="3 samples in a row failed"):
        dataset[1]
    assert len(data.asked) == 3 and data.asked[0] == 1


def test_resample_length_is_the_wrapped_length() -> None:
    assert len(ResampleFailed([1, 2, 3])) == 3


def test_resample_rejects_fewer_than_one_attempt() -> None:
    with pytest.raises(ValueError, match="max_attempts"):
        ResampleFailed([1], max_attempts=0)
