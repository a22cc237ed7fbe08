"""Tests for torchguide.data.collate."""

import pytest
import torch
from torch.utils.data import DataLoader

from torchguide.data.collate import (
    ImageBatch,
    SequenceBatch,
    collate_padded_images,
    collate_padded_sequences,
)


def test_images_are_padded_to_the_largest_height_and_width() -> None:
    torch.manual_seed(0)
    a, b = torch.rand(3, 2, 5), torch.rand(3, 4, 1)
    out = collate_padded_images([(a, 0), (b, 1)], padding_value=-1.0)
    assert out.images.shape == (2, 3, 4, 5)
    assert torch.equal(out.images[0, :, :2, :5], a)
    assert torch.equal(out.images[1, :, :4, :1], b)
    assert out.images[0, :, 2:, :].eq(-1).all() and out.images[1, :, :, 1:].eq(-1).all()
    assert out.sizes.tolist() == [[2, 5], [4, 1]]
    assert torch.equal(out.mask, out.images[:, 0] != -1)


def test_image_padding_keeps_the_dtype() -> None:
    batch = [(torch.full((1, 1, 2), 200, dtype=torch.uint8), 0), (torch.zeros(1, 3, 1, dtype=torch.uint8), 0)]
    assert collate_padded_images(batch).images.dtype == torch.uint8


def test_a_batch_of_one_image_is_not_padded() -> None:
    image = torch.rand(3, 4, 6)
    out = collate_padded_images([(image, 5)])
    assert torch.equal(out.images[0], image) and out.mask.all()
    assert out.labels.tolist() == [5]


def test_labels_of_any_collatable_type() -> None:
    batch = [(torch.zeros(1, 1, 1), {"box": torch.ones(4)}), (torch.zeros(1, 2, 2), {"box": torch.zeros(4)})]
    out = collate_padded_images(batch)
    assert out.labels["box"].shape == (2, 4)


@pytest.mark.parametrize("collate", [collate_padded_images, collate_padded_sequences])
def test_an_empty_batch_is_refused(collate) -> None:
    with pytest.raises(ValueError, match="empty batch"):
        collate([])


def test_images_with_different_channels_are_refused() -> None:
    with pytest.raises(ValueError, match="channels"):
        collate_padded_images([(torch.zeros(3, 2, 2), 0), (torch.zeros(1, 2, 2), 0)])
    with pytest.raises(ValueError, match=r"\(C, H, W\)"):
        collate_padded_images([(torch.zeros(2, 2), 0)])


def test_sequences_get_lengths_and_mask() -> None:
    batch = [(torch.arange(1, 4), 1), (torch.arange(1, 2), 0), (torch.arange(1, 6), 1)]
    out = collate_padded_sequences(batch, padding_value=-9)
    assert out.sequences.shape == (3, 5)
    assert out.lengths.tolist() == [3, 1, 5]
    assert out.mask.sum(dim=1).tolist() == [3, 1, 5]
    assert out.sequences[~out.mask].eq(-9).all()
    assert out.labels.tolist() == [1, 0, 1]


def test_sequences_keep_their_feature_dimensions() -> None:
    torch.manual_seed(0)
    batch = [(torch.rand(2, 4), 0), (torch.rand(3, 4), 0)]
    out = collate_padded_sequences(batch)
    assert out.sequences.shape == (2, 3, 4) and out.mask.shape == (2, 3)
    assert torch.equal(out.sequences[0, :2], batch[0][0])


def test_zero_length_sequences() -> None:
    out = collate_padded_sequences([(torch.zeros(0), 0), (torch.ones(2), 1)])
    assert out.lengths.tolist() == [0, 2] and not out.mask[0].any()
    only_empty = collate_padded_sequences([(torch.zeros(0), 0), (torch.zeros(0), 1)])
    assert only_empty.sequences.shape == (2, 0) and only_empty.mask.shape == (2, 0)


def test_both_work_as_collate_fn_with_workers_and_pinning() -> None:
    torch.manual_seed(0)
    images = [(torch.rand(3, 2 + i % 3, 4 - i % 2), i) for i in range(6)]
    loader = DataLoader(images, batch_size=4, collate_fn=collate_padded_images, num_workers=2)
    batches = list(loader)
    assert [type(b) for b in batches] == [ImageBatch, ImageBatch]
    assert [b.images.shape[0] for b in batches] == [4, 2]
    sequences = [(torch.ones(i), i) for i in range(5)]
    (batch,) = DataLoader(sequences, batch_size=5, collate_fn=collate_padded_sequences)
    assert isinstance(batch, SequenceBatch) and batch.lengths.tolist() == [0, 1, 2, 3, 4]
