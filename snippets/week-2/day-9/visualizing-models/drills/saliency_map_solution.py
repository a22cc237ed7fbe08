import torch
from torchguide.drills import check_here


def saliency(model, image, target):
    x = image.detach().clone().requires_grad_(True)
    score = model(x.unsqueeze(0))[0, target]  # the class score, before softmax
    (gradient,) = torch.autograd.grad(score, x)
    return gradient.abs().amax(dim=0)


check_here("saliency_map", saliency)
