# expect: your saliency left model in training mode; leave the model in the mode it was given in
# The mistake: model.train() to get gradients, which are there in eval mode too, and not undone.
import torch


def saliency(model, image, target):
    model.train()
    x = image.detach().clone().requires_grad_(True)
    (gradient,) = torch.autograd.grad(model(x.unsqueeze(0))[0, target], x)
    return gradient.abs().amax(dim=0)
