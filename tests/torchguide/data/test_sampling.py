"""Tests for torchguide.data.sampling."""

from collections import Counter

import pytest
import torch
from torch.utils.data import DataLoader, WeightedRandomSampler

from torchguide.data.collate import collate_padded_sequences
from torchguide.data.sampling import LengthBucketBatchSampler, class_balanced_weights


def test_each_class_weighs_the_same_in_total() -> None:
    labels = torch.tensor([2] * 90 + [5] * 9 + [7])
    weights = class_balanced_weights(labels)
    assert weights.dtype == torch.float64 and weights.shape == (100,)
    totals = [weights[labels == c].sum().item() for c in (2, 5, 7)]
    assert totals == pytest.approx([1.0, 1.0, 1.0])


def test_balanced_weights_balance_the_sampler() -> None:
    labels = [0] * 950 + [1] * 50
    sampler = WeightedRandomSampler(
        class_balanced_weights(labels), num_samples=20_000, generator=torch.Generator().manual_seed(0)
    )
    counts = Counter(labels[i] for i in sampler)
    assert abs(counts[1] / 20_000 - 0.5) < 0.02


def test_one_class_only_is_uniform() -> None:
    weights = class_balanced_weights([3, 3, 3, 3])
    assert weights.tolist() == [0.25] * 4


def test_no_labels_give_no_weights() -> None:
    assert class_balanced_weights([]).shape == (0,)


def test_bucketing_covers_each_index_once_per_epoch() -> None:
    lengths = torch.randint(0, 50, (103,), generator=torch.Generator().manual_seed(1))
    sampler = LengthBucketBatchSampler(lengths, batch_size=10, pool_batches=3)
    for _ in range(2):
        batches = list(sampler)
        assert len(batches) == len(sampler) == 11
        assert sorted(i for b in batches for i in b) == list(range(103))
        assert sorted(len(b) for b in batches) == [3] + [10] * 10


def test_bucketing_pads_less_than_random_batches() -> None:
    generator = torch.Generator().manual_seed(0)
    lengths = torch.randint(1, 100, (1000,), generator=generator)

    def padding(batches) -> int:
        return sum(len(b) * int(lengths[b].max()) - int(lengths[b].sum()) for b in batches)

    random_batches = torch.randperm(1000, generator=generator).split(16)
    bucketed = LengthBucketBatchSampler(lengths, batch_size=16, generator=generator)
    assert padding(list(bucketed)) * 10 < padding([b.tolist() for b in random_batches])


def test_batches_change_between_epochs_and_repeat_with_a_seed() -> None:
    lengths = [5] * 40  # all equal: only the shuffle decides who meets whom

    def epochs(seed: int) -> list[list[list[int]]]:
        sampler = LengthBucketBatchSampler(
            lengths, batch_size=4, generator=torch.Generator().manual_seed(seed)
        )
        return [list(sampler), list(sampler)]

    first, second = epochs(0)
    assert first != second
    assert epochs(0) == [first, second]


def test_without_shuffle_batches_follow_length_order() -> None:
    sampler = LengthBucketBatchSampler([4, 1, 3, 2, 0], batch_size=2, shuffle=False)
    assert list(sampler) == [[4, 1], [3, 2], [0]]


def test_drop_last_drops_only_a_short_final_batch() -> None:
    assert len(LengthBucketBatchSampler([1] * 10, batch_size=4, drop_last=True)) == 2
    assert all(len(b) == 4 for b in LengthBucketBatchSampler([1] * 10, batch_size=4, drop_last=True))
    assert len(list(LengthBucketBatchSampler([1] * 8, batch_size=4, drop_last=True))) == 2
    assert list(LengthBucketBatchSampler([1] * 3, batch_size=4, drop_last=True)) == []


def test_edge_cases() -> None:
    assert list(LengthBucketBatchSampler([], batch_size=4)) == []
    assert len(LengthBucketBatchSampler([], batch_size=4)) == 0
    assert list(LengthBucketBatchSampler([7], batch_size=4)) == [[0]]
    with pytest.raises(ValueError, match="positive"):
        LengthBucketBatchSampler([1, 2], batch_size=0)


def test_works_as_a_dataloader_batch_sampler() -> None:
    lengths = [3, 0, 7, 2, 7, 1]
    dataset = [(torch.ones(n), n) for n in lengths]
    sampler = LengthBucketBatchSampler(lengths, batch_size=2, generator=torch.Generator().manual_seed(0))
    loader = DataLoader(dataset, batch_sampler=sampler, collate_fn=collate_padded_sequences)
    batches = list(loader)
    assert len(batches) == len(loader) == 3
    assert sorted(sorted(b.lengths.tolist()) for b in batches) == [[0, 1], [2, 3], [7, 7]]
    assert sum(int((~b.mask).sum()) for b in batches) == 1 + 1  # padding only where lengths differ
