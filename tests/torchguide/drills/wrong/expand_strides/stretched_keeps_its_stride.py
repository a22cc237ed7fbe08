# expect: for shape (3, 1) and strides (1, 1) expanded to (3, 4) you returned (1, 1); expected (1, 0)
# The mistake: the strides left as they were, as if expand copied the column four times; it makes
# a view whose stretched dimension steps by 0 over the one column.
def expand_strides(shape, strides, target):
    if len(target) < len(shape):
        return None
    new = len(target) - len(shape)
    if any(s != t and s != 1 for s, t in zip(shape, target[new:], strict=True)):
        return None
    return (0,) * new + tuple(strides)
