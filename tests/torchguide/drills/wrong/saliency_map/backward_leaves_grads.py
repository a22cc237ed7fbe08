# expect: your saliency left a gradient in the .grad of model's parameter 0.weight; leave it as it was
# The mistake: backward() on the score, which also writes every parameter's .grad.
def saliency(model, image, target):
    x = image.detach().clone().requires_grad_(True)
    model(x.unsqueeze(0))[0, target].backward()
    return x.grad.abs().amax(dim=0)
