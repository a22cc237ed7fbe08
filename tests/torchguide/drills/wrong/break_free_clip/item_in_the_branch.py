# expect: Dynamo captured your clip_to_norm in 2 graphs with 1 graph breaks (Unsupported Tensor.item() call
# The mistake: the version in the statement, .item() feeding a Python if.
def clip_to_norm(x, max_norm):
    norm = x.norm()
    if norm.item() > max_norm:
        x = x * (max_norm / norm)
    return x
