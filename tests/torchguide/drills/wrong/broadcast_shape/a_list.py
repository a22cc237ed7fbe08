# expect: for shapes (3, 1) and (1, 4) you returned [3, 4], a list; expected the tuple (3, 4)
# The mistake: the shape as a list; a shape is a tuple, as torch.Size is, and compares unequal
# to a list of the same sizes.
def broadcast_shape(a, b):
    size = max(len(a), len(b))
    a = [1] * (size - len(a)) + list(a)
    b = [1] * (size - len(b)) + list(b)
    shape = []
    for x, y in zip(a, b, strict=True):
        if x != y and 1 not in (x, y):
            return None
        shape.append(y if x == 1 else x)
    return shape
