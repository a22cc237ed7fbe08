# expect: your saliency left requires_grad=True on its argument image; leave it as it was
# The mistake: requires_grad_() on the caller's image itself, and its .grad left behind.
import torch


def saliency(model, image, target):
    image.requires_grad_(True)
    (gradient,) = torch.autograd.grad(model(image.unsqueeze(0))[0, target], image)
    return gradient.abs().amax(dim=0)
