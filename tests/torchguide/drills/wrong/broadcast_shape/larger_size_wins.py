# expect: for shapes (1,) and (0,) you returned (1,); expected (0,)
# The mistake: the larger of each pair of sizes, which is right until a size is 0: a dimension
# of size 1 stretches to 0 elements, so the result is empty.
def broadcast_shape(a, b):
    size = max(len(a), len(b))
    a = (1,) * (size - len(a)) + tuple(a)
    b = (1,) * (size - len(b)) + tuple(b)
    if any(x != y and 1 not in (x, y) for x, y in zip(a, b, strict=True)):
        return None
    return tuple(max(x, y) for x, y in zip(a, b, strict=True))
