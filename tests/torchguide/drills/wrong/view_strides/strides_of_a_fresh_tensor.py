# expect: for shape (3, 2) and strides (1, 3) (a transpose) viewed as (6,) you returned (1,); expected None
# The mistake: the row-major strides of new_shape, as a new tensor of that shape would have,
# whatever the old strides; view cannot move an element, so it cannot always give them.
def view_strides(shape, strides, new_shape):
    new_strides, step = [], 1
    for size in reversed(new_shape):
        new_strides.insert(0, step)
        step *= size
    return tuple(new_strides)
