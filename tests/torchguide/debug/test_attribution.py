"""Tests for torchguide.debug.attribution: the hand-written maps agree with captum's."""

import pytest
import torch
from captum.attr import LayerAttribution, LayerGradCam, Saliency
from torch import nn

from torchguide.debug.attribution import grad_cam, saliency


def random_cnn(seed: int = 0) -> nn.Sequential:
    """Conv, ReLU, pool, conv, ReLU (index 4: 4 x 4 maps for 8 x 8 inputs), pooling, linear."""
    torch.manual_seed(seed)
    return nn.Sequential(
        nn.Conv2d(3, 6, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(6, 5, 3, padding=1),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(5, 4),
    ).eval()


@pytest.fixture
def images() -> torch.Tensor:
    return torch.randn(6, 3, 8, 8, generator=torch.Generator().manual_seed(1))


TARGETS = [2, torch.tensor(1), torch.tensor([0, 1, 2, 3, 0, 1])]


@pytest.mark.parametrize("target", TARGETS, ids=["int", "scalar tensor", "per sample"])
def test_saliency_equals_captum(images, target):
    model = random_cnn()
    ours = saliency(model, images, target)
    theirs = Saliency(model).attribute(images.clone().requires_grad_(), target=target)
    assert ours.shape == images.shape
    torch.testing.assert_close(ours, theirs)


@pytest.mark.parametrize("target", TARGETS, ids=["int", "scalar tensor", "per sample"])
def test_grad_cam_equals_captum_with_relu_and_bilinear_upsampling(images, target):
    model = random_cnn()
    layer = model[4]
    coarse = LayerGradCam(model, layer).attribute(images, target=target, relu_attributions=True)
    theirs = LayerAttribution.interpolate(coarse, (8, 8), interpolate_mode="bilinear")
    ours = grad_cam(model, layer, images, target)
    assert ours.shape == (6, 8, 8)
    torch.testing.assert_close(ours, theirs[:, 0])
    torch.testing.assert_close(grad_cam(model, layer, images, target, upsample=False), coarse[:, 0])


def test_grad_cam_is_non_negative_where_captums_default_is_not(images):
    model = random_cnn()
    raw = LayerGradCam(model, model[4]).attribute(images, target=0)  # relu_attributions=False
    assert (raw < 0).any()
    assert (grad_cam(model, model[4], images, 0) >= 0).all()


def test_a_batch_of_one_gives_the_same_maps_as_in_a_batch(images):
    model = random_cnn()
    target = torch.tensor([3, 1, 0, 2, 2, 1])
    batch_saliency = saliency(model, images, target)
    batch_heat = grad_cam(model, model[4], images, target)
    for i in range(len(images)):
        one = images[i : i + 1]
        torch.testing.assert_close(saliency(model, one, int(target[i])), batch_saliency[i : i + 1])
        torch.testing.assert_close(grad_cam(model, model[4], one, target[i : i + 1]), batch_heat[i : i + 1])


def test_saliency_of_a_linear_model_is_the_weight_row(images):
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 4)).eval()
    maps = saliency(model, images, 3)
    expected = model[1].weight[3].abs().reshape(3, 8, 8).detach()
    assert all(torch.equal(m, expected) for m in maps)


def test_inputs_are_left_alone_and_no_grad_context_is_overridden(images):
    model = random_cnn()
    for parameter in model.parameters():
        parameter.requires_grad_(False)  # frozen weights: the graph must come from the inputs
    with torch.no_grad():
        maps = saliency(model, images, 0)
        heat = grad_cam(model, model[4], images, 0)
    assert maps.abs().sum() > 0 and heat.sum() > 0
    assert not images.requires_grad and images.grad is None


def test_grad_cam_removes_its_hook_and_rejects_a_layer_that_does_not_run(images):
    model = random_cnn()
    grad_cam(model, model[4], images, 0)
    assert not model[4]._forward_hooks
    stray = nn.ReLU()
    with pytest.raises(ValueError, match="did not run"):
        grad_cam(model, stray, images, 0)
    assert not stray._forward_hooks
