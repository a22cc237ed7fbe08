# expect: for shape (6, 4) and strides (1, 6) (a transpose) viewed as (3, 2, 4) you returned None; expected (2, 1, 6)
# The mistake the notes make: "view() requires a contiguous tensor". It requires compatible
# strides: splitting a dimension of a transposed tensor is a view.
def view_strides(shape, strides, new_shape):
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides), strict=True):
        if size != 1 and stride != expected:
            return None
        expected *= size
    new_strides, step = [], 1
    for size in reversed(new_shape):
        new_strides.insert(0, step)
        step *= size
    return tuple(new_strides)
