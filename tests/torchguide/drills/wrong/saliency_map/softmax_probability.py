# expect: for a (1, 3, 3) image and class 0 your saliency map is [[0.0066, 0.0121, 0.0046], [0.0137, 0.0188, 0.0092], [0.0091, 0.006, 0.0158]]; expected [[0.0273, 0.0538, 0.0243], [0.0388, 0.067, 0.0411], [0.0363, 0.0356, 0.0398]]
# The mistake: the gradient of the softmax probability, which fades where the model is confident.
import torch


def saliency(model, image, target):
    x = image.clone().requires_grad_(True)
    torch.softmax(model(x[None]), dim=1)[0, target].backward()
    return x.grad.abs().amax(dim=0)
