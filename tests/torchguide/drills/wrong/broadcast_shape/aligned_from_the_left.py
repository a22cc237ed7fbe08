# expect: for shapes (2, 3) and (3,) you returned None; expected (2, 3): they broadcast
# The mistake: the sizes paired from the left, as zip pairs them, with the shorter shape padded
# on the right; broadcasting aligns the shapes from the right.
def broadcast_shape(a, b):
    size = max(len(a), len(b))
    a = tuple(a) + (1,) * (size - len(a))
    b = tuple(b) + (1,) * (size - len(b))
    shape = []
    for x, y in zip(a, b, strict=True):
        if x != y and 1 not in (x, y):
            return None
        shape.append(max(x, y))
    return tuple(shape)
