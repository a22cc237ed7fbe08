"""Gradient saliency and Grad-CAM, written out in a few lines each.

Captum implements both (``captum.attr.Saliency``, ``captum.attr.LayerGradCam``) and is what to
use in practice. They are written here by hand because the pages teach from these lines: each
step of the method is one visible statement. The unit tests check them against captum.

Both functions differentiate the model's *class score*, the output before any softmax, and read
``target`` as one class for the whole batch (an ``int``) or one class per sample (a tensor of
shape ``(n,)``). Put the model in eval mode first: in training mode, dropout and batch norm make
the attribution of one sample depend on randomness or on the rest of the batch.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["grad_cam", "saliency"]


def _class_scores(scores: torch.Tensor, target: int | torch.Tensor) -> torch.Tensor:
    """The score of each sample's target class, summed over the batch.

    Samples do not interact in an eval-mode model, so the gradient of this sum with respect to
    sample i is the gradient of sample i's own score: one backward pass serves the whole batch.
    """
    target = torch.as_tensor(target, device=scores.device).expand(scores.shape[0])
    return scores.gather(1, target[:, None]).sum()


def saliency(model: nn.Module, inputs: torch.Tensor, target: int | torch.Tensor) -> torch.Tensor:
    """Vanilla gradient saliency: ``|d score_target / d input|`` for every input element.

    The map says how strongly a small change of each pixel would change the target class's score
    (Simonyan et al., 2013). For colour images, reduce the channels for display, e.g. with
    ``.amax(dim=1)``.

    Args:
        model: A classifier returning class scores ``(n, classes)``, in eval mode.
        inputs: A batch ``(n, ...)``; it is not modified.
        target: The class whose score is explained: one ``int`` for every sample, or ``(n,)``.

    Returns:
        The absolute gradient, with the shape of ``inputs``.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.attribution import saliency

      # For a linear model the gradient of score c is row c of the weight, for any input.
      model = nn.Linear(3, 2, bias=False)
      with torch.no_grad():
          model.weight.copy_(torch.tensor([[1.0, -2.0, 0.0], [0.5, 0.0, 3.0]]))
      maps = saliency(model, torch.randn(4, 3), target=torch.tensor([0, 1, 0, 1]))
      assert maps[0].tolist() == [1.0, 2.0, 0.0]
      assert maps[1].tolist() == [0.5, 0.0, 3.0]
      ```
    """
    inputs = inputs.detach().requires_grad_(True)
    with torch.enable_grad():
        score = _class_scores(model(inputs), target)
        (gradient,) = torch.autograd.grad(score, inputs)
    return gradient.abs()


def grad_cam(
    model: nn.Module,
    layer: nn.Module,
    inputs: torch.Tensor,
    target: int | torch.Tensor,
    *,
    upsample: bool = True,
) -> torch.Tensor:
    """Grad-CAM (Selvaraju et al., 2017): where the feature maps of ``layer`` support a class.

    Each channel k of the layer's output A gets one weight, the spatial mean of the gradient of
    the class score with respect to it: ``alpha_k = mean_ij d score / d A_kij``. The map is
    ``ReLU(sum_k alpha_k * A_k)``, kept positive because only evidence *for* the class is wanted.
    On a network that ends in global average pooling and a linear layer, ``alpha_k`` is the
    linear weight divided by the map's area, so Grad-CAM is then Class Activation Mapping (CAM).

    Args:
        model: A classifier returning class scores ``(n, classes)``, in eval mode.
        layer: A submodule of ``model`` whose output is ``(n, channels, h, w)``, usually the last
            convolutional block.
        inputs: A batch ``(n, channels, H, W)``.
        target: The class whose score is explained: one ``int`` for every sample, or ``(n,)``.
        upsample: Resize the map bilinearly to ``(H, W)`` to lay it over the input; ``False``
            keeps the layer's ``(h, w)``.

    Returns:
        A non-negative map ``(n, H, W)``, or ``(n, h, w)`` without upsampling.

    Raises:
        ValueError: If ``layer`` did not run in the forward pass.

    Examples:
      ```python
      import torch
      from torch import nn
      from torchguide.debug.attribution import grad_cam

      model = nn.Sequential(
          nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3),
      ).eval()
      images = torch.randn(2, 1, 8, 8)
      coarse = grad_cam(model, model[2], images, target=2, upsample=False)
      assert coarse.shape == (2, 4, 4) and (coarse >= 0).all()
      assert grad_cam(model, model[2], images, target=2).shape == (2, 8, 8)
      ```
    """
    captured: list[torch.Tensor] = []
    handle = layer.register_forward_hook(lambda module, args, output: captured.append(output))
    try:
        with torch.enable_grad():
            # Inputs that require grad give the layer's output a graph even if the weights are frozen.
            scores = model(inputs.detach().requires_grad_(True))
            if not captured:
                raise ValueError(f"{type(layer).__name__} did not run in the forward pass of the model")
            feature_maps = captured[-1]
            (gradients,) = torch.autograd.grad(_class_scores(scores, target), feature_maps)
    finally:
        handle.remove()
    channel_weights = gradients.mean(dim=(2, 3), keepdim=True)  # alpha_k, one per channel
    heatmap = F.relu((channel_weights * feature_maps).sum(dim=1, keepdim=True)).detach()
    if upsample:
        heatmap = F.interpolate(heatmap, size=inputs.shape[-2:], mode="bilinear")
    return heatmap[:, 0]
