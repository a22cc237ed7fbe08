# expect: for shape (2, 1, 3) and strides (3, 99, 1) viewed as (6,) you returned None; expected (1,)
# The mistake: the runs of memory checked with every dimension's stride, that of a dimension of
# size 1 too, which is never stepped over and may be anything.
import math


def view_strides(shape, strides, new_shape):
    if not shape or math.prod(shape) == 0:
        return tuple(1 for _ in new_shape)
    new_strides = [1] * len(new_shape)
    d = len(new_shape) - 1
    run_numel = view_numel = 1
    base = strides[-1]
    for i in range(len(shape) - 1, -1, -1):
        run_numel *= shape[i]
        if i == 0 or strides[i - 1] != run_numel * base:
            while d >= 0 and (view_numel < run_numel or new_shape[d] == 1):
                new_strides[d] = view_numel * base
                view_numel *= new_shape[d]
                d -= 1
            if view_numel != run_numel:
                return None
            if i > 0:
                base, run_numel, view_numel = strides[i - 1], 1, 1
    return tuple(new_strides) if d < 0 else None
