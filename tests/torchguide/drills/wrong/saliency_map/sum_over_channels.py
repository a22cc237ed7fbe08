# expect: for a (2, 1, 1) image and class 1 your saliency map is [[0.1246]]; expected [[0.0646]]
# The mistake: summing the channels' absolute gradients instead of taking their maximum.
def saliency(model, image, target):
    x = image.clone().requires_grad_(True)
    model(x[None])[0, target].backward()
    return x.grad.abs().sum(dim=0)
