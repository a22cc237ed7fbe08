# expect: for x of shape (6,), normalized_shape (6,), weight and bias, eps 0.5 (torch.float32) (a large eps) your output is
# The mistake: eps added to the standard deviation, not to the variance under the root.


def layer_norm(x, normalized_shape, weight, bias, eps):
    dims = tuple(range(-len(normalized_shape), 0))
    mean = x.mean(dim=dims, keepdim=True)
    std = x.var(dim=dims, unbiased=False, keepdim=True).sqrt()
    y = (x - mean) / (std + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y
