# expect: for shape (3, 1) and strides (1, 1) expanded to (2, 3, 4) you returned (3, 1, 0); expected (0, 1, 0)
# The mistake: a new leading dimension given the stride it would have in a fresh tensor, a step
# over the whole block; expand makes no new memory, so every step along it lands on the same block.
def expand_strides(shape, strides, target):
    if len(target) < len(shape):
        return None
    new = len(target) - len(shape)
    result = []
    for size, stride, wanted in zip(shape, strides, target[new:], strict=True):
        if size == wanted:
            result.append(stride)
        elif size == 1:
            result.append(0)
        else:
            return None
    step = shape[0] * strides[0] if shape else 1
    return tuple([step] * new + result)
