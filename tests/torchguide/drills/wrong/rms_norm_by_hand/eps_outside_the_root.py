# expect: for x of shape (3, 4), a weight, eps 0.5 (torch.float32, seed 3, a large eps) your output is
# The mistake: eps added to the root mean square rather than under the root.
def rms_norm(x, weight, eps):
    y = x / (x.pow(2).mean(dim=-1, keepdim=True).sqrt() + eps)
    return y if weight is None else y * weight
