"""Tests for torchguide.debug.toyvision."""

import pytest
import torch

from torchguide.debug.toyvision import CLASS_NAMES, TinyCNN, bar_images, train_tiny_cnn


def test_each_image_holds_one_bar_of_its_class_orientation():
    data = bar_images(200, length=5, seed=3)
    assert len(data) == 200 and data.images.shape == (200, 1, 16, 16)
    for mask, label in zip(data.bar_masks, data.labels, strict=True):
        rows, cols = mask.nonzero().T
        assert len(rows) == 5
        name = CLASS_NAMES[label]
        if name == "horizontal":
            assert rows.unique().numel() == 1 and cols.diff().eq(1).all()
        elif name == "vertical":
            assert cols.unique().numel() == 1 and rows.diff().eq(1).all()
        elif name == "diagonal":
            assert rows.diff().eq(1).all() and cols.diff().eq(1).all()
        else:  # anti-diagonal: rows go down while columns go left
            order = rows.argsort()
            assert rows[order].diff().eq(1).all() and cols[order].diff().eq(-1).all()


def test_bars_are_brighter_by_their_contrast():
    data = bar_images(50, noise=0.0, min_contrast=0.3, seed=0)
    image = data.images[:, 0]
    assert torch.equal(image != 0, data.bar_masks)
    assert torch.allclose(image.amax(dim=(1, 2)), data.contrast)
    assert data.contrast.min() >= 0.3 and data.contrast.max() <= 1.0


def test_the_seed_decides_the_images_and_all_classes_occur():
    assert torch.equal(bar_images(20, seed=5).images, bar_images(20, seed=5).images)
    assert not torch.equal(bar_images(20, seed=5).images, bar_images(20, seed=6).images)
    assert set(bar_images(100).labels.tolist()) == set(range(len(CLASS_NAMES)))


def test_bar_length_is_checked():
    with pytest.raises(ValueError, match="length"):
        bar_images(1, size=4, length=5)


def test_tiny_cnn_shapes():
    model = TinyCNN(classes=3, width=7)
    x = torch.zeros(5, 1, 16, 16)
    assert model.features(x).shape == (5, 7, 8, 8)
    assert model.embed(x).shape == (5, 7)
    assert model(x).shape == (5, 3)


def test_training_learns_the_bars_is_reproducible_and_leaves_the_global_rng_alone():
    train, test = bar_images(600, seed=0), bar_images(200, seed=1)
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    model = train_tiny_cnn(train.images, train.labels, steps=150)
    assert torch.equal(torch.rand(1), before)
    accuracy = (model(test.images).argmax(1) == test.labels).float().mean()
    assert accuracy > 0.9
    assert not model.training
    again = train_tiny_cnn(train.images, train.labels, steps=150)
    assert torch.equal(model.classifier.weight, again.classifier.weight)


def test_a_few_steps_do_not_learn_it():
    train, test = bar_images(600, seed=0), bar_images(200, seed=1)
    model = train_tiny_cnn(train.images, train.labels, steps=3)
    assert (model(test.images).argmax(1) == test.labels).float().mean() < 0.6


def test_without_a_seed_the_model_follows_torchs_seed():
    train = bar_images(64, seed=0)
    models = []
    for seed in (1, 1, 2):
        torch.manual_seed(seed)
        models.append(train_tiny_cnn(train.images, train.labels, steps=2).classifier.weight)
    assert torch.equal(models[0], models[1]) and not torch.equal(models[0], models[2])
